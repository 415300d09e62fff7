"""The command as users run it: a git subcommand, its options, determinism, its errors."""

import argparse
import gc
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from manifests import run, validate_manifest
from repos import RepoFactory, before_and_after, build_repo, isolated_environment, two_commits

import gitreview
from gitreview import build_manifest, cli


def git_subcommand(
    cwd: Path, *args: str, git_options: tuple[str, ...] = ()
) -> subprocess.CompletedProcess[bytes]:
    """`git [GIT_OPTIONS] review-manifest ...`, found by git on PATH like any user's."""
    scripts = Path(sys.executable).parent
    env = {**os.environ, "PATH": f"{scripts}{os.pathsep}{os.environ['PATH']}"}
    command = ["git", *git_options, "review-manifest", *args]
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, check=False)


def test_runs_as_a_git_subcommand(fixture_repo: RepoFactory) -> None:
    repo = fixture_repo("kinds")
    result = git_subcommand(repo, "v1..v2")
    assert result.returncode == 0, result.stderr
    assert result.stderr == b""
    assert result.stdout.decode() == run("--repo", repo, "v1..v2").stdout


def test_git_dir_given_to_git_names_the_repository(
    fixture_repo: RepoFactory, tmp_path: Path
) -> None:
    """`git --git-dir=X review-manifest` reviews X, as any git subcommand does: git
    passes it on as GIT_DIR. From a folder outside any repository, and from another
    repository, whose own is not the one reviewed."""
    repo = fixture_repo("kinds")
    expected = run("--repo", repo, "v1..v2").stdout
    other = fixture_repo("moves")
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    for cwd in (outside, other):
        result = git_subcommand(cwd, "v1..v2", git_options=(f"--git-dir={repo / '.git'}",))
        assert (result.returncode, result.stderr) == (0, b""), result.stderr
        assert result.stdout.decode() == expected
    missing = git_subcommand(outside, "v1..v2", git_options=(f"--git-dir={tmp_path / 'none'}",))
    assert missing.returncode == 3
    error = missing.stderr.decode()
    assert error.count("\n") == 1 and f"not a git repository: {tmp_path / 'none'}" in error


def test_same_bytes_on_every_run_and_every_clone(tmp_path: Path) -> None:
    one = build_repo("kinds", tmp_path / "one")
    two = build_repo("kinds", tmp_path / "two")
    first = git_subcommand(one, "v1..v2").stdout
    assert first == git_subcommand(one, "v1..v2").stdout
    assert first == git_subcommand(two, "v1..v2").stdout
    assert first.endswith(b"}\n") and first.count(b"\n") == 1


def test_public_function_gives_the_command_s_manifest(fixture_repo: RepoFactory) -> None:
    repo = fixture_repo("kinds")
    manifest = build_manifest(repo, "v1..v2")
    validate_manifest(manifest)
    assert manifest == run("--repo", repo, "v1..v2").manifest


def test_version() -> None:
    result = run("--version")
    assert (result.status, result.stdout) == (0, f"git review-manifest {gitreview.__version__}\n")


def test_help_names_the_ranges_and_exit_statuses() -> None:
    result = run("--help")
    assert result.status == 0
    for text in ("A..B", "A...B", "upstream", "--patch", "show HANDLE", "70 internal error"):
        assert text in " ".join(result.stdout.split()), text


def test_output_file(fixture_repo: RepoFactory, tmp_path: Path) -> None:
    repo = fixture_repo("kinds")
    target = tmp_path / "manifest.json"
    result = run("--repo", repo, "v1..v2", "-o", target)
    assert (result.status, result.stdout, result.stderr) == (0, "", "")
    assert target.read_text("utf-8") == run("--repo", repo, "v1..v2").stdout


def test_text_summary(fixture_repo: RepoFactory) -> None:
    repo = fixture_repo("whitespace")
    result = run("--repo", repo, "v1..v2", "--format", "text")
    assert result.status == 0
    lines = result.stdout.splitlines()
    assert lines[0].startswith("v1..v2  ") and lines[0].endswith("  1 commit")
    assert (
        lines[1] == "files: 30 (17 significant, 13 trivial)  hunks: 31 (16 significant, 15 trivial)"
    )
    assert lines[4].startswith("findings: 0 error, 0 warning, ")
    assert lines[3].startswith("lines: ")
    assert any(
        line.split()[:2] == ["trivial", "modified"] and "py/eof.py" in line for line in lines
    )
    assert "\x1b[" not in result.stdout  # no colour when not on a terminal


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--format", "yaml"), "argument --format: invalid choice: 'yaml'"),
        (("show",), "no handle given: give handles as arguments, or one per line on stdin"),
        (("show", "x@abcd", "--context", "-1"), "--context must be 0 or more"),
        (("a", "b"), "unrecognized arguments: b"),
    ],
)
def test_usage_errors(args: tuple[str, ...], message: str) -> None:
    result = run(*args)
    assert result.status == 2
    assert message in result.stderr
    assert result.stderr.count("\n") == 1  # one line: not argparse's usage block first


