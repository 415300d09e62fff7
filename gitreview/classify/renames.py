"""File changes that move or re-mode content without changing it."""

from __future__ import annotations

import posixpath
from typing import TYPE_CHECKING

from gitreview.classify.base import Proof
from gitreview.model import MODE_EXECUTABLE, MODE_FILE

if TYPE_CHECKING:
    from gitreview.classify.base import FileFacts

_REGULAR = frozenset({MODE_FILE, MODE_EXECUTABLE})


def pure_rename_or_copy(facts: FileFacts) -> Proof | None:
    """Renamed or copied with identical content (and the same kind of entry)."""
    change = facts.change
    if change.status not in ("renamed", "copied") or change.old_oid != change.new_oid:
        return None
    old_name, new_name = posixpath.basename(change.old_path or ""), posixpath.basename(change.path)
    if posixpath.splitext(old_name)[1] != posixpath.splitext(new_name)[1]:
        return None  # ci.yml -> ci.yml.disabled switches CI off: a person decides
    reason = "renamed" if change.status == "renamed" else "copied"
    evidence = f"{change.old_path} and {change.path} are the same blob ({change.new_oid})"
    if change.old_mode == change.new_mode:
        return Proof((reason,), evidence)
    if {change.old_mode, change.new_mode} <= _REGULAR:
        return Proof((reason, "mode-only"), evidence + "; only the executable bit changed")
    return None


def mode_only(facts: FileFacts) -> Proof | None:
    """Only the executable bit changed, on a regular file."""
    change = facts.change
    if (
        change.status == "modified"
        and change.old_oid == change.new_oid
        and change.old_mode != change.new_mode
        and {change.old_mode, change.new_mode} <= _REGULAR
    ):
        return Proof(
            ("mode-only",), f"same blob ({change.new_oid}); only the executable bit changed"
        )
    return None
