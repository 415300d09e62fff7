"""The names and numbers a Python hunk changes: where its trees cannot be the same,
told before any parse (issue 12).

Two texts whose trees the statement comparison finds the same (statements.py:
positions, string prefixes and docstrings' indentation aside) hold the same names
(identifiers outside strings and comments, keywords aside) and the same numbers
(by type and value: `0XFF` is `255`, `1.` is `1.0`, neither is `1`), as many
times each: each is one node of the tree. An f-string's holes, the only code
inside a string, are inside a string on both sides.

So where a hunk's removed lines hold a name or number that no added line of the
file holds (or the other way round), or hold it a different number of times than
its added lines where no other hunk holds it, the statements around that hunk
differ in meaning: the comparison would say so, and the formatting rule needs no
parse to. A file none of whose hunks needs the comparison never has its base
parsed: most Python edits rename or renumber something.

The answer is "differs" or "not known": never "the same". Whatever this module
cannot read surely (a non-ASCII name, which Python normalizes; a number Python
would not take; a string the lexer is unsure of) makes the file not known.
"""

from __future__ import annotations

import itertools
import keyword
import re
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import NamedTuple

from gitreview.analyze import lexers
from gitreview.model import Hunk, origins_of
from gitreview.patterns import lazy_compile

# A number (its digits, dots and letters, and a sign after an exponent's e), or a
# name; a name right before a quote is a string's prefix (`rb"..."`).
_TOKEN = lazy_compile(
    r"(?P<number>(?<![\w.])\.?\d(?:[\w.]|(?<=[eE])[+-])*)|(?P<name>(?<!\w)[A-Za-z_]\w*)(?![\w'\"])",
    re.ASCII,
)
# Keywords are no nodes (`elif` is `else: if`); soft keywords and `_` may be either.
_NOT_NAMES = frozenset(keyword.kwlist) | {"_", "case", "match", "type"}
Token = tuple[str, str]  # ("name", text) or (type, repr of the value)
_RUN = lazy_compile(r"-+|\++")  # a hunk's removed or added lines, side by side


class Side:
    """One side's text, lexed once: where each line starts, and its strings and
    comments (shared with the statement comparison's own reading of comments)."""

    __slots__ = ("_code", "scan", "starts", "sure", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = [0, *itertools.accumulate(len(line) + 1 for line in text.split("\n"))]
        self.scan = lexers.scan("python", text)
        scan = self.scan
        self.sure = not (scan.give_up or scan.confused or scan.rest_from is not None)
        self._code: str | None = None

    def code(self, first: int, last: int) -> str:
        """Lines `first` to `last` (1-based) with their strings and comments blanked,
        each character in place: a string becomes quotes (a prefix still stands
        before one), a comment spaces."""
        if self._code is None:
            spans = sorted(
                [(start, end, '"') for start, end in self.scan.strings]
                + [(start, end, " ") for start, end in self.scan.comments]
            )
            pieces, position = [], 0
            for start, end, fill in spans:
                pieces += [self.text[position:start], fill * (end - start)]
                position = end
            pieces.append(self.text[position:])
            self._code = "".join(pieces)
        return self._code[self.starts[first - 1] : self.starts[last] - 1]


class Tokens(NamedTuple):
    """The names and numbers of a hunk's removed lines and of its added lines."""

    removed: Counter[Token]
    added: Counter[Token]


def read(hunk: Hunk, old: Side, new: Side) -> Tokens | None:
    """The hunk's names and numbers, side by side; None when they cannot be read
    surely (`Side.sure`, a non-ASCII name, a number Python would not take)."""
    if not (old.sure and new.sure):
        return None
    found: dict[str, Counter[tuple[str, str]]] = {"-": Counter(), "+": Counter()}
    for origin, first, last in _runs(hunk):
        code = (old if origin == "-" else new).code(first, last)
        if not code.isascii():  # a name Python would normalize (NFKC)
            return None
        found[origin].update(_TOKEN.findall(code))
    removed, added = _tokens(found["-"]), _tokens(found["+"])
    return None if removed is None or added is None else Tokens(removed, added)


def written_alike(hunk: Hunk, old: Side, new: Side) -> bool:
    """Whether the hunk's removed and added lines hold the same words and numbers as
    written, in strings and comments too: as a reformatted hunk does. Such a hunk
    most likely tells nothing, and is not worth its file's code blanked for `read`;
    the comparison, which it is left to, answers the same for it in any case."""
    found: dict[str, Counter[tuple[str, str]]] = {"-": Counter(), "+": Counter()}
    for origin, first, last in _runs(hunk):
        side = old if origin == "-" else new
        found[origin].update(_TOKEN.findall(side.text, side.starts[first - 1], side.starts[last]))
    return found["-"] == found["+"]


def _runs(hunk: Hunk) -> Iterator[tuple[str, int, int]]:
    """The hunk's runs of removed lines and of added lines: the origin, and the
    first and last line's numbers on its side."""
    origins = origins_of(hunk.lines)
    for run in _RUN.finditer(origins):
        at, origin = run.start(), run.group()[0]
        if origin == "-":
            first = hunk.old_start + at - origins.count("+", 0, at)
        else:
            first = hunk.new_start + at - origins.count("-", 0, at)
        yield origin, first, first + len(run.group()) - 1


def differing(hunks: Sequence[Tokens]) -> list[bool]:
    """For each hunk of a file, whether its lines tell that the trees differ around
    it: they hold a name or number that no changed line on the other side of the
    file holds, or hold one a different number of times on each side that no other
    hunk holds. (A hunk whose sides hold the same never tells.)"""
    all_removed = {token for hunk in hunks for token in hunk.removed}
    all_added = {token for hunk in hunks for token in hunk.added}
    holders = Counter(token for hunk in hunks for token in hunk.removed.keys() | hunk.added.keys())
    return [
        not removed.keys() <= all_added
        or not added.keys() <= all_removed
        or any(removed[t] != added[t] and holders[t] == 1 for t in removed.keys() | added.keys())
        for removed, added in hunks
    ]


def _tokens(found: Counter[tuple[str, str]]) -> Counter[Token] | None:
    """The names and numbers of what `_TOKEN` found, counted; None when a number
    cannot be read surely."""
    tokens: Counter[Token] = Counter()
    for (number, name), times in found.items():
        if name:
            if name not in _NOT_NAMES:
                tokens[("name", name)] += times
            continue
        value = _number(number)
        if value is None:
            return None
        tokens[(type(value).__name__, repr(value))] += times
    return tokens


def _number(text: str) -> int | float | complex | None:
    """The value Python reads from a numeric literal; None for what it would not
    take (`0777`, `1if`: then nothing is known)."""
    try:
        if text[-1] in "jJ":
            return complex(text)
        if text[:2].lower() in ("0x", "0o", "0b") or not any(c in text for c in ".eE"):
            return int(text, 0)
        return float(text)
    except ValueError:
        return None
