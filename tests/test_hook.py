"""The pre-push hook, end to end: installed in a real clone, run by a real `git push`."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from manifests import run, validate_manifest
from repos import PROJECT_ROOT, RepoFactory, git, isolated_environment

from gitreview.commands.hook import PushedRef, parse_push_lines
from gitreview.errors import UserError

ZERO = "0" * 40


def test_parse_push_lines() -> None:
    text = (
        f"refs/heads/main {'a' * 40} refs/heads/main {'b' * 40}\n"
        f"refs/heads/topic {'c' * 40} refs/heads/topic {ZERO}\n"
        f"(delete) {ZERO} refs/heads/old {'d' * 40}\n\n"
    )
    refs = parse_push_lines(text)
    assert refs == [
        PushedRef("refs/heads/main", "a" * 40, "refs/heads/main", "b" * 40),
        PushedRef("refs/heads/topic", "c" * 40, "refs/heads/topic", ZERO),
        PushedRef("(delete)", ZERO, "refs/heads/old", "d" * 40),
    ]
    assert [(r.new, r.deleted) for r in refs] == [(False, False), (True, False), (False, True)]
    with pytest.raises(UserError, match="unexpected pre-push input line: 'nonsense'"):
        parse_push_lines("nonsense\n")


def with_origin(writable_repo: RepoFactory, tmp_path: Path) -> Path:
    """The branches fixture with an origin: a real bare repository of its own."""
    repo = writable_repo("branches")
    remote = tmp_path / "origin.git"
    git(tmp_path, "clone", "--quiet", "--bare", str(repo), str(remote))
    git(repo, "remote", "add", "origin", str(remote))
    git(repo, "fetch", "--quiet", "origin")
    return repo


@pytest.fixture
def pushing(writable_repo: RepoFactory, tmp_path: Path) -> Path:
    """A clone with an origin and the hook installed."""
    repo = with_origin(writable_repo, tmp_path)
    git(repo, "branch", "--quiet", "--set-upstream-to=origin/main", "main")
    result = run("install-hook", "--repo", repo)
    assert result.status == 0, result.stderr
    return repo


def push(repo: Path, *args: str, to: str = "origin") -> tuple[int, str]:
    """`git push`, with gitreview's console script on PATH as a user's shell has it."""
    scripts = str(Path(sys.executable).parent)
    env = isolated_environment({"PATH": f"{scripts}{os.pathsep}{os.environ['PATH']}"})
    result = subprocess.run(
        ["git", "push", "--porcelain", to, *args],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    return result.returncode, result.stderr


def commit(repo: Path, path: str, text: str, message: str) -> str:
    (repo / path).parent.mkdir(parents=True, exist_ok=True)
    (repo / path).write_text(text)
    git(repo, "add", path)
    git(repo, "commit", "--quiet", "-m", message)
    return git(repo, "rev-parse", "HEAD")


def test_a_clean_push_passes_and_leaves_its_manifest(pushing: Path) -> None:
    commit(pushing, "docs/usage.md", "# Usage\n\nRun it.\n", "Document usage")
    status, stderr = push(pushing, "main")
    assert status == 0, stderr
    manifest_path = pushing / ".git" / "gitreview" / "pre-push" / "origin" / "refs" / "heads"
    target = manifest_path / "main.json"
    assert "gitreview: refs/heads/main: 1 file (1 significant), findings: 0 error" in stderr
    assert f"manifest: {target}" in stderr
    manifest = json.loads(target.read_text())
    validate_manifest(manifest)
    assert [c["subject"] for c in manifest["range"]["commits"]] == ["Document usage"]
    assert git(pushing, "status", "--porcelain") == ""  # nothing written to the work tree


def test_a_push_to_a_path_or_url_keeps_its_manifest_in_this_repository(
    pushing: Path, tmp_path: Path
) -> None:
    """git names the remote by its path or URL when the push names none: the manifest
    went into that path, into the other repository (its refs/tags/ held `v1.json`, a
    broken ref). Each remote is now one folder, named with a digest where needed."""
    mirror = tmp_path / "mirror.git"
    git(tmp_path, "init", "--quiet", "--bare", str(mirror))
    commit(pushing, "docs/usage.md", "# Usage\n\nRun it.\n", "Document usage")
    git(pushing, "tag", "-a", "v1", "-m", "v1")
    before = sorted(str(p.relative_to(mirror)) for p in mirror.rglob("*"))
    kept = pushing / ".git" / "gitreview" / "pre-push"
    for to in (str(mirror), f"file://{mirror}", "../mirror.git"):
        status, stderr = push(pushing, "main", "v1", to=to)
        assert status == 0, stderr
        [folder] = [path for path in kept.iterdir() if path.name != "origin"]
        assert folder.name.startswith("mirror.git-"), folder
        assert (folder / "refs" / "heads" / "main.json").is_file()
        assert (folder / "refs" / "tags" / "v1.json").is_file()
        shutil.rmtree(folder)
        git(mirror, "update-ref", "-d", "refs/heads/main")
        git(mirror, "update-ref", "-d", "refs/tags/v1")
    after = sorted(str(p.relative_to(mirror)) for p in mirror.rglob("*"))
    assert not [name for name in after if name.endswith(".json")]
    assert git(mirror, "for-each-ref") == ""
    assert {name for name in before if "objects" not in name} <= set(after)


def test_the_hook_imports_nothing_a_push_does_not_use(pushing: Path) -> None:
    """Every push runs it: importlib.resources (with tempfile and random) is loaded
    only by install-hook, which reads the script from the package."""
    head = commit(pushing, "docs/usage.md", "# Usage\n\nRun it.\n", "Document usage")
    line = f"refs/heads/main {head} refs/heads/main {git(pushing, 'rev-parse', 'origin/main')}"
    code = (
        "import io, sys\n"
        "from gitreview.cli import main\n"
        f"sys.stdin = io.StringIO({line!r})\n"
        f"status = main(['pre-push', '--repo', {str(pushing)!r}, 'origin'])\n"
        "print(status, sorted({'importlib.resources', 'tempfile'} & set(sys.modules)))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, check=True, env=isolated_environment()
    ).stdout
    assert out.decode().splitlines()[-1] == "0 []"


def test_a_fixup_commit_is_refused(pushing: Path) -> None:
    commit(pushing, "README.md", "# Greeting\n\nHello.\n", "fixup! Add README and greeting module")
    status, stderr = push(pushing, "main")
    assert status != 0
    assert "gitreview: push refused:" in stderr
    assert "range/fixup-commit" in stderr
    assert "git push --no-verify" in stderr
    assert git(pushing, "rev-parse", "origin/main") != git(pushing, "rev-parse", "main")


def test_a_conflict_marker_is_refused(pushing: Path) -> None:
    commit(
        pushing,
        "notes.txt",
        "start\n<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> topic\nend\n",
        "Add notes",
    )
    status, stderr = push(pushing, "main")
    assert status != 0
    assert "conflict-marker notes.txt:2" in stderr


def test_install_in_a_linked_worktree_puts_the_hook_where_git_runs_it(
    writable_repo: RepoFactory, tmp_path: Path
) -> None:
    """Found by a twelfth adversarial review: installed from a `git worktree`, the hook
    went to the worktree's own git folder, where git runs none, and every push went
    unchecked; the kept manifest now goes where every worktree's pushes look."""
    repo = with_origin(writable_repo, tmp_path)
    worktree = tmp_path / "feature"
    git(repo, "worktree", "add", "--quiet", "-b", "wip", str(worktree))
    result = run("install-hook", "--repo", worktree)
    assert result.status == 0, result.stderr
    assert (repo / ".git" / "hooks" / "pre-push").is_file()
    commit(worktree, "notes.txt", "start\n<<<<<<< HEAD\nours\n", "Add notes")
    status, stderr = push(worktree, "wip")
    assert status != 0
    assert "conflict-marker notes.txt:2" in stderr
    kept = repo / ".git" / "gitreview" / "pre-push" / "origin" / "refs" / "heads"
    assert (kept / "wip.refused.json").is_file()
    assert run("uninstall-hook", "--repo", worktree).status == 0
    assert not (repo / ".git" / "hooks" / "pre-push").exists()


