"""A hunk as a reviewer reads it: removed and added lines, each with its own number.

One rendering for `show` and for the brief (issue #10). Removed lines carry
their old-side number, added lines their new-side number, unchanged lines the
new-side number (old-side in a deleted file). Secrets are redacted with the
whole file in view: a key's body stays hidden when a hunk holds a few of its
lines without the BEGIN line.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from gitreview.handles import OID_LENGTH
from gitreview.model import (
    MODE_GITLINK,
    MODE_SYMLINK,
    FileChange,
    Hunk,
    Line,
    PackedLines,
    origins_of,
    texts_of,
)
from gitreview.secrets import (
    KeyBlock,
    fragment_may_change,
    may_hold_token,
    redact_fragment,
    redact_line,
)
from gitreview.shown import visible


class Row(NamedTuple):
    origin: str  # "-", "+" or " "
    number: int
    text: str


class KeyBlocks(NamedTuple):
    """The private key blocks of each side (0-based line indexes), for redaction."""

    old: tuple[KeyBlock, ...] = ()
    new: tuple[KeyBlock, ...] = ()


NO_KEYS = KeyBlocks()


GAP = "⋯"  # stands for unchanged lines left out between two changes of a hunk
EXCERPT_CHARS = 60
_BREAK = " ⏎ "  # between the lines of an excerpt


class Shown(NamedTuple):
    """A significant hunk as the brief shows it under its header (which names its
    handle): its changed rows as a unified diff writes them (`-text`, `+text`, ` ⋯`
    for unchanged lines left out), and its excerpt. Made where the file is proved
    and kept with its verdict (issue 12). The rows are None where nothing in them
    is redacted, the common case: `rows_of` writes them from the hunk's own lines
    when the brief is made, and a large range does not hold each line twice."""

    rows: str | None
    excerpt: str


def shown_hunk(hunk: Hunk, keys: KeyBlocks = NO_KEYS) -> Shown:
    if not (keys.old or keys.new):
        # Most hunks hold nothing to redact: their excerpt is read off the changed
        # lines' texts, and no row is made (a large range's hunks have 100,000s).
        origins = origins_of(hunk.lines)
        first, stop = _changed_span(origins)
        texts = texts_of(hunk.lines, first, stop)
        if not fragment_may_change("\n".join(texts)):
            lines = zip(origins[first:stop], texts, strict=True)
            return Shown(None, excerpt((o, text.rstrip("\r")) for o, text in lines if o != " "))
    rows, redacted = _changed_rows(hunk, keys)
    text = "".join(f"{row.origin}{row.text}\n" for row in rows) if redacted else None
    return Shown(text, excerpt((row.origin, row.text) for row in rows if row.origin in "-+"))


def rows_of(hunk: Hunk, shown: Shown) -> str:
    """The shown hunk's rows, as a unified diff writes them. Where the proof kept
    none, the rows `changed_rows` makes without redaction, written from the lines'
    origins and texts (no Row made: a large range has 100,000s)."""
    if shown.rows is not None:
        return shown.rows
    origins = origins_of(hunk.lines)
    first, stop = _changed_span(origins)
    texts = texts_of(hunk.lines, first, stop)
    crs = _crs_shown(origins[first:stop], texts)
    open_ends = _open_ends(hunk.lines)
    parts: list[str] = []
    for index, (origin, text) in enumerate(zip(origins[first:stop], texts, strict=True)):
        if origin != " ":
            parts.append(origin + _shown_end(text, crs) + "\n")
            if first + index in open_ends:
                parts.append(NO_NEWLINE)
        elif parts[-1] is not _GAP_ROW:  # one GAP row for a run of unchanged lines
            parts.append(_GAP_ROW)
    return "".join(parts)


# Where a changed line ends otherwise than another of its hunk: a CR (a file made CRLF,
# one line of it LF again), and a last line without a newline, git's own marker.
# Unmarked, the two sides of such a change read the same (found by an adversarial review).
CR_MARK = "␍"
NO_NEWLINE = "\\ No newline at end of file\n"


def _crs_shown(origins: str, texts: Sequence[str]) -> bool:
    """Whether the hunk's changed lines end both with and without a CR: then the CRs
    are shown."""
    if not any("\r" in text for text in texts):
        return False  # most hunks: no CR at all
    pairs = zip(origins, texts, strict=True)
    ends = {text.endswith("\r") for origin, text in pairs if origin != " "}
    return len(ends) == 2


def _shown_end(text: str, crs: bool) -> str:
    if not text.endswith("\r"):
        return _unmarked(text)
    return _unmarked(text.rstrip("\r")) + (CR_MARK if crs else "")


def _unmarked(text: str) -> str:
    """A changed line's text with the CR mark it holds itself escaped: the mark at its
    end would read as a CR that is not there (found by an adversarial review: `admin␍`
    read as a line-end change); and what shows as nothing or breaks the line escaped
    (`shown.visible`)."""
    return visible(text.replace(CR_MARK, "\\u240d") if CR_MARK in text else text)


def _open_ends(lines: Sequence[Line]) -> frozenset[int]:
    """The indexes of the lines with no newline after them (the last of a side)."""
    if isinstance(lines, PackedLines):
        return frozenset(lines.open_ends)
    found: set[int] = set()
    sides = 0
    for index in range(len(lines) - 1, -1, -1):  # only the last of each side can be one
        line = lines[index]
        if not line.newline:
            found.add(index)
        sides |= {"-": 1, "+": 2, " ": 3}[line.origin]
        if sides == 3:
            break
    return frozenset(found)


_GAP_ROW = f" {GAP}\n"


def _changed_span(origins: str) -> tuple[int, int]:
    """Where a hunk's first change is, and where its last one ends."""
    return len(origins) - len(origins.lstrip(" ")), len(origins.rstrip(" "))


