"""The manual page git-review-manifest(1), written from the argument parsers.

`git review-manifest --help` makes git open `man git-review-manifest` (issue
#13). The page is kept in the repository (gitreview/man/man1/, so that
MANPATH=gitreview/man finds it in a checkout) and installed with the package
under share/man/man1; a test compares it with what this module writes, so an
option added to cli.py fails the tests until the page is regenerated:

    python -m gitreview.manpage -o gitreview/man/man1/git-review-manifest.1
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from gitreview import __version__
from gitreview.patterns import lazy_compile
from gitreview.usage import Argument, Command, commands

MANPAGE = "gitreview/man/man1/git-review-manifest.1"  # from the repository's root
REGENERATE = f"python -m gitreview.manpage -o {MANPAGE}"

# What the parsers do not say: where things are and what is read from the environment.
FILES = (
    (
        ".gitreview.yml",
        "the configuration, read from the base commit of the range (the trusted side; "
        "from the head only for a root commit)",
    ),
    (
        "$GIT_DIR/gitreview/pre-push/REMOTE/REF.json",
        "the manifest of each ref the pre-push hook checked",
    ),
)
ENVIRONMENT = (
    ("GITREVIEW_DEBUG", "when set to anything but empty, an internal error prints its traceback"),
    (
        "PRE_COMMIT_FROM_REF, PRE_COMMIT_TO_REF",
        "set by the pre-commit framework: pre-push checks FROM...TO instead of reading stdin",
    ),
    (
        "PRE_COMMIT_LOCAL_BRANCH",
        "set by the pre-commit framework without FROM and TO (a first push): pre-push "
        "checks every commit of that branch not on the remote, from the empty tree",
    ),
    (
        "GITHUB_EVENT_NAME, GITHUB_EVENT_PATH, GITHUB_SHA, RUNNER_TEMP, GITHUB_OUTPUT, "
        "GITHUB_STEP_SUMMARY, INPUT_*",
        "read by the ci subcommand, as GitHub Actions sets them",
    ),
)
_OPTION = lazy_compile(r"(?<![\w-])--?[A-Za-z][\w-]*")
SEE_ALSO = "git(1), gitrevisions(7), githooks(5), pre-commit(1)"


def render(parsed: Sequence[Command] | None = None) -> str:
    """The page in man(7) macros; the same parsers always give the same bytes."""
    main, *subcommands = commands() if parsed is None else parsed
    lines = [
        f'.TH GIT\\-REVIEW\\-MANIFEST 1 "" "gitreview {__version__}" "Git Manual"',
        ".SH NAME",
        "git\\-review\\-manifest \\- review manifests of a git commit range for reviewers",
        ".SH SYNOPSIS",
    ]
    for command in (main, *subcommands):
        lines += [".HP", f"\\fB{_option(command.prog)}\\fR {_usage(command.usage)}"]
    lines += [".SH DESCRIPTION", _text(main.description)]
    if main.epilog:
        lines += [".PP", _text(main.epilog)]
    lines += [".SH OPTIONS", *_arguments(main)]
    lines.append(".SH SUBCOMMANDS")
    for command in subcommands:
        lines += [f".SS {_option(command.name)}", f"\\fB{_option(command.prog)}\\fR"]
        lines.append(_usage(command.usage))
        lines += [".PP", _text(command.description)]
        if command.epilog:
            lines += [".PP", _text(command.epilog)]
        lines += _arguments(command)
    lines.append(".SH FILES")
    for name, meaning in FILES:
        lines += [".TP", f"\\fI{_text(name)}\\fR", _text(meaning)]
    lines.append(".SH ENVIRONMENT")
    for name, meaning in ENVIRONMENT:
        lines += [".TP", f"\\fB{_option(name)}\\fR", _text(meaning)]
    lines += [".SH SEE ALSO", _text(SEE_ALSO), ""]
    return "\n".join(lines)


def _arguments(command: Command) -> list[str]:
    lines = []
    for argument in (*command.positionals, *command.options):
        lines += [".TP", _term(argument), _text(_help(argument))]
    return lines


def _term(argument: Argument) -> str:
    if not argument.flags:
        return f"\\fI{_text(argument.metavar)}\\fR"
    value = f" \\fI{_text(argument.metavar)}\\fR" if argument.takes_value else ""
    return ", ".join(f"\\fB{_option(flag)}\\fR{value}" for flag in argument.flags)


def _help(argument: Argument) -> str:
    if not argument.choices:
        return argument.help
    listed = all(f"{choice}:" in argument.help for choice in argument.choices)
    values = ", ".join(argument.choices)
    return argument.help if listed else f"{argument.help} (one of: {values})"


def _usage(usage: str) -> str:
    """A usage line as argparse writes it, its options in bold."""
    return _OPTION.sub(lambda match: f"\\fB{_option(match.group())}\\fR", _text(usage))


def _option(text: str) -> str:
    """A name typed as is: dashes are minus signs, so a copied option works."""
    return _text(text).replace("-", "\\-")


def _text(text: str) -> str:
    """Running text: a backslash printed as one, and no line taken for a request."""
    escaped = text.replace("\\", "\\e")
    return "\\&" + escaped if escaped[:1] in (".", "'") else escaped


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m gitreview.manpage",
        description="Write the manual page git-review-manifest(1) from the argument parsers.",
    )
    parser.add_argument("-o", "--output", metavar="FILE", help="write to FILE, not stdout")
    options = parser.parse_args(argv)
    page = render()
    if options.output is None:
        sys.stdout.write(page)
    else:
        with open(options.output, "w", encoding="utf-8", newline="\n") as file:
            file.write(page)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
