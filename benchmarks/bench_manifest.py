"""Speed and memory of a manifest against `git diff` on the same range.

    python benchmarks/bench_manifest.py [--repo PATH] [--repeat N] RANGE

Prints the median wall time of `git diff -M -C -p` for the range and of
building the manifest (in this process, and as a fresh `git review-manifest`
process, which includes start-up), their ratios, and the peak memory of the
build. Figures, not assertions: targets are judged by people, not by tests.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable


def timed(action: Callable[[], object], repeat: int) -> float:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("range")
    parser.add_argument("--repo", default=".")
    parser.add_argument("--repeat", type=int, default=5)
    options = parser.parse_args()

    from gitreview import build_manifest
    from gitreview.git import open_repository
    from gitreview.ranges import resolve_range

    repo = open_repository(options.repo)
    rng = resolve_range(repo, options.range)
    base = rng.base or "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
    git_diff = ["git", "-C", options.repo, "diff", "--no-color", "--no-ext-diff", "-M", "-C", "-p"]

    def run_git_diff() -> object:
        return subprocess.run([*git_diff, base, str(rng.head)], capture_output=True, check=True)

    def run_command() -> object:
        return subprocess.run(
            [
                sys.executable,
                "-m",
                "gitreview",
                "--repo",
                options.repo,
                "--fail-on",
                "never",
                options.range,
            ],
            capture_output=True,
            check=True,
        )

    manifest: dict[str, object] = {}

    def run_build() -> object:
        manifest.update(build_manifest(options.repo, options.range))
        return manifest

    git_seconds = timed(run_git_diff, options.repeat)
    build_seconds = timed(run_build, options.repeat)
    command_seconds = timed(run_command, options.repeat)
    peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    summary = manifest["summary"]
    print(f"range            {options.range} ({len(rng.commits)} commits)")
    print(f"files, hunks     {summary['files']['total']}, {summary['hunks']['total']}")  # type: ignore[index]
    print(f"git diff -M -C   {git_seconds * 1000:9.1f} ms")
    for label, seconds in (("build (in-proc)", build_seconds), ("command", command_seconds)):
        ratio = seconds / git_seconds
        print(f"{label:<16} {seconds * 1000:9.1f} ms   x{ratio:.2f} git diff")
    print(f"peak memory      {peak_mib:9.1f} MiB (this process, after the builds)")
    print(f"cpus             {os.cpu_count()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
