"""Blocks moved within the range: removed in one place, added unchanged in another.

A pass over the whole range once every file is classified, in the spirit of
git's --color-moved: the added lines of significant hunks are matched, block by
block, against the removed lines of the whole range (the same file or another).
Each removed line is matched once: a block added twice is moved once and copied
once, and the copy stays significant. A block must be big enough to rule out
coincidence: three non-blank lines and forty letters or digits. Indentation is
ignored only where the file's kind ignores it (never in Python, YAML or Markdown).

A hunk whose every non-blank line moved becomes trivial (`moved`) only when order
cannot change what its blocks do (issue 11): each block holds whole units of
`outline.py` on both sides (top-level Python definitions, Markdown sections),
unchanged, with every name they bind or read still resolving. Any other moved
block (statements reordered inside a body, a YAML key, a Makefile rule, a
module-level assignment) stays significant, pointing at where it went or came from.
"""

from __future__ import annotations

import itertools
import posixpath
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from typing import NamedTuple

from gitreview.analyze import lexical
from gitreview.classify import aggregate
from gitreview.classify.base import FileVerdict, Verdict
from gitreview.classify.outline import (
    HTML_LINK,
    MODULE_NAMES,
    Side,
    Unit,
    markers_around,
    whole_units,
)
from gitreview.classify.whitespace import reads_line_numbers
from gitreview.handles import Handle
from gitreview.model import FileChange, Line, PackedLines, origins_of, texts_of
from gitreview.patterns import lazy_compile

MIN_LINES = 3
MIN_ALNUM = 40
MAX_CANDIDATES = 50  # places tried per line: bounds the work on repetitive code
# Lines compared in all, for a range: past them no more blocks are looked for, and the
# lines left stay as they are (significant: a move only ever makes lines trivial). A
# thousand lines of `}` moved, which never make a big enough block, were compared with
# each other line by line (found by an adversarial review: minutes, with no limit).
MAX_COMPARED = 2_000_000
_MOVABLE_STATUSES = ("modified", "renamed", "copied")
# Why a move stays significant when the block is not whole units whose order is free.
_NOT_WHOLE = (
    "a move is trivial only for whole top-level definitions or sections: "
    "the order of statements, keys and rules is meaning"
)
_BLANKS = (
    "blank lines beside it were added or removed, and the page's blocks are not the "
    "same without them (a paragraph parted or joined, a rule made a heading's underline)"
)
# Pages whose order of sections is a site's order: mdBook's SUMMARY.md, docsify's.
# (in any case: a GitHub wiki's _Sidebar.md)
_ORDERED_PAGES = frozenset({"summary.md", "_sidebar.md", "_navbar.md"})
# Front matter keys that decide whether, where and when a page is published.
# (nested ones too: MkDocs Material's `search:` `exclude:`, Hugo's `build:` `render:`)
_PUBLISHING = lazy_compile(
    r"(?im)^[ \t]*(?:draft|published|unlisted|hidden|private|sitemap|noindex|search_exclude"
    r"|nav_exclude|exclude|build|render|list|layout|publishdate|expirydate)\s*[:=].*$"
)
# A Markdown link reference definition, `[label]: target`.
_LINK_DEFINITION = lazy_compile(r" {0,3}\[[^\]]+\]:")
# A heading slug that numbers or sequences its section: a digit, or a word of order.
_SEQUENCE = lazy_compile(
    r"\d|(?:^|-)(?:step|steps|first|second|third|then|next|finally|last|before|after|"
    r"phase|stage|part|chapter|prerequisites?|afterwards?)(?:-|$)"
)
# A step of a procedure, by its heading: a verb first, its gerund, or the step's
# noun (found by adversarial reviews: "Create a virtual environment" moved below
# "Install the dependencies", "Dropping the legacy tables" above "Backing up your
# data"). Asked of the moved sections only: of all beside them, it made every
# reorder of a README with an "Installation" significant (a review of the fix).
_STEP_VERB_WORDS = """
    install uninstall create configure set setup run start stop restart build deploy add
    enable disable update upgrade clone download upload initialize initialise init activate
    open close register generate verify test publish push commit connect launch import
    export migrate prepare copy edit write define get make check apply remove delete log
    sign login choose select mount compile load bootstrap fork seed tag release merge rebase
    backup back restore provision authenticate authorize grant invite wait reboot reload
    refresh sync fetch pull checkout switch save submit drop truncate purge reset wipe drain
    scale roll rollback shut shutdown clean cleanup erase rotate revoke detach attach flash
"""
_STEP_VERBS = _STEP_VERB_WORDS.split()
_STEP = lazy_compile(
    r"^(?:"
    + "|".join(sorted(_STEP_VERBS, key=len, reverse=True))
    + r")(?:-|$)|^(?:"
    + "|".join(sorted({verb.removesuffix("e") for verb in _STEP_VERBS}, key=len, reverse=True))
    + r")[a-z]?ing(?:-|$)"
    r"|^(?:installation|configuration|deployment|initiali[sz]ation|registration|activation"
    r"|migration|preparation|getting-started|quick-?start)(?:-|$)"
)
_SAME_ORIGIN = {origin: lazy_compile(re.escape(origin) + "+") for origin in "-+"}

