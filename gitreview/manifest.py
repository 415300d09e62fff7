"""Assembly of the review manifest: entries, handles, excerpts, routing, tokens.

Pure functions over the records of the earlier stages. The manifest is read
by a model, so fields with nothing to say are left out, and the output is
deterministic: the same inputs give the same bytes.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from gitreview import tokens
from gitreview.analyze import Analysis
from gitreview.analyze.base import Scope
from gitreview.classify import FileVerdict
from gitreview.handles import Handle
from gitreview.model import FileChange, Finding, Hunk, Range
from gitreview.secrets import redact

SCHEMA_VERSION = "1.0"
EXCERPT_CHARS = 200
BATCH_HANDLES = 200
BATCH_FILES = 50
DEFAULT_ROLE = "default"


@dataclass(frozen=True)
class ReviewItem:
    handle: str
    path: str
    tokens: int


@dataclass
class FileReport:
    """A file's manifest entry and the figures the totals are made of."""

    entry: dict[str, Any]
    review: list[ReviewItem] = field(default_factory=list)
    hunks_trivial: int = 0
    hunks_significant: int = 0
    full_tokens: int = 0
    significant_tokens: int = 0
    fallback_tokens: int = 0
    # The coverage ledger: every changed line once, by what became of it.
    trivial_lines: dict[str, int] = field(default_factory=dict)  # by first reason
    significant_lines: int = 0
    unreviewable: str | None = None  # why nobody can read the content (binary, submodule)


def file_report(
    change: FileChange,
    kind: str,
    analysis: Analysis,
    verdict: FileVerdict,
    head_tokens: int,
    *,
    full: bool = False,
    content: str | None = None,
) -> FileReport:
    """A file's entry. With `full`, its whole text at head (`content`, None for a
    deleted, binary or patch-only file) and its whole diff go in it too: the
    fallback, and the full-content bundle."""
    entry: dict[str, Any] = {"path": change.path}
    if change.old_path is not None and change.old_path != change.path:
        entry["old_path"] = change.old_path
    entry["status"] = change.status
    entry["kind"] = kind
    entry["classification"] = verdict.classification
    entry["reasons"] = list(verdict.reasons)
    entry["t1"] = "ok" if analysis.t1 else "missing"
    if analysis.cause is not None:
        entry["t1_cause"] = analysis.cause
    old_mode, new_mode = change.old_mode, change.new_mode
    if old_mode is not None and new_mode is not None and old_mode != new_mode:
        entry["mode"] = [f"{old_mode:06o}", f"{new_mode:06o}"]
    if change.similarity is not None:
        entry["similarity"] = change.similarity
    if analysis.report.structure:
        entry["structure"] = dict(analysis.report.structure)
    report = FileReport(entry)
    diff_text = "".join(tokens.hunk_text(hunk) for hunk in change.hunks)
    report.full_tokens = tokens.estimate(diff_text) + head_tokens
    if change.binary or change.is_submodule:
        report.unreviewable = "submodule" if change.is_submodule else "binary"
    for hunk, hunk_verdict in zip(change.hunks, verdict.hunks, strict=True):
        lines = len(hunk.removed) + len(hunk.added)
        if hunk_verdict.classification == "trivial":
            reason = hunk_verdict.reasons[0]
            report.trivial_lines[reason] = report.trivial_lines.get(reason, 0) + lines
        else:
            report.significant_lines += lines
    if full:
        whole = {"content": None if content is None else redact(content), "diff": redact(diff_text)}
        entry["full"] = whole
        report.fallback_tokens = tokens.estimate(json.dumps(whole, ensure_ascii=False))
    if verdict.classification == "trivial":
        report.hunks_trivial = len(change.hunks)
        return report
    hunk_entries = []
    for hunk, hunk_verdict in zip(change.hunks, verdict.hunks, strict=True):
        hunk_entry = _hunk_entry(change, hunk, hunk_verdict.classification, hunk_verdict.reasons)
        for name, handle in hunk_verdict.pointers:
            hunk_entry.setdefault(name, []).append(handle)
        scope = innermost_scope(analysis.report.scopes, hunk)
        if scope is not None:
            hunk_entry[scope.label] = scope.name
        hunk_entries.append(hunk_entry)
        if hunk_verdict.classification == "trivial":
            report.hunks_trivial += 1
            continue
        report.hunks_significant += 1
        cost = tokens.estimate(tokens.hunk_text(hunk))
        report.significant_tokens += cost
        report.review.append(ReviewItem(hunk_entry["handle"], change.path, cost))
    if hunk_entries:
        entry["hunks"] = hunk_entries
    if not report.review:
        # Significant, yet no hunk says why (binary, submodule, mode, empty file):
        # the reviewer gets the whole file, and reading it costs the whole file.
        handle = str(Handle(change.path, change.new_oid or change.old_oid))
        entry["handle"] = handle
        cost = head_tokens or tokens.estimate(handle)
        report.significant_tokens += cost
        report.review.append(ReviewItem(handle, change.path, cost))
    return report


