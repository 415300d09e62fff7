"""`git review-manifest show HANDLE...`: print the changes (or lines) handles name.

A change handle (`PATH:A-B@OLD..NEW`) prints its hunk as a change: removed and
added lines, marked, each with its own number, under one header line with the
handle and the enclosing symbol or section (issue #10). A blob handle
(`PATH@BLOB`, `PATH:A-B@BLOB`) and `--new` print plain numbered lines of one
blob. Several handles print in one call; a bad one is reported on its own line
and the others are still printed.
"""

from __future__ import annotations

import shlex
import sys
from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING, NamedTuple

from gitreview.errors import Exit, UserError
from gitreview.handles import OID_LENGTH, Handle, parse_handle
from gitreview.review.diffs import KeyBlocks, Row, changed_rows, hunk_header, render_rows
from gitreview.secrets import KeyBlock, key_blocks, redact_lines, redact_name
from gitreview.shown import visible, written_path

if TYPE_CHECKING:
    from gitreview.git import Repository
    from gitreview.model import Hunk


def run_show(*, handles: Sequence[str], repo: str | None, context: int, new: bool) -> int:
    from gitreview.cli import error_line

    text, errors = show_text(handles=handles, repo=repo, context=context, new=new)
    sys.stdout.write(text)
    for error in errors:
        print(error_line(error), file=sys.stderr)
    return int(errors[-1].status) if errors else int(Exit.OK)


def show_text(
    *, handles: Sequence[str], repo: str | None, context: int, new: bool
) -> tuple[str, list[UserError]]:
    """What the handles name, in their order, and the error of each bad one: a bad
    handle never hides the good ones (the command line and the MCP server print both)."""
    from gitreview.git import open_repository

    repository = open_repository(repo)
    blobs = _Blobs(repository)
    several = len(handles) > 1
    shown: list[str] = []
    errors: list[UserError] = []
    for text in handles:
        try:
            shown.append(_show(blobs, text, context=context, new=new, header=several))
        except UserError as error:
            errors.append(error)
    return "".join(shown), errors


class _Side(NamedTuple):
    oid: str
    data: bytes
    lines: list[str]  # decoded lossily, "\r" kept off, secrets redacted
    binary: bool = False  # then no lines
    # Its secret blocks, found in its lines before redaction: a redacted key is none
    # (found by an adversarial review: a hunk's lines of a quoted key were printed).
    blocks: tuple[KeyBlock, ...] = ()


class _Blobs:
    """Blobs and diffs read once per call: a batch often opens many hunks of one file."""

    def __init__(self, repository: Repository) -> None:
        self._repository = repository
        self.side = cache(self._side)
        self.hunks = cache(self._hunks)

    def submodule(self, path: str) -> bool:
        """Whether the path is a submodule at HEAD (its commits are in its own
        repository, not in this one)."""
        from gitreview.git import TreeReader

        head = self._repository.resolve_commit("HEAD")
        return head is not None and TreeReader(self._repository, head).is_submodule(path)

    def _side(self, oid: str, handle: str) -> _Side:
        found = self._repository.blob_by_prefix(oid)
        if found is None:
            raise UserError(
                f"unknown handle {handle!r}: no blob {oid} in this repository",
                status=Exit.HANDLE,
                hint="handles resolve in the repository the manifest was built from; "
                "fetch its commits",
            )
        full, data = found
        if b"\0" in data[:8000]:
            return _Side(full, data, [], binary=True)
        lines = data.decode("utf-8", "backslashreplace").split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        lines = [line.rstrip("\r") for line in lines]
        return _Side(full, data, redact_lines(lines), blocks=tuple(key_blocks(lines)))

    def _hunks(self, old: str | None, new: str | None, handle: str) -> tuple[Hunk, ...]:
        """The hunks as the manifest cut them: git's, with the same options."""
        from gitreview.gitdiff import whole_file_hunks

        if old is not None and new is not None:
            old_oid, new_oid = self.side(old, handle).oid, self.side(new, handle).oid
            return self._repository.blob_hunks(old_oid, new_oid, path=handle)
        if new is not None:
            return whole_file_hunks(self.side(new, handle).data, "+")
        assert old is not None  # parse_handle refuses a change with no blob
        return whole_file_hunks(self.side(old, handle).data, "-")


