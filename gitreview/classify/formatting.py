"""Hunks whose two sides parse and mean the same: formatting, proved by parsing.

Python: the same AST (positions aside, docstrings compared cleaned of their
indentation, string prefixes such as `u` aside) and the same comments, as
black or isort leave them, compared statement by statement (statements.py) so
each hunk gets its own verdict at the cost of two parses per file. JSON, YAML
(safe loader) and TOML: the same data, compared type for type (1 is not 1.0
nor true), key order compared (readers keep it, and tools read it), for the whole
file only.
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Callable
from typing import Any

from gitreview.classify import statements
from gitreview.classify.base import FileFacts, Proof
from gitreview.classify.prose_comments import about_next_line
from gitreview.classify.whitespace import counts_lines
from gitreview.model import Hunk
from gitreview.patterns import lazy_compile

MAX_BYTES = 512_000  # data files: compared whole, and YAML loads slowly

_YAML_COMMENT = lazy_compile(r"(?:^|[ \t])(#.*)$")


def formatting(facts: FileFacts, hunk: Hunk) -> Proof | None:
    if facts.kind == "python":
        return _python(facts, hunk)
    meaning = _MEANINGS.get(facts.kind)
    old_text, new_text = facts.analysis.old_text, facts.analysis.new_text
    if meaning is None or old_text is None or new_text is None:
        return None
    if len(old_text) > MAX_BYTES or len(new_text) > MAX_BYTES:
        return None
    if any("#" in line.text and about_next_line(line.text) for line in hunk.lines):
        # A directive for the line after it (`# yamllint disable-line`, `# kics-scan
        # ignore-line`) is tied to whatever line now follows it: a blank line added or
        # removed below it moves it (found by an adversarial review).
        return None
    # Data is proved for the whole file only: with duplicate keys, two hunks that
    # each leave the data as it was can change it together.
    written = _WRITTEN.get(facts.kind)
    if written is not None:
        # The part of the meaning read without building the data, compared first: where
        # it differs, so does the meaning, and most changed files are never loaded
        # (issue 12). The kind's _MEANINGS entry is then the data alone.
        was = _memo(facts, "formatting:old-written", lambda: written(old_text))
        if was is None or _memo(facts, "formatting:new-written", lambda: written(new_text)) != was:
            return None
    old = _memo(facts, "formatting:old", lambda: meaning(old_text))
    if old is None or _memo(facts, "formatting:new", lambda: meaning(new_text)) != old:
        return None
    return Proof(
        ("formatting",), f"the old and new file have the same data ({_IGNORED[facts.kind]})"
    )


def _python(facts: FileFacts, hunk: Hunk) -> Proof | None:
    """Both sides parsed once, compared statement by statement (statements.py), where
    the hunk's names and numbers do not tell already that its statements differ."""
    if "formatting:python" not in facts.memo and statements.changes_meaning(facts, hunk):
        return None  # (once the comparison is made, it answers: the same, at no cost)
    if hunk.old_count != hunk.new_count and counts_lines(facts):
        return None  # `inspect.currentframe().f_lineno` below now says another line
    if any(_newer_fstring(line.text) for line in hunk.added):
        return None
    found = _memo(facts, "formatting:python", lambda: _python_differences(facts))
    if not isinstance(found, statements.Differences):
        return None
    if not found.old and not found.new:
        return Proof(
            ("formatting",),
            f"the old and new file have the same AST and comments ({_IGNORED['python']})",
        )
    if found.touches(hunk):
        return None
    return Proof(
        ("formatting",),
        "the statements around this hunk have the same AST and comments on both sides "
        f"({_IGNORED['python']})",
    )


