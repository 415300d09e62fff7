"""Argument parsing and dispatch only; each subcommand lives in commands/.

`git review-manifest [RANGE] [options]` builds a manifest; a first argument
naming a subcommand (show, ...) runs that instead. A branch that happens to be
called like a subcommand can still be given after `--`.
"""

from __future__ import annotations

import argparse
import errno
import gc
import io
import os
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from gitreview import __version__
from gitreview.errors import Exit, ProofTimedOut, UserError
from gitreview.render import FORMATS

PROG = "git review-manifest"
SUBCOMMANDS = (
    "show",
    "explain",
    "verify",
    "ci",
    "pre-push",
    "install-hook",
    "uninstall-hook",
    "mcp",
    "completion",
)
# --format brief is built from the review items, not rendered from the manifest.
BRIEF = "brief"


def run() -> NoReturn:
    """The program (`git review-manifest`, `python -m gitreview`): `main`, then out.
    A run lives for one command, and what it makes reference counting frees (see
    collector.py): the cyclic collector is off from the start, whose passes over
    what start-up makes, and over everything a range made once the pipeline's pause
    ends, were 15-20 ms of an everyday push (issue 12). On its way out the
    interpreter looks for cycles among every object still held before it frees
    them; frozen first, they are only freed: 15 ms more. The MCP server, which
    lives on, turns the collector back on. Not in `main`, which a program may call
    and then go on."""
    gc.disable()
    _utf8_streams()
    status = main([_utf8(arg) for arg in sys.argv[1:]])
    gc.freeze()
    raise SystemExit(status)


