"""The pre-push hook: `pre-push` (what git runs), `install-hook`, `uninstall-hook`.

git runs hooks/pre-push with the remote's name and URL as arguments and one
line per ref on stdin: `<local ref> <local sha> <remote ref> <remote sha>`.
Each pushed ref's new commits become a range; its manifest is written under
the git directory, a summary goes to stderr, and the push is refused only
when a finding is at or above the configured fail_on (default: error). The
pre-commit framework reads git's lines itself and passes the range on in its
environment instead (see `from_pre_commit`).
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from gitreview.config import SEVERITIES
from gitreview.errors import Exit, UserError
from gitreview.patterns import lazy_compile
from gitreview.render import counted
from gitreview.shown import escaped, written_path

if TYPE_CHECKING:
    from gitreview.git import Repository

ZERO = "0" * 40
MARKER = "# gitreview pre-push hook"
BACKUP_SUFFIX = ".gitreview-backup"


class PushedRef(NamedTuple):
    local_ref: str
    local_sha: str
    remote_ref: str
    remote_sha: str

    @property
    def deleted(self) -> bool:
        return set(self.local_sha) == {"0"}

    @property
    def new(self) -> bool:
        return set(self.remote_sha) == {"0"}


def parse_push_lines(text: str) -> list[PushedRef]:
    """git's pre-push input, one ref a line; a malformed line is an error."""
    refs = []
    for line in text.splitlines():
        if not line.strip():
            continue
        parts = line.split()
        if len(parts) != 4:
            raise UserError(f"unexpected pre-push input line: {line!r}", status=Exit.USAGE)
        refs.append(PushedRef(*parts))
    return refs


class PushRange(NamedTuple):
    name: str  # the ref being pushed, for messages and the manifest's file name
    base: str | None
    head: str


def run_pre_push(*, remote: str, repo: str | None) -> int:
    from gitreview.git import open_repository

    repository = open_repository(repo)
    given = from_pre_commit(os.environ)
    if given is None:
        ranges = push_ranges(repository, parse_push_lines(sys.stdin.read()))
    elif isinstance(given, PreCommitRange):
        ranges = pre_commit_range(repository, given)
        remote = remote or given.remote
    else:
        remote = remote or given.remote
        if given.pushed is None:
            print(
                "gitreview: pre-commit gave no range to check (PRE_COMMIT_FROM_REF and "
                "PRE_COMMIT_TO_REF are unset): nothing checked; run it at the pre-push stage, "
                "or with --from-ref and --to-ref",
                file=sys.stderr,
            )
            return int(Exit.OK)
        ranges = push_ranges(repository, [given.pushed])
    failures: list[str] = []
    for push in ranges:
        # Under the folder every worktree shares, as the cache is (found by an adversarial
        # review: a linked worktree's push kept its manifest where no other push looked).
        failures += _check(repository.common_dir, repo, remote, push)
    if failures:
        print("gitreview: push refused:", file=sys.stderr)
        for failure in failures:
            print(f"  {failure}", file=sys.stderr)
        print(
            "gitreview: fix them, or bypass this check once with git push --no-verify",
            file=sys.stderr,
        )
        return int(Exit.FINDINGS)
    return int(Exit.OK)


class PreCommitRange(NamedTuple):
    """PRE_COMMIT_FROM_REF and PRE_COMMIT_TO_REF: pre-commit checks FROM...TO."""

    name: str
    from_ref: str
    to_ref: str
    remote: str


class PreCommitPush(NamedTuple):
    """Run by pre-commit without a range: a push whose new commits reach a root
    (pre-commit then checks all files and passes no range), or no push at all."""

    pushed: PushedRef | None
    remote: str


def from_pre_commit(env: Mapping[str, str]) -> PreCommitRange | PreCommitPush | None:
    """What the pre-commit framework says is pushed; None when not run by it.

    pre-commit (commands/hook_impl.py) reads git's lines itself and hands on only
    the first ref with new commits: FROM is the remote's commit when it is an
    ancestor here, else the parent of the oldest commit no ref of the remote has;
    its own hooks diff FROM...TO. When those commits reach a root commit it sets
    no FROM/TO but still names the branches (PRE_COMMIT_LOCAL_BRANCH, ...).
    `pre-commit run --from-ref A --to-ref B` sets FROM/TO alone (issue #13).
    """
    remote = env.get("PRE_COMMIT_REMOTE_NAME", "")
    local = env.get("PRE_COMMIT_LOCAL_BRANCH", "")
    from_ref, to_ref = env.get("PRE_COMMIT_FROM_REF", ""), env.get("PRE_COMMIT_TO_REF", "")
    if from_ref and to_ref:
        return PreCommitRange(local or "HEAD", from_ref, to_ref, remote)
    if local:
        remote_ref = env.get("PRE_COMMIT_REMOTE_BRANCH", "")
        return PreCommitPush(PushedRef(local, local, remote_ref, ZERO), remote)
    if env.get("PRE_COMMIT"):
        return PreCommitPush(None, remote)
    return None


