"""Tier-1 (T1) analysis of a changed file: what a program learns of its content.

`analyze` decides whether T1 data exists for a file and, when it does, gives
the decoded text of both sides and the lines where whitespace is content. The
analyzers of later issues (Markdown structure, Python symbols, findings) hang
off the same record. A file with no analysis is significant and, with
--fallback, gets its full content in the manifest.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from gitreview.analyze import lexical
from gitreview.model import FileChange

# Kinds whose content has no T1 analysis, and the cause the manifest gives.
_NO_ANALYSIS_CAUSE = {
    "binary": "binary",
    "submodule": "submodule",
}


Side = Literal["old", "new"]

# Kinds in which no line can be inside a multi-line literal.
_CONTEXT_FREE_KINDS = frozenset({"json"})


@dataclass(frozen=True)
class Analysis:
    kind: str
    t1: bool
    cause: str | None = None  # why T1 data is missing
    old_text: str | None = None
    new_text: str | None = None
    context_free: bool = False  # no line of this kind can sit inside a multi-line literal
    _literal: dict[str, frozenset[int] | None] = field(
        default_factory=dict, compare=False, repr=False
    )

    def literal_lines(self, side: Side) -> frozenset[int] | None:
        """Lines of one side where whitespace is content; None when every line
        must count as such. Lexing is the costly part of a run, so it happens
        only for a hunk that got past the cheap checks, once per side."""
        if side not in self._literal:
            text = self.old_text if side == "old" else self.new_text
            if text is None:
                self._literal[side] = frozenset() if self.context_free else None
            else:
                self._literal[side] = lexical.literal_lines(self.kind, text)
        return self._literal[side]


def analyze(change: FileChange, kind: str, *, max_bytes: int) -> Analysis:
    if kind in _NO_ANALYSIS_CAUSE:
        return Analysis(kind, t1=False, cause=_NO_ANALYSIS_CAUSE[kind])
    if not change.content_known:
        # Without the whole file a changed line may sit inside a multi-line
        # string; only kinds that have none can still be compared.
        return Analysis(
            kind, t1=False, cause="patch-only", context_free=kind in _CONTEXT_FREE_KINDS
        )
    sizes = [len(data) for data in (change.old_data, change.new_data) if data is not None]
    if any(size > max_bytes for size in sizes):
        return Analysis(kind, t1=False, cause="too-large")
    try:
        old_text = None if change.old_data is None else change.old_data.decode("utf-8")
        new_text = None if change.new_data is None else change.new_data.decode("utf-8")
    except UnicodeDecodeError:
        return Analysis(kind, t1=False, cause="undecodable")
    if kind != "symlink" and lexical.policy(kind) is None:
        return Analysis(kind, t1=False, cause="no-analyzer", old_text=old_text, new_text=new_text)
    return Analysis(kind, t1=True, old_text=old_text, new_text=new_text)
