"""Hunks whose two sides parse and mean the same: formatting, proved by parsing.

Python: the same AST (positions aside, docstrings compared cleaned of their
indentation, string prefixes such as `u` aside) and the same comments, as
black or isort leave them. JSON, YAML (safe loader) and TOML: the same data,
compared type for type (1 is not 1.0 nor true), key order aside. A whole file
that means the same makes every hunk trivial; otherwise each hunk is checked
on its own, applied alone to the old file.
"""

from __future__ import annotations

import inspect
import json
import math
import re
from collections.abc import Callable
from typing import Any

from gitreview.analyze import lexers
from gitreview.classify.base import FileFacts, Proof, apply_hunk
from gitreview.model import Hunk

# A parse per hunk is the price of the per-hunk check: bound it.
MAX_HUNK_CHECKS = 40
MAX_BYTES = 512_000

_YAML_COMMENT = re.compile(r"(?:^|[ \t])(#.*)$")


def formatting(facts: FileFacts, hunk: Hunk) -> Proof | None:
    meaning = _MEANINGS.get(facts.kind)
    old_text, new_text = facts.analysis.old_text, facts.analysis.new_text
    if meaning is None or old_text is None or new_text is None:
        return None
    if len(old_text) > MAX_BYTES or len(new_text) > MAX_BYTES:
        return None
    old = _memo(facts, "formatting:old", lambda: meaning(old_text))
    if old is None:
        return None
    what = "AST and comments" if facts.kind == "python" else "data"
    if _memo(facts, "formatting:new", lambda: meaning(new_text)) == old:
        return Proof(
            ("formatting",),
            f"the old and new file have the same {what} ({_IGNORED[facts.kind]})",
        )
    checks = _memo(facts, "formatting:checks", lambda: [0])
    assert isinstance(checks, list)
    if checks[0] >= MAX_HUNK_CHECKS:
        return None
    checks[0] += 1
    if meaning(apply_hunk(old_text, hunk)) == old:
        return Proof(
            ("formatting",),
            f"the old file with only this hunk applied has the same {what} "
            f"({_IGNORED[facts.kind]})",
        )
    return None


def _memo(facts: FileFacts, key: str, compute: Callable[[], object]) -> object:
    if key not in facts.memo:
        facts.memo[key] = compute()
    return facts.memo[key]


# -- Python ------------------------------------------------------------------


def python_meaning(text: str) -> tuple[str, tuple[str, ...]] | None:
    """The AST dump (without positions) and the comments, normalized; None when
    the text does not parse."""
    import ast

    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant):
            node.kind = None  # u"x" is "x"
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            docstring = node.body[0] if node.body else None
            if (
                isinstance(docstring, ast.Expr)
                and isinstance(docstring.value, ast.Constant)
                and isinstance(docstring.value.value, str)
            ):
                docstring.value.value = _clean_docstring(docstring.value.value)
    return ast.dump(tree), _python_comments(text)


def _clean_docstring(text: str) -> str:
    """What formatters change in a docstring: its indentation, the whitespace at
    the ends of lines and of the whole. The words and line breaks stay."""
    return "\n".join(line.rstrip() for line in inspect.cleandoc(text).split("\n")).strip()


def _python_comments(text: str) -> tuple[str, ...]:
    """Comment texts in order, `#` and spacing aside (black writes `# x` for `#x`)."""
    found = lexers.scan("python", text)
    return tuple(" ".join(text[start:end].lstrip("#").split()) for start, end in found.comments)


# -- data --------------------------------------------------------------------


def _json_meaning(text: str) -> tuple[Any, ...] | None:
    try:
        return (_Strict(json.loads(text)),)
    except ValueError:
        return None


def _yaml_meaning(text: str) -> tuple[Any, ...] | None:
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        documents = list(yaml.load_all(text, Loader=loader))
    except yaml.YAMLError:
        return None
    return (_Strict(documents), _hash_comments(text))


def _toml_meaning(text: str) -> tuple[Any, ...] | None:
    import tomllib

    try:
        return (_Strict(tomllib.loads(text)), _hash_comments(text))
    except tomllib.TOMLDecodeError:
        return None


def _hash_comments(text: str) -> tuple[str, ...]:
    """`#` comments in order, spacing aside. A `#` inside a quoted value counts
    too, on both sides alike: a difference there is never hidden."""
    comments = []
    for line in text.split("\n"):
        match = _YAML_COMMENT.search(line)
        if match:
            comments.append(" ".join(match[1].lstrip("#").split()))
    return tuple(comments)


class _Strict:
    """Loaded data compared type for type: Python says 1 == 1.0 == True."""

    def __init__(self, data: Any) -> None:
        self.data = data

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Strict) and same_data(self.data, other.data)

    __hash__ = None  # type: ignore[assignment]


def same_data(one: Any, two: Any) -> bool:
    if type(one) is not type(two):
        return False
    if isinstance(one, dict):
        return one.keys() == two.keys() and all(same_data(one[k], two[k]) for k in one)
    if isinstance(one, list | tuple):
        return len(one) == len(two) and all(map(same_data, one, two))
    if isinstance(one, float) and math.isnan(one):
        return math.isnan(two)
    return bool(one == two)


_MEANINGS: dict[str, Callable[[str], object]] = {
    "python": python_meaning,
    "json": _json_meaning,
    "yaml": _yaml_meaning,
    "toml": _toml_meaning,
}
_IGNORED = {
    "python": "positions, docstring indentation and string prefixes aside",
    "json": "key order and spacing aside, types compared",
    "yaml": "key order, quoting and layout aside, types compared, comments kept",
    "toml": "key order, quoting and layout aside, types compared, comments kept",
}
