"""Plain-text prose (.txt, .rst, .adoc): where line breaks and words carry structure.

No renderer reads these files the same way, so instead of comparing by meaning we
refuse any change that touches a line that starts, ends or names a construct: list
items, section titles and their underlines, directives, fields, attributes, block
delimiters, indented blocks. The lexical rules already mark tables, listings and
indented lines as literal; these checks add the constructs made of ordinary lines.
"""

from __future__ import annotations

from collections.abc import Iterable

from gitreview.analyze.lexical import LIST_ITEM
from gitreview.patterns import lazy_compile

# A section underline or overline, a transition, a block delimiter: one punctuation
# character repeated.
_ADORNMENT = lazy_compile(r"([!-/:-@\[-`{-~])\1+\s*")
# Lines whose first characters give them a role: headings (`=`, `#`), reStructuredText
# directives, comments and targets (`..`), fields and AsciiDoc attributes (`:`), block
# attributes (`[`), comments (`//`), line blocks (`|`), quotes (`>`), continuations (`+`),
# AsciiDoc block titles (`.Title`).
_ROLE_START = lazy_compile(r"[=#:\[|>+]|\.\.|//|\.\w")
_ADMONITION = lazy_compile(r"[A-Z]{2,}:(?:\s|$)")  # AsciiDoc `NOTE: ...`
_ROLE_END = lazy_compile(r".*(?:::|\s\+)\s*$")  # a literal block follows; a hard line break


# What parts words: ASCII spaces and line ends only. A no-break space joins two words on
# the page (`pip\u00a0install` is no command a reader can copy), and so do the other
# spaces `str.split` would part at (found by an adversarial review: a space made a
# no-break space in a code span was `reflow`).
_SPACES = lazy_compile(r"[ \t\r\n]+")


def words_of(line: str) -> list[str]:
    """A line's words, parted where a reader sees words parted."""
    return [word for word in _SPACES.split(line) if word]


def paragraphs(lines: Iterable[str]) -> list[list[str]]:
    """The words of each paragraph (lines separated by blank lines)."""
    result: list[list[str]] = [[]]
    for line in lines:
        words = words_of(line)
        if words:
            result[-1] += words
        elif result[-1]:
            result.append([])
    return [words for words in result if words]


def reflow_is_structural(text: str, numbers: Iterable[int]) -> bool:
    """Whether any of the changed lines `numbers` of `text` could start, end or shape a
    construct when words move between lines."""
    lines = text.split("\n")
    for number in numbers:
        line = lines[number - 1].rstrip("\r")
        if not line.strip():
            continue  # blank lines are compared as paragraph breaks
        if line[0].isspace() or LIST_ITEM.match(line) or _names_something(line):
            return True
        # `term:: text` and `term;; text` are AsciiDoc description lists.
        if "::" in line or ";;" in line or _follows_title_or_block(lines, number):
            return True
    return False


def typo_names_something(text: str, numbers: Iterable[int]) -> bool:
    """Whether any of the changed lines is a title, a directive, a field or an attribute:
    their words are names (anchors, labels, options), where a typo fix breaks links."""
    lines = text.split("\n")
    return any(
        _names_something(lines[number - 1].rstrip("\r")) or _follows_title_or_block(lines, number)
        for number in numbers
    )


def _names_something(line: str) -> bool:
    return bool(
        _ROLE_START.match(line)
        or _ADMONITION.match(line)
        or _ROLE_END.match(line)
        or _ADORNMENT.fullmatch(line)
    )


def _follows_title_or_block(lines: list[str], number: int) -> bool:
    """Whether the line after line `number` underlines it (a title) or is indented (a
    definition, a quote or a literal block that this line introduces)."""
    if number >= len(lines):
        return False
    following = lines[number].rstrip("\r")
    return bool(_ADORNMENT.fullmatch(following)) or (
        bool(following.strip()) and following[0].isspace()
    )
