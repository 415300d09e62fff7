"""Secrets in the range's history: a commit adds one and a later commit takes it
out. The range's own diff runs from its base to its head, so it never shows the
secret, yet the commits a push or a merge publishes hold it, and anyone who can
read them can use it (found by an adversarial review: "add the token", then "read
it from the environment", pushed together, passed the pre-push hook). Asked by
the hook and the Actions step, which publish or check what is published, for a
range of two commits or more."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from gitreview import secrets
from gitreview.analyze.base import Rule
from gitreview.model import Added, Finding

SECRET_IN_HISTORY = Rule(
    "range/secret-in-history",
    "error",
    "a commit of the range adds a secret that a later commit takes out: the range's diff "
    "does not show it, but the history it publishes holds it",
)
RULES: tuple[Rule, ...] = (SECRET_IN_HISTORY,)
SHORT_SHA = 12


def secrets_in_history(
    added: Iterable[Added],
    at_head: Callable[[str], str | None],
    in_base: Callable[[str], bool] = lambda _value: False,
) -> Iterator[Finding]:
    """One finding per secret a commit adds that the file at the head (`at_head`, its
    text, None when it is gone) no longer holds: one the head still holds is the
    range's own `text/secret`, where its diff adds it. Nor one the base holds in any
    file (`in_base`): the range publishes nothing new (found by a review of the rule:
    a test key moved to another folder, then deleted, refused the push)."""
    told: set[str] = set()
    for hunk in added:
        for offset, label, value in _secrets(hunk.lines):
            if value in told:
                continue
            told.add(value)
            now = at_head(hunk.path)
            if (now is not None and value in now) or in_base(value):
                continue
            message = (
                f"commit {hunk.commit[:SHORT_SHA]} adds a {label} (line {hunk.first + offset}, "
                "value redacted), which a later commit of the range takes out: the range's "
                "diff does not show it, but its commits still hold it; rewrite that commit "
                "(git rebase -i) and revoke the secret"
            )
            rule = SECRET_IN_HISTORY
            yield Finding(rule.id, rule.severity, hunk.path, None, message)


def _secrets(lines: list[str]) -> Iterator[tuple[int, str, str]]:
    """The secrets the lines hold, placeholders left out: (index, label, a text of it
    that a file still holding it holds)."""
    text = "\n".join(lines)
    if secrets.may_hold_token(text):
        for index, line in enumerate(lines):
            for match in secrets.find_tokens(line):
                if secrets.reportable(match):
                    yield index, match.kind.label, match.value
    if secrets.may_hold_blocks(text):
        for block in secrets.key_blocks(lines):
            if secrets.reported(lines, block):
                body = max(lines[block.first : block.last + 1], key=len).strip()
                yield block.first, block.label, body
