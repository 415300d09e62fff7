"""Routing by reviewer role, and batches (issue #10).

Each significant hunk (a review item) and each finding goes to every role
that matches it: a path glob, a file kind, or the rule id of a finding on the
hunk's lines. What no role matches goes to `default`, so nothing is orphaned.
Without configured roles, `default` gets everything. A role's items come code
first, then tests, then docs, each in manifest order; its batches follow that
order, bounded by handles, files and the role's token budget.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from gitreview import globs
from gitreview.config import Role
from gitreview.kinds import kind_of
from gitreview.model import Finding
from gitreview.patterns import lazy_compile

DEFAULT_ROLE = "default"
BATCH_HANDLES = 200
BATCH_FILES = 50

_TESTS = lazy_compile(
    r"(^|/)(tests?|spec|__tests__|testing)/|(^|/)test_[^/]*$|_test\.[^/]+$|\.(test|spec)\.[^/]+$"
)
_DOC_KINDS = frozenset({"markdown", "rst", "text", "asciidoc"})


class ReviewItem(NamedTuple):
    """A significant hunk (or a whole file) as a reviewer gets it."""

    handle: str
    path: str
    kind: str
    tokens: int  # what reading `diff` costs
    lines: int  # changed lines it holds
    diff: tuple[str, ...]  # the change as the brief shows it, in pieces to join with ""
    entry: Mapping[str, Any]  # its manifest entry: handle, excerpt, scope, reasons...
    rules: tuple[str, ...] = ()  # rule ids of findings on its lines
    span: tuple[int, int] | None = None  # its added lines at head, if any
    # What changed of its file besides its lines (`rename from`, modes), written
    # above the first of the file's items a brief shows or lists.
    header: str = ""

    @property
    def excerpt(self) -> str:
        excerpt = self.entry.get("excerpt")
        return excerpt if isinstance(excerpt, str) else ", ".join(self.entry.get("reasons", ()))

    @property
    def group(self) -> int:
        """0 code, 1 tests, 2 docs: the order a role reads them in."""
        if _TESTS.search(self.path):
            return 1
        if self.kind in _DOC_KINDS or self.path.startswith(("docs/", "doc/")):
            return 2
        return 0


class Share(NamedTuple):
    """What one role reviews: its lists are filled in place."""

    role: Role
    items: list[ReviewItem]
    findings: list[Finding]


def route(
    items: Sequence[ReviewItem], findings: Sequence[Finding], roles: Sequence[Role]
) -> dict[str, Share]:
    """Each role's share, in configuration order with `default` last; roles
    with nothing to review are left out."""
    configured = {role.name: role for role in roles}
    default = configured.pop(DEFAULT_ROLE, Role(DEFAULT_ROLE))
    shares = {name: Share(role, [], []) for name, role in configured.items()}
    shares[DEFAULT_ROLE] = Share(default, [], [])
    configured_shares = [share for name, share in shares.items() if name != DEFAULT_ROLE]
    for item in items:
        matched = [s for s in configured_shares if _takes_item(s.role, item)]
        for share in matched or [shares[DEFAULT_ROLE]]:
            share.items.append(item)
    for finding in findings:
        matched = [s for s in configured_shares if _takes_finding(s.role, finding)]
        for share in matched or [shares[DEFAULT_ROLE]]:
            share.findings.append(finding)
    for share in shares.values():
        share.items.sort(key=lambda item: item.group)  # stable: manifest order within a group
    return {name: share for name, share in shares.items() if share.items or share.findings}


def _takes_item(role: Role, item: ReviewItem) -> bool:
    return (
        item.kind in role.kinds
        or (bool(role.paths) and globs.match_any(role.paths, item.path))
        or any(fnmatch.fnmatchcase(rule, pattern) for rule in item.rules for pattern in role.rules)
    )


def _takes_finding(role: Role, finding: Finding) -> bool:
    if any(fnmatch.fnmatchcase(finding.rule, pattern) for pattern in role.rules):
        return True
    if finding.path is None:
        return False
    return kind_of(finding.path) in role.kinds or (
        bool(role.paths) and globs.match_any(role.paths, finding.path)
    )


class Batch(NamedTuple):
    items: tuple[ReviewItem, ...]
    oversized: bool = False  # one item larger than the budget, alone in its batch

    @property
    def tokens(self) -> int:
        return sum(item.tokens for item in self.items)


def batches(items: Sequence[ReviewItem], budget: int | None) -> list[Batch]:
    """Items cut into batches of at most BATCH_HANDLES handles, BATCH_FILES files
    and `budget` tokens. A file's items stay together where they fit in one
    batch; an item larger than the budget gets a batch of its own, flagged."""
    out: list[Batch] = []
    current: list[ReviewItem] = []
    files: set[str] = set()  # the paths in `current`, and their tokens: kept, not counted again
    tokens = 0

    def fits(adding: Sequence[ReviewItem], more: int) -> bool:  # one file's items
        return (
            len(current) + len(adding) <= BATCH_HANDLES
            and len(files) + (adding[0].path not in files) <= BATCH_FILES
            and (budget is None or tokens + more <= budget)
        )

    def close() -> None:
        nonlocal tokens
        if current:
            out.append(Batch(tuple(current)))
            current.clear()
            files.clear()
            tokens = 0

    for path_items in _by_file(items):
        together = sum(item.tokens for item in path_items)
        if current and not fits(path_items, together):
            close()
        for item in path_items:
            if budget is not None and item.tokens > budget:
                close()
                out.append(Batch((item,), oversized=True))
                continue
            if current and not fits([item], item.tokens):
                close()
            current.append(item)
            files.add(item.path)
            tokens += item.tokens
    close()
    return out


def _by_file(items: Sequence[ReviewItem]) -> list[list[ReviewItem]]:
    runs: list[list[ReviewItem]] = []
    for item in items:
        if runs and runs[-1][0].path == item.path:
            runs[-1].append(item)
        else:
            runs.append([item])
    return runs
