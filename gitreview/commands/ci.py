"""`git review-manifest ci`: the command behind the GitHub Actions step (action.yml).

Everything comes from the environment GitHub Actions sets, so the command runs
the same anywhere those variables are set (the tests set them):

- GITHUB_EVENT_NAME and GITHUB_EVENT_PATH: the range. A pull request is
  BASE...HEAD (from the merge base, as GitHub shows it); a push is
  BEFORE..AFTER; a new branch starts at the first parent of its oldest new
  commit. Other events review GITHUB_SHA against its first parent.
- INPUT_BASE, INPUT_HEAD, INPUT_FAIL-ON, INPUT_FALLBACK, INPUT_CONFIG,
  INPUT_ROLE: the action's inputs, named as GitHub names them (upper case,
  dashes kept); a composite action passes them explicitly. Empty means unset.
- RUNNER_TEMP: the manifest goes to $RUNNER_TEMP/gitreview/manifest.json, the
  findings as SARIF beside it (findings.sarif).
- GITHUB_OUTPUT and GITHUB_STEP_SUMMARY: appended to, when set.

The findings go to stdout as workflow annotations; the exit status is 1 when
one is at or above fail-on.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from gitreview.errors import Exit, NotFetched, UserError

if TYPE_CHECKING:
    from gitreview.git import Repository
    from gitreview.pipeline import Contents

ZERO_SHA = "0" * 40
FAIL_ON = ("error", "warning", "info", "never")
PULL_REQUEST_EVENTS = (
    "pull_request",
    "pull_request_target",
    "pull_request_review",
    "pull_request_review_comment",
)
SHORT_SHA = 12
FETCH_DEPTH_HINT = "set fetch-depth: 0 on actions/checkout to fetch the whole history"


class Inputs(NamedTuple):
    base: str | None = None
    head: str | None = None
    fail_on: str | None = None
    fallback: bool = False
    config: str | None = None
    role: str | None = None
    since: str | None = None  # the head reviewed last (issue #13)


class Wanted(NamedTuple):
    """The range an event or the inputs ask for, before the repository is asked."""

    base: str | None = None  # None: the first parent of head
    head: str | None = None
    merge_base: bool = False  # BASE...HEAD rather than BASE..HEAD
    pushed: tuple[str, ...] = ()  # a push: the commits its event lists
    deleted: bool = False  # a push that deleted its ref: nothing to review
    listed: bool = False  # a push whose event lists its commits (`commits`, maybe none)
    ref: str = ""  # a push's ref (refs/heads/NAME, refs/tags/NAME)


def run_ci(*, repo: str | None) -> int:
    env = os.environ
    inputs = read_inputs(env)
    wanted = wanted_range(env, inputs)
    # Opened once, for the range, the configuration and what is published.
    from gitreview.git import open_repository

    repository = None if wanted.deleted else open_repository(repo)
    spec = None if repository is None else range_spec(repository, wanted)
    if spec is None:
        # (A new branch at a commit already pushed: the hook checks nothing either;
        # found by an adversarial review, its tip was reviewed against its parent.)
        what = "deleted its ref" if wanted.deleted else "brought no new commit"
        print(f"gitreview: the push {what}: nothing to review", file=sys.stderr)
        _append(env.get("GITHUB_OUTPUT"), format_outputs(_nothing()))
        return int(Exit.OK)

    from gitreview.commands.manifest import _fails, review_of_range
    from gitreview.render.github import render_github
    from gitreview.render.sarif import render_sarif
    from gitreview.secrets import redact_name

    folder = Path(env.get("RUNNER_TEMP") or tempfile.gettempdir()) / "gitreview"
    assert repository is not None  # a range to review
    config = inputs.config and trusted_config(repository, spec, inputs.config, folder)
    contents: Contents = "missing" if inputs.fallback else "none"
    # Secrets in the range's commits: not in those a branch that does not hold the head
    # has (main's, merged in: published already; a review of the rule).
    published = _published(repository, wanted.head)
    try:
        assembled, configured = review_of_range(
            repo, spec, config=config, contents=contents, since=inputs.since, history=published
        )
    except NotFetched as error:
        # A force-pushed head is often not fetched any more: review everything.
        # The message quotes the input, which may be a branch named like a token.
        message = redact_name(error.message)
        print(f"gitreview: {message}: reviewing the whole range", file=sys.stderr)
        assembled, configured = review_of_range(
            repo, spec, config=config, contents=contents, history=published
        )
    manifest = assembled.manifest
    shown = for_role(manifest, inputs.role, assembled.briefs)
    path = folder / "manifest.json"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with path.open("w", encoding="utf-8") as written:
            written.writelines(assembled.text)
        sarif_path(path).write_text(render_sarif(manifest), encoding="utf-8")
        for old in folder.glob("brief-*.md"):
            old.unlink()
        for role, brief in assembled.briefs.items():
            (folder / f"brief-{role}.md").write_text("".join(brief), encoding="utf-8")
    except OSError as error:
        raise UserError(f"cannot write {path}: {error.strerror}", status=Exit.USAGE) from None
    _append(env.get("GITHUB_OUTPUT"), format_outputs(outputs(shown, path)))
    _append(env.get("GITHUB_STEP_SUMMARY"), step_summary(shown, manifest["findings"]))
    sys.stdout.write(render_github(manifest))
    threshold = inputs.fail_on or configured
    failed = _fails(manifest["summary"], threshold)
    print(f"gitreview: {_summary(manifest, path)}", file=sys.stderr)
    if failed:
        print(
            f"gitreview: findings at or above fail-on ({threshold}): failing the step",
            file=sys.stderr,
        )
    return int(Exit.FINDINGS) if failed else int(Exit.OK)


# -- the inputs and the event ----------------------------------------------------


def read_inputs(env: Mapping[str, str]) -> Inputs:
    def get(name: str) -> str | None:
        return env.get(f"INPUT_{name}", "").strip() or None

    fail_on = get("FAIL-ON")
    if fail_on is not None and fail_on not in FAIL_ON:
        raise UserError(
            f"the fail-on input must be error, warning, info or never, not '{fail_on}'",
            status=Exit.USAGE,
        )
    fallback = get("FALLBACK") or "false"
    if fallback.lower() not in ("true", "false"):
        raise UserError(
            f"the fallback input must be true or false, not '{fallback}'", status=Exit.USAGE
        )
    return Inputs(
        base=get("BASE"),
        head=get("HEAD"),
        fail_on=fail_on,
        fallback=fallback.lower() == "true",
        config=get("CONFIG"),
        role=get("ROLE"),
        since=get("SINCE"),
    )


def wanted_range(env: Mapping[str, str], inputs: Inputs) -> Wanted:
    """The event's range with the inputs over it; GITHUB_SHA when nothing names a head."""
    wanted = Wanted()
    if inputs.base is None or inputs.head is None:
        wanted = event_range(env.get("GITHUB_EVENT_NAME", ""), _payload(env))
    if inputs.base is not None:
        wanted = Wanted(base=inputs.base, head=wanted.head, merge_base=True)
    if inputs.head is not None:
        wanted = wanted._replace(head=inputs.head, pushed=(), deleted=False, listed=False)
    if wanted.head is None:
        wanted = wanted._replace(head=env.get("GITHUB_SHA") or None)
    if wanted.head is None and not wanted.deleted:
        raise UserError(
            "no range to review: neither the event nor the inputs name a head commit",
            status=Exit.RANGE,
            hint="run it from GitHub Actions, or set INPUT_BASE and INPUT_HEAD",
        )
    return wanted


