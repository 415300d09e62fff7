"""Relative links in Markdown, checked against the head commit's tree.

A link resolves as GitHub resolves it: from the linking file's folder, or from
the repository root when it starts with `/`; percent-escapes decoded; the
query ignored. Its target must exist at head (a folder is fine), and its
`#fragment`, when it points into a Markdown file, must name a heading or an
explicit anchor there. The tree is the only truth: the file system is never read.
"""

from __future__ import annotations

import posixpath
import weakref
from collections.abc import Collection, Iterable, Iterator, Sequence
from typing import NamedTuple
from urllib.parse import quote, unquote, urlsplit

from gitreview.analyze import markdown_doc
from gitreview.analyze.base import HeadTree, Lost, Rule
from gitreview.analyze.markdown import BROKEN_ANCHOR, BROKEN_ELSEWHERE, BROKEN_LINK
from gitreview.analyze.markdown_doc import Document, Link
from gitreview.model import ANY_MACRO, Finding
from gitreview.pages import MARKDOWN_SUFFIXES, is_markdown, name_forms
from gitreview.patterns import lazy_compile

# Fragments every page has: an empty one and "top" (HTML scrolls to the top).
_ALWAYS_THERE = frozenset({"", "top"})
# GitHub prefixes the ids it renders; a link may use the prefixed form.
_ID_PREFIX = "user-content-"


class Target(NamedTuple):
    """Where a relative link points: a path at head ("" is the root) and a fragment."""

    path: str
    fragment: str | None  # decoded; None when the link has no `#`
    folder: bool  # written with a trailing slash
    check_fragment: bool  # False where GitHub's fragments are not anchors (?plain=1#L10)


class AboveRoot(Exception):
    """A link whose `..` climbs out of the repository."""


def resolve(link: Link, source: str) -> Target:
    """The target of a (relative) link written in the file at `source`."""
    parts = urlsplit(link.target)
    written = unquote(parts.path)
    fragment = unquote(parts.fragment) if "#" in link.target else None
    if not written:
        return Target(source, fragment, folder=False, check_fragment=True)
    folder = "" if written.startswith("/") else posixpath.dirname(source)
    path = _normal(posixpath.join(folder, written.lstrip("/")))
    return Target(path, fragment, written.endswith("/"), "plain=1" not in parts.query)


def _normal(path: str) -> str:
    kept: list[str] = []
    for part in path.split("/"):
        if part == "..":
            if not kept:
                raise AboveRoot
            kept.pop()
        elif part not in ("", "."):
            kept.append(part)
    return "/".join(kept)


def shown(link: Link) -> str:
    """The link as a person wrote it, for messages."""
    return unquote(link.target)


def missing_anchor(fragment: str, document: Document) -> bool:
    wanted = fragment.lower().removeprefix(_ID_PREFIX)
    return wanted not in _ALWAYS_THERE and wanted not in document.anchor_names()


def closest_anchor(fragment: str, document: Document) -> str | None:
    import difflib  # only a broken anchor needs it

    names = sorted(heading.slug for heading in document.headings)
    close = difflib.get_close_matches(fragment.lower(), names, n=1, cutoff=0.6)
    return close[0] if close else None


# What a file's analysis asked the head tree, with the answers it got, so that a
# verdict cached for its blob pair is reused only where the head still answers the
# same (cache.py): ("exists", path, folder?, found), ("blob", path, id or None),
# ("module", name, False, found) (`is_module`) or ("macro", name, False, found).
Asked = tuple[str, str, bool, bool | str | None]


