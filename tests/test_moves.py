"""Moved blocks: trivial both ways and pointing at each other; edits and copies are not."""

from typing import Any

import pytest
from manifests import files_by_path, manifest_of, run
from repos import RepoFactory, git


@pytest.fixture(scope="module")
def moves(fixture_repo: RepoFactory) -> dict[str, dict[str, Any]]:
    return files_by_path(manifest_of("--repo", fixture_repo("moves"), "v1..v2"))


def blob(repo_factory: RepoFactory, rev: str, path: str) -> str:
    return git(repo_factory("moves"), "rev-parse", f"{rev}:{path}")[:12]


def summary(entry: dict[str, Any]) -> list[tuple[str, str, list[str], list[str]]]:
    return [
        (
            h["handle"].split("@")[0],
            h["classification"],
            h.get("moved_from", []),
            h.get("moved_to", []),
        )
        for h in entry["hunks"]
    ]


def test_moved_blocks_point_at_each_other(
    moves: dict[str, dict[str, Any]], fixture_repo: RepoFactory
) -> None:
    ledger = blob(fixture_repo, "v1", "src/ledger.py")
    report = blob(fixture_repo, "v2", "src/report.py")
    audit = blob(fixture_repo, "v2", "src/audit.py")
    assert summary(moves["src/ledger.py"]) == [
        ("src/ledger.py:-4-11", "trivial", [], [f"src/report.py:14-21@{report}"]),
        ("src/ledger.py:-22-29", "significant", [], []),  # moved with a constant changed
        ("src/ledger.py:-40-47", "trivial", [], [f"src/audit.py:32-39@{audit}"]),
        ("src/ledger.py:-58-61", "significant", [], []),  # two lines: too small to tell
    ]
    assert summary(moves["src/report.py"]) == [
        ("src/report.py:14-21", "trivial", [f"src/ledger.py:4-11@{ledger}"], []),
        ("src/report.py:32-39", "significant", [], []),  # the second copy of weekly()
        ("src/report.py:50-51", "significant", [], []),
    ]
    assert summary(moves["src/audit.py"]) == [
        ("src/audit.py:14-21", "significant", [], []),  # yearly() with 12 changed to 13
        ("src/audit.py:32-39", "trivial", [f"src/ledger.py:40-47@{ledger}"], []),
    ]
    for entry in moves.values():
        for hunk in entry["hunks"]:
            assert hunk["reasons"] == (
                ["moved"] if hunk["classification"] == "trivial" else ["content"]
            )


def test_a_pointer_shows_the_same_lines(
    fixture_repo: RepoFactory, moves: dict[str, dict[str, Any]]
) -> None:
    repo = fixture_repo("moves")
    removal = moves["src/ledger.py"]["hunks"][0]
    [target] = removal["moved_to"]
    removed_text = [
        line.split(":", 1)[1]
        for line in run("show", "--new", "--repo", repo, removal["handle"]).stdout.splitlines()
    ]
    added_text = [
        line.split(":", 1)[1] for line in run("show", "--repo", repo, target).stdout.splitlines()
    ]
    assert removed_text[:6] == added_text[:6]


def test_explain_names_where_a_block_came_from(
    fixture_repo: RepoFactory, moves: dict[str, dict[str, Any]]
) -> None:
    hunk = moves["src/report.py"]["hunks"][0]
    result = run("explain", "--repo", fixture_repo("moves"), hunk["handle"], "v1..v2")
    assert result.stdout == (
        f"{hunk['handle']}\n  trivial: moved\n  moved from {hunk['moved_from'][0]}, unchanged\n"
    )
