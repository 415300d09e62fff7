"""`git review-manifest [RANGE]`: build, render and write the manifest."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from gitreview.config import SEVERITIES
from gitreview.errors import Exit, UserError


def run_manifest(
    *,
    spec: str | None,
    repo: str | None,
    patch: str | None,
    config: str | None,
    output: str | None,
    output_format: str,
    fail_on: str | None,
    fallback: bool = False,
    role: str | None = None,
    budget: int | None = None,
    since: str | None = None,
    since_manifest: str | None = None,
) -> int:
    from gitreview.pipeline import Contents, classify_range, review_of, since_review
    from gitreview.render import render

    patch_data = None if patch is None else _read_patch(patch)
    contents: Contents = "all" if output_format == "full" else "missing" if fallback else "none"
    from gitreview.render.progress import progress_bar

    outcome = classify_range(
        repo,
        spec,
        config=config,
        patch=patch_data,
        patch_name=patch or "-",
        contents=contents,
        progress=progress_bar(sys.stderr),
    )
    if since is not None or since_manifest is not None:
        outcome = since_review(
            outcome, repo, since=since, since_manifest=since_manifest, config=config
        )
    assembled, settings = review_of(outcome, budget=budget), outcome.settings
    manifest = assembled.manifest
    if output_format == "brief":
        text = _briefs(assembled.briefs, role)
    else:
        text = render(manifest, output_format, color=output is None and sys.stdout.isatty())
    if output is None:
        sys.stdout.write(text)
    else:
        data = text.encode("utf-8")  # before opening: a failure must not empty the file
        try:
            Path(output).write_bytes(data)
        except OSError as error:
            raise UserError(f"cannot write {output}: {error.strerror}", status=Exit.USAGE) from None
    threshold = fail_on or settings.fail_on
    return int(Exit.FINDINGS) if _fails(manifest, threshold) else int(Exit.OK)


def _briefs(briefs: dict[str, str], role: str | None) -> str:
    """One role's brief, or every role's in turn."""
    if role is None:
        return "\n".join(briefs.values())
    if role not in briefs:
        known = ", ".join(briefs) or "none: nothing in this range needs review"
        raise UserError(
            f"no role {role!r} has anything to review in this range (roles with a share: {known})",
            status=Exit.USAGE,
        )
    return briefs[role]


def _fails(manifest: dict[str, Any], threshold: str) -> bool:
    if threshold == "never":
        return False
    counts = manifest["summary"]["findings"]
    lowest = SEVERITIES.index(threshold)
    return any(counts[severity] for severity in SEVERITIES[lowest:])


def _read_patch(name: str) -> bytes:
    if name == "-":
        return sys.stdin.buffer.read()
    try:
        return Path(name).read_bytes()
    except OSError as error:
        raise UserError(f"cannot read patch {name}: {error.strerror}", status=Exit.PATCH) from None
