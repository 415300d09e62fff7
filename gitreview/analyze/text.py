"""Checks for any text file: what its added lines hold (conflict markers, secrets,
whitespace errors) and what the change adds as a whole (a large or binary file,
the executable bit).

Runs on every change, patch-only input included: where the head text is unknown
it works from the hunks, whose context lines stand in for the file around them.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from gitreview import secrets
from gitreview.analyze.base import Report, Rule, Subject
from gitreview.kinds import kind_of, runs_by_name
from gitreview.lockfiles import is_lock_file, moved_packages, other_packages, outside_sources
from gitreview.model import LFS_POINTER, MODE_EXECUTABLE, MODE_FILE, FileChange, Finding, Line
from gitreview.patterns import lazy_compile

RULES: tuple[Rule, ...] = (
    Rule("text/conflict-marker", "error", "an added line is a git merge conflict marker"),
    Rule("text/secret", "error", "an added line holds a private key or a service token"),
    Rule(
        "text/large-file",
        "warning",
        "a file added or grown beyond large_file_bytes (one already beyond it: by a tenth of it)",
    ),
    Rule("text/binary-added", "warning", "a binary file was added"),
    Rule(
        "text/binary-text",
        "warning",
        "text that git diffs as binary (UTF-16, a NUL byte in a script, text replacing a"
        " binary file): no line of it is shown to reviewers",
    ),
    Rule(
        "text/bidi-control",
        "warning",
        "added lines of code or data hold a bidirectional control character: they may"
        " display in another order than they are read (Trojan Source)",
    ),
    Rule(
        "text/invisible-character",
        "warning",
        "added lines hold characters that show as nothing (a zero-width space, a joiner"
        " between ASCII letters, a Hangul filler; tag characters in any file): two lines"
        " that read the same differ, or text no person sees reaches a model",
    ),
    Rule("text/trailing-whitespace", "info", "added lines end in spaces or tabs"),
    Rule("text/no-final-newline", "info", "the last added line has no newline at end of file"),
    Rule("text/executable", "info", "the executable bit was set on a file"),
    Rule(
        "text/lockfile-source",
        "warning",
        "a lock file's added lines fetch packages from no public registry, or over plain http,"
        " or give a package another package's tarball",
    ),
)

# Kinds whose content is not text a person writes line by line.
_NOT_TEXT = frozenset({"binary", "submodule", "symlink"})
# Diffs carry trailing whitespace as content (an empty context line is one space).
_PATCH_SUFFIXES = (".patch", ".diff")

# git writes the opening, base (diff3) and closing markers with a label after a space;
# the separator alone, which only counts inside a group of markers (a Markdown setext
# underline or a ruler of seven `=` is not one).
_OPEN, _BASE, _SEPARATOR, _CLOSE = "<<<<<<<", "|||||||", "=======", ">>>>>>>"
_MARKER = lazy_compile(r"(<{7}|\|{7}|>{7}) |={7}$")
_MARKER_STARTS = (_OPEN, _BASE, _SEPARATOR, _CLOSE)  # a literal prefilter (issue 12)

Numbered = Sequence[tuple[int, str]]  # head-side line numbers and texts


def analyze(subject: Subject) -> Report:
    change = subject.change
    findings = list(_whole_file(subject))
    if subject.kind not in _NOT_TEXT and change.hunks:
        added = {line.new_no: line for hunk in change.hunks for line in hunk.added if line.new_no}
        # The whole head is read only when an added line may need it: a marker's group,
        # or a key block whose BEGIN line was not added.
        markers = any(
            line.text.startswith(_MARKER_STARTS) and _MARKER.match(line.text.rstrip("\r"))
            for line in added.values()
        )
        keys = subject.new_text is None or secrets.may_hold_blocks(subject.new_text)
        for segment in _head_segments(subject) if markers or keys else ():
            if markers:
                findings += _conflict_markers(change.path, segment, added)
            findings += _private_keys(change.path, segment, added)
        findings += _tokens(change.path, added)
        code = subject.kind not in _PROSE or change.path.lower().endswith(".mdx")
        if code:
            findings += _bidi_controls(change.path, added)
        findings += _invisible(change.path, added, code=code)
        findings += _whitespace(subject, added)
        if is_lock_file(change.path):
            findings += _lockfile_sources(change.path, subject.old_text, subject.new_text, added)
    elif subject.kind == "binary":
        findings += _binary_lines(subject)
    return Report(tuple(findings))


def _binary_lines(subject: Subject) -> Iterator[Finding]:
    """Conflict markers and secrets on the lines of a binary file's new side that its
    old side has not: git shows no lines of a binary file, and one NUL byte makes a
    script binary (found by an adversarial review: a token added beside a NUL went
    unreported, and so did text that followed a binary version of its file)."""
    data, old = subject.change.new_data, subject.change.old_data
    if data is None or len(data) > subject.config.max_file_bytes:
        return
    if len(old or b"") > subject.config.max_file_bytes:
        old = None  # too large to compare: every line counts as added
    text = _decoded(data)
    if not (secrets.may_hold_token(text) or secrets.may_hold_blocks(text) or _OPEN in text):
        return  # the common case: an image, an archive
    before = set(_decoded(old or b"").split("\n"))
    segment = [(number, line.rstrip("\r")) for number, line in enumerate(text.split("\n"), 1)]
    added = {n: Line("+", None, n, line) for n, line in segment if line not in before}
    yield from _conflict_markers(subject.change.path, segment, added)
    yield from _private_keys(subject.change.path, segment, added)
    yield from _tokens(subject.change.path, added)


def _head_segments(subject: Subject) -> list[list[tuple[int, str]]]:
    """The head side as numbered lines: the whole file when it is known, else each
    hunk's context and added lines."""
    if subject.new_text is not None:
        lines = subject.new_text.split("\n")
        return [[(number, text.rstrip("\r")) for number, text in enumerate(lines, 1)]]
    return [
        [(line.new_no, line.text.rstrip("\r")) for line in hunk.lines if line.new_no]
        for hunk in subject.change.hunks
    ]


