"""Which whitespace means something, per kind of file: the whitespace classifier's rules.

For each kind this answers two questions: which lines of a file hold whitespace that
is content (inside a multi-line string, a Markdown code block, a YAML block scalar...)
or that the lexer is unsure of, and whether two single lines are the same up to the
whitespace the kind gives no meaning. Users skip what gets called trivial, so every
doubt resolves towards "literal" and "different". Pure functions, no I/O.
"""

from __future__ import annotations

import bisect
import functools
import re
import string
from collections import Counter
from collections.abc import Iterator
from typing import TYPE_CHECKING, Literal, NamedTuple

from gitreview.analyze import lexers
from gitreview.patterns import lazy_compile

if TYPE_CHECKING:
    from markdown_it import MarkdownIt


class WhitespacePolicy(NamedTuple):
    line_endings: bool  # CRLF vs LF (and, with final_newline, a missing final newline)
    trailing: bool  # trailing spaces/tabs are insignificant (never after a backslash)
    # "any": blank lines come and go freely; "runs": only a run's length may change (prose
    # paragraph breaks); "none": blank lines are content.
    blank_lines: Literal["any", "runs", "none"]
    inner: bool  # the amount of whitespace inside a line (not leading) is insignificant
    leading: bool  # leading indentation is insignificant
    # A missing final newline is insignificant: not in C and C++, whose standards ask a
    # source file to end with one (C leaves the behaviour undefined; an `#endif` last
    # in a header is a directive without its line's end).
    final_newline: bool = True

    def describe(self) -> str:
        """What is free, in words, for `explain`."""
        endings = "line endings" if self.final_newline else "line endings (not the last one)"
        free = [
            name
            for name, on in (
                (endings, self.line_endings),
                ("trailing spaces", self.trailing),
                ("spacing inside lines", self.inner),
                ("indentation", self.leading),
            )
            if on
        ]
        blank = {"any": "blank lines", "runs": "the length of runs of blank lines"}
        if self.blank_lines in blank:
            free.append(blank[self.blank_lines])
        return "free: " + ", ".join(free)


_CODE = WhitespacePolicy(True, True, "any", inner=True, leading=True)
_POLICIES: dict[str, WhitespacePolicy] = {
    "python": WhitespacePolicy(True, True, "any", inner=True, leading=False),
    # YAML: `a:b` vs `a: b` and the plain scalar `x  y` differ, so no inner freedom.
    "yaml": WhitespacePolicy(True, True, "any", inner=False, leading=False),
    "json": _CODE,
    "toml": _CODE,
    "markdown": WhitespacePolicy(True, True, "runs", inner=False, leading=False),
    "text": WhitespacePolicy(True, True, "runs", inner=True, leading=False),
    **dict.fromkeys(lexers.C_FAMILY, _CODE),
    **dict.fromkeys(("c", "cpp"), _CODE._replace(final_newline=False)),
}


def policy(kind: str) -> WhitespacePolicy | None:
    """What whitespace is free in `kind`; None: it is meaningful everywhere."""
    return _POLICIES.get(kind)


def literal_lines(kind: str, text: str, dialect: str = "") -> frozenset[int] | None:
    """1-based lines whose whitespace must be compared exactly, doubtful ones included.

    None when the file cannot be lexed reliably, or the kind has no rules at all: then
    every line is literal. `dialect`: a text file's markup, by its name ("rst").
    """
    if kind == "json":
        return frozenset()  # a JSON string cannot span lines
    if kind == "text":
        return _text_literal(text, rst=dialect == "rst")
    if kind == "python":
        return _python_literal(text)
    if kind == "yaml":
        return _yaml_literal(text)
    if kind == "markdown":
        return _markdown_literal(text)
    if kind in lexers.SCANNED:
        return lexers.literal_lines(kind, text)
    return None


# --- Python --------------------------------------------------------------------------


def _python_literal(text: str) -> frozenset[int] | None:
    # Our own lexer, the one normalize_line uses too. tokenize is the reference but
    # ten times slower (a reformat of a thousand files would spend most of its time
    # there); tests/test_lexical.py checks the two agree on the standard library.
    found = lexers.literal_lines("python", text)
    if found is None or "///" not in text:
        return found
    return found | _script_metadata(text)


