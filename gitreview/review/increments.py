"""Review across pushes: what an earlier review already covered (issue #13, seed 004).

"Already reviewed" is decided by content, not by commit: a significant hunk
is covered when an earlier review had a significant hunk at the same path (or
at the path it was renamed from) with the same removed and added lines and the
same unchanged lines git shows around them, starting at the same line of the
base, so the same change moved to another place in the file is reviewed
again. So a pull request that gains commits sends only their hunks, a rebase
onto a moved base that changed nothing in its own files sends nothing again,
and a hunk edited after review is sent again. What the earlier review had that the range
no longer holds is `gone`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from typing import NamedTuple

from gitreview.model import FileChange, Hunk

Key = tuple[str, str]  # (path, digest of the changed lines)


def hunk_digest(change: FileChange, hunk: Hunk) -> str:
    """The removed and added lines and the context around them, in order, with
    their line ends (and git's "No newline at end of file"), and where they start
    in the base: what makes two hunks the same change at the same place. The
    place counts because repeated blocks (a manifest's containers, a workflow's
    jobs) have the same context lines: the same edit moved from one to the next
    is another change (found by an adversarial review). Both ranges start from
    the same base file unless a rebase changed it, and then its hunks are sent
    again, which is safe. The file's modes count too: the same lines in a file
    made a symlink, or in a file deleted rather than emptied, are another change."""
    text = "".join(
        f"{line.origin}{line.text}\n" if line.newline else f"{line.origin}{line.text}\n\\\n"
        for line in hunk.lines
    )
    sides = f"{change.old_mode}..{change.new_mode}"  # none on a deleted or added side
    text = f"{sides}\n{hunk.old_start}\n{text}"
    return hashlib.sha1(text.encode(), usedforsecurity=False).hexdigest()


def file_digest(change: FileChange) -> str:
    """A file routed whole (binary, submodule, mode...): its two sides and modes."""
    sides = f"{change.old_oid}:{change.old_mode}..{change.new_oid}:{change.new_mode}"
    return hashlib.sha1(sides.encode(), usedforsecurity=False).hexdigest()


class Reviewed(NamedTuple):
    """The significant hunks of an earlier review, by path and content."""

    since: str  # what the user named: a revision, or a manifest file
    hunks: Mapping[Key, str]  # -> the handle it had then

    def handle_for(self, change: FileChange, digest: str) -> str | None:
        """The handle an earlier review gave the same change: at the file's path, or
        the one it was renamed from (not the one a copy was made from: the copy is
        new, found by an adversarial review)."""
        for path in (change.path, change.old_path if change.status == "renamed" else None):
            if path is not None and (path, digest) in self.hunks:
                return self.hunks[(path, digest)]
        return None

    def gone(self, present: Iterable[Key]) -> list[str]:
        """Handles of the earlier review whose change the range no longer holds."""
        kept = set(present)
        return sorted(handle for key, handle in self.hunks.items() if key not in kept)
