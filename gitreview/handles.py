"""Handles: deterministic, content-addressed names of exact changes.

A hunk's handle reads `PATH:FIRST-LAST@OLD..NEW`: the change from blob OLD to
blob NEW whose added lines are FIRST to LAST of NEW (1-based, inclusive). A
hunk that only removes lines names them on the old side: `PATH:-FIRST-LAST@OLD..NEW`.
Either blob is left empty where its side does not exist (`@..NEW` for an added
file, `@OLD..` for a deleted one). `show` diffs the two blobs again, as the
manifest did, and prints the hunk with its removed and added lines (issue #10).

`PATH@BLOB` and `PATH:FIRST-LAST@BLOB` name lines of one blob (a whole-file
handle of a binary, empty or mode-only change). Handles resolve against git
objects only, so they stay valid after the branch moves on or the working
tree changes. The path is for people; the blob ids are what resolve.

A path that would break the line its handle stands on, or drive a terminal (a
newline, an escape sequence), is written quoted as git quotes it:
`"a\\nb.py":1-2@..NEW` (shown.py).
"""

from __future__ import annotations

import re
from typing import Literal, NamedTuple

from gitreview.errors import Exit, UserError
from gitreview.patterns import lazy_compile
from gitreview.shown import read_path, written_path

# 12 hex digits: fixed (git's auto-abbreviation grows with the repository, which
# would change handles over time) and unambiguous in practice.
OID_LENGTH = 12

Side = Literal["old", "new"]

_OID = r"[0-9a-f]{4,64}"
_LINES_AND_BLOBS = (
    rf"(?::(?P<side>-?)(?P<first>[0-9]+)-(?P<last>[0-9]+))?"
    rf"(?:@(?:(?P<old>{_OID})?(?P<pair>\.\.)(?P<new>{_OID})?|(?P<blob>{_OID})))?$"
)
_HANDLE = lazy_compile(rf"^(?P<path>.+?){_LINES_AND_BLOBS}")
_QUOTED_HANDLE = lazy_compile(rf'^(?P<quoted>"(?:[^"\\]|\\.)*"){_LINES_AND_BLOBS}', re.DOTALL)

_EXAMPLE = (
    "a handle looks like path/to/file.py:10-24@1a2b3c4d5e6f..9f8e7d6c5b4a, as in the manifest"
)


class Handle(NamedTuple):
    path: str
    oid: str | None  # the one blob of a blob handle; None for a change or a patch
    first: int | None = None
    last: int | None = None
    change: bool = False  # OLD..NEW: a hunk of the diff between two blobs
    old_oid: str | None = None
    new_oid: str | None = None
    side: Side = "new"  # which blob FIRST-LAST count in (a change that only removes: old)

    def __str__(self) -> str:
        lines = ""
        if self.first is not None:
            mark = "-" if self.side == "old" else ""
            lines = f":{mark}{self.first}-{self.last}"
        path = written_path(self.path)
        if self.change:
            return f"{path}{lines}@{_short(self.old_oid)}..{_short(self.new_oid)}"
        oid = f"@{self.oid[:OID_LENGTH]}" if self.oid else ""
        return f"{path}{lines}{oid}"


def change_handle(
    path: str, old_oid: str | None, new_oid: str | None, side: Side, first: int, last: int
) -> Handle:
    """The handle of a hunk between two blobs (either None where its side does not exist)."""
    return Handle(path, None, first, last, change=True, old_oid=old_oid, new_oid=new_oid, side=side)


def _short(oid: str | None) -> str:
    return oid[:OID_LENGTH] if oid else ""


def parse_handle(text: str) -> Handle:
    stripped = text.strip()
    quoted = _QUOTED_HANDLE.match(stripped) if stripped.startswith('"') else None
    path = None if quoted is None else read_path(quoted["quoted"])
    match = quoted if path is not None else _HANDLE.match(stripped)
    if match is not None and path is None:
        path = match["path"]
        # `a.py:12@...` (no last line) and `:1-2@...` (no path) are typos, not paths.
        if re.search(r"(:-?[0-9]+$)|(^:-?[0-9]+-[0-9]+$)", path):
            match = None
    if match is None or path is None:
        raise UserError(f"malformed handle: {text!r}", status=Exit.HANDLE, hint=_EXAMPLE)
    first = None if match["first"] is None else int(match["first"])
    last = None if match["last"] is None else int(match["last"])
    if first is not None and last is not None and not 1 <= first <= last:
        raise UserError(f"malformed handle: {text!r} (bad line range)", status=Exit.HANDLE)
    side: Side = "old" if match["side"] else "new"
    if match["pair"]:
        old, new = match["old"], match["new"]
        if old is None and new is None:
            raise UserError(f"malformed handle: {text!r}", status=Exit.HANDLE, hint=_EXAMPLE)
        if first is None:
            raise UserError(
                f"malformed handle: {text!r} (a change names its lines)",
                status=Exit.HANDLE,
                hint=_EXAMPLE,
            )
        if (side == "old" and old is None) or (side == "new" and new is None):
            raise UserError(
                f"malformed handle: {text!r} (its lines are on a side with no blob)",
                status=Exit.HANDLE,
            )
        return Handle(path, None, first, last, True, old, new, side)
    if side == "old":
        raise UserError(
            f"malformed handle: {text!r} (old-side lines need @OLD..NEW)", status=Exit.HANDLE
        )
    return Handle(path, match["blob"], first, last)
