"""Prose rules (issue #3): front matter dates, re-wrapped paragraphs, typo fixes.

Each rule keeps its cheap checks first (most hunks are real changes and leave at the
first comparison of words) and proves what it claims: Markdown by rendering it
(prose_markdown), plain text by refusing every line that carries structure
(prose_text), comments by the lexer (prose_comments), words by narrow rules
(prose_words).
"""

from __future__ import annotations

import functools
import posixpath
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Literal, TypeVar, cast

from gitreview.analyze import lexical
from gitreview.classify import prose_comments, prose_markdown, prose_metadata, prose_text
from gitreview.classify.base import Proof, apply_hunk
from gitreview.classify.prose_words import COMMENT, MARKDOWN, TEXT, Fix, Flavor, line_fixes
from gitreview.model import Hunk, Line
from gitreview.patterns import lazy_compile

if TYPE_CHECKING:
    from gitreview.analyze import Analysis, Side
    from gitreview.classify.base import FileFacts

_PROSE_KINDS = ("markdown", "text")

Fixed = tuple[Line, Line, Fix]  # a removed line, the added line it became, a fixed word
Changed = tuple["Side", str, list[int]]  # a side, its text, the numbers of its changed lines
T = TypeVar("T")


# --- metadata ------------------------------------------------------------------------


def metadata_only(facts: FileFacts) -> Proof | None:
    """A Markdown file whose only change is in listed front matter keys."""
    change = facts.change
    if facts.kind != "markdown" or change.status not in ("modified", "renamed"):
        return None
    if change.old_mode != change.new_mode or _extension_changed(change.old_path, change.path):
        return None  # a change of its own, that a person decides about
    old_text, new_text = facts.analysis.old_text, facts.analysis.new_text
    if old_text is None or new_text is None or old_text == new_text:
        return None
    old, new = prose_metadata.front_matter(old_text), prose_metadata.front_matter(new_text)
    if old is None or new is None:
        return None
    changed = prose_metadata.changed_keys(old, new, facts.config.metadata_keys)
    if changed is None:
        return None
    values = "; ".join(f"{key}: {_shown(old)} → {_shown(new)}" for key, old, new in changed)
    reasons = ("renamed", "metadata") if change.status == "renamed" else ("metadata",)
    return Proof(
        reasons,
        f"only listed front matter keys changed ({values or 'no value, only their lines'}); "
        "the body, the delimiters and every other entry are byte for byte the same",
    )


def metadata_hunk(facts: FileFacts, hunk: Hunk) -> Proof | None:
    """A front matter hunk that only changes listed keys, whatever the rest of the file
    does (issue 11): the old file with only this hunk applied differs from the old file
    in listed keys only, and so does the new file from the new file with only this hunk
    undone (another hunk may end the front matter above it: its lines are then the
    page's text). The body's hunks are judged on their own."""
    change = facts.change
    if facts.kind != "markdown" or change.status not in ("modified", "renamed"):
        return None
    if _extension_changed(change.old_path, change.path):
        return None
    old_text, new_text = facts.analysis.old_text, facts.analysis.new_text
    if old_text is None or new_text is None:
        return None
    keys = facts.config.metadata_keys
    old, new = prose_metadata.front_matter(old_text), prose_metadata.front_matter(new_text)
    if old is None or new is None:
        return None
    applied = prose_metadata.front_matter(apply_hunk(old_text, hunk))
    undone = prose_metadata.front_matter(apply_hunk(new_text, hunk.undone()))
    if applied is None or undone is None:
        return None
    changed = prose_metadata.changed_keys(old, applied, keys)
    if changed is None or prose_metadata.changed_keys(undone, new, keys) is None:
        return None
    values = "; ".join(f"{key}: {_shown(old)} → {_shown(new)}" for key, old, new in changed)
    return Proof(
        ("metadata",),
        "the old file with only this hunk applied differs in listed front matter keys "
        f"only ({values or 'no value, only their lines'})",
    )


def _shown(value: object) -> str:
    text = "(absent)" if value is prose_metadata.ABSENT else str(value)
    return text if len(text) <= 40 else text[:39] + "…"