def made_up_token() -> str:
    """A GitHub token shape, made at run time: no file here holds one."""
    import random
    import string

    rng = random.Random(42)
    return "ghp_" + "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(36))


def test_a_secret_a_later_commit_takes_out_is_refused(pushing: Path) -> None:
    """Found by a twelfth adversarial review: "add the token", then "read it from the
    environment", pushed together: the range's diff shows no token, but the remote's
    history would hold it, and the hook let it through."""
    token = made_up_token()
    commit(pushing, "app.py", f'TOKEN = "{token}"\n', "Add the token")
    commit(
        pushing, "app.py", 'TOKEN = os.environ["TOKEN"]\n', "Read the token from the environment"
    )
    status, stderr = push(pushing, "main")
    assert status != 0
    assert "error range/secret-in-history app.py: commit " in stderr
    assert "adds a GitHub token (line 1, value redacted)" in stderr
    assert token[4:20] not in stderr
    kept = pushing / ".git" / "gitreview" / "pre-push" / "origin" / "refs" / "heads"
    assert token[4:20] not in (kept / "main.refused.json").read_text()
    # Still there at the head, it is the range's own finding, told once.
    commit(pushing, "app.py", f'TOKEN = "{token}"\n', "Add it back")
    status, stderr = push(pushing, "main")
    assert status != 0
    assert "text/secret app.py:1" in stderr and "secret-in-history" not in stderr


