"""Moved blocks: pointing at each other, trivial both ways where order cannot matter;
edits and copies are not."""

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from manifests import files_by_path, manifest_of, run
from repos import RepoFactory, git, two_commits


@pytest.fixture(scope="module")
def moves(fixture_repo: RepoFactory) -> dict[str, dict[str, Any]]:
    return files_by_path(manifest_of("--repo", fixture_repo("moves"), "v1..v2"))


def blob(repo_factory: RepoFactory, rev: str, path: str) -> str:
    return git(repo_factory("moves"), "rev-parse", f"{rev}:{path}")[:12]


def summary(entry: dict[str, Any]) -> list[tuple[str, str, list[str], list[str]]]:
    return [
        (
            h["handle"].split("@")[0],
            h["classification"],
            h.get("moved_from", []),
            h.get("moved_to", []),
        )
        for h in entry["hunks"]
    ]


def test_moved_blocks_point_at_each_other(
    moves: dict[str, dict[str, Any]], fixture_repo: RepoFactory
) -> None:
    ledger = blob(fixture_repo, "v1", "src/ledger.py")
    report = blob(fixture_repo, "v2", "src/report.py")
    audit = blob(fixture_repo, "v2", "src/audit.py")
    # Moved unchanged into another module, each block points at the other; it stays
    # significant: what imported it from ledger.py no longer finds it there.
    assert summary(moves["src/ledger.py"]) == [
        ("src/ledger.py:-4-11", "significant", [], [f"src/report.py:14-21@{report}"]),
        ("src/ledger.py:-22-29", "significant", [], []),  # moved with a constant changed
        ("src/ledger.py:-40-47", "significant", [], [f"src/audit.py:32-39@{audit}"]),
        ("src/ledger.py:-58-61", "significant", [], []),  # two lines: too small to tell
    ]
    assert summary(moves["src/report.py"]) == [
        ("src/report.py:14-21", "significant", [f"src/ledger.py:4-11@{ledger}"], []),
        ("src/report.py:32-39", "significant", [], []),  # the second copy of weekly()
        ("src/report.py:50-51", "significant", [], []),
    ]
    assert summary(moves["src/audit.py"]) == [
        ("src/audit.py:14-21", "significant", [], []),  # yearly() with 12 changed to 13
        ("src/audit.py:32-39", "significant", [f"src/ledger.py:40-47@{ledger}"], []),
    ]
    for entry in moves.values():
        for hunk in entry["hunks"]:
            assert hunk["reasons"] == ["content"]


def test_a_pointer_shows_the_same_lines(
    fixture_repo: RepoFactory, moves: dict[str, dict[str, Any]]
) -> None:
    repo = fixture_repo("moves")
    removal = moves["src/ledger.py"]["hunks"][0]
    [target] = removal["moved_to"]
    removed_text = [
        line.split(":", 1)[1]
        for line in run("show", "--new", "--repo", repo, removal["handle"]).stdout.splitlines()
    ]
    added_text = [
        line.split(":", 1)[1] for line in run("show", "--repo", repo, target).stdout.splitlines()
    ]
    assert removed_text[:6] == added_text[:6]


def test_explain_names_where_a_block_came_from(
    fixture_repo: RepoFactory, moves: dict[str, dict[str, Any]]
) -> None:
    hunk = moves["src/report.py"]["hunks"][0]
    result = run("explain", "--repo", fixture_repo("moves"), hunk["handle"], "v1..v2")
    assert result.stdout == (
        f"{hunk['handle']}\n  significant: content\n  moved from {hunk['moved_from'][0]}, but "
        "a Python definition moved into another module is no longer found where other "
        "modules import it from, or where test runners collect it\n"
    )


# -- What order can change (issue 11): only whole top-level definitions and sections move.

