"""Hunks whose two sides parse and mean the same: formatting, proved by parsing.

Python: the same AST (positions aside, docstrings compared cleaned of their
indentation, string prefixes such as `u` aside) and the same comments, as
black or isort leave them. JSON, YAML (safe loader) and TOML: the same data,
compared type for type (1 is not 1.0 nor true), key order aside. A whole file
that means the same makes every hunk trivial; otherwise each hunk is checked
on its own, applied alone to the old file.
"""

from __future__ import annotations

import datetime
import inspect
import json
import re
from collections.abc import Callable
from typing import Any

from gitreview.analyze import lexers
from gitreview.classify.base import FileFacts, Proof, apply_hunk
from gitreview.model import Hunk, Line

# A parse per hunk is the price of the per-hunk check: bound it.
MAX_HUNK_CHECKS = 40
MAX_BYTES = 512_000
PARSE_BUDGET = 500_000  # characters parsed for the per-hunk checks of one file

_YAML_COMMENT = re.compile(r"(?:^|[ \t])(#.*)$")


def formatting(facts: FileFacts, hunk: Hunk) -> Proof | None:
    meaning = _MEANINGS.get(facts.kind)
    if facts.change.path.rpartition("/")[2] in _ORDERED_JSON:
        meaning = _ordered_json_meaning
    old_text, new_text = facts.analysis.old_text, facts.analysis.new_text
    if meaning is None or old_text is None or new_text is None:
        return None
    if len(old_text) > MAX_BYTES or len(new_text) > MAX_BYTES:
        return None
    python = facts.kind == "python"
    # The parses are the cost of this rule: a cheap necessary condition first (what
    # a formatter changes, whitespace, quotes, brackets, commas, aside).
    same_file = _memo(
        facts, "formatting:skeleton", lambda: _skeleton(old_text) == _skeleton(new_text)
    )
    if python and not same_file and _skeleton_of(hunk.removed) != _skeleton_of(hunk.added):
        return None
    old = _memo(facts, "formatting:old", lambda: meaning(old_text))
    if old is None:
        return None
    what = "AST and comments" if python else "data"
    if (same_file or not python) and _memo(
        facts, "formatting:new", lambda: meaning(new_text)
    ) == old:
        return Proof(
            ("formatting",),
            f"the old and new file have the same {what} ({_IGNORED[facts.kind]})",
        )
    if not python:
        # Data is proved for the whole file only: with duplicate keys, two hunks that
        # each leave the data as it was can change it together.
        return None
    checks = _memo(facts, "formatting:checks", lambda: [0])
    assert isinstance(checks, list)
    budget = min(MAX_HUNK_CHECKS, PARSE_BUDGET // max(len(old_text), 1))
    if checks[0] >= budget:
        return None
    checks[0] += 1
    if meaning(apply_hunk(old_text, hunk)) == old:
        return Proof(
            ("formatting",),
            f"the old file with only this hunk applied has the same {what} "
            f"({_IGNORED[facts.kind]})",
        )
    return None


_FORMATTER_CHARACTERS = re.compile(r"[\s'\"(),;\\]|\b[uU](?=['\"])")


def _skeleton(text: str) -> str:
    """What no formatter changes in Python: the text without whitespace, quotes,
    brackets, commas, semicolons, backslashes and `u` prefixes, in lower case."""
    return _FORMATTER_CHARACTERS.sub("", text).lower()


def _skeleton_of(lines: tuple[Line, ...]) -> str:
    return _skeleton("".join(line.text for line in lines))


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
    the ends of lines and of the whole. The words and line breaks stay; so do
    trailing spaces in a docstring with doctests, whose expected output they are."""
    cleaned = inspect.cleandoc(text)
    if ">>>" in cleaned:
        return cleaned
    return "\n".join(line.rstrip() for line in cleaned.split("\n")).strip()


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


def _ordered_json_meaning(text: str) -> tuple[Any, ...] | None:
    """For JSON whose reader gives key order a meaning: Node tries package.json's
    conditional "exports" in order."""
    meaning = _json_meaning(text)
    if meaning is None:
        return None
    order = json.loads(text, object_pairs_hook=list)  # every object as its ordered pairs
    return (*meaning, _Strict(order))


def _yaml_meaning(text: str) -> tuple[Any, ...] | None:
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        documents = list(yaml.load_all(text, Loader=loader))
        # YAML 1.1 and 1.2 read `no`, `on`, `010`, `1:30` differently: the same data
        # under PyYAML's 1.1 rules is not enough, the scalars must be written alike.
        scalars = sorted(
            token.value
            for token in yaml.scan(text, Loader=loader)
            if isinstance(token, yaml.ScalarToken)
        )
    except yaml.YAMLError:
        return None
    return (_Strict(documents), _hash_comments(text), tuple(scalars))


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
    """Equal and of the same types all the way down: Python says True == 1 == 1.0,
    -0.0 == 0.0, and equal instants in two time zones are equal."""
    if type(one) is not type(two):
        return False
    if isinstance(one, dict):
        keys_one = {(type(key), _exact(key)): key for key in one}
        keys_two = {(type(key), _exact(key)): key for key in two}
        if keys_one.keys() != keys_two.keys():
            return False
        return all(same_data(one[keys_one[k]], two[keys_two[k]]) for k in keys_one)
    if isinstance(one, list | tuple):
        return len(one) == len(two) and all(map(same_data, one, two))
    return _exact(one) == _exact(two)


def _exact(value: Any) -> object:
    """A value as a key that tells apart what == does not."""
    if isinstance(value, float):
        return ("float", repr(value))  # -0.0, nan, inf
    if isinstance(value, datetime.datetime | datetime.time):
        return (type(value).__name__, value.isoformat())  # the zone counts
    return value


_ORDERED_JSON = frozenset({"package.json"})
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
