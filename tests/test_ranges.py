"""Every range form, on the branches fixture, and the mistakes a user can make."""

import os
from pathlib import Path
from typing import Any

import pytest
from manifests import manifest_of, run
from repos import RepoFactory, commit_id, git

from gitreview.errors import Exit, UserError
from gitreview.git import open_repository

EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"


def subjects(manifest: dict[str, Any]) -> list[str]:
    commits = manifest["range"]["commits"]
    return [commit["subject"] for commit in commits]


def paths(manifest: dict[str, Any]) -> list[str]:
    return [entry["path"] for entry in manifest["files"]]


def test_two_dot_range_diffs_the_two_trees(fixture_repo: RepoFactory) -> None:
    repo = fixture_repo("branches")
    manifest = manifest_of("--repo", repo, "pre-merge..feature-tip")
    assert manifest["range"]["spec"] == "pre-merge..feature-tip"
    assert manifest["range"]["base"] == commit_id(repo, "pre-merge")
    assert manifest["range"]["head"] == commit_id(repo, "feature-tip")
    assert subjects(manifest) == ["Add farewell messages", "Document farewell messages"]
    # A..B compares trees: what main gained since the fork shows as removed.
    expected = git(repo, "diff", "--name-only", "pre-merge", "feature-tip").splitlines()
    assert paths(manifest) == expected


def test_three_dot_range_starts_at_the_merge_base(fixture_repo: RepoFactory) -> None:
    repo = fixture_repo("branches")
    manifest = manifest_of("--repo", repo, "pre-merge...feature-tip")
    assert manifest["range"]["base"] == commit_id(repo, "fork")
    assert subjects(manifest) == ["Add farewell messages", "Document farewell messages"]
    expected = git(repo, "diff", "--name-only", "fork", "feature-tip").splitlines()
    assert paths(manifest) == expected
    assert paths(manifest) != paths(manifest_of("--repo", repo, "pre-merge..feature-tip"))


def test_single_revision_is_its_first_parent_to_it(fixture_repo: RepoFactory) -> None:
    repo = fixture_repo("branches")
    manifest = manifest_of("--repo", repo, "feature-tip")
    assert manifest["range"]["base"] == commit_id(repo, "feature-tip~1")
    assert subjects(manifest) == ["Document farewell messages"]


def test_merge_commit_is_diffed_against_its_first_parent(fixture_repo: RepoFactory) -> None:
    repo = fixture_repo("branches")
    manifest = manifest_of("--repo", repo, "merged")
    assert manifest["range"]["base"] == commit_id(repo, "pre-merge")
    assert subjects(manifest) == [
        "Add farewell messages",
        "Document farewell messages",
        "Merge branch 'feature'",
    ]
    expected = git(repo, "diff", "--name-only", "merged^1", "merged").splitlines()
    assert paths(manifest) == expected


@pytest.mark.parametrize(
    ("spec", "base", "head"),
    [
        ("feature-tip^!", "feature-tip~1", "feature-tip"),
        ("merged^!", "pre-merge", "merged"),
        ("merged^-", "merged^1", "merged"),
        ("merged^-2", "merged^2", "merged"),
    ],
)
def test_git_notations_for_one_commit(
    fixture_repo: RepoFactory, spec: str, base: str, head: str
) -> None:
    """`REV^!` is REV alone, as a single REV; `REV^-N` is REV against its Nth parent."""
    repo = fixture_repo("branches")
    manifest = manifest_of("--repo", repo, spec)
    assert manifest["range"]["spec"] == spec
    assert manifest["range"]["base"] == commit_id(repo, base)
    assert manifest["range"]["head"] == commit_id(repo, head)
    expected = git(repo, "diff", "--name-only", base, head).splitlines()
    assert paths(manifest) == expected


def test_root_commit_is_diffed_against_the_empty_tree(fixture_repo: RepoFactory) -> None:
    repo = fixture_repo("branches")
    manifest = manifest_of("--repo", repo, "root")
    assert manifest["range"]["base"] is None
    assert subjects(manifest) == ["Add README and greeting module"]
    expected = git(repo, "diff", "--name-only", EMPTY_TREE, "root").splitlines()
    assert paths(manifest) == expected
    assert {entry["status"] for entry in manifest["files"]} == {"added"}


