"""Shell completion (issue #13): the scripts load in bash and zsh, and completing a
few words gives the expected candidates, through git's own bash completion
(`git review-manifest ...`) and for `git-review-manifest` typed as a command."""

import shlex
import shutil
import subprocess
from pathlib import Path

import pytest
from manifests import run
from repos import RepoFactory, isolated_environment

from gitreview.completion import script

# Where distributions put git's bash completion (Debian's git package: the first).
GIT_COMPLETIONS = (
    Path("/usr/share/bash-completion/completions/git"),
    Path("/usr/share/git/completion/git-completion.bash"),
    Path("/usr/share/git-core/contrib/completion/git-completion.bash"),
    Path("/etc/bash_completion.d/git"),
)
GIT_COMPLETION = next((path for path in GIT_COMPLETIONS if path.is_file()), None)
FORMATS = ["json", "text", "full", "markdown", "github", "sarif", "brief"]


@pytest.fixture
def scripts(tmp_path: Path) -> Path:
    for shell in ("bash", "zsh"):
        result = run("completion", shell)
        assert (result.status, result.stderr) == (0, "")
        assert result.stdout == script(shell)
        (tmp_path / f"completion.{shell}").write_text(result.stdout, "utf-8")
    return tmp_path


def bash_complete(
    repo: Path, scripts: Path, lines: list[str], *, through_git: bool
) -> dict[str, list[str]]:
    """COMPREPLY for each line (the cursor at its end), from the function `complete`
    registered for its first word, as bash calls it on TAB; one bash for all."""
    program = [f"source {shlex.quote(str(GIT_COMPLETION))}"] if through_git else []
    program.append(f"source {shlex.quote(str(scripts / 'completion.bash'))}")
    for line in lines:
        words = line.split(" ")
        program += [
            f"COMP_WORDS=({' '.join(shlex.quote(word) for word in words)})",
            f"COMP_CWORD={len(words) - 1}",
            f"COMP_LINE={shlex.quote(line)}",
            "COMP_POINT=${#COMP_LINE}",
            "COMPREPLY=()",
            'spec=$(complete -p "${COMP_WORDS[0]}") || exit 3',
            "function=${spec##*-F }; function=${function%% *}",
            '"$function" "${COMP_WORDS[0]}" "${COMP_WORDS[COMP_CWORD]}" '
            '"${COMP_WORDS[COMP_CWORD-1]}"',
            'printf "%s\\n" "${COMPREPLY[@]}" "<end>"',
        ]
    result = subprocess.run(
        ["bash", "--norc", "--noprofile", "-c", "\n".join(program)],
        cwd=repo,
        env=isolated_environment(),
        capture_output=True,
        text=True,
        check=False,
    )
    assert (result.returncode, result.stderr) == (0, ""), result.stderr
    replies = result.stdout.split("<end>\n")
    assert replies[-1] == "" and len(replies) == len(lines) + 1
    return {
        line: sorted(word for word in reply.split("\n") if word)
        for line, reply in zip(lines, replies, strict=False)
    }


@pytest.mark.skipif(GIT_COMPLETION is None, reason="git's bash completion is not installed")
def test_bash_through_git_s_completion(writable_repo: RepoFactory, scripts: Path) -> None:
    expected = {
        "git review-manifest sh": ["show "],
        "git review-manifest --fo": ["--format "],
        "git review-manifest --format ": sorted(f"{name} " for name in FORMATS),
        "git review-manifest --format=ma": ["markdown "],
        "git review-manifest --fail-on w": ["warning "],
        "git review-manifest completion ": ["bash ", "zsh "],
        "git review-manifest show --n": ["--new "],
        "git review-manifest install-hook --f": ["--force "],
        # Revisions come from git's own completion, which knows ranges.
        "git review-manifest fe": ["feature ", "feature-tip "],
        "git review-manifest main..feature-": ["main..feature-tip "],
        "git review-manifest main...fo": ["main...fork "],
        "git review-manifest --repo . ma": ["main "],
        "git review-manifest explain src/app.py ma": ["main "],
    }
    repo = writable_repo("branches")
    lines = [*expected, "git review-manifest "]
    replies = bash_complete(repo, scripts, lines, through_git=True)
    first = set(replies.pop("git review-manifest "))
    assert replies == expected
    assert {"show ", "explain ", "completion ", "main ", "feature "} <= first


