"""Patterns compiled when first used (gitreview/patterns.py, issue 12)."""

from __future__ import annotations

import copy
import pickle
import re
import subprocess
import sys
from typing import Any

import pytest
from repos import isolated_environment

from gitreview.patterns import lazy_compile


@pytest.mark.parametrize(
    ("pattern", "flags", "subject"),
    [
        (r"(?P<word>[a-z]+)\s+(\d+)", 0, "see chapter 12 and verse 3"),
        (r"^#\s*define\b.*$", re.MULTILINE | re.IGNORECASE, "int x;\n#DEFINE A 1\n# define B\n"),
        (rb"\\([abfnrtv\\\"]|[0-3][0-7][0-7])", 0, b'a\\t\\101"\\z'),
    ],
)
def test_a_lazy_pattern_answers_as_the_compiled_one(pattern: Any, flags: int, subject: Any) -> None:
    lazy, compiled = lazy_compile(pattern, flags), re.compile(pattern, flags)
    assert lazy.pattern == compiled.pattern  # known before it compiles
    replacement = b"<\\g<0>>" if isinstance(subject, bytes) else "<\\g<0>>"

    def spans(found: Any) -> list[tuple[int, int]]:
        return [match.span() for match in found]

    for subject_at in (subject, subject[3:]):
        assert repr(lazy.search(subject_at)) == repr(compiled.search(subject_at))
        assert repr(lazy.match(subject_at)) == repr(compiled.match(subject_at))
        assert repr(lazy.fullmatch(subject_at)) == repr(compiled.fullmatch(subject_at))
        assert lazy.findall(subject_at) == compiled.findall(subject_at)
        assert spans(lazy.finditer(subject_at)) == spans(compiled.finditer(subject_at))
        assert lazy.split(subject_at) == compiled.split(subject_at)
        assert lazy.sub(replacement, subject_at) == compiled.sub(replacement, subject_at)
        assert lazy.subn(replacement, subject_at) == compiled.subn(replacement, subject_at)
    assert (lazy.flags, lazy.groups, lazy.groupindex) == (
        compiled.flags,
        compiled.groups,
        compiled.groupindex,
    )


def test_a_lazy_pattern_copies_and_pickles_before_and_after_its_first_use() -> None:
    for used in (False, True):
        lazy = lazy_compile(r"b+", re.IGNORECASE)
        if used:
            assert lazy.search("aBBc") is not None
        for other in (copy.copy(lazy), copy.deepcopy(lazy), pickle.loads(pickle.dumps(lazy))):
            assert other.pattern == "b+"
            assert other.findall("abBbcb") == ["bBb", "b"]


def test_a_bad_pattern_fails_where_it_is_used() -> None:
    lazy = lazy_compile(r"(unclosed")
    with pytest.raises(re.error):
        lazy.search("unclosed")


def test_no_module_compiles_a_pattern_as_it_is_imported() -> None:
    """Every run's start paid for patterns most runs never used (20 ms of an
    everyday push): a module's patterns are lazy_compile'd, compiled at first use."""
    code = (
        "import importlib, pkgutil, re, sys\n"
        "compiled = []\n"
        "plain = re.compile\n"
        "def compile(pattern, flags=0):\n"
        "    caller = sys._getframe(1).f_code.co_filename\n"
        "    if '/gitreview/' in caller.replace('\\\\', '/'):\n"
        "        compiled.append((caller, pattern))\n"
        "    return plain(pattern, flags)\n"
        "re.compile = compile\n"
        "import gitreview\n"
        "for module in pkgutil.walk_packages(gitreview.__path__, 'gitreview.'):\n"
        "    if module.name != 'gitreview.__main__':\n"
        "        importlib.import_module(module.name)\n"
        "print(len(sys.modules), compiled)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, check=True, env=isolated_environment()
    ).stdout.decode()
    modules, compiled = out.split(" ", 1)
    assert int(modules) > 100  # gitreview's modules were imported
    assert compiled.strip() == "[]"