def shown_hunks(
    hunks: Sequence[Hunk], significant: Sequence[bool], keys: KeyBlocks
) -> tuple[Shown | None, ...]:
    """The hunks that may go to review as the brief shows them, None for the others.
    Moved blocks only ever take a hunk out of review, so none is missed."""
    return tuple(
        shown_hunk(hunk, keys) if wanted else None
        for hunk, wanted in zip(hunks, significant, strict=True)
    )


def changed_rows(hunk: Hunk, keys: KeyBlocks = NO_KEYS, *, interior: bool = False) -> list[Row]:
    """The hunk's removed and added lines, redacted. With `interior`, also the
    unchanged lines between its first and last change; without, one GAP row
    where they were (git's context lines before and after are never included)."""
    return _changed_rows(hunk, keys, interior=interior)[0]


def _changed_rows(hunk: Hunk, keys: KeyBlocks, *, interior: bool = False) -> tuple[list[Row], bool]:
    """`changed_rows`, and whether a row's text was redacted."""
    first, stop = _changed_span(origins_of(hunk.lines))
    if first >= stop:
        return [], False
    span = hunk.lines[first:stop]
    # Lines are redacted one by one only where the hunk may hold a token or a key block
    # is known: one prefilter over its whole text leaves most hunks as they are.
    texts = texts_of(span)
    by_line = bool(keys.old or keys.new) or may_hold_token("\n".join(texts))
    crs = _crs_shown(origins_of(span), texts)
    open_ends = _open_ends(hunk.lines)
    rows: list[Row] = []
    marked: list[int] = []  # rows whose CR is shown, once they are redacted
    redacted = False
    for index, line in enumerate(span):
        if line.origin != " " or interior:
            rows.append(_row(line, keys, by_line))
            redacted = redacted or (by_line and rows[-1].text != line.text.rstrip("\r"))
            if crs and line.text.endswith("\r"):
                marked.append(len(rows) - 1)
            if line.origin != " " and first + index in open_ends:
                rows.append(Row("\\", 0, NO_NEWLINE[1:-1]))
        elif rows[-1].origin != " ":
            rows.append(Row(" ", 0, GAP))
    # Without the whole file in view (a patch), key-shaped base64 is hidden as in
    # any fragment: a key's body lines may come without their BEGIN line.
    plain = [row.text for row in rows]
    texts = redact_fragment(plain)
    if texts != plain:
        redacted = True
    # What would break a line or shows as nothing is escaped once the lines are
    # redacted, which read them as they are (a review of the escaping: `\u200b` before
    # an AWS key, `\U000e0020` before a token, and the key was printed).
    shown = [_unmarked(text) for text in texts]
    redacted = redacted or shown != texts
    rows = [
        row if row.text == text else row._replace(text=text)
        for row, text in zip(rows, shown, strict=True)
    ]
    # The CR mark goes on after redaction, which reads a key's lines as they are (a
    # review of the fix: `BODY␍` was no key line, and a key was printed).
    for index in marked:
        rows[index] = rows[index]._replace(text=rows[index].text + CR_MARK)
    return rows, redacted


