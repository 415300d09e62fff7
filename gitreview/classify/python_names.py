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
differ in meaning: the comparison would say so, and
the formatting rule needs no parse to. A file none of whose hunks needs the
comparison never has its base parsed: most of a large range's Python edits rename
or renumber something.

The answer is "differs" or "not known": never "the same". Whatever this module
cannot read surely (a non-ASCII name, which Python normalizes; a number Python
would not take; a string the lexer is unsure of) makes the file not known.
"""

from __future__ import annotations

import bisect
import itertools
import keyword
import re
from collections import Counter
from collections.abc import Sequence

from gitreview.analyze import lexers
from gitreview.model import Hunk, origins_of

# A number (its digits, dots and letters, and a sign after an exponent's e), or a
# name; a name right before a quote is a string's prefix (`rb"..."`).
_TOKEN = re.compile(
    r"(?P<number>(?<![\w.])\.?\d(?:[\w.]|(?<=[eE])[+-])*)|(?P<name>(?<!\w)[A-Za-z_]\w*)(?![\w'\"])",
    re.ASCII,
)
# Keywords are no nodes (`elif` is `else: if`); soft keywords and `_` may be either.
_NOT_NAMES = frozenset(keyword.kwlist) | {"_", "case", "match", "type"}
Token = tuple[str, str]  # ("name", text) or (type, repr of the value)


class Side:
    """One side's text, lexed once: where each line starts, and its strings and
    comments (shared with the statement comparison's own reading of comments)."""

    __slots__ = ("comments", "scan", "starts", "strings", "sure", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = [0, *itertools.accumulate(len(line) + 1 for line in text.split("\n"))]
        self.scan = lexers.scan("python", text)
        scan = self.scan
        self.sure = not (scan.give_up or scan.confused or scan.rest_from is not None)
        self.strings = [start for start, _ in scan.strings]
        self.comments = [start for start, _ in scan.comments]

    def code(self, number: int) -> str | None:
        """Line `number` (1-based) with its strings and comments blanked: a string
        becomes quotes (a prefix still stands before one), a comment spaces. None
        when the code holds a character a name may be normalized from."""
        start, end = self.starts[number - 1], self.starts[number] - 1
        line = self.text[start:end]
        for spans, firsts, fill in (
            (self.scan.strings, self.strings, '"'),
            (self.scan.comments, self.comments, " "),
        ):
            index = max(bisect.bisect_right(firsts, start) - 1, 0)
            while index < len(spans) and spans[index][0] < end:
                first, last = max(spans[index][0], start), min(spans[index][1], end)
                if first < last:
                    line = line[: first - start] + fill * (last - first) + line[last - start :]
                index += 1
        return line if line.isascii() else None


def differing(hunks: Sequence[Hunk], old: Side, new: Side) -> list[bool] | None:
    """For each hunk, whether its changed lines tell that the trees differ around
    it: they hold a name or number that no changed line on the other side of the
    file holds, or hold one a different number of times on each side that no other
    hunk holds. None when a side cannot be read surely."""
    if not (old.sure and new.sure):
        return None
    counts: list[tuple[Counter[Token], Counter[Token]]] = []
    for hunk in hunks:
        removed: Counter[Token] = Counter()
        added: Counter[Token] = Counter()
        old_no, new_no = hunk.old_start, hunk.new_start
        for origin in origins_of(hunk.lines):
            if origin == "-":
                if not _count(old.code(old_no), removed):
                    return None
                old_no += 1
            elif origin == "+":
                if not _count(new.code(new_no), added):
                    return None
                new_no += 1
            else:
                old_no += 1
                new_no += 1
        counts.append((removed, added))
    all_removed = {token for removed, _ in counts for token in removed}
    all_added = {token for _, added in counts for token in added}
    holders = Counter(token for removed, added in counts for token in removed.keys() | added.keys())
    return [
        not removed.keys() <= all_added
        or not added.keys() <= all_removed
        or any(removed[t] != added[t] and holders[t] == 1 for t in removed.keys() | added.keys())
        for removed, added in counts
    ]


def _count(code: str | None, into: Counter[Token]) -> bool:
    """The line's names and numbers counted; False when one cannot be read surely."""
    if code is None:
        return False
    for found in _TOKEN.finditer(code):
        name = found.group("name")
        if name is not None:
            if name not in _NOT_NAMES:
                into[("name", name)] += 1
            continue
        value = _number(found.group("number"))
        if value is None:
            return False
        into[(type(value).__name__, repr(value))] += 1
    return True


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