def _utf8_streams() -> None:
    """Standard output and error written in UTF-8 whatever the locale says, as git
    writes its paths: a manifest is UTF-8 JSON, and a name or a brief's `·` that the
    locale's encoding lacks (`LC_ALL=C` without Python's UTF-8 mode, a Latin-1
    terminal) stopped the run with an encoding error (found by an adversarial review)."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper) and stream.encoding.lower() not in _UTF8:
            stream.reconfigure(encoding="utf-8", errors="backslashreplace")


_UTF8 = ("utf-8", "utf8")


def _utf8(arg: str) -> str:
    """An argument as UTF-8, whatever the locale decoded it as: a handle or path
    holding `é` matches the manifest's. One that is no UTF-8 (a Latin-1 file name)
    stays as the system gave it, so that the file it names still opens (found by a
    review of the fix: `--patch caf\\xe9.patch` was refused)."""
    try:
        return os.fsencode(arg).decode("utf-8")
    except UnicodeDecodeError:
        return arg


def _parser(**options: Any) -> argparse.ArgumentParser:
    return _Parser(formatter_class=_Formatter, **options)


class _Parser(argparse.ArgumentParser):
    """argparse's parser, whose usage errors are one line like every other error
    (argparse prints the whole usage first), with status 2."""

    def error(self, message: str) -> NoReturn:
        from gitreview.secrets import redact_name

        # The message may quote what the user typed: a branch named like a token.
        line = redact_name(f"{self.prog}: error: {message} (hint: {self.prog} --help)")
        print(line, file=sys.stderr)
        raise SystemExit(int(Exit.USAGE))


class _Formatter(argparse.HelpFormatter):
    """argparse's formatter, as wide as the terminal without importing shutil, which
    argparse does to ask (5 ms of an everyday push's start-up, issue 12): the
    columns `shutil.get_terminal_size` gives, COLUMNS first."""

    def __init__(self, prog: str) -> None:  # argparse gives only the program's name
        super().__init__(prog, width=_columns() - 2)


def _columns() -> int:
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        stdout = sys.__stdout__
        try:
            columns = 0 if stdout is None else os.get_terminal_size(stdout.fileno()).columns
        except (AttributeError, ValueError, OSError):  # not a terminal
            columns = 0
    return columns or 80


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        if sys.stdout is None:  # closed (`>&-`): nothing to print to
            raise UserError("standard output is closed", status=Exit.USAGE)
        if args and args[0] in SUBCOMMANDS:
            status = _subcommand(args[0], args[1:])
        else:
            status = _manifest(args)
        sys.stdout.flush()  # a full disk is told here, not as the interpreter exits
        return status
    except UserError as error:
        print(error_line(error), file=sys.stderr)
        return int(error.status)
    except ProofTimedOut as stopped:
        print(error_line(stopped.error), file=sys.stderr)
        return int(stopped.error.status)
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return int(Exit.INTERRUPTED)
    except BrokenPipeError as error:
        if not _reader_gone():
            # A pipe to one of git's processes, not the output's: no manifest was
            # written (found by a review: a run ended silently with exit 0).
            return _internal(error)
        # The reader went away (e.g. `| head`): not an error of ours.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return int(Exit.OK)
    except OSError as error:
        if error.filename is not None or error.errno not in _OUTPUT_ERRORS:
            return _internal(error)
        # Standard output on a full disk, or closed: as `-o` says of its file.
        print(f"{PROG}: error: cannot write the output: {error.strerror}", file=sys.stderr)
        return int(Exit.USAGE)
    except Exception as error:
        return _internal(error)


# What writing the output may fail with: the disk full or over quota, the file too
# large, the descriptor closed or broken.
_OUTPUT_ERRORS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EBADF, errno.EIO})


def _reader_gone() -> bool:
    """Whether standard output is a pipe whose reader went away."""
    import select

    try:
        poller = select.poll()
        poller.register(sys.stdout.fileno(), select.POLLOUT)
        return any(events & select.POLLERR for _, events in poller.poll(0))
    except (OSError, ValueError, AttributeError):
        return True  # no way to tell: as before


def _internal(error: Exception) -> int:
    """A bug: one line, the traceback only when asked for."""
    if os.environ.get("GITREVIEW_DEBUG"):
        raise error
    print(
        f"{PROG}: internal error: {type(error).__name__}: {error} "
        "(set GITREVIEW_DEBUG=1 for the traceback, and please report it)",
        file=sys.stderr,
    )
    return int(Exit.INTERNAL)


def error_line(error: UserError) -> str:
    """The one line a user's mistake is reported as, here and by the MCP server."""
    from gitreview.secrets import redact_name

    hint = "" if error.hint is None else f" (hint: {error.hint})"
    # An error may quote what the user typed: a branch named like a token (issue 11).
    return redact_name(f"{PROG}: error: {error.message}{hint}")


def _manifest(args: list[str]) -> int:
    parser = _parser(
        prog=PROG,
        description=(
            "Build the review manifest of a commit range: every changed file and hunk "
            "classified trivial or significant with its reasons, structural findings, and "
            "handles that point reviewers at exactly what needs judgment."
        ),
        epilog=(
            "subcommands: show HANDLE... prints the changes handles name; explain HANDLE|PATH "
            "[RANGE] says why a hunk or file got its class; verify --role NAME MANIFEST ANSWER "
            "checks that a reviewer's answer lists every handle of its share; ci runs the "
            "GitHub Actions step; pre-push is what the hook runs; install-hook and "
            "uninstall-hook set up or remove the pre-push hook; completion bash|zsh prints a "
            "shell completion script; mcp runs an MCP server of read-only tools for coding "
            "agents (each with --help). "
            "Exit status: 0 ok, 1 findings at or above --fail-on (verify: handles missing), "
            "2 usage, 3 repository or range, 4 configuration, 5 patch, 6 handle, "
            "70 internal error."
        ),
    )
    parser.add_argument(
        "range",
        nargs="?",
        help="A..B, A...B (from the merge base), REV or REV^! (its first parent to REV), "
        "REV^-N (its Nth parent to REV); default: the current branch against its upstream",
    )
    parser.add_argument("--repo", metavar="PATH", help="repository (default: the current one)")
    parser.add_argument(
        "--patch", metavar="FILE", help="read a unified diff from FILE ('-' for stdin)"
    )
    parser.add_argument(
        "--config",
        metavar="PATH",
        help="configuration file (default: .gitreview.yml of the base commit, the trusted side)",
    )
    parser.add_argument("-o", "--output", metavar="FILE", help="write to FILE, not stdout")
    parser.add_argument(
        "--format",
        choices=(*FORMATS, BRIEF),
        default="json",
        help="json: the manifest (default); text: a short summary for people; full: every "
        "changed file in full plus its diff, for consumers that cannot use handles; markdown: "
        "a report for a pull-request comment or a step summary; github: one workflow "
        "annotation per finding (::error file=...,line=...::); sarif: the findings as "
        "SARIF 2.1.0, for code scanning; brief: each reviewer role's prompt (its findings, "
        "its changes inlined as compact diffs up to its budget, what was left out and why)",
    )
    parser.add_argument(
        "--role",
        metavar="NAME",
        help="with --format brief: only this role's brief (default: every role in turn)",
    )
    parser.add_argument(
        "--budget",
        type=int,
        metavar="TOKENS",
        help="tokens of changes a brief inlines and a batch holds, for every role "
        "(default: each role's budget in the configuration, else no limit)",
    )
    parser.add_argument(
        "--fallback",
        action="store_true",
        help="put the full content and diff of every file without tier-1 analysis in the "
        "manifest, so nothing is skipped unread",
    )
    parser.add_argument(
        "--fail-on",
        choices=("error", "warning", "info", "never"),
        help="exit 1 when a finding is at least this severe (default: fail_on of the "
        "configuration, else error)",
    )
    since = parser.add_mutually_exclusive_group()
    since.add_argument(
        "--since",
        metavar="REV",
        help="the head reviewed last: hunks with the same lines in the same place (path and "
        "surrounding lines) are marked reviewed and sent to no role again",
    )
    since.add_argument(
        "--since-manifest",
        metavar="FILE",
        help="the manifest reviewed last: its hunks, found again by content, are marked "
        "reviewed and sent to no role again",
    )
    parser.add_argument(
        "--no-cache",
        action="store_true",
        help="neither reuse nor keep the verdicts proved for blob pairs seen before, nor the "
        "results of ranges run before (kept under the git directory, in gitreview/cache; "
        "deleting that folder is always safe)",
    )
    parser.add_argument(
        "-j",
        "--jobs",
        type=int,
        metavar="N",
        help="processes that analyze files (default: one per core for a range of "
        "256 files or more, else 1); the manifest is the same for any N",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    options = parser.parse_args(args)
    if options.patch is not None and options.range is not None:
        parser.error("give either a range or --patch, not both")
    if options.budget is not None and options.budget < 1:
        parser.error("--budget must be 1 or more")
    if options.jobs is not None and options.jobs < 1:
        parser.error("--jobs must be 1 or more")
    if options.role is not None and options.format != BRIEF:
        parser.error("--role goes with --format brief")

    from gitreview.commands.manifest import run_manifest

    return run_manifest(
        spec=options.range,
        repo=options.repo,
        patch=options.patch,
        config=options.config,
        output=options.output,
        output_format=options.format,
        fail_on=options.fail_on,
        fallback=options.fallback,
        role=options.role,
        budget=options.budget,
        since=options.since,
        since_manifest=options.since_manifest,
        cache=not options.no_cache,
        jobs=options.jobs,
    )


def _subcommand(name: str, args: list[str]) -> int:
    if name == "explain":
        return _explain(args)
    if name == "verify":
        return _verify(args)
    if name == "ci":
        return _ci(args)
    if name == "mcp":
        return _mcp(args)
    if name in ("pre-push", "install-hook", "uninstall-hook"):
        return _hook(name, args)
    if name == "completion":
        return _completion(args)
    parser = _parser(
        prog=f"{PROG} show",
        description="Print the changes handles name: each hunk's removed and added lines, "
        "marked - and +, with their own line numbers, under a header with the handle and the "
        "enclosing symbol or section. Read from git objects (never the working tree). A bad "
        "handle is reported on its own line (exit 6) and the others are still printed.",
    )
    parser.add_argument(
        "handles",
        nargs="*",
        metavar="HANDLE",
        help="handles from a manifest, e.g. src/app.py:10-24@1a2b3c4d5e6f..9f8e7d6c5b4a; "
        "none or '-': one per line on stdin",
    )
    parser.add_argument("--repo", metavar="PATH", help="repository (default: the current one)")
    parser.add_argument(
        "-C", "--context", type=int, default=0, metavar="N", help="also print N lines around"
    )
    parser.add_argument(
        "--new",
        action="store_true",
        help="print only the new-side lines (NUMBER:TEXT), the old side for a hunk that "
        "only removes",
    )
    options = parser.parse_args(_dashed_handles_last(args, ("--repo", "-C", "--context")))
    if options.context < 0:
        parser.error("--context must be 0 or more")
    handles = [handle for handle in options.handles if handle != "-"]
    if (not options.handles or "-" in options.handles) and sys.stdin and not sys.stdin.isatty():
        handles += [line.strip() for line in sys.stdin if line.strip()]
    if not handles:
        parser.error("no handle given: give handles as arguments, or one per line on stdin")

    from gitreview.commands.show import run_show

    return run_show(handles=handles, repo=options.repo, context=options.context, new=options.new)


def _dashed_handles_last(args: list[str], taking_values: tuple[str, ...]) -> list[str]:
    """The arguments with each handle that starts with a dash (`-notes.txt:1-2@...`,
    a path git allows) moved after `--`, where argparse reads it as one: a handle
    holds an `@`, which no option does. Found by an adversarial review: the brief's
    own `show HANDLE` failed with a usage error."""
    kept: list[str] = []
    handles: list[str] = []
    for index, arg in enumerate(args):
        if arg == "--":
            return [*kept, "--", *handles, *args[index + 1 :]]
        value = index > 0 and args[index - 1] in taking_values
        if not value and arg.startswith("-") and "@" in arg and "=" not in arg.split("@")[0]:
            handles.append(arg)
        else:
            kept.append(arg)
    return [*kept, "--", *handles] if handles else kept


def _verify(args: list[str]) -> int:
    parser = _parser(
        prog=f"{PROG} verify",
        description="Check a reviewer's answer against its share of a manifest: print each "
        "handle of the role's share that the answer's 'Handles read:' line does not list. "
        "Exit 0 when none is missing, 1 when some are.",
    )
    parser.add_argument("--role", default="default", metavar="NAME", help="the reviewer role")
    parser.add_argument(
        "manifest", metavar="MANIFEST", help="the manifest (JSON) the brief came from"
    )
    parser.add_argument("answer", metavar="ANSWER", help="the reviewer's answer ('-' for stdin)")
    options = parser.parse_args(args)

    from gitreview.commands.verify import run_verify

    return run_verify(role=options.role, manifest=options.manifest, answer=options.answer)


def _explain(args: list[str]) -> int:
    parser = _parser(
        prog=f"{PROG} explain",
        description="Say why a hunk (by handle) or a file (by path) got its class, with "
        "the evidence: re-runs the classification of the range.",
    )
    parser.add_argument("target", help="a handle or a path from the manifest")
    parser.add_argument(
        "range", nargs="?", help="the range the manifest was built for (default: upstream)"
    )
    parser.add_argument("--repo", metavar="PATH", help="repository (default: the current one)")
    parser.add_argument("--config", metavar="PATH", help="configuration file, as for the manifest")
    options = parser.parse_args(args)

    from gitreview.commands.explain import run_explain

    return run_explain(
        target=options.target, spec=options.range, repo=options.repo, config=options.config
    )


def _ci(args: list[str]) -> int:
    parser = _parser(
        prog=f"{PROG} ci",
        description="The GitHub Actions step (action.yml): reads the event and the INPUT_* "
        "variables, writes the manifest, $GITHUB_OUTPUT, the step summary and annotations.",
    )
    parser.add_argument("--repo", metavar="PATH", help="repository (default: the current one)")
    options = parser.parse_args(args)

    from gitreview.commands.ci import run_ci

    return run_ci(repo=options.repo)


def _mcp(args: list[str]) -> int:
    parser = _parser(
        prog=f"{PROG} mcp",
        description="Run a Model Context Protocol server on stdin and stdout for coding "
        "agents: read-only tools for a range's brief, its manifest summary, show, explain "
        "and verify. Needs the optional extra: pip install '.[mcp]' from a checkout.",
    )
    parser.add_argument(
        "--repo", metavar="PATH", help="the tools' default repository (default: the current one)"
    )
    options = parser.parse_args(args)

    from gitreview.commands.mcp import run_mcp

    return run_mcp(repo=options.repo)


def _hook(name: str, args: list[str]) -> int:
    parser = _parser(prog=f"{PROG} {name}")
    if name == "pre-push":
        parser.description = (
            "The pre-push hook: reads git's '<local ref> <local sha> <remote ref> <remote sha>' "
            "lines on stdin, checks each range to be pushed, and refuses the push when a finding "
            "is at or above fail_on."
        )
        parser.add_argument("remote", nargs="?", default="", help="the remote's name (from git)")
        parser.add_argument("url", nargs="?", default="", help="the remote's URL (from git)")
    else:
        parser.description = (
            "Install the gitreview pre-push hook (respecting core.hooksPath)."
            if name == "install-hook"
            else "Remove the gitreview pre-push hook, restoring a hook it replaced."
        )
        if name == "install-hook":
            parser.add_argument(
                "--force", action="store_true", help="replace another pre-push hook (kept aside)"
            )
    parser.add_argument("--repo", metavar="PATH", help="repository (default: the current one)")
    options = parser.parse_args(args)

    from gitreview.commands import hook

    if name == "pre-push":
        return hook.run_pre_push(remote=options.remote, repo=options.repo)
    if name == "install-hook":
        return hook.run_install(repo=options.repo, force=options.force)
    return hook.run_uninstall(repo=options.repo)


def _completion(args: list[str]) -> int:
    parser = _parser(
        prog=f"{PROG} completion",
        description="Print the shell completion script for bash or zsh (see the README to "
        "install it): subcommands, options, --format values, and revisions for the range.",
    )
    parser.add_argument("shell", choices=("bash", "zsh"), help="the shell")
    options = parser.parse_args(args)

    from gitreview.completion import run_completion

    return run_completion(shell=options.shell)