# PEP 723's inline script metadata (`# /// script` ... `# ///`), TOML that `uv run` and
# `pipx run` read by this pattern: a line more or a space less and they read none.
# (The PEP's own pattern, `(?m)^# /// (?P<type>[a-zA-Z0-9-]+)$\s(?P<content>(^#(| .*)$\s)+)
# ^# ///$`, read the comment lines after every header to their end and back: a file of
# headers took a minute. `_metadata_blocks` finds what it finds, line by line: found
# by an adversarial review.)
_METADATA_HEADER = lazy_compile(r"# /// [a-zA-Z0-9-]+")
_METADATA_FENCE = lazy_compile(r"(?m)^#[ \t]*///")


def _metadata_blocks(text: str) -> list[tuple[int, int, int, int]]:
    """The PEP 723 blocks of a text with LF line ends, as its pattern finds them:
    (first line, first line past the block, start and end offsets). A block runs from a header
    to the last `# ///` of the comment lines (`#`, or `# ` and more) right after it,
    at least one line of content between them."""
    lines = text.split("\n")
    ended = len(lines) - 1  # the last line has no line break after it
    # For each line, the last closing line of the run of comment lines it starts or is in.
    closing = [-1] * len(lines)
    last = -1
    for index in range(len(lines) - 1, -1, -1):
        line = lines[index]
        if line == "#" or line.startswith("# "):
            if line == "# ///" and last < 0:
                last = index
            closing[index] = last
        else:
            last = -1
    blocks, offsets, index, offset = [], [], 0, 0
    for line in lines:
        offsets.append(offset)
        offset += len(line) + 1
    while index < ended:
        close = closing[index + 1]
        if _METADATA_HEADER.fullmatch(lines[index]) and close >= index + 2:
            end = offsets[close] + len(lines[close])
            blocks.append((index + 1, close + 2, offsets[index], end))
            index = close + 1
        else:
            index += 1
    return blocks


def _script_metadata(text: str) -> frozenset[int]:
    """The lines of each metadata block, and any line that looks like a fence."""
    lines: set[int] = set()
    text = text.replace("\r\n", "\n")  # the same lines: tools read them so too
    for first, past, _, _ in _metadata_blocks(text):
        lines.update(range(first, past))
    lines.update(first for first, _ in _fences(text))
    return frozenset(lines)


def _fences(text: str) -> Iterator[tuple[int, str]]:
    """Each line that looks like a fence, by its number: counted on from the last one
    (from the start for each was quadratic: a review of the fix)."""
    number, counted = 1, 0
    for found in _METADATA_FENCE.finditer(text):
        number += text.count("\n", counted, found.start())
        counted = found.start()
        yield number, found.group()


def script_metadata(text: str) -> list[tuple[int, str]]:
    """Each PEP 723 metadata block as written, by its first line; a line that looks
    like a fence but is no block's too, as a block of its own."""
    if "///" not in text:
        return []
    text = text.replace("\r\n", "\n")
    found = [(first, text[start:end]) for first, _, start, end in _metadata_blocks(text)]
    return sorted([*found, *_fences(text)])


# --- YAML and Markdown ---------------------------------------------------------------

# Line breaks that PyYAML counts and git does not: its line numbers would not be ours.
# markdown-it only adds the lone CR.
_FOREIGN_BREAK = lazy_compile("\r(?!\n)|[\x85\u2028\u2029]")
_LONE_CR = lazy_compile("\r(?!\n)")


def _yaml_literal(text: str) -> frozenset[int] | None:
    if _FOREIGN_BREAK.search(text):
        return None
    import yaml  # imported when a run needs it: start-up dominates small pushes

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when available
    lines: set[int] = set()
    try:
        for token in yaml.scan(text, Loader=loader):
            if not isinstance(token, yaml.ScalarToken):
                continue
            first, last = token.start_mark.line, token.end_mark.line
            if token.end_mark.column == 0 and last > first:
                last -= 1  # a block scalar's end mark sits at the start of the next line
            if last > first or token.style in ("|", ">"):
                lines.update(range(first + 1, last + 2))
    except yaml.YAMLError:
        return None
    return frozenset(lines)


