"""Frozen records that every stage after git.py and patch.py works on.

Third-party objects (pygit2 patches, unidiff's mutable lists) become these at
the border, so no classifier depends on a library's quirks.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import repeat
from operator import attrgetter
from typing import Any, Literal, NamedTuple, cast, overload

EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
SHA256_EMPTY_TREE = "6ef19b41225c5369f1c104d45d8d85efa9b057b53b14b4b9b939dd74decc5321"

Origin = Literal[" ", "+", "-"]
Status = Literal["added", "modified", "deleted", "renamed", "copied", "type-changed"]
Severity = Literal["error", "warning", "info"]
Classification = Literal["trivial", "significant"]

MODE_FILE = 0o100644
MODE_EXECUTABLE = 0o100755
MODE_SYMLINK = 0o120000
# How a Git LFS pointer file starts (its specification, version 1); a pointer is a few
# short lines, at most 1024 bytes. The file itself is kept in LFS's storage.
LFS_POINTER = b"version https://git-lfs.github.com/spec/"
LFS_POINTER_BYTES = 1024
MODE_GITLINK = 0o160000

# Among the head's C and C++ macro names (`HeadTree.macros`): a `#define \` whose name
# is on the next line, which a line search cannot read; any call may be its.
ANY_MACRO = "\\"


class Commit(NamedTuple):
    sha: str
    subject: str


class Range(NamedTuple):
    """What the user typed, resolved: base (None for the empty tree) to head.

    Both are None when the changes came from a patch rather than a repository.
    """

    spec: str
    base: str | None
    head: str | None
    commits: tuple[Commit, ...]


class Line(NamedTuple):
    """One line of a hunk. `text` has no "\\n" but keeps a "\\r" if there was one.

    A NamedTuple rather than a dataclass: a large range has millions of them.
    """

    origin: Origin
    old_no: int | None
    new_no: int | None
    text: str
    newline: bool = True  # False for a last line with "\\ No newline at end of file"


# A line's origin in the hunk that undoes its own (`Hunk.undone`).
_UNDONE: dict[Origin, Origin] = {"-": "+", "+": "-", " ": " "}
# A Line's text, read in C over many lines (`map(text_of, hunk.lines)`).
text_of = attrgetter("text")
# A Line's fields, as a plain tuple.
LineRow = tuple[Origin, "int | None", "int | None", str, bool]


def as_lines(rows: Iterable[LineRow]) -> tuple[Line, ...]:
    """Rows as Lines, each made in C (`tuple.__new__`), not through the Python-level
    constructor a NamedTuple has: a large range has millions of lines (issue 12)."""
    return cast("tuple[Line, ...]", tuple(map(tuple.__new__, repeat(Line), rows)))


class PackedLines(Sequence[Line]):
    """A hunk's lines as git wrote them, held as two strings: one origin per line,
    and the lines' texts joined with "\n" (no text holds one). Each line's numbers
    follow from the hunk's starts, so a Line (a tuple of five, with its numbers and
    its own text) is made only when it is read: a large range has hundreds of
    thousands of lines held until moves are found (issue 12). `open_ends`: the
    indexes of lines with no newline at the end of the file."""

    __slots__ = ("body", "new_start", "old_start", "open_ends", "origins")

    def __init__(
        self,
        origins: str,
        body: str,
        old_start: int,
        new_start: int,
        open_ends: tuple[int, ...] = (),
    ) -> None:
        self.origins = origins
        self.body = body
        self.old_start = old_start
        self.new_start = new_start
        self.open_ends = open_ends

    @classmethod
    def of(
        cls,
        origins: str,
        texts: Iterable[str],
        old_start: int,
        new_start: int,
        open_ends: tuple[int, ...] = (),
    ) -> PackedLines:
        return cls(origins, "\n".join(texts), old_start, new_start, open_ends)

    @property
    def texts(self) -> tuple[str, ...]:
        return tuple(self.body.split("\n")) if self.origins else ()

    @property
    def chars(self) -> int:
        """The length of all the texts together."""
        return len(self.body) - len(self.origins) + 1 if self.origins else 0

    def __len__(self) -> int:
        return len(self.origins)

    def __iter__(self) -> Iterator[Line]:
        return self._lines(0, len(self.origins))

    @overload
    def __getitem__(self, index: int) -> Line: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Line, ...]: ...

    def __getitem__(self, index: int | slice) -> Line | tuple[Line, ...]:
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self.origins))
            if step != 1:
                return tuple(self)[index]
            return tuple(self._lines(start, max(start, stop)))
        if index < 0:
            index += len(self.origins)
        if not 0 <= index < len(self.origins):
            raise IndexError("line index out of range")
        return next(self._lines(index, index + 1))

    def _lines(self, start: int, stop: int) -> Iterator[Line]:
        origins, texts, ends = self.origins, self.texts, self.open_ends
        # The numbers of line `start`: those of the lines before it, counted in C.
        old = self.old_start + start - origins.count("+", 0, start)
        new = self.new_start + start - origins.count("-", 0, start)
        make = tuple.__new__
        for index in range(start, stop):
            origin = origins[index]
            newline = index not in ends
            if origin == "-":
                yield make(Line, ("-", old, None, texts[index], newline))
                old += 1
            elif origin == "+":
                yield make(Line, ("+", None, new, texts[index], newline))
                new += 1
            else:
                yield make(Line, (" ", old, new, texts[index], newline))
                old += 1
                new += 1

    def span(self, origin: Literal["-", "+"]) -> tuple[int, int] | None:
        """The numbers of the first and last line of `origin`, on its own side."""
        origins = self.origins
        first, last = origins.find(origin), origins.rfind(origin)
        if first < 0:
            return None
        other, start = ("+", self.old_start) if origin == "-" else ("-", self.new_start)
        return (
            start + first - origins.count(other, 0, first),
            start + last - origins.count(other, 0, last),
        )

    def __eq__(self, other: object) -> bool:
        if isinstance(other, PackedLines | tuple):
            return tuple(self) == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"PackedLines({tuple(self)!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        # The texts go as UTF-8 encoded here: pickled as a string (to a worker, by
        # this process), their UTF-8 would stay cached in it for as long as the hunk
        # is held, a second copy of every text not all ASCII (4 MB on tldr's range).
        body = self.body.encode("utf-8", "surrogatepass")
        return (_packed, (self.origins, body, self.old_start, self.new_start, self.open_ends))


def _packed(
    origins: str, body: bytes, old_start: int, new_start: int, open_ends: tuple[int, ...]
) -> PackedLines:
    return PackedLines(
        origins, body.decode("utf-8", "surrogatepass"), old_start, new_start, open_ends
    )


def origins_of(lines: Sequence[Line]) -> str:
    """Each line's origin, as one string."""
    if isinstance(lines, PackedLines):
        return lines.origins
    return "".join(line.origin for line in lines)