CHECKS = """\
def withdraw(account, amount, user):
    if amount <= 0:
        audit.refuse(account, amount, user, "not a positive amount")
        raise ValueError("the amount must be positive, whatever the account holds")
    if not user.may_withdraw(account):
        audit.refuse(account, amount, user, "no right to withdraw")
        raise PermissionError("this user may not withdraw from this account at all")
    account.balance -= amount
    account.history.append(amount)
    audit.record(account, amount, user, "withdrawal of the given amount")
    return account.balance
"""
CHECK_AFTER_DEBIT = """\
def withdraw(account, amount, user):
    if amount <= 0:
        audit.refuse(account, amount, user, "not a positive amount")
        raise ValueError("the amount must be positive, whatever the account holds")
    account.balance -= amount
    account.history.append(amount)
    audit.record(account, amount, user, "withdrawal of the given amount")
    if not user.may_withdraw(account):
        audit.refuse(account, amount, user, "no right to withdraw")
        raise PermissionError("this user may not withdraw from this account at all")
    return account.balance
"""
CHECKS_SWAPPED = """\
def withdraw(account, amount, user):
    if not user.may_withdraw(account):
        audit.refuse(account, amount, user, "no right to withdraw")
        raise PermissionError("this user may not withdraw from this account at all")
    if amount <= 0:
        audit.refuse(account, amount, user, "not a positive amount")
        raise ValueError("the amount must be positive, whatever the account holds")
    account.balance -= amount
    account.history.append(amount)
    audit.record(account, amount, user, "withdrawal of the given amount")
    return account.balance
"""
HELPERS = """\
import math


def area(radius):
    \"\"\"The area of a circle of this radius, in square units.\"\"\"
    return math.pi * radius * radius


def perimeter(radius):
    \"\"\"The perimeter of a circle of this radius, in units.\"\"\"
    return 2 * math.pi * radius
"""
HELPERS_SWAPPED = """\
import math


def perimeter(radius):
    \"\"\"The perimeter of a circle of this radius, in units.\"\"\"
    return 2 * math.pi * radius


def area(radius):
    \"\"\"The area of a circle of this radius, in square units.\"\"\"
    return math.pi * radius * radius
"""
EXPORTS = '__all__ = ["area", "perimeter"]\n\n'
AREA_AND_PERIMETER = HELPERS.split("\n\n\n", 1)[1]
REGISTERED = """\
HANDLERS = {}


def handle_created(event):
    \"\"\"Store the new record the event carries, as it came.\"\"\"
    return store.insert(event.record)


HANDLERS["created"] = handle_created
HANDLERS["restored"] = handle_created
HANDLERS["imported"] = handle_created
"""
REGISTERED_TOO_EARLY = """\
HANDLERS = {}


HANDLERS["created"] = handle_created
HANDLERS["restored"] = handle_created
HANDLERS["imported"] = handle_created


def handle_created(event):
    \"\"\"Store the new record the event carries, as it came.\"\"\"
    return store.insert(event.record)
"""
SETUP = """\
import logging

import engine


def connect(url):
    \"\"\"Open the connection the whole module shares, once.\"\"\"
    return engine.open(url, retries=3, timeout=30)


def start():
    return connect("postgres://localhost/main")


CONNECTION = start()
LOG = logging.getLogger(__name__)
"""
SETUP_MOVED = """\
import logging

import engine


def start():
    return connect("postgres://localhost/main")


CONNECTION = start()
LOG = logging.getLogger(__name__)


def connect(url):
    \"\"\"Open the connection the whole module shares, once.\"\"\"
    return engine.open(url, retries=3, timeout=30)
"""
DOC = """\
# Guide

Read this first.

## On Linux

Run the installer and answer every question it asks you.
It takes a minute on a fast machine, longer elsewhere.

## On Windows

Edit the settings file and restart the service afterwards.
Every key has a default that suits most machines.
"""
DOC_SWAPPED = """\
# Guide

Read this first.

## On Windows

Edit the settings file and restart the service afterwards.
Every key has a default that suits most machines.

## On Linux

Run the installer and answer every question it asks you.
It takes a minute on a fast machine, longer elsewhere.
"""
NESTED = """\
# Tool

## On Linux

### Windows

Run the installer as an administrator and reboot once it is done.
Then sign in again.

## Uninstall

Remove the program from the settings page, then delete its folder.
Nothing else is left behind.
"""
NESTED_MOVED = """\
# Tool

## On Linux

## Uninstall

Remove the program from the settings page, then delete its folder.
Nothing else is left behind.

### Windows

Run the installer as an administrator and reboot once it is done.
Then sign in again.
"""
INSTALL = "## On Linux" + DOC.split("## On Linux")[1].split("## On Windows")[0]
CONNECT = (
    "def connect(options={**DEFAULTS}):\n"
    '    """Open a connection with the options, checked."""\n'
    "    return dict(options, opened=True, checked=True)\n"
)
CHANGES = "".join(f'DEFAULTS["option_{n}"] = {n}\n' for n in range(8))
MUTATED = 'DEFAULTS = {"timeout": 10}\n\n\n' + CONNECT + "\n\n" + CHANGES
MUTATED_MOVED = 'DEFAULTS = {"timeout": 10}\n' + CHANGES + "\n\n" + CONNECT
LABELLED_INSTALL = (
    "## On Linux\n\nRun the installer and answer every question it asks you.\n"
    "It takes a minute on a fast machine, longer elsewhere.\n\n"
    "[docs]: https://example.com/install\n"
)
LABELLED_CONFIGURE = (
    "## On Windows\n\nEdit the settings file and restart the service afterwards.\n"
    "Every key has a default that suits most machines.\n\n"
    "[docs]: https://example.com/configure\n"
)
LABELLED = "# Guide\n\nSee [docs].\n\n" + LABELLED_INSTALL + "\n" + LABELLED_CONFIGURE
LABELLED_SWAPPED = "# Guide\n\nSee [docs].\n\n" + LABELLED_CONFIGURE + "\n" + LABELLED_INSTALL

LINKED = INSTALL.replace("installer", "[installer](tools/install.sh)")
STEPS = """\
steps:
  - name: build the package from the sources
    run: make build
    shell: bash
  - name: publish the package to the registry
    run: make publish
    shell: bash
"""
STEPS_SWAPPED = """\
steps:
  - name: publish the package to the registry
    run: make publish
    shell: bash
  - name: build the package from the sources
    run: make build
    shell: bash
"""
MAKEFILE = (
    "release: build\n\tupload --all --registry production dist/*\n\techo released everything\n\n"
    "build:\n\tcompile --optimize everything in src/\n\techo built everything there\n"
)
MAKEFILE_SWAPPED = (
    "build:\n\tcompile --optimize everything in src/\n\techo built everything there\n\n"
    "release: build\n\tupload --all --registry production dist/*\n\techo released everything\n"
)
SETTINGS = """\
TIMEOUT_SECONDS = 30
RETRIES_ALLOWED = 3
BACKOFF_FACTOR = 2


DEADLINE_SECONDS = TIMEOUT_SECONDS * RETRIES_ALLOWED * BACKOFF_FACTOR
GRACE_SECONDS = TIMEOUT_SECONDS * BACKOFF_FACTOR
WARNING_SECONDS = DEADLINE_SECONDS - GRACE_SECONDS
"""
SETTINGS_REORDERED = """\
DEADLINE_SECONDS = TIMEOUT_SECONDS * RETRIES_ALLOWED * BACKOFF_FACTOR
GRACE_SECONDS = TIMEOUT_SECONDS * BACKOFF_FACTOR
WARNING_SECONDS = DEADLINE_SECONDS - GRACE_SECONDS


TIMEOUT_SECONDS = 30
RETRIES_ALLOWED = 3
BACKOFF_FACTOR = 2
"""
METHODS = """\
class Account:
    @property
    def balance(self):
        return self._balance_in_cents_of_the_account


    @balance.setter
    def balance(self, value):
        self._balance_in_cents_of_the_account = value
"""
METHODS_SWAPPED = """\
class Account:
    @balance.setter
    def balance(self, value):
        self._balance_in_cents_of_the_account = value


    @property
    def balance(self):
        return self._balance_in_cents_of_the_account
"""


def decorated(header: str, decorator: str, *, swapped: bool = False) -> str:
    """A module of three functions, each under `decorator` (its `{name}` the
    function's: lines that differ, as a real module's would), the first moved last
    when `swapped`: in what order the decorator sees them is what the move changes."""
    definitions = [
        f"{decorator.format(name=name)}\ndef {name}(request):\n"
        f'    """The {name} step, run for every request before it is routed."""\n'
        f'    token = request.headers.get("Authorization", "")\n'
        f'    return token.removeprefix("Bearer ").split(".")[0] or "{name}"\n'
        for name in ("authenticate", "rate_limit", "audit_log")
    ]
    if swapped:
        definitions = [*definitions[1:], definitions[0]]
    return header + "\n\n" + "\n\n".join(definitions)


