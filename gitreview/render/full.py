"""The full-content bundle: the status quo, every changed file in full plus its diff.

For consumers that cannot use handles. It is rendered from a manifest built
with every file's content in it (`full` entries), secrets already redacted.
"""

from __future__ import annotations

from typing import Any

from gitreview.shown import written_path


def render_full(manifest: dict[str, Any], *, color: bool = False) -> str:
    rng = manifest["range"]
    where = f"{(rng['base'] or 'empty tree')[:12]}..{rng['head'][:12]}" if rng["head"] else "patch"
    out = [f"# {rng['spec']} ({where}): {len(manifest['files'])} changed files\n"]
    for entry in manifest["files"]:
        title = written_path(entry["path"])
        if "old_path" in entry:
            title = f"{written_path(entry['old_path'])} -> {title}"
        out.append(f"\n=== {title} ({entry['status']}, {entry['kind']}) ===\n")
        full = entry.get("full", {})
        content = full.get("content")
        if content is None:
            out.append("--- no content at head ---\n")
        else:
            out.append("--- content at head ---\n")
            out.append(content if content.endswith("\n") or not content else content + "\n")
        diff = full.get("diff", "")
        out.append("--- diff ---\n" if diff else "--- no text diff ---\n")
        out.append(diff)
    return "".join(out)
