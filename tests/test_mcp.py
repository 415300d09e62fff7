"""`git review-manifest mcp`: the stdio MCP server, driven by the SDK's own client (issue #13).

Each test starts the real console script from this environment as a subprocess
and talks to it over stdin and stdout; each call is bounded in time. Every
tool's text is compared with what the command line prints for the same
question, so the server can only say what the command says.
"""

import json
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

import anyio
import pytest
from manifests import Result, review_items, run
from mcp import Client, StdioServerParameters, stdio_client
from mcp.types import CallToolResult, TextContent, Tool
from repos import RepoFactory, isolated_environment

COMMAND = str(Path(sys.executable).parent / "git-review-manifest")
SESSION_SECONDS = 120  # the whole session: start, every call, shutdown
CALL_SECONDS = 60
TOOLS = {"brief", "summary", "show", "explain", "verify"}


def serve(
    cwd: Path,
    args: list[str],
    calls: Callable[[Client], Awaitable[None]],
    errlog: Path,
    env: dict[str, str] | None = None,
) -> None:
    """Start `git review-manifest mcp ARGS` in `cwd` and run `calls` against it;
    what the server prints on stderr goes to `errlog`."""
    params = StdioServerParameters(
        command=COMMAND, args=["mcp", *args], cwd=cwd, env=isolated_environment(env)
    )

    async def session() -> None:
        with anyio.fail_after(SESSION_SECONDS), errlog.open("w") as log:
            transport = stdio_client(params, errlog=log)
            async with Client(transport, read_timeout_seconds=CALL_SECONDS) as client:
                await calls(client)

    anyio.run(session)


def texts(result: CallToolResult) -> list[str]:
    return [block.text for block in result.content if isinstance(block, TextContent)]


def cli(*args: str | Path) -> Result:
    """The command line's answer to the same question (findings may exit 1)."""
    result = run(*args)
    assert result.status in (0, 1), result.stderr
    return result


def test_the_tools_answer_as_the_command_line_does(
    fixture_repo: RepoFactory, tmp_path: Path
) -> None:
    repo = fixture_repo("roles")
    manifest = cli("--repo", repo, "v1..v2").manifest
    docs, security = review_items(manifest, "docs"), review_items(manifest, "security")
    handles = [security[0]["handle"], docs[0]["handle"]]
    answers: dict[str, CallToolResult] = {}
    lazy: dict[str, CallToolResult] = {}
    tools: list[Tool] = []

    async def calls(client: Client) -> None:
        listed = await client.list_tools()
        tools.extend(listed.tools)
        answers["brief docs"] = await client.call_tool("brief", {"range": "v1..v2", "role": "docs"})
        answers["briefs"] = await client.call_tool("brief", {"range": "v1..v2", "budget": 60})
        answers["summary"] = await client.call_tool("summary", {"range": "v1..v2"})
        answers["show"] = await client.call_tool("show", {"handles": handles, "context": 2})
        answers["explain"] = await client.call_tool(
            "explain", {"target": "src/util.py", "range": "v1..v2"}
        )
        read = ", ".join(f"`{item['handle']}`" for item in docs)
        answers["verify"] = await client.call_tool(
            "verify",
            {"answer": f"Fine.\nHandles read: {read}\n", "role": "docs", "range": "v1..v2"},
        )
        lazy["verify"] = await client.call_tool(
            "verify", {"answer": "Fine.\n", "role": "security", "range": "v1..v2"}
        )

    # No --repo: the server's working directory is the default repository.
    serve(repo, [], calls, tmp_path / "stderr")

    by_name = {tool.name: tool for tool in tools}
    assert set(by_name) == TOOLS
    for tool in tools:
        assert tool.annotations is not None and tool.annotations.read_only_hint, tool.name
        assert tool.description and len(tool.description) > 200, tool.name  # said for a model
        for name, parameter in tool.input_schema["properties"].items():
            assert parameter.get("description"), (tool.name, name)
    assert by_name["show"].input_schema["required"] == ["handles"]
    assert by_name["explain"].input_schema["required"] == ["target"]
    assert "required" not in by_name["brief"].input_schema
    assert not any(answer.is_error for answer in answers.values())

    brief = cli("--repo", repo, "v1..v2", "--format", "brief", "--role", "docs").stdout
    assert texts(answers["brief docs"]) == [brief]
    briefs = cli("--repo", repo, "v1..v2", "--format", "brief", "--budget", "60").stdout
    assert texts(answers["briefs"]) == [briefs]
    shown = cli("show", "--repo", repo, "--context", "2", *handles).stdout
    assert texts(answers["show"]) == [shown]
    explained = cli("explain", "--repo", repo, "src/util.py", "v1..v2").stdout
    assert texts(answers["explain"]) == [explained]
    assert texts(answers["verify"]) == ["every handle of role 'docs' is listed as read\n"]
    assert lazy["verify"].is_error
    assert texts(lazy["verify"]) == [
        "".join(f"{item['handle']}\n" for item in security),
        "git review-manifest: error: the answer has no 'Handles read:' line: none of the 3 "
        "handles of role 'security' is confirmed read\n"
        "git review-manifest: error: 3 of 3 handles of role 'security' not read\n",
    ]

    [text] = texts(answers["summary"])
    summary = json.loads(text)
    assert "files" not in summary
    for key in ("schema_version", "range", "summary", "tokens", "ledger", "findings"):
        assert summary[key] == manifest[key], key
    assert summary["findings"] == [
        {
            "rule": "text/secret",
            "severity": "error",
            "path": "config/settings.py",
            "line": 2,
            "message": "GitHub token added (value redacted)",
        }
    ]
    assert list(summary["review"]) == ["docs", "security", "default"]
    docs_share = summary["review"]["docs"]
    assert docs_share == {
        "handles": 1,
        "files": 1,
        "lines": 6,
        "tokens": manifest["review"]["docs"]["tokens"],
        "brief": manifest["review"]["docs"]["brief"],
        "batches": 1,
    }
    assert summary["review"]["security"]["findings"] == 1
    assert len(text) < len(json.dumps(manifest)) / 2


