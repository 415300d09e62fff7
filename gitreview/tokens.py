"""The one token estimate gitreview uses everywhere.

Characters divided by four, rounded up: the rule of thumb model vendors
publish for English text and code. It needs no download and no tokenizer, and
it is the same on every machine, so figures in a manifest are reproducible.
"""

from __future__ import annotations

from gitreview.model import Hunk


def estimate(text: str) -> int:
    return (len(text) + 3) // 4


def hunk_text(hunk: Hunk) -> str:
    """The hunk as a reviewer reads it in a unified diff."""
    header = f"@@ -{hunk.old_start},{hunk.old_count} +{hunk.new_start},{hunk.new_count} @@\n"
    return header + "".join(f"{line.origin}{line.text}\n" for line in hunk.lines)