_SEVERITY = {rule.id: rule.severity for rule in RULES}


def _lockfile_sources(
    path: str, old: str | None, new: str | None, added: Mapping[int, Line]
) -> Iterator[Finding]:
    lines = [(number, added[number].text) for number in sorted(added)]
    for number, message, _ in outside_sources(path, lines, new):
        yield _finding("text/lockfile-source", path, number, message)
    for number, message in other_packages(path, new, lines):
        yield _finding("text/lockfile-source", path, number, message)
    for number, message in moved_packages(path, old, new, lines):
        yield _finding("text/lockfile-source", path, number, message)


def _finding(rule: str, path: str, line: int | None, message: str) -> Finding:
    return Finding(rule, _SEVERITY[rule], path, line, message)


# --- conflict markers ------------------------------------------------------------------


def _conflict_markers(path: str, segment: Numbered, added: Mapping[int, Line]) -> Iterator[Finding]:
    markers = []
    for number, text in segment:
        match = _MARKER.match(text)
        if match:
            markers.append((number, match.group(1) or _SEPARATOR))
    for index, (number, marker) in enumerate(markers):
        if number not in added:
            continue
        if marker == _SEPARATOR and not _in_group(markers, index):
            continue
        yield _finding("text/conflict-marker", path, number, f"merge conflict marker {marker}")


def _in_group(markers: Sequence[tuple[int, str]], index: int) -> bool:
    """Whether the separator at `index` follows an opening or base marker, or comes
    before a closing one: a group, even when one of its markers was resolved away."""
    before = markers[index - 1][1] if index > 0 else None
    after = markers[index + 1][1] if index + 1 < len(markers) else None
    return before in (_OPEN, _BASE) or after == _CLOSE


# --- secrets ---------------------------------------------------------------------------


def _tokens(path: str, added: Mapping[int, Line]) -> Iterator[Finding]:
    # One prefilter over every added line: most changes hold no token at all.
    if not secrets.may_hold_token("\n".join(line.text for line in added.values())):
        return
    for number in sorted(added):
        text = added[number].text
        labels = {
            match.kind.label for match in secrets.find_tokens(text) if secrets.reportable(match)
        }
        for label in sorted(labels):
            yield _finding("text/secret", path, number, f"{label} added (value redacted)")


def _private_keys(path: str, segment: Numbered, added: Mapping[int, Line]) -> Iterator[Finding]:
    """One finding per key block with any line added, at its first added line (a
    key's body may change without its BEGIN line); and per value named on the line
    above it, when it was added."""
    lines = [text for _, text in segment]
    for block in secrets.key_blocks(lines):
        numbers = [segment[index][0] for index in range(block.first, block.last + 1)]
        first_added = next((number for number in numbers if number in added), None)
        if first_added is not None and secrets.reported(lines, block):
            message = f"{block.label} added (value redacted)"
            yield _finding("text/secret", path, first_added, message)


# --- bidirectional controls -----------------------------------------------------------

# Prose in a right-to-left language uses them as it should; code and data need none
# (MDX is compiled to JavaScript: a review of the fix). The embeddings, overrides and
# isolates only: the marks (U+200E, U+200F, U+061C) reorder nothing, and locale data
# holds them (a review of the fix).
_PROSE = frozenset({"markdown", "text"})
_BIDI = lazy_compile("[\u202a-\u202e\u2066-\u2069]")


