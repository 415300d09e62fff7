"""Real files changed at random, reviewed: no run may fail, and no hunk called trivial
may change what its file means.

    python benchmarks/fuzz_trivial.py --repo PATH[@REV] [--repo ...] [--seeds N] [--files N]

For each seed, a repository is made in a scratch folder from --files files of each
given repository (at REV, default HEAD: Python, Markdown, YAML, JSON, TOML, C and
C++, text, shell), committed, then changed in one commit: most edits are of the
kinds gitreview may call trivial (trailing spaces, indentation, blank lines, tabs,
quotes, trailing commas, lines joined or split, blocks moved, two letters of a
word swapped, the final newline dropped, one line moved a little or swapped with
the next), a few are not (stray bytes, conflict markers, a removed line). The
commit is reviewed by this checkout's `git review-manifest` in three formats,
where a traceback or an exit status other than 0 or 1 is a failure, then audited
as `audit_trivial.py` audits a history. It prints each failure and each file
whose meaning changed with its seed (`--first SEED --seeds 1` makes it again,
`--keep DIR` keeps the repositories), and exits 1 when there is one. Run by
hand, never by the tests (a seed takes a few seconds). It found the C files whose
last line lost its newline called whitespace (issue 12's session 32), and in
session 36 Python statements moved into another body by a moved `def` line
called formatting, and Markdown hunks proved in the old file only (reflow and
typo hunks whose lines another hunk put in a code fence left open).
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import os
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from audit_trivial import Counts, audit_range, print_counts  # noqa: E402

SUFFIXES = (".py", ".md", ".yml", ".yaml", ".json", ".toml", ".c", ".h", ".cpp", ".txt", ".sh")
STRAY = ["\x00", "\r", "\t", "\u2028", "<<<<<<< HEAD", "```", "---", "2023-02-30", "{", "'"]
FORMATS = (["--format", "json"], ["--format", "brief"], ["--fallback", "--format", "full"])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repo", action="append", required=True, metavar="PATH[@REV]")
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--first", type=int, default=0, help="the first seed")
    parser.add_argument("--files", type=int, default=60, help="files taken from each repo")
    parser.add_argument("--keep", metavar="DIR", help="make the repositories there, and keep them")
    options = parser.parse_args()
    sources = [(spec.partition("@")[0], spec.partition("@")[2] or "HEAD") for spec in options.repo]
    counts: Counts = collections.defaultdict(collections.Counter)
    failed = wrong = 0
    with contextlib.ExitStack() as stack:
        scratch = options.keep or stack.enter_context(tempfile.TemporaryDirectory())
        for seed in range(options.first, options.first + options.seeds):
            repo = os.path.join(scratch, f"seed{seed}")
            build(repo, sources, random.Random(seed), options.files)
            failed += review(repo, seed)
            found = audit_range(repo, "HEAD~1..HEAD", counts)
            if found:
                # The same --repo, --files and sources' revisions rebuild it.
                print(f"seed {seed}: {found} file(s) above; again: --first {seed} --seeds 1")
            wrong += found
            sys.stdout.flush()
    print_counts(counts)
    print(f"{options.seeds} seeds, {failed} failed runs, {wrong} files whose meaning changed")
    return 1 if failed or wrong else 0


def build(repo: str, sources: list[tuple[str, str]], rnd: random.Random, count: int) -> None:
    """A repository of `count` files of each source, then a commit that changes them."""
    picked: dict[str, bytes] = {}
    for path, rev in sources:
        listed = [entry for entry in _listing(path, rev) if entry[0].endswith(SUFFIXES)]
        for name, oid in rnd.sample(listed, min(count, len(listed))):
            picked[name] = _git(path, "cat-file", "blob", oid)
    _git(repo, "init", "-q", repo, cwd=False)
    for name, data in picked.items():
        _write(repo, name, data)
    _commit(repo, "files")
    for name, data in picked.items():
        _write(repo, name, changed(data, rnd))
    _commit(repo, "changed")


def changed(data: bytes, rnd: random.Random) -> bytes:
    """The file with one to five edits, mostly of the kinds that may be trivial."""
    try:
        lines = data.decode("utf-8").split("\n")
    except UnicodeDecodeError:
        return data
    for _ in range(rnd.randint(1, 5)):
        if not lines:
            break
        i = rnd.randrange(len(lines))
        line, block = lines[i], slice(i, i + rnd.randint(1, 8))
        edit = rnd.randrange(16)
        if edit == 0:
            lines[i] = line + rnd.choice([" ", "\t", "  "])
        elif edit == 1:
            lines[block] = [("    " + one) if one.strip() else one for one in lines[block]]
        elif edit == 2:
            lines[block] = [one.removeprefix("    ") for one in lines[block]]
        elif edit == 3:
            lines.insert(i, "")
        elif edit == 4:
            lines[i] = line.replace("\t", "    ") if "\t" in line else line.replace("    ", "\t", 1)
        elif edit == 5:
            lines[i] = line.replace("'", '"') if "'" in line else line.replace('"', "'")
        elif edit == 6:
            lines[i] = re.sub(r"([^(,\s])(\s*[)\]}])", r"\1,\2", line, count=1)
        elif edit == 7:
            lines[i] = re.sub(r",(\s*[)\]}])", r"\1", line, count=1)
        elif edit == 8 and i + 1 < len(lines):
            lines[i : i + 2] = [line.rstrip() + " " + lines[i + 1].lstrip()]
        elif edit == 9 and ", " in line:
            at = line.find(", ")
            indent = " " * (len(line) - len(line.lstrip()) + 4)
            lines[i : i + 1] = [line[: at + 1], indent + line[at + 2 :]]
        elif edit == 10:
            moved = lines[i : i + rnd.randint(3, 12)]
            del lines[i : i + len(moved)]
            at = rnd.randrange(len(lines) + 1)
            lines[at:at] = moved
        elif edit == 11:
            words = line.split(" ")
            at = rnd.randrange(len(words))
            word = words[at]
            if len(word) > 4:
                k = rnd.randrange(1, len(word) - 2)
                words[at] = word[:k] + word[k + 1] + word[k] + word[k + 2 :]
            lines[i] = " ".join(words)
        elif edit == 14 and i + 1 < len(lines):
            lines[i], lines[i + 1] = lines[i + 1], line  # two lines swapped
        elif edit == 15:
            del lines[i]  # one line moved a little: a `def`, an `else:`, a fence
            lines.insert(max(0, min(len(lines), i + rnd.randint(-10, 10))), line)
        elif edit == 12:
            while lines and lines[-1] == "":
                lines.pop()  # no final newline
        else:
            stray = rnd.choice(STRAY)
            lines[i] = stray + line if rnd.random() < 0.5 else ""
    return "\n".join(lines).encode("utf-8")


def review(repo: str, seed: int) -> int:
    """How many formats failed on the seed's commit."""
    env = {**os.environ, "GITREVIEW_DEBUG": "1", "PYTHONPATH": str(ROOT)}
    # -P: the repository's own folders are not where Python looks for gitreview.
    command = [sys.executable, "-P", "-m", "gitreview", "--no-cache", "HEAD~1..HEAD"]
    failed = 0
    for extra in FORMATS:
        done = subprocess.run([*command, *extra], cwd=repo, capture_output=True, text=True, env=env)
        if done.returncode not in (0, 1) or "Traceback" in done.stderr:
            failed += 1
            print(f"seed {seed} {' '.join(extra)}: status {done.returncode}\n{done.stderr[-2000:]}")
    return failed


