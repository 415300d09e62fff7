"""Placeholder: prose rules (reflow, typo, metadata), filled in for issue #3."""

from __future__ import annotations

from gitreview.classify.base import FileFacts, Proof
from gitreview.model import Hunk


def metadata_only(facts: FileFacts) -> Proof | None:
    return None


def reflow(facts: FileFacts, hunk: Hunk) -> Proof | None:
    return None


def typo(facts: FileFacts, hunk: Hunk) -> Proof | None:
    return None