def _bidi_controls(path: str, added: Mapping[int, Line]) -> Iterator[Finding]:
    """One finding for the file's added lines holding a bidirectional control: a
    reviewer (and gitreview's own rules) read them in one order, an editor shows
    them in another (found by an adversarial review: `U+202E` in a comment)."""
    if _BIDI.search("\n".join(line.text for line in added.values())) is None:
        return  # the common case: one search in C
    numbers = [number for number in sorted(added) if _BIDI.search(added[number].text)]
    names = sorted({f"U+{ord(c):04X}" for n in numbers for c in _BIDI.findall(added[n].text)})
    lines = f"{len(numbers)} added line{'s' if len(numbers) > 1 else ''}"
    message = (
        f"bidirectional control {', '.join(names)} on {lines}: the text may display in "
        "another order than it is read"
    )
    yield _finding("text/bidi-control", path, numbers[0], message)


# Tag characters, which no person sees and a model reads, in prose too (but a flag's:
# an emoji's tags end with CANCEL TAG, U+E007F, right after the black flag U+1F3F4's).
_TAGS = lazy_compile("[\U000e0000-\U000e007f]")


def _invisible(path: str, added: Mapping[int, Line], *, code: bool) -> Iterator[Finding]:
    """One finding for the file's added lines holding characters that show as nothing
    (`shown.INVISIBLE`; in prose, tag characters only), a byte order mark starting the
    file aside (found by an adversarial review: `"adm\u200bin"`, and a sentence in tag
    characters telling the reviewer model to pass the change)."""
    from gitreview.shown import FLAG, INVISIBLE

    texts = {number: line.text for number, line in added.items() if not line.text.isascii()}
    if 1 in texts:
        texts[1] = texts[1].removeprefix("\ufeff")
    pattern = INVISIBLE if code else _TAGS
    numbers = [n for n in sorted(texts) if pattern.search(FLAG.sub("", texts[n]))]
    if not numbers:
        return
    found = {c for n in numbers for run in pattern.findall(FLAG.sub("", texts[n])) for c in run}
    named = {"tag characters" if _TAGS.match(c) else f"U+{ord(c):04X}" for c in found}
    names = ", ".join(sorted(named))
    lines = f"{len(numbers)} added line{'s' if len(numbers) > 1 else ''}"
    message = (
        f"characters that show as nothing ({names}) on {lines}: the text differs from "
        "what it looks like (shown escaped to reviewers)"
    )
    yield _finding("text/invisible-character", path, numbers[0], message)


# --- whitespace ------------------------------------------------------------------------


def _whitespace(subject: Subject, added: Mapping[int, Line]) -> Iterator[Finding]:
    path = subject.change.path
    if path.endswith(_PATCH_SUFFIXES):
        return
    trailing = [
        number for number in sorted(added) if _trailing_whitespace(subject.kind, added[number].text)
    ]
    if trailing:
        count = len(trailing)
        message = f"trailing whitespace on {count} added line{'s' if count > 1 else ''}"
        yield _finding("text/trailing-whitespace", path, trailing[0], message)
    for number in sorted(added):
        if not added[number].newline:
            message = "no newline at end of file"
            yield _finding("text/no-final-newline", path, number, message)


def _trailing_whitespace(kind: str, text: str) -> bool:
    bare = text.rstrip("\r")
    stripped = bare.rstrip(" \t")
    tail = bare[len(stripped) :]
    # Markdown: two or more spaces after text are a hard line break, not an error.
    hard_break = kind == "markdown" and bool(stripped) and len(tail) >= 2 and not tail.strip(" ")
    return bool(tail) and not hard_break


# --- the file as a whole ---------------------------------------------------------------


def _whole_file(subject: Subject) -> Iterator[Finding]:
    change, limit = subject.change, subject.config.large_file_bytes
    old_size = None if change.old_data is None else len(change.old_data)
    new_size = None if change.new_data is None else len(change.new_data)
    # Past the limit already, only a growth of a tenth of it or more (found by an
    # adversarial review: a badge line added to 26 large notebooks was 26 warnings).
    if new_size is not None and new_size > limit and _grew(old_size, new_size, limit):
        if old_size is None:
            message = f"file added with {new_size:,} bytes (large_file_bytes: {limit:,})"
        else:
            message = (
                f"file grew from {old_size:,} to {new_size:,} bytes (large_file_bytes: {limit:,})"
            )
        yield _finding("text/large-file", change.path, None, message)
    if _binary_added(change):
        size = "" if new_size is None else f" ({new_size:,} bytes)"
        yield _finding("text/binary-added", change.path, None, f"binary file added{size}")
    unshown = _text_shown_as_binary(change, subject.kind)
    if unshown:
        yield _finding("text/binary-text", change.path, None, unshown)
    if change.new_mode == MODE_EXECUTABLE and change.old_mode in (None, MODE_FILE):
        message = (
            "new file is executable"
            if change.old_mode is None
            else "executable bit set (100644 -> 100755)"
        )
        yield _finding("text/executable", change.path, None, message)


