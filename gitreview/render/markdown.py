"""A Markdown report of a manifest: for a pull-request comment or a step summary.

GitHub-flavoured Markdown. Paths, handles and rule ids are code spans; other
text is escaped, so a `|` in a path cannot break a table, a `<` cannot open
HTML and a `*` cannot turn into emphasis. Long lists are cut (a PR comment
holds 65536 characters); the manifest has everything.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from gitreview.patterns import lazy_compile
from gitreview.render import by_severity, counted
from gitreview.shown import UNSAFE, escaped

MAX_ITEMS = 50  # files, commits or handles listed in one place
MAX_FINDINGS = 100
SHORT_SHA = 12
# GitHub refuses a whole step summary over 1 MiB ("$GITHUB_STEP_SUMMARY upload
# aborted, supports content up to a size of 1024k"): issue #13.
STEP_SUMMARY_BYTES = 1024 * 1024
_CUT_NOTE_BYTES = 300  # the line saying what was cut, counts included
_CLOSE = "</details>\n\n"

# Characters with an inline meaning in GitHub Markdown; line-start markers (#, -,
# +, 1.) never begin a line here, so they need no escape.
_INLINE = lazy_compile(r"([\\`*_\[\]<>|~&$])")
_BACKTICKS = lazy_compile(r"`+")
_FULL_SHA = lazy_compile(r"\b[0-9a-f]{40}(?:[0-9a-f]{24})?\b")


def render_markdown(manifest: dict[str, Any], *, color: bool = False) -> str:
    sections = [
        _heading(manifest),
        _figures(manifest),
        _findings(manifest["findings"], manifest["summary"]["findings"]),
        _review(manifest["review"]),
        _skipped(manifest),
    ]
    return "\n\n".join(section for section in sections if section) + "\n"


# -- sections --------------------------------------------------------------------


def _heading(manifest: dict[str, Any]) -> str:
    rng = manifest["range"]
    # The Actions step's range names commits in full: 12 digits are enough to read.
    spec = _FULL_SHA.sub(lambda match: match.group()[:SHORT_SHA], rng["spec"])
    lines = [f"### gitreview: {code(spec)}", ""]
    if rng["head"] is None:
        lines.append("A patch, without its repository.")
        return "\n".join(lines)
    base = code(rng["base"][:SHORT_SHA]) if rng["base"] else "the empty tree"
    commits = rng["commits"]
    lines.append(
        f"{base}..{code(rng['head'][:SHORT_SHA])}, {counted(len(commits), 'commit')}"
        + (":" if commits else ".")
    )
    if commits:
        lines.append("")
        items = [f"- {code(c['sha'][:SHORT_SHA])} {text(c['subject'])}" for c in commits]
        lines += _capped(items, len(items), "commits")
    return "\n".join(lines)


def _figures(manifest: dict[str, Any]) -> str:
    summary, tokens, ledger = manifest["summary"], manifest["tokens"], manifest["ledger"]
    lines = ["| | total | significant | trivial |", "| --- | ---: | ---: | ---: |"]
    for name in ("files", "hunks"):
        counts = summary[name]
        lines.append(
            f"| {name} | {counts['total']} | {counts['significant']} | {counts['trivial']} |"
        )
    lines += [
        "",
        f"**Tokens**: {tokens['diff']} for the plain diff, {tokens['full']} for every changed "
        f"file in full plus the diff; the reviewers' briefs {tokens['brief']}: "
        f"**{_against(tokens['reduction']['diff'], 'the diff')}**, "
        f"{_against(tokens['reduction']['full'], 'full files')}.",
        "",
    ]
    trivial = ledger["trivial"]
    by_reason = ", ".join(f"{reason} {lines_}" for reason, lines_ in trivial.items())
    lines.append(
        f"**Lines**: {counted(ledger['lines'], 'changed line')}: "
        f"{ledger['significant']} to review, {sum(trivial.values())} trivial"
        + (f" ({by_reason})." if by_reason else ".")
    )
    return "\n".join(lines)


def _against(reduction: float, what: str) -> str:
    """ "85% less than the diff"; for a small range, whose briefs' instructions
    outweigh its changes, "57% more than the diff"."""
    if reduction < 0:
        return f"{-reduction:.0%} more than {what}"
    return f"{reduction:.0%} less than {what}"


def _findings(findings: list[dict[str, Any]], counts: dict[str, int]) -> str:
    if not findings:
        return "#### Findings: none"
    tally = ", ".join(f"{counts[severity]} {severity}" for severity in ("error", "warning", "info"))
    lines = [
        f"#### Findings: {tally}",
        "",
        "| severity | rule | where | message |",
        "| --- | --- | --- | --- |",
    ]
    # The most severe first, as the github format orders them (found by an adversarial
    # review: a hundred notes earlier in path order pushed a warning off the table).
    for finding in by_severity(findings)[:MAX_FINDINGS]:
        where = "the range"
        if finding["path"] is not None:
            line = f":{finding['line']}" if finding["line"] is not None else ""
            where = code(finding["path"] + line, cell=True)
        lines.append(
            f"| {finding['severity']} | {code(finding['rule'], cell=True)} | {where} "
            f"| {text(finding['message'])} |"
        )
    if len(findings) > MAX_FINDINGS:
        lines.append(f"\n{len(findings) - MAX_FINDINGS} more in the manifest.")
    return "\n".join(lines)


def _review(review: dict[str, Any]) -> str:
    if not review:
        return "#### For reviewers: nothing to review"
    lines = ["#### For reviewers"]
    for role, entry in review.items():
        batches = entry["batches"]
        lines += [
            "",
            f"**{text(role)}**: {counted(entry['handles'], 'handle')} in "
            f"{counted(entry['files'], 'file')}, {entry['tokens']} tokens, "
            f"{counted(len(batches), 'batch', 'batches')}",
            "",
            "<details><summary>Handles</summary>",
            "",
        ]
        items: list[str] = []
        for number, batch in enumerate(batches, 1):
            if len(batches) > 1:
                items.append(f"- batch {number}:")
            indent = "  " if len(batches) > 1 else ""
            items += [f"{indent}- {code(item['handle'])}" for item in batch["handles"]]
        lines += _capped(items, entry["handles"], "handles")
        lines += ["", "</details>"]
    return "\n".join(lines)


def _skipped(manifest: dict[str, Any]) -> str:
    files = manifest["files"]
    items: list[str] = []
    trivial = [entry for entry in files if entry["classification"] == "trivial"]
    if trivial:
        items.append(f"- **Trivial** ({counted(len(trivial), 'file')}), no reviewer reads them:")
        listed = [f"  - {_path(entry)}: {', '.join(entry['reasons'])}" for entry in trivial]
        items += _capped(listed, len(listed), "files", indent="  ")
    for cause, paths in manifest["ledger"].get("unreviewable", {}).items():
        items.append(
            f"- **Unreviewable** ({text(cause)}, {counted(len(paths), 'file')}), "
            "no content to read: " + _joined(code(path) for path in paths[:MAX_ITEMS])
        )
        if len(paths) > MAX_ITEMS:
            items[-1] += f", and {len(paths) - MAX_ITEMS} more"
    missing = [entry for entry in files if entry["t1"] == "missing"]
    if missing:
        fallback = manifest.get("fallback")
        then = (
            f"--fallback put their full content in the manifest ({fallback['tokens']} tokens)"
            if fallback
            else "--fallback would put their full content in the manifest"
        )
        items.append(
            f"- **Not analyzed** ({counted(len(missing), 'file')}), no tier-1 analysis of "
            f"their content; {then}:"
        )
        listed = [f"  - {_path(entry)}: {entry['t1_cause']}" for entry in missing]
        items += _capped(listed, len(listed), "files", indent="  ")
    if not items:
        return ""
    return "\n".join(["#### Skipped, and why", "", *items])


def fit(markdown: str, limit: int = STEP_SUMMARY_BYTES, *, tail: str = "") -> str:
    """`markdown` then `tail`, whole when they fit in `limit` bytes of UTF-8; else the
    first whole lines of `markdown` that fit, any open <details> closed, a line saying
    what was cut, then `tail`. The same report is always cut at the same line."""
    if len((markdown + tail).encode("utf-8")) <= limit:
        return markdown + tail
    room = limit - len(tail.encode("utf-8")) - _CUT_NOTE_BYTES
    lines = markdown.splitlines(keepends=True)
    kept: list[str] = []
    size = depth = 0
    for line in lines:
        opens = int(line.startswith("<details>")) - int(line.rstrip("\n") == "</details>")
        if size + len(line.encode("utf-8")) + (depth + opens) * len(_CLOSE) > room:
            break
        kept.append(line)
        size += len(line.encode("utf-8"))
        depth += opens
    cut = len(lines) - len(kept)
    note = (
        f"**Cut here** to stay under GitHub's limit of {STEP_SUMMARY_BYTES // 1024} KiB "
        f"for a step summary: {cut} of {counted(len(lines), 'line')} left out; the manifest "
        "has everything.\n"
    )
    return "".join([*kept, "\n", _CLOSE * depth, note, tail])


# -- pieces ----------------------------------------------------------------------


def text(value: str) -> str:
    """Plain text on one line, every inline Markdown character escaped."""
    return _INLINE.sub(r"\\\1", " ".join(UNSAFE.sub(" ", value).split()))


def code(value: str, *, cell: bool = False) -> str:
    """A code span holding exactly `value` (control characters shown as \\xNN):
    a fence longer than any run of backticks inside, padded where CommonMark
    would strip a space or merge a backtick; `|` escaped inside a table cell."""
    value = escaped(value)
    longest = max((len(run) for run in _BACKTICKS.findall(value)), default=0)
    fence = "`" * (longest + 1)
    if value[:1] == "`" or value[-1:] == "`" or (value[:1] == value[-1:] == " " and value.strip()):
        value = f" {value} "
    if cell:
        value = value.replace("|", "\\|")
    return f"{fence}{value}{fence}"


def _path(entry: dict[str, Any]) -> str:
    if "old_path" in entry:
        return f"{code(entry['old_path'])} → {code(entry['path'])}"
    return code(entry["path"])


def _capped(items: list[str], total: int, noun: str, *, indent: str = "") -> list[str]:
    if len(items) <= MAX_ITEMS:
        return items
    return [*items[:MAX_ITEMS], f"{indent}- … and more: {total} {noun} in all, in the manifest"]


def _joined(parts: Iterable[str]) -> str:
    return ", ".join(parts)
