"""Generated and ignored files: trivial with their reason; look-alikes stay significant."""

from pathlib import Path
from typing import Any

import pytest
from manifests import files_by_path, manifest_of
from repos import RepoFactory

EXPECTED = {
    "package-lock.json": ("trivial", ["generated"]),  # a lock file
    "go.sum": ("trivial", ["generated"]),
    "sub/dir/Cargo.lock": ("trivial", ["generated"]),  # by name, at any depth
    "yarn.lock": ("significant", ["no-analysis"]),  # -linguist-generated overrides the name
    "docs/api/index.md": ("trivial", ["generated"]),  # linguist-generated in .gitattributes
    "docs/reference.md": ("trivial", ["generated"]),  # from a nested .gitattributes
    "docs/guide.md": ("significant", ["content"]),
    "src/gen/parser.py": ("trivial", ["generated"]),  # "Code generated ... DO NOT EDIT."
    "src/gen/marker.js": ("trivial", ["generated"]),  # @generated
    "src/hand.py": ("significant", ["content"]),  # says "generated" but not "do not edit"
    # Its comment says generated output exists and is not to be edited, not that it is.
    "scripts/regen.sh": ("significant", ["no-analysis"]),
    "src/newly_marked.py": ("significant", ["content"]),  # the header arrived in this range
    # Added with a header (whole, or as a copy of a generated file): the range wrote it.
    "src/gen/added.js": ("significant", ["added"]),
    "src/gen/added.py": ("significant", ["content"]),
    "api/service.pb.go": ("trivial", ["generated"]),  # configured glob *.pb.go
    "build/bundle.js": ("trivial", ["generated"]),  # configured folder build/
    "vendor/lib/util.js": ("trivial", ["ignored"]),  # configured ignore
}


@pytest.fixture(scope="module")
def generated_files(fixture_repo: RepoFactory) -> dict[str, dict[str, Any]]:
    return files_by_path(manifest_of("--repo", fixture_repo("generated"), "v1..v2"))


def test_every_file_is_expected(generated_files: dict[str, dict[str, Any]]) -> None:
    assert sorted(generated_files) == sorted(EXPECTED)


@pytest.mark.parametrize("path", sorted(EXPECTED))
def test_classification(generated_files: dict[str, dict[str, Any]], path: str) -> None:
    entry = generated_files[path]
    assert (entry["classification"], entry["reasons"]) == EXPECTED[path]


def test_config_flag_replaces_the_head_configuration(
    fixture_repo: RepoFactory, tmp_path: Path
) -> None:
    config = tmp_path / "other.yml"
    config.write_text("ignore: ['docs/guide.md']\n")
    files = files_by_path(
        manifest_of("--repo", fixture_repo("generated"), "v1..v2", "--config", config)
    )
    assert files["docs/guide.md"]["reasons"] == ["ignored"]
    assert files["api/service.pb.go"]["classification"] == "significant"  # head config unused


def test_an_attribute_set_by_the_range_itself_proves_nothing(writable_repo: RepoFactory) -> None:
    """Marking a file generated in the same range as editing it must not hide the edit."""
    from repos import git

    repo = writable_repo("generated")
    (repo / ".gitattributes").write_text(
        (repo / ".gitattributes").read_text() + "src/hand.py linguist-generated\n"
    )
    (repo / "src" / "hand.py").write_text('"""Hand-written."""\nLIMIT = 100\n')
    git(repo, "commit", "--quiet", "-am", "Mark hand.py generated and change it")
    files = files_by_path(manifest_of("--repo", repo, "HEAD"))
    assert (files["src/hand.py"]["classification"], files["src/hand.py"]["reasons"]) == (
        "significant",
        ["content"],
    )
    # Set before the range, the same attribute is trusted.
    (repo / "src" / "hand.py").write_text('"""Hand-written."""\nLIMIT = 101\n')
    git(repo, "commit", "--quiet", "-am", "Change hand.py again")
    files = files_by_path(manifest_of("--repo", repo, "HEAD"))
    assert files["src/hand.py"]["reasons"] == ["generated"]