class HeadIndex:
    """What the link checks read from one head tree, read once per range: the
    analyzer runs per file, but every file of a range shares the head."""

    # Paths looked up one by one before the whole tree is listed instead: a page
    # holds dozens of links, but listing a tree of 40k files costs as much as
    # thousands of lookups, and an everyday push asks about a few paths (issue 12).
    LOOKUPS_BEFORE_LISTING = 1000

    def __init__(self, head: HeadTree) -> None:
        self.head = head
        self._paths: frozenset[str] | None = None
        self._folders: frozenset[str] | None = None
        self._modules: frozenset[str] | None = None
        self._macros: frozenset[str] | None = None
        self._lookups: dict[tuple[str, bool], bool] = {}
        self._texts: dict[str, str | None] = {}
        self._documents: dict[str, Document | None] = {}
        self.asked: list[Asked] | None = None  # a list while one file's questions are kept

    def exists(self, path: str, *, folder: bool = False) -> bool:
        """Whether `path` is at head (a folder, a file or a submodule; only a folder
        when `folder`)."""
        found = self._exists(path, folder)
        if self.asked is not None:
            self.asked.append(("exists", path, folder, found))
        return found

    def _exists(self, path: str, folder: bool) -> bool:
        if self._paths is None:
            key = (path, folder)
            if key not in self._lookups:
                if len(self._lookups) < self.LOOKUPS_BEFORE_LISTING:
                    found = self.head.is_dir(path) if folder else self.head.exists(path)
                    self._lookups[key] = found
                    return found
                self._paths = frozenset(self.head.files())
            else:
                return self._lookups[key]
        # The listing also holds submodules, which are neither file nor folder.
        if self._folders is None:
            self._folders = frozenset(_folders(self._paths))
        return path in self._folders or (not folder and path in self._paths)

    def is_module(self, name: str) -> bool:
        """Whether the head has a folder, or a Python file, named `name` anywhere: a
        module or package of the project's own, which `import name` may find (the
        script's folder, the root, `src/`, a package of a monorepo...)."""
        if self._modules is None:
            if self._paths is None:
                self._paths = frozenset(self.head.files())
            self._modules = frozenset(_module_names(self._paths))
        found = name in self._modules
        if self.asked is not None:
            self.asked.append(("module", name, False, found))
        return found

    def is_macro(self, name: str) -> bool:
        """Whether a C or C++ header at head defines a macro `name`: one that may
        stringize its arguments, or pass them to one that does (a function-like
        macro, or another name for one: `#define show dbg_expr`)."""
        if self._macros is None:
            self._macros = self.head.macros()
        found = name in self._macros or ANY_MACRO in self._macros
        if self.asked is not None:
            self.asked.append(("macro", name, False, found))
        return found

    # Files links elsewhere read at once: each is let go once looked at, and a range
    # that loses pages thousands of files name must not hold all their texts.
    TEXTS_AT_ONCE = 256

    def texts(self, paths: Sequence[str]) -> Iterator[tuple[str, str | None]]:
        """Each file's text (`text`), in order, asked of the head a batch at a time
        rather than one round trip each, and not kept (links elsewhere read every
        file naming a lost page)."""
        for start in range(0, len(paths), self.TEXTS_AT_ONCE):
            batch = paths[start : start + self.TEXTS_AT_ONCE]
            wanted = [path for path in batch if path not in self._texts]
            read = dict(zip(wanted, self.head.read_many(wanted), strict=True))
            for path in batch:
                self._ask(path)
                if path in self._texts:
                    yield path, self._texts[path]
                else:
                    yield path, _decoded(read[path])

    def text(self, path: str) -> str | None:
        self._ask(path)
        if path not in self._texts:
            self._texts[path] = _decoded(self.head.read(path))
        return self._texts[path]

    def _ask(self, path: str) -> None:
        if self.asked is not None:
            self.asked.append(("blob", path, False, self.head.oid(path)))

    def document(self, path: str, text: str | None = None) -> Document | None:
        """The Markdown file at `path` in the head, parsed once (`text` when the
        caller already has it: then nothing is asked of the head)."""
        if text is not None:
            self._texts.setdefault(path, text)
        elif path not in self._documents:
            text = self.text(path)
        elif self.asked is not None:
            self.asked.append(("blob", path, False, self.head.oid(path)))
        if path not in self._documents:
            self._documents[path] = None if text is None else markdown_doc.parse(text)
        return self._documents[path]

    def answers(self, asked: Iterable[Asked]) -> bool:
        """Whether the head answers each of these questions as it was answered."""
        for question, path, folder, answer in asked:
            if question == "exists":
                if self._exists(path, folder) != answer:
                    return False
            elif question in ("module", "macro"):
                asking = self.is_module if question == "module" else self.is_macro
                if asking(path) != answer:
                    return False
            elif self.head.oid(path) != answer:
                return False
        return True