FLASK = "from flask import Flask\n\napp = Flask(__name__)\n"
NUMBERED = "import itertools\n\nids = itertools.count(1000)\n\n\n" + "\n\n".join(
    f'def {name}(number=next(ids)):\n    """The {name} step, numbered as it is defined."""\n'
    f"    return number * 10 + len({name!r})\n"
    for name in ("alpha", "beta")
)
NUMBERED_SWAPPED = (
    NUMBERED.replace("alpha", "gamma").replace("beta", "alpha").replace("gamma", "beta")
)
REGISTRY = "from registry import Registered\n\n\n"
CLASSES = """\
class Json(metaclass=Registered):
    \"\"\"Reads and writes the JSON format, the first one tried.\"\"\"

    suffix = ".json"


class Yaml(metaclass=Registered):
    \"\"\"Reads and writes the YAML format, tried after JSON.\"\"\"

    suffix = ".yaml"
"""
CLASSES_SWAPPED = "\n\n".join(reversed(CLASSES.split("\n\n\n"))) + "\n"


def two_classes(header: str, bases: str, *, swapped: bool = False) -> str:
    """A module of two classes on `bases`, swapped when `swapped`."""
    classes = [
        f"class {name}({bases}):\n"
        f'    """The {name} error, raised when a request is {name.lower()}."""\n\n'
        f'    status = "{name.lower()}"\n'
        for name in ("Refused", "Expired")
    ]
    if swapped:
        classes.reverse()
    return header + "\n\n".join(classes)


PLUGINS = """\
class Plugin:
    found = []

    def __init_subclass__(cls):
        Plugin.found.append(cls)


"""


def reordered(
    what: str, path: str, module: Callable[..., str], *parts: str, expected: str
) -> tuple[str, dict[str, str], dict[str, str], str]:
    """A MOVES case: `path` as `module(*parts)` makes it, then with its definitions
    reordered (`swapped`)."""
    return (what, {path: module(*parts)}, {path: module(*parts, swapped=True)}, expected)


FIRST_DEF = "def first(value):\n    total = value * 2 + 1\n    return total + len('abcdefghij')\n"
SECOND_DEF = "def second(value):\n    total = value * 3 + 2\n    return total + len('klmnopqrst')\n"
FIRST_THEN_SECOND = FIRST_DEF + "\n\n" + SECOND_DEF


def def_moved(
    what: str,
    path: str,
    head: str,
    definition: str,
    rest: str,
    *,
    up: bool = False,
    others: dict[str, str] | None = None,
) -> tuple[str, dict[str, str], dict[str, str], str]:
    """A MOVES case: `definition` moved from above `rest` to below it (`up`: from
    below to above), after `head`; `others` are files of the first commit."""
    above, below = f"{head}{definition}\n\n{rest}", f"{head}{rest}\n\n{definition}"
    old, new = (below, above) if up else (above, below)
    return (what, {**(others or {}), path: old}, {path: new}, "significant")


def second_moved_below(what: str, code: str) -> tuple[str, dict[str, str], dict[str, str], str]:
    """A MOVES case: `second` moved from above `first` and `code` to below them."""
    old = f"import sys\n\n\n{SECOND_DEF}\n\n{FIRST_DEF}\n\n{code}"
    new = f"import sys\n\n\n{FIRST_DEF}\n\n{code}\n\n{SECOND_DEF}"
    return (what, {"mod.py": old}, {"mod.py": new}, "significant")


# The sections of DOC, with a footnote reference each.
def footnoted(doc: str) -> str:
    return doc.replace("asks you.", "asks you.[^a]").replace("afterwards.", "afterwards.[^b]")


NOTES = "\n## Notes\n\n[^a]: The installer.\n[^b]: The settings.\n"


CHECKS_SWAPPED_CASE = def_moved(
    "two checks swapped where pytest collects `check_*` functions (python_functions)",
    "check_db.py",
    "DB = {}\n\n\n",
    'def check_connect_to_the_database():\n    DB["connection"] = "open"\n    assert DB\n',
    'def check_query_runs():\n    connection = DB["connection"]\n    assert connection\n',
    others={"pyproject.toml": '[tool.pytest.ini_options]\npython_functions = ["check_*"]\n'},
)
# A function and a section moved, with a blank line beside them taken out (found by
# an adversarial review: inside a string, and above a `---`, which makes the
# paragraph above it a heading). The same blank line between two statements, or
# one of two between paragraphs, is spacing.
USAGE_CLI = """import sys

USAGE = \"\"\"usage: tool [options] FILE
{gap}Reads FILE and prints a summary of it.
\"\"\"
{spacing}

{first}


{second}
"""
READ_DEF = (
    "def read_summary_of(path):\n    with open(path) as handle:\n"
    "        lines = handle.readlines()\n    return len(lines)"
)
MAIN_DEF = (
    "def main(argv):\n    if len(argv) != 2:\n        sys.stderr.write(USAGE)\n"
    "        return 2\n    print(read_summary_of(argv[1]))\n    return 0"
)
TOOL_PAGE = """# Tool

A command line tool that summarizes log files for operators.

## Overview

The tool reads log files and prints counts of errors per service.
{gap}---

{first}

{second}
"""
USAGE_SECTION = (
    "## Usage\n\nPass one or more log files on the command line to summarize them.\n"
    "Use a dash to read the log from standard input instead of a file."
)
OPTIONS_SECTION = (
    "## Options\n\nThe verbose option prints every matching line as well as the counts.\n"
    "The quiet option prints nothing but the exit status of the run."
)


def blank_beside_a_move(
    what: str, path: str, page: str, first: str, second: str, gaps: tuple[str, str], expected: str
) -> tuple[str, dict[str, str], dict[str, str], str]:
    """A MOVES case: `page` with `first` then `second`, then swapped, its {gap} and
    {spacing} (blank lines between statements) from the first of `gaps` to the second."""
    old = page.format(gap=gaps[0], spacing=gaps[0], first=first, second=second)
    new = page.format(gap=gaps[1], spacing=gaps[1], first=second, second=first)
    return (what, {path: old}, {path: new}, expected)