def test_mistakes_are_tool_errors_with_the_command_lines_message(
    fixture_repo: RepoFactory, tmp_path: Path
) -> None:
    repo = fixture_repo("roles")
    manifest = cli("--repo", repo, "v1..v2").manifest
    good = review_items(manifest, "docs")[0]["handle"]
    unknown_blob = "src/app.py:1-2@0123456789ab..fedcba987654"
    answers: dict[str, CallToolResult] = {}

    async def calls(client: Client) -> None:
        answers["show"] = await client.call_tool("show", {"handles": [unknown_blob, good]})
        answers["revision"] = await client.call_tool("brief", {"range": "nope..v2"})
        answers["role"] = await client.call_tool("brief", {"range": "v1..v2", "role": "qa"})
        # A review of the fix: a misspelt role was taken for one with nothing.
        answers["verify role"] = await client.call_tool(
            "verify", {"answer": "Handles read: none\n", "role": "securty", "range": "v1..v2"}
        )
        answers["explain"] = await client.call_tool(
            "explain", {"target": "nothing.py", "range": "v1..v2"}
        )
        answers["not a repository"] = await client.call_tool(
            "summary", {"range": "v1..v2", "repo": str(tmp_path)}
        )
        answers["budget"] = await client.call_tool("brief", {"range": "v1..v2", "budget": 0})
        # Still serving after all of them.
        answers["after"] = await client.call_tool("summary", {"range": "v1..v2"})

    serve(tmp_path, ["--repo", str(repo)], calls, tmp_path / "stderr")

    prefix = "git review-manifest: error: "
    shown = answers["show"]
    assert shown.is_error
    assert texts(shown) == [
        cli("show", "--repo", repo, good).stdout,
        f"{prefix}unknown handle {unknown_blob!r}: no blob 0123456789ab in this repository "
        "(hint: handles resolve in the repository the manifest was built from; fetch its "
        "commits)\n",
    ]
    status_and_lines = run("show", "--repo", repo, unknown_blob, good)
    assert status_and_lines.status == 6
    assert texts(shown)[1] == status_and_lines.stderr
    assert texts(answers["revision"]) == [f"{prefix}unknown revision: nope\n"]
    assert texts(answers["role"]) == [
        f"{prefix}no role 'qa' in this review (the roles: docs, security, default, perf)\n"
    ]
    assert texts(answers["explain"]) == [
        f"{prefix}'nothing.py' names no file or hunk of v1..v2 (hint: give the range the "
        "manifest was built for, and a handle or path from it)\n"
    ]
    [not_repository] = texts(answers["not a repository"])
    assert not_repository == run("--repo", tmp_path, "v1..v2").stderr
    assert not_repository.startswith(f"{prefix}not a git repository")
    assert texts(answers["verify role"]) == [
        f"{prefix}no role 'securty' in this review (the roles: docs, security, default, perf)\n"
    ]
    for name in ("revision", "role", "verify role", "explain", "not a repository", "budget"):
        assert answers[name].is_error, name
    assert "budget" in texts(answers["budget"])[0]
    assert not answers["after"].is_error
    assert "Traceback" not in (tmp_path / "stderr").read_text()


