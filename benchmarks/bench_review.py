"""What a reviewer reads with gitreview, against `git diff -M -U3` of the same range.

Run by hand (never in the test suite), on real merged pull requests: each
merge commit on the first-parent line of a repository, against its first
parent. For each it prints, in characters turned into tokens by gitreview's
one estimate (the ratios do not depend on it):

- diff:     `git diff -M -U3 M^1 M`, what a diff-based reviewer reads;
- full:     every changed text file in full at head plus the diff;
- brief:    every role's brief (`--format brief`), what gitreview's reviewers read;
- manifest: the manifest alone;
- floor:    the significant changed lines alone, each with its -/+ and nothing
  else: what any brief that shows every one of them must cost at least;
- coverage: whether every significant changed line, removed and added, and
  every finding is in the brief (checked line by line).

    python benchmarks/bench_review.py /path/to/repo.git [--count 30] [--budget N]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass

from gitreview import tokens
from gitreview.model import Finding
from gitreview.pipeline import Classified, classify_range, review_of
from gitreview.render.json import serialize


@dataclass(frozen=True)
class Row:
    merge: str
    files: int
    diff: int
    full: int
    brief: int
    manifest: int
    floor: int
    covered: bool

    @property
    def brief_ratio(self) -> float:
        return self.brief / self.diff

    @property
    def manifest_ratio(self) -> float:
        return self.manifest / self.diff

    @property
    def floor_ratio(self) -> float:
        return self.floor / self.diff

    @property
    def full_ratio(self) -> float:
        return self.brief / self.full if self.full else 0.0


def git(repo: str, *args: str) -> bytes:
    return subprocess.run(["git", "-C", repo, *args], check=True, capture_output=True).stdout


def merges(repo: str, count: int, rev: str) -> list[str]:
    out = git(repo, "log", "--merges", "--first-parent", "--format=%H", f"-n{count}", rev)
    return out.decode().split()


def measure(repo: str, merge: str, budget: int | None) -> Row | None:
    diff = git(repo, "diff", "-M", "-U3", f"{merge}^1", merge).decode("utf-8", "replace")
    if not diff:
        return None
    outcome = classify_range(repo, f"{merge}^1..{merge}")
    files = list(outcome.files)  # review_of lets the outcome's go as it reports them
    assembled = review_of(outcome, budget=budget)
    manifest = assembled.manifest
    brief = "".join(piece for pieces in assembled.briefs.values() for piece in pieces)
    return Row(
        merge[:12],
        len(files),
        tokens.estimate(diff),
        manifest["tokens"]["full"],
        tokens.estimate(brief),
        tokens.estimate(serialize(manifest)),
        tokens.estimate_chars(floor(files)),
        covered(files, outcome.findings, brief, budget),
    )


def floor(files: Sequence[Classified]) -> int:
    """Characters of the significant changed lines, each with its -/+ and newline."""
    return sum(
        len(line.text) + 2
        for item in files
        if item.verdict.classification == "significant"
        for hunk, verdict in zip(item.change.hunks, item.verdict.hunks, strict=True)
        if verdict.classification == "significant"
        for line in hunk.lines
        if line.origin != " "
    )


def covered(
    files: Sequence[Classified], findings: Sequence[Finding], brief: str, budget: int | None
) -> bool:
    """Every changed line of every significant hunk, removed and added, and every
    finding's message is in the brief (inlined, or its handle listed when a budget
    pushes it out)."""
    from gitreview.secrets import redact

    assert files, "no file to check"
    for item in files:
        for hunk, verdict in zip(item.change.hunks, item.verdict.hunks, strict=True):
            if verdict.classification == "trivial" or item.verdict.classification == "trivial":
                continue
            for line in hunk.lines:
                if line.origin != " " and redact(line.text.rstrip("\r")) not in brief:
                    return budget is not None
    return all(redact(finding.message) in brief for finding in findings)


def percentile(values: Sequence[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("repo")
    parser.add_argument("--count", type=int, default=30)
    parser.add_argument("--rev", default="HEAD")
    parser.add_argument("--budget", type=int)
    options = parser.parse_args(argv)
    rows = []
    print(
        f"{'merge':12} {'files':>5} {'diff':>7} {'brief':>7} {'b/diff':>6} {'floor':>6} "
        f"{'m/diff':>6} {'b/full':>6} covered"
    )
    for merge in merges(options.repo, options.count, options.rev):
        row = measure(options.repo, merge, options.budget)
        if row is None:
            continue
        rows.append(row)
        print(
            f"{row.merge:12} {row.files:5} {row.diff:7} {row.brief:7} {row.brief_ratio:6.2f} "
            f"{row.floor_ratio:6.2f} {row.manifest_ratio:6.2f} {row.full_ratio:6.3f} "
            f"{'yes' if row.covered else 'NO'}"
        )
    if not rows:
        print("no merge commit with a diff", file=sys.stderr)
        return 1
    brief = [row.brief_ratio for row in rows]
    manifest = [row.manifest_ratio for row in rows]
    full = [row.full_ratio for row in rows]
    floors = [row.floor_ratio for row in rows]
    print(
        f"{len(rows)} pull requests: brief/diff median {statistics.median(brief):.2f}, "
        f"p75 {percentile(brief, 0.75):.2f} (floor median {statistics.median(floors):.2f}, "
        f"p75 {percentile(floors, 0.75):.2f}); manifest/diff median "
        f"{statistics.median(manifest):.2f}; brief/full median {statistics.median(full):.3f}; "
        f"covered {sum(row.covered for row in rows)}/{len(rows)}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
