"""Files no person writes or reviews: generated files, and paths configured away."""

from __future__ import annotations

import posixpath
import re
from typing import TYPE_CHECKING

from gitreview import globs
from gitreview.classify.base import Proof
from gitreview.lockfiles import is_lock_file

if TYPE_CHECKING:
    from gitreview.classify.base import FileFacts

# "generated" and "do not edit" in the first lines, or the @generated marker
# (Go's "Code generated ... DO NOT EDIT.", protoc, Meta's @generated).
_HEADER_LINES = 5
_GENERATED = re.compile(r"\bgenerated\b", re.IGNORECASE)
_DO_NOT_EDIT = re.compile(r"\b(?:do not|don't|must not|never) (?:edit|modify)\b", re.IGNORECASE)
# Comment openers of common languages: a header is made of such lines.
_COMMENT_START = re.compile(r"(?:#!?|//+|/\*+|\*|<!--|--|;+|%)")


def ignored(facts: FileFacts) -> Proof | None:
    for path in _paths(facts):
        if globs.match_any(facts.config.ignore, path):
            return Proof(("ignored",), f"{path} matches a configured ignore glob")
    return None


def generated(facts: FileFacts) -> Proof | None:
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
    for path in _paths(facts):
        if globs.match_any(facts.config.generated, path):
            return Proof(("generated",), f"{path} matches a configured generated glob")
    if is_lock_file(facts.change.path):
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


def is_generated_header(text: str) -> bool:
    """A comment at the very top saying the file is generated: "generated" and "do
    not edit" in one comment line, or a comment line starting with @generated.
    Prose that mentions generated files (a CONTRIBUTING line, a docstring, a string
    constant) is no header."""
    for line in text.split("\n", _HEADER_LINES)[:_HEADER_LINES]:
        stripped = line.strip()
        if not stripped:
            continue
        comment = _COMMENT_START.match(stripped)
        if comment is None:
            return False  # the header ends at the first line of content
        words = stripped[comment.end() :].strip()
        if words.startswith("@generated"):
            return True
        if _GENERATED.search(words) and _DO_NOT_EDIT.search(words):
            return True
    return False