def test_a_sha256_repository_s_root_commit(tmp_path: Path) -> None:
    """Found by an adversarial review: the empty tree was SHA-1's, which a SHA-256
    repository has not (git failed, exit 3)."""
    repo = tmp_path / "repo"
    git(tmp_path, "init", "--quiet", "--object-format=sha256", str(repo))
    (repo / "app.py").write_text("print(1)\n")
    git(repo, "add", "app.py")
    git(repo, "commit", "--quiet", "-m", "Start")
    manifest = manifest_of("--repo", repo, "HEAD")
    assert [(entry["path"], entry["status"]) for entry in manifest["files"]] == [
        ("app.py", "added")
    ]


@pytest.mark.parametrize(
    "spec",
    [
        "HEAD~2..HEAD",
        "main~1",
        "root..fork",
        "fork..",
        "refs/tags/fork...main",
        "@~1..@",
        ":/Document farewell",
    ],
)
def test_any_revision_syntax_git_accepts(fixture_repo: RepoFactory, spec: str) -> None:
    repo = fixture_repo("branches")
    manifest = manifest_of("--repo", repo, spec)
    assert manifest["range"]["spec"] == spec


def test_empty_range_gives_an_empty_manifest(fixture_repo: RepoFactory) -> None:
    repo = fixture_repo("branches")
    manifest = manifest_of("--repo", repo, "main..main")
    assert manifest["files"] == []
    assert manifest["range"]["commits"] == []
    assert manifest["review"] == {}
    assert manifest["summary"]["files"] == {"total": 0, "trivial": 0, "significant": 0}
    assert manifest["tokens"] == {
        "full": 0,
        "diff": 0,
        "manifest": manifest["tokens"]["manifest"],
        "significant": 0,
        "brief": 0,
        "reduction": {"diff": 0.0, "full": 0.0},
    }


def test_repository_is_found_from_a_subfolder(
    fixture_repo: RepoFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = fixture_repo("branches")
    subfolder = repo / "docs"
    subfolder.mkdir(exist_ok=True)
    monkeypatch.chdir(subfolder)
    assert manifest_of("root")["range"]["head"] == commit_id(repo, "root")


def test_git_s_own_variables_of_where_and_how_to_look_are_kept(
    fixture_repo: RepoFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found by an adversarial review: gitreview found a repository above the ceiling
    git stops at, and dropped the user's `git -c` settings."""
    repo = fixture_repo("branches")
    subfolder = repo / "docs"
    subfolder.mkdir(exist_ok=True)
    monkeypatch.chdir(subfolder)
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(repo))
    result = run("root")
    assert result.status == 3
    assert "not a git repository" in result.stderr
    from gitreview.git import no_git_env

    monkeypatch.setenv("GIT_CONFIG_PARAMETERS", "'safe.directory'='*'")
    # The user's first, then the settings gitreview gives, which git reads last.
    assert no_git_env()["GIT_CONFIG_PARAMETERS"].startswith("'safe.directory'='*' ")


def clone_with_upstream(source: Path, tmp_path: Path, *, clone_args: tuple[str, ...] = ()) -> Path:
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "--quiet", *clone_args, source.as_uri(), str(clone))
    return clone