def _grew(old_size: int | None, new_size: int, limit: int) -> bool:
    if old_size is None or old_size <= limit:
        return new_size > (old_size or 0)
    return new_size - old_size >= limit // 10


_UNSHOWN = "which git diffs as binary: none of its lines is shown to reviewers"


def _text_shown_as_binary(change: FileChange, kind: str) -> str:
    """Why the new side is text that git diffs as binary, so that no reviewer sees a
    line of it ("" when it is not): UTF-16 (Windows PowerShell's own encoding), a NUL
    byte in a file named as text (bash runs a script past one), text where a binary
    file was (found by an adversarial review: an `iex (iwr ...)` added to a UTF-16
    .ps1 reached nobody)."""
    data = change.new_data
    if kind != "binary" or data is None:
        return ""
    head = data[:8000]
    if _utf16(head) is not None:
        return f"UTF-16 text, {_UNSHOWN}; read it decoded"
    if b"\0" in head and _named_as_text(change.path, head):
        return f"a file of text with a NUL byte, {_UNSHOWN}"
    old = change.old_data
    # (not git-lfs's pointer: the file is elsewhere, and so it was before)
    text_now = b"\0" not in head and not head.startswith(LFS_POINTER)
    if text_now and old is not None and b"\0" in old[:8000]:
        return f"text where a binary file was, {_UNSHOWN}"
    return ""


def _decoded(data: bytes) -> str:
    """A binary file's bytes as text: UTF-16 where it is that (found by an adversarial
    review: a token in a UTF-16 PowerShell script was not reported), else UTF-8."""
    return data.decode(_utf16(data[:8000]) or "utf-8", "replace")


def _utf16(head: bytes) -> str | None:
    """The codec of a file's first bytes when they are UTF-16 (None: they are not):
    with its BOM, or without it, forty ASCII characters, or NUL bytes at odd
    (little-endian) or even places and few at the others, as text of Latin or ASCII
    letters has (a review of the fix: a French comment first was no UTF-16 to the
    ASCII test)."""
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "utf-16"
    ascii_text = _UTF16_ASCII.match(head)
    if ascii_text is not None:
        return "utf-16-le" if ascii_text.group()[1:2] == b"\0" else "utf-16-be"
    if len(head) < 80 or b"\0" not in head:
        return None
    even, odd = head[0::2].count(0), head[1::2].count(0)
    half = len(head) // 2
    if odd > half * 0.6 and even < half * 0.05:
        return "utf-16-le"
    if even > half * 0.6 and odd < half * 0.05:
        return "utf-16-be"
    return None


# Forty characters of ASCII text as UTF-16 without its BOM (a review of the rule).
_UTF16_ASCII = lazy_compile(rb"(?:[\t\n\r\x20-\x7e]\0){40}|(?:\0[\t\n\r\x20-\x7e]){40}")


def _named_as_text(path: str, head: bytes) -> bool:
    """Whether the file says it is text: a `#!` line, or a name of a kind of text or
    of a script (`.pl`, `.ps1`, `.bat`: a review of the rule); not a program that is
    binary by its nature (`.jar`, `.exe`, `.bin`: found by an adversarial review, a
    Gradle wrapper's jar was called text with a NUL byte)."""
    if head.startswith(b"#!"):
        return True
    if kind_of(path) not in ("unknown", "binary"):
        return True
    return runs_by_name(path) and not head.startswith(_BINARY_MAGIC)


# How archives and executables start, run by their names and binary as they should
# be: ZIP (a jar), Windows' MZ, ELF, Mach-O (a review of the fix: by name, a script
# run as `sh install.run` lost its warning).
_BINARY_MAGIC = (b"PK\x03\x04", b"MZ", b"\x7fELF", b"\xcf\xfa\xed\xfe", b"\xfe\xed\xfa")


def _binary_added(change: FileChange) -> bool:
    """A binary new side where there was none, or no file of this kind."""
    if change.status not in ("added", "copied", "type-changed") or not change.binary:
        return False
    if change.new_data is not None:
        return b"\0" in change.new_data[:8000]
    return change.status == "added" and not change.content_known
