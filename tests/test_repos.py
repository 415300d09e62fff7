"""Tests of the fixture-repository builder in tests/repos.py and the fixtures it builds."""

import os
from dataclasses import dataclass
from pathlib import Path

import pygit2
import pytest
from pygit2.enums import ConfigLevel
from repos import (
    FIXTURES,
    FixtureError,
    RepoFactory,
    build_repo,
    commit_id,
    git,
    load_spec,
    parse_repo,
)

FIXTURE_NAMES = sorted(path.stem for path in FIXTURES.glob("*.yml"))


@dataclass(frozen=True)
class RawChange:
    """One record of ``git diff-tree --raw``."""

    status: str  # letter plus score, e.g. "M", "R100", "C092"
    old_mode: str
    new_mode: str
    old_blob: str
    new_blob: str
    old_path: str
    new_path: str


def raw_changes(repo: Path, *args: str) -> dict[str, RawChange]:
    """``git diff-tree -r --raw -z ARGS`` as records keyed by their new path."""
    fields = git(repo, "diff-tree", "-r", "--raw", "-z", *args).split("\0")
    changes: dict[str, RawChange] = {}
    position = 0
    while position < len(fields) and fields[position]:
        old_mode, new_mode, old_blob, new_blob, status = fields[position].lstrip(":").split(" ")
        has_two_paths = status[0] in "RC"
        old_path = fields[position + 1]
        new_path = fields[position + 2] if has_two_paths else old_path
        position += 3 if has_two_paths else 2
        changes[new_path] = RawChange(
            status, old_mode, new_mode, old_blob, new_blob, old_path, new_path
        )
    return changes


def refs(repo: Path) -> str:
    return (
        git(repo, "for-each-ref", "--format=%(refname) %(objectname)")
        + "\n"
        + git(repo, "rev-parse", "HEAD")
    )


def subjects(repo: Path, *rev_args: str) -> list[str]:
    output = git(repo, "log", "--format=%s", *rev_args)
    return output.splitlines()


# --- Builder ------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", FIXTURE_NAMES)
def test_building_twice_gives_identical_commit_ids(name: str, tmp_path: Path) -> None:
    first = build_repo(name, tmp_path / "first")
    second = build_repo(name, tmp_path / "second")
    assert refs(first) == refs(second)


@pytest.mark.parametrize("name", FIXTURE_NAMES)
def test_work_tree_is_clean_after_building(name: str, fixture_repo: RepoFactory) -> None:
    repo = fixture_repo(name)
    assert git(repo, "status", "--porcelain", "--untracked-files=all", "--ignored") == ""


@pytest.mark.parametrize("name", FIXTURE_NAMES)
def test_every_fixture_has_a_description(name: str) -> None:
    assert load_spec(name).description.strip()


def test_commits_have_pinned_identities_and_dates(fixture_repo: RepoFactory) -> None:
    log = git(fixture_repo("kinds"), "log", "--reverse", "--format=%an <%ae> %aI|%cn <%ce> %cI")
    author = "Ada Author <ada.author@example.com>"
    committer = "Carl Committer <carl.committer@example.com>"
    assert log.splitlines() == [
        f"{author} {date}|{committer} {date}"
        for date in (
            "2026-01-01T00:00:00+00:00",
            "2026-01-01T00:01:00+00:00",
            "2026-01-01T00:02:00+00:00",
        )
    ]


def test_writable_repo_is_a_fresh_copy(
    fixture_repo: RepoFactory, writable_repo: RepoFactory
) -> None:
    shared = fixture_repo("branches")
    first = writable_repo("branches")
    second = writable_repo("branches")
    assert len({shared, first, second}) == 3
    assert refs(first) == refs(shared) == refs(second)


def test_unknown_keys_are_rejected() -> None:
    document = {"description": "x", "commits": [{"message": "m", "file": {}}]}
    with pytest.raises(FixtureError, match="unknown key 'file'"):
        parse_repo(document, where="inline")


def test_git_failure_raises_assertion_with_stderr(tmp_path: Path) -> None:
    with pytest.raises(AssertionError, match="not a git repository"):
        git(tmp_path, "rev-parse", "HEAD")


# --- Isolation ----------------------------------------------------------------------------------


def test_git_environment_is_isolated(isolated_git: Path) -> None:
    inherited = {name for name in os.environ if name.startswith("GIT_")}
    assert inherited == {
        "GIT_CONFIG_NOSYSTEM",
        "GIT_AUTHOR_NAME",
        "GIT_AUTHOR_EMAIL",
        "GIT_COMMITTER_NAME",
        "GIT_COMMITTER_EMAIL",
    }
    assert os.environ["HOME"] == str(isolated_git)
    assert list(isolated_git.iterdir()) == []
    assert pygit2.settings.search_path[ConfigLevel.GLOBAL] == str(isolated_git)


# --- kinds.yml ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def kinds_v1_v2(fixture_repo: RepoFactory) -> dict[str, RawChange]:
    return raw_changes(fixture_repo("kinds"), "-M", "-C", "v1", "v2")


