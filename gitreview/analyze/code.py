"""Placeholder analyzer: filled in by a later issue."""

from __future__ import annotations

from gitreview.analyze.base import Report, Rule, Subject

RULES: tuple[Rule, ...] = ()
KINDS: tuple[str, ...] = ()


def analyze(subject: Subject) -> Report:
    return Report()