def section_moved(
    what: str, source: str, target: str, expected: str, front: str = ""
) -> tuple[str, dict[str, str], dict[str, str], str]:
    """A MOVES case: DOC's INSTALL section moved from `source` into `target`, a page
    of its own title under `front` matter."""
    old = {source: DOC, target: f"{front}# Setup\n"}
    new = {source: DOC.replace(INSTALL, ""), target: f"{front}# Setup\n\n{INSTALL}"}
    return (what, old, new, expected)


_ALPHA = (
    "def alpha(values):\n    total = 0\n    for value in values:\n        total += value\n"
    "    return total\n"
)
_BETA = (
    "def beta(values):\n    found = []\n    for value in values:\n        found.append(value)\n"
    "    return found\n"
)
_READ, _NOT_READ = "inspect.currentframe().f_lineno", "inspect.signature(alpha)"
_LINE_READER = (
    "import inspect\n\n\n{first}\n\n{second}\n\n"
    "def where():\n    return inspect.currentframe().f_lineno\n"
)
MOVES: list[tuple[str, dict[str, str], dict[str, str], str]] = [
    # (what, old files, new files, the classification of every hunk of the range)
    def_moved(
        "a helper moved below app.run(), which serves a view calling it",
        "app.py",
        FLASK + '\n\n@app.route("/")\ndef index():\n    return greeting_for_visitor("world")\n\n\n',
        "def greeting_for_visitor(name):\n    greeting = f'Hello, {name}!'.upper()\n"
        "    return greeting + ' and welcome to the site'\n",
        'app.config["GREETING"] = "hello"\napp.config["DEBUG"] = False\n'
        'app.config["PORT"] = 8080\napp.config["HOST"] = "0.0.0.0"\napp.run(port=8080)\n',
    ),
    (
        "a helper moved below a call, with nothing recorded to run it (control)",
        {"mod.py": f'import sys\n\n\n{SECOND_DEF}\n\n{FIRST_DEF}\n\nprint("ready")\n'},
        {"mod.py": f'import sys\n\n\n{FIRST_DEF}\n\nprint("ready")\n\n\n{SECOND_DEF}'},
        "trivial",
    ),
    blank_beside_a_move(
        "a function moved, a blank line taken out of a string beside it",
        "cli.py",
        USAGE_CLI,
        READ_DEF,
        MAIN_DEF,
        ("\n", ""),
        "significant",
    ),
    blank_beside_a_move(
        "a section moved, the blank line above a rule taken out (the paragraph a heading)",
        "README.md",
        TOOL_PAGE,
        USAGE_SECTION,
        OPTIONS_SECTION,
        ("\n", ""),
        "significant",
    ),
    blank_beside_a_move(
        "a section moved, one of two blank lines above a rule taken out",
        "README.md",
        TOOL_PAGE,
        USAGE_SECTION,
        OPTIONS_SECTION,
        ("\n\n", "\n"),
        "trivial",
    ),
    blank_beside_a_move(
        "a function moved, a blank line between statements beside it taken out",
        "cli.py",
        USAGE_CLI.replace("{gap}", "\n"),
        READ_DEF,
        MAIN_DEF,
        ("\n", ""),
        "trivial",
    ),
    (
        "a permission check moved after the debit",
        {"bank.py": CHECKS},
        {"bank.py": CHECK_AFTER_DEBIT},
        "significant",
    ),
    (
        "two validation checks swapped",
        {"bank.py": CHECKS},
        {"bank.py": CHECKS_SWAPPED},
        "significant",
    ),
    (
        "two top-level functions swapped",
        {"circle.py": HELPERS},
        {"circle.py": HELPERS_SWAPPED},
        "trivial",
    ),
    (
        "two tests swapped (pytest runs a file's tests in their order)",
        {"test_circle.py": HELPERS.replace("def ", "def test_")},
        {"test_circle.py": HELPERS_SWAPPED.replace("def ", "def test_")},
        "significant",
    ),
    (
        "two helpers swapped in a test file",
        {"test_circle.py": HELPERS},
        {"test_circle.py": HELPERS_SWAPPED},
        "trivial",
    ),
    (
        "two functions swapped in a module that lists them with globals()",
        {
            "circle.py": HELPERS
            + "\n\nRULES = [f for f in list(globals().values()) if callable(f)]\n"
        },
        {
            "circle.py": HELPERS_SWAPPED
            + "\n\nRULES = [f for f in list(globals().values()) if callable(f)]\n"
        },
        "significant",
    ),
    reordered(
        "two subclasses swapped where their base lists them (__subclasses__)",
        "errors.py",
        two_classes,
        "class Base:\n    def first(self):\n        return Base.__subclasses__()[0]\n\n\n",
        "Base",
        expected="significant",
    ),
    reordered(
        "two subclasses of the module's own base swapped",
        "errors.py",
        two_classes,
        "class Base:\n    pass\n\n\n",
        "Base",
        expected="trivial",
    ),
    (
        "a function moved after the statement that registers it",
        {"events.py": REGISTERED},
        {"events.py": REGISTERED_TOO_EARLY},
        "significant",
    ),
    (
        "a function moved below an import-time call that reaches it",
        {"setup.py": SETUP},
        {"setup.py": SETUP_MOVED},
        "significant",
    ),
    (
        "a function moved into a module without the import it needs",
        {"circle.py": HELPERS, "shapes.py": "SIDES = 0\n"},
        {
            "circle.py": "import math\n",
            "shapes.py": "SIDES = 0\n\n\n" + AREA_AND_PERIMETER,
        },
        "significant",
    ),
    (
        "a function moved into another module that imports what it needs (who imported it "
        "from the old one no longer finds it)",
        {"circle.py": HELPERS, "shapes.py": "import math\n"},
        {
            "circle.py": "import math\n",
            "shapes.py": "import math\n\n\n" + AREA_AND_PERIMETER,
        },
        "significant",
    ),
    (
        "a function moved away from a module that still calls it",
        {"circle.py": HELPERS + "\n\nUNIT = area(1)\n", "shapes.py": "import math\n"},
        {
            "circle.py": "import math\n\n\nUNIT = area(1)\n",
            "shapes.py": "import math\n\n\n" + AREA_AND_PERIMETER,
        },
        "significant",
    ),
    (
        "a function moved away from a module that still exports it",
        {"circle.py": EXPORTS + HELPERS, "shapes.py": "import math\n"},
        {
            "circle.py": EXPORTS + "import math\n",
            "shapes.py": "import math\n\n\n" + AREA_AND_PERIMETER,
        },
        "significant",
    ),
    reordered(
        "three request hooks reordered (a decorator records each: they run in that order)",
        "hooks.py",
        decorated,
        FLASK,
        "@app.before_request  # {name}",
        expected="significant",
    ),
    reordered(
        "three cached functions reordered (functools' decorators record nothing)",
        "cached.py",
        decorated,
        "import functools\n",
        "@functools.lru_cache(typed={name!r} > 'b')",
        expected="trivial",
    ),
    reordered(
        "three functions reordered under a decorator imported as dataclass from elsewhere",
        "shadowed.py",
        decorated,
        "from registry import record as dataclass\n",
        "@dataclass(name='{name}')",
        expected="significant",
    ),
    reordered(
        "three fixtures reordered",
        "conftest.py",
        decorated,
        "import pytest\n",
        "@pytest.fixture(name='{name}_step')",
        expected="trivial",
    ),
    reordered(
        "three autouse fixtures reordered (set up in the order of definition)",
        "conftest.py",
        decorated,
        "import pytest\n",
        "@pytest.fixture(name='{name}_step', autouse=True)",
        expected="significant",
    ),
    (
        "two functions whose defaults call next() swapped (each takes the other's number)",
        {"steps.py": NUMBERED},
        {"steps.py": NUMBERED_SWAPPED},
        "significant",
    ),
    (
        "two classes under a metaclass swapped (it may record them in order)",
        {"formats.py": REGISTRY + CLASSES},
        {"formats.py": REGISTRY + CLASSES_SWAPPED},
        "significant",
    ),
    reordered(
        "two exception classes swapped (builtin bases record nothing)",
        "errors.py",
        two_classes,
        "",
        "PermissionError",
        expected="trivial",
    ),
    reordered(
        "two models swapped (an imported base may record its subclasses)",
        "models.py",
        two_classes,
        "from django.db import models\n\n\n",
        "models.Model",
        expected="significant",
    ),
    reordered(
        "two plugins swapped (the module's base records subclasses in __init_subclass__)",
        "plugins.py",
        two_classes,
        PLUGINS,
        "Plugin",
        expected="significant",
    ),
    (
        "two Markdown sections swapped",
        {"guide.md": DOC},
        {"guide.md": DOC_SWAPPED},
        "trivial",
    ),
    (
        "two numbered steps swapped (their headings number them)",
        {
            "guide.md": DOC.replace("## On Linux", "## 1. Install").replace(
                "## On Windows", "## 2. Configure"
            )
        },
        {
            "guide.md": DOC_SWAPPED.replace("## On Linux", "## 1. Install").replace(
                "## On Windows", "## 2. Configure"
            )
        },
        "significant",
    ),
    (
        "a section moved after one whose heading says what comes next",
        {"guide.md": DOC.replace("## On Windows", "## Then configure")},
        {"guide.md": DOC_SWAPPED.replace("## On Windows", "## Then configure")},
        "significant",
    ),
    (
        "two Markdown sections that each define one link label swapped (the first one wins)",
        {"guide.md": LABELLED},
        {"guide.md": LABELLED_SWAPPED},
        "significant",
    ),
    (
        "a Markdown subsection moved under another heading",
        {"guide.md": NESTED},
        {"guide.md": NESTED_MOVED},
        "significant",
    ),
    # Found by an eighth adversarial review: each was `moved`.
    (
        "a definition moved below a change to a value its defaults copy",
        {"conn.py": MUTATED},
        {"conn.py": MUTATED_MOVED},
        "significant",
    ),
    (
        "two titles swapped (the first is the page's title)",
        {"guide.md": DOC.replace("## ", "# ").replace("# Guide\n\nRead this first.\n\n", "")},
        {
            "guide.md": DOC_SWAPPED.replace("## ", "# ").replace(
                "# Guide\n\nRead this first.\n\n", ""
            )
        },
        "significant",
    ),
    (
        "the first two sections of a Hugo page swapped (its summary)",
        {"content/guide.md": DOC},
        {"content/guide.md": DOC_SWAPPED},
        "significant",
    ),
    (
        "a Markdown section moved into a page of another folder",
        {"docs/guide.md": DOC, "NOTES.md": "# Notes\n"},
        {"docs/guide.md": DOC.replace(INSTALL, ""), "NOTES.md": "# Notes\n\n" + INSTALL},
        "significant",
    ),
    (
        "a Markdown section with a MyST role moved into another page",
        {"guide.md": DOC.replace("every question", "every {doc}`question`"), "b.md": "# B\n"},
        {
            "guide.md": DOC.replace(INSTALL, ""),
            "b.md": "# B\n\n" + INSTALL.replace("every question", "every {doc}`question`"),
        },
        "significant",
    ),
    # Found by an eleventh adversarial review: each was `moved`.
    section_moved(
        "a Markdown section moved out of AGENTS.md, which coding agents load",
        "AGENTS.md",
        "setup.md",
        "significant",
    ),
    section_moved(
        "a Markdown section moved into a draft page",
        "guide.md",
        "setup.md",
        "significant",
        front="---\ndraft: true\n---\n",
    ),
    (
        "two parts of mdBook's SUMMARY.md swapped (the chapters' order)",
        {"SUMMARY.md": DOC},
        {"SUMMARY.md": DOC_SWAPPED},
        "significant",
    ),
    # A review of those fixes: each was still `moved`.
    section_moved(
        "a Markdown section moved out of a lower-case readme.md (GitHub's front page)",
        "readme.md",
        "setup.md",
        "significant",
    ),
    section_moved(
        "a Markdown section moved out of .github/copilot-instructions.md",
        ".github/copilot-instructions.md",
        ".github/setup.md",
        "significant",
    ),
    section_moved(
        "a Markdown section moved into a page Hugo does not render (build: render: never)",
        "guide.md",
        "setup.md",
        "significant",
        front="---\nbuild:\n  render: never\n---\n",
    ),
    (
        "two sections of a GitHub wiki's _Sidebar.md swapped",
        {"_Sidebar.md": DOC},
        {"_Sidebar.md": DOC_SWAPPED},
        "significant",
    ),
    section_moved(
        "a Markdown section moved between two pages of a docs/plugins/ folder (pages, not code)",
        "docs/plugins/blog.md",
        "docs/plugins/search.md",
        "trivial",
    ),
    (
        "a Markdown section moved into another page",
        {"guide.md": DOC, "setup.md": "# Setup\n"},
        {"guide.md": DOC.replace(INSTALL, ""), "setup.md": "# Setup\n\n" + INSTALL},
        "trivial",
    ),
    (
        "a Markdown section with a link moved into another page (links are not followed)",
        {"guide.md": DOC.replace(INSTALL, LINKED), "b.md": "# B\n", "tools/install.sh": "\n"},
        {"guide.md": DOC.replace(INSTALL, ""), "b.md": "# B\n\n" + LINKED},
        "significant",
    ),
    # Found by an adversarial review: each was `moved`.
    (
        "a function moved above the module's docstring (then no docstring)",
        {"mod.py": '"""The module."""\n\n' + FIRST_THEN_SECOND},
        {"mod.py": SECOND_DEF + '\n\n"""The module."""\n\n' + FIRST_DEF},
        "significant",
    ),
    (
        "a function moved above the #! line",
        {"mod.py": "#!/usr/bin/env python3\n" + FIRST_THEN_SECOND},
        {"mod.py": SECOND_DEF + "#!/usr/bin/env python3\n" + FIRST_DEF},
        "significant",
    ),
    # Found by a fourth adversarial review: each was `moved`. A definition moved below
    # a line that reads it at import time by a string, or by a value; below a call
    # that rebinds it; out from under a comment tools read by its place.
    second_moved_below(
        "a function moved below a line that runs it by eval('...')",
        "VALUE = eval('second(3)')\n",
    ),
    second_moved_below(
        "a function moved below a line that reads it by getattr(module, 'name')",
        'VALUE = getattr(sys.modules[__name__], "second")\n',
    ),
    second_moved_below(
        "a function moved below a line that runs code it is given (eval(source))",
        "VALUE = eval(SOURCE)\n",
    ),
    second_moved_below(
        "a function moved below a call that rebinds it (`global`)",
        "def init():\n    global second\n    second = len\n\n\ninit()\n",
    ),
    # Found by a fifth adversarial review: each was `moved`.
    def_moved(
        "a function moved below the block a script runs (unittest.main() finds the tests)",
        "check_pair.py",
        "import unittest\n\n\n",
        'def make_pair(first, second):\n    """The pair."""\n    return (first, second)\n',
        "class PairTest(unittest.TestCase):\n    def test_pair(self):\n"
        "        self.assertEqual(make_pair(1, 2), (1, 2))\n\n\n"
        'if __name__ == "__main__":\n    unittest.main()\n',
    ),
    def_moved(
        "a function moved below a line that hands over another that calls it (key=)",
        "ranks.py",
        'RAW = ["beta", "alpha"]\n\n\ndef by_rank(name):\n    return rank_of(name)\n\n\n',
        'def rank_of(name):\n    """Where a name sorts."""\n    return (len(name), name)\n',
        "ORDERED = sorted(RAW, key=by_rank)\nFIRST = ORDERED[0]\nLAST = ORDERED[-1]\n",
    ),
    def_moved(
        "a function moved below a comprehension that calls it",
        "table.py",
        'NAMES = ["alpha", "beta"]\n\n\n',
        'def slug(name):\n    """The name in capitals."""\n    return name.upper()\n',
        'TABLE = {name: slug(name) for name in NAMES}\nDEFAULT = TABLE["alpha"]\nprint(TABLE)\n',
    ),
    def_moved(
        "a function moved below a class whose body calls it in a comprehension",
        "status.py",
        "",
        'def label(code):\n    """The label of a code."""\n    return f"status {code}"\n',
        "class Status:\n    CODES = (200, 404)\n    LABELS = [label(code) for code in CODES]\n",
    ),
    def_moved(
        "a function shadowing a builtin moved above the lines that read the builtin",
        "prices.py",
        '"""Invoice totals."""\n\n',
        'def round(value, digits=0):\n    """Half away from zero."""\n'
        "    return int(value * 10**digits + 0.5) / 10**digits\n",
        "PRICE = 2.675\nSHOWN = round(PRICE, 2)\nTOTAL = round(PRICE * 3, 2)\nprint(SHOWN)\n",
        up=True,
    ),
    def_moved(
        "a function moved below an import of the package's module that imports it back",
        "app/__init__.py",
        '"""The application."""\n\nREGISTRY = {}\n\n\n',
        'def get_setting(name):\n    """A setting."""\n    return REGISTRY.get(name, "unset")\n',
        'from app import views  # noqa: E402\n\nVERSION = "1.0"\n',
        others={"app/views.py": 'from app import get_setting\n\nTITLE = get_setting("title")\n'},
    ),
    def_moved(
        "a function moved away from the comment above it, which now documents another",
        "fw.py",
        '"""Firmware helpers."""\n\n\n# Deprecated: kept for old firmware only.\n',
        "def checksum(payload):\n    total = sum(payload)\n    return total % 256\n",
        'def crc16(payload):\n    """The CRC-16."""\n    value = 0xFFFF\n    return value\n',
    ),
    def_moved(
        "two tests swapped in a file pytest.ini collects (`python_files = check_*.py`)",
        "check_cache.py",
        "CACHE = {}\n\n\n",
        'def test_fill_cache():\n    CACHE["mode"] = "fast"\n    assert CACHE\n',
        'def test_mode_is_read():\n    mode = CACHE["mode"]\n    assert mode == "fast"\n',
        others={"pytest.ini": "[pytest]\npython_files = check_*.py\n"},
    ),
    (
        "two Markdown sections with footnote references swapped (footnotes are numbered)",
        {"guide.md": footnoted(DOC) + NOTES},
        {"guide.md": footnoted(DOC_SWAPPED) + NOTES},
        "significant",
    ),
    (
        "a Markdown section moved into a Hugo shortcode's block",
        {
            "guide.md": DOC.replace(
                "## On Linux", "{{% beta %}}\n\nBeta only.\n\n{{% /beta %}}\n\n## On Linux"
            )
        },
        {
            "guide.md": DOC_SWAPPED.replace(
                "## On Windows", "{{% beta %}}\n\nBeta only.\n\n{{% /beta %}}\n\n## On Windows"
            )
        },
        "significant",
    ),
    def_moved(
        "a class moved whose body extends the module's list (no call in it)",
        "plugins.py",
        "ORDER = []\n\n\nclass Beta:\n    ORDER += ['beta plugin']\n\n\n",
        "class Alpha:\n    ORDER += ['the alpha plugin, first']\n    NAME = 'alpha plugin'\n",
        "FIRST = ORDER[0]\nLAST = ORDER[-1]\nCOUNT = len(ORDER)\nprint(FIRST, LAST, COUNT)\n",
    ),
    def_moved(
        "a class moved whose body holds a descriptor of the module's (`__set_name__`)",
        "models.py",
        "column = Column()\n\n\nclass Invoice:\n    total = column\n\n\n",
        "class Customer:\n    name = column\n    kind = 'the customer who pays the invoice'\n",
        "SEEN = Column.seen\nFIRST = SEEN[0]\nLAST = SEEN[-1]\nprint(FIRST, LAST)\n",
    ),
    CHECKS_SWAPPED_CASE,
    (
        "a function moved with the comment above it (control)",
        {"fw.py": "# Deprecated: kept for old firmware.\n" + FIRST_THEN_SECOND},
        {"fw.py": SECOND_DEF + "\n\n# Deprecated: kept for old firmware.\n" + FIRST_DEF},
        "trivial",
    ),
    (
        "a function moved out from under `# pylint: disable=all`",
        {"mod.py": FIRST_DEF + "\n\n# pylint: disable=all\n\n\n" + SECOND_DEF},
        {"mod.py": SECOND_DEF + "\n\n" + FIRST_DEF + "\n\n# pylint: disable=all\n"},
        "significant",
    ),
    # Controls: the same modules, where the move crosses none of these.
    (
        "a function moved, a line below both running the other one by eval('...')",
        {"mod.py": SECOND_DEF + "\n\n" + FIRST_DEF + "\n\nVALUE = eval('first(3)')\n"},
        {"mod.py": FIRST_DEF + "\n\n" + SECOND_DEF + "\n\nVALUE = eval('first(3)')\n"},
        "trivial",
    ),
    (
        "two functions swapped below `# pylint: disable=all`",
        {"mod.py": "# pylint: disable=all\n\n\n" + FIRST_THEN_SECOND},
        {"mod.py": "# pylint: disable=all\n\n\n" + SECOND_DEF + "\n\n" + FIRST_DEF},
        "trivial",
    ),
    (
        "two Markdown sections swapped in a page with a <details> element",
        {"guide.md": DOC.replace("Read this first.\n", "Read this first.\n\n<details>\n")},
        {"guide.md": DOC_SWAPPED.replace("Read this first.\n", "Read this first.\n\n<details>\n")},
        "significant",
    ),
    (
        "a Markdown section with an image's srcset moved into another page",
        {
            "guide.md": DOC.replace(INSTALL, INSTALL + '<img alt="x" srcset="pic.png">\n\n'),
            "b.md": "# B\n",
        },
        {
            "guide.md": DOC.replace(INSTALL, ""),
            "b.md": "# B\n\n" + INSTALL + '<img alt="x" srcset="pic.png">\n\n',
        },
        "significant",
    ),
    (
        # Found by an eleventh adversarial review: where() below says another line.
        "a function moved above a function that reads its own line number",
        {"where.py": _LINE_READER.format(first=_ALPHA, second=_BETA)},
        {"where.py": _LINE_READER.format(first=_BETA, second=_ALPHA)},
        "significant",
    ),
    *(
        (
            f"a function moved above one that reads its line by {spelled} (a review of the fix)",
            {"where.py": _LINE_READER.format(first=_ALPHA, second=_BETA).replace(_READ, spelled)},
            {"where.py": _LINE_READER.format(first=_BETA, second=_ALPHA).replace(_READ, spelled)},
            "significant",
        )
        for spelled in ("inspect.getsourcelines(where)[1]", "where.__code__.co_firstlineno")
    ),
    (
        "the same move in a module that reads no line number (control)",
        {"where.py": _LINE_READER.format(first=_ALPHA, second=_BETA).replace(_READ, _NOT_READ)},
        {"where.py": _LINE_READER.format(first=_BETA, second=_ALPHA).replace(_READ, _NOT_READ)},
        "trivial",
    ),
    (
        "two YAML steps swapped",
        {"ci.yml": STEPS},
        {"ci.yml": STEPS_SWAPPED},
        "significant",
    ),
    (
        "two Makefile rules swapped (the first is the default goal)",
        {"Makefile": MAKEFILE},
        {"Makefile": MAKEFILE_SWAPPED},
        "significant",
    ),
    (
        "module-level assignments moved",
        {"settings.py": SETTINGS},
        {"settings.py": SETTINGS_REORDERED},
        "significant",
    ),
    (
        "a property's setter moved before its getter",
        {"account.py": METHODS},
        {"account.py": METHODS_SWAPPED},
        "significant",
    ),
]


