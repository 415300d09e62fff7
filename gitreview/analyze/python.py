"""Python: a head that does not parse, debugging leftovers on added lines, and the
class and function each hunk falls in (`class Parser > def feed`), from the AST.

With only a patch (no head text) the added lines are tokenized one by one, so a
`breakpoint` in a comment or a string still does not count.
"""

from __future__ import annotations

import bisect
import contextlib
import itertools
import sys
import warnings
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING

from gitreview.analyze.base import LazyScopes, Report, Rule, Scope, Subject
from gitreview.model import Finding

if TYPE_CHECKING:
    import ast

RULES: tuple[Rule, ...] = (
    Rule("python/syntax", "error", "a Python file does not parse at head"),
    Rule(
        "python/debugger",
        "warning",
        "an added line calls breakpoint() or pdb.set_trace(), or imports pdb",
    ),
)

# Where the head's tree is left for the classifiers (Subject.parsed): the tree
# `ast.parse` makes of the head's text, or False when that text does not parse.
HEAD_TREE = "python:new"
# Debugger modules whose `set_trace()` or import is a leftover.
_DEBUGGERS = frozenset({"pdb", "ipdb", "pudb"})
# Words an added line must contain before anything is parsed or tokenized.
_CLUES = ("breakpoint", "set_trace", "pdb", "pudb")


def analyze(subject: Subject) -> Report:
    change, text = subject.change, subject.new_text
    added_lines = [line for hunk in change.hunks for line in hunk.added if line.new_no]
    if text is None:
        # A patch: each added line on its own is all there is to look at.
        lines = [(line.new_no, line.text) for line in added_lines]
        return Report(tuple(_line_debuggers(change.path, lines)))
    import ast

    # The head as the classifiers parse it (classify/statements.py) is not parsed
    # again: its tree is left for them, or False when it does not parse.
    left = subject.parsed if not text.startswith("\ufeff") else None
    try:
        with unwarned():
            tree = ast.parse(text.removeprefix("\ufeff"), filename=change.path)
    except (SyntaxError, ValueError) as error:
        if left is not None:
            left[HEAD_TREE] = False
        return Report((_syntax_finding(change.path, error),))
    future = _misplaced_future(tree) if "__future__" in text else None
    if future is not None:
        return Report((_syntax_finding(change.path, future),))
    if left is not None:
        left[HEAD_TREE] = tree
    findings = []
    if any(_has_clue(line.text) for line in added_lines):
        added = {line.new_no for line in added_lines if line.new_no}
        findings = _tree_debuggers(change.path, tree, added)
    # Named only for a significant file, whose hunks the manifest names (issue 12),
    # and only the scopes that hold one of their lines.
    asked = sorted({hunk.scope_line for hunk in change.hunks})
    return Report(tuple(findings), LazyScopes(lambda: _scopes(tree, asked)))


def bodies(statement: ast.stmt) -> Iterator[tuple[str, Sequence[ast.stmt]]]:
    """The statement lists inside a compound statement, named."""
    import ast

    for name in ("body", "orelse", "finalbody"):
        sub = getattr(statement, name, None)
        if isinstance(sub, list) and sub and isinstance(sub[0], ast.stmt):
            yield name, sub
    for index, handler in enumerate(getattr(statement, "handlers", ())):
        yield f"handler {index}", handler.body
    for index, case in enumerate(getattr(statement, "cases", ())):
        yield f"case {index}", case.body


