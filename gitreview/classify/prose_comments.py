"""Where a changed word sits in code: inside a comment, or anywhere else.

The `typo` rule accepts a fix in code only inside comments. Which characters are
comment comes from the lexer run over the whole file (a line inside a block comment
is comment even though lexing it alone would call it code), and the lines the
lexical rules call literal or doubtful (multi-line strings, a JavaScript slash that
may open a regular expression) are refused outright. Strings are never prose here:
a docstring or a message is data the program uses.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass

from gitreview.analyze import lexers

KINDS = lexers.SCANNED

# Comments that tools read: pragmas, linters' and type checkers' switches, build
# constraints, encodings, shebangs, doc tags (`@param name` names a parameter).
_DIRECTIVE = re.compile(
    r"noqa|nolint|nosec|pragma|type:|pylint|pyright|mypy|ruff|isort|fmt:|coverage|"
    r"eslint|jshint|jslint|tslint|prettier|istanbul|clang-|cppcheck|sourcemappingurl|"
    r"__pure__|-\*-|@|\+build|^\W*(?:go:|line |export |extern |global )|^#!",
    re.IGNORECASE,
)
# Characters prose hardly uses and code does: commented-out code, doctests, examples.
CODE_LIKE = re.compile(r"[=;{}<>$\\`]|::|->")


@dataclass(frozen=True)
class Comments:
    """Where the comments of one side of a file are."""

    text: str
    line_starts: tuple[int, ...]  # offset of each line's first character
    starts: tuple[int, ...]  # comment spans, sorted
    ends: tuple[int, ...]


def comments(kind: str, text: str) -> Comments | None:
    """The comment spans of a whole file; None when the lexer is unsure of it."""
    found = lexers.scan(kind, text)
    if found.give_up or found.rest_from is not None:
        return None
    line_starts = [0] + [match.end() for match in re.finditer("\n", text)]
    spans = sorted(found.comments)
    starts, ends = tuple(s for s, _ in spans), tuple(e for _, e in spans)
    return Comments(text, tuple(line_starts), starts, ends)


def in_prose_comment(comments: Comments, line: int, start: int, end: int) -> bool:
    """Whether characters `start:end` of line `line` are inside one comment, and that
    comment (on this line) is prose: not one that tools read, nor one that reads like code."""
    text = comments.text
    if line > len(comments.line_starts):
        return False
    base = comments.line_starts[line - 1]
    index = bisect_right(comments.starts, base + start) - 1
    if index < 0 or comments.ends[index] < base + end:
        return False
    eol = text.find("\n", base)
    eol = len(text) if eol < 0 else eol
    piece = text[max(base, comments.starts[index]) : min(eol, comments.ends[index])]
    return not (_DIRECTIVE.search(piece) or CODE_LIKE.search(piece))