@pytest.mark.parametrize(("what", "old", "new", "expected"), MOVES, ids=[m[0] for m in MOVES])
def test_order_decides_what_a_move_is(
    tmp_path: Path, what: str, old: dict[str, str], new: dict[str, str], expected: str
) -> None:
    repo = two_commits(tmp_path / "repo", old, new)
    manifest = manifest_of("--repo", repo, "--fail-on", "never", "HEAD")
    for entry in files_by_path(manifest).values():
        assert entry["classification"] == expected, (what, entry)
        for hunk in entry.get("hunks", []):  # a trivial file lists none
            assert hunk["classification"] == expected, (what, hunk)
            if hunk["reasons"] == ["content"]:
                # Every line moved: significant, the hunk still points at the other place.
                assert hunk.get("moved_from") or hunk.get("moved_to"), (what, hunk)


def test_explain_says_why_a_reordering_is_no_move(tmp_path: Path) -> None:
    repo = two_commits(tmp_path / "repo", {"bank.py": CHECKS}, {"bank.py": CHECK_AFTER_DEBIT})
    [entry] = files_by_path(manifest_of("--repo", repo, "HEAD")).values()
    [hunk] = entry["hunks"]
    # One hunk: the lines left in one place and arrived in another of the same hunk.
    [went], [came] = hunk["moved_to"], hunk["moved_from"]
    result = run("explain", "--repo", repo, hunk["handle"], "HEAD")
    assert result.stdout == (
        f"{hunk['handle']}\n  significant: content\n  moved to {went}; moved from {came}, "
        "but a move is trivial only for whole top-level definitions or sections: "
        "the order of statements, keys and rules is meaning\n"
    )


