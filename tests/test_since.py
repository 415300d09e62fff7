"""Review across pushes (issue #13): --since REV and --since-manifest FILE."""

from pathlib import Path
from typing import Any

import pytest
from manifests import files_by_path, manifest_of, review_items, run
from repos import git

# Functions far enough apart that git cuts one hunk each.
FUNCTIONS = {name: f"def {name}():\n    return {i}\n" for i, name in enumerate("abcdef")}
PAD = "".join(f"# line {i}\n" for i in range(10))


def module(**bodies: str) -> str:
    return PAD.join(bodies.get(name, text) for name, text in FUNCTIONS.items())


def commit(repo: Path, message: str, files: dict[str, str]) -> str:
    for path, text in files.items():
        target = repo / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
        git(repo, "add", path)
    git(repo, "commit", "--quiet", "-m", message)
    return git(repo, "rev-parse", "HEAD")


@pytest.fixture
def pull_request(tmp_path: Path) -> Path:
    """main: base; feature: two commits changing a() and c() of src/m.py."""
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "--quiet", "--initial-branch=main")
    commit(repo, "Base", {"src/m.py": module(), "docs/notes.md": "# Notes\n\nOne.\n"})
    git(repo, "checkout", "--quiet", "-b", "feature")
    commit(repo, "Change a", {"src/m.py": module(a="def a():\n    return 'a'\n")})
    commit(
        repo,
        "Change c",
        {"src/m.py": module(a="def a():\n    return 'a'\n", c="def c():\n    return 'c'\n")},
    )
    git(repo, "tag", "reviewed")
    return repo


def handles(manifest: dict[str, Any]) -> list[str]:
    return [item["handle"] for item in review_items(manifest)]


def test_a_pull_request_that_gains_a_commit_sends_only_its_hunks(pull_request: Path) -> None:
    repo = pull_request
    both = "def a():\n    return 'a'\n"
    commit(
        repo,
        "Change e",
        {
            "src/m.py": module(
                a=both, c="def c():\n    return 'c'\n", e="def e():\n    return 'e'\n"
            )
        },
    )
    manifest = manifest_of("--repo", repo, "main...feature", "--since", "reviewed")
    assert [h.split("@")[0] for h in handles(manifest)] == ["src/m.py:50-50"]
    assert manifest["since"] == {"spec": "reviewed", "hunks": 2, "lines": 4}
    marked = [h for h in files_by_path(manifest)["src/m.py"]["hunks"] if "reviewed" in h]
    assert [h["handle"].split("@")[0] for h in marked] == ["src/m.py:2-2", "src/m.py:26-26"]
    assert all(h["reviewed"].startswith("src/m.py:") for h in marked)
    ledger = manifest["ledger"]
    assert (ledger["significant"], ledger["routed"], ledger["reviewed"]) == (6, 2, 4)
    brief = run("--repo", repo, "main...feature", "--since", "reviewed", "--format", "brief")
    assert "2 changes reviewed before (since reviewed), the same lines in the same place" in (
        brief.stdout
    )
    assert "return 'a'" not in brief.stdout and "return 'e'" in brief.stdout


def test_a_rebase_onto_a_moved_base_sends_nothing_again(pull_request: Path) -> None:
    repo = pull_request
    git(repo, "checkout", "--quiet", "main")
    commit(repo, "Elsewhere", {"docs/notes.md": "# Notes\n\nOne.\n\nTwo.\n"})
    git(repo, "checkout", "--quiet", "feature")
    git(repo, "rebase", "--quiet", "main")
    manifest = manifest_of("--repo", repo, "main...feature", "--since", "reviewed")
    assert manifest["review"] == {}
    assert manifest["since"] == {"spec": "reviewed", "hunks": 2, "lines": 4}


def test_a_hunk_edited_after_review_is_sent_again(pull_request: Path) -> None:
    repo = pull_request
    old = manifest_of("--repo", repo, "main...feature")
    old_c = next(h for h in handles(old) if h.startswith("src/m.py:26-"))
    commit(
        repo,
        "Change c again",
        {"src/m.py": module(a="def a():\n    return 'a'\n", c="def c():\n    return 'C'\n")},
    )
    manifest = manifest_of("--repo", repo, "main...feature", "--since", "reviewed")
    assert [h.split("@")[0] for h in handles(manifest)] == ["src/m.py:26-26"]
    assert manifest["since"]["gone"] == [old_c]
    assert manifest["since"]["hunks"] == 1