def _show(blobs: _Blobs, text: str, *, context: int, new: bool, header: bool) -> str:
    text = redact_name(text)  # printed in the header and errors; the blobs resolve (issue 11)
    handle = parse_handle(text)
    if not handle.change:
        if handle.oid is None:
            raise UserError(
                f"handle {text!r} names no blob: a handle ends with @BLOB",
                status=Exit.HANDLE,
                hint="handles from a patch without index lines have none and cannot be shown",
            )
        try:
            side = blobs.side(handle.oid, text)
        except UserError:
            if handle.first is None and blobs.submodule(handle.path):
                # The manifest's handle of a submodule's new commit (found by an
                # adversarial review: it was refused as unknown, "fetch its commits").
                # Its path written as handles write it (found by an adversarial review:
                # a newline or an escape sequence in it was printed as it is).
                path = written_path(handle.path)
                folder = shlex.quote(handle.path) if path == handle.path else path
                note = (
                    f"(submodule {path}: commit {handle.oid}, in the submodule's own "
                    f"repository: git -C {folder} show {handle.oid})\n"
                )
                return f"{hunk_header(text, None)}\n{note}" if header else note
            raise
        if side.binary:
            # The manifest's own handle of a binary file: what there is to say of it
            # (found by an adversarial review: it was refused as "malformed or unknown").
            note = f"(binary blob {side.oid[:OID_LENGTH]}, {len(side.data)} bytes: no lines)\n"
            return f"{hunk_header(text, None)}\n{note}" if header else note
        lines = _numbered(side, handle.first, handle.last, context, text)
        return f"{hunk_header(text, None)}\n{lines}" if header else lines
    for oid in (handle.old_oid, handle.new_oid):
        if oid is not None and blobs.side(oid, text).binary:
            raise UserError(f"handle {text!r} names a binary blob", status=Exit.HANDLE)
    hunk = _find_hunk(blobs, handle, text)
    if new:
        oid = handle.new_oid if handle.side == "new" else handle.old_oid
        assert oid is not None  # parse_handle refuses lines on a side with no blob
        lines = _numbered(blobs.side(oid, text), handle.first, handle.last, context, text)
        return f"{hunk_header(text, None)}\n{lines}" if header else lines
    old_side = None if handle.old_oid is None else blobs.side(handle.old_oid, text)
    new_side = None if handle.new_oid is None else blobs.side(handle.new_oid, text)
    keys = KeyBlocks(old_side.blocks if old_side else (), new_side.blocks if new_side else ())
    rows = changed_rows(hunk, keys, interior=True)
    if context:
        rows = _with_context(hunk, rows, new_side or old_side, context, old_only=new_side is None)
    return render_rows(hunk_header(text, _scope(handle, old_side, new_side, hunk)), rows)


def _find_hunk(blobs: _Blobs, handle: Handle, text: str) -> Hunk:
    """The hunk of OLD..NEW whose changed lines the handle names, cut as the
    manifest cut it (git's hunks with three lines of context)."""
    assert handle.first is not None and handle.last is not None
    span = (handle.first, handle.last)
    for hunk in blobs.hunks(handle.old_oid, handle.new_oid, text):
        if handle.side == "new" and hunk.new_span == span:
            return hunk
        if handle.side == "old" and hunk.new_span is None and hunk.old_span == span:
            return hunk
    side = "removed" if handle.side == "old" else "added"
    raise UserError(
        f"unknown handle {text!r}: no hunk of its blobs has {side} lines "
        f"{handle.first}-{handle.last}",
        status=Exit.HANDLE,
        hint="use handles exactly as the manifest gives them",
    )


def _with_context(
    hunk: Hunk, rows: list[Row], side: _Side | None, context: int, *, old_only: bool
) -> list[Row]:
    """`context` unchanged lines before and after the change, numbered on the new
    side (the old side for a deleted file)."""
    assert side is not None
    keep = "-" if old_only else "+"
    if old_only:
        start, count = hunk.old_start, hunk.old_count
    else:
        start, count = hunk.new_start, hunk.new_count
    position = start if count else start + 1  # git numbers an empty side from the line before
    first_change = last_change = None
    for line in hunk.lines:
        if line.origin != " " and first_change is None:
            first_change = position
        if line.origin in (" ", keep):
            position += 1
        if line.origin != " ":
            last_change = position
    assert first_change is not None and last_change is not None
    head = range(max(1, first_change - context), first_change)
    tail = range(last_change, min(len(side.lines), last_change + context - 1) + 1)
    return (
        [Row(" ", n, visible(side.lines[n - 1])) for n in head]
        + rows
        + [Row(" ", n, visible(side.lines[n - 1])) for n in tail]
    )


def _scope(handle: Handle, old: _Side | None, new: _Side | None, hunk: Hunk) -> str | None:
    """The symbol or section the hunk falls in, as the manifest names it."""
    from gitreview.analyze import analyze
    from gitreview.analyze.base import innermost_scope
    from gitreview.config import Config
    from gitreview.kinds import kind_of
    from gitreview.model import FileChange

    change = FileChange(
        status="modified",
        path=handle.path,
        old_path=handle.path,
        old_mode=None,
        new_mode=None,
        old_oid=handle.old_oid,
        new_oid=handle.new_oid,
        similarity=None,
        binary=False,
        hunks=(hunk,),
        old_data=None if old is None else old.data,
        new_data=None if new is None else new.data,
    )
    analysis = analyze(change, kind_of(handle.path), config=Config(), head=None)
    scope = innermost_scope(analysis.report.scopes, hunk)
    return None if scope is None else redact_name(scope.name)


def _numbered(side: _Side, first: int | None, last: int | None, context: int, text: str) -> str:
    """Lines FIRST..LAST as `NUMBER:TEXT` (context lines as `NUMBER-TEXT`, like git grep)."""
    lines = side.lines
    first = 1 if first is None else first
    last = len(lines) if last is None else last
    if last > len(lines):
        raise UserError(
            f"handle {text!r} names lines {first}-{last} but the blob has {len(lines)}",
            status=Exit.HANDLE,
        )
    start, end = max(1, first - context), min(len(lines), last + context)
    width = len(str(end))
    out = []
    for number in range(start, end + 1):
        mark = ":" if first <= number <= last else "-"
        # (escaped as the diff form's lines are: a review of the fix)
        out.append(f"{number:>{width}}{mark}{visible(lines[number - 1])}\n")
    return "".join(out)
