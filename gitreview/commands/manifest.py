"""`git review-manifest [RANGE]`: build, render and write the manifest."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gitreview.config import SEVERITIES
from gitreview.errors import Exit, NotFetched, UserError

if TYPE_CHECKING:
    from gitreview.git import Repository
    from gitreview.model import Assembled
    from gitreview.pipeline import Contents, Progress


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
    cache: bool = True,
    jobs: int | None = None,
) -> int:
    from gitreview.render import render
    from gitreview.render.progress import progress_bar

    patch_data = None if patch is None else _read_patch(patch)
    contents: Contents = "all" if output_format == "full" else "missing" if fallback else "none"
    assembled, configured = review_of_range(
        repo,
        spec,
        config=config,
        patch=patch_data,
        patch_name=patch or "-",
        contents=contents,
        budget=budget,
        progress=progress_bar(sys.stderr),
        since=since,
        since_manifest=since_manifest,
        cache=cache,
        jobs=jobs,
    )
    if output_format == "brief":
        pieces = [brief_text(assembled, role)]
    elif output_format == "json":
        pieces = assembled.text  # the manifest's objects are never made
    else:
        color = output is None and sys.stdout.isatty()
        pieces = [render(assembled.manifest, output_format, color=color)]
    if output is None:
        sys.stdout.writelines(pieces)
    else:
        # Encoded before opening: a failure must not empty the file. Piece by piece,
        # each text let go as its bytes are made: a large range's manifest is
        # megabytes, never held as text and bytes at once, nor joined (issue 12).
        data = _encoded(pieces)
        try:
            with Path(output).open("wb") as written:
                written.writelines(data)
        except OSError as error:
            raise UserError(f"cannot write {output}: {error.strerror}", status=Exit.USAGE) from None
    threshold = fail_on or configured
    return int(Exit.FINDINGS) if _fails(assembled.summary, threshold) else int(Exit.OK)


def review_of_range(
    repo: str | Path | None,
    spec: str | None,
    *,
    config: str | Path | None = None,
    patch: bytes | None = None,
    patch_name: str = "-",
    contents: Contents = "none",
    budget: int | None = None,
    progress: Progress | None = None,
    since: str | None = None,
    since_manifest: str | None = None,
    cache: bool = True,
    jobs: int | None = None,
    history: Sequence[str] | None = None,
) -> tuple[Assembled, str]:
    """The manifest and the briefs of a range (or a patch), and the fail-on threshold
    of the configuration they were built with: what the command line, the Actions
    step and the MCP server render. `since`, `since_manifest`: what an earlier
    review covered (issue #13); `cache`: reuse and keep verdicts proved before and
    whole results (cache.py); `jobs`: processes that prove files (verdicts.py);
    `history`: the secrets each commit adds looked for too, in the commits none of
    these revisions holds (analyze/history.py)."""

    from gitreview.collector import paused

    @paused()  # classified and assembled without a cyclic collection in between
    def work(
        where: str | Path | Repository | None,  # a path, or the repository opened
        base_head: tuple[str | None, str] | None,
        named: str | None,
    ) -> tuple[Assembled, str]:
        from gitreview.pipeline import classify_range, review_of, since_review

        outcome = classify_range(
            where,
            named,
            config=config,
            patch=patch,
            patch_name=patch_name,
            contents=contents,
            base_head=base_head,
            progress=progress,
            cache=cache,
            jobs=jobs,
            history=history,
        )
        if since is not None or since_manifest is not None:
            outcome = since_review(
                outcome,
                where,
                since=since,
                since_manifest=since_manifest,
                config=config,
                cache=cache,
                jobs=jobs,
            )
        return review_of(outcome, budget=budget), outcome.settings.fail_on

    if patch is not None or not cache:
        return work(repo, None, spec)
    from gitreview.cache import Cache, key
    from gitreview.git import open_repository
    from gitreview.ranges import range_ends

    repository = open_repository(repo)
    surroundings = repository.surroundings()
    try:
        ends = range_ends(repository, spec)
        since_head = since and repository.resolve_commit(since)
    finally:
        known = surroundings()  # git's processes waited for, whatever the range
    if since and since_head is None:
        raise NotFetched.revision(since)  # before any work: the Actions step goes on without
    # Everything the result is made of; the commits' objects are named by their ids.
    result_key = key(
        "result",
        ends,
        config and (str(config), _bytes_of(config)),
        contents,
        budget,
        history and tuple(history),
        since and (since, since_head),  # the name too: the manifest says what was named
        since_manifest and (since_manifest, _bytes_of(since_manifest)),
        known,
    )
    store = Cache.of(repository.common_dir)
    try:
        kept = _kept(store.result(result_key))
        if kept is not None:
            return kept
        assembled, fail_on = work(repository, (ends.base, ends.head), ends.spec)
        from gitreview.verdicts import TIMED_OUT  # loaded by the work, not by a re-run

        if TIMED_OUT not in assembled.causes:
            # A proof that timed out may not on another day (verdicts.unproved).
            store.keep(result_key, (assembled.text, assembled.briefs, fail_on))
        return assembled, fail_on
    finally:
        store.close()


def _kept(result: object) -> tuple[Assembled, str] | None:
    """A kept result, if it has the shape `review_of_range` keeps (else a miss)."""
    from gitreview.model import Assembled

    if not isinstance(result, tuple) or len(result) != 3:
        return None
    text, briefs, fail_on = result
    if not (_pieces(text) and isinstance(briefs, dict) and isinstance(fail_on, str)):
        return None
    if not all(map(_pieces, briefs.values())):
        return None
    try:
        manifest = json.loads("".join(text))
    except ValueError:
        return None
    if not (isinstance(manifest, dict) and isinstance(manifest.get("summary"), dict)):
        return None
    return Assembled(text, briefs, manifest["summary"], manifest=manifest), fail_on


def _pieces(value: object) -> bool:
    """Whether `value` is text in pieces, as the manifest and the briefs are kept."""
    return isinstance(value, list) and all(isinstance(piece, str) for piece in value)


def _bytes_of(path: str | Path) -> bytes | None:
    try:
        return Path(path).read_bytes()
    except OSError:
        return None  # the run says why, and nothing is kept


def brief_text(assembled: Assembled, role: str | None) -> str:
    """One role's brief, or every role's in turn."""
    from gitreview.review.roles import DEFAULT_ROLE

    briefs = assembled.briefs
    if role is None:
        # Those with a share; when none has, the default role's, which says so.
        shown = [name for name in briefs if name in assembled.manifest["review"]]
        return "\n".join("".join(briefs[name]) for name in shown or [DEFAULT_ROLE])
    if role not in briefs:
        raise UserError(
            f"no role {role!r} in this review (the roles: {', '.join(briefs)})",
            status=Exit.USAGE,
        )
    return "".join(briefs[role])


def _encoded(pieces: list[str]) -> list[bytes]:
    """The pieces as UTF-8, in order; `pieces` is left empty, each text let go as
    its bytes are made."""
    pieces.reverse()
    data = []
    while pieces:
        data.append(pieces.pop().encode("utf-8"))
    return data


def _fails(summary: dict[str, Any], threshold: str) -> bool:
    """Whether the manifest's `summary` counts a finding at `threshold` or above."""
    if threshold == "never":
        return False
    counts = summary["findings"]
    lowest = SEVERITIES.index(threshold)
    return any(counts[severity] for severity in SEVERITIES[lowest:])


def _read_patch(name: str) -> bytes:
    if name == "-":
        return sys.stdin.buffer.read()
    try:
        return Path(name).read_bytes()
    except OSError as error:
        raise UserError(f"cannot read patch {name}: {error.strerror}", status=Exit.PATCH) from None