def test_no_argument_is_the_branch_against_its_upstream(
    fixture_repo: RepoFactory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    clone = clone_with_upstream(fixture_repo("branches"), tmp_path)
    git(clone, "reset", "--quiet", "--hard", "fork")
    git(clone, "branch", "--quiet", "--set-upstream-to=origin/main")
    (clone / "NEW.md").write_text("local work\n")
    git(clone, "add", "NEW.md")
    git(clone, "commit", "--quiet", "-m", "Local work")
    monkeypatch.chdir(clone)
    manifest = manifest_of()
    assert manifest["range"]["spec"] == "origin/main...HEAD"
    assert manifest["range"]["base"] == commit_id(clone, "fork")
    assert subjects(manifest) == ["Local work"]
    assert paths(manifest) == ["NEW.md"]


def test_no_upstream_is_a_clear_error_with_a_hint(
    writable_repo: RepoFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(writable_repo("branches"))
    result = run()
    assert result.status == 3
    assert result.stdout == ""
    assert result.stderr == (
        "git review-manifest: error: no range given and branch 'main' has no upstream "
        "(hint: give a range (git review-manifest origin/main...HEAD) or set an upstream "
        "(git branch --set-upstream-to=origin/main))\n"
    )


def test_detached_head_without_a_range(
    writable_repo: RepoFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = writable_repo("branches")
    git(repo, "checkout", "--quiet", "--detach", "fork")
    monkeypatch.chdir(repo)
    result = run()
    assert result.status == 3
    assert result.stderr == (
        "git review-manifest: error: no range given and HEAD is not on a branch "
        "(hint: give a range, for example: git review-manifest origin/main...HEAD)\n"
    )


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("nosuch..main", "unknown revision: nosuch"),
        ("main..nosuch", "unknown revision: nosuch"),
        ("nosuch", "unknown revision: nosuch"),
        ("main:README.md", "unknown revision: main:README.md"),
        ("main^-0", "unknown revision: main^-0"),  # git refuses it too: no 0th parent
    ],
)
def test_unknown_revision(fixture_repo: RepoFactory, spec: str, message: str) -> None:
    result = run("--repo", fixture_repo("branches"), spec)
    assert (result.status, result.stdout) == (3, "")
    assert result.stderr == f"git review-manifest: error: {message}\n"


def test_not_a_repository(tmp_path: Path) -> None:
    result = run("--repo", tmp_path, "HEAD")
    assert result.status == 3
    assert result.stderr == (
        f"git review-manifest: error: not a git repository (or any parent up to the root): "
        f"{tmp_path} (hint: run inside a repository or pass --repo PATH)\n"
    )


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a folder to another user needs root")
def test_a_repository_git_refuses_to_open(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """git's own reason, not its advice lines (and not "not a git repository")."""
    git(tmp_path, "init", "--quiet")
    os.chown(tmp_path, 65534, 65534)  # nobody
    monkeypatch.delenv("SUDO_UID", raising=False)
    result = run("--repo", tmp_path, "HEAD")
    assert (result.status, result.stderr) == (
        3,
        f"git review-manifest: error: cannot open repository {tmp_path}: "
        f"detected dubious ownership in repository at '{tmp_path}'\n",
    )


def test_missing_repo_folder(tmp_path: Path) -> None:
    result = run("--repo", tmp_path / "nowhere", "HEAD")
    assert result.status == 3
    assert result.stderr == (
        f"git review-manifest: error: not a git repository: {tmp_path / 'nowhere'} "
        "(no such folder)\n"
    )


def test_shallow_clone_missing_the_base(fixture_repo: RepoFactory, tmp_path: Path) -> None:
    clone = clone_with_upstream(fixture_repo("branches"), tmp_path, clone_args=("--depth", "1"))
    base = commit_id(fixture_repo("branches"), "fork")
    result = run("--repo", clone, f"{base}..HEAD")
    assert result.status == 3
    assert result.stderr == (
        f"git review-manifest: error: unknown revision: {base} (hint: this is a shallow clone: "
        "fetch more history (git fetch --unshallow, or fetch-depth: 0 in CI))\n"
    )
    single = run("--repo", clone, "HEAD")
    assert single.status == 3
    assert single.stderr.startswith(
        "git review-manifest: error: HEAD has no parent in this shallow"
    )


def test_a_range_whose_commits_go_below_a_shallow_clone_s_history(
    fixture_repo: RepoFactory, tmp_path: Path
) -> None:
    """Found by an adversarial review: with its base fetched at depth 1, as CI scripts
    fetch a pull request's base, `BASE..HEAD` listed only the commits above the
    boundary, and the checks of the range's commits passed on part of them."""
    origin = fixture_repo("branches")
    clone = clone_with_upstream(origin, tmp_path, clone_args=("--depth", "1"))
    base = commit_id(origin, "fork")
    git(clone, "fetch", "--quiet", "--depth", "1", "origin", base)
    full = subjects(manifest_of("--repo", origin, f"{base}..main"))
    assert len(full) >= 2  # more commits than the one a depth of 1 holds
    result = run("--repo", clone, f"{base}..HEAD")
    assert result.status == 3, result.stdout
    assert result.stderr.startswith(
        "git review-manifest: error: the range's commits go on below this shallow clone's "
        "history (commit "
    )
    assert "fetch-depth: 0 in CI" in result.stderr
    # Once the history is there, the same range is reviewed whole.
    git(clone, "fetch", "--quiet", "--unshallow", "origin")
    assert subjects(manifest_of("--repo", clone, f"{base}..HEAD")) == full


def test_a_clone_as_deep_as_its_history_has_its_true_root(tmp_path: Path) -> None:
    """A review of the fix: git lists a true root among a clone's shallow commits when
    the clone is as deep as the history; nothing is missing below it."""
    from repos import commits

    origin = commits(tmp_path / "one", {"a.txt": "A.\n"})  # one commit: its root
    clone = clone_with_upstream(origin, tmp_path, clone_args=("--depth", "1"))
    assert (clone / ".git" / "shallow").read_text().strip() == git(
        clone, "rev-parse", "HEAD"
    ).strip()
    empty = git(clone, "hash-object", "-t", "tree", "/dev/null").strip()
    assert subjects(manifest_of("--repo", clone, f"{empty}..HEAD")) == ["Before"]
    # A second review: "parent" in the root's message is no parent.
    git(origin, "commit", "--quiet", "--amend", "-m", "Root\n\nparent pom for all modules")
    (tmp_path / "again").mkdir()
    again = clone_with_upstream(origin, tmp_path / "again", clone_args=("--depth", "1"))
    assert len(subjects(manifest_of("--repo", again, f"{empty}..HEAD"))) == 1


def test_works_in_a_bare_repository(fixture_repo: RepoFactory, tmp_path: Path) -> None:
    bare = tmp_path / "bare.git"
    git(tmp_path, "clone", "--quiet", "--bare", fixture_repo("branches").as_uri(), str(bare))
    manifest = manifest_of("--repo", bare, "fork..feature")
    assert subjects(manifest) == ["Add farewell messages", "Document farewell messages"]


def test_nothing_is_written_to_the_repository(fixture_repo: RepoFactory) -> None:
    repo = fixture_repo("branches")

    def snapshot() -> dict[str, tuple[int, int]]:
        return {
            str(path): (path.lstat().st_size, path.lstat().st_mtime_ns)
            for path in sorted(repo.rglob("*"))
        }

    before = snapshot()
    manifest_of("--repo", repo, "root..merged", "--no-cache")
    run("--repo", repo, "root", "--no-cache")
    assert snapshot() == before
    # The cache of proved verdicts is the one thing written, under .git/gitreview/cache.
    cache = str(repo / ".git" / "gitreview")
    manifest_of("--repo", repo, "root..merged")
    run("--repo", repo, "root")
    after = snapshot()
    assert any(path.startswith(cache) for path in after)

    def outside_cache(shot: dict[str, tuple[int, int]]) -> dict[str, tuple[int, int]]:
        return {
            path: figures
            for path, figures in shot.items()
            if not path.startswith(cache) and path != str(repo / ".git")
        }

    assert outside_cache(after) == outside_cache(before)


def test_commits_are_listed_by_git_while_the_range_is_proved(fixture_repo: RepoFactory) -> None:
    """The range's commits come from a git process started when asked and read later
    (git.Listing): oldest first in git's topological order; git's failure is one line."""
    repo = fixture_repo("branches")
    repository = open_repository(str(repo))
    listing = repository.listing(commit_id(repo, "root"), commit_id(repo, "merged"))
    listing.start()
    listed = git(repo, "log", "--reverse", "--topo-order", "--format=%s", "root..merged")
    assert [commit.subject for commit in listing.commits()] == listed.splitlines()
    assert len(listed.splitlines()) > 2
    with pytest.raises(UserError) as failed:  # an object this repository does not hold
        repository.listing(None, "1" * 40).commits()
    assert failed.value.status == Exit.RANGE
    assert str(failed.value).startswith("git failed: ") and "\n" not in str(failed.value)
