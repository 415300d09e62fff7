"""Whether the hunks called trivial leave a file meaning what it meant: shared by
tests/test_trivial_audit.py (every fixture range) and benchmarks/audit_trivial.py
(a real repository's history).

The base is rebuilt with only the file's other hunks applied; that text must mean
what the head means, by a reading that owes nothing to gitreview:

- Python: the same syntax tree (`ast`), positions and string prefixes aside, and
  docstrings as black leaves them: indentation and the whitespace at the ends of
  lines and of the whole aside, except in a docstring with doctests;
- YAML, JSON, TOML: the same loaded data (`yaml.safe_load_all`, `json`, `tomllib`),
  type for type (`1` is not `1.0` nor `true`), key order aside;
- Markdown: the same HTML from markdown-it, runs of whitespace aside;
- C and C++: the same tokens, as the language's translation phases read them
  (lines joined at a backslash, comments as spaces, strings and header names as
  written, a preprocessor line's end and a function-like macro's `(` counted).

Only reasons that claim the meaning is unchanged are audited (`SAME_MEANING`); a
trivial hunk for another reason (moved, import-order, typo, metadata) is applied
like a significant one.
"""

from __future__ import annotations

import ast
import inspect
import json
import re
import tomllib
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from gitreview.classify.base import Verdict
from gitreview.model import Hunk

SAME_MEANING = frozenset({"whitespace", "blank-lines", "line-endings", "formatting", "reflow"})


def _python(text: str) -> str:
    # Written apart from gitreview's statements.clean_docstring on purpose, as every
    # reading here: an audit that shared the code it checks would agree with it.
    tree = ast.parse(text)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant):
            node.kind = None  # u"x" is "x"
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            ):
                first.value.value = _docstring(first.value.value)
    return ast.dump(tree)


def _docstring(text: str) -> str:
    cleaned = inspect.cleandoc(text)
    if ">>>" in cleaned:  # trailing spaces may be a doctest's expected output
        return cleaned
    return "\n".join(line.rstrip() for line in cleaned.split("\n")).strip()


def _yaml(text: str) -> Any:
    import yaml

    return _typed(list(yaml.safe_load_all(text)))


def _typed(value: Any) -> Any:
    """The data with each value's type beside it: Python holds 1 == 1.0 == True."""
    if isinstance(value, dict):
        return ("dict", sorted((repr(_typed(k)), _typed(v)) for k, v in value.items()))
    if isinstance(value, list | tuple):
        return ("list", [_typed(item) for item in value])
    return (type(value).__name__, repr(value))


def _markdown(text: str) -> str:
    from markdown_it import MarkdownIt

    return re.sub(r"\s+", " ", MarkdownIt("commonmark").render(text)).strip()


# One C or C++ token, longest first, once comments are spaces: a string or character
# literal (with its encoding prefix), a number (a preprocessing number: `1e+5`,
# `0x1p-3`, `1'000`), a name, a punctuator, or a line break (it ends a directive).
_C_TOKEN = re.compile(
    r"""(?:u8|[uUL])?(?:"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')"""
    r"""|\.?\d(?:[eEpP][+-]|[\w.']|\.)*"""
    r"""|[A-Za-z_]\w*"""
    r"""|->\*|\.\.\.|<=>|<<=|>>=|%:%:|->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||::|\.\*|##"""
    r"""|[-+*/%&|^!=<>]=|<:|:>|<%|%>|%:"""
    r"""|(?P<newline>\n)|\S""",
    re.DOTALL,
)
_C_DIRECTIVE = re.compile(r"[ \t]*#[ \t]*(\w*)")
_C_DEFINE = re.compile(r"[ \t]*#[ \t]*define[ \t]+\w+\(")


