"""The range itself: commits that were meant to be squashed or finished before
they were pushed (for the pre-push hook above all)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from gitreview.analyze.base import Rule
from gitreview.config import Config
from gitreview.model import Commit, Finding, Range
from gitreview.patterns import lazy_compile

RULES: tuple[Rule, ...] = (
    Rule("range/fixup-commit", "error", "a commit subject starts with fixup!, squash! or amend!"),
    Rule("range/wip-commit", "error", "a commit subject says it is a work in progress (WIP)"),
)

# What `git commit --fixup/--squash` write and `git rebase --autosquash` reads.
_AUTOSQUASH = lazy_compile(r"(?:fixup|squash|amend)!(?:\s|$)")
# WIP as a word: leading in any case (`WIP`, `wip:`, `[WIP]`, `(wip)`), bracketed
# anywhere, or upper-case last. Not "wipe", "WIP_LIMIT", nor "add WIP label".
_WIP = lazy_compile(r"^[\[(]?wip\b|[\[(]wip[\])]|^work in progress\b", re.IGNORECASE)
_WIP_LAST = lazy_compile(r"(?:^|[\s:-])WIP[.!]?$")
SHORT_SHA = 12  # as handles and the text summary abbreviate


def analyze_range(rng: Range, config: Config) -> Iterable[Finding]:
    return list(_findings(rng.commits))


def _findings(commits: Iterable[Commit]) -> Iterator[Finding]:
    for commit in commits:
        named = f'commit {commit.sha[:SHORT_SHA]} "{commit.subject}"'
        if _AUTOSQUASH.match(commit.subject):
            message = f"{named} is meant to be squashed: rebase with --autosquash before pushing"
            yield Finding("range/fixup-commit", "error", None, None, message)
        elif _WIP.search(commit.subject) or _WIP_LAST.search(commit.subject):
            message = f"{named} is a work in progress: finish or squash it before pushing"
            yield Finding("range/wip-commit", "error", None, None, message)