def _extension_changed(old_path: str | None, path: str) -> bool:
    return posixpath.splitext(old_path or path)[1] != posixpath.splitext(path)[1]


# --- reflow --------------------------------------------------------------------------


# Prose rules compare words: a hunk with a line longer than this (a minified file, a
# hostile multi-megabyte line) is no prose edit, and would cost seconds to compare.
MAX_LINE_CHARS = 20_000


def _too_long(hunk: Hunk) -> bool:
    return any(len(line.text) > MAX_LINE_CHARS for line in hunk.lines if line.origin != " ")


def reflow(facts: FileFacts, hunk: Hunk) -> Proof | None:
    """Prose re-wrapped: the same words in the same order, only the line breaks and the
    spaces between words moved."""
    if facts.kind not in _PROSE_KINDS or _too_long(hunk):
        return None
    removed, added = hunk.removed, hunk.added
    words = _words(removed)
    if not words or words != _words(added) or _texts(removed) == _texts(added):
        return None
    if facts.kind == "markdown":
        return _markdown_reflow(facts, hunk)
    return _text_reflow(facts.analysis, hunk)


def _markdown_reflow(facts: FileFacts, hunk: Hunk) -> Proof | None:
    old_text, new_text = facts.analysis.old_text, facts.analysis.new_text
    if old_text is None or new_text is None:
        return None
    if max(len(old_text), len(new_text)) > prose_markdown.MAX_RENDERED_CHARS:
        return None
    if old_text.startswith("{") or new_text.startswith("{"):
        return None  # Hugo's JSON front matter: a string's line break breaks the build
    if _breaks_are_syntax(facts.change.path) or facts.config.site.breaks_at(facts.change.path):
        return None
    if any(_extension_syntax(line.text) for line in hunk.lines if line.origin != " "):
        return None
    if _line_starts(hunk.removed) != _line_starts(hunk.added):
        return None
    if _reindented(hunk.removed, hunk.added):
        return None
    for side, text, first, count in (
        ("old", old_text, hunk.old_start, hunk.old_count),
        ("new", new_text, hunk.new_start, hunk.new_count),
    ):
        # Found by an adversarial review: front matter the renderer takes for text
        # (TOML's `+++`, YAML after a byte order mark), whose line breaks are syntax,
        # and highlighted code or math it takes for a paragraph.
        unrendered = _memo(facts, f"prose:unrendered-{side}", functools.partial(_unrendered, text))
        if not unrendered.isdisjoint(range(first, first + max(count, 1))):
            return None
    old, new = _rendered(facts, "old", old_text), _rendered(facts, "new", new_text)
    if _memo(facts, "prose:same-html", lambda: old.pieces == new.pieces):
        # One render for a whole re-wrapped document: no hunk of it changes its meaning.
        return Proof(
            ("reflow",),
            "the same words in the same order, and the HTML of the old and of the new file "
            "are the same (text whitespace as a browser shows it)",
        )
    both = _hunk_sides(facts, hunk)
    if both is None or any(without != with_it for without, with_it in both):
        return None
    return Proof(
        ("reflow",),
        "the same words in the same order, and the HTML of each file with and without "
        "only this hunk is the same (text whitespace as a browser shows it)",
    )


def _extension_syntax(line: str) -> bool:
    """Whether a line holds syntax of a renderer other than CommonMark's whose meaning
    hangs on where a line starts or ends, which markdown-it reads as text (found by
    adversarial reviews): a line starting as `_LINE_STARTS` lists, a MyST target
    (`(label)=`) or a link reference definition, which Python-Markdown reads anywhere
    in a paragraph; Hugo's shortcodes and Liquid tags (`{{< figure caption="..." >}}`
    split over two lines no longer builds), attribute lists and kramdown's
    (`{: .lead }`, `{.lead}`, `{:toc}`) and snippets (`--8<--`) anywhere in it; and
    a line ending in a tab (a hard line break once Python-Markdown expands it) or in
    kramdown's `\\\\` line break."""
    end = line[len(line.rstrip()) :]
    if "\t" in end or line.rstrip().endswith("\\\\"):
        return True
    if line.lstrip().startswith(_LINE_STARTS) or _TARGET_OR_DEFINITION.match(line):
        return True
    if _SPACED_ATTRIBUTES.search(line):
        return True
    return any(marker in line for marker in ("{:", "{.", "{#", "--8<--", "{{", "{%"))


