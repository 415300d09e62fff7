"""Whitespace-only changes per file type, and the traps that must stay significant."""

from pathlib import Path
from typing import Any

import pytest
from manifests import files_by_path, manifest_of, review_items
from repos import RepoFactory, before_and_after, git

EXPECTED = {
    # Provably meaningless.
    "c/trailing.c": ("trivial", ["whitespace"]),
    "c/inner.c": ("trivial", ["whitespace"]),
    "js/indent.js": ("trivial", ["whitespace"]),
    "data/config.json": ("trivial", ["whitespace"]),
    "toml/settings.toml": ("trivial", ["whitespace"]),
    "py/blank.py": ("trivial", ["blank-lines"]),
    "py/trailing.py": ("trivial", ["whitespace"]),
    "py/eof.py": ("trivial", ["line-endings"]),
    "yaml/trailing.yml": ("trivial", ["blank-lines", "whitespace"]),
    "docs/crlf.txt": ("trivial", ["line-endings"]),
    "docs/prose.txt": ("trivial", ["whitespace"]),
    "docs/blank-run.md": ("trivial", ["blank-lines"]),
    "js/new_name.js": ("trivial", ["renamed", "whitespace"]),  # renamed, spaces edited
    # Traps: whitespace that is meaning.
    "c/string.c": ("significant", ["content"]),  # inside a string literal
    "c/tokens.c": ("significant", ["content"]),  # a - -b became a --b
    "c/continuation.h": ("significant", ["content"]),  # spaces after a line-continuation
    "js/regex.js": ("significant", ["content"]),  # inside a regular expression
    "go/lines.go": ("significant", ["content"]),  # two lines joined: line breaks are syntax
    "py/reindent.py": ("significant", ["content"]),  # return moved out of the if
    "py/docstring.py": ("significant", ["content"]),  # inside a multi-line string
    "py/mixed.py": ("significant", ["content"]),  # one whitespace hunk, one real change
    "yaml/nested.yml": ("significant", ["content"]),  # a key moved to another parent
    "yaml/block.yml": ("significant", ["content"]),  # trailing spaces inside a | block
    "Makefile": ("significant", ["no-analysis"]),  # a recipe tab became spaces
    "sh/script.sh": ("significant", ["no-analysis"]),  # x=1 vs x = 1: shell syntax
    "docs/para.md": ("significant", ["content"]),  # two paragraphs joined
    "docs/hardbreak.md": ("significant", ["content"]),  # a hard line break removed
    "docs/code.md": ("significant", ["content"]),  # indentation inside a fenced block
    "py/pkg/__init__.py": ("significant", ["added"]),  # one blank line, and a new package
    "py/tool.py": ("significant", ["mode"]),  # made executable; its whitespace is fine
}


@pytest.fixture(scope="module")
def whitespace_files(fixture_repo: RepoFactory) -> dict[str, dict[str, Any]]:
    return files_by_path(manifest_of("--repo", fixture_repo("whitespace"), "v1..v2"))


def test_every_file_of_the_fixture_is_expected(
    whitespace_files: dict[str, dict[str, Any]],
) -> None:
    assert sorted(whitespace_files) == sorted(EXPECTED)


@pytest.mark.parametrize("path", sorted(EXPECTED))
def test_classification(whitespace_files: dict[str, dict[str, Any]], path: str) -> None:
    entry = whitespace_files[path]
    assert (entry["classification"], entry["reasons"]) == EXPECTED[path]
    if entry["classification"] == "trivial":
        assert "hunks" not in entry


def test_a_file_lists_its_trivial_hunks_beside_the_significant_ones(
    whitespace_files: dict[str, dict[str, Any]],
) -> None:
    hunks = whitespace_files["py/mixed.py"]["hunks"]
    assert [(h["classification"], h["reasons"]) for h in hunks] == [
        ("trivial", ["whitespace"]),
        ("significant", ["content"]),
    ]


def test_only_significant_hunks_are_routed_to_reviewers(fixture_repo: RepoFactory) -> None:
    manifest = manifest_of("--repo", fixture_repo("whitespace"), "v1..v2")
    routed = [item["handle"] for item in review_items(manifest)]
    # Trivial hunks are in their file's entry, significant ones in the review only.
    trivial = [hunk["handle"] for entry in manifest["files"] for hunk in entry.get("hunks", [])]
    assert not set(trivial) & set(routed)
    significant = [
        hunk["handle"]
        for entry in files_by_path(manifest).values()
        for hunk in entry.get("hunks", [])
        if hunk["classification"] == "significant"
    ]
    assert len(significant) == manifest["summary"]["hunks"]["significant"]
    whole_files = [entry["handle"] for entry in manifest["files"] if "handle" in entry]
    assert whole_files == [f"py/tool.py@{entry_blob(fixture_repo, 'py/tool.py')}"]
    assert sorted(routed) == sorted(significant + whole_files)
    assert not any(handle.startswith("py/mixed.py:5-5@") for handle in routed)
    assert manifest["summary"]["hunks"]["trivial"] == 15


