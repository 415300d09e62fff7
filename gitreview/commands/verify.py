"""`git review-manifest verify --role NAME MANIFEST ANSWER`: did the reviewer read its share?

Seed 004's lazy-load warning made checkable (issue #10): the brief asks the
reviewer to end with `Handles read: ...`; each handle of the role's share that
the answer does not list is printed, one per line, and the exit status is 1.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
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
        listed = ""
    missing = [handle for handle in share if not lists(listed, handle, share)]
    if missing:
        notes.append(f"{len(missing)} of {len(share)} handles of role {role!r} not read")
    return missing, notes


def handles_read(answer: str) -> str | None:
    """The text of the answer's last `Handles read:` line and of the lines after it
    (a long list wraps, into bullets, numbers, notes), each up to where it says a
    handle was not read: `Not read (no time): H2` below the list, or `H1 (not read:
    H2)` on it, lists no H2 (found by an adversarial review)."""
    lines = answer.splitlines()
    starts = [i for i, line in enumerate(lines) if HANDLES_READ.lower() in line.lower()]
    if not starts:
        return None
    first = lines[starts[-1]]
    listed = [first[first.lower().index(HANDLES_READ.lower()) + len(HANDLES_READ) :]]
    listed += lines[starts[-1] + 1 :]
    return " ".join(_NOT_READ.split(line, maxsplit=1)[0] for line in listed)


# What says a handle was not read; what follows it on its line lists nothing.
_NOT_READ = lazy_compile(
    r"(?i)\b(?:not|never|unread|unreviewed|skip(?:ped)?|missed|pending|todo|later"
    r"|no time|could\s*n[o']t|did\s*n[o']t|unable|remaining|left)\b"
)


def lists(text: str, handle: str, others: Sequence[str] = ()) -> bool:
    """Whether `text` lists `handle` whole: where it stands, it starts the text or
    follows a space, a separator or what wraps a handle in prose, and ends the text or
    is followed by one of those or a full stop. A handle is looked for as it is, not
    cut out of the text at its spaces or commas: a path may hold both, and a deleted
    file's handle ends with `..` (`gone.txt:-1-2@422c2b7ab3b3..`). Nor is it the end
    of one of `others` that is listed there (`b.py:...` inside `tool b.py:...`)."""
    longer = [other for other in others if len(other) > len(handle) and other.endswith(handle)]
    start = text.find(handle)
    while start >= 0:
        end = start + len(handle)
        if any(text[end - len(other) : end] == other for other in longer):
            start = text.find(handle, start + 1)
            continue
        before = text[start - 1] if start else " "
        after = text[end] if end < len(text) else " "
        if (before.isspace() or before in _WRAPPING) and (
            after.isspace() or after in _WRAPPING or after in ".:!?&"
        ):
            return True
        start = text.find(handle, start + 1)
    return False


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
