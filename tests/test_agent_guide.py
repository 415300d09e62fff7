"""The README's guide for agent authors quotes real output (issue #13).

Its worked example is the repository of fixtures/repos/agent_guide.yml (the
handles name blobs, so they match the guide's shell commands on any machine);
each output the guide quotes after `$ COMMAND` is what the command prints.
"""

from pathlib import Path

from manifests import run
from repos import PROJECT_ROOT, RepoFactory

BRIEF = "git review-manifest v1..v2 --format brief --role default"
HANDLE = "app.py:2-3@7b4b74e7ee7b..f03f4aacbdbf"


def quoted(command: str) -> str:
    """What the guide shows after `$ COMMAND`, up to the next command or the block's end."""
    text = (PROJECT_ROOT / "README.md").read_text("utf-8")
    lines = text[text.index("## Guide for agent authors") :].splitlines()
    start = lines.index(f"$ {command}") + 1
    end = start
    while not lines[end].startswith(("$ ", "```")):
        end += 1
    return "".join(f"{line}\n" for line in lines[start:end])


def test_the_brief_show_and_explain_are_quoted_as_printed(fixture_repo: RepoFactory) -> None:
    repo = fixture_repo("agent_guide")
    brief = run("--repo", repo, "v1..v2", "--format", "brief", "--role", "default")
    assert brief.status == 0
    assert quoted(BRIEF) == brief.stdout
    show = run("show", "--repo", repo, "--context", "1", HANDLE)
    assert quoted(f"git review-manifest show --context 1 '{HANDLE}'") == show.stdout
    explain = run("explain", "--repo", repo, "README.md", "v1..v2")
    assert quoted("git review-manifest explain README.md v1..v2") == explain.stdout


def test_verify_is_quoted_as_printed(fixture_repo: RepoFactory, tmp_path: Path) -> None:
    repo = fixture_repo("agent_guide")
    manifest = tmp_path / "manifest.json"
    assert run("--repo", repo, "v1..v2", "-o", manifest).status == 0
    for answer in ("answer.md", "lazy.md"):
        (tmp_path / answer).write_text(quoted(f"cat {answer}"), "utf-8")
        result = run("verify", "--role", "default", manifest, tmp_path / answer)
        shown = f"git review-manifest verify --role default manifest.json {answer}; echo $?"
        assert quoted(shown) == f"{result.stdout}{result.stderr}{result.status}\n", answer
    assert quoted("git review-manifest verify --role default manifest.json lazy.md; echo $?") == (
        "test_app.py:6-6@0f799280734e..ee455bda54da\n"
        "verify: 1 of 2 handles of role 'default' not read\n"
        "1\n"
    )
