"""The anchors GitHub gives Markdown headings.

GitHub lower-cases the heading's rendered text, removes every character that is
not a letter, a mark, a decimal digit, a connector (`_`), a space or a hyphen,
and turns each space into a hyphen; a repeated slug gets `-1`, `-2`... in
document order. `Slugger` follows github-slugger, the reference implementation
of that rule, including what happens when a heading's own text ends in `-1`.
"""

from __future__ import annotations

import unicodedata

from gitreview.patterns import lazy_compile

# Ruby's \p{Word}, which GitHub's filter keeps: letters, marks, decimal digits,
# connector punctuation and the two join controls.
_KEPT_CATEGORIES = ("L", "M", "Nd", "Pc")
_JOIN_CONTROLS = frozenset("\u200c\u200d")


# What the rule takes out of ASCII text, lower-cased: letters, digits and `_` (the one
# connector) stay, with spaces and hyphens.
_ASCII_DROPPED = lazy_compile(r"[^a-z0-9_ -]")


def slugify(text: str) -> str:
    """The slug of one heading's rendered text, before duplicates are numbered."""
    if text.isascii():  # most headings: one substitution, not a lookup per character
        return _ASCII_DROPPED.sub("", text.lower()).replace(" ", "-")
    kept = (char for char in text.lower() if _kept(char))
    return "".join(kept).replace(" ", "-")


def _kept(char: str) -> bool:
    if char in " -" or char in _JOIN_CONTROLS:
        return True
    return unicodedata.category(char).startswith(_KEPT_CATEGORIES)


class Slugger:
    """Numbers repeated slugs within one document."""

    def __init__(self) -> None:
        self._seen: dict[str, int] = {}

    def slug(self, text: str) -> str:
        base = slug = slugify(text)
        while slug in self._seen:
            self._seen[base] += 1
            slug = f"{base}-{self._seen[base]}"
        self._seen[slug] = 0
        return slug
