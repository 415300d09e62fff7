"""Markdown frontmatter (issue 4): invalid YAML, not a mapping, and the JSON Schemas that
.gitreview.yml configures per path glob (a file at head, inline, or missing)."""

from typing import Any

import pytest
from manifests import files_by_path, run
from repos import RepoFactory

SCHEMA = "markdown/frontmatter-schema"
INVALID = "markdown/invalid-frontmatter"


@pytest.fixture(scope="module")
def manifest(fixture_repo: RepoFactory) -> dict[str, Any]:
    result = run("--repo", fixture_repo("markdown_frontmatter"), "HEAD")
    assert result.status == 1, result.stderr  # error findings reach the default fail_on
    return result.manifest


def findings_of(manifest: dict[str, Any], path: str) -> list[tuple[str, int | None, str]]:
    return [
        (f["rule"], f["line"], f["message"])
        for f in manifest["findings"]
        if f["path"] == path and f["rule"].startswith("markdown/")
    ]


EXPECTED = {
    "docs/adr/0001-good.md": [],  # a YAML date is checked as the ISO string it is written as
    "docs/plain.md": [],  # no schema applies
    "docs/adr/0002-bad-values.md": [
        (
            SCHEMA,
            2,
            "frontmatter key 'status': 'draft' is not one of"
            " ['proposed', 'accepted', 'superseded']",
        ),
        (SCHEMA, 3, "frontmatter key 'date': '5 January 2024' is not a 'date'"),
        (SCHEMA, 4, "frontmatter key 'tags.1': 7 is not of type 'string'"),
    ],
    "docs/adr/0003-missing.md": [
        (SCHEMA, 1, "frontmatter key 'date' is required"),  # at the opening ---
        (SCHEMA, 3, "frontmatter key 'author' is not allowed"),
    ],
    "docs/adr/0004-none.md": [  # no frontmatter at all: the required keys are missing
        (SCHEMA, 1, "frontmatter key 'date' is required"),
        (SCHEMA, 1, "frontmatter key 'status' is required"),
    ],
    "docs/adr/0005-impossible-date.md": [
        (INVALID, 1, "frontmatter is not valid YAML: month must be in 1..12"),
    ],
    "docs/broken.md": [
        (INVALID, 2, "frontmatter is not valid YAML: expected ',' or ']', but got '<stream end>'"),
    ],
    "docs/list.md": [(INVALID, 1, "frontmatter is a list, not a mapping of keys to values")],
    "blog/2024/post.md": [(SCHEMA, 2, "frontmatter key 'title': 5 is not of type 'string'")],
    "notes/note.md": [
        (SCHEMA, None, "frontmatter schema 'schemas/missing.json' does not exist at head"),
    ],
}


@pytest.mark.parametrize("path", sorted(EXPECTED))
def test_findings(manifest: dict[str, Any], path: str) -> None:
    assert findings_of(manifest, path) == EXPECTED[path]


def test_every_finding_is_expected(manifest: dict[str, Any]) -> None:
    paths = {f["path"] for f in manifest["findings"] if f["rule"].startswith("markdown/")}
    assert paths <= set(EXPECTED)


@pytest.mark.parametrize(
    ("path", "keys"),
    [
        ("docs/adr/0001-good.md", ["status", "date"]),
        ("docs/adr/0002-bad-values.md", ["status", "date", "tags"]),
        ("docs/plain.md", ["title"]),
    ],
)
def test_structure_lists_the_keys(manifest: dict[str, Any], path: str, keys: list[str]) -> None:
    assert files_by_path(manifest)[path]["structure"]["frontmatter"] == keys


@pytest.mark.parametrize("path", ["docs/broken.md", "docs/adr/0004-none.md"])
def test_no_keys_without_a_valid_block(manifest: dict[str, Any], path: str) -> None:
    assert "frontmatter" not in files_by_path(manifest)[path]["structure"]
