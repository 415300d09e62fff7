"""The pre-push hook: `pre-push` (what git runs), `install-hook`, `uninstall-hook`.

git runs hooks/pre-push with the remote's name and URL as arguments and one
line per ref on stdin: `<local ref> <local sha> <remote ref> <remote sha>`.
Each pushed ref's new commits become a range; its manifest is written under
the git directory, a summary goes to stderr, and the push is refused only
when a finding is at or above the configured fail_on (default: error). The
pre-commit framework passes the range in PRE_COMMIT_FROM_REF/TO_REF instead.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gitreview.config import SEVERITIES
from gitreview.errors import Exit, UserError

if TYPE_CHECKING:
    from gitreview.git import Repository

ZERO = "0" * 40
MARKER = "# gitreview pre-push hook"
BACKUP_SUFFIX = ".gitreview-backup"


@dataclass(frozen=True)
class PushedRef:
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


@dataclass(frozen=True)
class PushRange:
    name: str  # the ref being pushed, for messages and the manifest's file name
    base: str | None
    head: str


def run_pre_push(*, remote: str, repo: str | None) -> int:
    from gitreview.git import open_repository

    repository = open_repository(repo)
    from_env = os.environ.get("PRE_COMMIT_TO_REF")
    if from_env:
        pushed = [
            PushedRef(
                os.environ.get("PRE_COMMIT_LOCAL_BRANCH", "HEAD"),
                from_env,
                os.environ.get("PRE_COMMIT_REMOTE_BRANCH", ""),
                os.environ.get("PRE_COMMIT_FROM_REF") or ZERO,
            )
        ]
        remote = remote or os.environ.get("PRE_COMMIT_REMOTE_NAME", "")
    else:
        pushed = parse_push_lines(sys.stdin.read())
    failures: list[str] = []
    for push in push_ranges(repository, pushed, remote):
        failures += _check(repository.git_dir, repo, remote, push)
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


def push_ranges(
    repository: Repository, pushed: Sequence[PushedRef], remote: str
) -> list[PushRange]:
    """What each pushed ref adds: from the remote's commit when this repository
    has it, else (a new branch, or a remote that moved) from the parent of the
    oldest commit no remote-tracking ref has yet. Deletions add nothing."""
    ranges = []
    for push in pushed:
        if push.deleted:
            continue
        head = repository.resolve_commit(push.local_sha)
        if head is None:
            continue  # a tag of a tree or a blob: nothing to review
        if not push.new and repository.has_commit(push.remote_sha):
            if repository.resolve_commit(push.remote_sha) != head:
                ranges.append(PushRange(push.local_ref, push.remote_sha, head))
            continue
        new = repository.new_commits(head, remote)
        if new:
            ranges.append(PushRange(push.local_ref, repository.first_parent(new[0]), head))
    return ranges


def _check(git_dir: str, repo: str | None, remote: str, push: PushRange) -> list[str]:
    from gitreview.manifest import serialize
    from gitreview.pipeline import classify_range, manifest_of
    from gitreview.secrets import redact_name

    spec = f"{(push.base or 'empty tree')[:12]}..{push.head[:12]}"
    outcome = classify_range(repo, spec, base_head=(push.base, push.head))
    manifest, settings = manifest_of(outcome), outcome.settings
    # A branch (or a remote) may be named like a token: the file name is printed too.
    name, remote = redact_name(push.name), redact_name(remote)
    target = Path(git_dir, "gitreview", "pre-push", remote or "remote", *name.split("/"))
    target = target.with_name(target.name + ".json")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(serialize(manifest), encoding="utf-8")
    summary = manifest["summary"]
    files, findings = summary["files"], summary["findings"]
    print(
        f"gitreview: {name}: {files['total']} files ({files['significant']} significant), "
        f"findings: {findings['error']} error, {findings['warning']} warning, "
        f"{findings['info']} info; manifest: {target}",
        file=sys.stderr,
    )
    if settings.fail_on == "never":
        return []
    blocking = SEVERITIES[SEVERITIES.index(settings.fail_on) :]
    return [
        f"{finding['severity']} {finding['rule']} {_where(finding)}: {finding['message']}"
        for finding in manifest["findings"]
        if finding["severity"] in blocking
    ]


def _where(finding: dict[str, Any]) -> str:
    if finding["path"] is None:
        return "(range)"
    return f"{finding['path']}:{finding['line']}" if finding["line"] else finding["path"]


def run_install(*, repo: str | None, force: bool) -> int:
    from gitreview.git import open_repository

    hooks = Path(open_repository(repo).hooks_dir())
    target = hooks / "pre-push"
    script = resources.files("gitreview").joinpath("hooks").joinpath("pre-push").read_text("utf-8")
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
    print(f"gitreview: pre-push hook installed at {target}", file=sys.stderr)
    return int(Exit.OK)


def run_uninstall(*, repo: str | None) -> int:
    from gitreview.git import open_repository

    target = Path(open_repository(repo).hooks_dir()) / "pre-push"
    if not target.is_file() or MARKER not in target.read_text("utf-8", "replace"):
        raise UserError(f"no gitreview pre-push hook at {target}", status=Exit.USAGE)
    target.unlink()
    backup = target.with_name(target.name + BACKUP_SUFFIX)
    if backup.exists():
        backup.replace(target)
        print(f"gitreview: pre-push hook removed; {target} restored", file=sys.stderr)
    else:
        print(f"gitreview: pre-push hook removed from {target}", file=sys.stderr)
    return int(Exit.OK)