def hunk_handle(change: FileChange, hunk: Hunk) -> str:
    """The hunk's added lines in the new blob, or its removed lines in the old one
    for a pure deletion."""
    old, new = hunk.old_span, hunk.new_span
    if new is not None:
        return str(Handle(change.path, change.new_oid, *new))
    assert old is not None
    return str(Handle(change.old_path or change.path, change.old_oid, *old))


def _hunk_entry(
    change: FileChange, hunk: Hunk, classification: str, reasons: Sequence[str]
) -> dict[str, Any]:
    old, new = hunk.old_span, hunk.new_span
    lines = hunk.added if new is not None else hunk.removed
    return {
        "handle": hunk_handle(change, hunk),
        "classification": classification,
        "reasons": list(reasons),
        "old": list(old) if old else None,
        "new": list(new) if new else None,
        "excerpt": excerpt(line.text for line in lines),
    }


def innermost_scope(scopes: Sequence[Scope], hunk: Hunk) -> Scope | None:
    """The narrowest head-side scope holding the hunk's first added line (for a
    pure deletion, the place in the head where the lines were)."""
    span = hunk.new_span
    line = span[0] if span else max(hunk.new_start, 1)
    holding = [scope for scope in scopes if scope.first <= line <= scope.last]
    if not holding:
        return None
    return min(holding, key=lambda scope: (scope.last - scope.first, -scope.first))


def excerpt(lines: Iterable[str]) -> str:
    """At most EXCERPT_CHARS characters of the lines, secrets redacted first
    (so a cut can never leave part of a secret behind)."""
    text = redact("\n".join(line.rstrip("\r") for line in lines))
    if len(text) <= EXCERPT_CHARS:
        return text
    return text[: EXCERPT_CHARS - 1] + "…"


def assemble(
    rng: Range,
    reports: Sequence[FileReport],
    findings: Sequence[Finding],
    *,
    source: str = "git",
) -> dict[str, Any]:
    files = [report.entry for report in reports]
    trivial_files = sum(entry["classification"] == "trivial" for entry in files)
    ordered_findings = sorted(
        findings, key=lambda f: (f.path or "", f.line or 0, f.rule, f.message)
    )
    severities = {"error": 0, "warning": 0, "info": 0}
    for finding in ordered_findings:
        severities[finding.severity] += 1
    range_entry: dict[str, Any] = {
        "spec": rng.spec,
        "base": rng.base,
        "head": rng.head,
        "commits": [{"sha": c.sha, "subject": redact(c.subject)} for c in rng.commits],
    }
    if source != "git":
        range_entry["source"] = source
    significant_tokens = sum(report.significant_tokens for report in reports)
    manifest: dict[str, Any] = {
        "schema_version": SCHEMA_VERSION,
        "range": range_entry,
        "summary": {
            "files": {
                "total": len(files),
                "trivial": trivial_files,
                "significant": len(files) - trivial_files,
            },
            "hunks": {
                "total": sum(r.hunks_trivial + r.hunks_significant for r in reports),
                "trivial": sum(r.hunks_trivial for r in reports),
                "significant": sum(r.hunks_significant for r in reports),
            },
            "findings": severities,
        },
        "tokens": {
            "full": sum(report.full_tokens for report in reports),
            "manifest": 0,
            "significant": significant_tokens,
            "reduction": 0.0,
        },
        "ledger": _ledger(reports),
        "findings": [_finding_entry(finding) for finding in ordered_findings],
        "files": files,
        "review": _review([item for report in reports for item in report.review]),
    }
    fallback = [report for report in reports if "full" in report.entry]
    if fallback:
        manifest["fallback"] = {
            "files": len(fallback),
            "tokens": sum(report.fallback_tokens for report in fallback),
        }
    _settle_token_figures(manifest)
    return manifest


