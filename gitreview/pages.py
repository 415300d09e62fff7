"""Markdown pages by their names: which paths are pages, and the forms of a page's
file name that a link to it holds, which links elsewhere are searched for
(analyze/links.py). Apart from the analyzers, so that the search can start
before they are loaded: git searches the pages while they are (issue 12)."""

from __future__ import annotations

import posixpath
import re
from urllib.parse import quote

from gitreview.patterns import lazy_compile

MARKDOWN_SUFFIXES = (".md", ".markdown", ".mdx")


def is_markdown(path: str) -> bool:
    return path.lower().endswith(MARKDOWN_SUFFIXES)


def name_forms(path: str) -> tuple[str, ...]:
    """The forms of the file name a link to `path` holds, as written, percent-escaped
    (either case of hex digit) or with Markdown's backslash before `_` and `*`: what
    links elsewhere are searched for. Rarer spellings (an escaped letter, an entity)
    are not looked for."""
    name = posixpath.basename(path)
    escaped = quote(name)
    lower_hex = re.sub(r"%[0-9A-F]{2}", lambda match: match.group().lower(), escaped)
    backslashed = re.sub(r"([_*])", r"\\\1", name)
    return tuple(dict.fromkeys((name, escaped, lower_hex, backslashed)))


# The pages' index (page_index.py) keeps, for each page, the runs of name characters
# that end with a Markdown suffix (in any case): `git grep -o -P` finds them with
# this pattern, and Python with the same. A name a link holds is found in a page
# only where the character before it is no name character, so its lead (what
# follows its last character outside the runs) begins a run of that page, which
# holds it up to a suffix: a page naming a lost file has a run its lead begins.
# Only ASCII characters make runs: no case-folding engine may stretch one.
_NAME_CHARACTERS = "[A-Za-z0-9_.-]"
NAME_RUN = _NAME_CHARACTERS + "*\\.(?:{})".format(
    "|".join(
        "".join(f"[{c.upper()}{c}]" for c in suffix[1:])
        for suffix in sorted(MARKDOWN_SUFFIXES, key=len, reverse=True)  # .mdx before .md
    )
)
_NAME_RUNS = lazy_compile(NAME_RUN.encode("ascii"))
_OUTSIDE_RUNS = lazy_compile(f"(?s).*[^{_NAME_CHARACTERS[1:-1]}]")


def name_runs(data: bytes) -> set[str]:
    """The runs of name characters in a page that end with a Markdown suffix, each
    up to its last suffix (as `git grep -o -P NAME_RUN` prints them)."""
    return {run.decode("ascii") for run in _NAME_RUNS.findall(data)}


def lead(name: str) -> str:
    """What of `name` a run holds: all of it after its last character that is not a
    name character (`lead("my page.md") == "page.md"`)."""
    return _OUTSIDE_RUNS.sub("", name, count=1)