def test_explain_names_the_decorator_that_records_a_moved_function(tmp_path: Path) -> None:
    hooks = "@app.before_request  # {name}"
    repo = two_commits(
        tmp_path / "repo",
        {"hooks.py": decorated(FLASK, hooks)},
        {"hooks.py": decorated(FLASK, hooks, swapped=True)},
    )
    [entry] = files_by_path(manifest_of("--repo", repo, "HEAD")).values()
    why = {
        hunk["handle"]: run("explain", "--repo", repo, hunk["handle"], "HEAD").stdout
        for hunk in entry["hunks"]
    }
    assert len(why) == 2
    for handle, said in why.items():
        assert said.startswith(f"{handle}\n  significant: content\n  moved "), said
        assert said.endswith(
            ", but @app.before_request runs as authenticate is defined, in the order of "
            "definition, and may record it or have effects (a hook, a receiver, a handler): "
            "its place is meaning\n"
        ), said


def outline_reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The paths whose blobs are read one by one from now on (`ObjectReader.read`:
    a moved block's outline, a copy's source)."""
    from gitreview.git import ObjectReader

    paths: list[str] = []
    read = ObjectReader.read

    def recorded(reader: ObjectReader, oid: str, kind: str, path: str = "") -> bytes:
        paths.append(path)
        return read(reader, oid, kind, path)

    monkeypatch.setattr(ObjectReader, "read", recorded)
    return paths


def test_an_outline_reads_its_sides_only_when_a_moved_block_asks(
    fixture_repo: RepoFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file whose changed lines could start a unit is outlined only if a moved
    block needs it, and its texts are not held meanwhile: they are read from git
    then (issue 12: a release range held 13 MB of them, and no block asked)."""
    from gitreview.pipeline import classify_range

    read = outline_reads(monkeypatch)
    moved = classify_range(fixture_repo("moves"), "v1..v2", cache=False)
    assert {c.verdict.outline for c in moved.files} == {None}  # dropped once moves are known
    assert sorted(set(read)) == ["src/audit.py", "src/ledger.py", "src/report.py"]
    read.clear()
    # A Python file changed where a definition starts (it is outlined), and no block moved.
    unmoved = classify_range(fixture_repo("meaning"), "v1..v2", cache=False)
    assert any(
        c.kind == "python" and c.verdict.classification == "significant" for c in unmoved.files
    )
    assert read == []