def _ledger(reports: Sequence[FileReport]) -> dict[str, Any]:
    """Every changed line of the range exactly once: trivial by reason, or
    significant; and the files whose content nobody can read."""
    trivial: dict[str, int] = {}
    for report in reports:
        for reason, lines in report.trivial_lines.items():
            trivial[reason] = trivial.get(reason, 0) + lines
    significant = sum(report.significant_lines for report in reports)
    ledger: dict[str, Any] = {
        "lines": sum(trivial.values()) + significant,
        "trivial": dict(sorted(trivial.items())),
        "significant": significant,
    }
    unreviewable: dict[str, list[str]] = {}
    for report in reports:
        if report.unreviewable:
            unreviewable.setdefault(report.unreviewable, []).append(report.entry["path"])
    if unreviewable:
        ledger["unreviewable"] = dict(sorted(unreviewable.items()))
    return ledger


def _finding_entry(finding: Finding) -> dict[str, Any]:
    return {
        "rule": finding.rule,
        "severity": finding.severity,
        "path": finding.path,
        "line": finding.line,
        "message": redact(finding.message),
    }


def _review(items: Sequence[ReviewItem]) -> dict[str, Any]:
    """Per-role handle batches; every significant item goes to the default role
    until roles are configured."""
    if not items:
        return {}
    return {DEFAULT_ROLE: _role_entry(items)}


def _role_entry(items: Sequence[ReviewItem]) -> dict[str, Any]:
    batches: list[list[str]] = []
    files_in_batch: set[str] = set()
    for item in items:
        full = batches and (
            len(batches[-1]) >= BATCH_HANDLES
            or (item.path not in files_in_batch and len(files_in_batch) >= BATCH_FILES)
        )
        if not batches or full:
            batches.append([])
            files_in_batch = set()
        batches[-1].append(item.handle)
        files_in_batch.add(item.path)
    return {
        "handles": len(items),
        "files": len({item.path for item in items}),
        "tokens": sum(item.tokens for item in items),
        "batches": batches,
    }


def render_json(manifest: dict[str, Any], *, color: bool = False) -> str:
    """The json output format: the manifest itself."""
    return serialize(manifest)


def serialize(manifest: dict[str, Any]) -> str:
    """The manifest as compact, deterministic JSON text (one line, newline at the end)."""
    return json.dumps(manifest, ensure_ascii=False, separators=(",", ":")) + "\n"


def _settle_token_figures(manifest: dict[str, Any]) -> None:
    """`tokens.manifest` counts the manifest itself, which holds that number:
    iterate until the figure no longer changes the text's length."""
    figures = manifest["tokens"]
    for _ in range(5):
        cost = tokens.estimate(serialize(manifest))
        full = figures["full"]
        reduction = round(1 - (cost + figures["significant"]) / full, 4) if full else 0.0
        if figures["manifest"] == cost and figures["reduction"] == reduction:
            return
        figures["manifest"], figures["reduction"] = cost, reduction
