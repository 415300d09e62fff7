"""git's own diff output read into plain records: pure functions, no process.

`git diff-tree -r -z --raw -p` prints the file pairs first (NUL-separated raw
records, then one more NUL), then one patch block per pair, in the same order
(a type change is two blocks: the old entry deleted, the new one added). The
hunks are git's own, cut with its options, so they are the ones `git diff -M`
shows (issue 12).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from gitreview.model import Hunk, Line, Origin


@dataclass(frozen=True)
class RawChange:
    """One record of `git diff-tree --raw`: a file pair and its status letter."""

    status: str  # A, M, D, R, C, T
    score: int | None
    old_mode: int
    new_mode: int
    old_oid: str
    new_oid: str
    old_path: str
    new_path: str


@dataclass(frozen=True)
class PatchBlock:
    """One `diff --git` block: git's hunks, or `binary` when git printed none."""

    binary: bool
    hunks: tuple[Hunk, ...]
    old_oid: str | None  # from the `index` line (--full-index), when there is one
    new_oid: str | None


def path_text(raw: bytes) -> str:
    """A path as text. git paths are bytes; one that is not UTF-8 keeps its odd
    bytes as `\\xe9` escapes, so the manifest stays valid UTF-8 JSON."""
    return raw.decode("utf-8", "backslashreplace")


def parse_raw_diff(output: bytes) -> list[RawChange]:
    """Parse NUL-separated `git diff-tree -r -z --raw` output."""
    return parse_raw_fields(output.split(b"\0"))


def parse_raw_fields(fields: list[bytes]) -> list[RawChange]:
    """The raw records of NUL-separated fields; an empty field ends them."""
    changes: list[RawChange] = []
    i = 0
    while i < len(fields) and fields[i]:
        meta = fields[i].decode("ascii").lstrip(":").split(" ")
        old_mode, new_mode, old_oid, new_oid, status = meta
        letter, score = status[0], (int(status[1:]) if len(status) > 1 else None)
        old_path = path_text(fields[i + 1])
        if letter in "RC":
            new_path = path_text(fields[i + 2])
            i += 3
        else:
            new_path = old_path
            i += 2
        changes.append(
            RawChange(
                status=letter,
                score=score,
                old_mode=int(old_mode, 8),
                new_mode=int(new_mode, 8),
                old_oid=old_oid,
                new_oid=new_oid,
                old_path=old_path,
                new_path=new_path,
            )
        )
    return changes


_HUNK_HEADER = re.compile(rb"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
_INDEX = re.compile(rb"^index ([0-9a-f]+)\.\.([0-9a-f]+)")


def parse_block(lines: list[bytes]) -> PatchBlock:
    """One `diff --git` block (its lines without their "\\n") into hunks.

    Hunk lines are counted from the header, so a content line that looks like a
    header is never taken for one.
    """
    binary = False
    old_oid = new_oid = None
    hunks: list[Hunk] = []
    i = 1  # past "diff --git"
    while i < len(lines):
        line = lines[i]
        header = _HUNK_HEADER.match(line)
        if header is None:
            if index := _INDEX.match(line):
                old_oid, new_oid = index[1].decode("ascii"), index[2].decode("ascii")
            elif line.startswith(b"Binary files ") or line == b"GIT binary patch":
                binary = True
            i += 1
            continue
        hunk, i = _parse_hunk(lines, i + 1, header)
        hunks.append(hunk)
    return PatchBlock(binary, tuple(hunks), old_oid, new_oid)


def _parse_hunk(lines: list[bytes], i: int, header: re.Match[bytes]) -> tuple[Hunk, int]:
    old_start, new_start = int(header[1]), int(header[3])
    old_count = 1 if header[2] is None else int(header[2])
    new_count = 1 if header[4] is None else int(header[4])
    old_no, new_no = old_start, new_start
    old_left, new_left = old_count, new_count
    found: list[Line] = []
    while i < len(lines) and (old_left or new_left or lines[i].startswith(b"\\")):
        raw = lines[i]
        i += 1
        mark = raw[:1]
        if mark == b"\\":
            # "\ No newline at end of file" belongs to the line just before it.
            found[-1] = found[-1]._replace(newline=False)
            continue
        text = raw[1:].decode("utf-8", "replace")
        if mark == b"-":
            found.append(Line("-", old_no, None, text))
            old_no, old_left = old_no + 1, old_left - 1
        elif mark == b"+":
            found.append(Line("+", None, new_no, text))
            new_no, new_left = new_no + 1, new_left - 1
        else:
            # A context line; an empty one under diff.suppressBlankEmpty.
            found.append(Line(" ", old_no, new_no, text))
            old_no, new_no = old_no + 1, new_no + 1
            old_left, new_left = old_left - 1, new_left - 1
    return Hunk(old_start, old_count, new_start, new_count, tuple(found)), i


def whole_file_hunks(data: bytes, origin: Origin) -> tuple[Hunk, ...]:
    """The one hunk git prints for a file added ("+") or deleted ("-") whole."""
    if not data:
        return ()
    texts = data.split(b"\n")
    newline = texts[-1] == b""
    if newline:
        texts.pop()
    count = len(texts)
    lines = [
        Line(
            origin,
            number if origin == "-" else None,
            number if origin == "+" else None,
            text.decode("utf-8", "replace"),
        )
        for number, text in enumerate(texts, 1)
    ]
    if not newline:
        lines[-1] = lines[-1]._replace(newline=False)
    if origin == "+":
        return (Hunk(0, 0, 1, count, tuple(lines)),)
    return (Hunk(1, count, 0, 0, tuple(lines)),)


def split_blocks(lines: Iterable[bytes]) -> Iterable[list[bytes]]:
    """Patch text (lines without "\\n") cut into its `diff --git` blocks.

    Every line inside a hunk starts with " ", "+", "-" or "\\", so a line
    starting with "diff --git " always opens a block.
    """
    block: list[bytes] = []
    for line in lines:
        if line.startswith(b"diff --git ") and block:
            yield block
            block = []
        block.append(line)
    if block:
        yield block
