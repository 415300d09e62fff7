"""Source code other than Python: the function or type each hunk falls in (see
analyze/symbols.py for which languages get what), and `debugger` statements
left in JavaScript and TypeScript.
"""

from __future__ import annotations

from collections.abc import Iterator

from gitreview.analyze.base import LazyScopes, Report, Rule, Subject
from gitreview.model import Finding
from gitreview.patterns import lazy_compile

RULES: tuple[Rule, ...] = (
    Rule(
        "code/debugger", "warning", "an added line is a JavaScript or TypeScript debugger statement"
    ),
)
# The kinds analyze/symbols.py names symbols for (imported when a file needs it).
KINDS: tuple[str, ...] = (
    *("c", "cpp", "csharp", "go", "java", "javascript", "rust", "typescript"),  # braces
    "ruby",  # def ... end
)
DEBUGGER_KINDS = ("javascript", "typescript")

# `debugger` as a statement of its own: after the start of the line, `;`, `{`, `}`,
# `)` or `else`, and ending the statement (`;`, `}`, the end of the line).
_DEBUGGER = lazy_compile(r"(?:^|[;{})]|\belse\b)[ \t]*debugger[ \t]*(?:;|}|$)")


def analyze(subject: Subject) -> Report:
    from gitreview.analyze import symbols

    findings: tuple[Finding, ...] = ()
    if subject.kind in DEBUGGER_KINDS:
        findings = tuple(_debuggers(subject))
    text = subject.new_text
    if text is None:
        return Report(findings)
    # Named only when the manifest asks (a significant file's hunks), and only the
    # blocks that may hold the line it asks about for each hunk (issue 12).
    kind, asked = subject.kind, frozenset(h.scope_line for h in subject.change.hunks)
    return Report(findings, LazyScopes(lambda: symbols.scopes(kind, text, lines=asked)))


def _debuggers(subject: Subject) -> Iterator[Finding]:
    """`debugger` statements on added lines, read with strings and comments blanked:
    the whole head when it is known, else each added line on its own."""
    from gitreview.analyze import symbols

    change = subject.change
    added = [line for hunk in change.hunks for line in hunk.added if line.new_no]
    if not any("debugger" in line.text for line in added):
        return
    if subject.new_text is not None:
        code = symbols.code_only(subject.kind, subject.new_text)
        head_lines = code.split("\n") if code is not None else None
    else:
        head_lines = None
    for line in added:
        assert line.new_no is not None
        if head_lines is not None:
            text = head_lines[line.new_no - 1]
        else:
            text = symbols.code_only(subject.kind, line.text) or ""
        if _DEBUGGER.search(text.rstrip("\r")):
            yield Finding(
                "code/debugger", "warning", change.path, line.new_no, "debugging leftover: debugger"
            )
