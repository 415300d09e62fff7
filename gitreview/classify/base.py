"""The records classification rules work on and give back."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from gitreview.analyze import Analysis
from gitreview.config import Config
from gitreview.model import Classification, FileChange, Finding, Hunk


@dataclass(frozen=True)
class FileFacts:
    """Everything a rule may look at: pure data, no repository."""

    change: FileChange
    kind: str
    analysis: Analysis
    config: Config
    attributes: Mapping[str, bool | str | None]  # gitattributes of the path at head
    findings: tuple[Finding, ...] = ()  # with the configured severities


@dataclass(frozen=True)
class Proof:
    """What a rule shows when it finds a change trivial: reason codes, and one line
    of evidence a person can check (`git review-manifest explain` prints it)."""

    reasons: tuple[str, ...]
    evidence: str


@dataclass(frozen=True)
class Verdict:
    classification: Classification
    reasons: tuple[str, ...]
    evidence: str = ""


@dataclass(frozen=True)
class FileVerdict:
    classification: Classification
    reasons: tuple[str, ...]
    hunks: tuple[Verdict, ...]  # one per hunk of the change, in order
    evidence: str = ""


FileRule = Callable[[FileFacts], Proof | None]
HunkRule = Callable[[FileFacts, Hunk], Proof | None]