def pre_commit_range(repository: Repository, given: PreCommitRange) -> list[PushRange]:
    """FROM...TO, as pre-commit's own hooks diff it: from the merge base."""
    ends = []
    for variable, rev in (("FROM", given.from_ref), ("TO", given.to_ref)):
        sha = repository.resolve_commit(rev)
        if sha is None:
            raise UserError(f"PRE_COMMIT_{variable}_REF names no commit: {rev}", status=Exit.RANGE)
        ends.append(sha)
    base, head = repository.merge_base(ends[0], ends[1]), ends[1]
    if base is None:
        raise UserError(
            f"PRE_COMMIT_FROM_REF {given.from_ref} and PRE_COMMIT_TO_REF {given.to_ref} "
            "have no merge base",
            status=Exit.RANGE,
        )
    return [] if base == head else [PushRange(given.name, base, head)]


def push_ranges(repository: Repository, pushed: Sequence[PushedRef]) -> list[PushRange]:
    """What each pushed ref adds: from the remote's commit when it is an ancestor
    here, else (a new branch, a force-push, or a remote that moved) from the
    parent of the oldest commit no remote-tracking ref has yet, of any remote: a
    commit already published elsewhere was checked when it was pushed there, and
    the first push of a branch to a new remote (a mirror) is not a review of its
    whole history. The oldest such commit of the head's first-parent line: a merge
    of an unrelated history brings in a root commit, where the branch does not start
    (found by an adversarial review: the pushed head's configuration then decided
    its own review). Deletions add nothing."""
    ranges = []
    for push in pushed:
        if push.deleted:
            continue
        head = repository.resolve_commit(push.local_sha)
        if head is None:
            continue  # a tag of a tree or a blob: nothing to review
        if not push.new and repository.has_commit(push.remote_sha):
            remote_head = repository.resolve_commit(push.remote_sha)
            if remote_head == head:
                continue
            if repository.merge_base(push.remote_sha, head) == remote_head:
                ranges.append(PushRange(push.remote_ref, push.remote_sha, head))
                continue
        new = repository.new_commits(head)
        if new:
            ranges.append(PushRange(push.remote_ref, repository.first_parent(new[0]), head))
    return ranges


def _check(git_dir: str, repo: str | None, remote: str, push: PushRange) -> list[str]:
    from gitreview.pipeline import classify_range, review_of, since_review

    spec = f"{(push.base or 'empty tree')[:12]}..{push.head[:12]}"
    # Secrets in the pushed commits' history: those a remote already has went out before.
    published = ("--remotes",)
    outcome = classify_range(repo, spec, base_head=(push.base, push.head), history=published)
    # A branch (or a remote) may be named like a token: the file name is printed too.
    name = _hidden(push.name)
    target = kept_manifest(git_dir, _hidden(remote), name)
    if target.is_file():
        # What the last push of this branch had reviewed is not sent again (issue #13):
        # after a force-push the range is the branch's own commits, most of them seen.
        # Its commits gone, or not a manifest: the whole range is reviewed.
        with contextlib.suppress(UserError):
            outcome = since_review(outcome, repo, since_manifest=target)
    assembled, settings = review_of(outcome), outcome.settings
    manifest = assembled.manifest
    blocking = (
        () if settings.fail_on == "never" else SEVERITIES[SEVERITIES.index(settings.fail_on) :]
    )
    refused = [finding for finding in manifest["findings"] if finding["severity"] in blocking]
    if refused:
        # A refused push is no last push: the next one reviews it all again (found by
        # an adversarial review: its hunks were marked reviewed on the next push).
        target = target.with_name(target.name.removesuffix(".json") + ".refused.json")
    kept = _keep(target, assembled.text)
    if isinstance(kept, OSError):  # `v1.json` kept, then `v1.json/fix` pushed: no push refused
        print(f"gitreview: {name}: manifest not kept ({kept.strerror})", file=sys.stderr)
    summary = manifest["summary"]
    files, findings = summary["files"], summary["findings"]
    seen = manifest.get("since", {}).get("hunks", 0)
    print(
        f"gitreview: {name}: {counted(files['total'], 'file')} ({files['significant']} "
        "significant"
        + (f", {counted(seen, 'hunk')} reviewed on the last push" if seen else "")
        + f"), findings: {findings['error']} error, {findings['warning']} warning, "
        f"{findings['info']} info" + ("" if isinstance(kept, OSError) else f"; manifest: {target}"),
        file=sys.stderr,
    )
    # What does not refuse the push is still said, not only counted: an added
    # breakpoint() should not need the manifest opened to be seen.
    said = [
        _finding_line(finding)
        for finding in manifest["findings"]
        if finding["severity"] in ("error", "warning") and finding["severity"] not in blocking
    ]
    for line in said[:_WARNINGS_SHOWN]:
        print(f"gitreview:   {line}", file=sys.stderr)
    if len(said) > _WARNINGS_SHOWN:
        print(
            f"gitreview:   and {len(said) - _WARNINGS_SHOWN} more in the manifest", file=sys.stderr
        )
    return [_finding_line(finding) for finding in refused]