def test_a_force_push_that_dropped_a_commit_shows_it_gone(pull_request: Path) -> None:
    repo = pull_request
    old = manifest_of("--repo", repo, "main...feature")
    git(repo, "reset", "--quiet", "--hard", "HEAD~1")
    manifest = manifest_of("--repo", repo, "main...feature", "--since", "reviewed")
    assert manifest["review"] == {}
    gone = [h for h in handles(old) if h.startswith("src/m.py:26-")]
    assert manifest["since"] == {"spec": "reviewed", "hunks": 1, "lines": 2, "gone": gone}


def test_the_manifest_reviewed_last_stands_for_its_head(pull_request: Path, tmp_path: Path) -> None:
    repo = pull_request
    last = tmp_path / "last.json"
    last.write_text(run("--repo", repo, "main...feature").stdout)
    commit(
        repo,
        "Change e",
        {
            "src/m.py": module(
                a="def a():\n    return 'a'\n",
                c="def c():\n    return 'c'\n",
                e="def e():\n    return 'e'\n",
            )
        },
    )
    by_rev = manifest_of("--repo", repo, "main...feature", "--since", "reviewed")
    by_file = manifest_of("--repo", repo, "main...feature", "--since-manifest", last)
    assert handles(by_file) == handles(by_rev)
    assert by_file["since"] == {**by_rev["since"], "spec": str(last)}
    # A chain: the manifest of the second review knows what the first covered.
    second = tmp_path / "second.json"
    second.write_text(run("--repo", repo, "main...feature", "--since-manifest", last).stdout)
    third = manifest_of("--repo", repo, "main...feature", "--since-manifest", second)
    assert third["review"] == {} and third["since"]["hunks"] == 3


def test_bad_since(pull_request: Path, tmp_path: Path) -> None:
    result = run("--repo", pull_request, "main...feature", "--since", "nowhere")
    assert (result.status, result.stdout) == (3, "")
    assert result.stderr == (
        "git review-manifest: error: unknown revision 'nowhere' (--since) "
        "(hint: the head reviewed last must be in this repository: fetch it)\n"
    )
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    result = run("--repo", pull_request, "main...feature", "--since-manifest", bad)
    assert (result.status, result.stderr) == (
        2,
        f"git review-manifest: error: {bad}: not a gitreview 2.0 manifest\n",
    )
    result = run("--patch", "-", "--since", "HEAD", stdin=b"")
    assert result.status == 2
    assert result.stderr == "git review-manifest: error: --since needs a repository, not a patch\n"


def test_the_same_lines_moved_elsewhere_in_the_file_are_reviewed_again(
    pull_request: Path,
) -> None:
    repo = pull_request
    a, c = "def a():\n    return 'a'\n", "def c():\n    return 'c'\n"
    b = "def b():\n    check()\n    return 1\n"
    commit(repo, "Check in b", {"src/m.py": module(a=a, b=b, c=c)})
    git(repo, "tag", "checked")
    # The very same added line goes into e() instead: another place, not reviewed.
    e = "def e():\n    check()\n    return 4\n"
    commit(repo, "Check in e", {"src/m.py": module(a=a, c=c, e=e)})
    manifest = manifest_of("--repo", repo, "main...feature", "--since", "checked")
    assert [h.split("@")[0] for h in handles(manifest)] == ["src/m.py:50-50"]
    assert manifest["since"]["hunks"] == 2  # a() and c()
    before = handles(manifest_of("--repo", repo, "main...checked"))
    assert manifest["since"]["gone"] == [h for h in before if h.startswith("src/m.py:14-")]


REPEATED = "".join(
    f"  - name: {name}\n    image: app:1.4\n    securityContext:\n      runAsNonRoot: true\n"
    "      runAsUser: 1000\n      privileged: false\n"
    "      readOnlyRootFilesystem: true\n      allowPrivilegeEscalation: false\n"
    "      capabilities: {drop: [ALL]}\n"
    for name in ("sidecar", "api")
)