def event_range(name: str, payload: Mapping[str, Any]) -> Wanted:
    """What a GitHub event asks to review (pure: the payload only)."""
    if name in PULL_REQUEST_EVENTS:
        base = _sha(payload, "pull_request", "base", "sha")
        head = _sha(payload, "pull_request", "head", "sha")
        if base is None or head is None:
            raise _bad_payload(name, "pull_request.base.sha and pull_request.head.sha")
        return Wanted(base=base, head=head, merge_base=True)
    if name == "merge_group":
        base = _sha(payload, "merge_group", "base_sha")
        head = _sha(payload, "merge_group", "head_sha")
        if base is None or head is None:
            raise _bad_payload(name, "merge_group.base_sha and merge_group.head_sha")
        return Wanted(base=base, head=head)
    if name == "push":
        before, after = _sha(payload, "before"), _sha(payload, "after")
        if before is None or after is None:
            raise _bad_payload(name, "before and after")
        if after == ZERO_SHA:
            return Wanted(deleted=True)
        # The commits the push brings, in whatever order.
        commits = payload.get("commits")
        listed = commits if isinstance(commits, list) else []
        pushed = tuple(sha for sha in (_sha(commit, "id") for commit in listed) if sha)
        ref = payload.get("ref")
        wanted = Wanted(
            base=None if before == ZERO_SHA else before,  # None: a new branch or tag
            head=after,
            pushed=pushed,
            listed=isinstance(commits, list),
            ref=ref if isinstance(ref, str) else "",
        )
        return wanted
    return Wanted()


