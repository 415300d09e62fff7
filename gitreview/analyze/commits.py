"""Placeholder range analyzer: filled in by a later issue."""

from __future__ import annotations

from collections.abc import Iterable

from gitreview.analyze.base import Rule
from gitreview.config import Config
from gitreview.model import Finding, Range

RULES: tuple[Rule, ...] = ()


def analyze_range(rng: Range, config: Config) -> Iterable[Finding]:
    return ()