def _row(line: Line, keys: KeyBlocks, redacted: bool) -> Row:
    text = line.text.rstrip("\r")
    if line.origin == "-" or line.new_no is None:
        number, blocks = line.old_no, keys.old
    else:
        number, blocks = line.new_no, keys.new
    assert number is not None
    return Row(line.origin, number, redact_line(text, number - 1, blocks) if redacted else text)


def render_rows(header: str, rows: Sequence[Row]) -> str:
    """`header` on its own line, then one line per row: `-12 text`, `+12 text`,
    ` 12 text`, numbers right-aligned to the widest (what `show` prints)."""
    width = max((len(str(row.number)) for row in rows), default=1)
    body = "".join(
        f"{row.origin}{row.text}\n"
        if row.origin == "\\"
        else f"{row.origin}{row.number:>{width}} {row.text}\n"
        for row in rows
    )
    return f"{header}\n{body}"


def file_header(change: FileChange) -> str:
    """What changed of a file besides its lines, as git's extended header lines say it
    (`rename from`, `old mode`, `new mode`), written above its first hunk a reviewer
    gets: a test renamed out of collection, an executable bit dropped, a file made a
    symbolic link, no hunk shows (found by an adversarial review). "" when nothing did."""
    from gitreview.shown import written_path

    lines = []
    if change.old_path is not None and change.old_path != change.path:
        what = "copy" if change.status == "copied" else "rename"
        lines.append(f"{what} from {written_path(change.old_path)}")
    old, new = change.old_mode, change.new_mode
    if old is not None and new is not None and old != new:
        lines += [f"old mode {old:06o}", f"new mode {new:06o}"]
        if new == MODE_SYMLINK:
            lines[-1] += " (a symbolic link: its one line is the path it points to)"
        # A file made a submodule or one made a file: the commit is the submodule's
        # side, which no hunk holds (found by an adversarial review).
        for mode, oid, side in ((old, change.old_oid, "old"), (new, change.new_oid, "new")):
            if mode == MODE_GITLINK and oid:
                lines.append(f"{side} submodule commit {oid[:OID_LENGTH]}")
    return "".join(f"{line}\n" for line in lines)


def hunk_header(handle: str, scope: str | None) -> str:
    """`@@ HANDLE @@ SCOPE`, as git prints a hunk's function name after its numbers;
    the scope (a heading's or a symbol's words) escaped, as other text is (found by
    an adversarial review: a heading's escape sequence hid the lines after it)."""
    from gitreview.shown import escaped

    return f"@@ {handle} @@ {escaped(scope)}" if scope else f"@@ {handle} @@"


def excerpt(rows: Iterable[tuple[str, str]]) -> str:
    """At most EXCERPT_CHARS characters of the changed lines, already redacted, each
    after its `-` or `+`, as one line: a preview, not the change (`show` prints that).
    One line changed for one other shows each from a little before where they differ,
    half the excerpt each (found by an adversarial review: a removed check read as an
    added one, and `verify=True` to `verify=False` showed the old line's start only)."""
    parts: list[tuple[str, str]] = []
    length = -len(_BREAK)
    for origin, line in rows:
        if stripped := visible(line.strip()):
            parts.append((origin, stripped))
            length += len(_BREAK) + 1 + len(stripped)
            if length > EXCERPT_CHARS and len(parts) > 2:  # what follows is cut off anyway
                break
    if length > EXCERPT_CHARS and [origin for origin, _ in parts] == ["-", "+"]:
        (_, old), (_, new) = parts
        common = len(posixpath.commonprefix([old, new]))
        if common > _BEFORE_DIFFERENCE:
            cut = common - _BEFORE_DIFFERENCE
            old, new = "…" + old[cut:], "…" + new[cut:]
        half = (EXCERPT_CHARS - len(_BREAK)) // 2 - 1
        return _BREAK.join(f"{o}{_cut(text, half)}" for o, text in (("-", old), ("+", new)))
    return _cut(_BREAK.join(origin + text for origin, text in parts), EXCERPT_CHARS)


_BEFORE_DIFFERENCE = 8  # characters shown before where one changed line differs


def _cut(text: str, most: int) -> str:
    return text if len(text) <= most else text[: most - 1] + "…"
