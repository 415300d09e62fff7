"""Markdown pages by their names: which paths are pages, and the forms of a page's
file name that a link to it holds, which links elsewhere are searched for
(analyze/links.py). Apart from the analyzers, so that the search can start
before they are loaded: git searches the pages while they are (issue 12)."""

from __future__ import annotations

import posixpath
import re
from urllib.parse import quote

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
