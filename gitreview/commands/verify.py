"""`git review-manifest verify --role NAME MANIFEST ANSWER`: did the reviewer read its share?

Seed 004's lazy-load warning made checkable (issue #10): the brief asks the
reviewer to end with `Handles read: ...`; each handle of the role's share that
the answer does not list is printed, one per line, and the exit status is 1.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from gitreview.errors import Exit, UserError
from gitreview.patterns import lazy_compile
from gitreview.review.brief import HANDLES_READ
from gitreview.review.roles import DEFAULT_ROLE

# What wraps a handle in prose: backticks, quotes, brackets, list punctuation.
_WRAPPING = "`'\"()[]<>*,;"


def run_verify(*, role: str, manifest: str, answer: str) -> int:
    missing, notes = check_answer(_load_manifest(manifest), role, _read(answer), source=manifest)
    sys.stdout.write("".join(f"{handle}\n" for handle in missing))
    for note in notes:
        print(f"verify: {note}", file=sys.stderr)
    return int(Exit.FINDINGS) if missing else int(Exit.OK)


def check_answer(
    manifest: dict[str, Any], role: str, answer: str, *, source: str
) -> tuple[list[str], list[str]]:
    """The handles of the role's share the answer does not list, and what to say
    about it (`source` names the manifest in errors)."""
    review = manifest.get("review")
    notes = []
    if isinstance(review, dict) and role not in review and _says_none(answer):
        # A role with nothing to review: its brief asked for `Handles read: none`, and
        # the manifest lists only roles with a share (found by an adversarial review:
        # a configured role's honest answer was refused). Said, in case of a typo.
        if review or role != DEFAULT_ROLE:
            notes.append(f"role {role!r} has no share in {source}: nothing to have read")
        review = {**review, role: {"batches": []}}
    if not isinstance(review, dict) or role not in review:
        known = ", ".join(review) if isinstance(review, dict) and review else "none"
        raise UserError(
            f"{source}: no role {role!r} in its review (roles: {known})", status=Exit.USAGE
        )
    share = [item["handle"] for batch in review[role]["batches"] for item in batch["handles"]]
    listed = handles_read(answer, share)
    if listed is None:
        notes.append(
            f"the answer has no '{HANDLES_READ}' line: none of the "
            f"{len(share)} handles of role {role!r} is confirmed read"
        )
        listed = []
    read = read_handles(listed, share)
    missing = [handle for handle in share if handle not in read]
    if missing:
        notes.append(f"{len(missing)} of {len(share)} handles of role {role!r} not read")
    return missing, notes


def _says_none(answer: str) -> bool:
    """Whether the answer's `Handles read:` list is the one word `none`, on its line or
    the first line below it that is not blank."""
    listed = handles_read(answer)
    first = next((line for line in listed or () if line.strip()), "")
    return first.strip(" \t.`*_-").lower() == "none"


def handles_read(answer: str, share: Sequence[str] = ()) -> list[str] | None:
    """The answer's last `Handles read:` line, from the words after it, and the lines
    below it (a long list wraps, into bullets, numbers, notes); None if it has none.
    The words inside a handle of the `share` are none (found by an adversarial review:
    a file named `Handles read: list.md` cut an honest list at its handle)."""
    lines = answer.splitlines()
    phrase = HANDLES_READ.lower()
    at = [_outside_handles(line, share).lower().find(phrase) for line in lines]
    starts = [(i, where) for i, where in enumerate(at) if where >= 0]
    if not starts:
        return None
    index, where = starts[-1]
    return [lines[index][where + len(HANDLES_READ) :], *lines[index + 1 :]]


def _outside_handles(line: str, share: Sequence[str]) -> str:
    """The line with each handle of the share in it blanked, where it may hold the
    phrase; the line itself, most often."""
    if HANDLES_READ.lower() not in line.lower():
        return line
    for handle in share:
        if handle in line:
            line = line.replace(handle, " " * len(handle))
    return line


def read_handles(lines: Sequence[str], share: Sequence[str]) -> set[str]:
    """The handles of the share the list says were read. The list is the rest of the
    `Handles read:` line and the lines below it that go on with it: a line that
    starts with a handle (after a bullet, a number, a table's `|`, or a label and a
    colon), a table's header, a blank line; the first other line (prose, a heading:
    `Ran out of time for H3`, `## Still to review`) ends it. On a line of the list,
    words saying a handle was not read count against one handle (`_unread`); an
    indented line below a handle is a note about it. Found by adversarial reviews:
    every line below the list counted; then a list of words refused `TODO.md`'s
    handle and `H1 (does not leak)`, and let `H3: not read` pass."""
    read: set[str] = set()
    unread_anywhere: set[str] = set()  # a handle named twice, once as not read
    last: str | None = None  # the list's last handle, which an indented note is about
    for number, line in enumerate(lines):
        found = _occurrences(line, share)
        if number and not found and line[:1].isspace() and line.strip() and last:
            if _says_unread(line):  # `1. H3` then `   - not read yet`
                unread_anywhere.add(last)
            continue
        if number and not _goes_on(line, found):
            if line.strip():
                break
            continue
        unread = _unread(line, found)
        for index, (_, _, handle) in enumerate(found):
            (unread_anywhere if index in unread else read).add(handle)
        last = found[-1][2] if found else last
    return read - unread_anywhere


def _goes_on(line: str, found: Sequence[tuple[int, int, str]]) -> bool:
    """Whether a line below `Handles read:` goes on with its list."""
    if not found:
        # Blank, a table's header, a code fence around the list.
        return not line.strip() or line.lstrip().startswith(("|", "```", "~~~"))
    # A handle first, or after a label: `- Left as is: H1` (`Not read: H3` is one too,
    # whose words `_unread` then reads).
    before = line[: found[0][0]]
    return _LIST_MARK.fullmatch(before) is not None or before.rstrip(" `*_").endswith(":")


def _unread(line: str, found: Sequence[tuple[int, int, str]]) -> set[int]:
    """Which handles of a line of the list its words say were not read: all of them
    after such words opening the line (`Skipped: H3, H4`); the next one after words
    that end in them or a colon (`H1, H2, skipped H3`, `H2 (not read, no time: H3)`);
    else the one before them (`H3: not read`, `H3 (TODO)`)."""
    unread: set[int] = set()
    if found and (_says_unread(line[: found[0][0]]) or _NONE_OF.search(line[: found[0][0]])):
        return set(range(len(found)))
    if found and _INTRODUCES.search(line[: found[0][0]]):
        unread.add(0)  # `Handles read: everything except H3: H1, H2`
    for index, (_, end, _) in enumerate(found):
        following = index + 1 < len(found)
        gap = line[end : found[index + 1][0] if following else len(line)]
        said = _says_unread(gap)
        if not said:
            if following and _INTRODUCES.search(gap):
                unread.add(index + 1)  # `H1 and H2 but not H3`
            continue
        if following and said and _CONNECTS.fullmatch(gap[said[-1].end() :]):
            unread.update(range(index + 1, len(found)) if ":" in gap else {index + 1})
        else:
            unread.add(index)
    return unread


def _says_unread(text: str) -> list[re.Match[str]]:
    """Where the text says handles were not read; not where it says so of none
    (`nothing skipped`, `none unread`)."""
    return [found for found in _NOT_READ.finditer(text) if not _NONE.search(text[: found.start()])]


_NONE = lazy_compile(r"(?i)\b(?:nothing|none|no)\s+$")
# What may stand before a handle that opens a line of the list: a bullet, a number,
# a checkbox, a table's `|`, a quote, emphasis.
_LIST_MARK = lazy_compile(r"[\s>*+\-\u2022\u00b7|#\d.)(\[\]xX`'\"_]*")
# What says a handle was not read (not "not" alone: `H1 (does not leak)` was read,
# nor "ignored": `H1 (ignored whitespace, reviewed logic)`).
_NOT_READ = lazy_compile(
    r"(?i)\b(?:not\s+(?:yet\b|(?:yet\s+)?(?:read|reviewed|checked|opened|looked|covered|verified))"
    r"|unread|unreviewed|unchecked|skip(?:ped|ping)?|skimmed|no\s+time|out\s+of\s+time|tbd"
    r"|(?:todo|pending|outstanding|deferred|remaining)(?!\s+\w)|unable\s+to"
    r"|(?:did|could|have|has|had)\s*(?:n[\u2019']?t|\s+not)\s+(?:yet\s+)?"
    r"(?:get\s+(?:to|round|around)|gotten\s+to|got\s+to|read|review|open|finish"
    r"|have\s+(?:the\s+|a\s+)?(?:time|chance))"
    r"|(?:will|i[\u2019']ll|i\s+will)\s+(?:review|read|look\s+at)\s+(?:it|this|them|that|later)"
    r"|never\s+opened|still\s+(?:need|have)\s+to\s+(?:look|read|review)"
    r"|out\s+of\s+(?:token\s+)?budget|still\s+to\s+(?:review|read)"
    r"|(?:left\s+)?for\s+(?:a\s+)?later|glanced"
    # Found by an adversarial review: answers that read only the excerpt, or part; said
    # of the reviewer (`I did not verify`), or as the whole of a note (`(unopened)`),
    # never of the code (a review of the fix: "errors weren't checked before this
    # change", "leaks an unopened file descriptor", "only partially fixes it").
    r"|excerpt\s+only|(?:saw|read|looked\s+at|from)\s+(?:only\s+)?the\s+excerpt"
    # ... at a note's start (after a bracket, a colon or a dash), to its end or a
    # stop (a review of the fix: "(unopened.)", "H2 - unopened", "(partially read,
    # rest unclear)" passed).
    r"|(?:(?<=\()|(?<=\[)|(?<=:\s)|(?<=-\s)|(?<=\u2013\s)|(?<=\u2014\s))\s*"
    r"(?:I\s+)?(?:unopened|not\s+examined"
    r"|not\s+(?:actually|fully|really)\s+(?:read|reviewed|opened|checked|examined)"
    r"|(?:partially|partly)\s+(?:read|reviewed|opened|checked)"
    r"|(?:was|were)(?:\s+not|n[\u2019']?t)\s+(?:opened|read|reviewed|examined|checked)"
    r"|(?:did|could)(?:\s+not|n[\u2019']?t)\s+(?:verify|examine|check|look|open|read)"
    r"(?:\s+(?:it|this|them|that|at\s+it))?)"
    r"(?=\s*(?:[.;,)\]]|$))"
    r")(?![\w-])"
)
# What may stand between such words and the handles they are about: a colon, "for",
# "before", "the following"...
_CONNECTS = lazy_compile(
    r"(?i)[\s:,;(\u2013\u2014-]*(?:(?:for|before|on|in|at|to|the|following|these|handles?)\b[\s:,;(-]*)*"
)
# Words before a handle that exclude it; a line's opening that excludes them all.
_INTRODUCES = lazy_compile(r"(?i)\b(?:not|except(?:\s+for)?|excluding|without)\W*$")
_NONE_OF = lazy_compile(r"(?i)\bnone\s+of\b")


def _occurrences(text: str, share: Sequence[str]) -> list[tuple[int, int, str]]:
    """Where the text lists handles of the share, in order: each whole (`_starts`), a
    longer one first where one holds another."""
    found: list[tuple[int, int, str]] = []
    taken: list[tuple[int, int]] = []
    for handle in sorted(set(share), key=len, reverse=True):
        for start in _starts(text, handle, share):
            end = start + len(handle)
            if not any(start < other_end and other_start < end for other_start, other_end in taken):
                taken.append((start, end))
                found.append((start, end, handle))
    return sorted(found)


def _starts(text: str, handle: str, others: Sequence[str]) -> Iterator[int]:
    """Where `text` lists `handle` whole: it starts the text or follows a space, a
    separator or what wraps a handle in prose, and ends the text or is followed by one
    of those or a full stop, a colon... A handle is looked for as it is, not cut out
    of the text at its spaces or commas: a path may hold both, and a deleted file's
    handle ends with `..` (`gone.txt:-1-2@422c2b7ab3b3..`). Nor is it the end of one
    of `others` there (`b.py:...` inside `tool b.py:...`)."""
    longer = [other for other in others if len(other) > len(handle) and other.endswith(handle)]
    start = text.find(handle)
    while start >= 0:
        end = start + len(handle)
        before = text[start - 1] if start else " "
        after = text[end] if end < len(text) else " "
        if not any(text[end - len(other) : end] == other for other in longer) and (
            (before.isspace() or before in _WRAPPING)
            and (after.isspace() or after in _WRAPPING or after in ".:!?&")
        ):
            yield start
        start = text.find(handle, start + 1)


def _load_manifest(path: str) -> dict[str, Any]:
    try:
        data = json.loads(Path(path).read_text("utf-8"))
    except OSError as error:
        message = f"cannot read manifest {path}: {error.strerror}"
        raise UserError(message, status=Exit.USAGE) from None
    except ValueError:
        raise UserError(f"{path}: not a JSON manifest", status=Exit.USAGE) from None
    if not isinstance(data, dict):
        raise UserError(f"{path}: not a JSON manifest", status=Exit.USAGE)
    return data


def _read(answer: str) -> str:
    if answer == "-":
        return sys.stdin.read()
    try:
        return Path(answer).read_text("utf-8", errors="replace")
    except OSError as error:
        message = f"cannot read answer {answer}: {error.strerror}"
        raise UserError(message, status=Exit.USAGE) from None