def test_a_proof_past_its_limit_is_timed_out_in_a_tool_call(tmp_path: Path) -> None:
    """Found by an adversarial review: the SDK runs a tool in a thread, where no timer
    can end a proof, so a slow file held the call past `proof_seconds`, beyond
    cancelling, and the server past the end of its input. One worker proves a small
    range there, timed by the server: the file is reported timed out, the rest reviewed."""
    from repos import commits

    repo = commits(
        tmp_path / "repo",
        {".gitreview.yml": "proof_seconds: 2\n", "a.txt": "A.\n", "b.txt": "B.\n"},
        {"a.txt": "A, longer.\n", "b.txt": "B, longer.\n"},
    )
    answers: dict[str, CallToolResult] = {}

    async def calls(client: Client) -> None:
        answers["summary"] = await client.call_tool("summary", {"range": "HEAD~1..HEAD"})

    hang = {"GITREVIEW_TEST_HANG": "b.txt"}  # tests only: that proof hangs
    serve(tmp_path, ["--repo", str(repo)], calls, tmp_path / "stderr", env=hang)
    assert not answers["summary"].is_error, texts(answers["summary"])
    summary = json.loads(texts(answers["summary"])[0])
    assert summary["summary"]["files"] == {"total": 2, "trivial": 0, "significant": 2}


def test_a_wrong_repo_option_is_one_line_before_serving(tmp_path: Path) -> None:
    result = run("mcp", "--repo", tmp_path / "missing")
    assert result.status == 3
    assert result.stdout == ""
    assert result.stderr == run("--repo", tmp_path / "missing", "HEAD").stderr


def test_without_the_extra_the_subcommand_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # What an environment without the SDK imports: nothing under `mcp`.
    for name in [name for name in sys.modules if name.split(".")[0] == "mcp"] + ["mcp"]:
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.delitem(sys.modules, "gitreview.commands.mcp", raising=False)
    result = run("mcp")
    assert result.status == 2
    assert result.stderr == (
        "git review-manifest: error: the MCP server needs the Python package 'mcp' "
        "(hint: pip install '.[mcp]' from a checkout of gitreview (it is not on PyPI))\n"
    )


def test_the_everyday_command_does_not_import_the_sdk(fixture_repo: RepoFactory) -> None:
    repo = fixture_repo("roles")
    code = (
        "import sys\n"
        "from gitreview.cli import main\n"
        f"main(['--repo', {str(repo)!r}, 'v1..v2', '--format', 'brief'])\n"
        "print(sorted(name for name in sys.modules if name.split('.')[0] in ('mcp', 'pydantic')))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        check=True,
        env=isolated_environment(),
        timeout=CALL_SECONDS,
        text=True,
    ).stdout
    assert out.splitlines()[-1] == "[]"