def _newer_fstring(line: str) -> bool:
    """Whether an f-string of the line may need Python 3.12 (PEP 701): its quote
    reused inside a `{}` (`f"{item["name"]}"`), a `{}` open at the end of a line of
    a one-line f-string, a backslash or a `#` inside a `{}`. The same AST then,
    under 3.12, than the older spelling, which 3.9 to 3.11 read; a syntax error
    there (found by an adversarial review). Read as Python before 3.12 reads it:
    each string ends at the first quote like its own; may say yes where it is not."""
    position = 0
    while True:
        found = _STRING_START.search(line, position)
        if found is None or found.group(1) is not None:
            return False  # no more strings, or a comment to the end of the line
        prefix, quote = found.group(2).lower(), found.group(3)
        end = _string_end(line, found.end(), quote)
        if end < 0:
            return "f" in prefix and len(quote) == 1  # still open at the end of the line
        if "f" in prefix and _open_field(line[found.end() : end]):
            return True
        position = end + len(quote)


# Where a string starts (its prefix, its quote), or a comment.
_STRING_START = lazy_compile(r"""(#)|(?<![\w])([rRbBuUfF]{0,2})("{3}|'{3}|"|')""")


def _string_end(line: str, start: int, quote: str) -> int:
    """Where the string whose body starts at `start` ends: its first quote like its own
    that no backslash escapes (-1: not on this line)."""
    index = start
    while True:
        end = line.find(quote, index)
        if end < 0:
            return -1
        backslashes = len(line[index:end]) - len(line[index:end].rstrip("\\"))
        if backslashes % 2 == 0:
            return end
        index = end + 1


def _open_field(body: str) -> bool:
    """Whether an f-string's body, as Python before 3.12 ends it, leaves a replacement
    field open or holds a backslash or a `#` in a field's expression (not in its
    format spec, `{x:#x}`; nested specs, `{x:>{width}}`, and strings of the other
    quote, `{d['k']}`, are read as they are)."""
    depth = index = nesting = 0
    spec = False
    while index < len(body):
        char = body[index]
        if depth == 0:
            if body.startswith(("{{", "}}"), index):
                index += 2
                continue
            if char == "{":
                depth, nesting, spec = 1, 0, False
        elif char in ("'", '"'):
            close = body.find(char, index + 1)
            if close < 0 or (not spec and "\\" in body[index:close]):
                return True  # open, or a backslash in the expression: 3.12's
            index = close
        elif char in "([":
            nesting += 1
        elif char in ")]":
            nesting = max(0, nesting - 1)
        elif char == ":" and depth == 1 and not nesting:
            spec = True
        elif char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            spec = spec and depth > 0
        elif char in ("\\", "#") and not spec:
            return True
        index += 1
    return depth > 0


def _python_differences(facts: FileFacts) -> statements.Differences | None:
    old_text, new_text = facts.analysis.old_text, facts.analysis.new_text
    parsed = statements.parsed_sides(facts)
    if parsed is None or old_text is None or new_text is None:
        return None
    lines = (old_text.count("\n") + 1, new_text.count("\n") + 1)
    return statements.differences(*parsed, facts.change.hunks, *lines)


def _memo(facts: FileFacts, key: str, compute: Callable[[], object]) -> object:
    if key not in facts.memo:
        facts.memo[key] = compute()
    return facts.memo[key]


# -- data --------------------------------------------------------------------


def _json_meaning(text: str) -> tuple[Any, ...] | None:
    """The data, each object as its pairs in order (Node and Python keep an object's
    order, and tools read it: package.json's "exports", Jest's moduleNameMapper,
    TypeScript's "paths", Composer's "repositories" are tried in order), each number
    as written (19.999999999999999999 is 20.0 to a float, not to a decimal reader);
    None where an object names a key twice, which readers settle differently
    (Python keeps the last, others the first or refuse the file)."""
    try:
        data = json.loads(
            text, object_pairs_hook=_unique_keys, parse_int=_integer, parse_float=_Float
        )
        return (_Strict(data),)
    except (ValueError, RecursionError):  # RecursionError: nested too deep to load
        return None


