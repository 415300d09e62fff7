"""`git review-manifest mcp`: a stdio MCP server of read-only tools for coding agents.

Issue #13: agents reach their tools through the Model Context Protocol. Each
tool is a thin shell over the function the command line prints (the brief, the
manifest, show, explain), so both say the same thing; a user's mistake is a
tool error carrying the line the command line prints, never a crashed server.

The official SDK (`mcp`) is an optional extra, imported here only: cli.py
imports this module only for the `mcp` subcommand, so everyday runs stay fast.
"""

from __future__ import annotations

import contextlib
import gc
import os
from collections.abc import Callable
from typing import Annotated, Any

from gitreview import __version__
from gitreview.errors import Exit, ProofTimedOut, UserError
from gitreview.render import by_severity
from gitreview.render.json import serialize
from gitreview.review.brief import MAX_FINDINGS


def _needed(module: str) -> str:
    """What the server needs that is not there: a package, or, where `mcp` itself is
    installed without the module, its version 2 (found by an adversarial review: 1.x,
    the widely installed line, was said to be missing)."""
    import importlib
    from importlib.metadata import PackageNotFoundError, version

    if module.startswith("mcp."):
        with contextlib.suppress(ImportError, PackageNotFoundError):
            importlib.import_module("mcp")
            return f"version 2 of the Python package 'mcp' (this one is {version('mcp')})"
    return f"the Python package {module.split('.')[0]!r}"


try:
    from mcp.server.mcpserver import MCPServer
    from mcp.types import CallToolResult, TextContent, ToolAnnotations
    from pydantic import Field
except ModuleNotFoundError as missing:  # the optional extra is not installed
    raise UserError(
        f"the MCP server needs {_needed(missing.name or 'mcp')}",
        status=Exit.USAGE,
        hint="pip install '.[mcp]' from a checkout of gitreview (it is not on PyPI)",
    ) from None

INSTRUCTIONS = """\
gitreview reviews a git commit range without reading its whole diff: every changed \
hunk is classified trivial (proved safe to skip, with the reason) or significant, \
and significant hunks are shared out to reviewer roles. Start with `summary` for a \
range (what changed, findings already reported, each role's share and what its brief \
costs), then read a role's `brief`: your prompt, with the changes to judge inlined. \
Use `show` for more context around a handle and `explain` to see why a hunk or file \
was called trivial. Everything is read from git objects, never the working tree; \
nothing is written."""

READ_ONLY = ToolAnnotations(read_only_hint=True, idempotent_hint=True, open_world_hint=False)

# Parameters shared by the tools, described for the model.
Range = Annotated[
    str | None,
    Field(
        description="The commit range: A..B, A...B (from the merge base of A and B, as a "
        "pull request shows it), or REV (one commit against its first parent). Any "
        "revision git accepts (branch, tag, HEAD~3, commit id). Default: the current "
        "branch against its upstream."
    ),
]
Repo = Annotated[
    str | None,
    Field(
        description="Path of the git repository (any folder inside it). Default: the "
        "repository the server was started for."
    ),
]
Budget = Annotated[
    int | None,
    Field(
        ge=1,
        description="Tokens of changes a brief inlines; past it, hunks are listed by "
        "handle to open with `show`. Default: each role's budget in the repository's "
        "configuration, else no limit.",
    ),
]


def run_mcp(*, repo: str | None) -> int:
    """Serve until the client closes stdin; a server lives on, so it collects
    cycles between requests (the command line turns the collector off, cli.run)."""
    gc.enable()
    default = None
    if repo is not None:
        from gitreview.git import open_repository

        open_repository(repo)  # a wrong --repo is one line now, not an error on every call
        default = os.path.abspath(repo)
    server(default).run("stdio")
    return int(Exit.OK)