def test_a_secret_main_published_before_is_no_new_one(pushing: Path) -> None:
    """Found by a third review of the rule: main added a token and took it out, both
    pushed; a branch that merges main and is pushed was refused for main's commit."""
    token = made_up_token()
    commit(pushing, "app.py", f'TOKEN = "{token}"\n', "Add the token")
    commit(pushing, "app.py", 'TOKEN = os.environ["TOKEN"]\n', "Read it from the environment")
    status, stderr = push(pushing, "--no-verify", "main")
    assert status == 0, stderr
    git(pushing, "checkout", "--quiet", "-b", "topic", "HEAD~2")
    commit(pushing, "notes.md", "# Notes\n", "Add notes")
    git(pushing, "merge", "--quiet", "--no-edit", "main")
    status, stderr = push(pushing, "topic")
    assert status == 0, stderr
    assert "secret-in-history" not in stderr


def test_a_new_branch_is_checked_from_where_it_left_the_remote(pushing: Path) -> None:
    git(pushing, "checkout", "--quiet", "-b", "topic")
    commit(pushing, "src/extra.py", "VALUE = 1\n", "Add extra")
    commit(pushing, "src/more.py", "VALUE = 2\n", "Add more")
    status, stderr = push(pushing, "topic")
    assert status == 0, stderr
    assert "gitreview: refs/heads/topic: 2 files (2 significant)" in stderr
    # Deleting it adds nothing to check.
    status, stderr = push(pushing, ":topic")
    assert status == 0, stderr
    assert "gitreview:" not in stderr


def test_a_first_push_to_another_remote_checks_only_what_no_remote_has(
    pushing: Path, tmp_path: Path
) -> None:
    """Every commit of main is on origin: mirroring it to a new remote reviews nothing
    (not the whole history), and a commit on top is checked alone."""
    mirror = tmp_path / "mirror.git"
    git(tmp_path, "init", "--quiet", "--bare", str(mirror))
    git(pushing, "remote", "add", "mirror", str(mirror))
    status, stderr = push(pushing, "main", to="mirror")
    assert status == 0, stderr
    assert "gitreview:" not in stderr
    git(pushing, "checkout", "--quiet", "-b", "topic")
    commit(pushing, "src/extra.py", "VALUE = 1\n", "Add extra")
    status, stderr = push(pushing, "topic", to="mirror")
    assert status == 0, stderr
    assert "gitreview: refs/heads/topic: 1 file (1 significant)" in stderr