class _Float(str):
    """A float as written: 19.999999999999999999 is 20.0 to a double, not to a decimal
    reader (Jackson's BigDecimal, Go's UseNumber), nor is 1.0 1.00."""


def _integer(text: str) -> int | float:
    """`-0` is JavaScript's negative zero, which Python's integers do not have."""
    return -0.0 if text == "-0" else int(text)


def _unique_keys(pairs: list[tuple[str, Any]]) -> tuple[tuple[str, Any], ...]:
    """An object as its pairs in order (a tuple: an array loads as a list)."""
    if len({key for key, _ in pairs}) != len(pairs):
        raise ValueError("a key named twice")
    return tuple(pairs)


def _yaml_data(text: str) -> tuple[Any, ...] | None:
    """A YAML file's documents (safe loader), and the same with every scalar a string
    (keys that are one under YAML 1.1 rules, `yes` and `on` or `010` and `8`, are two
    to a 1.2 reader: they must keep their values); with `_yaml_written`, its meaning."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    strings = getattr(yaml, "CBaseLoader", yaml.BaseLoader)
    try:
        data = _Strict(list(yaml.load_all(text, Loader=loader)))
        return data, _Strict(list(yaml.load_all(text, Loader=strings)))
    except (yaml.YAMLError, ValueError, RecursionError):  # ValueError: 2024-02-30
        return None


def _yaml_written(text: str) -> tuple[object, ...] | None:
    """A YAML file's comments, directives (`%YAML 1.2`), and its scalars as written,
    sorted. YAML 1.1 and 1.2 read `no`, `on`, `010`, `1:30`, `0o14` differently: the
    same data under PyYAML's 1.1 rules is not enough (see `_yaml_data`), the scalars
    must be written alike, and one that some version may read as other than a string
    must keep its quotes or their absence (`v: 0o14` is a number to a YAML 1.2
    reader, `v: '0o14'` never is)."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        tokens = list(yaml.scan(text, Loader=loader))
        scalars = sorted(
            (token.value, token.plain and _MAY_BE_TYPED.fullmatch(token.value) is not None)
            for token in tokens
            if isinstance(token, yaml.ScalarToken)
        )
        directives = [
            (token.name, token.value) for token in tokens if isinstance(token, yaml.DirectiveToken)
        ]
    except yaml.YAMLError:
        return None
    return _hash_comments(text), tuple(directives), tuple(scalars)


# A plain scalar some YAML version may read as null, a boolean, a number or a date,
# or Ruby's reader as a symbol (`:concurrency: 5`, Sidekiq's configuration).
_MAY_BE_TYPED = lazy_compile(
    r"(?i)|~|null|y|n|yes|no|true|false|on|off|[-+]?\.?(?:inf|nan)|[-+.]?\d.*|:.*"
)


def _toml_meaning(text: str) -> tuple[Any, ...] | None:
    """The data, each float as written (see _json_meaning), and the comments. Not
    known for a time past the microsecond, which tomllib cuts and other readers
    keep (Rust's toml, Go's: found by an adversarial review)."""
    import tomllib

    if _FINE_TIME.search(text):
        return None
    try:
        return (_Strict(tomllib.loads(text, parse_float=_Float)), _hash_comments(text))
    except (tomllib.TOMLDecodeError, RecursionError):
        return None


_FINE_TIME = lazy_compile(r"\d:\d\d:\d\d\.\d{7}")