def test_a_range_cannot_drop_the_pytest_option_that_makes_its_moves_significant(
    tmp_path: Path,
) -> None:
    """Asked of the base too: a range that drops `python_functions` and swaps two
    checks does not make their swap trivial."""
    _, old, new, _ = CHECKS_SWAPPED_CASE
    repo = two_commits(
        tmp_path / "repo", old, {**new, "pyproject.toml": "[tool.pytest.ini_options]\n"}
    )
    entry = files_by_path(manifest_of("--repo", repo, "--fail-on", "never", "HEAD"))["check_db.py"]
    assert entry["classification"] == "significant"
    assert all(hunk.get("moved_from") or hunk.get("moved_to") for hunk in entry["hunks"])


def test_a_call_that_only_makes_a_value_runs_nothing_recorded(tmp_path: Path) -> None:
    """A review of the fix: below a recorded definition, `T = TypeVar("T")` made every
    function moved across it significant."""
    model = "from pydantic import BaseModel\n\n\nclass User(BaseModel):\n    name: str\n\n\n"
    calls = 'T = TypeVar("T")\nPATTERN = re.compile("[a-z]+")\n\n\n'
    head = "import re\nfrom typing import TypeVar\n\n" + model + calls
    old = head + f"{SECOND_DEF}\n\n{FIRST_DEF}\n\nprint(first(1), second(2))\n"
    new = head + f"{FIRST_DEF}\n\n{SECOND_DEF}\n\nprint(first(1), second(2))\n"
    repo = two_commits(tmp_path / "repo", {"models.py": old}, {"models.py": new})
    [entry] = manifest_of("--repo", repo, "--fail-on", "never", "HEAD")["files"]
    assert (entry["classification"], entry["reasons"]) == ("trivial", ["moved"]), entry


