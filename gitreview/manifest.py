"""Assembly of the review manifest: entries, handles, excerpts, routing, tokens.

Pure functions over the records of the earlier stages. The manifest is read
by a model, so fields with nothing to say are left out, and the output is
deterministic: the same inputs give the same bytes.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from gitreview import tokens
from gitreview.analyze import Analysis
from gitreview.analyze.base import innermost_scope
from gitreview.classify import FileVerdict
from gitreview.config import Role
from gitreview.handles import OID_LENGTH, Handle, Side, change_handle
from gitreview.model import Assembled, FileChange, Finding, Hunk, Range
from gitreview.render.json import compact, framed, list_pieces, value_pieces
from gitreview.review.brief import render_brief, within_budget
from gitreview.review.diffs import (
    NO_KEYS,
    KeyBlocks,
    Shown,
    file_header,
    hunk_header,
    rows_of,
    shown_hunk,
)
from gitreview.review.increments import Key, Reviewed, file_digest, hunk_digest
from gitreview.review.roles import DEFAULT_ROLE, ReviewItem, Share, batches, route
from gitreview.secrets import redact, redact_diff
from gitreview.shown import escaped

SCHEMA_VERSION = "2.0"


class FileReport:
    """A file's manifest entry, serialized once it is complete (`text`: a large
    range's entries are never all held as objects, issue 12), and the figures the
    totals are made of, added up as its hunks are reported. (Not a dataclass:
    making one costs a millisecond of every run's start-up, issue 12.)"""

    __slots__ = (
        "cause",
        "diff_tokens",
        "fallback_tokens",
        "full",
        "full_tokens",
        "hunks_significant",
        "hunks_trivial",
        "path",
        "present",
        "review",
        "reviewed_hunks",
        "reviewed_lines",
        "significant_lines",
        "significant_tokens",
        "text",
        "trivial",
        "trivial_lines",
        "unreviewable",
    )

    def __init__(self, path: str) -> None:
        self.path = path
        self.text = ""  # the entry's JSON text (render/json.py), once it is complete
        self.trivial = False  # the file is trivial
        self.full = False  # its entry holds its whole content and diff (the fallback)
        self.cause: str | None = None  # why it has no T1 analysis
        self.review: list[ReviewItem] = []
        self.hunks_trivial = 0
        self.hunks_significant = 0
        self.full_tokens = 0
        self.diff_tokens = 0
        self.significant_tokens = 0
        self.fallback_tokens = 0
        # The coverage ledger: every changed line once, by what became of it.
        self.trivial_lines: dict[str, int] = {}  # by first reason
        self.significant_lines = 0
        self.reviewed_lines = 0  # significant, but an earlier review covered them
        self.reviewed_hunks = 0
        self.present: list[Key] = []  # its hunks, for what is gone (--since)
        self.unreviewable: str | None = None  # why nobody can read it (binary, submodule)


def file_report(
    change: FileChange,
    kind: str,
    analysis: Analysis,
    verdict: FileVerdict,
    head_tokens: int,
    *,
    keys: KeyBlocks = NO_KEYS,
    findings: Sequence[Finding] = (),
    full: bool = False,
    content: str | None = None,
    reviewed: Reviewed | None = None,
    shown: Sequence[Shown | None] = (),
) -> FileReport:
    """A file's report, its entry serialized (`_settled`). `keys`: the private key
    blocks of both sides, to redact its changes; `findings`: the file's own. With
    `full`, its whole text at head (`content`, None for a deleted, binary or
    patch-only file) and its whole diff go in it too: the fallback, and the
    full-content bundle. `reviewed`: what an earlier review covered; those
    significant hunks go to no role again. `shown`: its hunks as the brief shows
    them, where the proof made them (`shown_hunks`)."""
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
    report = FileReport(change.path)
    hunks_chars = sum(tokens.hunk_chars(hunk) for hunk in change.hunks)
    report.full_tokens = tokens.estimate_chars(hunks_chars) + head_tokens
    report.diff_tokens = tokens.estimate_chars(tokens.diff_chars(change, hunks_chars))
    if change.binary or change.is_submodule:
        report.unreviewable = "submodule" if change.is_submodule else "binary"
    elif analysis.cause == "lfs-pointer":
        report.unreviewable = "lfs"
    changed = [hunk.changed_count for hunk in change.hunks]
    for lines, hunk_verdict in zip(changed, verdict.hunks, strict=True):
        if hunk_verdict.classification == "trivial":
            reason = hunk_verdict.reasons[0]
            report.trivial_lines[reason] = report.trivial_lines.get(reason, 0) + lines
        else:
            report.significant_lines += lines
    if full:
        diff_text = "".join(tokens.hunk_text(hunk) for hunk in change.hunks)
        whole = {
            "content": None if content is None else redact(content),
            "diff": redact_diff(diff_text),
        }
        entry["full"] = whole
        report.fallback_tokens = tokens.estimate(json.dumps(whole, ensure_ascii=False))
    if verdict.classification == "trivial":
        report.hunks_trivial = len(change.hunks)
        return _settled(report, entry)
    own = [f for f in findings if f.path == change.path and f.line is not None]
    header = file_header(change)  # what changed of it besides its lines: counted once
    moved_since = False  # a hunk reviewed before at its old path: the rename is new
    trivial_hunks: list[dict[str, Any]] = []
    for index, (hunk, hunk_verdict, lines) in enumerate(
        zip(change.hunks, verdict.hunks, changed, strict=True)
    ):
        handle = hunk_handle(change, hunk)
        then = None
        if reviewed is not None:  # only an earlier review asks what is the same change
            digest = hunk_digest(change, hunk)
            report.present += [(change.path, digest), (change.old_path or change.path, digest)]
            then = reviewed.handle_for(change, digest)
            moved_since = moved_since or bool(then and (change.path, digest) not in reviewed.hunks)
        pointers: dict[str, list[str]] = {}
        for name, pointer in hunk_verdict.pointers:
            pointers.setdefault(name, []).append(pointer)
        if hunk_verdict.classification == "trivial" or then:
            # Trivial, or reviewed before: in no reviewer's list; the file entry
            # says why, in short.
            trivial_hunks.append({"handle": handle, "reasons": list(hunk_verdict.reasons)})
            trivial_hunks[-1].update(pointers)
            if hunk_verdict.classification == "trivial":
                report.hunks_trivial += 1
                continue
            trivial_hunks[-1]["reviewed"] = then
            report.hunks_significant += 1
            report.reviewed_lines += lines
            report.reviewed_hunks += 1
            continue
        report.hunks_significant += 1
        seen = shown[index] if index < len(shown) else None
        if seen is None:
            seen = shown_hunk(hunk, keys)
        scope = innermost_scope(analysis.report.scopes, hunk)
        # Significant: its entry goes in the review, once per role that reads it.
        item: dict[str, Any] = {"handle": handle, "excerpt": seen.excerpt}
        if scope is not None:
            item[scope.label] = scope.name
        if list(hunk_verdict.reasons) != ["content"]:
            item["reasons"] = list(hunk_verdict.reasons)
        item.update(pointers)
        # The rows are the proof's own text where it kept one, not a copy (a large
        # range's are megabytes); else written from the hunk's lines, once.
        diff: tuple[str, ...] = (
            f"{hunk_header(handle, scope.name if scope else None)}\n",
            rows_of(hunk, seen),
        )
        span = hunk.new_span
        rules = tuple(sorted({f.rule for f in own if span and span[0] <= (f.line or 0) <= span[1]}))
        cost = tokens.estimate_chars(sum(map(len, diff)) + (0 if report.review else len(header)))
        report.significant_tokens += cost
        report.review.append(
            ReviewItem(handle, change.path, kind, cost, lines, diff, item, rules, span, header)
        )
    if trivial_hunks:
        entry["hunks"] = trivial_hunks
    # Renamed since an earlier review of its hunks, to a path that tells tools something
    # else: that is not reviewed yet (found by a review of the fixes).
    renamed = moved_since and not _ROLE_REASONS.isdisjoint(verdict.reasons)
    if not report.review and (not report.reviewed_hunks or renamed):
        # Significant, yet no hunk says why (binary, submodule, mode, empty file):
        # the reviewer gets the whole file, and reading it costs the whole file.
        handle = str(Handle(change.path, change.new_oid or change.old_oid))
        entry["handle"] = handle
        then = None
        if reviewed is not None:
            digest = file_digest(change)
            report.present.append((change.path, digest))
            then = reviewed.handle_for(change, digest)
        if then is not None:
            entry["reviewed"] = then
            report.reviewed_hunks += 1
            return _settled(report, entry)
        what = ", ".join(verdict.reasons)
        if not _NOTED_REASONS.isdisjoint(verdict.reasons) and verdict.evidence:
            what += f": {escaped(redact(verdict.evidence))}"  # what the path or bit changes
        note = f"({change.status} {kind} file, not shown: {what})"
        if change.is_submodule:
            # Its two commits are the change (found by an adversarial review: the
            # old one appeared nowhere, and `show` cannot read another repository).
            old, new = (
                oid[:OID_LENGTH] if oid else "none" for oid in (change.old_oid, change.new_oid)
            )
            note = f"(submodule {change.status}: commit {old}, then {new}; its content is "
            note += "the commits between them, in the submodule's own repository)"
        diff = (f"{hunk_header(handle, None)}\n{note}\n",)
        cost = max(head_tokens, tokens.estimate_chars(sum(map(len, diff)) + len(header)))
        report.significant_tokens += cost
        rules = tuple(sorted({f.rule for f in findings if f.path == change.path}))
        item = {"handle": handle, "reasons": list(verdict.reasons)}
        report.review.append(
            ReviewItem(handle, change.path, kind, cost, 0, diff, item, rules, header=header)
        )
    return _settled(report, entry)


_ROLE_REASONS = frozenset({"path-role", "extension"})
_NOTED_REASONS = _ROLE_REASONS | {"mode"}  # a whole file's note says what they change


def _settled(report: FileReport, entry: dict[str, Any]) -> FileReport:
    """The report with its complete entry serialized, and what the totals ask of it."""
    report.text = compact(entry)
    report.trivial = entry["classification"] == "trivial"
    report.full = "full" in entry
    report.cause = entry.get("t1_cause")
    return report


def hunk_handle(change: FileChange, hunk: Hunk) -> str:
    """The change between the file's two blobs whose added lines the hunk holds,
    or, for a hunk that only removes, whose removed lines it holds. A patch
    without index lines has no blobs: its handle names the lines alone."""
    old, new = hunk.old_span, hunk.new_span
    side: Side = "new" if new is not None else "old"
    first, last = new if new is not None else old  # type: ignore[misc]
    if change.old_oid is None and change.new_oid is None:
        path = change.path if side == "new" else change.old_path or change.path
        return str(Handle(path, None, first, last))
    old_oid, new_oid = change.old_oid, change.new_oid
    if change.status == "type-changed":
        # git diffs a type change as a deletion and an addition, not blob to blob.
        old_oid, new_oid = (None, new_oid) if side == "new" else (old_oid, None)
    return str(change_handle(change.path, old_oid, new_oid, side, first, last))


def assemble(
    rng: Range,
    reports: Sequence[FileReport],
    findings: Sequence[Finding],
    *,
    source: str = "git",
    roles: Sequence[Role] = (),
    budget: int | None = None,
    instructions: Mapping[str, str] | None = None,
    reviewed: Reviewed | None = None,
) -> Assembled:
    """The manifest of a classified range. `budget` overrides every role's;
    `reviewed`: what an earlier review covered (its hunks are in the reports)."""
    trivial_files = sum(report.trivial for report in reports)
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
        "commits": [{"sha": c.sha[:OID_LENGTH], "subject": redact(c.subject)} for c in rng.commits],
    }
    if source != "git":
        range_entry["source"] = source
    items = [item for report in reports for item in report.review]
    shares = route(items, ordered_findings, roles)
    manifest: dict[str, Any] = {
        "schema_version": SCHEMA_VERSION,
        "range": range_entry,
        "summary": {
            "files": {
                "total": len(reports),
                "trivial": trivial_files,
                "significant": len(reports) - trivial_files,
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
            "diff": sum(report.diff_tokens for report in reports),
            "manifest": 0,
            "significant": sum(report.significant_tokens for report in reports),
            "brief": 0,
        },
        "ledger": _ledger(reports, shares),
        "findings": [_finding_entry(finding) for finding in ordered_findings],
        "files": [],  # the reports' texts (_settled_text)
        "review": {},
    }
    if reviewed is not None:
        manifest["since"] = {
            "spec": reviewed.since,
            "hunks": sum(report.reviewed_hunks for report in reports),
            "lines": sum(report.reviewed_lines for report in reports),
        }
        gone = reviewed.gone(key for report in reports for key in report.present)
        if gone:
            manifest["since"]["gone"] = gone
    fallback = [report for report in reports if report.full]
    if fallback:
        manifest["fallback"] = {
            "files": len(fallback),
            "tokens": sum(report.fallback_tokens for report in fallback),
        }
    briefs: dict[str, list[str]] = {}
    routed = {item.handle for share in shares.values() for item in share.items}
    for name, share in shares.items():
        role_budget = budget if budget is not None else share.role.budget
        mine = {item.handle for item in share.items}
        brief = render_brief(
            manifest,
            share,
            budget=role_budget,
            instructions=(instructions or {}).get(name),
            others=len(routed - mine),
        )
        briefs[name] = brief
        # With what it lists to open past its budget: the reviewer reads that too
        # (found by an adversarial review: the figure said 93% under the diff, when
        # reading the brief's handles cost more than the diff).
        _, listed = within_budget(share.items, role_budget)
        brief_tokens = tokens.estimate_chars(sum(map(len, brief))) + sum(
            item.tokens for item in listed
        )
        manifest["review"][name] = _role_entry(share, role_budget, brief_tokens)
    # A role with nothing has a brief that says so, and asks for `Handles read: none`
    # (found by adversarial reviews: a reindent's brief was empty and `--role default`
    # refused; a configured role with nothing refused `--role`, and the Actions step's
    # `role` failed). The manifest lists only roles with a share, and every role's
    # brief is printed in turn only for those (or the default role's, when none has).
    idle = [role for role in roles if role.name not in shares]
    if DEFAULT_ROLE not in shares and all(role.name != DEFAULT_ROLE for role in roles):
        idle.append(Role(DEFAULT_ROLE))
    for role in idle:
        briefs[role.name] = render_brief(
            manifest,
            Share(role, [], []),
            budget=budget,
            instructions=(instructions or {}).get(role.name),
            others=len(routed),
        )
    figures = manifest["tokens"]
    figures["brief"] = sum(entry["brief"] for entry in manifest["review"].values())
    figures["reduction"] = {
        "diff": _reduction(figures["brief"], figures["diff"]),
        "full": _reduction(figures["brief"], figures["full"]),
    }
    files = list_pieces(_handed_over(reports))
    causes = frozenset(report.cause for report in reports if report.cause is not None)
    return Assembled(_settled_text(manifest, files), briefs, manifest["summary"], causes)


def _handed_over(reports: Sequence[FileReport]) -> Iterator[str]:
    """Each report's entry text, let go by the report as it is taken: the manifest's
    pieces hold the only copy."""
    for report in reports:
        text, report.text = report.text, ""
        yield text


def _reduction(read: int, baseline: int) -> float:
    return round(1 - read / baseline, 4) if baseline else 0.0


def _ledger(reports: Sequence[FileReport], shares: Mapping[str, Share]) -> dict[str, Any]:
    """Every changed line of the range exactly once: trivial by reason, or
    significant; the significant lines some role reviews; and the files whose
    content nobody can read."""
    trivial: dict[str, int] = {}
    for report in reports:
        for reason, lines in report.trivial_lines.items():
            trivial[reason] = trivial.get(reason, 0) + lines
    significant = sum(report.significant_lines for report in reports)
    routed = {item.handle: item.lines for share in shares.values() for item in share.items}
    ledger: dict[str, Any] = {
        "lines": sum(trivial.values()) + significant,
        "trivial": dict(sorted(trivial.items())),
        "significant": significant,
        "routed": sum(routed.values()),
    }
    reviewed = sum(report.reviewed_lines for report in reports)
    if reviewed:
        ledger["reviewed"] = reviewed
    unreviewable: dict[str, list[str]] = {}
    for report in reports:
        if report.unreviewable:
            unreviewable.setdefault(report.unreviewable, []).append(report.path)
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


def _role_entry(share: Share, budget: int | None, brief_tokens: int) -> dict[str, Any]:
    items = share.items
    entry: dict[str, Any] = {
        "handles": len(items),
        "files": len({item.path for item in items}),
        "lines": sum(item.lines for item in items),
        "tokens": sum(item.tokens for item in items),
        "brief": brief_tokens,
    }
    if share.findings:
        entry["findings"] = len(share.findings)
    if budget is not None:
        entry["budget"] = budget
    cut = batches(items, budget)
    # Each item's own entry, not a copy: a large range has tens of thousands (issue 12).
    entry["batches"] = [
        {"tokens": batch.tokens, "handles": [item.entry for item in batch.items]} for batch in cut
    ]
    oversized = [batch.items[0].handle for batch in cut if batch.oversized]
    if oversized:
        entry["oversized"] = oversized
    return entry


def _settled_text(manifest: dict[str, Any], files: list[str]) -> list[str]:
    """The manifest serialized, once (issue 12), in pieces to join with "" (a
    large range's is megabytes: never copied whole), its files' entries from their
    own pieces (`files`). `tokens.manifest` counts the manifest itself, which holds
    that number: the text is serialized in pieces with the figure at 0, the figure's
    own digits are settled by arithmetic, and only the figures' pieces are made
    again."""
    figures = manifest["tokens"]
    figures["manifest"] = 0
    values = {
        key: files if key == "files" else value_pieces(value) for key, value in manifest.items()
    }
    chars = sum(map(len, framed(values))) - 1  # the "0"
    cost = tokens.estimate_chars(chars + 1)
    while tokens.estimate_chars(chars + len(str(cost))) != cost:
        cost = tokens.estimate_chars(chars + len(str(cost)))
    figures["manifest"] = cost
    values["tokens"] = value_pieces(figures)
    return framed(values)