def _payload(env: Mapping[str, str]) -> Mapping[str, Any]:
    name = env.get("GITHUB_EVENT_PATH")
    if not name:
        return {}
    try:
        data = json.loads(Path(name).read_bytes())
    except OSError as error:
        raise UserError(
            f"cannot read the event payload {name}: {error.strerror}", status=Exit.RANGE
        ) from None
    except ValueError as error:
        raise UserError(
            f"the event payload {name} is not JSON: {error}", status=Exit.RANGE
        ) from None
    if not isinstance(data, dict):
        raise UserError(f"the event payload {name} is not a JSON object", status=Exit.RANGE)
    return data


def _sha(data: object, *keys: str) -> str | None:
    for key in keys:
        if not isinstance(data, dict):
            return None
        data = data.get(key)
    return data if isinstance(data, str) and data else None


def _bad_payload(event: str, fields: str) -> UserError:
    return UserError(
        f"the {event} event payload has no {fields}",
        status=Exit.RANGE,
        hint="give the base and head inputs",
    )


# -- the range in the repository -------------------------------------------------


def trusted_config(repository: Repository, spec: str, given: str, folder: Path) -> str:
    """The `config` input as a file to read. The checkout is the pull request's own
    version of the repository, so a relative path names a file of the range's base
    commit (issue 11: the range cannot loosen its own review), copied under
    RUNNER_TEMP; an absolute path is the workflow's own file, read as it is."""
    if os.path.isabs(given):
        return given
    from gitreview.git import TreeReader
    from gitreview.ranges import resolve_range

    rng = resolve_range(repository, spec)
    commit = rng.base or rng.head
    assert commit is not None  # a range of a repository has a head
    data = TreeReader(repository, commit).read(given.removeprefix("./"))
    if data is None:
        raise UserError(
            f"the config input names {given}, which the base commit {commit[:12]} does not have",
            status=Exit.CONFIG,
            hint="a configuration in the repository is read from the base commit; "
            "give an absolute path for a file of the workflow's own",
        )
    target = folder / "base" / Path(given).name
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    except OSError as error:
        raise UserError(f"cannot write {target}: {error.strerror}", status=Exit.USAGE) from None
    return str(target)


