"""Trivial or significant, always with the reason.

File rules decide for a whole file (a pure rename, a generated file...); hunk
rules decide hunk by hunk. Both are explicit registries: a rule returns its
reason codes when it can prove the change trivial, or None. When no rule
proves it, the change is significant, and that is the default.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from gitreview.analyze import Analysis
from gitreview.classify import generated, renames, whitespace
from gitreview.config import Config
from gitreview.model import Classification, FileChange, Finding, Hunk


@dataclass(frozen=True)
class FileFacts:
    """Everything a rule may look at: pure data, no repository."""

    change: FileChange
    kind: str
    analysis: Analysis
    config: Config
    attributes: Mapping[str, bool | str | None]  # gitattributes of the path at head
    findings: tuple[Finding, ...] = ()  # with the configured severities


@dataclass(frozen=True)
class Verdict:
    classification: Classification
    reasons: tuple[str, ...]


@dataclass(frozen=True)
class FileVerdict:
    classification: Classification
    reasons: tuple[str, ...]
    hunks: tuple[Verdict, ...]  # one per hunk of the change, in order


FileRule = Callable[[FileFacts], "tuple[str, ...] | None"]
HunkRule = Callable[[FileFacts, Hunk], "tuple[str, ...] | None"]

# Order matters only for which reasons are reported first.
FILE_RULES: tuple[FileRule, ...] = (
    generated.ignored,
    generated.generated,
    renames.pure_rename_or_copy,
    renames.mode_only,
)
HUNK_RULES: tuple[HunkRule, ...] = (whitespace.whitespace_only,)

# Statuses where the file as a whole appears or changes nature: never trivial by hunk.
_WHOLE_FILE_STATUSES = ("added", "deleted", "type-changed")


def classify(facts: FileFacts) -> FileVerdict:
    return _with_findings(facts, _classify(facts))


def _classify(facts: FileFacts) -> FileVerdict:
    for rule in FILE_RULES:
        reasons = rule(facts)
        if reasons:
            trivial = tuple(Verdict("trivial", reasons) for _ in facts.change.hunks)
            return FileVerdict("trivial", reasons, trivial)
    hunk_verdicts = tuple(_classify_hunk(facts, hunk) for hunk in facts.change.hunks)
    if hunk_verdicts and all(v.classification == "trivial" for v in hunk_verdicts):
        if _mode_changed(facts.change):
            # The content is fine but the mode is not explained by it: a person looks.
            return FileVerdict("significant", ("mode",), hunk_verdicts)
        status = facts.change.status
        moved = [status] if status in ("renamed", "copied") else []
        reasons = _union([*moved, *(reason for v in hunk_verdicts for reason in v.reasons)])
        return FileVerdict("trivial", reasons, hunk_verdicts)
    return FileVerdict("significant", _significant_reasons(facts), hunk_verdicts)


def _with_findings(facts: FileFacts, verdict: FileVerdict) -> FileVerdict:
    """A hunk that carries an error-level finding is never trivial, nor is its file."""
    errors = [f.line for f in facts.findings if f.severity == "error"]
    if not errors:
        return verdict
    hunks = tuple(
        Verdict("significant", ("finding",))
        if any(_carries(hunk, line) for line in errors)
        else hunk_verdict
        for hunk, hunk_verdict in zip(facts.change.hunks, verdict.hunks, strict=True)
    )
    if verdict.classification == "trivial":
        return FileVerdict("significant", ("finding",), hunks)
    return FileVerdict(verdict.classification, verdict.reasons, hunks)


def _carries(hunk: Hunk, line: int | None) -> bool:
    """Whether a head-side finding line falls in the hunk (a finding with no line
    concerns the whole file, so every hunk carries it)."""
    if line is None:
        return True
    return hunk.new_start <= line < hunk.new_start + max(hunk.new_count, 1)


def _classify_hunk(facts: FileFacts, hunk: Hunk) -> Verdict:
    significant = Verdict("significant", ("content",) if facts.analysis.t1 else ("no-analysis",))
    if facts.change.status in _WHOLE_FILE_STATUSES:
        # The file's existence is the change: an added __init__.py holding one blank
        # line makes a package, whatever its whitespace.
        return significant
    for rule in HUNK_RULES:
        reasons = rule(facts, hunk)
        if reasons:
            return Verdict("trivial", reasons)
    return significant


def _mode_changed(change: FileChange) -> bool:
    return None not in (change.old_mode, change.new_mode) and change.old_mode != change.new_mode


def _significant_reasons(facts: FileFacts) -> tuple[str, ...]:
    """Why a file needs a reviewer: what kind of change no rule could prove trivial."""
    change = facts.change
    if change.is_submodule:
        return ("submodule",)
    if change.binary:
        return ("binary",)
    if change.status in _WHOLE_FILE_STATUSES:
        return (change.status,)
    if not change.hunks:
        return ("mode",) if _mode_changed(change) else ("metadata",)
    return ("content",) if facts.analysis.t1 else ("no-analysis",)


def _union(reasons: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(reasons))
