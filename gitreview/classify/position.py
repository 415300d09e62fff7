"""Lines whose position is syntax: no rule may call a change there trivial.

A script's shebang must be line 1, without a carriage return (and so must
cloud-init's `## template: jinja`); a Python coding
cookie must be on line 1 or 2; a Go build constraint must be followed by a
blank line. Blank lines, line endings, formatting and comment edits that move
or touch them change what the file does, so every hunk rule is skipped there.
"""

from __future__ import annotations

from gitreview.classify.base import FileFacts
from gitreview.model import Hunk
from gitreview.patterns import lazy_compile

_BUILD_CONSTRAINT = ("//go:build", "// +build")
# First lines that say how the file is read, only there: a script's `#!`, and
# cloud-init's `## template: jinja`, which it looks for on line 1 alone (found by an
# adversarial review: a blank line above it, and the user data was not rendered).
_FIRST_LINE_SAYS = ("#!", "## template:")  # in any case, as cloud-init reads it
_CODING = lazy_compile(r"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)")  # PEP 263
# Encodings that read the text as gitreview reads it (UTF-8, of which ASCII is part).
_READ_AS = frozenset({"utf-8", "utf8", "ascii", "us-ascii", "utf-8-sig"})


def position_matters(facts: FileFacts, hunk: Hunk) -> bool:
    """Where blank lines and line ends are syntax: a script's shebang (line 1,
    without a carriage return), a Python coding cookie (line 1 or 2; anywhere in a
    file it declares in another encoding than UTF-8), and Go build constraints (a
    blank line must follow them)."""
    texts = (facts.analysis.old_text or "", facts.analysis.new_text or "")
    changed = [line for line in hunk.lines if line.origin != " "]

    def touches(last: int) -> bool:
        return any(
            (line.old_no or last + 1) <= last or (line.new_no or last + 1) <= last
            for line in changed
        )

    if any(text[:16].lower().startswith(_FIRST_LINE_SAYS) for text in texts) and touches(1):
        return True
    if facts.kind == "python":
        head = [line for text in texts for line in text.split("\n", 3)[:2]]
        cookies = [found for line in head if (found := _CODING.search(line))]
        if cookies and touches(2):
            return True
        if any(found.group(1).lower().replace("_", "-") not in _READ_AS for found in cookies):
            # Python decodes the file as the cookie says, gitreview as UTF-8: under
            # UTF-7, `a +-b` is `a + b` (found by an adversarial review).
            return True
    if facts.kind == "go":
        return any(line.text.startswith(_BUILD_CONSTRAINT) for line in hunk.lines)
    return False