FileInput = tuple[FileChange, str, bool, FileVerdict]  # change, kind, t1, verdict


class _Run(NamedTuple):
    """Consecutive removed (or added) lines of one hunk: hunk.lines[start:start + length].

    No copies of the lines, their keys or their matches (issue 12: three lists per
    changed line cost 80 MiB on a large range)."""

    file: int
    hunk: int
    start: int
    length: int


class _Block(NamedTuple):
    source: _Run  # the removed lines
    target: _Run  # the added lines
    there: str  # handle of the removed lines
    here: str  # handle of the added lines


class _Matcher:
    def __init__(self, files: Sequence[FileInput]) -> None:
        self.files = files
        self.tests_named: Callable[[], bool] = lambda: True
        self.policies = [_free_indent(kind) for _, kind, _, _ in files]
        self.blocks: list[_Block] = []
        # (side, run's file, hunk, index in hunk.lines) -> block, for matched lines only
        self.block_of: dict[tuple[str, int, int, int], int] = {}
        self._last: tuple[tuple[int, int], Sequence[str]] = ((-1, -1), ())

    def line(self, run: _Run, offset: int) -> Line:
        return self.files[run.file][0].hunks[run.hunk].lines[run.start + offset]

    def keys(self, run: _Run) -> list[str]:
        """What each of the run's lines is matched by: its text, without its
        indentation where the file's kind ignores it."""
        texts = self._texts(run.file, run.hunk)[run.start : run.start + run.length]
        if self.policies[run.file]:
            return [text.strip() for text in texts]
        return [text.rstrip("\r") for text in texts]

    def _texts(self, file: int, hunk: int) -> Sequence[str]:
        """The texts of a hunk's lines. Runs come hunk by hunk: the last hunk's are
        kept, so a packed hunk is split once, and only one at a time."""
        if self._last[0] != (file, hunk):
            self._last = ((file, hunk), texts_of(self.files[file][0].hunks[hunk].lines))
        return self._last[1]

    def match(self, added: list[_Run], removed: Iterable[_Run]) -> None:
        """Greedy longest blocks, in range order: each added line is matched with the
        longest run of unused removed lines it starts."""
        wanted = {key for run in added for key in self.keys(run) if key.strip()}
        # Each removed line is numbered across the range (`first` of its run, plus its
        # offset), and `used` says whether a block holds it: no key made per check.
        places: dict[str, list[tuple[_Run, int, list[str], int]]] = defaultdict(list)
        first = 0
        for run in removed:
            keys = self.keys(run)
            for p, key in enumerate(keys):
                if key in wanted:
                    places[key].append((run, p, keys, first))
            first += run.length
        used = bytearray(first)
        compared = 0
        for run in added:
            here = self.keys(run)
            # Where each alignment of removed and added lines (a removed line's number
            # less its added line's) stops matching, from a line walked before: the
            # next line on it matches up to there, not walked again (found by an
            # adversarial review: a thousand moved lines of `}` that never make a big
            # enough block were walked from each line, quadratic). Blocks taken change
            # `used`: then it is walked afresh.
            reach: dict[int, int] = {}
            sizes = _Sizes(here)
            i = 0
            while i < run.length:
                best_length, best = 0, (run, 0, 0)
                for source, p, there, number in places.get(here[i], ())[:MAX_CANDIDATES]:
                    diagonal = number + p - i
                    end = reach.get(diagonal, -1)
                    if end > i:
                        length = end - i
                    else:
                        length = 0
                        while (
                            i + length < run.length
                            and p + length < source.length
                            and not used[number + p + length]
                            # (the first line's key is the one it was found by)
                            and (not length or here[i + length] == there[p + length])
                        ):
                            length += 1
                        reach[diagonal] = i + length
                        compared += length
                        if compared > MAX_COMPARED:
                            return
                    if length > best_length:
                        best_length, best = length, (source, p, number)
                if best_length and sizes.big_enough(i, i + best_length):
                    source, p, number = best
                    used[number + p : number + p + best_length] = b"\1" * best_length
                    self._record(
                        _Run(source.file, source.hunk, source.start + p, best_length),
                        _Run(run.file, run.hunk, run.start + i, best_length),
                    )
                    reach.clear()
                    i += best_length
                else:
                    i += 1

    def _record(self, source: _Run, target: _Run) -> None:
        block = _Block(source, target, self._handle(source, "-"), self._handle(target, "+"))
        self.blocks.append(block)
        for side, run in (("-", source), ("+", target)):
            for offset in range(run.length):
                self.block_of[(side, run.file, run.hunk, run.start + offset)] = len(self.blocks) - 1

    def _handle(self, run: _Run, side: str) -> str:
        change = self.files[run.file][0]
        first, last = self.line(run, 0), self.line(run, run.length - 1)
        if side == "-":
            assert first.old_no is not None and last.old_no is not None
            return str(
                Handle(change.old_path or change.path, change.old_oid, first.old_no, last.old_no)
            )
        assert first.new_no is not None and last.new_no is not None
        return str(Handle(change.path, change.new_oid, first.new_no, last.new_no))


