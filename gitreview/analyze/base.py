"""What an analyzer is given and what it gives back.

An analyzer is a pure function of one changed file (both sides' text, the
configuration, and read access to the head tree); it returns findings, the
head-side scopes hunks fall in (Markdown sections, code symbols) and
structure for the manifest. Analyzers register in analyze/__init__.py.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Literal, NamedTuple, Protocol, overload

from gitreview.config import Config
from gitreview.model import FileChange, Finding, Hunk, Range, Severity


class Rule(NamedTuple):
    """A finding rule: its id, default severity and what it checks (for --help and docs)."""

    id: str
    severity: Severity
    summary: str


class Scope(NamedTuple):
    """A head-side span of lines with a name: a section or a symbol."""

    first: int
    last: int
    name: str
    label: Literal["section", "symbol"]


class LazyScopes(Sequence[Scope]):
    """Scopes named on first use: naming the symbols of a file is a pass over all its
    braces, which only the hunks of a significant file need (issue 12)."""

    def __init__(self, name: Callable[[], Iterable[Scope]]) -> None:
        self._name: Callable[[], Iterable[Scope]] | None = name
        self._scopes: tuple[Scope, ...] = ()

    def _named(self) -> tuple[Scope, ...]:
        if self._name is not None:
            self._scopes, self._name = tuple(self._name()), None  # the text is let go
        return self._scopes

    @overload
    def __getitem__(self, index: int) -> Scope: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Scope]: ...

    def __getitem__(self, index: int | slice) -> Scope | Sequence[Scope]:
        return self._named()[index]

    def __len__(self) -> int:
        return len(self._named())


def innermost_scope(scopes: Sequence[Scope], hunk: Hunk) -> Scope | None:
    """The narrowest head-side scope holding the hunk's scope line: the one the
    manifest names the hunk with."""
    line = hunk.scope_line
    holding = [scope for scope in scopes if scope.first <= line <= scope.last]
    if not holding:
        return None
    return min(holding, key=lambda scope: (scope.last - scope.first, -scope.first))


class Report(NamedTuple):
    findings: tuple[Finding, ...] = ()
    scopes: Sequence[Scope] = ()
    structure: Mapping[str, Any] | None = None
    # What this change took away that links in other files may point at (a deleted
    # page, a removed heading). Those links are looked for once per range, over
    # every target the range lost (`analyze.elsewhere`, issue 12), and stand only
    # in files the range did not touch (a touched file's own analysis reports its links).
    lost: tuple[Lost, ...] = ()


class Lost(NamedTuple):
    """What links elsewhere may have pointed at, that a change took away."""

    path: str | None  # a Markdown file deleted or renamed away, gone from the head
    why: str  # "was deleted", "was renamed to docs/new.md"
    anchors: Mapping[str, str]  # lower-cased fragment -> why it is gone ("heading 'X' ... ")
    holder: str  # the path whose anchors these are, at head


class HeadTree(Protocol):
    """Read access to the head commit's tree, for checks that look past one file
    (does a link target exist?). Never the working tree."""

    def read(self, path: str) -> bytes | None:
        """The content of a file at head, or None."""

    def read_many(self, paths: Sequence[str]) -> list[bytes | None]:
        """`read` of each path, asked together."""

    def oid(self, path: str) -> str | None:
        """The id of the object at `path` at head, or None (a submodule's commit too)."""

    def is_file(self, path: str) -> bool: ...

    def is_dir(self, path: str) -> bool: ...

    def exists(self, path: str) -> bool:
        """Whether anything (file, folder, submodule) is at `path`."""

    def files_holding(
        self,
        literals: tuple[str, ...],
        suffixes: tuple[str, ...],
        meanwhile: Callable[[], object] | None = None,
    ) -> Iterable[str]:
        """The files whose name ends with one of `suffixes` (in any case) and whose
        content holds one of `literals`: a search in C instead of a read of every file.
        `meanwhile`: work to do while the search runs, if it still does."""

    def files(self, suffixes: tuple[str, ...] = ()) -> Iterable[str]:
        """Every file path at head (ending with one of `suffixes`, when given)."""

    def macros(self) -> frozenset[str]:
        """The names of the function-like macros the head's C and C++ headers define."""


class Subject(NamedTuple):
    """One changed file as an analyzer sees it."""

    change: FileChange
    kind: str
    old_text: str | None
    new_text: str | None
    config: Config
    head: HeadTree | None  # None when the changes came from a patch
    # Where an analyzer leaves a side it parsed, for the classifiers: each side of a
    # file is parsed once (issue 12). Keys name the language and the side.
    parsed: dict[str, object] | None = None


Analyzer = Callable[[Subject], Report]
RangeAnalyzer = Callable[[Range, Config], Iterable[Finding]]
