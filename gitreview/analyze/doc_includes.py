"""Pages at head that show another file's lines by their numbers, or that include a
file the range took away (found by an adversarial review on rust-lang/book).

mdBook's `{{#include src/main.rs:8:9}}`, Sphinx's `literalinclude` with `:lines:`,
AsciiDoc's `include::x[lines=5..10]`, VitePress's `<!--@include: x{6,7}-->` and
MkDocs' snippets (`--8<-- "x:3:5"`) show lines of a file by number. A blank line
added above them, a reformat or a re-wrap is trivial as a change to that file, but
the page now shows other lines (`docs/included-lines`); a file they include that the
range deleted or renamed away breaks the book's build (`docs/include-lost`). Looked
for once per range, where the head has such a tool's configuration, in the pages at
head that hold an include (git searches them), and only for files other than pages
whose numbering the range changed or that it took away; a page the range touched is
its own review's.
"""

from __future__ import annotations

import posixpath
import re
from bisect import bisect_left
from collections.abc import Callable, Iterable, Iterator
from typing import NamedTuple

from gitreview.analyze.base import HeadTree, Rule
from gitreview.model import Finding
from gitreview.patterns import lazy_compile

LINES = Rule(
    "docs/included-lines",
    "warning",
    "a page at head shows lines of a file by their numbers, and the range moved that file's"
    " lines there: the page now shows other lines",
)
LOST = Rule(
    "docs/include-lost",
    "warning",
    "a page at head includes a file the range deleted or renamed away",
)
RULES = (LINES, LOST)

_PAGES = (".md", ".markdown", ".mdx", ".rst", ".txt", ".adoc", ".asciidoc")
# What every page that includes a file holds, for git to search.
_MARKERS = ("{{#include", "{{#rustdoc_include", "include::", "--8<--", "@include:")
_ENDLESS = 1 << 30  # `8:` in mdBook, `9-` in Sphinx: to the end of the file

# (the path, and the lines it names: none for the whole file, or a name's anchor)
_MDBOOK = lazy_compile(r"\{\{#(?:rustdoc_)?include\s+([^}\s:]+)(?::([^}\s]*))?\s*\}\}")
_SPHINX = lazy_compile(r"^([ \t]*)\.\.[ \t]+(?:literalinclude|include)::[ \t]*(\S+)", re.MULTILINE)
_SPHINX_LINES = lazy_compile(r"^[ \t]+:(lines|start-line|end-line):[ \t]*(\S+)", re.MULTILINE)
_ASCIIDOC = lazy_compile(r"^include::([^\[\n]+)\[([^\]\n]*)\]", re.MULTILINE)
_VITEPRESS = lazy_compile(r"<!--\s*@include:\s*([^\s{]+?)(?:\{([^}]*)\})?\s*-->")
_SNIPPET = lazy_compile(r"""--8<--[ \t]+["']([^"'\n]+)["']""")
_NUMBERS = lazy_compile(r"[0-9]+")
_BREAK = lazy_compile(r"\n")


class Changed(NamedTuple):
    """A file of the range, as this check needs it: its path at the base, whether the
    range took that path away (deleted, or renamed to `renamed_to`), and the first
    line of the base whose content or place the range changed (None: none did)."""

    old_path: str
    gone: bool
    renamed_to: str | None
    first_moved: int | None


class _Include(NamedTuple):
    target: str  # as the page writes it
    line: int  # the page's line
    last: int | None  # the last line shown by number; None: the whole file, or by name


# Where the tools whose pages show files by line numbers keep their configuration:
# mdBook, Sphinx, MkDocs, VitePress, Antora and git's own AsciiDoc. Without one at
# head, no page is searched (a search of tldr's 38,000 pages cost each run half a
# second of a core).
_TOOLCHAINS = (
    *("book.toml", "docs/book.toml", "book/book.toml", "guide/book.toml", "src/SUMMARY.md"),
    *("mkdocs.yml", "mkdocs.yaml", "docs/mkdocs.yml", "conf.py", "docs/conf.py", "doc/conf.py"),
    *("docs/source/conf.py", "doc/source/conf.py", "Documentation/conf.py", ".vitepress"),
    *("docs/.vitepress", "antora.yml", "docs/antora.yml", "Documentation/asciidoc.conf"),
)


def searched(
    paths: Iterable[str], exists: Callable[[str], bool]
) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """What git is to search the head for, started as soon as the range's paths are
    known (it runs while the files are proved): the markers of includes, in pages; None
    when every path is a page's, or the head (`exists`) has no such tool's files."""
    if all(path.lower().endswith(_PAGES) for path in paths):
        return None
    if not any(map(exists, _TOOLCHAINS)):
        return None
    return _MARKERS, _PAGES