class _Sizes:
    """Whether spans of a run's keys are blocks big enough: a short span counted as it
    is, up to where it is; a long one from running counts of non-blank lines and of
    letters or digits, made once for the run when first asked (counting each long
    span was quadratic: a thousand moved lines of `}`, a review; making the counts for
    every run cost the common range a tenth of a second)."""

    _DIRECT = 16  # lines of a span counted as they are

    def __init__(self, keys: list[str]) -> None:
        self._keys = keys
        self._lines: list[int] | None = None
        self._alnums: list[int] = []

    def big_enough(self, start: int, stop: int) -> bool:
        if stop - start < MIN_LINES:
            return False  # most spans: a line or two alike
        if stop - start <= self._DIRECT:
            nonblank = letters = 0
            for key in self._keys[start:stop]:
                nonblank += 1 if key.strip() else 0
                letters += sum(map(str.isalnum, key))
                if nonblank >= MIN_LINES and letters >= MIN_ALNUM:
                    return True
            return False
        if self._lines is None:
            self._lines = _before(1 if key.strip() else 0 for key in self._keys)
            self._alnums = _before(sum(map(str.isalnum, key)) for key in self._keys)
        lines, alnums = self._lines, self._alnums
        enough_lines = lines[stop] - lines[start] >= MIN_LINES
        return enough_lines and alnums[stop] - alnums[start] >= MIN_ALNUM


def _before(counts: Iterable[int]) -> list[int]:
    """The sum of the counts before each place, and of them all last."""
    return list(itertools.accumulate(counts, initial=0))