def test_the_server_collects_cycles_though_the_command_line_does_not(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The program turns the cyclic collector off (a run lives for one command); the
    server lives on, and collects between requests."""
    import gc

    from gitreview import cli
    from gitreview.commands import mcp as command

    collecting: list[bool] = []

    class Served:
        def run(self, transport: str) -> None:
            collecting.append(gc.isenabled())

    monkeypatch.setattr(command, "server", lambda default_repo: Served())
    monkeypatch.setattr(sys, "argv", ["git-review-manifest", "mcp"])
    try:
        with pytest.raises(SystemExit) as stopped:
            cli.run()
    finally:
        gc.unfreeze()
        gc.enable()
    assert stopped.value.code == 0
    assert collecting == [True]


def test_an_empty_or_relative_repo_is_read_from_the_server_s_repository(
    fixture_repo: RepoFactory, tmp_path: Path
) -> None:
    """Found by an adversarial review: agents send "" for an optional argument, and a
    relative path; both were read from the server's own folder (here no repository)."""
    repo = fixture_repo("roles")
    answers: dict[str, CallToolResult] = {}

    async def calls(client: Client) -> None:
        for given in ("", "."):
            answers[given] = await client.call_tool("summary", {"range": "v1..v2", "repo": given})

    serve(tmp_path, ["--repo", str(repo)], calls, tmp_path / "stderr")
    expected = cli("--repo", repo, "v1..v2").manifest["summary"]
    for given, answer in answers.items():
        assert not answer.is_error, (given, texts(answer))
        assert json.loads(texts(answer)[0])["summary"] == expected


def test_a_summary_lists_at_most_a_brief_s_findings_and_show_is_cut() -> None:
    """Found by an adversarial review: a page moved away broke 1,500 links, and the
    summary was the manifest's size; `show` of a large file's handle was millions of
    characters. Both now say what they left out."""
    from gitreview.commands.mcp import MAX_SHOWN, part_of, summary_of
    from gitreview.review.brief import MAX_FINDINGS

    findings = [
        {
            "rule": "markdown/broken-link",
            "severity": "error",
            "path": f"p{n}.md",
            "line": 1,
            "message": "broken link",
        }
        for n in range(MAX_FINDINGS + 20)
    ]
    findings.insert(50, {**findings[0], "severity": "warning", "path": "w.md"})
    manifest = {"range": {}, "summary": {}, "findings": findings, "review": {}}
    short = json.loads(summary_of(manifest))
    assert len(short["findings"]) == MAX_FINDINGS
    assert short["findings_not_shown"] == 21
    assert "w.md" not in {finding["path"] for finding in short["findings"]}  # errors first
    text = "".join(f"+line {n}\n" for n in range(40_000))
    first = part_of(text, 1)
    assert len(first) < MAX_SHOWN + 200
    assert first.endswith("[part 1 of 6: call `show` again with part=2]\n")
    parts = [part_of(text, n) for n in range(1, 7)]
    # Every line once, in order, across the parts (their last lines say which part).
    assert "".join(p.rsplit("[part ", 1)[0] for p in parts) == text
    assert parts[-1].endswith("[part 6 of 6: the end]\n")
    assert part_of(text, 7) == "[there are 6 parts of this answer; part 7 is none of them]\n"
    assert part_of("+a\n", 1) == "+a\n"
    # A line longer than a part (a minified file) comes in pieces of it.
    line = "+" + "x" * (MAX_SHOWN * 2) + "\n"
    pieces = [part_of(line, n).rsplit("\n[part ", 1)[0] for n in (1, 2, 3)]
    assert "".join(pieces) + "\n" == line


def test_mcp_1_x_is_told_apart_from_no_mcp(monkeypatch: pytest.MonkeyPatch) -> None:
    """Found by an adversarial review: with the 1.x line installed, the server said the
    package was missing."""
    import importlib.metadata

    from gitreview.commands.mcp import _needed

    monkeypatch.setattr(importlib.metadata, "version", lambda _name: "1.26.0")
    assert _needed("mcp.server.mcpserver") == (
        "version 2 of the Python package 'mcp' (this one is 1.26.0)"
    )
    assert _needed("pydantic") == "the Python package 'pydantic'"