def server(default_repo: str | None) -> MCPServer:
    """The server and its tools; `default_repo` None: the working directory's repository."""
    app: MCPServer = MCPServer(
        "gitreview", version=__version__, instructions=INSTRUCTIONS, log_level="WARNING"
    )

    def where(repo: str | None) -> str | None:
        """The repository a call names: the server's own for none (an empty string,
        as agents send for an optional argument, too), and a relative path from it
        (found by an adversarial review: both were read from the server's folder)."""
        if not repo:
            return default_repo
        if default_repo is not None and not os.path.isabs(repo):
            return os.path.join(default_repo, repo)
        return repo

    @app.tool(annotations=READ_ONLY, structured_output=False)
    def brief(
        range: Range = None,
        role: Annotated[
            str | None,
            Field(
                description="The reviewer role whose brief to return (see `summary` for "
                "the roles with a share; `default` gets what no configured role matches). "
                "Default: every role's brief in turn."
            ),
        ] = None,
        budget: Budget = None,
        repo: Repo = None,
    ) -> CallToolResult:
        """The reviewer's prompt for a commit range: the range and its commits, the
        findings already reported (do not report them again), the role's significant
        changes inlined as compact diffs (changed lines only, each under a header with
        its handle and the function or section it is in), handles beyond the budget,
        and one line per class of what was left out and why. Read this instead of
        `git diff`: trivial changes are left out with a proof. End your review with
        `Handles read: ...` listing the handles you judged."""
        from gitreview.commands.manifest import brief_text, review_of_range

        return _answer(
            lambda: (
                brief_text(review_of_range(where(repo), range, budget=budget)[0], role),
                [],
            )
        )

    @app.tool(annotations=READ_ONLY, structured_output=False)
    def summary(range: Range = None, budget: Budget = None, repo: Repo = None) -> CallToolResult:
        """The review manifest of a commit range in short, as JSON: the range and its
        commits, counts of files and hunks (trivial and significant), token figures
        (`diff`: what `git diff` costs, `brief`: what all briefs cost), the line ledger,
        the findings (rule, severity, path, line, message), and each reviewer role's
        share (handles, files, changed lines, tokens, what its brief costs, findings
        routed to it, batches). Call it first to see what a range holds and which
        roles have work; it holds no hunks (use `brief`)."""
        from gitreview.commands.manifest import review_of_range

        return _answer(
            lambda: (summary_of(review_of_range(where(repo), range, budget=budget)[0].manifest), [])
        )

    @app.tool(annotations=READ_ONLY, structured_output=False)
    def show(
        handles: Annotated[
            list[str],
            Field(
                min_length=1,
                description="Handles exactly as a brief or the manifest gives them, e.g. "
                "src/app.py:10-24@1a2b3c4d5e6f..9f8e7d6c5b4a",
            ),
        ],
        context: Annotated[
            int, Field(ge=0, description="Unchanged lines to show around each change.")
        ] = 0,
        part: Annotated[
            int,
            Field(
                ge=1,
                description="Which part of a long answer to return: past 80,000 characters "
                "the text comes in parts, and each part says how to ask for the next.",
            ),
        ] = 1,
        repo: Repo = None,
    ) -> CallToolResult:
        """The changes handles name, read from git objects: each hunk's removed (-) and
        added (+) lines with their own line numbers, under a header with the handle and
        the enclosing function or section; `context` unchanged lines around. Use it to
        open handles a brief lists beyond its budget, or to see context before judging
        a change. Several handles in one call; a bad handle is reported on its own
        error line and the others are still shown."""
        from gitreview.commands.show import show_text

        def work() -> tuple[str, list[UserError]]:
            text, errors = show_text(handles=handles, repo=where(repo), context=context, new=False)
            return part_of(text, part), errors

        return _answer(work)

    @app.tool(annotations=READ_ONLY, structured_output=False)
    def explain(
        target: Annotated[
            str, Field(description="A handle, or a file's path, from the range's manifest.")
        ],
        range: Range = None,
        repo: Repo = None,
    ) -> CallToolResult:
        """Why a hunk (by handle) or a file (by path, then each of its hunks) got its
        class, with the evidence a program checked: which parse compared equal, where a
        moved block came from, which rule made a change significant. Use it before
        trusting a `trivial` you doubt. Give the range the handle came from."""
        from gitreview.commands.explain import explain_text

        return _answer(
            lambda: (explain_text(target=target, spec=range, repo=where(repo), config=None), [])
        )

    @app.tool(annotations=READ_ONLY, structured_output=False)
    def verify(
        answer: Annotated[str, Field(description="The reviewer's answer, in full.")],
        role: Annotated[
            str, Field(description="The role whose brief the reviewer was given.")
        ] = "default",
        range: Range = None,
        budget: Budget = None,
        repo: Repo = None,
    ) -> CallToolResult:
        """Check a reviewer's answer against its share of a range: the handles of the
        role's share that the answer's last `Handles read:` line does not list, one a
        line, then what that means. A tool error when some are missing: send the
        reviewer those handles (or their `show`) before accepting its review."""
        from gitreview.commands.manifest import review_of_range
        from gitreview.commands.verify import check_answer

        def work() -> tuple[str, list[UserError]]:
            assembled = review_of_range(where(repo), range, budget=budget)[0]
            if role not in assembled.briefs:
                # The review's roles are known here, as `brief` knows them: a misspelt
                # one is refused, not taken for a role with nothing (a review of the fix).
                raise UserError(
                    f"no role {role!r} in this review (the roles: {', '.join(assembled.briefs)})",
                    status=Exit.USAGE,
                )
            manifest = assembled.manifest
            missing, notes = check_answer(manifest, role, answer, source=range or "the range")
            if not missing:
                return f"every handle of role {role!r} is listed as read\n", []
            text = "".join(f"{handle}\n" for handle in missing)
            return text, [UserError(note, status=Exit.FINDINGS) for note in notes]

        return _answer(work)

    return app