def find_moves(
    files: Sequence[FileInput], tests_named: Callable[[], bool] = lambda: True
) -> list[FileVerdict]:
    """The verdicts of the range's files with moved blocks marked: trivial where order
    cannot matter, significant with pointers elsewhere. `tests_named`: whether the
    project's pytest configuration collects tests by other names than `test*`
    (`python_functions = check_*`), asked only when a Python move would be trivial
    (without a tree to ask, it may)."""
    candidates = [
        (f, h)
        for f, (change, _, _, verdict) in enumerate(files)
        if change.status in _MOVABLE_STATUSES and not change.binary
        for h, hunk_verdict in enumerate(verdict.hunks)
        if hunk_verdict.reasons == ("content",)
    ]
    if not candidates:
        return [_without_outline(verdict) for _, _, _, verdict in files]
    matcher = _Matcher(files)
    matcher.tests_named = tests_named
    added = [run for f, h in candidates for run in _runs(files, f, h, "+")]
    # Read once, as they are made: a run none of whose lines was added anywhere is let
    # go at once (issue 12: a large range's runs held 4 MiB).
    removed = (
        run
        for f, (change, _, _, _) in enumerate(files)
        if not change.binary
        for h in range(len(change.hunks))
        for run in _runs(files, f, h, "-")
    )
    matcher.match(added, removed)
    why: dict[int, str | None] = {}  # block -> why its order may be meaning (None: it is not)
    verdicts = [verdict for _, _, _, verdict in files]
    for f, h in candidates:
        moved = _moved(matcher, f, h)
        if moved is None:
            continue
        blocks = moved.blocks
        pointers: dict[tuple[str, str], None] = {}
        for side, block in blocks:
            if side == "-":
                pointers[("moved_to", matcher.blocks[block].here)] = None
            else:
                pointers[("moved_from", matcher.blocks[block].there)] = None
        for _, block in blocks:
            if block not in why:
                why[block] = _order_meaning(matcher, matcher.blocks[block])
        evidence = "; ".join(f"{name.replace('_', ' ')} {handle}" for name, handle in pointers)
        meaning = next((why[block] for _, block in blocks if why[block]), None)
        meaning = meaning or _blanks_meaning(matcher, f, h, moved)
        if meaning is None:
            verdict = Verdict("trivial", ("moved",), evidence + ", unchanged", tuple(pointers))
        else:
            verdict = Verdict(
                "significant", ("content",), f"{evidence}, but {meaning}", tuple(pointers)
            )
        hunks = list(verdicts[f].hunks)
        hunks[h] = verdict
        verdicts[f] = verdicts[f]._replace(hunks=tuple(hunks))
    return [
        _without_outline(verdict) if verdict is original else aggregate(change, t1, verdict.hunks)
        for verdict, (change, _, t1, original) in zip(verdicts, files, strict=True)
    ]


def _without_outline(verdict: FileVerdict) -> FileVerdict:
    """The outline served its purpose: not kept to the end of a large range."""
    return verdict if verdict.outline is None else verdict._replace(outline=None)


def _free_indent(kind: str) -> bool:
    policy = lexical.policy(kind)
    return policy is not None and policy.leading


def _runs(files: Sequence[FileInput], f: int, h: int, origin: str) -> list[_Run]:
    lines = files[f][0].hunks[h].lines
    if isinstance(lines, PackedLines):
        # Numbered from the hunk's starts: lines of one origin side by side follow.
        return [
            _Run(f, h, found.start(), found.end() - found.start())
            for found in _SAME_ORIGIN[origin].finditer(lines.origins)
        ]
    runs: list[_Run] = []
    start: int | None = None
    for index, line in enumerate(lines):
        follows = start is not None and _follows(lines[index - 1], line)
        if line.origin == origin and follows:
            continue
        if start is not None:
            runs.append(_Run(f, h, start, index - start))
        start = index if line.origin == origin else None
    if start is not None:
        runs.append(_Run(f, h, start, len(lines) - start))
    return runs


def _follows(previous: Line, line: Line) -> bool:
    if line.origin != previous.origin:
        return False
    if line.origin == "-":
        return previous.old_no is not None and line.old_no == previous.old_no + 1
    return previous.new_no is not None and line.new_no == previous.new_no + 1


class _Moved(NamedTuple):
    """The blocks a hunk's lines went into or came from, and its blank lines that
    moved with none of them, by (origin, line number on that side)."""

    blocks: list[tuple[str, int]]
    blanks: list[tuple[str, int]]


def _moved(matcher: _Matcher, f: int, h: int) -> _Moved | None:
    """The blocks the hunk's lines went into or came from, if every non-blank line
    moved; blank lines may be left over only where the kind gives them no meaning."""
    policy = lexical.policy(matcher.files[f][1])
    blank_free = policy is not None and policy.blank_lines != "none"
    blocks: dict[tuple[str, int], None] = {}
    blanks: list[tuple[str, int]] = []
    lines = matcher.files[f][0].hunks[h].lines
    for index, (origin, text) in enumerate(zip(origins_of(lines), texts_of(lines), strict=True)):
        if origin == " ":
            continue
        block = matcher.block_of.get((origin, f, h, index))
        if block is None:
            if text.strip() or not blank_free:
                return None
            line = lines[index]
            number = line.old_no if origin == "-" else line.new_no
            blanks.append((origin, number or 0))
            continue
        blocks[(origin, block)] = None
    return _Moved(list(blocks), blanks) if blocks else None


