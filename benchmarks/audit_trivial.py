"""Whether the hunks gitreview calls trivial leave the file's meaning as it was,
checked against a real repository's history.

    python benchmarks/audit_trivial.py --repo PATH [--commits N] [RANGE...]

Each of the last N commits (default 300) is its own range, then each RANGE given.
For every modified or renamed Python, YAML, JSON, TOML, Markdown, C or C++ file with a hunk
called trivial for a reason that claims the meaning is unchanged (whitespace,
blank-lines, line-endings, formatting, reflow), the base is rebuilt with only the
file's other hunks applied, and that text must mean what the head means, by a
reading that owes nothing to gitreview (tests/meaning.py, which the tests also
run on every fixture range). A file where it does not is printed with its trivial
hunks, and the script exits 1: gitreview promised those hunks were safe to skip.
A rebuilt text that does not parse (the trivial and the other hunks overlap in
one construct) is counted, not judged.

It runs this checkout's code in-process, without a cache, and writes nothing to
the repository. Run by hand, never by the tests: flask's last 900 commits take
about five minutes.
"""

from __future__ import annotations

import argparse
import collections
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from meaning import audit, wanted  # noqa: E402

from gitreview.errors import UserError  # noqa: E402
from gitreview.pipeline import classify_range  # noqa: E402

SUFFIXES = (
    *("*.py", "*.yml", "*.yaml", "*.json", "*.toml", "*.md", "*.markdown"),
    *("*.c", "*.h", "*.cc", "*.cpp", "*.cxx", "*.hh", "*.hpp"),
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repo", required=True)
    parser.add_argument("--commits", type=int, default=300)
    parser.add_argument("ranges", nargs="*")
    options = parser.parse_args()
    log = ("log", "--format=%H %P", "--no-merges", "-n", str(options.commits), "--", *SUFFIXES)
    # A root commit has no parent: its range would add every file, which audits nothing.
    pairs = [line.split() for line in _git(options.repo, *log).decode().splitlines()]
    ranges = [f"{ends[1]}..{ends[0]}" for ends in pairs if len(ends) > 1] + options.ranges
    counts: Counts = collections.defaultdict(collections.Counter)
    wrong = sum(audit_range(options.repo, rng, counts) for rng in ranges)
    print_counts(counts)
    print(f"{len(ranges)} ranges, {wrong} files whose meaning changed")
    return 1 if wrong else 0


Counts = dict[str, collections.Counter[str]]


def audit_range(repo: str, rng: str, counts: Counts) -> int:
    """The range's files with a trivial hunk audited, counted by kind in `counts`; each
    whose meaning changed printed. Returns how many did."""
    try:
        outcome = classify_range(repo, rng, cache=False)
    except UserError as error:
        print(f"skipped {rng}: {error}", file=sys.stderr)
        return 0
    wrong = 0
    for item in outcome.files:
        change = item.change
        if change.status not in ("modified", "renamed") or not change.old_oid:
            continue
        if not wanted(item.kind, item.verdict.hunks):
            continue
        found = audit(
            item.kind,
            change.hunks,
            item.verdict.hunks,
            _git(repo, "cat-file", "blob", change.old_oid),
            _git(repo, "cat-file", "blob", change.new_oid or ""),
        )
        if found is None:
            continue
        count = counts[item.kind]
        count["unparsed" if found.kept is None else "audited"] += 1
        count["all"] += found.kept is not None and found.every_hunk
        if found.kept is False:
            count["changed"] += 1
            wrong += 1
            print(f"meaning changed: {rng} {change.path}: {'; '.join(found.hunks)}")
    return wrong


def print_counts(counts: Counts) -> None:
    print("| kind | files audited | every hunk trivial | meaning changed | not rebuildable |")
    print("|---|---|---|---|---|")
    for kind in sorted(counts):
        count = counts[kind]
        print(
            f"| {kind} | {count['audited']} | {count['all']} | {count['changed']} "
            f"| {count['unparsed']} |"
        )


def _git(repo: str, *args: str) -> bytes:
    return subprocess.run(["git", "-C", repo, *args], capture_output=True, check=True).stdout


if __name__ == "__main__":
    sys.exit(main())
