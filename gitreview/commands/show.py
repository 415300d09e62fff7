"""`git review-manifest show HANDLE`: print exactly the lines a handle names."""

from __future__ import annotations

import sys

from gitreview.errors import Exit, UserError
from gitreview.handles import parse_handle
from gitreview.secrets import redact_lines


def run_show(*, handle: str, repo: str | None, context: int) -> int:
    from gitreview.git import open_repository

    parsed = parse_handle(handle)
    if parsed.oid is None:
        raise UserError(
            f"handle {handle!r} names no blob: a handle ends with @BLOB",
            status=Exit.HANDLE,
            hint="handles from a patch without index lines have none and cannot be shown",
        )
    repository = open_repository(repo)
    data = repository.blob_by_prefix(parsed.oid)
    if data is None:
        raise UserError(
            f"unknown handle {handle!r}: no blob {parsed.oid} in this repository",
            status=Exit.HANDLE,
            hint="handles resolve in the repository the manifest was built from; fetch its commits",
        )
    if b"\0" in data[:8000]:
        raise UserError(f"handle {handle!r} names a binary blob", status=Exit.HANDLE)
    sys.stdout.write(render_lines(data, parsed.first, parsed.last, context=context, handle=handle))
    return int(Exit.OK)


def render_lines(
    data: bytes, first: int | None, last: int | None, *, context: int, handle: str
) -> str:
    """Lines FIRST..LAST as `NUMBER:TEXT` (context lines as `NUMBER-TEXT`, like git grep)."""
    lines = data.decode("utf-8", "replace").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    first = 1 if first is None else first
    last = len(lines) if last is None else last
    if last > len(lines):
        raise UserError(
            f"handle {handle!r} names lines {first}-{last} but the blob has {len(lines)}",
            status=Exit.HANDLE,
        )
    start, end = max(1, first - context), min(len(lines), last + context)
    width = len(str(end))
    # Redacted with the whole blob in view: a private key's body lines are hidden
    # even when the handle names a few of them without the BEGIN line.
    shown = redact_lines([line.rstrip("\r") for line in lines], start - 1, end)
    out = []
    for number, text in enumerate(shown, start):
        mark = ":" if first <= number <= last else "-"
        out.append(f"{number:>{width}}{mark}{text}\n")
    return "".join(out)
