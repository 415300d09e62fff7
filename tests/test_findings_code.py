"""`debugger` statements left in JavaScript and TypeScript (issue #5)."""

from typing import Any

import pytest
from findings import analysis_of, findings_of, git_diff, manifest_with_findings, rows
from manifests import run
from repos import RepoFactory

DEBUGGERS = [
    ("code/debugger", "warning", "web/app.js", 2, "debugging leftover: debugger"),
    ("code/debugger", "warning", "web/app.js", 6, "debugging leftover: debugger"),
    ("code/debugger", "warning", "web/types.ts", 2, "debugging leftover: debugger"),
]


@pytest.fixture(scope="module")
def findings_manifest(fixture_repo: RepoFactory) -> dict[str, Any]:
    return manifest_with_findings("--repo", fixture_repo("findings"), "v1..v2")


def test_debugger_statements_on_added_lines(findings_manifest: dict[str, Any]) -> None:
    # Near misses in web/app.js: in a comment, in a string, as a property.
    assert findings_of(findings_manifest, "code/") == DEBUGGERS


def test_debugger_statements_from_a_patch_alone(fixture_repo: RepoFactory) -> None:
    patch = git_diff(fixture_repo("findings"), "v1", "v2")
    assert findings_of(run("--patch", "-", stdin=patch).manifest, "code/") == DEBUGGERS


@pytest.mark.parametrize(
    ("line", "found"),
    [
        ("debugger;", True),
        ("  debugger", True),
        ("if (x) { debugger; }", True),
        ("else debugger;", True),
        ("x(); debugger; y();", True),
        ("const debuggerEnabled = true;", False),
        ("options.debugger = false;", False),
        ("/* debugger; */", False),
        ("log(`debugger;`);", False),
        ("// TODO: remove debugger;", False),
    ],
)
@pytest.mark.parametrize("content_known", [True, False], ids=["repository", "patch"])
def test_debugger_statement_patterns(line: str, found: bool, content_known: bool) -> None:
    analysis = analysis_of(
        "a.ts", "let x = 1;\n", f"let x = 1;\n{line}\n", content_known=content_known
    )
    expected = [("code/debugger", "warning", "a.ts", 2, "debugging leftover: debugger")]
    assert [row for row in rows(analysis) if row[0] == "code/debugger"] == (
        expected if found else []
    )


def test_not_in_other_languages() -> None:
    assert rows(analysis_of("a.go", None, "package a\n\nfunc f() {\n\tdebugger;\n}\n")) == []