_MARKDOWN_BLOCKS = ("fence", "code_block", "html_block")
# What a code or HTML block needs: a fence, a tab or four spaces (indented code), or a
# `<` first in a line after any container markers (a blockquote's `>`, a list item's
# marker): a `<` inside a line, an autolink, opens none (issue 12).
_MAY_HOLD_BLOCK = lazy_compile(r"```|~~~|\t| {4}|^[>*+\-.)\d ]*<", re.MULTILINE)


def html_block_lines(text: str) -> frozenset[int]:
    """The lines (1-based) of a Markdown page's raw HTML blocks."""
    if "<" not in text:
        return frozenset()
    return _block_lines(text).get("html_block", frozenset())


@functools.lru_cache(maxsize=2)  # a file's two sides, asked by `reflow` and `whitespace`
def _block_lines(text: str) -> dict[str, frozenset[int]]:
    """The lines (1-based) of a Markdown page's code and HTML blocks, by kind."""
    if not _MAY_HOLD_BLOCK.search(text):  # else no code or HTML block can exist
        return {}
    found: dict[str, set[int]] = {}
    for token in _markdown_parser().parse(text):
        if token.type in _MARKDOWN_BLOCKS and token.map:
            found.setdefault(token.type, set()).update(range(token.map[0] + 1, token.map[1] + 1))
    return {kind: frozenset(lines) for kind, lines in found.items()}


def block_signature(text: str) -> Counter[tuple[object, ...]]:
    """A Markdown page's blocks, whatever their order: each block's type, markup and
    text as the page has them, counted. Moving whole sections keeps it, and so does
    a blank line added to or removed from a run of them; a blank line that parts or
    joins paragraphs, loosens a list or makes a `---` an underline does not."""
    return Counter(
        (token.type, token.tag, token.hidden, token.markup, token.info, token.content)
        for token in _markdown_parser().parse(text)
    )


@functools.cache
def _markdown_parser() -> MarkdownIt:
    from markdown_it import MarkdownIt  # imported when a run needs it

    from gitreview.analyze.markdown_doc import compiled

    return compiled(MarkdownIt("commonmark").disable(["inline", "text_join"]))  # blocks suffice


def _markdown_literal(text: str) -> frozenset[int] | None:
    if _LONE_CR.search(text):
        return None
    split = text.split("\n")
    lines: set[int] = set()
    for number, line in enumerate(split, 1):
        bare = line.rstrip("\r")
        stripped = bare.rstrip(" \t")
        if (stripped and _hard_break(bare, stripped)) or stripped.endswith("\\"):
            lines.add(number)  # a hard line break, whose spaces or backslash are content
    # Front matter: YAML's block scalars and trailing spaces, TOML's strings.
    lines.update(range(1, front_matter_lines(split) + 1))
    if "{" in text or "$$" in text:
        lines |= template_blocks(split)
    if "`" in text:
        lines |= spaced_in_code_spans(split)
    for blocks in _block_lines(text).values():
        lines |= blocks
    return frozenset(lines)


# What site generators and renderers show as written inside a Markdown page, which
# markdown-it reads as a paragraph: Hugo's and Jekyll's highlighted code, Jekyll's
# raw blocks, and display math (`$$`, where a `%` comments out the rest of the line).
_TEMPLATE_BLOCKS = (
    (r"\{\{[<%]-?\s*highlight\b", r"\{\{[<%]-?\s*/highlight\b"),
    (r"\{%-?\s*highlight\b", r"\{%-?\s*endhighlight\b"),
    (r"\{%-?\s*raw\s*-?%\}", r"\{%-?\s*endraw\b"),
    (r"\{%-?\s*codeblock\b", r"\{%-?\s*endcodeblock\b"),  # Hexo, Octopress
    (r"\{%-?\s*code\b", r"\{%-?\s*endcode\b"),  # Hexo's alias of codeblock
    (r"\$\$", r"\$\$"),
)
_TEMPLATE_OPEN = lazy_compile("|".join(f"({opener})" for opener, _ in _TEMPLATE_BLOCKS))
_TEMPLATE_CLOSE = [lazy_compile(closer) for _, closer in _TEMPLATE_BLOCKS]


