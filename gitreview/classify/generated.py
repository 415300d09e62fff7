"""Files no person writes or reviews: generated files, and paths configured away."""

from __future__ import annotations

import posixpath
from collections.abc import Sequence
from typing import TYPE_CHECKING

from gitreview import globs
from gitreview.classify.base import Proof
from gitreview.classify.renames import is_test_data
from gitreview.generated_header import is_generated_header
from gitreview.lockfiles import is_lock_file
from gitreview.model import MODE_SYMLINK

if TYPE_CHECKING:
    from gitreview.classify.base import FileFacts


def ignored(facts: FileFacts) -> Proof | None:
    # A rename or copy is ignored only where both paths are (found by an adversarial
    # review: `vendor/helper.py` renamed `src/helper.py`, with code added, was hidden).
    return _configured(facts, facts.config.ignore, "ignore", "ignored")


def generated(facts: FileFacts) -> Proof | None:
    if MODE_SYMLINK in (facts.change.old_mode, facts.change.new_mode):
        # A link named as a lock file reads another file, which no check here sees (a
        # review of the fix: one added, or pointed elsewhere, was `generated`).
        return None
    flag = globs.linguist_flag(facts.attributes, "linguist-generated")
    if flag is not None:
        # An explicit attribute wins over every guess, both ways; but only one the
        # range did not itself set, or marking a file generated would hide its edit.
        base = facts.base_attributes
        if (
            flag
            and base is not None
            and globs.linguist_flag(base, "linguist-generated") is not True
        ):
            return None
        evidence = "linguist-generated is set for it in the base commit's .gitattributes"
        return Proof(("generated",), evidence) if flag else None
    # A rename is generated only where both paths are (found by an adversarial review:
    # `audit.go` renamed `go.sum` is a source file gone, not a lock file edited).
    configured = _configured(facts, facts.config.generated, "generated", "generated")
    if configured is not None:
        return configured
    paths = _paths(facts)
    if any(is_test_data(path.lower()) for path in paths):
        # A lock file or a generated file among a test's data is the test's input or
        # expected output, written by hand or on purpose (Dependabot's fixtures'
        # package-lock.json, Go's testdata/go.sum; found by an adversarial review).
        return None
    if all(is_lock_file(path) for path in paths):
        name = posixpath.basename(facts.change.path)
        return Proof(("generated",), f"{name} is a package manager's lock file")
    if _has_generated_header(facts):
        evidence = (
            "both sides start with a header saying the file is generated, not edited"
            if facts.analysis.new_text is not None
            else "it started with a header saying it was generated, not edited"
        )
        return Proof(("generated",), evidence)
    return None


def out_of_unread(facts: FileFacts) -> str | None:
    """Why a file renamed or copied from a path the configuration keeps from
    reviewers (`generated`, `ignore` globs) into one it does not needs a reviewer:
    no one read it where it was (found by an adversarial review: code added under
    `docs/api/**` in one range, then renamed into `src/` unchanged in another, was
    never read). None for any other file."""
    change = facts.change
    if change.old_path is None or change.old_path == change.path:
        return None
    config = facts.config
    for patterns, key in ((config.generated, "generated"), (config.ignore, "ignore")):
        if globs.match_any(patterns, change.old_path) and not globs.match_any(
            patterns, change.path
        ):
            return (
                f"{change.old_path} matches a configured {key} glob, {change.path} does not: "
                "no reviewer read it where it was"
            )
    return None


def _configured(facts: FileFacts, patterns: Sequence[str], key: str, reason: str) -> Proof | None:
    """Proved when every path of the file (both, for a rename or copy) matches one of
    the configuration's `key` globs."""
    paths = _paths(facts)
    if not all(globs.match_any(patterns, path) for path in paths):
        return None
    named = f"{paths[0]} matches" if len(paths) == 1 else f"{paths[1]} and {paths[0]} match"
    return Proof((reason,), f"{named} a configured {key} glob")


def _paths(facts: FileFacts) -> tuple[str, ...]:
    change = facts.change
    if change.old_path and change.old_path != change.path:
        return (change.path, change.old_path)
    return (change.path,)


def _has_generated_header(facts: FileFacts) -> bool:
    """The base side says it is generated, and so does the head side if there is one.
    A header this range wrote proves nothing, whether in a file it edits or in one it
    adds, even as a copy of a generated file: it could be hiding a hand edit."""
    analysis = facts.analysis
    if facts.change.status in ("added", "copied"):
        return False
    if analysis.old_text is None or not is_generated_header(analysis.old_text):
        return False
    return analysis.new_text is None or is_generated_header(analysis.new_text)
