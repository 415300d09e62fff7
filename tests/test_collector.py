"""The cyclic garbage collector while a range is classified (collector.py, issue 12):
paused throughout, as it was after, and nothing left for it to collect."""

from __future__ import annotations

import gc
import inspect
import sys
from typing import Any

import pytest
from manifests import check_text, validate_manifest
from repos import RepoFactory

from gitreview.collector import paused
from gitreview.pipeline import classify_range, review_of

RANGES = [("kinds", "v1..v3"), ("moves", "v1..v2"), ("markdown_elsewhere", "v1..v2")]


@pytest.mark.parametrize(("fixture", "spec"), RANGES)
def test_no_cyclic_collection_while_a_range_is_classified(
    fixture_repo: RepoFactory, fixture: str, spec: str
) -> None:
    collections: list[int] = []
    stages = {inspect.unwrap(stage).__code__ for stage in (classify_range, review_of)}

    def counted(phase: str, info: dict[str, Any]) -> None:
        """A collection started from inside a stage (the callback runs on its stack)."""
        frame = sys._getframe(1)
        while frame is not None and frame.f_code not in stages:
            frame = frame.f_back  # type: ignore[assignment]
        if phase == "start" and frame is not None:
            collections.append(info["generation"])

    gc.callbacks.append(counted)
    try:
        assembled = review_of(classify_range(fixture_repo(fixture), spec, cache=False))
    finally:
        gc.callbacks.remove(counted)
    validate_manifest(assembled.manifest)
    check_text("".join(assembled.text), assembled.manifest)
    assert collections == []
    assert gc.isenabled()  # as it was


@pytest.mark.parametrize(("fixture", "spec"), RANGES)
def test_a_range_leaves_nothing_for_the_collector(
    fixture_repo: RepoFactory, fixture: str, spec: str
) -> None:
    """Reference counting frees what the pipeline makes: pausing the collector cannot
    grow memory range after range."""
    repo = fixture_repo(fixture)
    review_of(classify_range(repo, spec, cache=False))  # imports, caches: made once
    gc.collect()
    gc.disable()
    try:
        for _ in range(3):
            review_of(classify_range(repo, spec, cache=False))
        left = gc.collect()
    finally:
        gc.enable()
    assert left < 50


def test_a_pause_inside_a_pause_leaves_the_collector_paused() -> None:
    with paused():
        with paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()
    try:
        with paused():
            pass
        assert not gc.isenabled()  # it was off before: left off
    finally:
        gc.enable()


def test_a_range_leaves_no_head_index_behind(fixture_repo: RepoFactory) -> None:
    """The link checks' index of the head (its texts and parsed pages) goes with the
    range: a long-running MCP server would otherwise keep every range's."""
    from gitreview.analyze.links import HeadIndex
    from gitreview.analyze.markdown import BROKEN_ELSEWHERE

    def indexes() -> int:
        return sum(isinstance(thing, HeadIndex) for thing in gc.get_objects())

    repo = fixture_repo("markdown_elsewhere")
    before = indexes()
    for _ in range(2):
        outcome = classify_range(repo, "v1..v2", cache=False)
        assert any(finding.rule == BROKEN_ELSEWHERE.id for finding in outcome.findings)
        review_of(outcome)
    assert indexes() == before
