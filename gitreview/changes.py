"""The range's file changes, one at a time, from git objects.

File pairs come from `git diff-tree -M` (git's own rename detection); each
file's patch is built with libgit2 from the two blobs, with git's indent
heuristic, so hunks are the ones `git diff -M` shows (issue #2). Changes are
yielded one by one so a range of thousands of files never holds every blob.
"""

from __future__ import annotations

from collections.abc import Iterator

from gitreview.git import RawChange, Repository, diff_hunks
from gitreview.model import MODE_GITLINK, FileChange, Hunk, Range, Status

_STATUS: dict[str, Status] = {
    "A": "added",
    "M": "modified",
    "D": "deleted",
    "R": "renamed",
    "C": "copied",
    "T": "type-changed",
}

# git's own rule (xdiff-interface.c buffer_is_binary): a NUL byte in the first 8000 bytes.
_BINARY_PROBE = 8000


def is_binary(data: bytes | None) -> bool:
    return data is not None and b"\0" in data[:_BINARY_PROBE]


class Changes:
    """The range's file changes: sized (for a progress bar), read one at a time."""

    def __init__(self, repo: Repository, raw: list[RawChange]) -> None:
        self._repo = repo
        self._raw = raw

    def __len__(self) -> int:
        return len(self._raw)

    def __iter__(self) -> Iterator[FileChange]:
        for raw in self._raw:
            yield _file_change(self._repo, raw)


def iter_changes(repo: Repository, rng: Range, *, copies: bool = True) -> Changes:
    assert rng.head is not None  # only a patch has no head
    return Changes(repo, repo.raw_diff(rng.base, rng.head, copies=copies))


def _file_change(repo: Repository, raw: RawChange) -> FileChange:
    status = _STATUS[raw.status]
    old_exists = raw.status != "A"
    new_exists = raw.status != "D"
    old_data = repo.blob(raw.old_oid) if old_exists and raw.old_mode != MODE_GITLINK else None
    new_data = repo.blob(raw.new_oid) if new_exists and raw.new_mode != MODE_GITLINK else None
    binary = is_binary(old_data) or is_binary(new_data)
    hunks: tuple[Hunk, ...] = ()
    if raw.status == "T":
        # git shows a type change as the old entry deleted and the new one added.
        hunks = diff_hunks(old_data, None) if old_data and not is_binary(old_data) else ()
        if new_data and not is_binary(new_data):
            hunks += diff_hunks(None, new_data)
    elif not binary and old_data != new_data and (old_data or new_data):
        hunks = diff_hunks(old_data, new_data)
    return FileChange(
        status=status,
        path=raw.new_path,
        old_path=raw.old_path if old_exists else None,
        old_mode=raw.old_mode if old_exists else None,
        new_mode=raw.new_mode if new_exists else None,
        old_oid=raw.old_oid if old_exists else None,
        new_oid=raw.new_oid if new_exists else None,
        similarity=raw.score if raw.status in "RC" else None,
        binary=binary,
        hunks=hunks,
        old_data=old_data,
        new_data=new_data,
    )