# What may hold `/*` or `//` without starting a comment, then the comments: each
# comment becomes one space, a block comment's line breaks with it (a directive goes
# on after a comment that spans lines, as in the language).
_C_COMMENTS = re.compile(
    r"""\.?\d(?:[eEpP][+-]|[\w.']|\.)*"""
    r"""|(?:u8|[uUL])?(?:"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')"""
    r"""|(?P<comment>//[^\n]*|/\*.*?\*/)""",
    re.DOTALL,
)


def _c(text: str) -> list[str]:
    text = text.replace("\\\r\n", "").replace("\\\n", "")  # lines joined first
    text = _C_COMMENTS.sub(lambda m: " " if m.group("comment") else m.group(), text)
    tokens: list[str] = []
    for line in re.split(r"(?<=\n)", text):
        directive = _C_DIRECTIVE.match(line)
        if directive and directive.group(1) == "include":
            tokens += ["#include", line[directive.end() :].strip(), "\n"]  # `<a b.h>` as written
            continue
        for match in _C_TOKEN.finditer(line):
            if match.group("newline") is None or directive:
                tokens.append(match.group())
        if directive and _C_DEFINE.match(line):
            tokens.append("function-like")  # `#define F(x)`, not `#define F (x)`
    return tokens


MEANING: dict[str, Callable[[str], Any]] = {
    "python": _python,
    "yaml": _yaml,
    "json": lambda text: _typed(json.loads(text)),
    "toml": lambda text: _typed(tomllib.loads(text)),
    "markdown": _markdown,
    "c": _c,
    "cpp": _c,
}


class Audit(NamedTuple):
    """One file's audit: whether its meaning was kept; None when the rebuilt text
    does not parse (a trivial and another hunk in one construct: not judged)."""

    kept: bool | None
    every_hunk: bool  # every hunk of the file was audited
    hunks: tuple[str, ...]  # the audited hunks, as `-OLD,COUNT +NEW,COUNT reasons`


def audited(verdict: Verdict) -> bool:
    return verdict.classification == "trivial" and set(verdict.reasons) <= SAME_MEANING


def wanted(kind: str, verdicts: Sequence[Verdict]) -> bool:
    """Whether a file has something to audit: read its blobs only then."""
    return kind in MEANING and any(map(audited, verdicts))


def audit(
    kind: str, hunks: Sequence[Hunk], verdicts: Sequence[Verdict], old: bytes, new: bytes
) -> Audit | None:
    """The audit of a modified file's trivial hunks; None when there is nothing to
    audit (no such hunk, or a kind without a reading)."""
    if not wanted(kind, verdicts):
        return None
    meaning = MEANING[kind]
    chosen = [audited(verdict) for verdict in verdicts]
    old_lines, new_lines = lines_of(old), lines_of(new)
    rebuilt: list[str] = []
    done = 0
    for hunk, keep in zip(hunks, chosen, strict=True):
        start = hunk.old_start - 1 if hunk.old_count else hunk.old_start
        rebuilt += old_lines[done:start]
        if keep:
            rebuilt += old_lines[start : start + hunk.old_count]
        else:
            first = hunk.new_start - 1 if hunk.new_count else hunk.new_start
            rebuilt += new_lines[first : first + hunk.new_count]
        done = start + hunk.old_count
    rebuilt += old_lines[done:]
    shown = tuple(
        f"-{hunk.old_start},{hunk.old_count} +{hunk.new_start},{hunk.new_count} "
        + "+".join(verdict.reasons)
        for hunk, verdict, keep in zip(hunks, verdicts, chosen, strict=True)
        if keep
    )
    try:
        kept = meaning("".join(rebuilt)) == meaning("".join(new_lines))
    except Exception:  # any reader's error: not judged
        return Audit(None, all(chosen), shown)
    return Audit(kept, all(chosen), shown)


def lines_of(data: bytes) -> list[str]:
    """A blob's lines as git's diff numbers them: split at newlines only."""
    lines = [line + "\n" for line in data.decode("utf-8", "replace").split("\n")]
    lines[-1] = lines[-1][:-1]
    return lines if lines[-1] else lines[:-1]