def _blanks_meaning(matcher: _Matcher, f: int, h: int, moved: _Moved) -> str | None:
    """None when the blank lines the hunk adds or removes beside its moved blocks are
    spacing that means nothing; else why they may mean something (found by an
    adversarial review: a blank line taken out of a Python string, or out from above
    a Markdown `---`, which made the paragraph above it a heading, rode along with a
    moved function or section)."""
    if not moved.blanks:
        return None
    _, kind, _, verdict = matcher.files[f]
    # Above a file's first lines, whose place is syntax: a `#!` line and a coding
    # cookie, a page's front matter (a review of the fix).
    top = 2 if kind == "python" else 1
    if any(number <= top for _, number in moved.blanks):
        return "a blank line beside it was added or removed above the file's first lines"
    outline = verdict.outline
    if kind == "python":
        for origin, number in moved.blanks:
            side = None if outline is None else outline.old if origin == "-" else outline.new
            if side is None or side.module is None or number in side.module.literal:
                return "a blank line beside it was added or removed inside a string"
        return None
    old = None if outline is None or kind != "markdown" else outline.old
    if old is None:
        return _BLANKS
    # The page before the hunk, and with only the hunk applied, both without the
    # hunk's moved lines: the same blocks when its blank lines are mere spacing.
    hunk = matcher.files[f][0].hunks[h]
    lines = hunk.lines
    kept = [
        (line.origin, line.text)
        for index, line in enumerate(lines)
        if line.origin == " " or (line.origin, f, h, index) not in matcher.block_of
    ]
    page = old.text.split("\n")
    start = hunk.old_start - 1 if hunk.old_count else hunk.old_start
    above, below = page[:start], page[start + hunk.old_count :]
    before = [text for origin, text in kept if origin != "+"]
    after = [text for origin, text in kept if origin != "-"]
    if lexical.block_signature("\n".join([*above, *before, *below])) != lexical.block_signature(
        "\n".join([*above, *after, *below])
    ):
        return _BLANKS
    return None


def _read_apart(paths: tuple[str, str], source: Side, target: Side) -> str:
    """Why two pages are read differently, whatever their folder ("" when they are
    not): one is a page a tool loads by its name (coding agents' AGENTS.md, GitHub's
    SECURITY.md), or their front matter publishes them differently (a draft; found
    by an adversarial review)."""
    from gitreview.classify.renames import page_read_by_name

    for path in paths:
        if page_read_by_name(path):
            name = posixpath.basename(path)
            return f"a section moved into or out of {name}, which tools load by its name"
    if _publishing(source.text) != _publishing(target.text):
        return "a section moved between pages their front matter publishes differently"
    return ""


def _publishing(text: str) -> list[str]:
    """The front matter's lines that decide whether and where a page is published."""
    if not text.startswith(("---", "+++")):
        return []
    closing = ("\n---", "\n...") if text.startswith("---") else ("\n+++",)
    ends = [end for end in (text.find(mark, 3) for mark in closing) if end >= 0]
    return sorted(_PUBLISHING.findall(text[: min(ends, default=0)]))


def _opening(path: str, side: Side) -> list[str]:
    """The names of the sections a Markdown page opens with: its title, and in a
    Hugo site's `content/`, the section its summary is made of too."""
    opening = [unit.name for unit in side.units if unit.movable]
    return opening[: 2 if path.startswith("content/") or "/content/" in path else 1]