def test_a_warning_does_not_refuse_the_push_but_is_said(pushing: Path) -> None:
    commit(pushing, "src/debug.py", "def f():\n    breakpoint()\n", "Debug f")
    status, stderr = push(pushing, "main")
    assert status == 0, stderr
    assert (
        "gitreview:   warning python/debugger src/debug.py:2: debugging leftover: breakpoint()\n"
        in stderr
    )


def test_a_push_that_is_already_there_checks_nothing(pushing: Path) -> None:
    status, stderr = push(pushing, "main")
    assert status == 0
    assert "gitreview:" not in stderr


def test_fail_on_from_the_configuration(pushing: Path) -> None:
    commit(pushing, ".gitreview.yml", "fail_on: never\n", "Never refuse a push")
    status, stderr = push(pushing, "main")
    assert status == 0, stderr
    commit(pushing, "README.md", "# Greeting\n", "fixup! Never refuse a push")
    status, stderr = push(pushing, "main")
    assert status == 0, stderr
    assert "findings: 1 error" in stderr


def test_a_push_cannot_loosen_its_own_check(pushing: Path) -> None:
    # Issue 11: the configuration is the remote's (the base), not the one being pushed.
    commit(pushing, ".gitreview.yml", "fail_on: never\nrules: {range/fixup-commit: 'off'}\n", "x")
    commit(pushing, "README.md", "# Greeting\n", "fixup! Never refuse a push")
    status, stderr = push(pushing, "main")
    assert status != 0
    assert "  error range/fixup-commit (range): commit " in stderr
    assert "findings: 1 error, 1 warning, 0 info" in stderr  # the warning: trust/config-changed


def test_install_respects_hooks_path_and_someone_else_s_hook(writable_repo: RepoFactory) -> None:
    repo = writable_repo("branches")
    git(repo, "config", "core.hooksPath", "githooks")
    theirs = repo / "githooks" / "pre-push"
    theirs.parent.mkdir()
    theirs.write_text("#!/bin/sh\necho theirs\n")
    refused = run("install-hook", "--repo", repo)
    assert refused.status == 2
    assert refused.stderr == (
        f"git review-manifest: error: {theirs} exists and is not gitreview's "
        "(hint: run with --force to set it aside (uninstall-hook puts it back))\n"
    )
    assert run("install-hook", "--repo", repo, "--force").status == 0
    assert "# gitreview pre-push hook" in theirs.read_text()
    assert os.access(theirs, os.X_OK)
    assert run("install-hook", "--repo", repo).status == 0  # ours: replaced quietly
    assert run("uninstall-hook", "--repo", repo).status == 0
    assert theirs.read_text() == "#!/bin/sh\necho theirs\n"
    assert run("uninstall-hook", "--repo", repo).status == 2


def test_a_hooks_path_that_is_a_file_is_one_clear_line(writable_repo: RepoFactory) -> None:
    # Found by an adversarial review: an internal error (exit 70).
    repo = writable_repo("branches")
    (repo / "hooks-file").write_text("not a folder\n")
    git(repo, "config", "core.hooksPath", "hooks-file")
    refused = run("install-hook", "--repo", repo)
    assert refused.status == 2
    target = repo / "hooks-file" / "pre-push"
    assert refused.stderr.startswith(
        f"git review-manifest: error: cannot install the hook at {target}: "
    )
    assert refused.stderr.count("\n") == 1


def test_the_hook_file_is_the_one_in_hooks(writable_repo: RepoFactory) -> None:
    repo = writable_repo("branches")
    run("install-hook", "--repo", repo)
    installed = (repo / ".git" / "hooks" / "pre-push").read_text()
    assert installed == (PROJECT_ROOT / "hooks" / "pre-push").read_text()


