"""The one token estimate gitreview uses everywhere.

Characters divided by 3.5, rounded up. Measured on code and prose diffs,
current tokenizers give 3.4 to 3.9 characters per token (issue #10); the low
end is taken so that a budget is never overrun and a reduction never
overstated. It needs no download and no tokenizer, and it is the same on
every machine, so figures in a manifest are reproducible.
"""

from __future__ import annotations

from gitreview.model import FileChange, Hunk, chars_of

# As a fraction, so the estimate is exact integer arithmetic: ceil(chars * 2 / 7).
_TOKENS_PER_CHAR = (2, 7)


def estimate(text: str) -> int:
    return estimate_chars(len(text))


def estimate_chars(chars: int) -> int:
    numerator, denominator = _TOKENS_PER_CHAR
    return (chars * numerator + denominator - 1) // denominator


def hunk_text(hunk: Hunk) -> str:
    """The hunk as a reviewer reads it in a unified diff."""
    return _hunk_header(hunk) + "".join(f"{line.origin}{line.text}\n" for line in hunk.lines)


def hunk_chars(hunk: Hunk) -> int:
    """The length of `hunk_text`, without building it."""
    lines = hunk.lines
    return len(_hunk_header(hunk)) + chars_of(lines) + 2 * len(lines)


def diff_chars(change: FileChange, hunks_chars: int) -> int:
    """The length of the file's part of `git diff -M -U3`, headers included: the
    baseline a reviewer reads without gitreview. `hunks_chars`: its hunks'
    `hunk_chars`, summed (the caller has them)."""
    return len(_diff_header(change)) + hunks_chars


def _hunk_header(hunk: Hunk) -> str:
    return f"@@ -{hunk.old_start},{hunk.old_count} +{hunk.new_start},{hunk.new_count} @@\n"


def _diff_header(change: FileChange) -> str:
    old, new = change.old_path or change.path, change.path
    lines = [f"diff --git a/{old} b/{new}"]
    if change.status in ("renamed", "copied"):
        verb = "rename" if change.status == "renamed" else "copy"
        lines.append(f"similarity index {change.similarity}%")
        lines += [f"{verb} from {old}", f"{verb} to {new}"]
    if change.status == "added" and change.new_mode:
        lines.append(f"new file mode {change.new_mode:06o}")
    elif change.status == "deleted" and change.old_mode:
        lines.append(f"deleted file mode {change.old_mode:06o}")
    elif change.old_mode and change.new_mode and change.old_mode != change.new_mode:
        lines += [f"old mode {change.old_mode:06o}", f"new mode {change.new_mode:06o}"]
    if change.hunks or change.binary:
        old_id, new_id = (change.old_oid or "0" * 7)[:7], (change.new_oid or "0" * 7)[:7]
        lines.append(f"index {old_id}..{new_id}")
    if change.binary:
        lines.append(f"Binary files a/{old} and b/{new} differ")
    elif change.hunks:
        lines += [f"--- a/{old}", f"+++ b/{new}"]
    return "".join(f"{line}\n" for line in lines)