def _listing(repo: str, rev: str) -> list[tuple[str, str]]:
    entries = []
    for record in _git(repo, "ls-tree", "-r", "-z", rev).split(b"\0"):
        if record:
            meta, name = record.split(b"\t", 1)
            mode, kind, oid = meta.decode().split()
            if kind == "blob" and mode == "100644":
                entries.append((name.decode("utf-8", "surrogateescape"), oid))
    return entries


def _write(repo: str, name: str, data: bytes) -> None:
    path = Path(repo, name)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def _commit(repo: str, message: str) -> None:
    env = {
        **os.environ,
        **dict.fromkeys(("GIT_AUTHOR_NAME", "GIT_COMMITTER_NAME"), "fuzz"),
        **dict.fromkeys(("GIT_AUTHOR_EMAIL", "GIT_COMMITTER_EMAIL"), "fuzz@example.com"),
        **dict.fromkeys(("GIT_AUTHOR_DATE", "GIT_COMMITTER_DATE"), "2026-01-01T00:00:00Z"),
    }
    subprocess.run(["git", "-C", repo, "add", "-A"], check=True, env=env)
    subprocess.run(["git", "-C", repo, "commit", "-q", "-m", message], check=True, env=env)


def _git(repo: str, *args: str, cwd: bool = True) -> bytes:
    command = ["git", "-C", repo, *args] if cwd else ["git", *args]
    return subprocess.run(command, capture_output=True, check=True).stdout


if __name__ == "__main__":
    sys.exit(main())
