"""Whether the hunks gitreview calls trivial leave the file's meaning as it was,
checked against a real repository's history.

    python benchmarks/audit_trivial.py --repo PATH [--commits N] [RANGE...]

Each of the last N commits (default 300) is its own range, then each RANGE given.
For every modified or renamed Python, YAML, JSON, TOML or Markdown file with a hunk
called trivial for a reason that claims the meaning is unchanged (whitespace,
blank-lines, line-endings, formatting, reflow), the base is rebuilt with only the
file's other hunks applied. That text must mean what the head means:

- Python: the same syntax tree (`ast`), positions and string prefixes aside, and
  docstrings as black leaves them: indentation and the whitespace at the ends of
  lines and of the whole aside, except in a docstring with doctests;
- YAML, JSON, TOML: the same loaded data (`yaml.safe_load_all`, `json`, `tomllib`);
- Markdown: the same HTML from markdown-it, runs of whitespace aside.

A file where it does not is printed with its trivial hunks, and the script exits 1:
gitreview promised those hunks were safe to skip. A rebuilt text that does not
parse (the trivial and the other hunks overlap in one construct) is counted, not
judged. Trivial reasons that change the meaning on purpose (moved, import-order,
typo, metadata) are applied like significant hunks, so they are not audited here.

It runs this checkout's code in-process, without a cache, and writes nothing to
the repository. Run by hand, never by the tests: flask's last 900 commits take
about five minutes.
"""

from __future__ import annotations

import argparse
import ast
import collections
import inspect
import json
import re
import subprocess
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gitreview.errors import UserError  # noqa: E402
from gitreview.pipeline import classify_range  # noqa: E402

SAME_MEANING = frozenset({"whitespace", "blank-lines", "line-endings", "formatting", "reflow"})
SUFFIXES = ("*.py", "*.yml", "*.yaml", "*.json", "*.toml", "*.md", "*.markdown")


def _python(text: str) -> str:
    tree = ast.parse(text)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant):
            node.kind = None  # u"x" is "x"
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            ):
                first.value.value = _docstring(first.value.value)
    return ast.dump(tree)


def _docstring(text: str) -> str:
    cleaned = inspect.cleandoc(text)
    if ">>>" in cleaned:  # trailing spaces may be a doctest's expected output
        return cleaned
    return "\n".join(line.rstrip() for line in cleaned.split("\n")).strip()


def _yaml(text: str) -> Any:
    import yaml

    return list(yaml.safe_load_all(text))


def _markdown(text: str) -> str:
    from markdown_it import MarkdownIt

    return re.sub(r"\s+", " ", MarkdownIt("commonmark").render(text)).strip()


MEANING: dict[str, Callable[[str], Any]] = {
    "python": _python,
    "yaml": _yaml,
    "json": json.loads,
    "toml": tomllib.loads,
    "markdown": _markdown,
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repo", required=True)
    parser.add_argument("--commits", type=int, default=300)
    parser.add_argument("ranges", nargs="*")
    options = parser.parse_args()
    commits = _git(
        options.repo,
        "log",
        "--format=%H %P",
        "--no-merges",
        "-n",
        str(options.commits),
        "--",
        *SUFFIXES,
    ).decode()
    # A root commit has no parent: its range would add every file, which audits nothing.
    pairs = [line.split() for line in commits.splitlines()]
    ranges = [f"{ends[1]}..{ends[0]}" for ends in pairs if len(ends) > 1]
    counts: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    wrong = 0
    for rng in ranges + options.ranges:
        try:
            outcome = classify_range(options.repo, rng, cache=False)
        except UserError as error:
            print(f"skipped {rng}: {error}", file=sys.stderr)
            continue
        for item in outcome.files:
            wrong += _audit(options.repo, rng, outcome.rng.base, outcome.rng.head, item, counts)
    print("| kind | files audited | every hunk trivial | meaning changed | not rebuildable |")
    print("|---|---|---|---|---|")
    for kind in sorted(counts):
        count = counts[kind]
        print(
            f"| {kind} | {count['audited']} | {count['all']} | {count['changed']} "
            f"| {count['unparsed']} |"
        )
    print(f"{len(ranges) + len(options.ranges)} ranges, {wrong} files whose meaning changed")
    return 1 if wrong else 0


def _audit(
    repo: str,
    rng: str,
    base: str | None,
    head: str | None,
    item: Any,
    counts: dict[str, collections.Counter[str]],
) -> int:
    change, meaning = item.change, MEANING.get(item.kind)
    if meaning is None or change.status not in ("modified", "renamed") or not change.hunks:
        return 0
    kept = [
        verdict.classification == "trivial" and set(verdict.reasons) <= SAME_MEANING
        for verdict in item.verdict.hunks
    ]
    if not any(kept):
        return 0
    old = _text(repo, base, change.old_path or change.path)
    new = _text(repo, head, change.path)
    rebuilt: list[str] = []
    done = 0
    for hunk, keep in zip(change.hunks, kept, strict=True):
        start = hunk.old_start - 1 if hunk.old_count else hunk.old_start
        rebuilt += old[done:start]
        if keep:
            rebuilt += old[start : start + hunk.old_count]
        else:
            first = hunk.new_start - 1 if hunk.new_count else hunk.new_start
            rebuilt += new[first : first + hunk.new_count]
        done = start + hunk.old_count
    rebuilt += old[done:]
    count = counts[item.kind]
    try:
        same = meaning("".join(rebuilt)) == meaning("".join(new))
    except Exception:  # any parser's error: not judged, counted
        count["unparsed"] += 1
        return 0
    count["audited"] += 1
    count["all"] += all(kept)
    if same:
        return 0
    count["changed"] += 1
    hunks = [
        f"-{hunk.old_start},{hunk.old_count} +{hunk.new_start},{hunk.new_count} "
        f"{'+'.join(verdict.reasons)}"
        for hunk, verdict, keep in zip(change.hunks, item.verdict.hunks, kept, strict=True)
        if keep
    ]
    print(f"meaning changed: {rng} {change.path}: {'; '.join(hunks)}", flush=True)
    return 1


def _text(repo: str, commit: str | None, path: str) -> list[str]:
    """The blob's lines as git's diff numbers them: split at newlines only."""
    parts = _git(repo, "cat-file", "blob", f"{commit}:{path}").decode("utf-8", "replace")
    lines = [line + "\n" for line in parts.split("\n")]
    lines[-1] = lines[-1][:-1]
    return lines if lines[-1] else lines[:-1]


def _git(repo: str, *args: str) -> bytes:
    return subprocess.run(
        ["git", "-C", repo, *args],
        capture_output=True,
        check=True,
    ).stdout


if __name__ == "__main__":
    sys.exit(main())