def entry_blob(fixture_repo: RepoFactory, path: str) -> str:
    return git(fixture_repo("whitespace"), "rev-parse", f"v2:{path}")[:12]


def test_a_significant_file_without_significant_hunks_is_routed_whole(
    whitespace_files: dict[str, dict[str, Any]], fixture_repo: RepoFactory
) -> None:
    entry = whitespace_files["py/tool.py"]
    assert [hunk["classification"] for hunk in entry["hunks"]] == ["trivial"]
    blob = git(fixture_repo("whitespace"), "rev-parse", "v2:py/tool.py")
    assert entry["handle"] == f"py/tool.py@{blob[:12]}"
    manifest = manifest_of("--repo", fixture_repo("whitespace"), "v1..v2")
    assert entry["handle"] in [item["handle"] for item in review_items(manifest)]


@pytest.mark.parametrize(
    ("path", "old"),
    [
        # A review of the fix: code reading another frame's or a field's line number
        # does not read its own.
        (
            "editor.js",
            "function go(position) {\n  return position.lineNumber;\n}\nfunction b() {}\n",
        ),
        (
            "Log.java",
            "class Log {\n  void f(Exception e) { e.getStackTrace(); }\n  void g() {}\n}\n",
        ),
        # A web app's UI tests are no test data.
        ("tests/ui/login.spec.ts", "function a() {\n  return 1;\n}\nfunction b() {}\n"),
    ],
)
def test_a_blank_line_beside_code_that_reads_no_position_of_its_own(
    tmp_path: Path, path: str, old: str
) -> None:
    new = old.replace("\n", "\n\n", 1)
    repo = before_and_after(tmp_path / "repo", path, old, new)
    entry = files_by_path(manifest_of("--repo", repo, "HEAD"))[path]
    assert (entry["classification"], entry["reasons"]) == ("trivial", ["blank-lines"])


@pytest.mark.parametrize(
    ("path", "old", "new", "reasons"),
    [
        # Found by a thirteenth adversarial review: git paired a line re-indented on one
        # side with an unchanged line that reads the same on the other (`    }`).
        (
            "handler.js",
            "function f(items) {\n    for (const i of items) {\n        if (i.ok) {\n"
            "            use(i);\n        }\n    }\n}\n",
            "function f(items) {\n  for (const i of items) {\n    if (i.ok) {\n"
            "      use(i);\n    }\n  }\n}\n",
            ["whitespace"],
        ),
        # ...trailing spaces an editor trims: a Markdown line of spaces alone (no hard
        # break: it has no text).
        (
            "notes.md",
            "# A\n\nOne.\n   \nTwo.\n",
            "# A\n\nOne.\n\nTwo.\n",
            ["blank-lines", "whitespace"],
        ),
    ],
)
def test_whitespace_an_editor_changes_is_trivial(
    tmp_path: Path, path: str, old: str, new: str, reasons: list[str]
) -> None:
    repo = before_and_after(tmp_path / "repo", path, old, new)
    entry = files_by_path(manifest_of("--repo", repo, "HEAD"))[path]
    assert (entry["classification"], entry["reasons"]) == ("trivial", reasons)


@pytest.mark.parametrize(
    ("path", "old", "new"),
    [
        # Two trailing spaces still make a line break, in a doc comment and in Markdown.
        ("lib.rs", "/// Adds.  \n/// Two.\nfn add() {}\n", "/// Adds.\n/// Two.\nfn add() {}\n"),
        ("notes.md", "# A\n\nOne.  \nTwo.\n", "# A\n\nOne.\nTwo.\n"),
        # A review of a fix that freed one space after `///`: rustdoc runs a doctest's
        # lines as written, and its string may end in a space.
        (
            "lib.rs",
            '/// ```\n/// let s = "Key: value \n/// Other";\n/// ```\nfn add() {}\n',
            '/// ```\n/// let s = "Key: value\n/// Other";\n/// ```\nfn add() {}\n',
        ),
    ],
)
def test_a_line_break_made_of_spaces_stays_significant(
    tmp_path: Path, path: str, old: str, new: str
) -> None:
    repo = before_and_after(tmp_path / "repo", path, old, new)
    assert files_by_path(manifest_of("--repo", repo, "HEAD"))[path]["classification"] == (
        "significant"
    )
