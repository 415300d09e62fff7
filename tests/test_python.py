"""Python findings and symbols (issue #5): a head that does not parse, debugging
leftovers on added lines, and the class and function each hunk is in."""

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from findings import (
    analysis_of,
    change_of,
    findings_of,
    git_diff,
    hunk_at,
    manifest_with_findings,
    rows,
)
from manifests import run
from repos import RepoFactory, before_and_after, isolated_environment

VERSION = f"Python {sys.version_info.major}.{sys.version_info.minor}"
LEFTOVERS = [
    ("python/debugger", "warning", "src/parser.py", 3, "debugging leftover: import pdb"),
    ("python/debugger", "warning", "src/parser.py", 8, "debugging leftover: breakpoint()"),
    ("python/debugger", "warning", "src/parser.py", 16, "debugging leftover: pdb.set_trace()"),
]


@pytest.fixture(scope="module")
def findings_manifest(fixture_repo: RepoFactory) -> dict[str, Any]:
    return manifest_with_findings("--repo", fixture_repo("findings"), "v1..v2")


def test_a_head_that_does_not_parse_is_an_error_at_its_line(
    findings_manifest: dict[str, Any],
) -> None:
    assert findings_of(findings_manifest, "python/syntax") == [
        (
            "python/syntax",
            "error",
            "src/broken.py",
            2,
            f"does not parse ({VERSION}): '(' was never closed",
        )
    ]
    assert hunk_at(findings_manifest, "src/broken.py", 2)["reasons"] == ["finding"]


def test_debugging_leftovers_on_added_lines_only(findings_manifest: dict[str, Any]) -> None:
    # Near misses in src/parser.py: `breakpoint()` in a comment and in a string, and a
    # method called breakpoint; in src/clean.py, `breakpoint()` in a docstring.
    assert findings_of(findings_manifest, "python/debugger") == LEFTOVERS


def test_debugging_leftovers_from_a_patch_alone(fixture_repo: RepoFactory) -> None:
    patch = git_diff(fixture_repo("findings"), "v1", "v2")
    manifest = run("--patch", "-", stdin=patch).manifest
    assert findings_of(manifest, "python/debugger") == LEFTOVERS


@pytest.mark.parametrize(
    ("added", "what"),
    [
        ("breakpoint()", "breakpoint()"),
        ("if x: breakpoint()", "breakpoint()"),
        ("import pdb; pdb.set_trace()", "import pdb"),
        ("import ipdb", "import ipdb"),
        ("from pdb import set_trace", "from pdb import"),
        ("pudb.set_trace()", "pudb.set_trace()"),
        ("breakpoint  ( )", "breakpoint()"),
        ("# breakpoint()", None),
        ("x = 'breakpoint()'", None),
        ("self.breakpoint()", None),
        ("breakpoint = 3", None),
        ("my_pdb.set_trace()", None),
        ("debugger.pdb.set_trace()", None),
    ],
)
@pytest.mark.parametrize("content_known", [True, False], ids=["repository", "patch"])
def test_debugging_leftover_patterns(added: str, what: str | None, content_known: bool) -> None:
    analysis = analysis_of("a.py", "x = 1\n", f"x = 1\n{added}\n", content_known=content_known)
    expected = (
        []
        if what is None
        else [("python/debugger", "warning", "a.py", 2, f"debugging leftover: {what}")]
    )
    assert [row for row in rows(analysis) if row[0] == "python/debugger"] == expected


def test_a_leftover_already_there_is_not_reported_again() -> None:
    analysis = analysis_of("a.py", "breakpoint()\n", "breakpoint()\nx = 1\n")
    assert rows(analysis) == []


def test_a_deleted_file_is_not_parsed() -> None:
    assert rows(analysis_of("a.py", "def broken(:\n", None)) == []


@pytest.mark.parametrize(
    "text",
    [
        "def f():\n    pass\n\n\nfrom __future__ import annotations\n",
        "try:\n    from __future__ import annotations\nexcept ImportError:\n    pass\n",
        "def f():\n    from __future__ import annotations\n",
        'b"doc"\nfrom __future__ import annotations\n',
        "from __future__ import braces\n",
    ],
)
def test_a_future_import_the_compiler_refuses_is_a_syntax_error(text: str) -> None:
    # ast.parse takes each; the compiler does not (adversarial reviews).
    assert [row[0] for row in rows(analysis_of("a.py", None, text))] == ["python/syntax"]


def test_a_byte_order_mark_is_not_a_syntax_error() -> None:
    assert rows(analysis_of("a.py", None, "\ufeffx = 1\n")) == []


