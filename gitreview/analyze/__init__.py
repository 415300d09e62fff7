"""Tier-1 (T1) analysis of a changed file: what a program learns of its content.

`analyze` decides whether T1 data exists for a file and, when it does, gives
the decoded text of both sides and the lines where whitespace is content. The
analyzers of later issues (Markdown structure, Python symbols, findings) hang
off the same record. A file with no analysis is significant and, with
--fallback, gets its full content in the manifest.
"""

from __future__ import annotations

from dataclasses import dataclass

from gitreview.analyze import lexical
from gitreview.model import FileChange

# Kinds whose content has no T1 analysis, and the cause the manifest gives.
_NO_ANALYSIS_CAUSE = {
    "binary": "binary",
    "submodule": "submodule",
}


# Kinds in which no line can be inside a multi-line literal.
_CONTEXT_FREE_KINDS = frozenset({"json"})


@dataclass(frozen=True)
class Analysis:
    t1: bool
    cause: str | None = None  # why T1 data is missing
    old_text: str | None = None
    new_text: str | None = None
    old_literal: frozenset[int] | None = None  # None: every line is literal
    new_literal: frozenset[int] | None = None


def analyze(change: FileChange, kind: str, *, max_bytes: int) -> Analysis:
    if kind in _NO_ANALYSIS_CAUSE:
        return Analysis(t1=False, cause=_NO_ANALYSIS_CAUSE[kind])
    if not change.content_known:
        return Analysis(
            t1=False,
            cause="patch-only",
            # Without the whole file a changed line may sit inside a multi-line
            # string; only kinds that have none can still be compared.
            old_literal=frozenset() if kind in _CONTEXT_FREE_KINDS else None,
            new_literal=frozenset() if kind in _CONTEXT_FREE_KINDS else None,
        )
    sizes = [len(data) for data in (change.old_data, change.new_data) if data is not None]
    if any(size > max_bytes for size in sizes):
        return Analysis(t1=False, cause="too-large")
    try:
        old_text = None if change.old_data is None else change.old_data.decode("utf-8")
        new_text = None if change.new_data is None else change.new_data.decode("utf-8")
    except UnicodeDecodeError:
        return Analysis(t1=False, cause="undecodable")
    if kind == "symlink":
        return Analysis(t1=True, old_text=old_text, new_text=new_text)
    if lexical.policy(kind) is None:
        return Analysis(t1=False, cause="no-analyzer", old_text=old_text, new_text=new_text)
    return Analysis(
        t1=True,
        old_text=old_text,
        new_text=new_text,
        old_literal=None if old_text is None else lexical.literal_lines(kind, old_text),
        new_literal=None if new_text is None else lexical.literal_lines(kind, new_text),
    )