def _folders(paths: Iterable[str]) -> Iterator[str]:
    yield ""  # the root
    for path in paths:
        parts = path.split("/")[:-1]
        for depth in range(1, len(parts) + 1):
            yield "/".join(parts[:depth])


# What a file whose name `import name` finds ends with (an extension module's name
# holds its platform: `name.cpython-311-x86_64-linux-gnu.so`).
_MODULE_FILE = lazy_compile(r"([^./]+)(?:\.[^/]*)?\.(?:py|pyi|pyx|pxd|so|pyd)$")


def _module_names(paths: Iterable[str]) -> Iterator[str]:
    for path in paths:
        *folders, name = path.split("/")
        yield from folders
        found = _MODULE_FILE.fullmatch(name)
        if found:
            yield found.group(1)


_INDEXES: weakref.WeakKeyDictionary[HeadTree, HeadIndex] = weakref.WeakKeyDictionary()


def head_index(head: HeadTree) -> HeadIndex:
    """The index of `head`, kept for as long as the head tree itself (one range).
    It reads the head through a weak proxy: a value that held its own key would
    keep both, and every text and page it read, for the life of the process."""
    index = _INDEXES.get(head)
    if index is None:
        index = _INDEXES[head] = HeadIndex(weakref.proxy(head))
    return index


# --- Findings --------------------------------------------------------------------------


def check_links(document: Document, path: str, index: HeadIndex | None) -> Iterator[Finding]:
    """Broken links and anchors in one file at head (without a head tree, only
    anchors within the file itself can be checked)."""
    for link in document.links:
        noun = "image" if link.image else "link"
        try:
            target = resolve(link, path)
        except AboveRoot:
            message = f"broken {noun} '{shown(link)}': it leads above the repository root"
            yield _finding(BROKEN_LINK, path, link.line, message)
            continue
        if target.path == path:
            linked: Document | None = document
        elif index is None:
            continue
        elif not index.exists(target.path, folder=target.folder):
            page = _page_built_as(target, index)
            if page is None:
                yield _finding(BROKEN_LINK, path, link.line, _missing(noun, link, target, index))
                continue
            linked = index.document(page)
        elif target.folder or not is_markdown(target.path):
            continue
        else:
            linked = index.document(target.path)
        if target.fragment is None or linked is None or not target.check_fragment:
            continue
        if missing_anchor(target.fragment, linked):
            yield _finding(BROKEN_ANCHOR, path, link.line, _no_anchor(link, target, path, linked))


def _page_built_as(target: Target, index: HeadIndex) -> str | None:
    """The Markdown page a site builds as the `.html` page a link names (`functor.html`
    from `functor.md`: Jekyll, GitHub Pages, sbt-microsites), if the head has it: the
    link works on the site (found by an adversarial review: an error, exit 1)."""
    stem, extension = posixpath.splitext(target.path)
    if target.folder or extension.lower() != ".html":
        return None
    return next(
        (stem + suffix for suffix in (".md", ".markdown") if index.exists(stem + suffix)), None
    )


def _missing(noun: str, link: Link, target: Target, index: HeadIndex) -> str:
    if target.folder and index.exists(target.path):
        return f"broken {noun} '{shown(link)}': {target.path} is a file, not a folder"
    return f"broken {noun} '{shown(link)}': {target.path} does not exist at head"


def _no_anchor(link: Link, target: Target, path: str, linked: Document) -> str:
    assert target.fragment is not None
    where = "this file" if target.path == path else target.path
    message = f"broken anchor '{shown(link)}': no heading or anchor '{target.fragment}' in {where}"
    close = closest_anchor(target.fragment, linked)
    return message if close is None else f"{message} (did you mean '#{close}'?)"


