"""Every hunk any fixture range calls trivial for a reason that claims the meaning is
unchanged (whitespace, blank-lines, line-endings, formatting, reflow) is audited by a
reading that owes nothing to gitreview (tests/meaning.py): the base rebuilt with only
the file's other hunks applied must parse to the head's tree or data, or render to
its HTML. The same audit runs on real histories by hand (benchmarks/audit_trivial.py).
"""

from __future__ import annotations

import subprocess
from collections import Counter
from pathlib import Path

import pytest
from meaning import Audit, audit, wanted
from repos import FIXTURES, RepoFactory, git, isolated_environment

from gitreview.classify.base import Verdict
from gitreview.model import Hunk
from gitreview.pipeline import classify_range


def _blob(repo: Path, oid: str) -> bytes:
    done = subprocess.run(
        ("git", "cat-file", "blob", oid),
        cwd=repo,
        capture_output=True,
        check=True,
        env=isolated_environment(),
    )
    return done.stdout


def _ranges(repo: Path) -> list[str]:
    """Each commit against its parent, and each against every root commit."""
    roots = git(repo, "rev-list", "--max-parents=0", "--all").split()
    ranges = [
        f"{commit}^..{commit}"
        for commit in git(repo, "rev-list", "--min-parents=1", "--no-merges", "--all").split()
    ]
    for commit in git(repo, "rev-list", "--all").split():
        ranges += [f"{root}..{commit}" for root in roots if root != commit]
    return ranges


def _audits(repo: Path) -> list[tuple[str, str, Audit]]:
    found = []
    for rng in _ranges(repo):
        for item in classify_range(repo, rng, cache=False, jobs=1).files:
            change = item.change
            if change.status not in ("modified", "renamed") or not change.old_oid:
                continue
            if not wanted(item.kind, item.verdict.hunks):
                continue
            assert change.new_oid is not None
            one = audit(
                item.kind,
                change.hunks,
                item.verdict.hunks,
                _blob(repo, change.old_oid),
                _blob(repo, change.new_oid),
            )
            if one is not None:
                found.append((rng, change.path, one))
    return found


def test_every_fixture_keeps_the_meaning_of_its_trivial_hunks(fixture_repo: RepoFactory) -> None:
    kinds: Counter[str] = Counter()
    changed = []
    for spec in sorted(FIXTURES.glob("*.yml")):
        for rng, path, one in _audits(fixture_repo(spec.stem)):
            if one.kept is False:
                changed.append(f"{spec.stem} {rng} {path}: {'; '.join(one.hunks)}")
            if one.kept is not None:
                kinds[path.rsplit(".", 1)[-1]] += 1
    assert changed == []
    # Not vacuous: the fixtures' traps give the audit files of every reading.
    assert {"py", "yml", "json", "md", "c"} <= set(kinds), kinds
    assert sum(kinds.values()) >= 20, kinds


def test_the_audit_sees_a_trivial_hunk_that_changes_meaning() -> None:
    """The audit itself can fail: a hunk falsely called formatting is caught, one
    rightly called so is not, and a rebuilt text that does not parse is not judged."""
    old = b"def f(a,\n      b):\n    return a\n\n\nX = 1\n"
    new = b"def f(a):\n    return a\n\n\nX = 2\n"
    hunks = (Hunk(1, 3, 1, 2, ()), Hunk(6, 1, 5, 1, ()))
    formatting, content = Verdict("trivial", ("formatting",)), Verdict("significant", ("content",))
    wrong = audit("python", hunks, (formatting, content), old, new)
    assert wrong is not None and wrong.kept is False and not wrong.every_hunk
    assert wrong.hunks == ("-1,3 +1,2 formatting",)
    one_line = (Hunk(1, 1, 1, 3, ()),)
    right = audit("python", one_line, (formatting,), b"X = 1\n", b"X = (\n    1\n)\n")
    assert right == Audit(True, True, ("-1,1 +1,3 formatting",))
    unparsed = audit("python", hunks, (formatting, content), b"def f(:\n", new)
    assert unparsed is not None and unparsed.kept is None
    assert audit("python", hunks, (content, content), old, new) is None


@pytest.mark.parametrize(
    ("kind", "old", "new", "kept"),
    [
        ("yaml", b"a:\n  b: 1\n", b"a:\n    b: 1\n", True),
        ("yaml", b"a:\n  b: 1\n", b"a:\nb: 1\n", False),
        ("json", b'{"a": 1}\n', b'{ "a": 1 }\n', True),
        ("json", b'{"a": 1, "b": 2}\n', b'{"b": 2, "a": 1}\n', True),
        ("json", b'{"a": 1}\n', b'{"a": 1.0}\n', False),
        ("yaml", b"a: 1\n", b"a: true\n", False),
        ("toml", b"a = 1\n", b"a = 2\n", False),
        ("markdown", b"one\ntwo\n", b"one two\n", True),
        ("markdown", b"one\ntwo\n", b"one\n\ntwo\n", False),
    ],
)
def test_each_reading(kind: str, old: bytes, new: bytes, kept: bool) -> None:
    lines = (old.count(b"\n"), new.count(b"\n"))
    hunk, verdict = Hunk(1, lines[0], 1, lines[1], ()), Verdict("trivial", ("whitespace",))
    found = audit(kind, (hunk,), (verdict,), old, new)
    assert found is not None and found.kept is kept
