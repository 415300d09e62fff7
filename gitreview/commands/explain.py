"""`git review-manifest explain HANDLE|PATH [RANGE]`: why a hunk or file got its class.

Re-runs the classification of the range and prints, for the hunk the handle
names (or for a file and each of its hunks), the class, the reason codes and
the evidence a person can check: which parse compared equal, where a moved
block came from, which rule made it significant.
"""

from __future__ import annotations

import sys

from gitreview.errors import Exit, UserError


def run_explain(*, target: str, spec: str | None, repo: str | None, config: str | None) -> int:
    sys.stdout.write(explain_text(target=target, spec=spec, repo=repo, config=config))
    return int(Exit.OK)


def explain_text(*, target: str, spec: str | None, repo: str | None, config: str | None) -> str:
    """The class, reasons and evidence of the hunk a handle names, or of a file
    and each of its hunks."""
    from gitreview.handles import Handle
    from gitreview.manifest import hunk_handle
    from gitreview.pipeline import classify_range
    from gitreview.secrets import redact_name
    from gitreview.shown import written_path

    # The outcome's names are redacted (issue 11): so is the target, which then
    # matches a handle or path of the manifest, or the path it was made from.
    target = redact_name(target)
    outcome = classify_range(repo, spec, config=config)
    out: list[str] = []
    for item in outcome.files:
        change, verdict = item.change, item.verdict
        whole = str(Handle(change.path, change.new_oid or change.old_oid))
        paths = (change.path, change.old_path)
        if target in (*paths, *(written_path(path) for path in paths if path), whole):
            out += _lines(
                f"{written_path(change.path)} (file)",
                verdict.classification,
                verdict.reasons,
                verdict.evidence,
            )
            for hunk, hunk_verdict in zip(change.hunks, verdict.hunks, strict=True):
                out += _lines(
                    hunk_handle(change, hunk),
                    hunk_verdict.classification,
                    hunk_verdict.reasons,
                    hunk_verdict.evidence,
                )
            continue
        for hunk, hunk_verdict in zip(change.hunks, verdict.hunks, strict=True):
            if hunk_handle(change, hunk) == target:
                out += _lines(
                    target, hunk_verdict.classification, hunk_verdict.reasons, hunk_verdict.evidence
                )
    if not out:
        raise UserError(
            f"{target!r} names no file or hunk of {outcome.rng.spec or 'the range'}",
            status=Exit.HANDLE,
            hint="give the range the manifest was built for, and a handle or path from it",
        )
    return "".join(out)


def _lines(name: str, classification: str, reasons: tuple[str, ...], evidence: str) -> list[str]:
    from gitreview.shown import escaped

    # Evidence names paths (a block moved from or to one): on one line, as the name.
    return [f"{name}\n", f"  {classification}: {', '.join(reasons)}\n", f"  {escaped(evidence)}\n"]