# Any other Hugo shortcode that has a closing one (`{{< code >}}...{{< /code >}}`,
# `{{< mermaid >}}`: what its template does with the text is its own), and a MyST
# directive in a colon fence (`:::{code-block}`) other than those holding Markdown
# (found by an adversarial review: a re-wrapped command in either was `reflow`).
_SHORTCODE = lazy_compile(r"\{\{([<%])-?\s*([\w-]+)(?:(?!/\s*[>%]\}\}).)*?-?[>%]\}\}")
_CLOSING_SHORTCODE = lazy_compile(r"\{\{[<%]-?\s*/([\w-]+)\s*-?[>%]\}\}")
_COLON_FENCE = lazy_compile(r"[ ]{0,3}(:{3,})\{([\w:-]+)\}")
_MYST_MARKDOWN = frozenset(
    {"note", "warning", "tip", "important", "caution", "attention", "danger", "error"}
    | {"hint", "seealso", "admonition", "dropdown", "tab-set", "tab-item", "card", "grid"}
    | {"grid-item", "grid-item-card", "margin", "sidebar", "topic", "epigraph", "div"}
)


def template_blocks(lines: list[str]) -> set[int]:
    """The lines (1-based) of each such block, its delimiters included."""
    found: set[int] = set()
    if not any("{" in line or "$$" in line for line in lines):
        return found
    found |= _paired_blocks(lines)
    closer = None
    for number, line in enumerate(lines, 1):
        if closer is not None:
            found.add(number)
            if closer.search(line):
                closer = None
            continue
        position = 0
        while (opened := _TEMPLATE_OPEN.search(line, position)) is not None:
            found.add(number)
            close = _TEMPLATE_CLOSE[opened.lastindex - 1 if opened.lastindex else 0]
            closed = close.search(line, opened.end())
            if closed is None:
                closer = close
                break
            position = closed.end()  # another block may open after it on the line
    return found


def _paired_blocks(lines: list[str]) -> set[int]:
    """The lines of each Hugo shortcode with a closing one, and of each MyST colon
    fence that holds no Markdown, their delimiters included. The closing shortcodes
    are found once, by name: a page of hundreds of figures is not read again for each."""
    found: set[int] = set()
    closings: dict[str, list[tuple[int, int]]] = {}  # name -> (line, column) of each
    for number, line in enumerate(lines, 1):
        if "/" in line:
            for closing in _CLOSING_SHORTCODE.finditer(line):
                closings.setdefault(closing.group(1), []).append((number, closing.start()))
    for number, line in enumerate(lines, 1):
        if "{" not in line:
            continue
        for opened in _SHORTCODE.finditer(line):
            at = closings.get(opened.group(2), [])
            index = bisect.bisect_left(at, (number, opened.end()))
            if index < len(at):
                found.update(range(number, at[index][0] + 1))
        fence = _COLON_FENCE.match(line)
        if fence and fence.group(2) not in _MYST_MARKDOWN:
            colons = fence.group(1)
            end = next(
                (
                    later
                    for later in range(number + 1, len(lines) + 1)
                    if lines[later - 1].strip() == colons
                ),
                len(lines),
            )
            found.update(range(number, end + 1))
    return found


_SPACED = lazy_compile(r"\S[ \t]{2,}\S|\t|[ \t]$")


def spaced_in_code_spans(lines: list[str]) -> set[int]:
    """The lines of a paragraph holding a backtick (a code span may run over several
    lines, and an escaped backtick throws a count out) that hold a run of spaces, a
    tab or trailing whitespace: inside a code span, spaces show."""
    found: set[int] = set()
    start = 0
    for end in [*(i for i, line in enumerate(lines) if not line.strip()), len(lines)]:
        paragraph = lines[start:end]
        if any("`" in line for line in paragraph):
            found.update(
                start + offset + 1
                for offset, line in enumerate(paragraph)
                if _SPACED.search(line.rstrip("\r"))
            )
        start = end + 1
    return found


