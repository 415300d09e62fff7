"""The manual page (issue #13): `git review-manifest --help` opens it, and it says
exactly what the argument parsers accept."""

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from repos import PROJECT_ROOT

from gitreview import manpage
from gitreview.usage import commands

PAGE = PROJECT_ROOT / manpage.MANPAGE


def test_the_committed_page_is_the_one_the_parsers_give() -> None:
    assert PAGE.read_text("utf-8") == manpage.render(), (
        f"{manpage.MANPAGE} is out of date with the argument parsers of gitreview/cli.py: "
        f"regenerate it with `{manpage.REGENERATE}` and commit it"
    )


def test_every_option_of_every_parser_is_in_its_section() -> None:
    page = manpage.render()
    parsed = commands()
    names = [command.name for command in parsed[1:]]
    assert names[:6] == ["show", "explain", "verify", "ci", "pre-push", "install-hook"]
    assert "completion" in names
    # The manifest command's options come before SUBCOMMANDS, each subcommand's in its .SS.
    parts = re.split(r"^\.SS (.*)$", page.split("\n.SH SUBCOMMANDS\n")[1], flags=re.M)
    sections = {"": page.split("\n.SH SUBCOMMANDS\n")[0]}
    sections |= {
        heading.replace("\\-", "-"): body
        for heading, body in zip(parts[1::2], parts[2::2], strict=True)
    }
    assert list(sections) == ["", *names]
    for command in parsed:
        section = sections[command.name]
        for argument in (*command.options, *command.positionals):
            for flag in argument.flags:
                assert f"\\fB{flag.replace('-', chr(92) + '-')}\\fR" in section, (command, flag)
            if argument.metavar:
                assert f"\\fI{argument.metavar}\\fR" in section, (command, argument)
            for choice in argument.choices:
                assert choice in section, (command, choice)


def test_the_generator_writes_the_file(tmp_path: Path) -> None:
    target = tmp_path / "page.1"
    result = subprocess.run(
        [sys.executable, "-m", "gitreview.manpage", "-o", str(target)],
        capture_output=True,
        check=False,
    )
    assert (result.returncode, result.stderr) == (0, b"")
    assert target.read_text("utf-8") == manpage.render()


def test_it_installs_under_share_man_man1() -> None:
    project = tomllib.loads((PROJECT_ROOT / "pyproject.toml").read_text("utf-8"))
    data_files = project["tool"]["setuptools"]["data-files"]
    assert data_files["share/man/man1"] == [manpage.MANPAGE]


@pytest.mark.skipif(shutil.which("man") is None, reason="no man on this machine")
def test_git_help_opens_it(tmp_path: Path) -> None:
    # As after `pip install .`: PREFIX/bin on PATH, the page in PREFIX/share/man/man1.
    prefix = tmp_path / "prefix"
    (prefix / "share" / "man" / "man1").mkdir(parents=True)
    shutil.copy(PAGE, prefix / "share" / "man" / "man1")
    (prefix / "bin").mkdir()
    (prefix / "bin" / "git-review-manifest").symlink_to(
        Path(sys.executable).parent / "git-review-manifest"
    )
    env = {name: value for name, value in os.environ.items() if name != "MANPATH"}
    env |= {"PATH": f"{prefix / 'bin'}{os.pathsep}{env['PATH']}", "MANPAGER": "cat"}
    env |= {"MANWIDTH": "80", "LC_ALL": "C.UTF-8"}
    result = subprocess.run(
        ["git", "review-manifest", "--help"], env=env, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["GIT-REVIEW-MANIFEST(1)", "Git", "Manual", "GIT-REVIEW-MANIFEST(1)"]
    assert "       git review-manifest show [-h] [--repo PATH]" in result.stdout
    warnings = subprocess.run(
        ["man", "--warnings", "-l", str(PAGE)], env=env, capture_output=True, check=False
    )
    assert warnings.stderr == b""
