"""Handles: deterministic, content-addressed names of exact lines.

A handle reads as `PATH:FIRST-LAST@BLOB`: the lines FIRST to LAST (1-based,
inclusive) of the blob whose id starts with BLOB, which was at PATH. It
resolves against git objects only, so it stays valid after the branch moves
on or the working tree changes. A whole-file handle has no line range
(`PATH@BLOB`), for files with no hunks (binary, empty, mode-only...). The path
is for people; the blob id is what resolves.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gitreview.errors import Exit, UserError

# 12 hex digits: fixed (git's auto-abbreviation grows with the repository, which
# would change handles over time) and unambiguous in practice.
OID_LENGTH = 12

_HANDLE = re.compile(
    r"^(?P<path>.+?)(?::(?P<first>[0-9]+)-(?P<last>[0-9]+))?(?:@(?P<oid>[0-9a-f]{4,64}))?$"
)


@dataclass(frozen=True)
class Handle:
    path: str
    oid: str | None  # None for a handle built from a patch with no index line
    first: int | None = None
    last: int | None = None

    def __str__(self) -> str:
        lines = f":{self.first}-{self.last}" if self.first is not None else ""
        oid = f"@{self.oid[:OID_LENGTH]}" if self.oid else ""
        return f"{self.path}{lines}{oid}"


def parse_handle(text: str) -> Handle:
    match = _HANDLE.match(text.strip())
    if match is None:
        raise UserError(
            f"malformed handle: {text!r}",
            status=Exit.HANDLE,
            hint="a handle looks like path/to/file.py:10-24@1a2b3c4d5e6f, as in the manifest",
        )
    # `a.py:12@...` (no last line) and `:1-2@...` (no path) are typos, not paths.
    if re.search(r"(:[0-9]+$)|(^:[0-9]+-[0-9]+$)", match["path"]):
        raise UserError(
            f"malformed handle: {text!r}",
            status=Exit.HANDLE,
            hint="a handle looks like path/to/file.py:10-24@1a2b3c4d5e6f, as in the manifest",
        )
    first, last = match["first"], match["last"]
    if first is not None and last is not None:
        if not 1 <= int(first) <= int(last):
            raise UserError(f"malformed handle: {text!r} (bad line range)", status=Exit.HANDLE)
        return Handle(match["path"], match["oid"], int(first), int(last))
    return Handle(match["path"], match["oid"])
