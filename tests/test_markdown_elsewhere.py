"""Links elsewhere broken by the range (issue 4): files the range did not touch that link
to a heading it renamed or removed, an anchor it removed, or a Markdown file it deleted or
renamed. A touched file's links are its own analysis's business."""

from typing import Any

import pytest
from manifests import files_by_path, run
from repos import RepoFactory

ELSEWHERE = "markdown/broken-elsewhere"
RENAMED = "heading 'Install' of docs/guide.md was renamed to 'Installation' (#installation)"


@pytest.fixture(scope="module")
def manifest(fixture_repo: RepoFactory) -> dict[str, Any]:
    result = run("--repo", fixture_repo("markdown_elsewhere"), "v1..v2")
    assert result.status == 1, result.stderr
    return result.manifest


def findings(manifest: dict[str, Any]) -> list[tuple[str, str, str, int | None, str]]:
    return [
        (f["rule"], f["severity"], f["path"], f["line"], f["message"])
        for f in manifest["findings"]
        if f["rule"].startswith("markdown/")
    ]


def test_links_in_untouched_files(manifest: dict[str, Any]) -> None:
    broken = [f[2:] for f in findings(manifest) if f[0] == ELSEWHERE and f[1] == "error"]
    assert broken == [
        ("README.md", 3, f"link 'docs/guide.md#install' broken by this range: {RENAMED}"),
        (
            "README.md",
            4,
            "link 'docs/guide.md#faq' broken by this range: heading 'FAQ' of docs/guide.md"
            " was removed",
        ),
        (
            "README.md",
            6,
            "link 'docs/guide.md#legacy' broken by this range: anchor 'legacy' of docs/guide.md"
            " was removed",
        ),
        ("README.md", 7, "link 'docs/old.md' broken by this range: docs/old.md was deleted"),
        (
            "README.md",
            8,
            "link 'docs/moved.md#intro' broken by this range: docs/moved.md was renamed to"
            " docs/renamed.md",
        ),
        ("README.md", 10, f"link 'docs/guide.md#Install' broken by this range: {RENAMED}"),
        ("docs/index.md", 1, "link './old.md' broken by this range: docs/old.md was deleted"),
        ("docs/index.md", 1, f"link 'guide.md#install' broken by this range: {RENAMED}"),
    ]


def test_a_touched_file_gets_its_own_finding_only(manifest: dict[str, Any]) -> None:
    assert [f for f in findings(manifest) if f[2] == "docs/touched.md"] == [
        (
            "markdown/broken-anchor",
            "warning",
            "docs/touched.md",
            1,
            "broken anchor 'guide.md#install': no heading or anchor 'install' in docs/guide.md"
            " (did you mean '#installation'?)",
        )
    ]


def test_only_markdown_files_and_only_what_the_range_broke(manifest: dict[str, Any]) -> None:
    paths = {f[2] for f in findings(manifest)}
    # notes.txt names docs/old.md, but is not Markdown; index.md's link to ../src/app.py was
    # broken before the range and is not the range's doing.
    assert paths == {"README.md", "docs/index.md", "docs/touched.md"}


def test_the_renamed_heading_in_the_structure(manifest: dict[str, Any]) -> None:
    structure = files_by_path(manifest)["docs/guide.md"]["structure"]
    assert [(s["text"], s.get("was")) for s in structure["sections"]] == [
        ("Guide", None),
        ("Installation", "Install"),
        ("Usage", None),
    ]
    assert structure["removed"] == ["Guide > FAQ"]


def test_the_rule_can_be_turned_off(fixture_repo: RepoFactory, tmp_path: Any) -> None:
    config = tmp_path / "config.yml"
    config.write_text("rules:\n  markdown/broken-elsewhere: 'off'\n")
    result = run("--repo", fixture_repo("markdown_elsewhere"), "v1..v2", "--config", config)
    assert result.status == 0, result.stderr
    assert ELSEWHERE not in {f["rule"] for f in result.manifest["findings"]}