def test_the_program_exits_with_main_s_status_its_objects_frozen(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The program is `main` without the cyclic collector, then out with its status;
    every object is frozen first, so the interpreter's last collection does not look
    through them for cycles."""
    args = ["--repo", str(tmp_path), "HEAD"]  # not a repository: main returns its status
    status = cli.main(args)
    assert status != 0
    monkeypatch.setattr(sys, "argv", ["git-review-manifest", *args])
    collecting: list[bool] = []

    def main(given: list[str]) -> int:
        assert given == args
        collecting.append(gc.isenabled())
        return status

    monkeypatch.setattr(cli, "main", main)
    try:
        with pytest.raises(SystemExit) as stopped:
            cli.run()
        assert stopped.value.code == status
        assert collecting == [False]
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        gc.enable()
    module = subprocess.run([sys.executable, "-m", "gitreview", *args], capture_output=True)
    assert module.returncode == status
    assert module.stderr.startswith(b"git review-manifest: error: ")


def test_a_bug_is_one_line_without_a_traceback(
    fixture_repo: RepoFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: object, **kwargs: object) -> object:
        raise RuntimeError("boom")

    monkeypatch.delenv("GITREVIEW_DEBUG", raising=False)
    monkeypatch.setattr("gitreview.commands.manifest.review_of_range", broken)
    result = run("--repo", fixture_repo("kinds"), "v1..v2")
    assert result.status == 70
    assert result.stderr == (
        "git review-manifest: internal error: RuntimeError: boom "
        "(set GITREVIEW_DEBUG=1 for the traceback, and please report it)\n"
    )


def test_a_branch_named_like_a_subcommand_goes_after_a_double_dash(
    writable_repo: RepoFactory,
) -> None:
    repo = writable_repo("branches")
    subprocess.run(["git", "-C", str(repo), "branch", "show", "fork"], check=True)
    result = run("--repo", repo, "--", "show")
    assert result.status == 0, result.stderr
    assert result.manifest["range"]["spec"] == "show"


def test_progress_bar_only_on_a_terminal(fixture_repo: RepoFactory) -> None:
    import io

    from gitreview.pipeline import classify_range, manifest_of
    from gitreview.render.progress import progress_bar

    assert progress_bar(io.StringIO()) is None  # not a terminal: nothing extra
    shown = io.StringIO()
    outcome = classify_range(
        fixture_repo("kinds"), "v1..v2", progress=progress_bar(shown, force=True)
    )
    manifest = manifest_of(outcome)
    assert outcome.files == []  # let go as their entries were made (issue 12)
    assert "files" in shown.getvalue()
    assert manifest == run("--repo", fixture_repo("kinds"), "v1..v2").manifest


# Modules an everyday run has no use for, each a few ms of start-up (issue 12):
# argparse imports shutil to size its help, importlib.resources brings tempfile and
# random, html.parser serves only pages with raw HTML, difflib only compared
# Markdown sections and broken anchors. gitreview makes no dataclass (a millisecond
# each); markdown-it-py does, when a page is parsed.
STARTUP_UNNEEDED = ("shutil", "importlib.resources", "tempfile", "html.parser")
WITHOUT_MARKDOWN = (*STARTUP_UNNEEDED, "difflib", "dataclasses")


@pytest.mark.parametrize(
    ("fixture", "unneeded"),
    [
        ("kinds", STARTUP_UNNEEDED),  # Python, Markdown, YAML, a rename, a copy
        ("meaning", WITHOUT_MARKDOWN),  # Python, YAML, JSON, TOML
    ],
)
def test_an_everyday_run_imports_nothing_it_does_not_use(
    fixture_repo: RepoFactory, fixture: str, unneeded: tuple[str, ...]
) -> None:
    repo = fixture_repo(fixture)
    code = (
        "import sys\n"
        "from gitreview.cli import main\n"
        f"status = main(['--repo', {str(repo)!r}, 'v1..v2', '--no-cache', '-o', {os.devnull!r}])\n"
        f"print(sorted(set({unneeded!r}) & set(sys.modules)))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, check=True, env=isolated_environment()
    ).stdout
    assert out.decode().splitlines()[-1] == "[]"


@pytest.mark.parametrize("columns", [None, "", "abc", "0", "-3", "37", "200"])
def test_help_is_as_wide_as_argparse_makes_it(
    columns: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Sized without shutil, the help has the width shutil gives argparse."""
    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", columns)
    ours = cli._parser(prog="p", description="word " * 60)
    ours.add_argument("--option", help="help " * 40)
    theirs = argparse.ArgumentParser(prog="p", description="word " * 60)
    theirs.add_argument("--option", help="help " * 40)
    assert ours.format_help() == theirs.format_help()


@pytest.mark.parametrize(
    "args", [("HEAD",), ("HEAD", "--format", "brief"), ("explain", "a.py", "HEAD")]
)
def test_an_output_that_cannot_be_written_is_one_line(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    # Found by an adversarial review: a full disk or a closed stdout was an internal
    # error (70) asking for a bug report.
    repo = before_and_after(tmp_path / "repo", "a.py", "a = 1\n", "a = 2\n")
    program = shlex.join([sys.executable, "-m", "gitreview", *args])
    for redirect, message in (
        ("> /dev/full", "cannot write the output: No space left on device"),
        (">&-", "standard output is closed"),
    ):
        result = subprocess.run(
            ["sh", "-c", f"{program} {redirect}"], cwd=repo, capture_output=True, check=False
        )
        assert (result.returncode, result.stderr.decode()) == (
            2,
            f"git review-manifest: error: {message}\n",
        ), redirect


def test_any_locale_gets_utf_8(tmp_path: Path) -> None:
    # Found by an adversarial review: with LC_ALL=C and no UTF-8 mode, a name holding
    # `é` (or the brief's `·`) stopped the run with an encoding error, and `explain`
    # of its handle found nothing.
    repo = before_and_after(tmp_path / "repo", "é.py", "a = 1\n", "a = 2\n")
    env = {**os.environ, "LC_ALL": "C", "PYTHONUTF8": "0", "PYTHONIOENCODING": ""}
    for args in (("HEAD",), ("HEAD", "--format", "brief"), ("explain", "é.py", "HEAD")):
        result = subprocess.run(
            [sys.executable, "-m", "gitreview", *args], cwd=repo, env=env, capture_output=True
        )
        assert result.returncode == 0, result.stderr
        assert "é.py" in result.stdout.decode("utf-8"), args


def test_a_file_name_that_is_no_utf_8_still_opens(tmp_path: Path) -> None:
    # A review of the fix: arguments read as UTF-8 made a Latin-1 name `caf\xe9`.
    repo = before_and_after(tmp_path / "repo", "a.py", "a = 1\n", "a = 2\n")
    patch = subprocess.run(["git", "-C", str(repo), "diff", "HEAD~1"], capture_output=True).stdout
    name = os.fsdecode(b"caf\xe9.patch")
    (tmp_path / name).write_bytes(patch)
    result = subprocess.run(
        [sys.executable, "-m", "gitreview", "--patch", name], cwd=tmp_path, capture_output=True
    )
    assert result.returncode == 0, result.stderr


def test_a_repository_s_fsmonitor_command_is_never_run(tmp_path: Path) -> None:
    # Found by an adversarial review: git ran core.fsmonitor as gitreview read the
    # range, and a repository under review may carry a folder set up as one.
    repo = before_and_after(tmp_path / "repo", "a.py", "a = 1\n", "a = 2\n")
    ran = tmp_path / "ran"
    hook = tmp_path / "monitor.sh"
    hook.write_text(f"#!/bin/sh\ntouch {ran}\n")
    hook.chmod(0o755)
    subprocess.run(["git", "-C", str(repo), "config", "core.fsmonitor", str(hook)], check=True)
    for args in (("HEAD",), ("HEAD", "--format", "brief"), ("--no-cache", "HEAD")):
        result = subprocess.run(
            [sys.executable, "-m", "gitreview", *args], cwd=repo, capture_output=True
        )
        assert result.returncode == 0, result.stderr
    assert not ran.exists()


def test_a_partial_clone_s_missing_object_is_never_fetched(tmp_path: Path) -> None:
    # Found by an adversarial review: `git ls-tree -r` fetched a promisor's missing
    # tree, by the repository's own core.sshCommand.
    old = {"app.py": "import json\nimport os\n\nprint(os, json)\n", "sub/x.txt": "x\n"}
    new = {"app.py": "import os\nimport json\n\nprint(os, json)\n"}
    repo = two_commits(tmp_path / "repo", old, new)
    tree = subprocess.run(
        ["git", "-C", str(repo), "rev-parse", "HEAD:sub"], capture_output=True, text=True
    ).stdout.strip()
    (repo / ".git" / "objects" / tree[:2] / tree[2:]).unlink()
    ran = tmp_path / "ran"
    for key, value in (
        ("core.repositoryformatversion", "1"),
        ("extensions.partialClone", "origin"),
        ("remote.origin.url", "ssh://example.invalid/x.git"),
        ("remote.origin.promisor", "true"),
        ("core.sshCommand", f"touch {ran}; false"),
    ):
        subprocess.run(["git", "-C", str(repo), "config", key, value], check=True)
    subprocess.run(
        [sys.executable, "-m", "gitreview", "--no-cache", "HEAD~1..HEAD"],
        cwd=repo,
        capture_output=True,
    )
    assert not ran.exists()


def test_a_broken_pipe_to_git_is_no_reader_gone(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A pipe to one of git's processes broke: the run wrote nothing and ended with
    exit 0, as if the output's reader had gone (found by a review)."""
    from gitreview import cli

    def broken(args: list[str]) -> int:
        raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(cli, "_manifest", broken)
    out = tmp_path / "out.txt"
    with out.open("w") as stream:
        monkeypatch.setattr("sys.stdout", stream)
        assert cli.main(["HEAD"]) == 70
    assert "internal error" in capsys.readouterr().err