def check(
    changed: Iterable[Changed],
    head: HeadTree | None,
    touched: set[str],
    holding: Iterable[str] = (),
) -> Iterator[Finding]:
    """Each include at head, in a page the range did not touch, of a file in `changed`
    whose numbered lines moved, or that is gone; `holding`: the pages git found
    holding an include's marker (`searched`)."""
    # Pages themselves are left out: a range of pages (tldr's 38,000) would have every
    # page searched for every push, and a page's includes of pages are the site's own
    # build's to check.
    files = [
        one
        for one in changed
        if (one.gone or one.first_moved is not None) and not one.old_path.lower().endswith(_PAGES)
    ]
    if head is None or not files:
        return
    pages = [page for page in holding if page not in touched]
    if not pages:
        return
    by_name: dict[str, list[Changed]] = {}
    for changed_file in files:
        by_name.setdefault(posixpath.basename(changed_file.old_path), []).append(changed_file)
    for page, data in zip(pages, head.read_many(pages), strict=True):
        if data is None:
            continue
        text = data.decode("utf-8", "replace")
        for include in _includes(page, text):
            one = _resolved(page, include.target, by_name)
            if one is None:
                continue
            if one.gone:
                if not head.is_file(_beside(page, include.target)):
                    what = "deleted" if one.renamed_to is None else f"renamed to {one.renamed_to}"
                    message = f"includes {include.target}, which the range {what}"
                    yield Finding(LOST.id, LOST.severity, page, include.line, message)
            elif one.first_moved is not None and one.first_moved <= (include.last or 0):
                message = (
                    f"shows lines of {include.target} by number, and the range moved "
                    f"its lines from line {one.first_moved} on: the page now shows "
                    "other lines"
                )
                yield Finding(LINES.id, LINES.severity, page, include.line, message)


def _beside(page: str, target: str) -> str:
    return posixpath.normpath(posixpath.join(posixpath.dirname(page), target))


def _resolved(page: str, target: str, by_name: dict[str, list[Changed]]) -> Changed | None:
    """The changed file the include names: from the page's folder, or (a snippet's
    base path, a Sphinx source folder's `/x`) as the end of its path. `by_name`: the
    changed files by their names (a range's thousands, not walked for each include)."""
    beside = _beside(page, target)
    tail = target.lstrip("/").removeprefix("./")
    for one in by_name.get(posixpath.basename(beside), ()):
        if one.old_path == beside or one.old_path == tail or one.old_path.endswith("/" + tail):
            return one
    return None


def _includes(page: str, text: str) -> Iterator[_Include]:
    # Each include's line by a search of the line breaks, counted once (from the page's
    # start for each include, a page of many was quadratic).
    breaks = [found.start() for found in _BREAK.finditer(text)]

    def line_of(offset: int) -> int:
        return bisect_left(breaks, offset) + 1

    for found in _MDBOOK.finditer(text):
        yield _Include(found.group(1), line_of(found.start()), _mdbook_last(found.group(2)))
    for found in _VITEPRESS.finditer(text):
        yield _Include(found.group(1), line_of(found.start()), _last_of(found.group(2)))
    for found in _SNIPPET.finditer(text):
        target, _, lines = found.group(1).partition(":")
        yield _Include(target, line_of(found.start()), _last_of(lines))
    for found in _ASCIIDOC.finditer(text):
        lines = re.search(r"lines=\"?([^\",\]]+)", found.group(2))
        yield _Include(found.group(1), line_of(found.start()), _last_of(lines and lines.group(1)))
    for found in _SPHINX.finditer(text):
        yield _Include(found.group(2), line_of(found.start()), _sphinx_last(text, found))


def _mdbook_last(lines: str | None) -> int | None:
    """`8:9`, `8:`, `:9`, `8`: the last line shown; an anchor's name: None."""
    if not lines:
        return None
    start, colon, end = lines.partition(":")
    if not (start.isdigit() or end.isdigit() or (colon and not start and not end)):
        return None  # an anchor
    if colon and not end:
        return _ENDLESS
    return int(end or start)


def _last_of(lines: str | None) -> int | None:
    """The largest line number a selection names (`6,7`, `5..10;15`, `3:5`); an open
    end, to the end of the file; none named: None."""
    if not lines:
        return None
    numbers = [int(number) for number in _NUMBERS.findall(lines)]
    if not numbers:
        return None
    stripped = lines.strip()
    if stripped.endswith((",", "..", ":", "-")) or stripped.startswith(("-", "..")):
        return _ENDLESS
    return max(numbers)


def _sphinx_last(text: str, directive: re.Match[str]) -> int | None:
    """The last line a directive's options show (`:lines: 2-5,7`, `:end-line: 9`), to
    the end when only its start is given (`:start-line: 3`); read from the option
    lines right below the directive."""
    options = []
    start = text.find("\n", directive.end()) + 1  # the line after the directive's
    while 0 < start < len(text):
        stop = text.find("\n", start)
        line = text[start : len(text) if stop < 0 else stop]
        if not line.strip() or not line[:1].isspace():
            break
        options.append(line)
        start = stop + 1 if stop >= 0 else len(text)
    last: int | None = None
    for option in _SPHINX_LINES.finditer("\n".join(options)):
        name, value = option.group(1), option.group(2)
        if name == "end-line" and value.isdigit():
            last = int(value)
        elif name in ("lines", "start-line"):
            end = _last_of(value if name == "lines" else value + "-")
            last = end if last is None or end is None else max(last, end)
    return last
