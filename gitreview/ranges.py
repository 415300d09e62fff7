"""What the user typed becomes base, head and the commits between.

`A..B` diffs A against B; `A...B` diffs their merge base against B; a single
`REV` (or git's `REV^!`) diffs its first parent (the empty tree for a root
commit) against REV; `REV^-N` diffs its Nth parent against it (`REV^-`: the
first); no argument means the current branch against its upstream, from their
merge base, which is what a push would send.
"""

from __future__ import annotations

from typing import NamedTuple

from gitreview.errors import Exit, UserError
from gitreview.git import Repository
from gitreview.model import Range
from gitreview.patterns import lazy_compile


class Ends(NamedTuple):
    """A range as commit ids, and as the user named it."""

    spec: str
    base: str | None  # None: the empty tree
    head: str


def resolve_range(repo: Repository, spec: str | None) -> Range:
    return between(repo, *range_ends(repo, spec))


def range_ends(repo: Repository, spec: str | None) -> Ends:
    """The base and head the user's words name, without listing the commits between."""
    if spec is None or spec == "":
        return _upstream_ends(repo)
    if "..." in spec:
        left, right = spec.split("...", 1)
        head = _commit(repo, right or "HEAD")
        other = _commit(repo, left or "HEAD")
        base = repo.merge_base(other, head)
        if base is None:
            raise UserError(
                f"no merge base between {left or 'HEAD'} and {right or 'HEAD'}",
                status=Exit.RANGE,
                hint=_shallow_hint(repo) or f"use {left or 'HEAD'}..{right or 'HEAD'} to diff them",
            )
        return Ends(spec, base, head)
    if ".." in spec:
        left, right = spec.split("..", 1)
        # The empty tree's id as the base: every commit down to the root (the Actions
        # step's first push).
        base = None if left == repo.empty_tree else _commit(repo, left or "HEAD")
        return Ends(spec, base, _commit(repo, right or "HEAD"))
    nth = _PARENT.fullmatch(spec)
    if nth is not None:
        rev, number = nth[1], nth[2] or "1"
        return Ends(spec, _commit(repo, f"{rev}^{number}"), _commit(repo, rev))
    head = _commit(repo, spec.removesuffix("^!"))
    parent = repo.first_parent(head)
    if parent is None and repo.is_shallow:
        # A shallow clone's boundary commit looks like a root commit to git.
        raise UserError(
            f"{spec} has no parent in this shallow clone",
            status=Exit.RANGE,
            hint=_shallow_hint(repo),
        )
    return Ends(spec, parent, head)


# git's `REV^-N`: REV's Nth parent against REV.
_PARENT = lazy_compile(r"(.+)\^-([1-9][0-9]*)?")  # no 0th parent: git refuses ^-0


def between(repo: Repository, spec: str, base: str | None, head: str) -> Range:
    """A range of known commit ids (base None: the empty tree), as a hook sees it."""
    return Range(spec=spec, base=base, head=head, commits=repo.commits(base, head))


def _upstream_ends(repo: Repository) -> Ends:
    branch = repo.current_branch()
    if branch is None:
        raise UserError(
            "no range given and HEAD is not on a branch",
            status=Exit.RANGE,
            hint="give a range, for example: git review-manifest origin/main...HEAD",
        )
    upstream = repo.upstream_of_head()
    if upstream is None:
        raise UserError(
            f"no range given and branch '{branch}' has no upstream",
            status=Exit.RANGE,
            hint=(
                "give a range (git review-manifest origin/main...HEAD) or set an upstream "
                f"(git branch --set-upstream-to=origin/{branch})"
            ),
        )
    return range_ends(repo, f"{upstream}...HEAD")


def _commit(repo: Repository, rev: str) -> str:
    sha = repo.resolve_commit(rev)
    if sha is None:
        raise UserError(
            f"unknown revision: {rev}",
            status=Exit.RANGE,
            hint=_shallow_hint(repo),
        )
    return sha


def _shallow_hint(repo: Repository) -> str | None:
    if repo.is_shallow:
        return (
            "this is a shallow clone: fetch more history "
            "(git fetch --unshallow, or fetch-depth: 0 in CI)"
        )
    return None