def range_spec(repository: Repository, wanted: Wanted) -> str | None:
    """The range as `git review-manifest` takes it, after checking that the
    commits it needs are here: a shallow checkout (actions/checkout fetches one
    commit by default) gets one line saying how to fetch them. None: a push that
    brought no commit."""
    head = wanted.head
    assert head is not None  # wanted_range makes sure

    def require(rev: str, what: str) -> str | None:
        sha = repository.resolve_commit(rev)
        if sha is None and repository.is_shallow:
            raise _shallow(f"{what} {_short(rev)}")
        return sha

    head_sha = require(head, "the head commit")
    # A force-push's `before` is on no branch any more, and a full clone lacks it (found
    # by an adversarial review: the step failed): what the push brought is reviewed, as
    # for a new branch. (Only a push event lists the commits it brought.)
    before = wanted.base if wanted.listed and head_sha is not None else None
    if before is not None and require(before, "the base commit") is None:
        if not wanted.pushed:
            return None  # a force-push back to an older commit (a review of the fix)
        print(
            f"gitreview: the commit before the push, {_short(before)}, is not in "
            "this clone (a force-push): reviewing what the push brought",
            file=sys.stderr,
        )
        wanted = wanted._replace(base=None)
    if wanted.base is not None:
        base_sha = require(wanted.base, "the base commit")
        if wanted.merge_base:
            orphaned = base_sha and head_sha and repository.merge_base(base_sha, head_sha) is None
            if orphaned and repository.is_shallow:
                assert base_sha is not None and head_sha is not None
                raise _shallow(f"the merge base of {_short(base_sha)} and {_short(head_sha)}")
            return f"{wanted.base}...{head}"
        return f"{wanted.base}..{head}"
    if head_sha is None:
        return head  # resolve_range says the revision is unknown
    # A new branch or tag at a commit already pushed, on another branch: nothing new. A
    # tag of a commit on no branch is reviewed (a review of the fix).
    others = wanted.listed and not wanted.pushed
    if others and repository.branches_containing(head_sha, besides=wanted.ref):
        return None
    if wanted.pushed:
        # The base: the first commit of head's first-parent line the push did not
        # bring, not the parent of the event's first commit, which holds it only while
        # GitHub lists them oldest first (found by an adversarial review: listed newest
        # first, a pushed commit, and its configuration, would decide the review).
        pushed = set(wanted.pushed)
        if head_sha not in pushed or len(pushed) in _CUT_LISTS:
            # A list GitHub may have cut (its head missing, or as long as its limits):
            # from the newest commit of the line another remote branch holds (a review
            # of the fix: the base was the head, and nothing was reviewed).
            only_here = repository.commits_only_on(head_sha)
            if not only_here:
                return None
            base_sha = repository.first_parent(only_here[-1])
            return f"{base_sha or repository.empty_tree}..{head}"
        line = repository.first_parent_line(head_sha, len(wanted.pushed) + 1)
        base = next((sha for sha in line if sha not in pushed), None)
        if base is not None:
            return f"{base}..{head}"
        if repository.is_shallow:  # not the tip alone: the branch's other commits count too
            raise _shallow(f"the parent of {_short(wanted.pushed[0])}")
        if len(line) <= len(pushed):
            # Every commit down to the root was pushed (a first push, an orphan branch):
            # from the empty tree, not the tip alone (a review of the fix).
            return f"{repository.empty_tree}..{head}"
    if repository.first_parent(head_sha) is None and repository.is_shallow:
        raise _shallow(f"the parent of {_short(head_sha)}")
    return head


# The lengths GitHub cuts a push event's list of commits at (20 in some payloads, 2048
# in webhooks').
_CUT_LISTS = (20, 2048)


def _published(repository: Repository, head: str | None) -> tuple[str, ...]:
    """The remote refs that do not hold the head: their commits are published already."""
    sha = None if head is None else repository.resolve_commit(head)
    return () if sha is None else tuple(repository.remote_refs_without(sha))


def _short(rev: str) -> str:
    """A full commit id abbreviated as handles abbreviate; any other revision as given."""
    is_sha = len(rev) in (40, 64) and all(char in "0123456789abcdef" for char in rev)
    return rev[:SHORT_SHA] if is_sha else rev


