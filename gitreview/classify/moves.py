"""Blocks moved within the range: removed in one place, added unchanged in another.

A pass over the whole range once every file is classified, in the spirit of
git's --color-moved: the added lines are matched, block by block, against the
removed lines of the whole range (the same file or another). A significant
hunk becomes trivial (`moved`) when every non-blank line it removes went into
such a block and every non-blank line it adds came from one. Each removed line
is matched once: a block added twice is moved once and copied once, and the
copy stays significant. A block must be big enough to rule out coincidence:
three non-blank lines and forty letters or digits. Indentation is ignored
only where the file's kind ignores it (never in Python, YAML or Markdown).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace

from gitreview.analyze import lexical
from gitreview.classify import aggregate
from gitreview.classify.base import FileVerdict, Verdict
from gitreview.handles import Handle
from gitreview.model import FileChange, Line

MIN_LINES = 3
MIN_ALNUM = 40
MAX_CANDIDATES = 50  # places tried per line: bounds the work on repetitive code
_MOVABLE_STATUSES = ("modified", "renamed", "copied")

FileInput = tuple[FileChange, str, bool, FileVerdict]  # change, kind, t1, verdict


@dataclass
class _Run:
    """Consecutive removed (or added) lines of one hunk."""

    file: int
    hunk: int
    lines: list[Line]
    keys: list[str]
    matched: list[str | None]  # per line: the handle of the block on the other side


def find_moves(files: Sequence[FileInput]) -> list[FileVerdict]:
    """The verdicts of the range's files with moved blocks made trivial."""
    removed = _runs(files, "-")
    added = _runs(files, "+")
    _match(files, added, removed)
    by_hunk: dict[tuple[int, int], list[tuple[str, _Run]]] = defaultdict(list)
    for side, side_runs in (("-", removed), ("+", added)):
        for run in side_runs:
            by_hunk[(run.file, run.hunk)].append((side, run))
    verdicts = [verdict for _, _, _, verdict in files]
    for (f, h), hunk_runs in sorted(by_hunk.items(), key=lambda item: item[0]):
        change, kind, _, verdict = files[f]
        if change.status not in _MOVABLE_STATUSES or verdict.hunks[h].reasons != ("content",):
            continue
        moved = _moved(kind, hunk_runs)
        if moved is None:
            continue
        evidence = "; ".join(f"{name.replace('_', ' ')} {handle}" for name, handle in moved)
        hunks = list(verdicts[f].hunks)
        hunks[h] = Verdict("trivial", ("moved",), evidence + ", unchanged", tuple(moved))
        verdicts[f] = replace(verdicts[f], hunks=tuple(hunks))
    return [
        verdict if verdict is original else aggregate(change, t1, verdict.hunks)
        for verdict, (change, _, t1, original) in zip(verdicts, files, strict=True)
    ]


def _runs(files: Sequence[FileInput], origin: str) -> list[_Run]:
    runs: list[_Run] = []
    for f, (change, kind, _, _) in enumerate(files):
        if change.binary:
            continue
        policy = lexical.policy(kind)
        free_indent = policy is not None and policy.leading
        for h, hunk in enumerate(change.hunks):
            current: _Run | None = None
            previous: Line | None = None
            for line in hunk.lines:
                if line.origin != origin:
                    current, previous = None, None
                    continue
                if current is None or not _follows(previous, line):
                    current = _Run(f, h, [], [], [])
                    runs.append(current)
                key = line.text.strip() if free_indent else line.text.rstrip("\r")
                current.lines.append(line)
                current.keys.append(key)
                current.matched.append(None)
                previous = line
    return runs


def _follows(previous: Line | None, line: Line) -> bool:
    if previous is None:
        return False
    if line.origin == "-":
        return previous.old_no is not None and line.old_no == previous.old_no + 1
    return previous.new_no is not None and line.new_no == previous.new_no + 1


def _match(files: Sequence[FileInput], added: list[_Run], removed: list[_Run]) -> None:
    """Greedy longest blocks, in range order: each added line is matched with the
    longest run of unused removed lines it starts."""
    places: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for r, run in enumerate(removed):
        for p, key in enumerate(run.keys):
            if key.strip():
                places[key].append((r, p))
    for run in added:
        i = 0
        while i < len(run.keys):
            best_length, best = 0, (0, 0)
            for r, p in places.get(run.keys[i], ())[:MAX_CANDIDATES]:
                source = removed[r]
                length = 0
                while (
                    i + length < len(run.keys)
                    and p + length < len(source.keys)
                    and source.matched[p + length] is None
                    and run.keys[i + length] == source.keys[p + length]
                ):
                    length += 1
                if length > best_length:
                    best_length, best = length, (r, p)
            keys = run.keys[i : i + best_length]
            if best_length and _big_enough(keys):
                r, p = best
                source = removed[r]
                there = _handle(files, source, p, best_length, "-")
                here = _handle(files, run, i, best_length, "+")
                for offset in range(best_length):
                    source.matched[p + offset] = here
                    run.matched[i + offset] = there
                i += best_length
            else:
                i += 1


def _big_enough(keys: list[str]) -> bool:
    nonblank = sum(1 for key in keys if key.strip())
    return nonblank >= MIN_LINES and sum(c.isalnum() for key in keys for c in key) >= MIN_ALNUM


def _handle(files: Sequence[FileInput], run: _Run, start: int, length: int, side: str) -> str:
    change = files[run.file][0]
    first, last = run.lines[start], run.lines[start + length - 1]
    if side == "-":
        assert first.old_no is not None and last.old_no is not None
        return str(
            Handle(change.old_path or change.path, change.old_oid, first.old_no, last.old_no)
        )
    assert first.new_no is not None and last.new_no is not None
    return str(Handle(change.path, change.new_oid, first.new_no, last.new_no))


def _moved(kind: str, runs: list[tuple[str, _Run]]) -> list[tuple[str, str]] | None:
    """Where the hunk's blocks went and came from, if every non-blank line moved;
    blank lines may be left over only where the kind gives them no meaning."""
    policy = lexical.policy(kind)
    blank_free = policy is not None and policy.blank_lines != "none"
    pointers: dict[tuple[str, str], None] = {}
    for side, run in runs:
        for key, handle in zip(run.keys, run.matched, strict=True):
            if handle is None:
                if key.strip() or not blank_free:
                    return None
                continue
            pointers[("moved_to" if side == "-" else "moved_from", handle)] = None
    return list(pointers) or None
