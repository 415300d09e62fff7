"""The records classification rules work on and give back."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import NamedTuple, Protocol

from gitreview.analyze import Analysis
from gitreview.classify.outline import Outline
from gitreview.config import Config
from gitreview.model import Classification, FileChange, Finding, Hunk


class Project(Protocol):
    """What a rule may ask of the head's tree about the rest of the project. The
    answers are kept with a cached verdict, which serves only where the head
    answers the same (analyze/links.HeadIndex)."""

    def is_module(self, name: str) -> bool:
        """Whether `import name` may find a module or package of the project's own."""

    def is_macro(self, name: str) -> bool:
        """Whether the project's C or C++ headers define a function-like macro `name`."""

    def exists(self, path: str, *, folder: bool = False) -> bool:
        """Whether `path` is at head (only a folder when `folder`)."""


class FileFacts:
    """Everything a rule may look at: data, and the head's answers about the rest of
    the project (`project`: no repository itself; a cached verdict keeps the
    answers). (Not a dataclass: making one costs a millisecond of every run's
    start-up, issue 12.)"""

    __slots__ = (
        "analysis",
        "attributes",
        "base_attributes",
        "change",
        "config",
        "findings",
        "kind",
        "memo",
        "project",
    )

    def __init__(
        self,
        change: FileChange,
        kind: str,
        analysis: Analysis,
        config: Config,
        attributes: Mapping[str, bool | str | None],
        base_attributes: Mapping[str, bool | str | None] | None = None,
        findings: tuple[Finding, ...] = (),
        project: Project | None = None,
    ) -> None:
        self.change = change
        self.kind = kind
        self.analysis = analysis
        self.config = config
        # gitattributes of the path and of its old path, both from the trusted (base)
        # tree's .gitattributes (issue 11); base_attributes None: no base.
        self.attributes = attributes
        self.base_attributes = base_attributes
        self.findings = findings  # with the configured severities
        self.project = project  # None: no head tree (a patch)
        # Work a rule does once per file (a parse of the old side), shared by its hunks.
        self.memo: dict[str, object] = {}


class Proof(NamedTuple):
    """What a rule shows when it finds a change trivial: reason codes, and one line
    of evidence a person can check (`git review-manifest explain` prints it)."""

    reasons: tuple[str, ...]
    evidence: str


# Where a moved block went or came from: "moved_to" / "moved_from" -> handles.
Pointers = tuple[tuple[str, str], ...]


class Verdict(NamedTuple):
    classification: Classification
    reasons: tuple[str, ...]
    evidence: str = ""
    pointers: Pointers = ()


class FileVerdict(NamedTuple):
    classification: Classification
    reasons: tuple[str, ...]
    hunks: tuple[Verdict, ...]  # one per hunk of the change, in order
    evidence: str = ""
    # What moved blocks are checked against (moves.py); only where a unit may have moved.
    outline: Outline | None = None


FileRule = Callable[[FileFacts], Proof | None]
HunkRule = Callable[[FileFacts, Hunk], Proof | None]


def apply_hunk(old_text: str, hunk: Hunk) -> str:
    """The old file with only this hunk applied: how a rule sees one hunk's effect
    on its own, in the context of the whole file."""
    lines = old_text.split("\n")
    new_region = [line.text for line in hunk.lines if line.origin != "-"]
    if hunk.old_count == 0:
        start = end = hunk.old_start  # an insertion after line old_start
    else:
        start, end = hunk.old_start - 1, hunk.old_start - 1 + hunk.old_count
    # The final newline may come out wrong: the comparisons that use this parse.
    return "\n".join([*lines[:start], *new_region, *lines[end:]])