def _shallow(what: str) -> UserError:
    return UserError(
        f"{what} is not in this shallow clone", status=Exit.RANGE, hint=FETCH_DEPTH_HINT
    )


# -- what the step reports -------------------------------------------------------


def for_role(manifest: dict[str, Any], role: str | None, roles: Iterable[str]) -> dict[str, Any]:
    """The manifest with only `role`'s handles, for the outputs and the summary; `roles`:
    every role of the review, with a share or not (found by an adversarial review: a
    configured role that got nothing failed the step)."""
    if role is None:
        return manifest
    known = sorted(roles)
    if role not in known:
        raise UserError(
            f"unknown role '{role}': the roles are {', '.join(known)}", status=Exit.USAGE
        )
    review = manifest["review"]
    return {**manifest, "review": {role: review[role]} if role in review else {}}


def step_summary(shown: dict[str, Any], findings: list[dict[str, Any]]) -> str:
    """The Markdown report, under GitHub's 1 MiB limit for a step summary, and a
    line for the findings GitHub does not annotate (10 per severity a step): issue #13."""
    from gitreview.render.github import not_annotated
    from gitreview.render.markdown import STEP_SUMMARY_BYTES, fit, render_markdown

    left = not_annotated(findings)
    note = f"\n**Annotations**: {left}\n" if left else ""
    return fit(render_markdown(shown), STEP_SUMMARY_BYTES, tail=note)


def outputs(manifest: dict[str, Any], path: Path) -> list[tuple[str, str]]:
    hunks, findings = manifest["summary"]["hunks"], manifest["summary"]["findings"]
    handles = sum(entry["handles"] for entry in manifest["review"].values())
    skip = handles == 0 and not manifest["findings"]
    return [
        ("manifest", str(path)),
        ("briefs", str(path.parent)),
        ("significant", str(hunks["significant"])),
        ("trivial", str(hunks["trivial"])),
        ("handles", str(handles)),
        ("errors", str(findings["error"])),
        ("warnings", str(findings["warning"])),
        ("notices", str(findings["info"])),
        ("reduction", str(manifest["tokens"]["reduction"]["diff"])),
        ("skip", "true" if skip else "false"),
        ("sarif", str(sarif_path(path))),
    ]


def sarif_path(manifest_path: Path) -> Path:
    """The findings as SARIF, beside the manifest: for github/codeql-action/upload-sarif."""
    return manifest_path.with_name("findings.sarif")


def _nothing() -> list[tuple[str, str]]:
    counts = [(name, "0") for name in ("significant", "trivial", "handles")]
    counts += [(name, "0") for name in ("errors", "warnings", "notices")]
    return [
        ("manifest", ""),
        ("briefs", ""),
        *counts,
        ("reduction", "0.0"),
        ("skip", "true"),
        ("sarif", ""),
    ]


def format_outputs(pairs: list[tuple[str, str]]) -> str:
    """$GITHUB_OUTPUT lines: NAME=VALUE, or a heredoc for a value on several lines."""
    text = ""
    for name, value in pairs:
        if "\n" in value or "\r" in value:
            delimiter = "GITREVIEW_EOF"
            while delimiter in value:
                delimiter += "_"
            text += f"{name}<<{delimiter}\n{value}\n{delimiter}\n"
        else:
            text += f"{name}={value}\n"
    return text


def _append(name: str | None, text: str) -> None:
    if not name:
        return
    try:
        with open(name, "a", encoding="utf-8") as file:
            file.write(text)
    except OSError as error:
        raise UserError(f"cannot write {name}: {error.strerror}", status=Exit.USAGE) from None


def _summary(manifest: dict[str, Any], path: Path) -> str:
    hunks, findings = manifest["summary"]["hunks"], manifest["summary"]["findings"]
    return (
        f"{hunks['significant']} significant and {hunks['trivial']} trivial hunks; "
        f"findings: {findings['error']} error, {findings['warning']} warning, "
        f"{findings['info']} info; manifest: {path}"
    )
