"""`git review-manifest show HANDLE`: exactly the lines a handle names, from git objects."""

from pathlib import Path
from typing import Any

import pytest
from manifests import manifest_of, run
from repos import RepoFactory, git


def all_handles(manifest: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    return [
        (hunk["handle"], hunk) for entry in manifest["files"] for hunk in entry.get("hunks", [])
    ]


@pytest.mark.parametrize(("name", "spec"), [("kinds", "v1..v2"), ("whitespace", "v1..v2")])
def test_every_handle_shows_exactly_its_hunk_lines(
    fixture_repo: RepoFactory, name: str, spec: str
) -> None:
    repo = fixture_repo(name)
    manifest = manifest_of("--repo", repo, spec)
    handles = all_handles(manifest)
    assert handles
    for handle, hunk in handles:
        result = run("show", "--repo", repo, handle)
        assert result.status == 0, result.stderr
        side = hunk["new"] or hunk["old"]
        first, last = side
        blob = handle.rsplit("@", 1)[1]
        raw = git(repo, "cat-file", "-p", blob).encode("utf-8", "surrogateescape")
        content = raw.decode("utf-8", "replace").split("\n")  # show decodes as UTF-8, lossily
        width = len(str(last))
        expected = "".join(
            f"{n:>{width}}:{content[n - 1].rstrip(chr(13))}\n" for n in range(first, last + 1)
        )
        assert result.stdout == expected, handle


def test_handles_resolve_after_the_branch_moves_on(
    writable_repo: RepoFactory, tmp_path: Path
) -> None:
    repo = writable_repo("kinds")
    manifest = manifest_of("--repo", repo, "v2..v3")
    [(handle, _)] = all_handles(manifest)
    before = run("show", "--repo", repo, handle).stdout
    (repo / "src" / "app.py").write_text("rewritten\n")
    git(repo, "commit", "--quiet", "-am", "Rewrite the app")
    assert run("show", "--repo", repo, handle).stdout == before
    assert "serving" in before


def test_context_lines_are_marked_apart(fixture_repo: RepoFactory) -> None:
    repo = fixture_repo("whitespace")
    handle = next(
        h
        for h, _ in all_handles(manifest_of("--repo", repo, "v1..v2"))
        if h.startswith("py/reindent.py:")
    )
    assert handle.startswith("py/reindent.py:4-4@")
    result = run("show", "--repo", repo, handle, "--context", "2")
    assert result.stdout == ("2-    if x:\n3-        x += 1\n4:    return x\n5-    return 0\n")


def test_whole_file_handle_shows_the_whole_blob(fixture_repo: RepoFactory) -> None:
    repo = fixture_repo("kinds")
    blob = git(repo, "rev-parse", "v2:src/app.py")
    result = run("show", "--repo", repo, f"src/app.py@{blob[:12]}")
    lines = git(repo, "cat-file", "-p", blob).split("\n")
    assert result.stdout.splitlines()[0].endswith(f":{lines[0]}")
    assert len(result.stdout.splitlines()) == len(lines)


@pytest.mark.parametrize(
    ("handle", "message"),
    [
        (
            "no-range-no-blob",
            "handle 'no-range-no-blob' names no blob: a handle ends with @BLOB (hint: handles "
            "from a patch without index lines have none and cannot be shown)",
        ),
        ("src/app.py:5-2@abcdef12", "malformed handle: 'src/app.py:5-2@abcdef12' (bad line range)"),
        ("src/app.py:0-2@abcdef12", "malformed handle: 'src/app.py:0-2@abcdef12' (bad line range)"),
        (
            "src/app.py:12@abcdef12",
            "malformed handle: 'src/app.py:12@abcdef12' (hint: a handle looks like "
            "path/to/file.py:10-24@1a2b3c4d5e6f, as in the manifest)",
        ),
        (
            ":1-2@abcdef12",
            "malformed handle: ':1-2@abcdef12' (hint: a handle looks like "
            "path/to/file.py:10-24@1a2b3c4d5e6f, as in the manifest)",
        ),
        (
            "src/app.py:1-2@ffffffffffff",
            "unknown handle 'src/app.py:1-2@ffffffffffff': no blob "
            "ffffffffffff in this repository (hint: handles resolve in the repository the manifest "
            "was built from; fetch its commits)",
        ),
    ],
)
def test_bad_handles(fixture_repo: RepoFactory, handle: str, message: str) -> None:
    result = run("show", "--repo", fixture_repo("kinds"), handle)
    assert (result.status, result.stdout) == (6, "")
    assert result.stderr == f"git review-manifest: error: {message}\n"


def test_handle_past_the_end_of_its_blob(fixture_repo: RepoFactory) -> None:
    repo = fixture_repo("kinds")
    blob = git(repo, "rev-parse", "v2:src/app.py")[:12]
    result = run("show", "--repo", repo, f"src/app.py:1-9999@{blob}")
    assert result.status == 6
    assert result.stderr.startswith(
        f"git review-manifest: error: handle 'src/app.py:1-9999@{blob}' names lines 1-9999 "
        "but the blob has "
    )


def test_a_commit_id_is_not_a_blob(fixture_repo: RepoFactory) -> None:
    repo = fixture_repo("kinds")
    commit = git(repo, "rev-parse", "v2")[:12]
    result = run("show", "--repo", repo, f"x:1-1@{commit}")
    assert result.status == 6
    assert "no blob" in result.stderr


def test_binary_blob(fixture_repo: RepoFactory) -> None:
    repo = fixture_repo("kinds")
    blob = git(repo, "rev-parse", "v2:assets/logo.png")[:12]
    result = run("show", "--repo", repo, f"assets/logo.png@{blob}")
    assert result.status == 6
    assert result.stderr == (
        f"git review-manifest: error: handle 'assets/logo.png@{blob}' names a binary blob\n"
    )