# How a line starts where it means something to a renderer: MkDocs' admonitions,
# collapsible blocks and content tabs (`!!! note`, `??? note`, `=== "Linux"`),
# abbreviations (`*[HTML]:`), containers (`:::`, `///`), MyST's comments (`%`), a `#`
# (Python-Markdown's heading needs no space: `#123`), Pandoc's line blocks and tables
# (`|`, `+-`), kramdown's block end (`^`), and a definition (`: `, `~ `: goldmark,
# kramdown, Pandoc and PHP Markdown Extra make the line above its term).
_LINE_STARTS = (
    *("!!!", "???", "===", "*[", ":::", "///", "%", "#", "|", "+-", "^"),
    *(": ", "~ ", ":\t"),
)


# A line starting an ordered list at any number (kramdown and Python-Markdown let
# `2024. Upgrade` start one inside a paragraph, CommonMark only `1.`) or a tag
# (kramdown's HTML block: `<s>` ends the paragraph); an attribute list written with
# spaces (`{ .annotate }`). Found by an adversarial review.
_LIST_OR_TAG_START = lazy_compile(
    r"[ \t]*(?:\d{1,9}[.)](?=[ \t]|$)|<(?![A-Za-z][A-Za-z0-9+.-]*:)[A-Za-z/!?][\w-]*)"
)


def _line_starts(lines: Sequence[Line]) -> list[str]:
    """The ordered-list markers and tags the lines start with: a hunk re-wrapped so
    that one starts a line where none did (or none does where one did) is refused;
    a list item's own marker, on both sides, is not (an autolink is no tag)."""
    starts = (_LIST_OR_TAG_START.match(line.text) for line in lines)
    return sorted(found.group().strip() for found in starts if found)


def _reindented(removed: Sequence[Line], added: Sequence[Line]) -> bool:
    """Whether a line is on both sides with other indentation: re-indented, not
    re-wrapped. Renderers other than markdown-it read it otherwise (found by an
    adversarial review): Python-Markdown (MkDocs) nests a block in a list item only
    four spaces in, where a formatter's two leave it flat; goldmark (Hugo) puts a
    block indented below a definition into it; an admonition's body is its indented
    lines."""
    sides: list[dict[str, list[str]]] = [{}, {}]
    for lines, indents in zip((removed, added), sides, strict=True):
        for line in lines:
            text = line.text.rstrip("\r\n")
            words = text.lstrip()
            if words:
                indents.setdefault(words, []).append(text[: len(text) - len(words)])
    old, new = sides
    if any(sorted(old[words]) != sorted(new[words]) for words in old.keys() & new.keys()):
        return True
    # A list item starts at the same indentation after a re-wrap (a third review: a
    # sub-list moved from two spaces to four, its lines re-wrapped).
    if _item_starts(removed) != _item_starts(added):
        return True
    # Re-indented and changed otherwise too (re-wrapped, a trailing space dropped: a
    # review of the fix): each side's indentations are the other's, or the column a
    # list item's text starts at (a re-wrap makes a line of an item's text, or joins
    # one up).
    went, came = ({indent for found in side.values() for indent in found} for side in sides)
    return not (went <= _columns(added) and came <= _columns(removed))


_ITEM = lazy_compile(r"([ \t]*)((?:[-*+]|\d{1,9}[.)])[ \t]+)")


def _item_starts(lines: Sequence[Line]) -> list[tuple[str, str]]:
    """The indentation and marker of each list item the lines start, sorted (compared
    as a multiset: a re-wrap may move an item's place in the hunk, not its start)."""
    found = (_ITEM.match(line.text) for line in lines)
    return sorted((item.group(1), item.group(2).strip()) for item in found if item)


