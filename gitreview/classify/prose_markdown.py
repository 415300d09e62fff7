"""Markdown compared by meaning: the HTML a renderer makes of it, as a browser shows it.

The `reflow` and `typo` rules prove a Markdown hunk harmless the way mdformat proves
its own output (`_util.py::is_md_equal`): render the old file, and the old file with
only that hunk applied, and compare. The renderer is markdown-it-py with CommonMark
plus GitHub's extensions (tables, strikethrough, autolinks, task lists, alerts,
footnotes), the same on both sides; YAML front matter is
set apart and compared byte for byte. Text nodes are compared with runs of whitespace
as one space, as a browser lays them out, except where whitespace is shown (<pre>,
<code>, <textarea>...); tags and attributes are compared exactly.
"""

from __future__ import annotations

import functools
import importlib.util
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from gitreview.model import Hunk

if TYPE_CHECKING:
    from markdown_it import MarkdownIt

# Rendering costs about a second per megabyte: past these, no proof is attempted.
MAX_RENDERED_CHARS = 300_000  # one side of one file
RENDERED_CHARS_PER_FILE = 2_000_000  # one render per hunk, all hunks of a file

# Elements in which a browser shows whitespace as it is.
_SHOWN_WHITESPACE = frozenset({"pre", "code", "textarea", "script", "style", "listing", "xmp"})
_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
_PIECE = re.compile(r"<!--.*?-->|<[A-Za-z/!?](?:[^>\"']|\"[^\"]*\"|'[^']*')*>", re.DOTALL)
_TAG_NAME = re.compile(r"</?([A-Za-z][A-Za-z0-9-]*)")
_HTML_SPACE = re.compile(r"[ \t\n\r\f]+")
_LINE_BREAK = re.compile(r"\r\n?|\n")

Where = Literal["text", "shown", "heading"]


class Piece(NamedTuple):
    """A tag, or a text node normalized as a browser lays it out unless `where` is
    "shown" (whitespace is visible there, so the text is exact)."""

    tag: bool
    value: str
    where: Where = "text"


def patched(old_text: str, hunk: Hunk) -> str | None:
    """The old file with only `hunk` applied; None if the hunk does not fit it."""
    lines = old_text.split("\n")
    old_side = [line for line in hunk.lines if line.origin != "+"]
    numbers = [line.old_no for line in old_side if line.old_no is not None]
    if not numbers or len(numbers) != len(old_side):
        return None
    first, last = numbers[0], numbers[-1]
    if numbers != list(range(first, last + 1)) or last > len(lines):
        return None
    # Line `n` of the old file ends with "\n" unless it is the last piece of the split.
    if any(
        (line.text, line.newline) != (lines[n - 1], n < len(lines))
        for line, n in zip(old_side, numbers, strict=True)
    ):
        return None
    new_side = "".join(
        line.text + ("\n" if line.newline else "") for line in hunk.lines if line.origin != "-"
    )
    before = "".join(line + "\n" for line in lines[: first - 1])
    after = "\n".join(lines[last:])
    return before + new_side + after


def affordable(old_text: str, new_text: str, hunks: int) -> bool:
    """Whether a file may be rendered once per hunk: a pure function of the file, so
    that the same range always gives the same manifest."""
    longest = max(len(old_text), len(new_text))
    return longest <= MAX_RENDERED_CHARS and longest * hunks <= RENDERED_CHARS_PER_FILE


def pieces(text: str) -> tuple[Piece, ...]:
    """The HTML of Markdown `text`, as tags and normalized text nodes."""
    # The renderer's own line breaks (a lone CR is one), so that front matter lines are
    # its lines.
    return _normalize(_renderer().render(text, {"lines": _LINE_BREAK.split(text)}))


def _normalize(rendered: str) -> tuple[Piece, ...]:
    if "white-space" in rendered.lower():
        # CSS can make any element show whitespace: compare everything exactly.
        return (Piece(False, rendered, "shown"),)
    out: list[Piece] = []
    open_shown: dict[str, int] = {}  # elements showing whitespace, by name, still open
    headings = 0
    position = 0
    for match in _PIECE.finditer(rendered):
        where: Where = "shown" if any(open_shown.values()) else "heading" if headings else "text"
        _text(out, rendered[position : match.start()], where)
        tag = match.group()
        out.append(Piece(True, tag))
        position = match.end()
        name_match = _TAG_NAME.match(tag)
        if name_match is None or tag.endswith("/>"):
            continue
        name, closing = name_match.group(1).lower(), tag.startswith("</")
        if name in _SHOWN_WHITESPACE:
            open_shown[name] = max(0, open_shown.get(name, 0) + (-1 if closing else 1))
        elif name in _HEADINGS:
            headings = max(0, headings + (-1 if closing else 1))
    where = "shown" if any(open_shown.values()) else "heading" if headings else "text"
    _text(out, rendered[position:], where)
    return tuple(out)


def _text(out: list[Piece], text: str, where: Where) -> None:
    if text:
        out.append(Piece(False, text if where == "shown" else _HTML_SPACE.sub(" ", text), where))


@functools.cache
def _renderer() -> MarkdownIt:
    """One parser for both sides, as close to GitHub's as the installed plugins allow."""
    from markdown_it import MarkdownIt  # imported when a hunk gets this far: start-up
    from mdit_py_plugins.front_matter import front_matter_plugin

    parser = MarkdownIt("commonmark")
    try:
        from mdit_py_plugins.gfm import gfm_plugin

        # Tables, strikethrough, autolinks, task lists, alerts, footnotes.
        parser.use(gfm_plugin)
    except (ImportError, RuntimeError):  # older markdown-it-py or mdit-py-plugins
        parser = _gfm_by_parts()
    parser.use(front_matter_plugin)
    parser.add_render_rule("front_matter", _front_matter)
    return parser


def _gfm_by_parts() -> MarkdownIt:
    """GitHub's extensions one by one, where the composite plugin is not installed."""
    from markdown_it import MarkdownIt
    from mdit_py_plugins.footnote import footnote_plugin
    from mdit_py_plugins.tasklists import tasklists_plugin

    if importlib.util.find_spec("linkify_it") is not None:  # bare URLs as links, as on GitHub
        parser = MarkdownIt("commonmark", {"linkify": True}).enable("linkify")
    else:
        parser = MarkdownIt("commonmark")
    parser.enable(["table", "strikethrough"])
    return parser.use(tasklists_plugin).use(footnote_plugin)


def _front_matter(
    renderer: Any, tokens: Sequence[Any], index: int, options: Any, env: dict[str, Any]
) -> str:
    """YAML front matter, delimiters included, as exact text: its whitespace is syntax."""
    import html

    first, last = tokens[index].map
    source = "\n".join(env["lines"][first:last])
    return f'<pre data-front-matter="">{html.escape(source)}</pre>\n'