@contextlib.contextmanager
def unwarned() -> Iterator[None]:
    """Python's warnings about code it reads (`1if x`, `"\\d"`) silenced: that code is
    under review, not gitreview's, and stderr is for gitreview's own messages."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def _misplaced_future(tree: ast.Module) -> SyntaxError | None:
    """What the compiler says of a `from __future__` import that `ast.parse` takes:
    one below other code (a function moved above it; found by an adversarial review)
    or inside a block (`try:`, a function), or of a feature this Python does not
    know."""
    import __future__

    import ast

    body = tree.body
    first = 0
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        first = 1 if isinstance(body[0].value.value, str) else 0  # the docstring
    at_top = {id(statement) for statement in itertools.takewhile(_is_future, body[first:])}
    for node in ast.walk(tree):
        if not _is_future(node):
            continue
        assert isinstance(node, ast.ImportFrom)
        if id(node) not in at_top:
            message = "from __future__ imports must occur at the beginning of the file"
            return SyntaxError(message, ("", node.lineno, 0, "", None, None))
        for alias in node.names:
            if alias.name not in __future__.all_feature_names:
                message = f"future feature {alias.name} is not defined"
                return SyntaxError(message, ("", node.lineno, 0, "", None, None))
    return None


def _is_future(node: object) -> bool:
    import ast

    return isinstance(node, ast.ImportFrom) and node.module == "__future__"


def _syntax_finding(path: str, error: SyntaxError | ValueError) -> Finding:
    version = f"Python {sys.version_info.major}.{sys.version_info.minor}"
    if isinstance(error, SyntaxError):
        message = f"does not parse ({version}): {error.msg}"
        return Finding("python/syntax", "error", path, error.lineno, message)
    return Finding("python/syntax", "error", path, None, f"does not parse ({version}): {error}")


def _has_clue(text: str) -> bool:
    return any(clue in text for clue in _CLUES)


def _debugger_message(what: str) -> str:
    return f"debugging leftover: {what}"


# --- debugging leftovers ---------------------------------------------------------------


def _tree_debuggers(path: str, tree: ast.AST, added: set[int]) -> list[Finding]:
    """One finding per added line, for the first leftover on it."""
    import ast

    first_on_line: dict[int, tuple[int, str]] = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call | ast.Import | ast.ImportFrom) or node.lineno not in added:
            continue
        what = _debugger_node(node)
        if what is not None:
            found = (node.col_offset, what)
            first_on_line[node.lineno] = min(first_on_line.get(node.lineno, found), found)
    return [
        Finding("python/debugger", "warning", path, line, _debugger_message(what))
        for line, (_, what) in sorted(first_on_line.items())
    ]


def _debugger_node(node: ast.Call | ast.Import | ast.ImportFrom) -> str | None:
    import ast

    if isinstance(node, ast.Call):
        return _debugger_call(node.func)
    if isinstance(node, ast.ImportFrom):
        return f"from {node.module} import" if node.module in _DEBUGGERS else None
    names = [alias.name for alias in node.names if alias.name in _DEBUGGERS]
    return f"import {names[0]}" if names else None


def _debugger_call(func: ast.expr) -> str | None:
    import ast

    if isinstance(func, ast.Name) and func.id == "breakpoint":
        return "breakpoint()"
    if (
        isinstance(func, ast.Attribute)
        and func.attr == "set_trace"
        and isinstance(func.value, ast.Name)
        and func.value.id in _DEBUGGERS
    ):
        return f"{func.value.id}.set_trace()"
    return None


def _line_debuggers(path: str, lines: Iterable[tuple[int | None, str]]) -> Iterator[Finding]:
    for number, text in lines:
        if number is None or not _has_clue(text):
            continue
        what = _token_debugger(_code_tokens(text))
        if what is not None:
            yield Finding("python/debugger", "warning", path, number, _debugger_message(what))


def _code_tokens(text: str) -> list[str]:
    """The names and operators of one line, without its strings and comments; as far
    as the line tokenizes on its own (a line inside a multi-line string may not)."""
    import io
    import tokenize

    kept = (tokenize.NAME, tokenize.OP)
    found: list[str] = []
    try:
        for token in tokenize.generate_tokens(io.StringIO(text.strip() + "\n").readline):
            if token.type in kept:
                found.append(token.string)
    except (tokenize.TokenError, SyntaxError):
        pass
    return found


def _token_debugger(tokens: list[str]) -> str | None:
    for index, token in enumerate(tokens):
        before = tokens[index - 1] if index else ""
        following = tokens[index + 1 : index + 3]
        if token == "breakpoint" and before != "." and following[:1] == ["("]:
            return "breakpoint()"
        if token in _DEBUGGERS and following == [".", "set_trace"] and before != ".":
            return f"{token}.set_trace()"
        if before == "import" and token in _DEBUGGERS and index == 1:
            return f"import {token}"
        if before == "from" and token in _DEBUGGERS and index == 1:
            return f"from {token} import"
    return None


# --- symbols ---------------------------------------------------------------------------

_KEYWORDS = {"ClassDef": "class", "FunctionDef": "def", "AsyncFunctionDef": "async def"}


def _scopes(tree: ast.AST, asked: list[int], outer: str = "") -> Iterator[Scope]:
    """The classes and functions at head that hold one of the `asked` lines (sorted),
    named with the ones around them; a scope starts at its first decorator, so a
    hunk on a decorator belongs to it."""
    import ast

    for node in ast.iter_child_nodes(tree):
        if not isinstance(node, ast.stmt | ast.excepthandler | ast.match_case):
            # Definitions sit in statements (an `if`, a `try`), never in expressions:
            # not walking those saves most of the tree.
            continue
        if isinstance(node, ast.match_case):  # (no position of its own)
            yield from _scopes(node, asked, outer)
            continue
        decorators = getattr(node, "decorator_list", ())
        first = min([node.lineno, *(d.lineno for d in decorators)])
        last = node.end_lineno or node.lineno
        index = bisect.bisect_left(asked, first)
        if index == len(asked) or asked[index] > last:
            continue  # nothing asked inside: neither it nor what it holds is named
        if isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            name = f"{outer}{_KEYWORDS[type(node).__name__]} {node.name}"
            yield Scope(first, last, name, "symbol")
            yield from _scopes(node, asked, f"{name} > ")
        else:
            yield from _scopes(node, asked, outer)