def _columns(lines: Sequence[Line]) -> set[str]:
    """The indentations the lines' text may take: each line's own, and the column the
    text of a list item it starts begins at."""
    found: set[str] = set()
    for line in lines:
        text = line.text.rstrip("\r\n")
        words = text.lstrip()
        if not words:
            continue
        found.add(text[: len(text) - len(words)])
        item = _ITEM.match(text)
        if item is not None:
            found.add(item.group(1) + " " * len(item.group(2)))
    return found


_SPACED_ATTRIBUTES = lazy_compile(r"\{[ \t]+[:.#]")

# A MyST target (`(label)=`), or a link reference definition, which Python-Markdown
# takes anywhere in a paragraph (`[docs]: https://...`).
_TARGET_OR_DEFINITION = lazy_compile(r"[ \t]*(?:\([^()\s]+\)=|\[[^\]]+\]:[ \t])")


def _breaks_are_syntax(path: str) -> bool:
    """Whether the page is rendered with every line break a `<br>`: Hexo's pages
    (hexo-renderer-marked's `breaks: true`, for every page of `source/`) and GitHub's
    issue and pull request templates, whose issues keep their line breaks."""
    lowered = path.lower()
    if "/source/" in f"/{lowered}":
        return True  # Hexo renders every page of its source/ so, not only its posts
    return "issue_template" in lowered or "pull_request_template" in lowered


def _hunk_sides(facts: FileFacts, hunk: Hunk) -> list[prose_markdown.Sides] | None:
    """The hunk's effect in each file (prose_markdown.hunk_sides), as far as it can
    differ, when the files are small enough to render for each hunk: the pieces of the
    old file and of the old file with only `hunk` applied, then those of the new file
    with only `hunk` undone and of the new file. Both, because the other hunks may
    change what it means: a newline dropped at the end of a page is nothing in a
    paragraph, and content in a code fence another hunk leaves open to the end."""
    old_text, new_text = facts.analysis.old_text, facts.analysis.new_text
    if old_text is None or new_text is None:
        return None
    if not prose_markdown.affordable(old_text, new_text, len(facts.change.hunks)):
        return None
    applied = prose_markdown.hunk_sides(old_text, _rendered(facts, "old", old_text), hunk)
    if applied is None:
        return None
    undone = prose_markdown.hunk_sides(new_text, _rendered(facts, "new", new_text), hunk.undone())
    if undone is None:
        return None
    return [applied, (undone[1], undone[0])]


def _rendered(facts: FileFacts, side: Literal["old", "new"], text: str) -> prose_markdown.Rendered:
    return _memo(facts, f"prose:{side}-rendered", lambda: prose_markdown.rendered(text))


def _text_reflow(analysis: Analysis, hunk: Hunk) -> Proof | None:
    old_side = [line.text for line in hunk.lines if line.origin != "+"]
    new_side = [line.text for line in hunk.lines if line.origin != "-"]
    if prose_text.paragraphs(old_side) != prose_text.paragraphs(new_side):
        return None  # a paragraph break appeared, vanished or moved
    if any("``" in line.text for line in (*hunk.removed, *hunk.added)):
        return None  # an RST inline literal (``a  b``) shows its spaces
    sides = _changed_lines(analysis, hunk)
    if sides is None or not _plain(analysis, sides):
        return None
    if any(prose_text.reflow_is_structural(text, numbers) for _, text, numbers in sides):
        return None
    return Proof(
        ("reflow",),
        "the same words in the same order, paragraph by paragraph; no changed line is or "
        "introduces a list item, title, directive, field, table or literal block",
    )


def _words(lines: tuple[Line, ...]) -> list[str]:
    return [word for line in lines for word in prose_text.words_of(line.text)]


def _texts(lines: tuple[Line, ...]) -> list[tuple[str, bool]]:
    return [(line.text, line.newline) for line in lines]


# --- typo ----------------------------------------------------------------------------