def front_matter_lines(lines: list[str]) -> int:
    """How many lines a Markdown page's front matter takes, its delimiters included
    (0: none): YAML between `---` lines (or closed by `...`), TOML between `+++`
    lines (Hugo), after a byte order mark too (Hugo strips it)."""
    first = lines[0].lstrip("\ufeff").rstrip() if lines else ""
    closers = {"---": ("---", "..."), "+++": ("+++",)}.get(first)
    if closers is None:
        return 0
    for number, line in enumerate(lines[1:], 2):
        if line.rstrip() in closers:
            return number
    return 0


# --- Plain text (.txt, .rst, .adoc) --------------------------------------------------

_FENCE = lazy_compile(r"(`{3,}|~{3,})")  # Markdown-style fences are common in .txt too
# AsciiDoc's listing, literal, passthrough, comment and quote (verse) blocks.
_ADOC_DELIMITER = lazy_compile(r"(-{4,}|\.{4,}|\+{4,}|/{4,}|_{4,})[ \t]*$")
# An AsciiDoc block attribute line that makes the next paragraph shown as written
# (`[source,python]`, `[literal]`, `[verse]`, `[%hardbreaks]`), and the document
# attribute that makes every paragraph keep its line breaks.
_ADOC_STYLE = lazy_compile(r"\[(?:source|literal|listing|verse|stem|pass|[^\]]*hardbreaks)")
_ADOC_HARDBREAKS = lazy_compile(r"(?m)^:hardbreaks(?:-option)?:")
# A list item, an option or an enumerator: `- x`, `* x`, `• x`, `1. x`, `(a) x`, `iv) x`,
# `#. x`, AsciiDoc `.. x` and `** x`, callouts `<1> x`.
LIST_ITEM = lazy_compile(
    "(?:[-*+\u2022\u2023\u2043\u25e6\u2013\u2014]\\S*|"
    r"\.{1,5}|\*{1,5}|\(?#[.)]?|\(?(?:\d+|[A-Za-z]|[ivxlcdmIVXLCDM]+)[.):]|<\d+>)"
    r"(?:\s|$)"
)
# A reStructuredText option list's option (`-a  Output all.`, `--all`, `/V`): two
# spaces or more end the option, one does not.
_OPTION = lazy_compile(r"(?:-{1,2}|/)[A-Za-z0-9]")
_TABLE_BORDER = lazy_compile(r"[ \t]*=+(?:[ \t]+=+)+[ \t]*$")  # reStructuredText simple table
_ADORNMENT = lazy_compile(r"([=\-~^\"'`#*+:._])\1+[ \t]*$")
_BORDER_LIKE = lazy_compile(r"[=\-~+]+(?:[ \t]+[=\-~+]+)+[ \t]*$")