def test_symbols_name_the_nesting_from_the_ast() -> None:
    text = (
        "import functools\n"  # 1
        "\n"
        "class Parser:\n"  # 3
        "    class State:\n"
        "        def reset(self):\n"  # 5
        "            self.lines = []\n"
        "\n"
        "    @functools.cache\n"  # 8
        "    def feed(self, line):\n"
        "        def inner():\n"  # 10
        "            return line\n"
        "        return inner()\n"
        "\n"
        "async def main():\n"  # 14
        "    return 1\n"
    )
    import ast

    from gitreview.analyze import python

    every_line = list(range(1, text.count("\n") + 1))
    scopes = {(s.first, s.last, s.name) for s in python._scopes(ast.parse(text), every_line)}
    assert scopes == {
        (3, 12, "class Parser"),
        (4, 6, "class Parser > class State"),
        (5, 6, "class Parser > class State > def reset"),
        (8, 12, "class Parser > def feed"),
        (10, 11, "class Parser > def feed > def inner"),
        (14, 15, "async def main"),
    }


def test_only_the_scopes_holding_a_hunk_are_named() -> None:
    """A hunk in a method: its class and the method, not the class's other methods
    nor the functions elsewhere (what a significant file's hunks are named with)."""
    methods = "".join(f"    def m{i}(self):\n        return {i}\n\n" for i in range(10))
    functions = "".join(f"def f{i}():\n    return {i}\n\n\n" for i in range(10))
    old = f"class Holder:\n{methods}\n{functions}"
    new = old.replace("return 4\n", "return 40\n", 1)
    names = [scope.name for scope in analysis_of("a.py", old, new).report.scopes]
    assert names == ["class Holder", "class Holder > def m4"]


def test_a_definition_in_a_match_case_is_named() -> None:
    """A `case` clause has no position of its own: what it holds is still walked."""
    old = (
        "def f(x):\n    match x:\n        case 1:\n            def g():\n                return 1\n"
    )
    new = old.replace("return 1", "return 2")
    names = [scope.name for scope in analysis_of("a.py", old, new).report.scopes]
    assert names == ["def f", "def f > def g"]


def test_no_symbols_when_the_head_does_not_parse() -> None:
    assert analysis_of("a.py", None, "def f(:\n    pass\n").report.scopes == ()


def test_each_side_is_parsed_once_and_symbols_named_only_for_significant_files(
    fixture_repo: RepoFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The analysis leaves the head's tree to the classifiers (issue 12): no text is
    parsed twice, and a trivial file's classes and functions are never named."""
    import ast

    from gitreview.analyze import python
    from gitreview.pipeline import classify_range

    parsed: list[str] = []
    named: list[ast.AST] = []
    parse, scopes = ast.parse, python._scopes

    def parse_once(source: str, *args: Any, **kwargs: Any) -> Any:
        parsed.append(source)
        return parse(source, *args, **kwargs)

    def naming(tree: ast.AST, asked: list[int], outer: str = "") -> Any:
        if isinstance(tree, ast.Module):
            named.append(tree)
        return scopes(tree, asked, outer)

    monkeypatch.setattr(ast, "parse", parse_once)
    monkeypatch.setattr(python, "_scopes", naming)
    outcome = classify_range(fixture_repo("meaning"), "v1..v2", cache=False, jobs=1)
    verdicts = {c.change.path: c.verdict.classification for c in outcome.files}
    python_files = [path for path in verdicts if path.endswith(".py")]
    assert {verdicts[path] for path in python_files} == {"trivial", "significant"}
    # Both sides of every Python file were compared (each has a base and a head).
    assert len(parsed) == 2 * len(python_files)
    assert len(set(parsed)) == len(parsed)
    assert len(named) == sum(verdicts[path] == "significant" for path in python_files)


def test_a_head_that_does_not_parse_is_parsed_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The classifiers learn it from the analysis, and never parse the base for it."""
    import ast

    from gitreview.classify import FileFacts, classify
    from gitreview.config import Config

    parsed: list[str] = []
    parse = ast.parse

    def parse_once(source: str, *args: Any, **kwargs: Any) -> Any:
        parsed.append(source)
        return parse(source, *args, **kwargs)

    monkeypatch.setattr(ast, "parse", parse_once)
    old, new = "def f(x):\n    return x\n", "def f(x:\n    return  x\n"
    analysis = analysis_of("a.py", old, new)
    assert [row[0] for row in rows(analysis)] == ["python/syntax"]
    change = change_of("a.py", old, new)
    verdict = classify(FileFacts(change, "python", analysis, Config(), {}, {}, ()))
    assert (verdict.classification, parsed) == ("significant", [new])


def test_python_says_nothing_about_the_code_it_reads(tmp_path: Path) -> None:
    """Code Python warns about (`1if`, an unknown escape, moved blocks read again for
    their outline) leaves stderr empty: it is under review, not gitreview's."""
    block = "".join(
        f"def helper_{i}(value):\n    return 1if value else '\\d{i}'\n\n\n" for i in range(3)
    )
    old = f"{block}def main(value):\n    return 0x1for value\n"
    new = f"def main(value):\n    return 0x1for value\n\n\n{block}"
    repo = before_and_after(tmp_path / "repo", "a.py", old, new)
    result = subprocess.run(
        [sys.executable, "-W", "default", "-m", "gitreview", "--repo", str(repo), "HEAD~1..HEAD"],
        capture_output=True,
        env=isolated_environment(),
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr == b""