def chars_of(lines: Sequence[Line]) -> int:
    """The length of the lines' texts together."""
    if isinstance(lines, PackedLines):
        return lines.chars
    return sum(map(len, map(text_of, lines)))


def texts_of(lines: Sequence[Line], start: int = 0, stop: int | None = None) -> Sequence[str]:
    """The text of each line, or of `lines[start:stop]`."""
    if isinstance(lines, PackedLines):
        return lines.texts[start:stop]
    return tuple(map(text_of, lines[start:stop]))


class Hunk(NamedTuple):
    old_start: int
    old_count: int
    new_start: int
    new_count: int
    lines: Sequence[Line]  # a tuple, or PackedLines as git's diff is read

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled by columns (to and from the worker processes), not line by line."""
        if isinstance(self.lines, PackedLines):
            return (Hunk, tuple(self))
        return (_hunk, (*self[:4], tuple(zip(*self.lines, strict=True))))

    def unpacked(self) -> Hunk:
        """The hunk with its lines made once, for the analyzers and classifiers that
        read them over and over."""
        if isinstance(self.lines, PackedLines):
            return self._replace(lines=tuple(self.lines))
        return self

    def undone(self) -> Hunk:
        """The hunk that takes the new side back to the old: what it adds, removed."""
        lines = tuple(
            Line(_UNDONE[line.origin], line.new_no, line.old_no, line.text, line.newline)
            for line in self.lines
        )
        return Hunk(self.new_start, self.new_count, self.old_start, self.old_count, lines)

    @property
    def removed(self) -> tuple[Line, ...]:
        return tuple(line for line in self.lines if line.origin == "-")

    @property
    def added(self) -> tuple[Line, ...]:
        return tuple(line for line in self.lines if line.origin == "+")

    @property
    def changed_count(self) -> int:
        """How many lines it removes and adds."""
        return len(self.lines) - origins_of(self.lines).count(" ")

    @property
    def old_span(self) -> tuple[int, int] | None:
        """First and last removed line (old side), or None when nothing was removed."""
        if isinstance(self.lines, PackedLines):
            span = self.lines.span("-")
            if span is None or span[0] > 0:  # numbers rise from the first: none is 0
                return span
        numbers = [line.old_no for line in self.lines if line.origin == "-" and line.old_no]
        return (numbers[0], numbers[-1]) if numbers else None

    @property
    def new_span(self) -> tuple[int, int] | None:
        """First and last added line (new side), or None when nothing was added."""
        if isinstance(self.lines, PackedLines):
            span = self.lines.span("+")
            if span is None or span[0] > 0:
                return span
        numbers = [line.new_no for line in self.lines if line.origin == "+" and line.new_no]
        return (numbers[0], numbers[-1]) if numbers else None

    @property
    def scope_line(self) -> int:
        """The head line whose scope (function, section) the hunk is named by: its
        first added line, or for a pure deletion, the place in the head where the
        lines were."""
        span = self.new_span
        return span[0] if span else max(self.new_start, 1)


def _hunk(
    old_start: int, old_count: int, new_start: int, new_count: int, columns: tuple[Any, ...]
) -> Hunk:
    return Hunk(old_start, old_count, new_start, new_count, as_lines(zip(*columns, strict=True)))


class FileChange(NamedTuple):
    """One file pair of the range, with both sides' content when it is known.

    `old_data` and `new_data` are None for a side that does not exist, for a
    submodule, and when the change came from a patch without its repository.
    """

    status: Status
    path: str
    old_path: str | None  # the old side's path; None for an added file
    old_mode: int | None
    new_mode: int | None
    old_oid: str | None
    new_oid: str | None
    similarity: int | None  # renames and copies, percent
    binary: bool
    hunks: tuple[Hunk, ...]
    old_data: bytes | None = None
    new_data: bytes | None = None
    content_known: bool = True  # False when built from a patch alone
    # A rename or copy into another folder whose old folder at the base is the very
    # tree its new folder is at the head (a package moved whole, its siblings along):
    # what the file names relative to its folder, below it, is the same there.
    folder_kept: bool = False

    def unpacked(self) -> FileChange:
        """The change with every hunk's lines made once (`Hunk.unpacked`)."""
        return self._replace(hunks=tuple(hunk.unpacked() for hunk in self.hunks))

    @property
    def same_content(self) -> bool:
        """Whether both sides are one blob: the same id, or, from a patch that names
        none (no `index` line, or one `patch.takes` refused), no hunk and no binary
        difference (a rename's edits made it `None == None` before)."""
        if self.old_oid is None and self.new_oid is None:
            return not self.hunks and not self.binary
        return self.old_oid == self.new_oid

    @property
    def is_submodule(self) -> bool:
        return MODE_GITLINK in (self.old_mode, self.new_mode)

    @property
    def is_symlink(self) -> bool:
        return self.new_mode == MODE_SYMLINK or (
            self.new_mode is None and self.old_mode == MODE_SYMLINK
        )

    @property
    def is_lfs_pointer(self) -> bool:
        """Whether the file is in Git LFS's storage: its new side is a pointer (its old
        one, when deleted). A file moved out of LFS is read as the text it now is (a
        review of the fix: its content was analysed by nothing)."""
        data = self.new_data if self.new_data is not None else self.old_data
        return data is not None and len(data) <= LFS_POINTER_BYTES and data.startswith(LFS_POINTER)


