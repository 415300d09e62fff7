"""The brief: one reviewer role's prompt, ready to paste (issue #10, seed 004).

It holds the range and its commits, the findings already reported (so the
reviewer does not report them again), the role's share of significant hunks
inlined as compact diffs (changed lines only) up to a token budget, the rest
as handles with excerpts to open with `show`, one line per class of what was
left out and why, and the instruction to end with `Handles read: ...`, which
`verify` checks.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gitreview.model import Finding
from gitreview.render import SEVERITY_ORDER, counted
from gitreview.review.roles import ReviewItem, Share
from gitreview.secrets import redact
from gitreview.shown import escaped, written_path

HANDLES_READ = "Handles read:"
MAX_COMMITS = 10  # a merge of a long-lived branch brings hundreds of subjects
MAX_SUBJECT = 200  # characters of a commit subject shown (an author may write thousands)
MAX_FINDINGS = 100  # findings listed; the manifest has every one


def render_brief(
    manifest: Mapping[str, Any],
    share: Share,
    *,
    budget: int | None,
    instructions: str | None,
    others: int,
) -> list[str]:
    """The brief of one role, in pieces to join with "" (a large range's brief is
    megabytes, mostly its items' diffs: joined only when it is printed or written).
    `others`: significant items only other roles review."""
    rng = manifest["range"]
    commits = rng["commits"]
    out = [
        f"# Review brief: {share.role.name} · {escaped(rng['spec'])} · "
        f"{counted(len(commits), 'commit')}\n"
    ]
    if instructions:
        out.append(f"\n{instructions.strip()}\n")
    if commits:
        out.append("\nCommits:\n")
        # The author's words, escaped: a CR, NEL or U+2028 in a subject would start a
        # line of gitreview's own in the prompt (found by an adversarial review).
        out += [f"- {_subject(commit['subject'])}\n" for commit in commits[:MAX_COMMITS]]
        if len(commits) > MAX_COMMITS:
            out.append(f"- and {len(commits) - MAX_COMMITS} more\n")
    if share.findings:
        out.append("\nFindings already reported (do not report them again):\n")
        by_path: dict[str, list[ReviewItem]] = {}
        for item in share.items:
            by_path.setdefault(item.path, []).append(item)
        # The most severe first, and at most MAX_FINDINGS of them: a page that broke
        # twenty thousand links made a brief of megabytes, whatever its budget (found by
        # an adversarial review). The manifest has them all.
        ranked = sorted(share.findings, key=lambda finding: SEVERITY_ORDER.index(finding.severity))
        out += [_finding_line(finding, by_path) for finding in ranked[:MAX_FINDINGS]]
        if len(ranked) > MAX_FINDINGS:
            out.append(f"- and {len(ranked) - MAX_FINDINGS} more, in the manifest\n")
    if not share.items:
        out.append("\nTo review: nothing; no change of this role's share needs judgment.\n")
        left_out = _left_out(manifest, others)
        if left_out:
            out.append(f"\nNot shown: {left_out}.\n")
        out.append(f"\nEnd your answer with one line `{HANDLES_READ} none`.\n")
        return out
    inline, listed = within_budget(share.items, budget)
    files = len({item.path for item in share.items})
    out.append(
        f"\nTo review: {counted(len(share.items), 'change')} in {counted(files, 'file')}"
        + (", shown below as changed lines only.\n" if inline else ".\n")
    )
    out.append(
        "Open more only where judgment needs it: "
        "`git review-manifest show --context 5 HANDLE...`.\n"
    )
    headed: set[str] = set()  # files whose header was written
    for item in inline:
        out.append("\n")
        if item.header and item.path not in headed:
            out.append(item.header)
            headed.add(item.path)
        out += item.diff  # the item's own text, not a copy
    if budget is not None and sum(item.tokens for item in inline) > budget:
        out.append(
            "\n(Inlined past the budget: changes read from a patch without blob ids, "
            "which `show` cannot open.)\n"
        )
    if listed:
        out.append(
            "\nNot inlined (over the budget), open with `git review-manifest show HANDLE...`:\n"
        )
        for item in listed:
            header = ""
            if item.header and item.path not in headed:
                header = f" ({'; '.join(item.header.splitlines())})"
                headed.add(item.path)
            out.append(f"- {item.handle}{header}: {item.excerpt}\n")
    left_out = _left_out(manifest, others)
    if left_out:
        out.append(f"\nNot shown: {left_out}.\n")
    out.append(
        f"\nEnd your answer with one line `{HANDLES_READ} HANDLE, ...` listing every handle "
        "above that you reviewed.\n"
    )
    return out


def _subject(subject: str) -> str:
    """A commit subject as the brief shows it: escaped, and cut at MAX_SUBJECT."""
    if len(subject) > MAX_SUBJECT:
        subject = subject[: MAX_SUBJECT - 1] + "…"
    return escaped(subject)


def within_budget(
    items: Sequence[ReviewItem], budget: int | None
) -> tuple[list[ReviewItem], list[ReviewItem]]:
    """Items inlined in order while they fit in the budget; the others listed, but
    those `show` cannot open (found by an adversarial review: a working tree's diff
    read with `--patch` names no blob, and the brief sent its reviewer to `show` for
    what it left out, which refused every one)."""
    inline: list[ReviewItem] = []
    listed: list[ReviewItem] = []
    spent = 0
    for item in items:
        if budget is None or spent + item.tokens <= budget or not _openable(item.handle):
            inline.append(item)
            spent += item.tokens
        else:
            listed.append(item)
    return inline, listed


def _openable(handle: str) -> bool:
    """Whether `show` can open the handle: it names its blobs."""
    from gitreview.errors import UserError
    from gitreview.handles import parse_handle

    try:
        parsed = parse_handle(handle)
    except UserError:
        return True
    return parsed.change or parsed.oid is not None


def _finding_line(finding: Finding, by_path: Mapping[str, Sequence[ReviewItem]]) -> str:
    """The finding, placed by the handle of the item holding its line, if any
    (`by_path`: the share's items by path, in order)."""
    where = "(range)" if finding.path is None else written_path(finding.path)
    if finding.path is not None and finding.line is not None:
        where = f"{where}:{finding.line}"
        line = finding.line
        holding = next(
            (
                item
                for item in by_path.get(finding.path, ())
                if item.span and item.span[0] <= line <= item.span[1]
            ),
            None,
        )
        if holding is not None:
            where = holding.handle
    return f"- {finding.severity} {finding.rule} {where}: {escaped(redact(finding.message))}\n"


def _left_out(manifest: Mapping[str, Any], others: int) -> str:
    """What the reviewer is not seeing, one clause per class, and why."""
    ledger = manifest["ledger"]
    parts = []
    trivial = ledger["trivial"]
    if trivial:
        reasons = ", ".join(f"{reason} {lines}" for reason, lines in trivial.items())
        parts.append(f"trivial, proved by gitreview (changed lines by reason): {reasons}")
    for cause, paths in ledger.get("unreviewable", {}).items():
        # Quoted as every other line names a file (found by an adversarial review: a
        # binary file's name wrote lines of its own above the closing instruction).
        parts.append(f"{cause} content of {', '.join(map(written_path, paths))}")
    if others:
        parts.append(f"{counted(others, 'change')} routed to other roles only")
    since = manifest.get("since")
    if since and since["hunks"]:
        parts.append(
            f"{counted(since['hunks'], 'change')} reviewed before "
            f"(since {escaped(since['spec'])}), "
            "the same lines in the same place"
        )
    return "; ".join(parts)