def test_the_same_edit_moved_to_a_repeated_block_is_sent_again(tmp_path: Path) -> None:
    """Found by an adversarial review: two containers have the same context lines,
    so `privileged: true` moved from the reviewed sidecar to the api container was
    taken for the reviewed change and reached nobody."""
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "--quiet", "--initial-branch=main")
    commit(repo, "Base", {"deploy.yaml": "containers:\n" + REPEATED})
    git(repo, "checkout", "--quiet", "-b", "feature")
    sidecar = REPEATED.replace("privileged: false", "privileged: true", 1)
    commit(repo, "Privileged sidecar", {"deploy.yaml": "containers:\n" + sidecar})
    git(repo, "tag", "reviewed")
    api = REPEATED[::-1].replace("privileged: false"[::-1], "privileged: true"[::-1], 1)[::-1]
    commit(repo, "Privileged api instead", {"deploy.yaml": "containers:\n" + api})
    manifest = manifest_of("--repo", repo, "main...feature", "--since", "reviewed")
    assert [h.split("@")[0] for h in handles(manifest)] == ["deploy.yaml:16-16"]
    assert (
        "privileged: true"
        in run("--repo", repo, "main...feature", "--since", "reviewed", "--format", "brief").stdout
    )


def test_line_ends_changed_after_review_are_sent_again(pull_request: Path) -> None:
    repo = pull_request
    crlf = "def a():\n    return 'a'\r\n"  # only the reviewed line's end
    commit(repo, "CRLF", {"src/m.py": module(a=crlf, c="def c():\n    return 'c'\n")})
    manifest = manifest_of("--repo", repo, "main...feature", "--since", "reviewed")
    assert [h.split("@")[0] for h in handles(manifest)] == ["src/m.py:2-2"]


def test_a_copy_of_a_reviewed_file_is_sent(pull_request: Path) -> None:
    """Found by an adversarial review: a copy's hunks matched its source's review
    through the path it was copied from, and the new file reached nobody."""
    repo = pull_request
    text = module(a="def a():\n    return 'a'\n", c="def c():\n    return 'c'\n")
    commit(repo, "Copy", {"src/admin.py": text})
    manifest = manifest_of("--repo", repo, "main...feature", "--since", "reviewed")
    assert [h.split("@")[0] for h in handles(manifest)] == [
        "src/admin.py:2-2",
        "src/admin.py:26-26",
    ]


def test_a_reviewed_file_made_a_symlink_is_sent(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "--quiet", "--initial-branch=main")
    commit(repo, "Base", {"README.md": "# Readme\n"})
    git(repo, "checkout", "--quiet", "-b", "feature")
    commit(repo, "Current", {"conf/current": "../../etc/app/prod.env"})
    git(repo, "tag", "reviewed")
    git(repo, "rm", "--quiet", "--cached", "conf/current")
    (repo / "conf/current").unlink()
    (repo / "conf/current").symlink_to("../../etc/app/prod.env")
    git(repo, "add", "conf/current")
    git(repo, "commit", "--quiet", "--amend", "-m", "Current, a link")
    manifest = manifest_of("--repo", repo, "main...feature", "--since", "reviewed")
    assert manifest["since"]["hunks"] == 0
    assert [h.split("@")[0] for h in handles(manifest)] == ["conf/current:1-1"]


def test_a_rename_out_of_its_role_after_review_is_sent(tmp_path: Path) -> None:
    """Found by a review of the fixes: its hunk matched the review at its old path,
    and the rename out of test collection reached nobody."""
    tests = "".join(f"def test_{n}():\n    assert check({n})\n\n\n" for n in range(20))
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "--quiet", "--initial-branch=main")
    commit(repo, "Base", {"tests/test_auth.py": tests})
    git(repo, "checkout", "--quiet", "-b", "feature")
    edited = tests.replace("check(19)", "check(19) or True")
    commit(repo, "Edit", {"tests/test_auth.py": edited})
    git(repo, "tag", "reviewed")
    git(repo, "mv", "tests/test_auth.py", "tests/disabled_auth.py")
    git(repo, "commit", "--quiet", "-m", "Disable")
    manifest = manifest_of("--repo", repo, "main...feature", "--since", "reviewed")
    assert [h.split("@")[0] for h in handles(manifest)] == ["tests/disabled_auth.py"]
    brief = run("--repo", repo, "main...feature", "--since", "reviewed", "--format", "brief")
    assert "rename from tests/test_auth.py\n@@ tests/disabled_auth.py@" in brief.stdout
