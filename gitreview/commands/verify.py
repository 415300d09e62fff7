"""`git review-manifest verify --role NAME MANIFEST ANSWER`: did the reviewer read its share?

Seed 004's lazy-load warning made checkable (issue #10): the brief asks the
reviewer to end with `Handles read: ...`; each handle of the role's share that
the answer does not list is printed, one per line, and the exit status is 1.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from gitreview.errors import Exit, UserError
from gitreview.patterns import lazy_compile
from gitreview.review.brief import HANDLES_READ

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
    if not isinstance(review, dict) or role not in review:
        known = ", ".join(review) if isinstance(review, dict) and review else "none"
        raise UserError(
            f"{source}: no role {role!r} in its review (roles: {known})", status=Exit.USAGE
        )
    share = [item["handle"] for batch in review[role]["batches"] for item in batch["handles"]]
    listed = handles_read(answer)
    notes = []
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


def handles_read(answer: str) -> list[str] | None:
    """The answer's last `Handles read:` line, from the words after it, and the lines
    below it (a long list wraps, into bullets, numbers, notes); None if it has none."""
    lines = answer.splitlines()
    starts = [i for i, line in enumerate(lines) if HANDLES_READ.lower() in line.lower()]
    if not starts:
        return None
    first = lines[starts[-1]]
    words = first[first.lower().index(HANDLES_READ.lower()) + len(HANDLES_READ) :]
    return [words, *lines[starts[-1] + 1 :]]


def read_handles(lines: Sequence[str], share: Sequence[str]) -> set[str]:
    """The handles of the share the list's lines say were read. A line's words about
    a handle stand between it and the next: after it on its line (`H3: not read`,
    `H3 (skipped)`), or before it when they end with a colon (`H1, H2 (not read, no
    time: H3)`), or from the start of its line (`Not read (no time): H3, H4`). A line
    with no handle that says some were not read ends the list (`Not read:` above a
    bulleted list). Found by adversarial reviews: every line below the list counted,
    `Not read (no time): H` included; then a word list refused `TODO.md`'s handle."""
    read: set[str] = set()
    for line in lines:
        found = _occurrences(line, share)
        if not found:
            if _NOT_READ.search(line):
                break
            continue
        unread: set[int] = set()
        if _NOT_READ.search(line[: found[0][0]]):
            unread.update(range(len(found)))  # `Not read: H3, H4`, `Skipped H3`
        for index, (_, end, _) in enumerate(found):
            gap = line[end : found[index + 1][0] if index + 1 < len(found) else len(line)]
            if not _NOT_READ.search(gap):
                continue
            if index + 1 < len(found) and gap.rstrip(_AROUND).endswith(":"):
                unread.update(range(index + 1, len(found)))  # `(not read, no time: H3)`
            else:
                unread.add(index)  # `H3: not read`, `H3 (skipped)`
        read.update(handle for index, (_, _, handle) in enumerate(found) if index not in unread)
    return read


# What says a handle was not read (not "not" alone: `H1 (does not leak)` was read).
_NOT_READ = lazy_compile(
    r"(?i)\b(?:not\s+(?:yet\s+)?(?:read|reviewed|checked|opened|looked|covered|verified)"
    r"|unread|unreviewed|unchecked|skip(?:ped)?|skimmed|no\s+time|out\s+of\s+time|tbd"
    r"|(?:did|could|have|has|was|were)\s*(?:n[\u2019']t|\s+not)|haven[\u2019']t"
    r"|will\s+(?:review|read|check|look)|deferred|outstanding|ignored)\b"
)
_AROUND = " \t)]}>*_`'\""


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