class Added(NamedTuple):
    """Lines one commit of a range adds to a file, together (a hunk of `git log -p`):
    the first one's number in that commit's file, and their texts."""

    commit: str
    path: str
    first: int
    lines: list[str]


class Finding(NamedTuple):
    rule: str
    severity: Severity
    path: str | None
    line: int | None
    message: str


class Assembled:
    """The manifest, and each role's brief (what `--format brief` prints), in pieces.

    The manifest is made as its JSON text (render/json.py), each file's entry
    serialized once its report is made: a large range's entries are never all held
    as objects (issue 12). Its objects are read back from the text, once, by what
    asks for them (the text formats, the hook, the Actions step, the MCP server)."""

    __slots__ = ("_manifest", "briefs", "causes", "summary", "text")

    def __init__(
        self,
        text: list[str],  # what the json format prints, in pieces joined with ""
        briefs: dict[str, list[str]],  # each joined with "" (review/brief.py)
        summary: dict[str, Any],  # the manifest's own summary (counts by severity...)
        causes: frozenset[str] = frozenset(),  # why files have no T1 analysis
        manifest: dict[str, Any] | None = None,  # the text's objects, where known
    ) -> None:
        self.text = text
        self.briefs = briefs
        self.summary = summary
        self.causes = causes
        self._manifest = manifest

    @property
    def manifest(self) -> dict[str, Any]:
        if self._manifest is None:
            import json

            self._manifest = json.loads("".join(self.text))
        return self._manifest
