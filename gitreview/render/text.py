"""A short human summary of a manifest (rich), for a terminal or a log."""

from __future__ import annotations

import io
from typing import Any

from gitreview.shown import escaped

WIDTH = 100


def render_text(manifest: dict[str, Any], *, color: bool = False) -> str:
    from rich.console import Console
    from rich.markup import escape as markup_escape
    from rich.table import Table

    def escape(text: str) -> str:
        # Control characters a name may hold (git allows `\033[31m` in a path) are
        # shown escaped, as git quotes them: printed, they would drive the terminal
        # (found by an adversarial review).
        return markup_escape(escaped(text))

    out = io.StringIO()
    console = Console(
        file=out, width=WIDTH, force_terminal=color, no_color=not color, highlight=False
    )
    rng, summary, tokens = manifest["range"], manifest["summary"], manifest["tokens"]
    if rng["head"] is None:
        console.print(f"[bold]{escape(rng['spec'])}[/]  (a patch: no repository)")
    else:
        base = (rng["base"] or "empty tree")[:12]
        commits = len(rng["commits"])
        console.print(
            f"[bold]{escape(rng['spec'])}[/]  {base}..{rng['head'][:12]}  "
            f"{commits} commit{'s' if commits != 1 else ''}"
        )
    files, hunks = summary["files"], summary["hunks"]
    console.print(
        f"files: {files['total']} ({files['significant']} significant, {files['trivial']} trivial)"
        f"  hunks: {hunks['total']} ({hunks['significant']} significant, "
        f"{hunks['trivial']} trivial)"
    )
    share = f" ({1 - tokens['reduction']['diff']:.0%} of the diff)" if tokens["diff"] else ""
    console.print(
        f"tokens: diff {tokens['diff']}, full {tokens['full']}, briefs {tokens['brief']}"
        f"{share}, manifest {tokens['manifest']}"
    )
    ledger = manifest["ledger"]
    trivial = ", ".join(f"{reason} {lines}" for reason, lines in ledger["trivial"].items())
    # Lines an earlier review covered (--since) go to no reviewer: not "to review".
    reviewed = ledger.get("reviewed", 0)
    since = f" ({reviewed} reviewed before, --since)" if reviewed else ""
    console.print(
        f"lines: {ledger['lines']} changed, {ledger['significant'] - reviewed} to review{since}"
        + (f", trivial: {trivial}" if trivial else "")
    )
    for cause, paths in ledger.get("unreviewable", {}).items():
        console.print(f"not reviewable ({cause}): {escape(', '.join(paths))}")
    if "fallback" in manifest:
        fallback = manifest["fallback"]
        console.print(f"fallback: {fallback['files']} files in full ({fallback['tokens']} tokens)")
    findings = summary["findings"]
    console.print(
        f"findings: {findings['error']} error, {findings['warning']} warning, "
        f"{findings['info']} info"
    )
    for finding in manifest["findings"]:
        where = finding["path"] or "range"
        if finding["line"]:
            where += f":{finding['line']}"
        console.print(
            f"  {finding['severity']:<7} {escape(where)}  {escape(finding['message'])} "
            f"[dim]({finding['rule']})[/]"
        )
    if manifest["files"]:
        table = Table(box=None, show_header=True, pad_edge=False, header_style="bold")
        for column in ("class", "status", "kind", "path", "reasons"):
            table.add_column(column, overflow="fold")
        for entry in manifest["files"]:
            path = entry["path"]
            if "old_path" in entry:
                path = f"{entry['old_path']} -> {path}"
            style = "yellow" if entry["classification"] == "significant" else "dim"
            table.add_row(
                f"[{style}]{entry['classification']}[/]",
                entry["status"],
                entry["kind"],
                escape(path),
                ", ".join(entry["reasons"]),
            )
        console.print(table)
    return out.getvalue()