def _text_literal(text: str, *, rst: bool = False) -> frozenset[int]:
    """Prose has no multi-line literals, but tables, literal blocks, listings and
    doctests (`python -m doctest` runs a text file's `>>>` examples) do.

    An AsciiDoc delimiter (`----`) opens a block even right below a paragraph's line
    (Asciidoctor's listing after "run:"; found by an adversarial review), unless it
    underlines it as a title does: as long as the line, give or take two. Below a line
    of reStructuredText (`rst`) it is always a title's underline.

    Column alignment in tables and spacing in indented or delimited blocks and in
    doctests is content: conservatively, every line of those is literal.
    """
    split = [line.rstrip("\r") for line in text.split("\n")]
    if _ADOC_HARDBREAKS.search(text):
        return frozenset(range(1, len(split) + 1))
    lines: set[int] = set()
    styled = False  # in an AsciiDoc paragraph a block attribute shows as written
    closer = ""  # the delimiter that ends the literal block we are in
    table = False
    adoc_table = False  # inside `|===`: a cell runs over lines (`l|` shows them as written)
    doctest = False  # a `>>>` example and its expected output, to a blank line
    introduced = False  # after a paragraph ending with `::` (reStructuredText)
    quoted = ""  # the character a quoted literal block's lines start with
    for index, line in enumerate(split):
        bare = line.strip()
        previous = split[index - 1].strip() if index else ""
        following = split[index + 1].strip() if index + 1 < len(split) else ""
        opener = _FENCE.match(bare) or _ADOC_DELIMITER.match(bare)
        doctest = bare.startswith(">>>") or (doctest and bool(bare))
        # A quoted literal block: unindented lines that all start with one punctuation
        # character (`> a  b`), after a `::` paragraph, to a blank line.
        starts = line[:1] if line[:1].isascii() and line[:1] in string.punctuation else ""
        quoted = starts if starts and (starts == quoted or introduced) else ""
        introduced = bare.endswith("::") or (introduced and not bare)
        if bare.startswith(("|===", ",===", ":===")):
            adoc_table = not adoc_table
        if quoted or (styled and bare) or adoc_table:
            lines.add(index + 1)
            continue
        if bare and _ADORNMENT.match(following) and not _ADORNMENT.match(bare):
            # A title over its underline: respaced, it no longer fits (reStructuredText
            # warns, AsciiDoc reads a paragraph).
            lines.update((index + 1, index + 2))
        styled = bool(_ADOC_STYLE.match(bare)) and not _ADOC_DELIMITER.match(following)
        if closer:
            if bare and bare.startswith(closer) and not bare.strip(closer[0]):
                closer = ""
        elif opener and (
            _FENCE.match(bare)
            or not previous
            or previous[0] in "[."
            or not (rst or _underlines(bare, previous))
        ):
            closer = opener.group(1)
        elif _TABLE_BORDER.match(line):
            table = not (table and not following)  # a border then a blank line ends it
        elif not (
            table or doctest or (bare and line[0] in " \t") or "|" in line or line.startswith("+")
        ):
            continue
        lines.add(index + 1)
    spaced = spaced_in_code_spans(split) if "`" in text else set()
    return frozenset(lines | _blanks_within(split, lines) | spaced)


def _underlines(line: str, previous: str) -> bool:
    """Whether `line` may be `previous`'s title underline in AsciiDoc or plain text."""
    return line[0] in "-=~^+" and abs(len(line) - len(previous)) <= 2


def _blanks_within(split: list[str], lines: set[int]) -> set[int]:
    """The blank lines between two literal lines: inside a literal block (an
    indented one, a fence), blank lines are content too."""
    inside: set[int] = set()
    run: list[int] = []
    for number, line in enumerate(split, 1):
        if not line.strip():
            run.append(number)
            continue
        if run and number in lines and run[0] - 1 in lines:
            inside.update(run)
        run = []
    return inside


def _text_key(body: str, *, indented: bool) -> str:
    # Context-free guards too, for callers that compare text without literal_lines.
    # An RST inline literal (``a  b``) shows its spaces.
    if indented or "|" in body or "``" in body or body.startswith("+") or _BORDER_LIKE.match(body):
        return body
    if _OPTION.match(body):
        return body
    item = LIST_ITEM.match(body)
    if item is not None:
        # The column an item's text starts at is where its body's lines must start
        # (reStructuredText: found by an adversarial review, a narrower gap made the
        # next line a definition list): the spacing after the marker is kept.
        gap = _WS_RUN.match(body, item.end())
        start = gap.end() if gap is not None else item.end()
        return body[:start] + _WS_RUN.sub(" ", body[start:])
    return _WS_RUN.sub(" ", body)  # words stay apart: a run of spaces is one space


def _open_code_span(line: str) -> bool:
    """Whether a Markdown line may end inside a code span: an odd number of backtick
    runs (one that opens a span and none that closes it), conservatively."""
    return len(re.findall("`+", line)) % 2 == 1


# --- normalize_line ------------------------------------------------------------------