def _order_meaning(matcher: _Matcher, block: _Block) -> str | None:
    """None when the block is whole top-level definitions or sections on both sides,
    the same ones, with every name still resolving where it now is and nothing
    recording them as they are defined; else why its order may be meaning."""
    files = matcher.files
    _, kind, _, source_verdict = files[block.source.file]
    _, target_kind, _, target_verdict = files[block.target.file]
    outlines = (source_verdict.outline, target_verdict.outline)
    if kind != target_kind or outlines[0] is None or outlines[1] is None:
        return _NOT_WHOLE
    if outlines[0].old is None or outlines[1].new is None:
        return _NOT_WHOLE
    source = block.source
    lines = files[source.file][0].hunks[source.hunk].lines
    texts = list(texts_of(lines, source.start, source.start + source.length))
    first_old = matcher.line(block.source, 0).old_no
    first_new = matcher.line(block.target, 0).new_no
    assert first_old is not None and first_new is not None
    was = whole_units(outlines[0].old, first_old, first_old + len(texts) - 1, texts)
    now = whole_units(outlines[1].new, first_new, first_new + len(texts) - 1, texts)
    if was is None or now is None or [u.name for u in was] != [u.name for u in now]:
        return _NOT_WHOLE
    same_file = block.source.file == block.target.file
    if kind == "markdown":
        # Of two definitions of one link label, the first wins: order decides.
        if any(_LINK_DEFINITION.match(text) for text in texts):
            return "a link reference definition moved: of two with one label, the first wins"
        if any("[^" in text for text in texts):
            # Found by an adversarial review: markdown-it and GitHub number footnotes in
            # the order they are first referenced.
            return "a footnote reference moved: footnotes are numbered in reading order"
        # Sections whose headings number or sequence them (`Step 1`, `Then deploy`,
        # `2.0.0`) are read in their order, the moved ones' or their neighbours'.
        for side, units in ((outlines[0].old, was), (outlines[1].new, now)):
            ordered = _sequenced(side, units)
            if ordered:
                return (
                    f"the headings number or sequence the sections ({ordered}): "
                    "their order is meaning"
                )
        # A subsection moved under another heading now documents something else
        # (`### Windows` from Install to Uninstall): within a file, the headings above
        # stay the same; into another file, only a page's title may be above it.
        if outlines[0].old.raw_html or outlines[1].new.raw_html:
            return (
                "the page holds raw HTML (`<details>`, `<div>`): a section moved may go "
                "into or out of an element"
            )
        paths = (files[block.source.file][0].path, files[block.target.file][0].path)
        for path, outline in zip(paths, outlines, strict=True):
            old, new = (None, None) if outline is None else (outline.old, outline.new)
            if old and new and _opening(path, old) != _opening(path, new):
                # Found by an adversarial review: a page's first heading is its title
                # (MkDocs, Docusaurus, Jekyll), and in Hugo's content its first section
                # is in its summary (the first 70 words).
                return "the page starts with another section: its title or summary changes"
        if posixpath.basename(paths[1]).lower() in _ORDERED_PAGES:
            # Found by an adversarial review: mdBook's SUMMARY.md orders and numbers
            # the book's chapters, docsify's _sidebar.md its sidebar.
            return "the page is a table of contents: its order is the site's"
        if same_file:
            parents = all(one.parents == two.parents for one, two in zip(was, now, strict=True))
            return None if parents else _NOT_WHOLE
        read_apart = _read_apart(paths, outlines[0].old, outlines[1].new)
        if read_apart:
            return read_apart
        if any(level > 1 for unit in (*was, *now) for level, _ in unit.parents):
            return _NOT_WHOLE
        # Into another file, a relative or reference link may no longer resolve.
        linked = any("[" in text or HTML_LINK.search(text) for text in texts)
        if linked:
            return _NOT_WHOLE
        # Found by an adversarial review: a page of another folder resolves relative
        # paths from there (MyST's {doc} role, a literalinclude), and a site may
        # publish it apart or not at all (a root NOTES.md); and a role or template
        # (`{doc}`, `{{ .Values }}`) reads as the other page's renderer reads it.
        if posixpath.dirname(paths[0]) != posixpath.dirname(paths[1]):
            return "a section moved into a page of another folder"
        if any("{" in text for text in texts):
            return "a section holding a role or template (`{`) moved into another page"
        return None
    if not same_file:
        # What imports it from its old module, or collects it there (a test moved out
        # of a test file), no longer finds it: no file of the range says who does.
        return (
            "a Python definition moved into another module is no longer found where "
            "other modules import it from, or where test runners collect it"
        )
    if reads_line_numbers(kind, (outlines[0].old.text, outlines[1].new.text)):
        # Found by an adversarial review: a function below the move that reads its own
        # line (`inspect.currentframe().f_lineno`) says another after it.
        return "the module reads its own line numbers (`f_lineno`), which the move shifts"
    ends = ((outlines[0].old, was), (outlines[1].new, now))
    if any(side.module is not None and side.module.marked for side, _ in ends) and any(
        side.module is not None and any(unit.first <= side.module.head for unit in units)
        for side, units in ends
    ):
        # Found by an adversarial review: a def moved above the docstring (then no
        # docstring: `__doc__` is None) or above the #! line.
        return (
            "a definition moved to or from the module's start, where its docstring "
            "and its #! line must be"
        )
    crossed = _crossed(markers_around(outlines[0].old), markers_around(outlines[1].new))
    if crossed is not None:
        # Found by adversarial reviews: moved out from under `# pylint: disable=all`, a
        # definition is linted again; moved below `from app import views`, it is not
        # there yet when views imports it back.
        return f"a definition moved across a line whose place is meaning ({crossed})"
    old_module, new_module = outlines[0].old.module, outlines[1].new.module
    if old_module is not None and new_module is not None:
        documented = dict(old_module.comments)
        for name, comments in new_module.comments:
            if documented.get(name, comments) != comments:
                return (
                    f"the comment right above {name} is another: a comment there documents "
                    "it (inspect.getcomments, pydoc, Sphinx)"
                )
    if any(unit.name.lower().startswith("test") for unit in now):
        # In any file: pytest's `python_files` may collect any name.
        return "test runners run a module's tests in their order of definition"
    if matcher.tests_named():
        return (
            "the project's pytest configuration collects tests by other names "
            "(python_functions, python_classes), run in their order of definition"
        )
    for module in (outlines[0].old.module, outlines[1].new.module):
        if module is not None and module.introspects:
            return (
                f"the module lists its definitions in their order ({module.introspects}): "
                "their order is meaning"
            )
    if not all(_resolves(outlines[1].new, unit) for unit in now):
        return _NOT_WHOLE
    recorded = next((unit for unit in (*was, *now) if unit.recorded_by), None)
    if recorded is not None:
        return (
            f"{recorded.recorded_by} runs as {recorded.name} is defined, in the order of "
            "definition, and may record it or have effects (a hook, a receiver, a handler): "
            "its place is meaning"
        )
    return None


