"""The full-content bundle: the status quo, every changed file in full plus its diff.

For consumers that cannot use handles. It is rendered from a manifest built
with every file's content in it (`full` entries), secrets already redacted.
Its own lines (`=== PATH (status, kind) ===`, `--- content at head ---`,
`--- diff ---`) are made of runs of `=` and `-` longer than any a line of the
files' contents or diffs starts with, so that no file can hold one of them (found
by an adversarial review: a page held a forged section for another file).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from gitreview.shown import written_path


def render_full(manifest: dict[str, Any], *, color: bool = False) -> str:
    rng = manifest["range"]
    where = f"{(rng['base'] or 'empty tree')[:12]}..{rng['head'][:12]}" if rng["head"] else "patch"
    out = [f"# {rng['spec']} ({where}): {len(manifest['files'])} changed files\n"]
    texts = [
        text
        for entry in manifest["files"]
        for text in (entry.get("full", {}).get("content"), entry.get("full", {}).get("diff"))
        if text
    ]
    title, part = _fence("=", texts), _fence("-", texts)
    for entry in manifest["files"]:
        name = written_path(entry["path"])
        if "old_path" in entry:
            name = f"{written_path(entry['old_path'])} -> {name}"
        out.append(f"\n{title} {name} ({entry['status']}, {entry['kind']}) {title}\n")
        full = entry.get("full", {})
        content = full.get("content")
        if content is None:
            out.append(f"{part} no content at head {part}\n")
        else:
            out.append(f"{part} content at head {part}\n")
            out.append(content if content.endswith("\n") or not content else content + "\n")
        diff = full.get("diff", "")
        out.append(f"{part} diff {part}\n" if diff else f"{part} no text diff {part}\n")
        out.append(diff)
    return "".join(out)


def _fence(char: str, texts: Iterable[str]) -> str:
    """Three of `char`, or one more than the longest run of it starting a line."""
    starts = re.compile(rf"^{re.escape(char)}{{3,}}", re.MULTILINE)
    longest = max((len(run) for text in texts for run in starts.findall(text)), default=2)
    return char * max(3, longest + 1)