def typo(facts: FileFacts, hunk: Hunk) -> Proof | None:
    """Every changed word is a typo fix of the old word, in prose or in a comment."""
    flavor = _flavor(facts.kind)
    pairs = None if _too_long(hunk) else _line_pairs(hunk)
    if flavor is None or pairs is None or prose_comments.example_output(facts, hunk):
        return None
    fixes: list[Fixed] = []
    for old, new in pairs:
        found = line_fixes(old.text, new.text, flavor)
        if found is None:
            return None
        fixes += [(old, new, fix) for fix in found]
    if not fixes or not _typo_in_place(facts, hunk, fixes):
        return None
    if any(old.text.lstrip().startswith("|") or " | " in old.text for old, _, _ in fixes):
        return None  # a table's cell often names a key: `| colour | string |`
    if _still_written(facts.analysis.new_text, fixes) or any(
        _named(old.text, fix) for old, _, fix in fixes
    ):
        return None
    where = {"markdown": "Markdown prose", "text": "prose"}.get(facts.kind, "comments")
    listed = "; ".join(str(fix) for _, _, fix in fixes)
    return Proof(("typo",), f"typo fixes in {where}, nothing else changed: {listed}")


def _still_written(text: str | None, fixes: list[Fixed]) -> bool:
    """Whether a word fixed is still written elsewhere in the new file: then it is a
    name the project uses (a tool, `pipx install`; a key), not a misspelling (found
    by an adversarial review: `with pipx` made `with pips` was a typo fix)."""
    if text is None:
        return True
    return any(re.search(rf"(?<![\w-]){re.escape(fix.old)}(?![\w-])", text) for *_, fix in fixes)


def _named(line: str, fix: Fix) -> bool:
    """Whether the old word may be a name: capitalised where a sentence does not
    start (found by an adversarial review: "with Serde" made "with Serve", Hexo made
    Hero), unless it became a word a sentence starts with ("Teh" made "The"). At a
    sentence's start a capital says nothing ("Seperate" made "Separate")."""
    if not fix.old[:1].isupper() or fix.new.lower() in _SENTENCE_WORDS:
        return False
    before = line[: fix.old_span[0]]
    return not (_OPENING.fullmatch(before) or _SENTENCE_END.search(before))


# What may stand before a sentence's first word on a line: list markers, a quote's
# `>`, a heading's `#`, a comment's opener, emphasis; or a sentence's end before it.
_OPENING = lazy_compile(r"[\s>#*+\-\d.)(\[\]xX\"'`_/;%!|:]*")
_SENTENCE_END = lazy_compile(r"[.!?:][\"')\]*_`]*\s+[\"'(\[*_`]*$")


_SENTENCE_WORDS = frozenset(
    {"the", "this", "that", "these", "those", "there", "then", "they", "their", "when"}
    | {"what", "which", "where", "while", "with", "without", "its", "if", "in", "is", "it"}
    | {"on", "of", "for", "from", "and", "but", "or", "to", "as", "at", "by", "we", "you"}
    | {"your", "our", "not", "all", "any", "each", "every", "some", "most", "many", "more"}
    | {"also", "only", "however", "because", "before", "after", "during", "since", "until"}
    | {"please", "note", "here", "how", "why", "once", "otherwise", "although", "though"}
)


def _flavor(kind: str) -> Flavor | None:
    if kind == "markdown":
        return MARKDOWN
    if kind == "text":
        return TEXT
    return COMMENT if kind in prose_comments.KINDS else None


def _line_pairs(hunk: Hunk) -> list[tuple[Line, Line]] | None:
    """Removed and added lines paired in order within each run of changed lines; None
    when a run removes and adds different numbers of lines, or a line ending changed."""
    pairs: list[tuple[Line, Line]] = []
    removed: list[Line] = []
    added: list[Line] = []
    for line in (*hunk.lines, Line(" ", None, None, "")):
        if line.origin == "-":
            removed.append(line)
        elif line.origin == "+":
            added.append(line)
        elif removed or added:
            if len(removed) != len(added):
                return None
            pairs += zip(removed, added, strict=True)
            removed, added = [], []
    if any(old.newline != new.newline for old, new in pairs):
        return None
    return pairs


def _typo_in_place(facts: FileFacts, hunk: Hunk, fixes: list[Fixed]) -> bool:
    """Whether the fixed words are prose where they stand: Markdown text that renders as
    text, plain-text paragraphs, or comments."""
    if facts.kind == "markdown":
        return _markdown_typo(facts, hunk)
    sides = _changed_lines(facts.analysis, hunk)
    if sides is None or not _plain(facts.analysis, sides):
        return False
    if facts.kind == "text":
        return _text_typo(hunk, sides)
    return _comment_typo(facts, sides, fixes)