def summary_of(manifest: dict[str, Any]) -> str:
    """The manifest without its files and hunks, each role's batches counted: what an
    agent needs to choose its next call, at a small share of the manifest's tokens."""
    keep = (
        "schema_version",
        "range",
        "summary",
        "tokens",
        "ledger",
        "since",
        "fallback",
        "findings",
    )
    short: dict[str, Any] = {key: manifest[key] for key in keep if key in manifest}
    # At most as many findings as a brief lists, the most severe first: a page that broke
    # 1,500 links made a summary as large as the manifest (found by an adversarial review).
    if len(manifest["findings"]) > MAX_FINDINGS:
        short["findings"] = by_severity(manifest["findings"])[:MAX_FINDINGS]
        short["findings_not_shown"] = len(manifest["findings"]) - MAX_FINDINGS
    short["review"] = {
        role: {**share, "batches": len(share["batches"])}
        for role, share in manifest["review"].items()
    }
    return serialize(short)


# Characters of `show`'s text a call returns (about 20,000 tokens: agents cut or refuse
# longer tool results); a whole file's handle of a large file is millions (found by an
# adversarial review). Past it the text comes in parts, each asked for by its number.
MAX_SHOWN = 80_000


def part_of(text: str, part: int) -> str:
    """Part `part` (from 1) of `show`'s text: up to MAX_SHOWN characters, ending at a
    line's end where one is in reach (else within the line), and saying how to ask for
    the next part (a review of the fix: what lay past the first could not be read)."""
    if len(text) <= MAX_SHOWN and part == 1:
        return text
    starts = [0]
    while starts[-1] < len(text):
        start = starts[-1]
        end = min(start + MAX_SHOWN, len(text))
        if end < len(text):
            line_end = text.rfind("\n", start, end)
            end = line_end + 1 if line_end >= start else end
        starts.append(end)
    parts = len(starts) - 1
    if part > parts:
        return f"[there are {parts} parts of this answer; part {part} is none of them]\n"
    shown = text[starts[part - 1] : starts[part]]
    if not shown.endswith("\n"):
        shown += "\n"  # the line goes on in the next part
    if part < parts:
        return f"{shown}[part {part} of {parts}: call `show` again with part={part + 1}]\n"
    return f"{shown}[part {part} of {parts}: the end]\n"


def _answer(work: Callable[[], tuple[str, list[UserError]]]) -> CallToolResult:
    """The text `work` returns, then the line the command line prints for each of
    the user's mistakes it reports or raises: a tool error for the model to read
    and correct, carrying whatever was good (a bad handle among several)."""
    from gitreview.cli import error_line

    try:
        text, errors = work()
    except UserError as error:
        text, errors = "", [error]
    except ProofTimedOut as stopped:
        text, errors = "", [stopped.error]
    blocks = [TextContent(text=text)] if text else []
    if errors:
        blocks.append(TextContent(text="".join(f"{error_line(error)}\n" for error in errors)))
    return CallToolResult(content=list(blocks), is_error=bool(errors))
