"""Markdown compared by meaning: the HTML a renderer makes of it, as a browser shows it.

The `reflow` and `typo` rules prove a Markdown hunk harmless the way mdformat proves
its own output (`_util.py::is_md_equal`): render the old file, and the old file with
only that hunk applied, and compare; then the new file, and the new file with only
that hunk undone (the other hunks may change what it means: a code fence they leave
open makes the hunk's whitespace content). The renderer is markdown-it-py with CommonMark
plus GitHub's extensions (tables, strikethrough, autolinks, task lists, alerts,
footnotes), the same on both sides; YAML front matter is
set apart and compared byte for byte. Text nodes are compared with runs of whitespace
as one space, as a browser lays them out, except where whitespace is shown (<pre>,
<code>, <textarea>...); tags and attributes are compared exactly.

Both files are the same but for the hunk, so where the old file's top-level blocks
can be rendered apart, only the blocks around the hunk are rendered on each side
(`hunk_sides`): a file's hunks then cost what they change, not the file each
(issue 12).
"""

from __future__ import annotations

import bisect
import functools
import importlib.util
import re
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from gitreview.model import Hunk
from gitreview.patterns import lazy_compile

if TYPE_CHECKING:
    from markdown_it import MarkdownIt

# Rendering costs about a second per megabyte: past these, no proof is attempted.
MAX_RENDERED_CHARS = 300_000  # one side of one file
RENDERED_CHARS_PER_FILE = 2_000_000  # the longest side times the hunks of a file

# Elements in which a browser shows whitespace as it is.
_SHOWN_WHITESPACE = frozenset({"pre", "code", "textarea", "script", "style", "listing", "xmp"})
_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
_PIECE = lazy_compile(r"<!--.*?-->|<[A-Za-z/!?](?:[^>\"']|\"[^\"]*\"|'[^']*')*>", re.DOTALL)
_TAG_NAME = lazy_compile(r"</?([A-Za-z][A-Za-z0-9-]*)")
_HTML_SPACE = lazy_compile(r"[ \t\n\r\f]+")
_LINE_BREAK = lazy_compile(r"\r\n?|\n")

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
    """Whether a file may be rendered once per hunk in each of its sides (where the
    blocks around a hunk cannot be rendered apart): a pure function of the file, so
    that the same range always gives the same manifest."""
    longest = max(len(old_text), len(new_text))
    return longest <= MAX_RENDERED_CHARS and longest * hunks <= RENDERED_CHARS_PER_FILE


def pieces(text: str) -> tuple[Piece, ...]:
    """The HTML of Markdown `text`, as tags and normalized text nodes."""
    return _normalize(_renderer().render(text, _env(text)))


class Rendered(NamedTuple):
    """A file's pieces, and the lines where a hunk's blocks may be cut from the rest."""

    pieces: tuple[Piece, ...]
    # Lines (0-based) where a top-level block starts after a blank line, and so where
    # the blocks before are closed whatever comes next (after a line of text, a block
    # may start only because of the line after it: a table's header row), in order;
    # None when the file's blocks cannot be rendered apart (`_apart`).
    cuts: tuple[int, ...] | None


def rendered(text: str) -> Rendered:
    """The file `text`, rendered whole once, with where it may be cut."""
    parser, env = _renderer(), _env(text)
    tokens = parser.parse(text, env)
    html = parser.renderer.render(tokens, parser.options, env)
    if "\r" in text or not _apart(tokens, env, html, front_matter=True):
        return Rendered(_normalize(html), None)
    lines = text.split("\n")
    cuts = [line for _, line in _block_starts(tokens) if line > 0 and _blank(lines[line - 1])]
    return Rendered(_normalize(html), tuple(cuts))


Sides = tuple[tuple[Piece, ...], tuple[Piece, ...]]


def hunk_sides(old_text: str, old: Rendered, hunk: Hunk) -> Sides | None:
    """The pieces of the old file and of the old file with only `hunk` applied, as far
    as they can differ: the pieces of the blocks around the hunk on each side when the
    file can be cut there, else of both files whole. The rest of the two files is the
    same text, cut where every block before is closed, so it renders to the same
    pieces on both sides: comparing the blocks compares the files. None when the hunk
    does not fit the file."""
    new_text = patched(old_text, hunk)
    if new_text is None:
        return None
    window = None if old.cuts is None else _window(old.cuts, old_text, hunk)
    if window is not None:
        first, stop, grown = window
        old_lines, new_lines = old_text.split("\n"), new_text.split("\n")
        before = _block_pieces(old_lines, first, stop)
        after = _block_pieces(new_lines, first, stop + grown)
        if before is not None and after is not None:
            return before, after
    return old.pieces, pieces(new_text)


