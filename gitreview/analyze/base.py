"""What an analyzer is given and what it gives back.

An analyzer is a pure function of one changed file (both sides' text, the
configuration, and read access to the head tree); it returns findings, the
head-side scopes hunks fall in (Markdown sections, code symbols) and
structure for the manifest. Analyzers register in analyze/__init__.py.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from gitreview.config import Config
from gitreview.model import FileChange, Finding, Range, Severity


@dataclass(frozen=True)
class Rule:
    """A finding rule: its id, default severity and what it checks (for --help and docs)."""

    id: str
    severity: Severity
    summary: str


@dataclass(frozen=True)
class Scope:
    """A head-side span of lines with a name: a section or a symbol."""

    first: int
    last: int
    name: str
    label: Literal["section", "symbol"]


@dataclass(frozen=True)
class Report:
    findings: tuple[Finding, ...] = ()
    scopes: tuple[Scope, ...] = ()
    structure: Mapping[str, Any] | None = None
    # Findings in other files that this change may have caused, such as a link
    # elsewhere to a heading it removed. They stand only for files the range did
    # not touch (a touched file's own analysis reports its links): the pipeline
    # keeps those once every change of the range is known.
    elsewhere: tuple[Finding, ...] = ()


class HeadTree(Protocol):
    """Read access to the head commit's tree, for checks that look past one file
    (does a link target exist?). Never the working tree."""

    def read(self, path: str) -> bytes | None:
        """The content of a file at head, or None."""

    def is_file(self, path: str) -> bool: ...

    def is_dir(self, path: str) -> bool: ...

    def files(self, suffixes: tuple[str, ...] = ()) -> Iterable[str]:
        """Every file path at head (ending with one of `suffixes`, when given)."""


@dataclass(frozen=True)
class Subject:
    """One changed file as an analyzer sees it."""

    change: FileChange
    kind: str
    old_text: str | None
    new_text: str | None
    config: Config
    head: HeadTree | None  # None when the changes came from a patch


Analyzer = Callable[[Subject], Report]
RangeAnalyzer = Callable[[Range, Config], Iterable[Finding]]