def _crossed(
    before: list[tuple[str, frozenset[str]]], after: list[tuple[str, frozenset[str]]]
) -> str | None:
    """The first comment tools read whose definitions below it are not the same on
    both sides (or that one side lacks); None if none."""
    for one, two in itertools.zip_longest(before, after):
        if one != two:
            return (one or two)[0]
    return None


def _sequenced(side: Side, units: list[Unit]) -> str:
    """The first heading slug, among the moved sections and the sections beside them
    (under the same headings), that holds a number or a word of sequence, or among the
    moved ones, that names a procedure's step; "" if none."""
    for unit in units:
        if _STEP.search(unit.name):
            return unit.name
    parents = {unit.parents for unit in units}
    for unit in side.units:
        if unit.movable and unit.parents in parents and _SEQUENCE.search(unit.name):
            return unit.name
    return ""


def _resolves(head: Side, unit: Unit) -> bool:
    """A Python definition where it now is, in the same module: bound once, read at
    import time only after it, reading at import time only names bound once before
    it, reading when called only names its module has, not reachable from the
    module's own code run at import time before it."""
    module = head.module
    if module is None or module.star or len(module.bound.get(unit.name, [])) != 1:
        return False
    early = module.read_early.get(unit.name, [])
    if any(line < unit.first for line in early):
        return False
    if unit.name in MODULE_NAMES and early:
        return False  # it shadows a builtin: code above it read the builtin (`round`)
    for name in unit.needs_first:
        lines = module.bound.get(name)
        if lines is None and name not in MODULE_NAMES:
            return False
        if lines is not None and (len(lines) != 1 or lines[0] >= unit.first):
            return False
    if not all(name in module.bound or name in MODULE_NAMES for name in unit.needs):
        return False
    # Code of the module run at import time before the definition may reach it
    # through a function that reads its name: `X = setup()` above `def helper()`.
    return unit.name not in module.read or all(line >= unit.first for line in module.calls)