_WS = " \t\f\v"
_WS_RUN = lazy_compile(r"[ \t\f\v]+")
_OPERATOR = frozenset("+-*/%=<>!&|^~?:.")
_PUNCT = frozenset("()[]{},;")  # never part of a longer token
_DIRECTIVE_KINDS = frozenset({"c", "cpp", "csharp"})
# A preprocessor line: `#`, its digraph `%:` or trigraph `??=`, after comments too
# (`/* pick one */ #define v (x)` is a directive).
# Each comment read one way only (the classic unrolled comment: no `*/` inside, and a
# run of `*` then `/` ends it): `(?:/\*.*?\*/)*` tried every split of a line of
# comments, twice the time for each one more (found by an adversarial review: 28 of
# them took a minute). Not possessive groups: Python 3.11.2's match them wrongly.
_DIRECTIVE = lazy_compile(r"(?:/\*[^*]*\*+(?:[^/*][^*]*\*+)*/[ \t]*)*(?:#|%:|\?\?=)")
# A doc comment's marker: `///     x` is a Markdown code block (a Rust doctest), `///  x`
# a paragraph; Go's documentation is any comment.
_DOC_HEAD = lazy_compile(r"///|//!|/\*\*|/\*!")
# Tools' names and markers that make a whole comment read by a tool, whichever of its
# lines they stand on (`/* eslint-disable` and the rule names on the lines after it),
# and Sphinx's `#:` documentation: compared as written (flake8 reads a noqa comment
# with two spaces after its colon as one without codes) and placed by the code they
# are about.
TOOL_COMMENT = lazy_compile(
    r"noqa|nolint|nosec|pragma|pylint|pyright|mypy|eslint|jshint|jslint|tslint|prettier|"
    r"istanbul|\bc8\b|noinspection|clang-|cppcheck|-\*-|fall(?:s|ing)?[\s_-]*thr|"
    r"\b(?:vim?|ex):|coding[:=]|type:\s*ignore|(?:^|#)\s*type:|pyre-|pytype:|^#:|"
    # Formatters' and bots' markers, matched as written (a thirteenth review: black's
    # `# fmt: off`, isort's `# isort: skip`, Renovate's `# renovate: datasource=...`).
    r"\bfmt:|yapf:|isort:|renovate:|x-release-please|cspell:|codespell:|rubocop:|swiftlint:|"
    r"ktlint|NOSONAR|nosemgrep|gitleaks:",
    re.IGNORECASE,
)


# Go's directives, which cmd/go and the compiler read only from a line's start (found by
# a review: `//go:generate` indented is no longer run).
_GO_DIRECTIVES = ("//go:", "//line ", "// +build", "//export ", "//extern ", "//sys ")


def _hard_break(line: str, stripped: str) -> bool:
    """Whether a Markdown line's trailing whitespace may be a hard line break: two
    spaces, or a tab, which Python-Markdown expands to spaces first (found by an
    adversarial review)."""
    return len(line) - len(stripped) >= 2 or "\t" in line[len(stripped) :]


def normalize_line(kind: str, line: str, *, literal: bool) -> str:
    """A comparison key: two lines are equivalent iff their keys are equal.

    `line` comes without its "\\n" (and without a "\\r" when line endings are free).
    """
    rules = _POLICIES.get(kind)
    if rules is None or literal or "\0" in line or "\r" in line:
        # NUL is our keys' marker, and a lone CR ends a line for some compilers (a `//`
        # comment would end there): such lines are compared exactly.
        return line
    body = line.lstrip(_WS)
    if not body:
        return "" if rules.trailing else line
    if kind == "json" and ("//" in body or "/*" in body or "*/" in body):
        return line  # JSON with comments (tsconfig.json): a `"` in one puts strings astray
    lead = "" if rules.leading else line[: len(line) - len(body)]
    if kind == "go" and body.startswith(_GO_DIRECTIVES):
        lead = line[: len(line) - len(body)]  # the go tool reads them at column 0 only
    core = body.rstrip(_WS)
    # `foo \` + spaces vs `foo \`: shells, make, C macros and Markdown read them differently.
    keep_trailing = not rules.trailing or core.endswith("\\")
    if kind in lexers.C_FAMILY and body.startswith(("///", "//!")):
        # Two trailing spaces are a line break in the rendered docs, and a doctest's
        # string may hold one (a review of a fix that freed one space: rustdoc runs
        # the code blocks of `///` lines as written).
        keep_trailing = True
    if kind == "markdown" and (_hard_break(body, core) or _open_code_span(core)):
        # Two trailing spaces make a hard line break; inside a code span that goes on
        # to the next line, a space is the code's own (`printf "%s ` then `ok"`).
        keep_trailing = True
    if not rules.inner:
        return lead + (body if keep_trailing else core)
    if kind == "text":
        return lead + _text_key(body if keep_trailing else core, indented=bool(lead))
    segments = lexers.line_segments(kind, body)
    if segments is None or (kind in _DIRECTIVE_KINDS and _DIRECTIVE.match(body)):
        # A JS regex-or-division slash, or a preprocessor line (`#define F(x)` differs
        # from `#define F (x)`, `#include <a b.h>`): only the ends of the line are free.
        return lead + (body if keep_trailing else core)
    if segments[-1][0] == "string" and segments[-1][2] > len(core):
        keep_trailing = True  # an unterminated string holds the trailing whitespace
    text = body if keep_trailing else core
    parts = [lead]
    for tag, start, end in segments:
        end = min(end, len(text))
        if start >= end:
            continue
        if tag == "code":
            parts.append(_code_key(kind, text, start, end))
        elif tag == "string":
            parts.append(f"\0<{text[start:end]}\0>")  # whitespace in any string is content
        else:
            parts.append(f"\0#{_comment_key(kind, text[start:end])}\0#")
    return "".join(parts)


