"""Hostile input: each case ends, with a bounded outcome (issue 11).

A file built to blow up a parser or a comparison (an alias bomb, nesting deeper
than any recursion limit, a line of megabytes, long runs that almost match a
secret pattern) gets a finding or `t1: missing` with its cause, never a hang, a
traceback or a trivial verdict. The sizes are those of the issue's review.
"""

from pathlib import Path
from typing import Any

import pytest
from manifests import files_by_path, manifest_of
from repos import before_and_after

LOL = '["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]'
CHAIN = "x = " + "1 + " * 5_000 + "{}\n"  # an expression 5,000 operators deep


def parses(text: str) -> bool:
    """Whether this Python's parser reads `text` without running out of stack."""
    import ast

    try:
        ast.parse(text)
    except (RecursionError, MemoryError, SyntaxError):
        return False
    return True


def alias_bomb(version: int) -> str:
    """Nine levels of nine aliases: 387 million strings once expanded."""
    levels = [f"a: &a {LOL}"]
    for level in range(1, 9):
        name, below = chr(97 + level), chr(96 + level)
        levels.append(f"{name}: &{name} [{', '.join([f'*{below}'] * 9)}]")
    return "\n".join([*levels, f"version: {version}", ""])


CASES: dict[str, tuple[str, Any, dict[str, Any]]] = {
    # what: (path, text of a version, what the manifest says of the file)
    "a YAML alias bomb": (
        "bomb.yml",
        alias_bomb,
        {"classification": "significant", "t1": "ok", "findings": []},
    ),
    "JSON nested 100,000 deep": (
        "deep.json",
        lambda v: "[" * 100_000 + str(v) + "]" * 100_000 + "\n",
        {"classification": "significant", "t1": "missing", "t1_cause": "analyzer-failed"},
    ),
    "Python parentheses nested 5,000 deep": (
        "deep.py",
        lambda v: "x = " + "(" * 5_000 + str(v) + ")" * 5_000 + "\n",
        {
            "classification": "significant",
            "t1": "ok",
            "findings": ["python/syntax: does not parse (Python {}): too many nested parentheses"],
        },
    ),
    # Python 3.13's parser reads it; 3.11's and 3.12's run out of stack.
    "a Python expression 5,000 operators deep": (
        "chain.py",
        lambda v: CHAIN.format(v),
        {"classification": "significant", "t1": "ok"}
        if parses(CHAIN.format(1))
        else {"classification": "significant", "t1": "missing", "t1_cause": "analyzer-failed"},
    ),
    "Markdown quotes nested 3,000 deep": (
        "quotes.md",
        lambda v: "> " * 3_000 + f"text {v}\n",
        {"classification": "significant", "t1": "ok", "findings": []},
    ),
    "a single line of two megabytes": (
        "line.txt",
        lambda v: "word " * 400_000 + f"{v}\n",
        {"classification": "significant", "t1": "missing", "t1_cause": "too-large"},
    ),
    # PyYAML reads these as dates and cannot build them (a ValueError, no YAMLError).
    "a YAML date that does not exist, reformatted": (
        "dates.yml",
        lambda v: "day: 2023-02-30\n" + ("list: [1, 2]\n" if v == 1 else "list:\n  - 1\n  - 2\n"),
        {"classification": "significant", "t1": "ok", "findings": []},
    ),
    "front matter with a date that does not exist, its `updated:` changed": (
        "dated.md",
        lambda v: f"---\ndate: 2023-02-30\nupdated: 2023-01-0{v}\n---\n\n# A\n\ntext\n",
        {
            "classification": "significant",
            "t1": "ok",
            "findings": [
                "markdown/invalid-frontmatter: frontmatter is not valid YAML: "
                "day is out of range for month"
            ],
        },
    ),
    "long runs that almost match secret patterns": (
        "keys.txt",
        lambda v: "AKIA" * 50_000 + "\n" + ("ghp_" + "a" * 35 + " ") * 5_000 + f"\n{v}\n",
        {"classification": "significant", "t1": "ok", "findings": []},
    ),
}


@pytest.mark.parametrize("what", list(CASES))
def test_hostile_input_has_a_bounded_outcome(tmp_path: Path, what: str) -> None:
    import sys

    path, text, expected = CASES[what]
    repo = before_and_after(tmp_path / "repo", path, text(1), text(2))
    manifest = manifest_of("--repo", repo, "--fail-on", "never", "HEAD")
    entry = files_by_path(manifest)[path]
    found = {key: entry.get(key) for key in expected if key != "findings"}
    assert found == {key: value for key, value in expected.items() if key != "findings"}, what
    if "findings" in expected:
        version = f"{sys.version_info.major}.{sys.version_info.minor}"
        findings = [f"{f['rule']}: {f['message']}" for f in manifest["findings"]]
        assert findings == [f.format(version) for f in expected["findings"]], what