def test_the_pre_commit_framework_passes_the_range_in_the_environment(
    pushing: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    base = git(pushing, "rev-parse", "HEAD")
    head = commit(pushing, "README.md", "# Greeting\n", "fixup! Add README and greeting module")
    monkeypatch.setenv("PRE_COMMIT_FROM_REF", base)
    monkeypatch.setenv("PRE_COMMIT_TO_REF", head)
    monkeypatch.setenv("PRE_COMMIT_REMOTE_NAME", "origin")
    monkeypatch.setenv("PRE_COMMIT_LOCAL_BRANCH", "refs/heads/main")
    result = run("pre-push", "--repo", pushing)
    assert result.status == 1
    assert "range/fixup-commit (range)" in result.stderr


# -- the pre-commit framework, for real (issue #13) ------------------------------------


@pytest.fixture
def committing(writable_repo: RepoFactory, tmp_path: Path) -> Path:
    """A clone with an origin whose pre-push hook is pre-commit's, running our entry."""
    repo = with_origin(writable_repo, tmp_path)
    use_pre_commit(repo)
    commit(repo, ".pre-commit-config.yaml", pre_commit_config(), "Check pushes with pre-commit")
    return repo


def pre_commit_config() -> str:
    """Our .pre-commit-hooks.yaml entry as a local hook: `language: system` runs the
    console script of this environment instead of building one from a clone."""
    (hook,) = yaml.safe_load((PROJECT_ROOT / ".pre-commit-hooks.yaml").read_text("utf-8"))
    assert hook["stages"] == ["pre-push"]
    local = {**hook, "language": "system"}
    return yaml.safe_dump({"repos": [{"repo": "local", "hooks": [local]}]})


def use_pre_commit(repo: Path) -> None:
    env = {**pre_commit_environment(), "GIT_DIR": str(repo / ".git")}
    subprocess.run(
        [sys.executable, "-m", "pre_commit", "install", "--hook-type", "pre-push"],
        cwd=repo,
        env=env,
        capture_output=True,
        check=True,
    )


def pre_commit_environment() -> dict[str, str]:
    scripts = str(Path(sys.executable).parent)
    home = os.environ["HOME"]
    return isolated_environment(
        {"PATH": f"{scripts}{os.pathsep}{os.environ['PATH']}", "PRE_COMMIT_HOME": home}
    )


def push_through_pre_commit(repo: Path, *args: str) -> tuple[int, str]:
    result = subprocess.run(
        ["git", "push", "--porcelain", "origin", *args],
        cwd=repo,
        env=pre_commit_environment(),
        capture_output=True,
        text=True,
        check=False,
    )
    return result.returncode, result.stdout + result.stderr


def pre_push_manifest(repo: Path, ref: str, remote: str = "origin") -> dict[str, Any]:
    target = repo / ".git" / "gitreview" / "pre-push" / remote / f"{ref}.json"
    manifest: dict[str, Any] = json.loads(target.read_text("utf-8"))
    validate_manifest(manifest)
    return manifest


def test_pre_commit_s_pre_push_stage_checks_the_pushed_commits(committing: Path) -> None:
    git(committing, "checkout", "--quiet", "-b", "topic")
    commit(committing, "src/extra.py", "VALUE = 1\n", "Add extra")
    status, output = push_through_pre_commit(committing, "topic")
    assert status == 0, output
    assert "gitreview (review manifest and findings of what is pushed)" in output
    manifest = pre_push_manifest(committing, "refs/heads/topic")
    # FROM is where the branch left origin: the config commit and this one, no more.
    assert [c["subject"] for c in manifest["range"]["commits"]] == [
        "Check pushes with pre-commit",
        "Add extra",
    ]
    commit(committing, "README.md", "# Greeting\n", "fixup! Add extra")
    status, output = push_through_pre_commit(committing, "topic")
    assert status != 0
    assert "gitreview: push refused:" in output
    assert "range/fixup-commit (range)" in output
    manifest = pre_push_manifest(committing, "refs/heads/topic.refused")
    assert [c["subject"] for c in manifest["range"]["commits"]] == ["fixup! Add extra"]


def test_pre_commit_s_push_of_a_root_commit_is_checked_from_the_empty_tree(
    committing: Path, tmp_path: Path
) -> None:
    # An empty remote: pre-commit sets no FROM/TO (it checks all files) but names the
    # branch; the hook reviews every commit of it.
    empty = tmp_path / "empty.git"
    git(tmp_path, "init", "--quiet", "--bare", str(empty))
    git(committing, "remote", "set-url", "origin", str(empty))
    for ref in git(committing, "for-each-ref", "--format=%(refname)", "refs/remotes").split():
        git(committing, "update-ref", "-d", ref)
    commit(committing, "README.md", "# Greeting\n", "fixup! Check pushes with pre-commit")
    status, output = push_through_pre_commit(committing, "main")
    assert status != 0, output
    assert "range/fixup-commit (range)" in output
    manifest = pre_push_manifest(committing, "refs/heads/main.refused")
    assert manifest["range"]["base"] is None
    assert len(manifest["range"]["commits"]) == int(git(committing, "rev-list", "--count", "main"))


def test_pre_commit_s_from_and_to_refs_are_taken_from_their_merge_base(
    pushing: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # `pre-commit run --hook-stage pre-push --from-ref origin/main --to-ref topic` after
    # main moved on: pre-commit's hooks diff FROM...TO, so main's own change is not here.
    git(pushing, "checkout", "--quiet", "-b", "topic")
    commit(pushing, "src/extra.py", "VALUE = 1\n", "Add extra")
    git(pushing, "checkout", "--quiet", "main")
    commit(pushing, "docs/later.md", "# Later\n", "Document later")
    git(pushing, "push", "--quiet", "--no-verify", "origin", "main")
    monkeypatch.setenv("PRE_COMMIT", "1")
    monkeypatch.setenv("PRE_COMMIT_FROM_REF", "origin/main")
    monkeypatch.setenv("PRE_COMMIT_TO_REF", "topic")
    result = run("pre-push", "--repo", pushing)
    assert result.status == 0, result.stderr
    assert "gitreview: HEAD: 1 file (1 significant)" in result.stderr
    manifest = pre_push_manifest(pushing, "HEAD", remote="remote")  # no remote named
    assert [entry["path"] for entry in manifest["files"]] == ["src/extra.py"]
    monkeypatch.setenv("PRE_COMMIT_FROM_REF", "no-such-branch")
    result = run("pre-push", "--repo", pushing)
    assert (result.status, result.stderr) == (
        3,
        "git review-manifest: error: PRE_COMMIT_FROM_REF names no commit: no-such-branch\n",
    )


def test_pre_commit_without_a_range_checks_nothing_and_says_so(
    pushing: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PRE_COMMIT", "1")
    result = run("pre-push", "--repo", pushing, stdin=b"not read\n")
    assert (result.status, result.stderr) == (
        0,
        "gitreview: pre-commit gave no range to check (PRE_COMMIT_FROM_REF and "
        "PRE_COMMIT_TO_REF are unset): nothing checked; run it at the pre-push stage, or with "
        "--from-ref and --to-ref\n",
    )


def test_a_force_push_reviews_only_what_the_last_push_did_not(pushing: Path) -> None:
    body = "".join(f"# line {n}\n" for n in range(20))
    commit(pushing, "src/calc.py", f"def add(a, b):\n    return a + b\n{body}", "Add calc")
    status, stderr = push(pushing, "main")
    assert status == 0, stderr
    git(pushing, "checkout", "--quiet", "-b", "topic")
    commit(pushing, "src/calc.py", f"def add(a, b):\n    return b + a\n{body}", "Swap")
    status, stderr = push(pushing, "topic")
    assert status == 0, stderr
    # The commit is amended with a second change far below the first, and force-pushed.
    (pushing / "src/calc.py").write_text(
        f"def add(a, b):\n    return b + a\n{body}def sub(a, b):\n    return a - b\n"
    )
    git(pushing, "commit", "--quiet", "--amend", "-am", "Swap, and sub")
    status, stderr = push(pushing, "--force", "topic")
    assert status == 0, stderr
    summary = "gitreview: refs/heads/topic: 1 file (1 significant, 1 hunk reviewed on the last"
    assert f"{summary} push)" in stderr
    target = pushing / ".git" / "gitreview" / "pre-push" / "origin" / "refs" / "heads"
    manifest = json.loads((target / "topic.json").read_text())
    validate_manifest(manifest)
    [item] = [i for r in manifest["review"].values() for b in r["batches"] for i in b["handles"]]
    assert item["excerpt"] == "+def sub(a, b): ⏎ +return a - b"


def test_a_merged_unrelated_history_does_not_make_the_push_its_own_base(pushing: Path) -> None:
    # Found by an adversarial review: the oldest new commit was the unrelated history's
    # root, so the range had no base and the pushed configuration decided its review.
    git(pushing, "checkout", "--quiet", "--orphan", "other")
    git(pushing, "rm", "-rq", "--cached", ".")
    commit(pushing, ".gitreview.yml", "fail_on: never\n", "Never refuse")
    commit(pushing, "notes.txt", "<<<<<<< ours\na\n=======\nb\n>>>>>>> theirs\n", "Conflict")
    git(pushing, "checkout", "--quiet", "-f", "main")
    git(pushing, "checkout", "--quiet", "-b", "unrelated-merge")
    git(pushing, "merge", "--quiet", "--allow-unrelated-histories", "-m", "Merge", "other")
    status, stderr = push(pushing, "unrelated-merge")
    assert status != 0, stderr
    assert "text/conflict-marker" in stderr


def test_a_refused_push_is_no_last_push(pushing: Path) -> None:
    # Found by an adversarial review: its manifest was kept as the last push's, and the
    # next push marked its hunks reviewed.
    git(pushing, "checkout", "--quiet", "-b", "topic")
    commit(pushing, "src/calc.py", "def add(a, b):\n    return a + b\n", "Add calc")
    commit(pushing, "README.md", "# Greeting\n", "fixup! Add calc")
    status, _ = push(pushing, "topic")
    assert status != 0
    kept = pushing / ".git" / "gitreview" / "pre-push" / "origin" / "refs" / "heads"
    assert (kept / "topic.refused.json").is_file() and not (kept / "topic.json").exists()


def test_a_push_of_head_keeps_the_remote_branch_s_manifest(pushing: Path) -> None:
    # Found by an adversarial review: `git push origin HEAD` kept every branch's
    # manifest as `HEAD.json`, so one branch's review hid another's.
    git(pushing, "checkout", "--quiet", "-b", "topic")
    commit(pushing, "src/calc.py", "def add(a, b):\n    return a + b\n", "Add calc")
    status, stderr = push(pushing, "HEAD")
    assert status == 0, stderr
    kept = pushing / ".git" / "gitreview" / "pre-push" / "origin"
    assert (kept / "refs" / "heads" / "topic.json").is_file() and not (kept / "HEAD.json").exists()


def test_a_manifest_that_cannot_be_kept_refuses_no_push(pushing: Path) -> None:
    # Found by an adversarial review: `v1` kept as `v1.json`, then `v1.json/fix` pushed,
    # was an internal error that refused the push.
    git(pushing, "checkout", "--quiet", "-b", "v1")
    commit(pushing, "src/a.py", "A = 1\n", "Add a")
    assert push(pushing, "v1")[0] == 0
    git(pushing, "checkout", "--quiet", "-b", "v1.json/fix")
    commit(pushing, "src/b.py", "B = 1\n", "Add b")
    status, stderr = push(pushing, "v1.json/fix")
    assert status == 0, stderr
    assert "manifest not kept" in stderr
    # Found by an eleventh adversarial review: the summary named the file not kept.
    assert "; manifest: " not in stderr
    assert not [path for path in pushing.glob(".git/gitreview/pre-push/**/*.part")]