def _window(cuts: Sequence[int], old_text: str, hunk: Hunk) -> tuple[int, int, int] | None:
    """The old file's lines [first, stop) around the hunk's changes, between two cuts
    (or an end of the file), and how many lines the hunk adds to them; None when they
    are half the file or more: rendering them on both sides would cost more than
    rendering the patched file whole (the old one is rendered whole already)."""
    numbers = [line.old_no for line in hunk.lines if line.origin != "+"]
    first_no, last_no = numbers[0], numbers[-1]  # `patched` checked they are there
    assert first_no is not None and last_no is not None
    origins = [line.origin for line in hunk.lines]
    leading = next(i for i, origin in enumerate(origins) if origin != " ")
    trailing = next(i for i, origin in enumerate(reversed(origins)) if origin != " ")
    changed_from = first_no - 1 + leading  # the first old line the hunk touches, 0-based
    changed_to = last_no - trailing  # and the old line after its last change
    before, after = bisect.bisect_left(cuts, changed_from), bisect.bisect_right(cuts, changed_to)
    count = old_text.count("\n") + (not old_text.endswith("\n"))  # the renderer's lines
    first = cuts[before - 1] if before else 0
    stop = cuts[after] if after < len(cuts) else count
    if 2 * (stop - first) >= count:
        return None
    grown = sum(line.origin == "+" for line in hunk.lines) - sum(
        line.origin == "-" for line in hunk.lines
    )
    return first, stop, grown


def _block_pieces(lines: Sequence[str], first: int, stop: int) -> tuple[Piece, ...] | None:
    """The pieces of the top-level blocks of `lines` [first, stop), rendered on their
    own: `first` is a cut (or 0), and the line at `stop` (if any) is read too, to see
    that a block starts there, so that every block before it is closed (an open fence
    or HTML block, a list the next line goes on with). None when that cannot be seen."""
    ends = stop < len(lines) and not (stop == len(lines) - 1 and lines[stop] == "")
    text = "\n".join(lines[first : stop + 1] if ends else lines[first:])
    if "\r" in text:  # a line break of the renderer's, not git's: the lines would differ
        return None
    parser, env = _renderer(), _env(text)
    tokens = parser.parse(text, env)
    if ends:
        start = stop - first
        cut = next(((i, line) for i, line in _block_starts(tokens) if line >= start), None)
        if cut is None or cut[1] != start:
            return None
        tokens = tokens[: cut[0]]
    html = parser.renderer.render(tokens, parser.options, env)
    if not _apart(tokens, env, html, front_matter=first == 0):
        return None
    return _normalize(html)


def _apart(tokens: Sequence[Any], env: dict[str, Any], html: str, *, front_matter: bool) -> bool:
    """Whether these blocks render the same on their own as among other blocks: no
    raw HTML (a tag or a comment left open goes on into the next blocks), no reference
    definition or footnote (they link across the file), no front matter but at the
    file's start, and no "white-space" (which makes the whole file compared exactly)."""
    if env.get("references"):
        return False
    notes = env.get("footnotes")
    if notes and (notes.get("refs") or notes.get("list")):
        return False
    if "white-space" in html.lower():
        return False
    for token in tokens:
        if token.type == "html_block" or (token.type == "front_matter" and not front_matter):
            return False
        if token.children and any(child.type == "html_inline" for child in token.children):
            return False
    return True


def _block_starts(tokens: Sequence[Any]) -> Iterator[tuple[int, int]]:
    """Each top-level block's first token and first line."""
    for index, token in enumerate(tokens):
        if token.level == 0 and token.nesting >= 0 and token.map:
            yield index, token.map[0]


def _blank(line: str) -> bool:
    return not line.strip(" \t")


def _env(text: str) -> dict[str, Any]:
    # The renderer's own line breaks (a lone CR is one), so that front matter lines are
    # its lines.
    return {"lines": _LINE_BREAK.split(text)}


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
    """A text node: whitespace as a browser shows it, except where it is shown and in
    a heading, whose anchor is made from its text (`Install the` then `tool` on the
    next line is `#install-thetool`)."""
    if text:
        exact = where in ("shown", "heading")
        out.append(Piece(False, text if exact else _HTML_SPACE.sub(" ", text), where))


@functools.cache
def _renderer() -> MarkdownIt:
    """One parser for both sides, as close to GitHub's as the installed plugins allow."""
    from markdown_it import MarkdownIt  # imported when a hunk gets this far: start-up
    from mdit_py_plugins.front_matter import front_matter_plugin

    from gitreview.analyze.markdown_doc import compiled

    parser = MarkdownIt("commonmark")
    try:
        from mdit_py_plugins.gfm import gfm_plugin

        # Tables, strikethrough, autolinks, task lists, alerts, footnotes.
        parser.use(gfm_plugin)
    except (ImportError, RuntimeError):  # older markdown-it-py or mdit-py-plugins
        parser = _gfm_by_parts()
    parser.use(front_matter_plugin)
    parser.add_render_rule("front_matter", _front_matter)
    return compiled(parser)


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
