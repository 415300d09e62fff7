"""The argument parsers of cli.py as plain records: for the manual page and the
shell completions, which must list exactly what the parsers accept (issue #13).

cli.py builds each parser where it parses, inside the function that runs the
subcommand. Rather than a second description of the options that could drift
from the first, each function is called with `parse_args` stopped: the parser
it built is caught on the way in and nothing runs. A subcommand or an option
added to cli.py is therefore picked up by the next regeneration.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from functools import partial
from typing import NamedTuple

# Option values that name a file or folder, by metavar: completed as paths.
PATH_METAVARS = frozenset({"PATH", "FILE", "MANIFEST", "ANSWER"})


class Argument(NamedTuple):
    """One option or positional argument of a command."""

    flags: tuple[str, ...]  # ("-o", "--output"); () for a positional
    metavar: str  # RANGE, FILE, ...; "" for a flag that takes no value
    help: str
    choices: tuple[str, ...]
    optional: bool  # a positional that may be left out (nargs ? or *)
    repeats: bool  # nargs * or +

    @property
    def takes_value(self) -> bool:
        return bool(self.metavar)

    @property
    def is_path(self) -> bool:
        return self.metavar in PATH_METAVARS


class Command(NamedTuple):
    """The manifest command (name "") or one subcommand."""

    name: str
    prog: str
    usage: str  # after "usage: PROG "
    description: str
    epilog: str
    options: tuple[Argument, ...]
    positionals: tuple[Argument, ...]


class _Built(Exception):
    def __init__(self, parser: argparse.ArgumentParser) -> None:
        super().__init__(parser.prog)
        self.parser = parser


def commands() -> list[Command]:
    """The manifest command first, then every subcommand in cli.SUBCOMMANDS order."""
    from gitreview import cli

    built = [_parser(cli._manifest)]
    built += [_parser(partial(cli._subcommand, name)) for name in cli.SUBCOMMANDS]
    return [_command(parser, cli.PROG) for parser in built]


def _parser(run: Callable[[list[str]], int]) -> argparse.ArgumentParser:
    def caught(self: argparse.ArgumentParser, *args: object, **kwargs: object) -> None:
        raise _Built(self)

    original = argparse.ArgumentParser.parse_args
    argparse.ArgumentParser.parse_args = caught  # type: ignore[method-assign,assignment]
    try:
        run([])
    except _Built as built:
        return built.parser
    finally:
        argparse.ArgumentParser.parse_args = original  # type: ignore[method-assign]
    raise AssertionError("a command of cli.py returned without parsing its arguments")


def _command(parser: argparse.ArgumentParser, prog: str) -> Command:
    formatter = parser._get_formatter()
    options: list[Argument] = []
    positionals: list[Argument] = []
    for action in parser._actions:
        entry = _argument(action, formatter)
        (options if action.option_strings else positionals).append(entry)
    usage = " ".join(parser.format_usage().split())
    usage = usage.removeprefix("usage: ").removeprefix(parser.prog).strip()
    return Command(
        name=parser.prog.removeprefix(prog).strip(),
        prog=parser.prog,
        usage=usage,
        description=" ".join((parser.description or "").split()),
        epilog=" ".join((parser.epilog or "").split()),
        options=tuple(options),
        positionals=tuple(positionals),
    )


def _argument(action: argparse.Action, formatter: argparse.HelpFormatter) -> Argument:
    takes_value = action.nargs != 0
    metavar = ""
    if takes_value or not action.option_strings:
        metavar = action.metavar if isinstance(action.metavar, str) else action.dest.upper()
    expanded = formatter._expand_help(action) if action.help else ""
    return Argument(
        flags=tuple(action.option_strings),
        metavar=metavar,
        help=" ".join(expanded.split()),
        choices=tuple(str(choice) for choice in action.choices or ()),
        optional=action.nargs in ("?", "*"),
        repeats=action.nargs in ("*", "+"),
    )