def _keep(target: Path, text: Sequence[str]) -> OSError | None:
    """Write the manifest whole or not at all: into a file beside it, then renamed
    over it (found by an adversarial review: on a full disk the last push's manifest
    was truncated, and the hook named the empty file)."""
    part = target.with_name(f".{target.name}.{os.getpid()}.part")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        with part.open("w", encoding="utf-8") as written:
            written.writelines(text)
        os.replace(part, target)
    except OSError as error:
        with contextlib.suppress(OSError):
            part.unlink()
        return error
    return None


def _finding_line(finding: dict[str, Any]) -> str:
    return (
        f"{finding['severity']} {finding['rule']} {_where(finding)}: {escaped(finding['message'])}"
    )


_WARNINGS_SHOWN = 10  # findings that do not refuse a push, printed under its line


def kept_manifest(git_dir: str, remote: str, name: str) -> Path:
    """Where the last push of a ref to a remote keeps its manifest: under the git
    directory's gitreview/pre-push/, a folder per remote, then the ref's own path. git
    names the remote by its URL or path when the push names no remote (`git push
    ../mirror.git main`): that, or any part that could lead out of the folder, becomes
    one safe name with a digest of what it stood for, so nothing is ever written in
    another repository."""
    parts = [_safe(remote or "remote"), *map(_safe, name.split("/"))]
    target = Path(git_dir, "gitreview", "pre-push", *parts)
    return target.with_name(target.name + ".json")


# What no folder or file name may hold: a separator, a control character.
_NOT_IN_A_NAME = lazy_compile(r"[/\\\x00-\x1f]")


def _safe(part: str) -> str:
    """A folder or file name: `part` where it is one (no separator, not `.` or `..`),
    else its last part (a URL's or a path's, `mirror.git`) made plain, and a digest
    of the whole."""
    if part not in ("", ".", "..") and not _NOT_IN_A_NAME.search(part):
        return part
    import hashlib

    last = part.rstrip("/").rpartition("/")[2]
    readable = re.sub(r"[^A-Za-z0-9_.-]+", "_", last).strip("._-")[:40] or "remote"
    return f"{readable}-{hashlib.sha256(part.encode()).hexdigest()[:12]}"


def _hidden(name: str) -> str:
    """The name with any credential redacted, and then a digest of it, so that two
    branches named like tokens keep manifests of their own (the last push's manifest
    decides what is not sent again); a digest of a token gives nothing away."""
    import hashlib

    from gitreview.secrets import redact_name

    redacted = redact_name(name)
    if redacted == name:
        return name
    return f"{redacted}-{hashlib.sha256(name.encode()).hexdigest()[:12]}"


def _where(finding: dict[str, Any]) -> str:
    if finding["path"] is None:
        return "(range)"
    path = written_path(finding["path"])
    return f"{path}:{finding['line']}" if finding["line"] else path


def run_install(*, repo: str | None, force: bool) -> int:
    from gitreview.git import open_repository
    from gitreview.packaged import packaged

    hooks = Path(open_repository(repo).hooks_dir())
    target = hooks / "pre-push"
    script = packaged("hooks", "pre-push").decode("utf-8")
    try:
        if target.exists() or target.is_symlink():
            current = target.read_text("utf-8", "replace") if target.is_file() else ""
            if MARKER not in current:
                if not force:
                    raise UserError(
                        f"{target} exists and is not gitreview's",
                        status=Exit.USAGE,
                        hint="run with --force to set it aside (uninstall-hook puts it back)",
                    )
                target.replace(target.with_name(target.name + BACKUP_SUFFIX))
        hooks.mkdir(parents=True, exist_ok=True)
        target.write_text(script, encoding="utf-8")
        target.chmod(0o755)
    except OSError as error:
        # A hooks folder on a read-only file system, or core.hooksPath naming a file
        # (found by an adversarial review: an internal error).
        raise UserError(
            f"cannot install the hook at {target}: {error.strerror}", status=Exit.USAGE
        ) from None
    print(f"gitreview: pre-push hook installed at {target}", file=sys.stderr)
    return int(Exit.OK)


def run_uninstall(*, repo: str | None) -> int:
    from gitreview.git import open_repository

    target = Path(open_repository(repo).hooks_dir()) / "pre-push"
    if not target.is_file() or MARKER not in target.read_text("utf-8", "replace"):
        raise UserError(f"no gitreview pre-push hook at {target}", status=Exit.USAGE)
    backup = target.with_name(target.name + BACKUP_SUFFIX)
    try:
        target.unlink()
        restored = backup.exists()
        if restored:
            backup.replace(target)
    except OSError as error:  # a folder it cannot write (a review of the fix)
        raise UserError(
            f"cannot remove the hook at {target}: {error.strerror}", status=Exit.USAGE
        ) from None
    if restored:
        print(f"gitreview: pre-push hook removed; {target} restored", file=sys.stderr)
    else:
        print(f"gitreview: pre-push hook removed from {target}", file=sys.stderr)
    return int(Exit.OK)
