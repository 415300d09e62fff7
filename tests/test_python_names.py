"""A Python hunk whose names and numbers tell its statements differ, before any parse
(issue 12): never where the comparison would find them the same, and the base is
not parsed for a file whose every hunk tells so."""

import random
from typing import Any

import pytest
from findings import analysis_of, change_of

from gitreview.classify import FileFacts, classify, python_names, statements
from gitreview.config import Config

MODULE = '''"""A module: its docstring names total and 42."""

import os
from collections import OrderedDict as Ordered

LIMIT = 0x1F
RATIO = .5
NAMES = [u"alpha", rb"beta", f"{os.sep}gamma"]


def first(values, limit=LIMIT):
    """Sum the values up to a limit."""
    total = 0  # running total
    for value in values:
        if value > limit:
            break
        elif value < 0:
            continue
        total += value
    return total


def second(mapping):
    result = some_function_with_a_long_name(mapping, "key", default=None, strict=True)
    return Ordered(sorted(result.items()))


class Holder:
    size = 10

    def grow(self, by=2):
        self.size = self.size * by + 1
        return self.size


def third(text):
    return f"{text!r} has {len(text)} characters"
'''


def facts_of(old: str, new: str) -> FileFacts:
    change = change_of("a.py", old, new)
    return FileFacts(change, "python", analysis_of("a.py", old, new), Config(), {}, {}, ())


def told(old: str, new: str) -> list[bool]:
    """Whether the formatting rule is told each hunk's statements differ, asked
    hunk by hunk as the rules ask."""
    facts = facts_of(old, new)
    return [statements.changes_meaning(facts, hunk) for hunk in facts.change.hunks]


def compared(old: str, new: str) -> list[bool] | None:
    """Whether the statement comparison finds each hunk's statements differ."""
    facts = facts_of(old, new)
    parsed = statements.parsed_sides(facts)
    if parsed is None:
        return None
    lines = (old.count("\n") + 1, new.count("\n") + 1)
    found = statements.differences(*parsed, facts.change.hunks, *lines)
    assert found is not None
    return [found.touches(hunk) for hunk in facts.change.hunks]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("x = 1\n", "y = 1\n"),  # a name renamed
        ("x = 1\n", "x = 2\n"),  # a number changed
        ("x = 1\n", "x = 1.0\n"),  # an int became a float
        ("x = f(a)\n", "x = f(a, a)\n"),  # a name once more, in this hunk only
    ],
)
def test_a_changed_name_or_number_tells(old: str, new: str) -> None:
    assert told(old, new) == [True] and compared(old, new) == [True]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # What a formatter or a reader may write differently for the same tree.
        ("MASK = 0XFF\nHALF = .5\nONE = 1.\n", "MASK = 0xFF\nHALF = 0.5\nONE = 1.0\n"),
        ("N = 1_000\nE = 1E5\nJ = 2J\n", "N = 1000\nE = 1e5\nJ = 2j\n"),
        ("s = u'x' + B'y' + Rb'z'\n", 's = "x" + b"y" + rb"z"\n'),
        ("if a:\n    x()\nelse:\n    if b:\n        y()\n", "if a:\n    x()\nelif b:\n    y()\n"),
        ("x = f(a, k=1, *rest)\n", "x = f(a, *rest, k=1)\n"),
        ("call(first,\n     second)\n", "call(\n    first,\n    second,\n)\n"),
        # What the tree does not hold: strings' and comments' words, the `_` pattern.
        ("x = 'total'  # count\n", "x = 'count'  # total\n"),
        ('x = """\ntotal\n"""\n', 'x = """\ncount\n"""\n'),
        ("x = f'{a}'\n", "x = f'{b}'\n"),
    ],
)
def test_what_a_tree_does_not_tell_apart_is_not_told(old: str, new: str) -> None:
    assert told(old, new) == [False] * len(facts_of(old, new).change.hunks)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("name = 1\n", "nåme = 1\n"),  # Python normalizes names (NFKC): not read here
        ("x = 1if y else 2\n", "x = 2if y else 2\n"),  # not a number Python would take
        ("x = 0777\n", "x = 0o777\n"),
        ("x = 'open\ny = 1\n", "x = 'open\ny = 2\n"),  # the lexer is not sure
    ],
)
def test_what_cannot_be_read_surely_tells_nothing(old: str, new: str) -> None:
    [hunk] = facts_of(old, new).change.hunks
    assert python_names.read(hunk, python_names.Side(old), python_names.Side(new)) is None
    assert told(old, new) == [False]