def _text_typo(hunk: Hunk, sides: list[Changed]) -> bool:
    """No changed line names something (a title, a directive, a field) or reads like code."""
    if any(prose_text.typo_names_something(text, numbers) for _, text, numbers in sides):
        return False
    changed = (*hunk.removed, *hunk.added)
    return not any(prose_comments.CODE_LIKE.search(line.text) for line in changed)


def _comment_typo(facts: FileFacts, sides: list[Changed], fixes: list[Fixed]) -> bool:
    """Every fixed word is inside a comment on both sides, one that no tool reads."""
    (_, old_text, _), (_, new_text, _) = sides
    kind = facts.kind
    old = _memo(facts, "prose:old-comments", lambda: prose_comments.comments(kind, old_text))
    new = _memo(facts, "prose:new-comments", lambda: prose_comments.comments(kind, new_text))
    if old is None or new is None:
        return False
    if prose_comments.comments_read_as_data(kind, new_text, [added.text for _, added, _ in fixes]):
        return False
    for removed, added, fix in fixes:
        if removed.old_no is None or added.new_no is None:
            return False
        if not prose_comments.in_prose_comment(old, removed.old_no, *fix.old_span):
            return False
        if not prose_comments.in_prose_comment(new, added.new_no, *fix.new_span):
            return False
    return True


def _markdown_typo(facts: FileFacts, hunk: Hunk) -> bool:
    """Each file with and without only this hunk renders to the same HTML but for typo
    fixes in text outside code, pre-formatted text and headings (a heading's words are
    its anchor)."""
    both = _hunk_sides(facts, hunk)
    return both is not None and all(
        len(before) == len(after)
        and all(
            old == new
            or (
                not old.tag
                and not new.tag
                and old.where == new.where == "text"
                and line_fixes(old.value, new.value, MARKDOWN) is not None
            )
            for old, new in zip(before, after, strict=True)
        )
        for before, after in both
    )


# --- shared --------------------------------------------------------------------------


def _changed_lines(analysis: Analysis, hunk: Hunk) -> list[Changed] | None:
    """Each side with its full text and the numbers of its changed lines; None when a
    side's text or a line number is unknown."""
    candidates: tuple[tuple[Side, str | None, list[int | None]], ...] = (
        ("old", analysis.old_text, [line.old_no for line in hunk.removed]),
        ("new", analysis.new_text, [line.new_no for line in hunk.added]),
    )
    sides: list[Changed] = []
    for side, text, lines in candidates:
        numbers = [number for number in lines if number is not None]
        if text is None or len(numbers) != len(lines):
            return None
        sides.append((side, text, numbers))
    return sides


def _plain(analysis: Analysis, sides: list[Changed]) -> bool:
    """No changed line is literal (a code block, a table, a multi-line string...) or in
    a file the lexical rules could not read."""
    for side, _, numbers in sides:
        literal = analysis.literal_lines(side)
        if literal is None or not literal.isdisjoint(numbers):
            return False
    return True


def _unrendered(text: str) -> frozenset[int]:
    """The lines of a Markdown page the renderer does not read as the site does."""
    split = text.split("\n")
    front = 0 if text.startswith("---") else lexical.front_matter_lines(split)
    templates = lexical.template_blocks(split) if "{" in text or "$$" in text else set()
    # Raw HTML's text, whose line breaks what reads it may keep (Mermaid's diagram in
    # a `<div class="mermaid">`), or whose Markdown another renderer reads (MkDocs'
    # `<div markdown>`, where a line starting `> 0` is a quote): found by an
    # adversarial review.
    return frozenset(range(1, front + 1)) | templates | lexical.html_block_lines(text)


def _memo(facts: FileFacts, key: str, compute: Callable[[], T]) -> T:
    """Work done once per file and shared by its hunks (a render, a lexer pass)."""
    if key not in facts.memo:
        facts.memo[key] = compute()
    return cast(T, facts.memo[key])