def test_kinds_v1_v2_statuses(kinds_v1_v2: dict[str, RawChange]) -> None:
    statuses = {path: change.status for path, change in kinds_v1_v2.items()}
    assert statuses.pop("src/settings.py").startswith("R0")
    assert statuses.pop("src/handlers/admin.py").startswith("C")
    assert statuses == {
        "CHANGELOG.md": "A",
        "README.md": "M",
        "assets/favicon.ico": "A",
        "assets/logo.png": "M",
        "bin/inventory": "A",
        "config/current.yml": "T",
        "deploy/current": "M",
        "docs/café.md": "M",
        "docs/obsolete.md": "D",
        "docs/user guide.md": "M",
        "legacy/notes-latin1.txt": "M",
        "scripts/deploy.sh": "M",
        "src/app.py": "M",
        "src/handlers/base.py": "M",
        "src/util/text.py": "R100",
        "vendor/schemas": "M",
        "windows/install.bat": "M",
    }


def test_kinds_renames_and_copy_sources(kinds_v1_v2: dict[str, RawChange]) -> None:
    assert kinds_v1_v2["src/util/text.py"].old_path == "src/util/strings.py"
    edited_rename = kinds_v1_v2["src/settings.py"]
    assert edited_rename.old_path == "src/config.py"
    assert 80 <= int(edited_rename.status[1:]) < 100
    copy = kinds_v1_v2["src/handlers/admin.py"]
    assert copy.old_path == "src/handlers/base.py"
    assert 80 <= int(copy.status[1:]) < 100


def test_kinds_modes(kinds_v1_v2: dict[str, RawChange]) -> None:
    mode_only = kinds_v1_v2["scripts/deploy.sh"]
    assert (mode_only.old_mode, mode_only.new_mode) == ("100644", "100755")
    assert mode_only.old_blob == mode_only.new_blob
    type_change = kinds_v1_v2["config/current.yml"]
    assert (type_change.old_mode, type_change.new_mode) == ("100644", "120000")
    retargeted = kinds_v1_v2["deploy/current"]
    assert (retargeted.old_mode, retargeted.new_mode) == ("120000", "120000")
    assert kinds_v1_v2["bin/inventory"].new_mode == "120000"
    submodule = kinds_v1_v2["vendor/schemas"]
    assert (submodule.old_mode, submodule.new_mode) == ("160000", "160000")
    assert submodule.old_blob == "5d3c1e0b9a8f7e6d5c4b3a29180716f5e4d3c2b1"
    assert submodule.new_blob == "a41f0c7d2e9b8a7f6e5d4c3b2a1908f7e6d5c4b3"


def test_kinds_contents(fixture_repo: RepoFactory) -> None:
    repo = fixture_repo("kinds")
    numstat = git(repo, "diff", "--numstat", "v1", "v2", "--", "assets")
    assert numstat.splitlines() == ["-\t-\tassets/favicon.ico", "-\t-\tassets/logo.png"]
    for tag in ("v1", "v2"):
        crlf_lines = git(repo, "cat-file", "blob", f"{tag}:windows/install.bat").split("\n")
        assert len(crlf_lines) == 3
        assert all(line.endswith("\r") for line in crlf_lines)
        symlink_target = git(repo, "cat-file", "blob", f"{tag}:deploy/current")
        assert symlink_target.startswith("releases/")
        latin1 = git(repo, "cat-file", "blob", f"{tag}:legacy/notes-latin1.txt")
        with pytest.raises(UnicodeEncodeError):
            latin1.encode("utf-8")  # undecodable bytes survive only as surrogates
    assert git(repo, "cat-file", "blob", "v2:config/current.yml") == "production.yml"


def test_kinds_v3_changes_a_single_line(fixture_repo: RepoFactory) -> None:
    repo = fixture_repo("kinds")
    assert git(repo, "diff", "--numstat", "v2", "v3") == "1\t1\tsrc/app.py"
    assert commit_id(repo, "main") == commit_id(repo, "v3")


# --- branches.yml -------------------------------------------------------------------------------


def test_branches_topology(fixture_repo: RepoFactory) -> None:
    repo = fixture_repo("branches")
    merged = commit_id(repo, "merged")
    assert commit_id(repo, "main") == merged
    assert commit_id(repo, "feature") == commit_id(repo, "feature-tip")
    parents = git(repo, "rev-list", "--parents", "-n1", "merged").split()[1:]
    assert parents == [commit_id(repo, "pre-merge"), commit_id(repo, "feature-tip")]
    assert git(repo, "merge-base", "pre-merge", "feature-tip") == commit_id(repo, "fork")
    assert git(repo, "rev-list", "--parents", "-n1", "root").split()[1:] == []


def test_branches_range_forms(fixture_repo: RepoFactory) -> None:
    repo = fixture_repo("branches")
    assert subjects(repo, "root..fork") == [
        "Add a command-line entry point",
        "Let callers choose the greeting punctuation",
    ]
    assert subjects(repo, "pre-merge..feature") == [
        "Document farewell messages",
        "Add farewell messages",
    ]
    assert sorted(subjects(repo, "pre-merge...feature")) == [
        "Add farewell messages",
        "Add the MIT license",
        "Describe installation in the README",
        "Document farewell messages",
    ]
    assert subjects(repo, "main..feature") == []
    assert subjects(repo, "feature..main") == [
        "Merge branch 'feature'",
        "Add the MIT license",
        "Describe installation in the README",
    ]


def test_branches_commits_all_change_files(fixture_repo: RepoFactory) -> None:
    repo = fixture_repo("branches")
    for commit in git(repo, "rev-list", "--all").splitlines():
        first_parent_diff = git(
            repo,
            "diff-tree",
            "-r",
            "--root",
            "--name-only",
            "-m",
            "--first-parent",
            "--no-commit-id",
            commit,
        )
        assert first_parent_diff, commit