def test_a_name_two_hunks_trade_tells_neither() -> None:
    """A keyword argument written after the starred ones instead of before: the same
    tree. Each hunk holds the name on one side only, but the file on both."""
    middle = "".join(f"    *rest_{i},\n" for i in range(8))
    old = f"x = call(\n    key=moved,\n{middle})\n"
    new = f"x = call(\n{middle}    key=moved,\n)\n"
    assert len(facts_of(old, new).change.hunks) == 2
    assert compared(old, new) == [False, False]  # the same tree
    assert told(old, new) == [False, False]


EDITS = (
    ("total", "amount"),
    ("value", "item"),
    ("LIMIT", "CEILING"),
    ("10", "11"),
    ("0x1F", "31"),
    (".5", "0.5"),
    ("+ 1", "+ 2"),
    ('u"alpha"', '"alpha"'),
    (
        "        elif value < 0:\n            continue\n",
        "        else:\n            if value < 0:\n                continue\n",
    ),
    (
        '(mapping, "key", default=None, strict=True)',
        '(\n        mapping, "key", default=None, strict=True\n    )',
    ),
    ("  # running total", ""),
    ("break", "return total"),
    ("(values, limit=LIMIT)", "(values, limit=LIMIT, *extra)"),
    ("self.size * by", "by * self.size"),
    ("sorted(", "reversed("),
    ('"""Sum the values up to a limit."""', '"""Sum the values up to a limit: total."""'),
)


@pytest.mark.parametrize("seed", range(40))
def test_what_is_told_the_comparison_finds(seed: int) -> None:
    """Random combinations of renames, renumbering, reformatting and real edits: a
    hunk told to differ is one the comparison finds differing (never one it would
    prove formatting)."""
    chooser = random.Random(seed)
    new = MODULE
    for old_text, new_text in chooser.sample(EDITS, chooser.randint(1, 5)):
        places = [i for i in range(len(new)) if new.startswith(old_text, i)]
        if places:
            at = chooser.choice(places)
            new = new[:at] + new_text + new[at + len(old_text) :]
    found, truth = told(MODULE, new), compared(MODULE, new)
    assert truth is not None
    assert all(truth[i] for i, differs in enumerate(found) if differs), (found, truth, new)


def test_the_base_is_not_parsed_where_every_hunk_tells(monkeypatch: pytest.MonkeyPatch) -> None:
    """A variable renamed in every hunk of a file: no parse of the base, and the same
    verdict the comparison gives."""
    import ast

    parsed: list[str] = []
    parse = ast.parse

    def counted(source: str, *args: Any, **kwargs: Any) -> Any:
        parsed.append(source)
        return parse(source, *args, **kwargs)

    padding = "".join(f"PAD_{i} = {i}\n" for i in range(8))
    old = f"total = 1\n{padding}print(total)\n"
    new = f"amount = 1\n{padding}print(amount)\n"
    monkeypatch.setattr(ast, "parse", counted)
    facts = facts_of(old, new)
    assert len(facts.change.hunks) == 2
    verdict = classify(facts)
    assert [hunk.classification for hunk in verdict.hunks] == ["significant", "significant"]
    assert parsed == [new]  # the head, by its analysis
    monkeypatch.setattr(ast, "parse", parse)
    assert compared(old, new) == [True, True]


@pytest.mark.parametrize(
    ("first_old", "first_new", "reads"),
    [
        ("x = f(a,b)", "x = f(a, b,)", 0),  # written alike: not even read
        ("x = f(.5)", "x = f(0.5)", 1),  # the same numbers, spelled otherwise
    ],
)
def test_a_hunk_holding_the_same_names_asks_for_the_comparison_at_once(
    monkeypatch: pytest.MonkeyPatch, first_old: str, first_new: str, reads: int
) -> None:
    """A reformatted hunk asked first: the comparison is needed for it whatever the
    others hold, so they are not read (a reformatted file pays for one hunk)."""
    read: list[object] = []
    reader = python_names.read

    def counted(*args: Any) -> Any:
        read.append(args[0])
        return reader(*args)

    padding = "".join(f"PAD_{i} = {i}\n" for i in range(8))
    old = f"{first_old}\n{padding}total = 1\n"
    new = f"{first_new}\n{padding}amount = 1\n"
    monkeypatch.setattr(python_names, "read", counted)
    verdict = classify(facts_of(old, new))
    assert [(h.classification, h.reasons) for h in verdict.hunks] == [
        ("trivial", ("formatting",)),
        ("significant", ("content",)),
    ]
    assert len(read) == reads