def _code_key(kind: str, text: str, start: int, end: int) -> str:
    parts: list[str] = []
    pos = start
    for run in _WS_RUN.finditer(text, start, end):
        parts += (text[pos : run.start()], _separator(kind, text, run.start(), run.end()))
        pos = run.end()
    parts.append(text[pos:end])
    return "".join(parts)


def _separator(kind: str, text: str, start: int, end: int) -> str:
    """The key of the whitespace `text[start:end]` in code: "" where it may come and go.

    It may only where it neither joins nor splits tokens: `f( a )` is `f(a)`, but `int x`
    is not `intx`, `+ +` is not `++`, `u8 "s"` is not `u8"s"`.
    """
    if end >= len(text):
        return text[start:end]
    before, after = text[start - 1], text[end]
    if kind == "toml" and before + after in ("[[", "]]"):
        return " "  # `[[array]]` is not `[ [array]]`
    if before in _PUNCT or after in _PUNCT:
        return ""
    if (before in _OPERATOR) == (after in _OPERATOR):
        # Two word-like characters (letters, digits, `_$@#\`, quotes, non-ASCII) or two
        # operator characters: they could fuse into one token.
        if kind == "toml" and before not in _OPERATOR:
            return text[start:end]  # only a date-time has spaces between words: exact
        return " "
    if (after == "." and before.isdigit()) or (
        before == "." and (after.isdigit() or _number_ends_at(text, start - 1))
    ):
        return " "  # `1 .5` is not `1.5`, `1. e5` is not `1.e5`
    if after in "+-" and before in "eEpP" and _number_ends_at(text, start - 1):
        return " "  # `1e -5`, `0x1e +1`: one pp-number once joined
    exponent = text[start - 2 : start - 1]
    if before in "+-" and exponent and exponent in "eEpP" and _number_ends_at(text, start - 2):
        return " "  # `1e- 5`
    if kind in ("json", "toml") and before in "+-":
        return " "  # no unary minus there: `- 1` is invalid, `-1` a number
    return ""


def _number_ends_at(text: str, index: int) -> bool:
    first = index
    while first > 0 and (text[first - 1].isalnum() or text[first - 1] in "_."):
        first -= 1
    return text[first].isdigit() or (text[first] == "." and text[first + 1].isdigit())


def _comment_key(kind: str, comment: str) -> str:
    """Runs of whitespace in a comment become one space; the words stay the words.
    Exact: quoted text, often code that runs (doctests, `/// <reference path="...">`),
    and documentation, whose indented lines are code blocks shown as written and
    whose doctests' tabs are no spaces (found by adversarial reviews); in Go any
    comment, documentation or a directive (`//go:generate`)."""
    if '"' in comment or "`" in comment or kind == "go" or _DOC_HEAD.match(comment):
        return comment
    if TOOL_COMMENT.search(comment):
        return comment
    return _WS_RUN.sub(" ", comment)
