"""git's own diff output read into plain records: pure functions, no process.

`git diff-tree -r -z --raw -p` prints the file pairs first (NUL-separated raw
records, then one more NUL), then one patch block per pair, in the same order
(a type change is two blocks: the old entry deleted, the new one added). The
hunks are git's own, cut with its options, so they are the ones `git diff -M`
shows (issue 12).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import NamedTuple

from gitreview.model import Hunk, Origin, PackedLines
from gitreview.patterns import lazy_compile


class RawChange(NamedTuple):
    """One record of `git diff-tree --raw`: a file pair and its status letter."""

    status: str  # A, M, D, R, C, T
    score: int | None
    old_mode: int
    new_mode: int
    old_oid: str
    new_oid: str
    old_path: str
    new_path: str


class PatchBlock(NamedTuple):
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


_HUNK_HEADER = lazy_compile(r"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
_INDEX = lazy_compile(r"index ([0-9a-f]+)\.\.([0-9a-f]+)")
BLOCK_START = b"diff --git "


def parse_block(block: bytes) -> PatchBlock:
    """One `diff --git` block into hunks.

    Hunk lines are counted from the header, so a content line that looks like a
    header is never taken for one. The block is decoded once: "\n" never sits
    inside a UTF-8 sequence, so each line reads as it would alone. A byte that is
    no UTF-8 reads as its escape (`\\xe9`): as U+FFFD, `caf\\xe9` made `caf\\xe8`
    would show two lines alike (found by an adversarial review).
    """
    lines = block.decode("utf-8", "backslashreplace").split("\n")
    if lines[-1] == "":
        lines.pop()
    binary = False
    old_oid = new_oid = None
    hunks: list[Hunk] = []
    i, end = 1, len(lines)  # past "diff --git"
    while i < end:
        line = lines[i]
        header = _HUNK_HEADER.match(line) if line.startswith("@@") else None
        if header is None:
            if index := _INDEX.match(line):
                old_oid, new_oid = index[1], index[2]
            elif line.startswith("Binary files ") or line == "GIT binary patch":
                binary = True
            i += 1
            continue
        hunk, i = _parse_hunk(lines, i + 1, header)
        hunks.append(hunk)
    return PatchBlock(binary, tuple(hunks), old_oid, new_oid)


def _parse_hunk(lines: list[str], i: int, header: re.Match[str]) -> tuple[Hunk, int]:
    old_start, new_start = int(header[1]), int(header[3])
    old_count = 1 if header[2] is None else int(header[2])
    new_count = 1 if header[4] is None else int(header[4])
    old_left, new_left = old_count, new_count
    # Two columns, not a Line per line: a large range has millions of lines (PackedLines).
    origins: list[str] = []
    texts: list[str] = []
    open_ends: list[int] = []
    end = len(lines)
    while i < end and (old_left or new_left):
        text = lines[i]
        i += 1
        mark = text[:1]
        if mark == "-":
            old_left -= 1
        elif mark == "+":
            new_left -= 1
        elif mark == "\\":
            # "\ No newline at end of file" belongs to the line just before it.
            if texts:
                open_ends.append(len(texts) - 1)
            continue
        else:
            # A context line; an empty one under diff.suppressBlankEmpty.
            mark = " "
            old_left -= 1
            new_left -= 1
        origins.append(mark)
        texts.append(text[1:])
    while i < end and lines[i][:1] == "\\":
        if texts:
            open_ends.append(len(texts) - 1)
        i += 1
    packed = PackedLines.of(
        "".join(origins), texts, old_start, new_start, tuple(sorted(set(open_ends)))
    )
    return Hunk(old_start, old_count, new_start, new_count, packed), i


def whole_file_hunks(data: bytes, origin: Origin) -> tuple[Hunk, ...]:
    """The one hunk git prints for a file added ("+") or deleted ("-") whole."""
    if not data:
        return ()
    # Decoded once, as parse_block decodes a block: each line reads as it would alone.
    texts = data.decode("utf-8", "backslashreplace").split("\n")
    newline = texts[-1] == ""
    if newline:
        texts.pop()
    count = len(texts)
    lines = PackedLines.of(origin * count, texts, 1, 1, () if newline else (count - 1,))
    if origin == "+":
        return (Hunk(0, 0, 1, count, lines),)
    return (Hunk(1, count, 0, 0, lines),)


def split_blocks(chunks: Iterable[bytes]) -> Iterator[bytes]:
    """Patch text, in chunks as read, cut into its `diff --git` blocks.

    Every line inside a hunk starts with " ", "+", "-" or "\\", so a line
    starting with "diff --git " always opens a block. A block longer than a
    chunk is joined once, when it is complete.
    """
    marker = b"\n" + BLOCK_START
    parts: list[bytes] = []
    tail = b""  # the end of the parts, where a marker may begin
    for chunk in chunks:
        window = tail + chunk
        cut = window.rfind(marker)
        if cut < 0:
            parts.append(chunk)
            tail = window[-len(marker) :]
            continue
        text = b"".join([*parts, chunk])
        cut += len(text) - len(window)
        yield from _blocks_of(text[: cut + 1])
        rest = text[cut + 1 :]
        parts, tail = [rest], rest[-len(marker) :]
    text = b"".join(parts)
    if text:
        yield from _blocks_of(text)


def _blocks_of(text: bytes) -> Iterator[bytes]:
    starts = [0] if text.startswith(BLOCK_START) else []
    position = text.find(b"\n" + BLOCK_START)
    while position >= 0:
        starts.append(position + 1)
        position = text.find(b"\n" + BLOCK_START, position + 1)
    for first, last in zip(starts, [*starts[1:], len(text)], strict=True):
        yield text[first:last]