def _hash_comments(text: str) -> tuple[tuple[str, str, bool], ...]:
    """`#` comments in order, as written (tools read `#cloud-config` and `# yamllint
    disable` to the character: `# cloud-config` is no cloud-init file; found by an
    adversarial review), each with the code it is about: the code before it on its
    line, or for a comment of its own line the next line of code, spacing aside,
    and which of the lines alike it is (Renovate's `# renovate: depName=nginx` and
    release-please's `x-release-please-version` are about the line below them:
    moved to another key, they bump another version, and release-please bumps only
    the line that ends with its marker; found by adversarial reviews). A `#` inside
    a quoted value counts too, on both sides alike: a difference there is never
    hidden."""
    comments: list[tuple[str, str, bool]] = []  # and whether it ends a line of code
    waiting: list[str] = []  # comments of their own lines, before the next code
    seen: dict[str, int] = {}  # lines of code met so far, by their text
    for line in text.split("\n"):
        match = _YAML_COMMENT.search(line)
        code = " ".join((line[: match.start(1)] if match else line).split())
        comment = match[1].rstrip() if match else None
        if code:
            # Which of the lines written alike: a comment moved from one image tag
            # to its twin below bumps the other one (found by an adversarial review).
            seen[code] = seen.get(code, 0) + 1
            code = f"{code} #{seen[code]}"
            comments += [(waiting_comment, code, False) for waiting_comment in waiting]
            waiting = []
            if comment is not None:
                comments.append((comment, code, True))
        elif comment is not None:
            waiting.append(comment)
    comments += [(waiting_comment, "", False) for waiting_comment in waiting]
    return tuple(comments)


class _Strict:
    """Loaded data compared type for type: Python says 1 == 1.0 == True."""

    def __init__(self, data: Any) -> None:
        self.data = data

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Strict) and same_data(self.data, other.data)

    __hash__ = None  # type: ignore[assignment]


MAX_COMPARISONS = 1_000_000  # values compared per file: bounds hostile data


def same_data(one: Any, two: Any) -> bool:
    """Equal and of the same types all the way down: Python says True == 1 == 1.0,
    -0.0 == 0.0, and equal instants in two time zones are equal. YAML aliases make
    the data a graph whose tree can be exponential (an alias bomb): a pair of values
    already compared is not compared again, and past a budget the answer is no."""
    try:
        return _Comparison().same(one, two)
    except (RecursionError, _OverBudget):
        return False


class _OverBudget(Exception):
    pass


class _Comparison:
    def __init__(self) -> None:
        self.done: set[tuple[int, int]] = set()  # containers found equal (or being compared)
        self.left = MAX_COMPARISONS

    def same(self, one: Any, two: Any) -> bool:
        self.left -= 1
        if self.left < 0:
            raise _OverBudget
        if type(one) is not type(two):
            return False
        if not isinstance(one, dict | list | tuple):
            return _exact(one) == _exact(two)
        pair = (id(one), id(two))
        if pair in self.done:
            return True
        self.done.add(pair)
        if isinstance(one, dict):
            keys_one = {(type(key), _exact(key)): key for key in one}
            keys_two = {(type(key), _exact(key)): key for key in two}
            # In order: YAML and TOML readers keep a mapping's order, and tools read it
            # (GitHub creates a matrix's jobs in its order, Jekyll's data is a menu).
            if list(keys_one) != list(keys_two):
                return False
            return all(self.same(one[keys_one[k]], two[keys_two[k]]) for k in keys_one)
        return len(one) == len(two) and all(map(self.same, one, two))


def _exact(value: Any) -> object:
    """A value as a key that tells apart what == does not."""
    if isinstance(value, float):
        return ("float", repr(value))  # -0.0, nan, inf
    if isinstance(value, datetime.datetime | datetime.time):
        return (type(value).__name__, value.isoformat())  # the zone counts
    return value


# What a kind's meaning holds that can be read without loading the data.
_WRITTEN: dict[str, Callable[[str], object]] = {"yaml": _yaml_written}
_MEANINGS: dict[str, Callable[[str], object]] = {
    "json": _json_meaning,
    "yaml": _yaml_data,
    "toml": _toml_meaning,
}
_IGNORED = {
    "python": "positions, docstring indentation and string prefixes aside",
    "json": "spacing aside, key order, types and numbers as written compared",
    "yaml": "quoting and layout aside, key order and types compared, comments kept",
    "toml": "quoting and layout aside, key order and types compared, comments kept",
}
