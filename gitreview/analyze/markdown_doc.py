"""A Markdown file as the Markdown analyzer sees it: headings, links, anchors, frontmatter.

Parsed with markdown-it-py (CommonMark with GitHub's tables, strikethrough and
footnotes, and front matter), so what sits in a code block or an HTML comment
is never a link or a heading. A page made only of simple blocks (headings,
paragraphs, quotes and list items one level deep) has its blocks read line by
line instead, to the tokens markdown-it makes of them (`_line_tokens`). Raw
HTML is read with the standard library's HTML parser for the `id` and `name`
anchors and the `href`/`src` links GitHub renders from it. Line numbers are
1-based, as git counts them.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Collection, Sequence
from typing import TYPE_CHECKING, NamedTuple

from gitreview.analyze.slugs import Slugger
from gitreview.patterns import lazy_compile

if TYPE_CHECKING:
    from markdown_it import MarkdownIt
    from markdown_it.rules_core import StateCore
    from markdown_it.token import Token

# markdown-it ends a line at a lone CR, git does not: a space keeps the line numbers git's.
_LONE_CR = lazy_compile("\r(?!\n)")
# Bare URLs GitHub turns into links (its autolink extension); counted, never checked.
_BARE_URL_STARTS = ("http://", "https://", "www.")


class Heading(NamedTuple):
    level: int
    text: str  # as written, inline markup included
    slug: str  # GitHub's anchor, numbered when repeated
    line: int
    end: int  # last line of the heading (a setext heading has two or more)


class Link(NamedTuple):
    target: str  # the destination as markdown-it normalised it (percent-encoded)
    line: int
    image: bool


class Frontmatter(NamedTuple):
    content: str
    first: int  # the opening `---`
    last: int  # the closing `---`


class Document(NamedTuple):
    headings: tuple[Heading, ...]
    links: tuple[Link, ...]
    anchors: frozenset[str]  # explicit `id=` and `<a name=...>` anchors from raw HTML
    frontmatter: Frontmatter | None
    external_links: int
    lines: tuple[str, ...]

    def anchor_names(self) -> frozenset[str]:
        """Every fragment that lands somewhere in this file, lower-cased (GitHub's
        script falls back to the lower-cased fragment, so case never breaks a link)."""
        names = {heading.slug for heading in self.headings} | set(self.anchors)
        # An id a heading gives itself (`## Usage {#ch-usage}`: mdBook, Docusaurus, Hugo,
        # Pandoc, MkDocs' attr_list; `{: #ch-usage}`), which its site renders, besides the
        # slug GitHub makes of the whole text (found by an adversarial review: the links
        # a site's migration fixed were broken anchors).
        for heading in self.headings:
            if "{" in heading.text and (found := _HEADING_ID.search(heading.text)):
                names.add(found[1])
        return frozenset(name.lower() for name in names)


_HEADING_ID = lazy_compile(r"\{:?[ \t]*#([A-Za-z][\w:.-]*)(?:[ \t][^{}]*)?\}[ \t]*$")


@functools.cache
def _parser(every_inline: bool = False) -> MarkdownIt:
    # Imported here: start-up time matters for small pushes (see lexical.py).
    from markdown_it import MarkdownIt
    from mdit_py_plugins.footnote import footnote_plugin
    from mdit_py_plugins.front_matter import front_matter_plugin

    # Footnotes matter: without them `[^1]: note` is a reference definition and
    # `[^1]` a link to "note".
    parser = MarkdownIt("commonmark").enable(["table", "strikethrough"])
    if not every_inline:
        parser.core.ruler.at("inline", _inline_that_matters)
    return compiled(parser.use(front_matter_plugin).use(footnote_plugin))


def compiled(parser: MarkdownIt) -> MarkdownIt:
    """The parser with its rule chains compiled now: markdown-it compiles them at
    the first parse, one by one, and a proof stopped there (verdicts.deadline) would
    leave them half made for the next request of a long-lived process (`mcp`)."""
    parser.parse("[x](y)\n")
    return parser


def load_parser() -> None:
    """Import and set up markdown-it now, ahead of a page that will need it."""
    _parser()


def parse(text: str, *, every_inline: bool = False) -> Document:
    """The document `text` holds. Its blocks are read line by line where its lines
    allow (`_blocks_line_by_line`), made a Document without tokens where their inline
    content is plain (`_plain_document`), and inline markup is parsed only where it
    can hold what a Document keeps (issue 12: parsing was most of a run over a
    documentation repository); `every_inline` has markdown-it parse it all, as the
    check of the others."""
    text, lines = _page(text)
    blocks = None if every_inline else _blocks_line_by_line(text, lines)
    if blocks is None:
        tokens = _parser(every_inline).parse(text)
    else:
        document = _plain_document(blocks, lines)
        if document is not None:
            return document
        tokens = _line_tokens(text, blocks)
    reader = _read(tokens)
    return Document(
        headings=tuple(reader.headings),
        links=tuple(reader.links),
        anchors=frozenset(reader.anchors),
        frontmatter=reader.frontmatter,
        external_links=reader.external,
        lines=tuple(lines),
    )


def links_naming(text: str, names: Collection[str]) -> tuple[Link, ...]:
    """The links of `text` among which is every link whose destination holds one of
    `names` as written: of a page whose blocks are read line by line, only the blocks
    that hold a name are parsed (links elsewhere read every page that names a page the
    range lost, and most of their links lead elsewhere: issue 12)."""
    text, lines = _page(text)
    blocks = _blocks_line_by_line(text, lines)
    if blocks is None:
        return parse(text).links
    # A block's inline content is parsed on its own either way: without reference
    # definitions or footnotes (the line reader reads no page with them), a block's
    # links are its own.
    naming = [block for block in blocks if any(name in block[3] for name in names)]
    if not naming:
        return ()
    plain = _plain_document(naming, lines)
    if plain is not None:
        return plain.links
    return tuple(_read(_line_tokens(text, naming)).links)


def _page(text: str) -> tuple[str, list[str]]:
    """The text as markdown-it reads it (a lone CR made a space, see _LONE_CR), and its
    lines."""
    if "\r" in text:
        text = _LONE_CR.sub(" ", text)
    return text, _lines(text)


def _read(tokens: Sequence[Token]) -> _Reader:
    reader = _Reader()
    for index, token in enumerate(tokens):
        reader.read(token, tokens, index)
    return reader


# --- Blocks read line by line (issue 12) ----------------------------------------------
# Most pages of a documentation repository are ATX headings, paragraphs, one-level quotes
# and list items, each block's lines of one sort, blocks apart by a blank line where
# they are of one sort. Such a page's blocks are read here, each line alone, to the
# tokens markdown-it's block parser makes of them (a third of a run over such a
# repository); their inline content still goes to markdown-it. Anything else goes to
# markdown-it whole: whatever `_entangled` finds (indented lines, fences, HTML, tables,
# setext headings, front matter), a reference definition, a footnote, a thematic break,
# a nested or empty block, and any two adjacent lines of different sorts (a lazy
# continuation, a list interrupting a paragraph).

# What a block's content may start with: nothing that opens a block (a list marker,
# `>`, `#`, a fence, `<`, a thematic break, a tab or space) or a construct the line
# reader leaves to markdown-it (`\`, `&`, `*`, `_`...).
_PLAIN = lazy_compile(r"[^\W_]|[`\[!(\"'{]")
_LIST_START = lazy_compile(r"(?:[-*+]|[0-9]{1,9}[.)])(?:[ \t]|$)")
_ITEM = lazy_compile(r"(?:([-*+])|[0-9]{1,9}([.)])) ")
_ITEM_SORTS = frozenset("-*+.)")  # one block per item, even next to an item of its list
_UNREAD = ("]:", "^[", "\0")  # a reference definition, an inline footnote, NUL


# A block: its tag ("h1".."h6", or "p" for inline content in a paragraph, a quote or a
# list item), first line and line after it (0-based), and content.
_Block = tuple[str, int, int, str]


def read_line_by_line(text: str) -> bool:
    """Whether `parse` reads the blocks of `text` line by line (a check's question)."""
    return _blocks_line_by_line(text, _lines(text)) is not None


def _blocks_line_by_line(text: str, lines: Sequence[str]) -> list[_Block] | None:
    """The blocks of `text` when they can be read line by line; None when they cannot."""
    if _entangled(text) or any(sign in text for sign in _UNREAD):
        return None
    return _line_blocks(lines)


# The whitespace markdown-it trims from a block's inline content (its `mdTrim`), here so
# that a page read without markdown-it does not import it (start-up time of a push).
_TRIMMED = (
    "\t\n\x0b\x0c\r \xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009"
    "\u200a\u2028\u2029\u202f\u205f\u3000"
)


def _plain_document(blocks: Sequence[_Block], lines: Sequence[str]) -> Document | None:
    """The Document of blocks read line by line, when no block's inline content needs
    markdown-it: headings without markup, and text without a link, an image, raw HTML
    or a bare URL but for one web autolink (`_inline_that_matters` would parse none of
    it), or made only of plain words and simple links (`_simple_links`). None when
    some content needs markdown-it. Most pages of a documentation repository are such
    pages, read without a token (issue 12)."""
    headings: list[Heading] = []
    links: list[Link] = []
    slugger = Slugger()
    external = 0
    for tag, first, stop, untrimmed in blocks:
        content = untrimmed.strip(_TRIMMED)
        if tag != "p":
            if _MARKUP.search(content):
                return None
            # What markdown-it makes of a heading without markup: its text, whole, in
            # which a bare URL is counted as in any text.
            words = content.split()
            level, text = int(tag[1:]), " ".join(words)
            headings.append(Heading(level, text, slugger.slug(content), first + 1, stop))
            external += sum(word.startswith(_BARE_URL_STARTS) for word in words)
            continue
        bare = _outside_code_spans(content)
        if bare is None:
            return None
        if not _may_hold_links(bare, False):
            continue
        if _lone_autolink(bare, False):
            external += 1
            continue
        simple = _simple_links(content)
        if simple is None:
            return None
        for target, offset in simple[0]:
            links.append(Link(target, first + 1 + offset, image=False))
        external += simple[1]
    return Document(tuple(headings), tuple(links), frozenset(), None, external, tuple(lines))


# A link whose tokens are known without parsing: `[text](destination)`, its text free
# of markup (it may go on over lines), its destination a relative path or an http(s)
# URL of characters markdown-it keeps as written (no space, title, parenthesis, quote,
# percent-escape or `@`).
_SIMPLE_LINK = lazy_compile(r"\[([^\[\]`\\<>&!*_~^]*)\]\(((?:https?://)?[A-Za-z0-9./#?=+,;$~-]+)\)")
# What, between such links, could make a token of its own: brackets, code, escapes,
# tags, entities, images, emphasis (its delimiters split the text a bare URL is
# counted in).
_NOT_PLAIN = lazy_compile(r"[\[\]`\\<>&!*_~^]")


def _simple_links(content: str) -> tuple[list[tuple[str, int]], int] | None:
    """The links of inline content made only of plain words and simple links (each
    link's target and its line within the content), and its external links and bare
    URLs, counted as `_Reader` counts them; None when the content holds anything
    else."""
    found: list[tuple[str, int]] = []
    external = position = 0
    line = counted = 0  # the line breaks before `counted`: counted on from the last link
    for match in _SIMPLE_LINK.finditer(content):
        plain = content[position : match.start()]
        if _NOT_PLAIN.search(plain):
            return None
        external += sum(word.startswith(_BARE_URL_STARTS) for word in plain.split())
        target = match.group(2)
        if is_external(target):
            external += 1
        else:
            # (From the content's start for each link, a paragraph of 175,000 links took
            # a minute: found by an adversarial review.)
            line += content.count("\n", counted, match.start())
            counted = match.start()
            found.append((target, line))
        position = match.end()
    rest = content[position:]
    if _NOT_PLAIN.search(rest):
        return None
    external += sum(word.startswith(_BARE_URL_STARTS) for word in rest.split())
    return found, external


def _line_tokens(text: str, blocks: Sequence[_Block]) -> list[Token]:
    """The tokens markdown-it makes of `text`, as far as a Document reads them (the
    headings, and each block's inline content with its lines), from its blocks read
    line by line."""
    from markdown_it.common.utils import mdTrim
    from markdown_it.rules_core import StateCore
    from markdown_it.token import Token

    # Only the tokens a Document is read from: a heading's opening (its level) and each
    # block's inline content. No rule after the block parser reads the others.
    tokens: list[Token] = []
    for tag, first, last, content in blocks:
        where = [first, last]
        if tag != "p":
            tokens.append(Token("heading_open", tag, 1, map=where, block=True))
        tokens.append(
            Token("inline", "", 0, map=where, content=mdTrim(content), children=[], block=True)
        )
    state = StateCore(text, _parser(), {}, tokens)
    for rule in _rules_after_blocks():
        rule(state)
    return state.tokens


def _line_blocks(lines: Sequence[str]) -> list[_Block] | None:
    """Each block of these lines; None when a line is not one the reader knows."""
    blocks: list[_Block] = []
    sort: str | None = None  # the open block's sort of line: "", ">", or an item's marker
    for number, line in enumerate(lines):
        if not line:
            sort = None
            continue
        if line[0] == "#":
            heading = _atx(line)
            if heading is None:
                return None
            blocks.append((f"h{heading[0]}", number, number + 1, heading[1]))
            sort = None  # a heading is one line; it interrupts and is followed by anything
            continue
        item = _ITEM.match(line)
        if line[0] == ">":
            line_sort, content = ">", line[2:] if line.startswith("> ") else ""
        elif item is not None:
            line_sort, content = item[1] or item[2], line[item.end() :]
        elif _LIST_START.match(line):
            return None  # an empty item, or a tab after its marker
        else:
            line_sort, content = "", line
        if not _PLAIN.match(content) or _LIST_START.match(content):
            return None
        if sort is None or (sort == line_sort and sort in _ITEM_SORTS):
            blocks.append(("p", number, number + 1, content))
        elif sort == line_sort:  # the paragraph or quote goes on
            tag, first, _, previous = blocks[-1]
            blocks[-1] = (tag, first, number + 1, previous + "\n" + content)
        else:
            return None
        sort = line_sort
    return blocks


def _atx(line: str) -> tuple[int, str] | None:
    """An ATX heading's level and content, as markdown-it's `heading` rule reads them
    (a closing run of `#` after a space is cut); None when the line is not one."""
    level = len(line) - len(line.lstrip("#"))
    if level > 6 or (level < len(line) and line[level] not in " \t"):
        return None
    end = len(line.rstrip(" \t"))
    cut = len(line[:end].rstrip("#"))
    if level < cut < end and line[cut - 1] in " \t":
        end = cut
    return level, line[level:end]


@functools.cache
def _rules_after_blocks() -> tuple[Callable[[StateCore], None], ...]:
    """The core rules markdown-it runs after its block parser (inline, text_join...)."""
    ruler = _parser().core.ruler
    names = ruler.get_active_rules()
    return tuple(ruler.getRules("")[names.index("block") + 1 :])


# What lets inline content hold a link, an image, raw HTML (anchors), a bare URL, or
# text an escape or an entity could turn into one.
_INLINE_SIGNS = lazy_compile(r"[<\\&]|https?://|www\.")
_BACKTICKS = lazy_compile(r"`+")
_SINGLE_SPAN = lazy_compile(r"`[^`]*`")
# What can make a heading's text as rendered differ from its content: emphasis, code,
# links and images, tags, autolinks, entities, escapes, strikethrough, and a line
# break (a setext heading's, where trailing spaces make a hard one).
_MARKUP = lazy_compile(r"[`*_\[\]<>&\\~!\n]")
# A web address between angle brackets: an autolink, whatever is around it (no
# backtick, bracket or backslash in it, so no code span or escape can cut it).
_AUTOLINK = lazy_compile(r"<https?://[^<>\x00-\x20`\[\]\\]*>")


def _inline_that_matters(state: StateCore) -> None:
    """markdown-it's core `inline` rule, for the inline content a Document reads:
    a heading's (its slug), and any other that can hold a link, an image, raw HTML
    or a bare URL. The rest is left unparsed: it adds nothing to a Document. So is
    content whose only link is one web autolink (every page of tldr has one): its
    token's meta counts it, the one thing a Document takes from it."""
    from markdown_it.token import Token

    # Without a definition or a footnote, a `[` opens a link only as `[text](`.
    labels = bool(state.env.get("references")) or "footnotes" in state.env
    tokens = state.tokens
    for index, token in enumerate(tokens):
        if token.type != "inline":
            continue
        heading = index > 0 and tokens[index - 1].type == "heading_open"
        if heading and not _MARKUP.search(token.content):
            # What markdown-it makes of a heading without markup: its text, whole.
            token.children = [Token("text", "", 0, content=token.content)]
            continue
        bare = None if heading else _outside_code_spans(token.content)
        if bare is not None:
            if not _may_hold_links(bare, labels):
                continue
            if _lone_autolink(bare, labels):
                token.meta["autolinks"] = 1
                continue
        if token.children is None:
            token.children = []
        state.md.inline.parse(token.content, state.md, state.env, token.children)


def _outside_code_spans(content: str) -> str | None:
    """`content` with each code span blanked (its place kept, nothing in it is
    markup), or None when an escape could change how backticks pair."""
    if "`" not in content:
        return content
    if "\\" in content:
        return None
    return _without_code_spans(content)


def _may_hold_links(bare: str, labels: bool) -> bool:
    # A `<` before a code span could open a tag or an autolink that swallows its
    # backtick, but that `<` stays in `bare`, and counts.
    if ("[" if labels else "](") in bare:
        return True
    return _INLINE_SIGNS.search(bare) is not None


def _lone_autolink(bare: str, labels: bool) -> bool:
    """Whether the only link `bare` holds is one web autolink, with nothing else a
    Document reads around it (no other link, tag, escape, entity or bare URL)."""
    found = _AUTOLINK.search(bare)
    if found is None:
        return False
    rest = bare[: found.start()] + " " + bare[found.end() :]
    return not _may_hold_links(rest, labels)


def _spaces(found: re.Match[str]) -> str:
    return " " * (found.end() - found.start())


def _without_code_spans(text: str) -> str:
    """`text` with its code spans blanked to spaces, backticks included, as CommonMark
    reads them when no backtick is escaped (the caller made sure): a backtick string
    opens a span that the next string of as many backticks closes; one that is
    never closed is literal."""
    if "``" not in text:  # single backticks only: each pairs with the next one
        return _SINGLE_SPAN.sub(_spaces, text)
    runs = list(_BACKTICKS.finditer(text))
    kept: list[str] = []
    start = index = 0
    while index < len(runs):
        opener = runs[index]
        width = opener.end() - opener.start()
        closer = next(
            (j for j in range(index + 1, len(runs)) if runs[j].end() - runs[j].start() == width),
            None,
        )
        if closer is None:
            index += 1
            continue
        kept += (text[start : opener.start()], " " * (runs[closer].end() - opener.start()))
        start = runs[closer].end()
        index = closer + 1
    kept.append(text[start:])
    return "".join(kept)


# Whatever could make a line's being a heading depend on other lines, or give a file
# an anchor, front matter or a heading whose slug depends on the rest of the file: an
# indented line, a setext underline (or front matter), a line opening an HTML block, a
# fence or a table delimiter row, or a heading, inside a container, a footnote, a
# heading with a `[` (a reference's label), a lone CR. Without any, the headings of a
# file are exactly its lines that start with `#`, each one's slug from its line alone.
# The line starts' part begins with the line break before a line, searched for in
# "\n" + text: the regex engine then tries only the places after a line break, ten
# times faster than every character of the page (it was most of this check).
_ENTANGLED_LINE = lazy_compile(
    r"\n(?:[ \t]|(?:=+|-+)[ \t]*$|[>*+\-.)\d \t]*(?:<|```|~~~)|[>*+\-.)\d \t]+#"
    r"|[|:\->*+.)\d \t]*\|[|:\->*+.)\d \t]*$|#{1,6}(?:[ \t][^\n]*)?\[)",
    re.MULTILINE,
)


def _entangled(text: str) -> bool:
    return "\r" in text or "[^" in text or _ENTANGLED_LINE.search("\n" + text) is not None


# An `id` or `name` attribute, as the HTML parser reads one: the only source of anchors.
_ANCHOR_ATTRIBUTE = lazy_compile(r"[\s\"'/](?:id|name)\s*=", re.IGNORECASE)


def base_from_head(old_text: str, head: Document, new_text: str) -> Document | None:
    """The base side's headings, anchors and lines without parsing it, when a change
    cannot have touched them (issue 12): both sides free of anything that entangles
    headings with other lines, no anchor attribute at base, and the same heading lines
    in the same order. None: the base must be parsed. Links are left out (nothing
    reads the base's links)."""
    if _entangled(old_text) or _entangled(new_text):
        return None
    if "=" in old_text and _ANCHOR_ATTRIBUTE.search(old_text):
        return None
    old_lines, new_lines = _lines(old_text), head.lines  # the head's, split as here
    old_numbers = _heading_lines(old_lines)
    # The head's parse must agree with the line rule (a check of the reasoning above).
    if _heading_lines(new_lines) != [(h.line, h.end) for h in head.headings]:
        return None
    old_headings = [old_lines[line - 1] for line, _ in old_numbers]
    if old_headings != [new_lines[h.line - 1] for h in head.headings]:
        return None
    headings = tuple(
        heading._replace(line=line, end=line)
        for heading, (line, _) in zip(head.headings, old_numbers, strict=True)
    )
    return Document(headings, (), frozenset(), None, 0, tuple(old_lines))


def _lines(text: str) -> list[str]:
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def _heading_lines(lines: Sequence[str]) -> list[tuple[int, int]]:
    return [
        (number, number)
        for number, line in enumerate(lines, 1)
        if line.startswith("#") and _atx(line) is not None
    ]


def is_external(target: str) -> bool:
    """A URL with a scheme (http:, mailto:...) or a host (`//example.com`)."""
    from urllib.parse import urlsplit

    return target.startswith("//") or bool(urlsplit(target).scheme)


class _Reader:
    """Collects what a document holds while walking markdown-it's block tokens."""

    def __init__(self) -> None:
        self.headings: list[Heading] = []
        self.links: list[Link] = []
        self.anchors: set[str] = set()
        self.frontmatter: Frontmatter | None = None
        self.external = 0
        self._slugger = Slugger()

    def read(self, token: Token, tokens: Sequence[Token], index: int) -> None:
        if token.map is None:
            return
        first = token.map[0] + 1
        if token.type == "front_matter":
            self.frontmatter = Frontmatter(token.content, first, token.map[1])
        elif token.type == "html_block":
            self._html(token.content, first)
        elif token.type == "heading_open":
            inline = tokens[index + 1]
            self.headings.append(
                Heading(
                    level=int(token.tag[1:]),
                    text=" ".join(inline.content.split()),
                    slug=self._slugger.slug(_rendered_text(inline.children or ())),
                    line=first,
                    end=token.map[1],
                )
            )
        elif token.type == "inline":
            self.external += token.meta.get("autolinks", 0)
            self._inline(token.children or (), first)

    def _inline(self, children: Sequence[Token], line: int) -> None:
        in_link = False
        for child in children:
            if child.type in ("link_open", "image"):
                self._link(str(child.attrs.get("href", child.attrs.get("src", ""))), line, child)
                in_link = child.type == "link_open"
            elif child.type == "link_close":
                in_link = False
            elif child.type == "html_inline":
                self._html(child.content, line)
            elif child.type == "text" and not in_link:
                self.external += sum(
                    word.startswith(_BARE_URL_STARTS) for word in child.content.split()
                )
            if child.type in ("softbreak", "hardbreak"):
                line += 1
            line += child.content.count("\n")

    def _link(self, target: str, line: int, token: Token) -> None:
        if is_external(target):
            self.external += 1
        elif target:
            self.links.append(Link(target, line, image=token.type == "image"))

    def _html(self, html: str, line: int) -> None:
        from gitreview.analyze.html_scan import HtmlScanner  # only raw HTML needs it

        scanner = HtmlScanner()
        scanner.feed(html)
        scanner.close()
        self.anchors.update(scanner.anchors)
        for target, offset, image in scanner.links:
            if is_external(target):
                self.external += 1
            elif target:
                self.links.append(Link(target, line + offset, image))


def _rendered_text(children: Sequence[Token]) -> str:
    """A heading's text as GitHub renders it: markup and tags gone, inline code
    kept, images contributing nothing (an <img> has no text)."""
    parts: list[str] = []
    for child in children:
        if child.type in ("text", "code_inline"):
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append("\n")
    return "".join(parts)
