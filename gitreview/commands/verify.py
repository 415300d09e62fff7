"""`git review-manifest verify --role NAME MANIFEST ANSWER`: did the reviewer read its share?

Seed 004's lazy-load warning made checkable (issue #10): the brief asks the
reviewer to end with `Handles read: ...`; each handle of the role's share that
the answer does not list is printed, one per line, and the exit status is 1.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

from gitreview.errors import Exit, UserError
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
        listed = set()
    missing = [handle for handle in share if handle not in listed]
    if missing:
        notes.append(f"{len(missing)} of {len(share)} handles of role {role!r} not read")
    return missing, notes


def handles_read(answer: str) -> set[str] | None:
    """The handles the answer's last `Handles read:` line lists (a line may wrap
    onto the lines after it), or None when it has none."""
    lines = answer.splitlines()
    starts = [i for i, line in enumerate(lines) if HANDLES_READ.lower() in line.lower()]
    if not starts:
        return None
    first = lines[starts[-1]]
    text = first[first.lower().index(HANDLES_READ.lower()) + len(HANDLES_READ) :]
    text += " " + " ".join(lines[starts[-1] + 1 :])
    words = re.split(r"[\s,;]+", text)
    # A handle never ends with "." (it ends with a blob id or a line number), but a
    # path may start with one.
    found = {word.lstrip(_WRAPPING).rstrip(_WRAPPING + ".") for word in words}
    return found - {""}


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