def test_a_blank_line_above_the_front_matter_beside_a_move_is_meaning(tmp_path: Path) -> None:
    """A review of the fix: a blank line put above a page's front matter, in the hunk
    of two sections swapped, rode along with the move; the page lost its front
    matter (read only from line 1)."""
    front = "---\nhide:\n  - navigation\n---\n# Tool\n\n"
    repo = two_commits(
        tmp_path / "repo",
        {"page.md": f"{front}{USAGE_SECTION}\n\n{OPTIONS_SECTION}\n"},
        {"page.md": f"\n{front}{OPTIONS_SECTION}\n\n{USAGE_SECTION}\n"},
    )
    manifest = manifest_of("--repo", repo, "HEAD")
    [item] = [i for r in manifest["review"].values() for b in r["batches"] for i in b["handles"]]
    assert item.get("moved_to") and item.get("moved_from"), item  # moved, yet significant


def test_moved_lines_that_make_no_block_are_compared_in_bounded_time(tmp_path: Path) -> None:
    """Found by a twelfth adversarial review: 3,000 lines of `}` moved from one file
    to another, which never make a big enough block, took a minute and a half (each
    line was compared with all the others), and no proof time limit covers this."""
    import time

    lines = "}\n" * 20_000
    repo = two_commits(
        tmp_path / "repo",
        {"a.txt": f"start\n{lines}end\n", "b.txt": "hello\n"},
        {"a.txt": "start\nend\n", "b.txt": f"hello\n{lines}"},
    )
    started = time.perf_counter()
    entries = files_by_path(manifest_of("--repo", repo, "HEAD", "--no-cache"))
    assert time.perf_counter() - started < 30  # a blow-up bound, not a speed target
    assert entries["b.txt"]["classification"] == "significant"
