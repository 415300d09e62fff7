"""Pairs as `git diff -M` makes them, past git's rename limit; a missing blob (issue 11)."""

from pathlib import Path

import pytest
from manifests import run
from repos import RepoFactory, git
from test_changes import comparable, git_diff_changes, our_changes

# One more file than git's default diff.renameLimit (1000): with copy detection the
# rename matrix (1,001 new files x 1,001 sources) exceeds 1000 x 1000 and git skips
# inexact renames; `git diff -M` still pairs every moved file by its base name.
MOVED = 1001


def moved_file(number: int, edited: bool) -> bytes:
    lines = [
        f"file {number} line {line}: {number * 7919 % 1009} {line * number}\n" for line in range(20)
    ]
    if edited:
        lines[10] = f"file {number} line 10 was edited\n"
    return "".join(lines).encode("ascii")


def fast_import_script() -> bytes:
    """Commit `v1` with MOVED files under old/, then `v2` moving each to new/ with one edit."""
    out: list[bytes] = []
    stamp = "Carl Committer <carl.committer@example.com> 1767225600 +0000"
    for number in range(MOVED):
        for edited in (False, True):
            data = moved_file(number, edited)
            out.append(
                b"blob\nmark :%d\ndata %d\n%s\n" % (2 * number + 1 + edited, len(data), data)
            )
    out.append(
        f"commit refs/heads/main\nmark :1000000\ncommitter {stamp}\ndata 6\nFiles\n".encode()
    )
    out += [b"M 100644 :%d old/f%04d.txt\n" % (2 * n + 1, n) for n in range(MOVED)]
    out.append(
        f"\ncommit refs/heads/main\nmark :1000001\ncommitter {stamp}\ndata 5\nMove\n"
        "from :1000000\n".encode()
    )
    for number in range(MOVED):
        out.append(b"D old/f%04d.txt\n" % number)
        out.append(b"M 100644 :%d new/f%04d.txt\n" % (2 * number + 2, number))
    out.append(b"\nreset refs/tags/v1\nfrom :1000000\n\nreset refs/tags/v2\nfrom :1000001\n\n")
    return b"".join(out)


@pytest.fixture(scope="module")
def moved_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    repo = tmp_path_factory.mktemp("moved")
    git(repo, "init", "--quiet", "--bare")
    git(repo, "fast-import", "--quiet", input=fast_import_script())
    return repo


def test_renames_survive_git_s_rename_limit(moved_repo: Path) -> None:
    copies_and_renames = git(moved_repo, "diff-tree", "-r", "--name-status", "-M", "-C", "v1", "v2")
    assert not [line for line in copies_and_renames.splitlines() if line.startswith("R")]
    ours = our_changes(moved_repo, "v1", "v2", copies=True)
    assert [c.status for c in ours] == ["renamed"] * MOVED
    assert [comparable(c) for c in ours] == [
        comparable(c) for c in git_diff_changes(moved_repo, "v1", "v2")
    ]


def test_a_missing_blob_names_its_file(writable_repo: RepoFactory) -> None:
    repo = writable_repo("kinds")
    blob = git(repo, "rev-parse", "v1:src/app.py")
    (repo / ".git" / "objects" / blob[:2] / blob[2:]).unlink()
    assert_missing(repo, "src/app.py", blob)


def test_a_blob_missing_while_git_pairs_renames(writable_repo: RepoFactory) -> None:
    """git itself reads the blob to find the rename, before it prints any pair."""
    repo = writable_repo("kinds")
    blob = git(repo, "rev-parse", "v2:src/settings.py")  # renamed from src/config.py, edited
    git(repo, "rm", "--quiet", "--cached", "src/settings.py")
    (repo / ".git" / "objects" / blob[:2] / blob[2:]).unlink()
    assert_missing(repo, "src/settings.py", blob)


def assert_missing(repo: Path, path: str, blob: str) -> None:
    result = run("--repo", repo, "v1..v2")
    assert (result.status, result.stdout) == (3, "")
    assert result.stderr == (
        f"git review-manifest: error: {path}: blob {blob[:12]} is missing from the "
        "repository (hint: a partial clone or a damaged mirror cannot be reviewed; "
        "fetch the range in full)\n"
    )


def test_attributes_outside_the_range_change_no_hunk(
    fixture_repo: RepoFactory, writable_repo: RepoFactory
) -> None:
    """git diff calls a `-diff` file binary; gitreview's rule is git's NUL test on
    the blobs, whatever the checkout or $GIT_DIR/info/attributes say (issue 12)."""
    expected = [comparable(c) for c in our_changes(fixture_repo("kinds"), "v1", "v2", copies=True)]
    repo = writable_repo("kinds")
    (repo / ".gitattributes").write_text("* -diff\n")
    (repo / ".git" / "info").mkdir(exist_ok=True)
    (repo / ".git" / "info" / "attributes").write_text("*.md -diff\n*.py -diff\n")
    assert "Binary files" in git(repo, "diff", "v1", "v2", "--", "README.md")
    ours = [comparable(c) for c in our_changes(repo, "v1", "v2", copies=True)]
    assert ours == expected


def test_a_partial_clone_missing_a_blob_outside_the_changes(tmp_path: Path) -> None:
    """Found by an adversarial review: the base's `.gitreview.yml` not fetched, git's
    batch stopped (it may not fetch it) and the next question to it was an internal
    error. Now one line, exit 3."""
    source = tmp_path / "src"
    git(tmp_path, "init", "--quiet", str(source))
    git(source, "config", "uploadpack.allowFilter", "true")
    (source / ".gitreview.yml").write_text("fail_on: warning\n")
    (source / "README.md").write_text("# T\n\ntext\n")
    git(source, "add", "--all")
    git(source, "commit", "--quiet", "-m", "base")
    (source / "README.md").write_text("# T\n\nmore text\n")
    git(source, "commit", "--quiet", "--all", "-m", "head")
    clone = tmp_path / "partial"
    git(
        tmp_path,
        "clone",
        "--quiet",
        "--filter=blob:none",
        "--no-checkout",
        f"file://{source}",
        str(clone),
    )
    for side in ("HEAD", "HEAD~1"):
        git(clone, "cat-file", "-p", f"{side}:README.md")  # the range's blobs only
    result = run("--repo", clone, "HEAD", "--no-cache")
    assert (result.status, result.stdout) == (3, "")
    assert result.stderr.startswith("git review-manifest: error: git failed: ")
    assert result.stderr.endswith(
        "(hint: a partial clone or a damaged mirror cannot be reviewed; fetch the range in full)\n"
    )
    assert result.stderr.count("\n") == 1