def check_elsewhere(
    lost: Sequence[Lost], index: HeadIndex, touched: Collection[str] = ()
) -> Iterator[Finding]:
    """Links, in every other Markdown file at head, to what the range lost, in one
    search per range (issue 12): any link to a lost target names its file, so git
    lists the files that hold one of the names, and only those are read and parsed.
    Nothing is read when nothing was lost. The files the range `touched` are not
    read: their own analysis reports their links. (A symbolic link named like a
    Markdown file is not searched: its content is a path, GitHub renders the file
    it points to.)"""
    if not lost:
        return
    forms = [_name_forms(one) for one in lost]
    names = tuple(sorted({form for pair in forms for form in pair}))
    # Files that name a lost page mostly link to it, and links need markdown-it: it is
    # loaded while git searches, if it still does (an everyday push deleting a page).
    found = index.head.files_holding(names, MARKDOWN_SUFFIXES, markdown_doc.load_parser)
    holding = sorted(path for path in found if path not in touched)
    # The lost targets each name may stand for: a file is tried against the targets
    # it names, not every target (hundreds of lost pages, thousands of files).
    losing: dict[str, list[int]] = {}
    for number, pair in enumerate(forms):
        for form in pair:
            losing.setdefault(form, []).append(number)
    # Each file read once, the names it mentions found in one pass over it, its links
    # parsed at most once, and its text let go (issue 12). The manifest orders the
    # findings.
    mentioned = Mentions(names)
    for path, text in index.texts([path for path in holding if is_markdown(path)]):
        if text is None:
            continue
        named = mentioned.of(text)
        links: tuple[Link, ...] | None = None  # its links that name a lost target
        for number in sorted({number for form in named for number in losing[form]}):
            one = lost[number]
            if path != one.holder and _may_link(text, one):
                if links is None:
                    links = markdown_doc.links_naming(text, named)
                yield from _broken_links(path, links, one)


def _broken_links(path: str, links: Sequence[Link], lost: Lost) -> Iterator[Finding]:
    for link in links:
        why = _broken_by(link, path, lost)
        if why is not None:
            message = f"link '{shown(link)}' broken by this range: {why}"
            yield _finding(BROKEN_ELSEWHERE, path, link.line, message)


def _decoded(data: bytes | None) -> str | None:
    return None if data is None else data.decode("utf-8", "replace")


def _name_forms(lost: Lost) -> tuple[str, ...]:
    return name_forms(lost.path or lost.holder)


def _may_link(text: str, lost: Lost) -> bool:
    """Whether a file that names what was lost (`Mentions`) can link to it: any file
    for a lost page, one that holds a lost fragment, in any case and with or without
    percent-escapes, for a lost anchor (so most files are never parsed)."""
    if lost.path is not None:
        return True
    lowered = text.lower()
    return any(name in lowered or quote(name).lower() in lowered for name in lost.anchors)


class Mentions:
    """The `names` (file names, each ending with its Markdown suffix) a text holds, but
    not as the tail of a longer name (`p7.md` in `p17.md`): found at each place a
    suffix ends, so a text is read once, however many names there are. The names are
    sorted out once for all the texts of a range (issue 12)."""

    def __init__(self, names: Iterable[str]) -> None:
        self._wanted = frozenset(names)
        self._lengths = sorted({len(name) for name in self._wanted})
        self._suffixes = sorted({name[name.rfind(".") :] for name in self._wanted})

    def of(self, text: str) -> set[str]:
        wanted, lengths = self._wanted, self._lengths
        found: set[str] = set()
        for suffix in self._suffixes:
            place = text.find(suffix)
            while place != -1:
                stop = place + len(suffix)
                for length in lengths:
                    start = stop - length
                    if start < 0:
                        break
                    candidate = text[start:stop]
                    before = text[start - 1] if start else "/"
                    if candidate in wanted and not (before.isalnum() or before in "_-."):
                        found.add(candidate)
                place = text.find(suffix, place + 1)
        return found


def _broken_by(link: Link, path: str, lost: Lost) -> str | None:
    try:
        target = resolve(link, path)
    except AboveRoot:
        return None
    if lost.path is not None and target.path == lost.path:
        return f"{lost.path} {lost.why}"
    if target.path == lost.holder and target.fragment is not None:
        return lost.anchors.get(target.fragment.lower().removeprefix(_ID_PREFIX))
    return None


def _finding(rule: Rule, path: str, line: int, message: str) -> Finding:
    return Finding(rule.id, rule.severity, path, line, message)