def test_bash_as_a_command_of_its_own(writable_repo: RepoFactory, scripts: Path) -> None:
    expected = {
        "git-review-manifest ex": ["explain "],
        "git-review-manifest --format s": ["sarif "],
        "git-review-manifest -o": ["-o "],
        "git-review-manifest --output ": [],  # bash's own file names
        "git-review-manifest fe": ["feature ", "feature-tip "],
        "git-review-manifest main...feature-": ["main...feature-tip "],
        "git-review-manifest verify --r": ["--role "],
    }
    repo = writable_repo("branches")
    assert bash_complete(repo, scripts, list(expected), through_git=False) == expected


@pytest.mark.skipif(shutil.which("zsh") is None, reason="zsh is not installed")
def test_zsh_loads_it_both_ways(scripts: Path, tmp_path: Path) -> None:
    functions = tmp_path / "functions"
    functions.mkdir()
    shutil.copy(scripts / "completion.zsh", functions / "_git-review-manifest")
    program = "\n".join(
        [
            # Autoloaded from $fpath, as the README installs it.
            f"fpath=({shlex.quote(str(functions))} $fpath)",
            "autoload -Uz compinit && compinit -u -d " + shlex.quote(str(tmp_path / "dump")),
            'print -r -- "autoload: $_comps[git-review-manifest]"',
            # Sourced after compinit, as `source <(git review-manifest completion zsh)`.
            "unset '_comps[git-review-manifest]'",
            f"source {shlex.quote(str(scripts / 'completion.zsh'))}",
            'print -r -- "source: $_comps[git-review-manifest]"',
            'print -r -- "function: $+functions[_git-review-manifest]"',
        ]
    )
    result = subprocess.run(
        ["zsh", "-f", "-c", program],
        env=isolated_environment(),
        capture_output=True,
        text=True,
        check=False,
    )
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout == (
        "autoload: _git-review-manifest\nsource: _git-review-manifest\nfunction: 1\n"
    )


def test_unknown_shell() -> None:
    result = run("completion", "fish")
    assert result.status == 2
    assert result.stderr.endswith(
        "git review-manifest completion: error: argument shell: invalid choice: 'fish' "
        "(choose from 'bash', 'zsh') (hint: git review-manifest completion --help)\n"
    )


@pytest.mark.skipif(shutil.which("zsh") is None, reason="zsh is not installed")
def test_zsh_offers_the_expected_candidates(
    writable_repo: RepoFactory, scripts: Path, tmp_path: Path
) -> None:
    expected = {
        "git-review-manifest --format s": ["sarif"],
        "git-review-manifest --fail-on=w": ["--fail-on=warning"],
        "git review-manifest comp": ["completion"],  # through zsh's own _git
        "git review-manifest completion ": ["bash", "zsh"],
        "git review-manifest show --": ["--context", "--help", "--new", "--repo"],
        "git-review-manifest fe": ["feature", "feature-tip"],
        "git-review-manifest main..feature-": ["main..feature-tip"],
        "git review-manifest main...fo": ["main...fork"],
        "git-review-manifest explain src/app.py ma": ["main"],
    }
    functions = tmp_path / "functions"
    functions.mkdir()
    shutil.copy(scripts / "completion.zsh", functions / "_git-review-manifest")
    repo = writable_repo("branches")
    dump = str(tmp_path / "compdump")
    result = subprocess.run(
        ["zsh", "-f", str(Path(__file__).parent / "complete.zsh"), str(functions), dump, *expected],
        cwd=repo,
        env=isolated_environment(),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert (result.returncode, result.stderr) == (0, "")
    replies = result.stdout.split("<end>\n")
    assert replies[-1] == ""
    got = {
        typed: sorted({word.strip() for word in reply.split("\n") if word.strip()})
        for typed, reply in zip(expected, replies, strict=False)
    }
    assert got == expected
