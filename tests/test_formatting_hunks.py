"""Python formatting, hunk by hunk, as `ruff format` writes it (issue 11).

Each case is a real two-commit repository whose second commit is ruff's output
for the first, plus one real change: every formatting hunk is trivial and the
real change significant, however many hunks the file has and however git pairs
their lines.
"""

from pathlib import Path

import pytest
from manifests import files_by_path, manifest_of
from repos import before_and_after

REAL_CHANGE = ("\n\nLIMIT = 10\n", "\n\nLIMIT = 11\n")
PADDING = "".join(f"PAD_{i} = {i}\n" for i in range(8))  # keeps hunks apart

COMMENT_MOVED = (
    "def second(values):\n"
    "    result = some_function_with_a_long_name(argument_number_one, argument_number_two, "
    "values)  # why it is so\n"
    "    return result\n",
    "def second(values):\n"
    "    result = some_function_with_a_long_name(\n"
    "        argument_number_one, argument_number_two, values\n"
    "    )  # why it is so\n"
    "    return result\n",
)
PRAGMA_MOVED = (
    "def fifth(values):\n    checked = validate(values, strict=True)  # type: ignore[arg-type]\n"
    "    return checked\n",
    "def fifth(values):\n    checked = validate(  # type: ignore[arg-type]\n"
    "        values, strict=True\n    )\n    return checked\n",
)
NUMBERS = (
    "HALF = .5\nONE = 1.\nMASK = 0XFF\nPATTERN = R'\\d+'\nRAW = B'bytes'\n",
    'HALF = 0.5\nONE = 1.0\nMASK = 0xFF\nPATTERN = R"\\d+"\nRAW = b"bytes"\n',
)
OPTIONS = "".join(f"      --option-{i}  the option number {i}\n" for i in range(8))
QUOTES_AT_BOTH_ENDS = (
    f"def usage():\n    return '''\n    usage: tool [options]\n\n{OPTIONS}    '''\n",
    f'def usage():\n    return """\n    usage: tool [options]\n\n{OPTIONS}    """\n',
)
# A class too large for the old parse budget: forty-five reformatted methods.
METHODS = [
    (
        f"    def method_{i}(self):\n        return self.lookup('key number {i}')\n",
        f'    def method_{i}(self):\n        return self.lookup("key number {i}")\n',
    )
    for i in range(45)
]
SPACER = "".join(f"        # note {i}\n" for i in range(7))
LARGE = (
    "class Registry:\n" + "\n".join(old + SPACER for old, _ in METHODS),
    "class Registry:\n" + "\n".join(new + SPACER for _, new in METHODS),
)


def hunks_of(tmp_path: Path, old: str, new: str) -> list[tuple[str, list[str]]]:
    old, new = old + PADDING + REAL_CHANGE[0], new + PADDING + REAL_CHANGE[1]
    repo = before_and_after(tmp_path / "repo", "module.py", old, new)
    entry = files_by_path(manifest_of("--repo", repo, "--fail-on", "never", "HEAD"))["module.py"]
    return [(hunk["classification"], hunk["reasons"]) for hunk in entry["hunks"]]


FORMATTED = {
    "a trailing comment kept at the end of a split statement": COMMENT_MOVED,
    "numbers respelled, string prefixes in another case": NUMBERS,
    "quotes changed at both ends of a string, in two hunks": QUOTES_AT_BOTH_ENDS,
    "a large class, one hunk per method": LARGE,
}


@pytest.mark.parametrize("what", sorted(FORMATTED))
def test_every_formatting_hunk_is_trivial(tmp_path: Path, what: str) -> None:
    old, new = FORMATTED[what]
    hunks = hunks_of(tmp_path, old, new)
    assert hunks[:-1] == [("trivial", ["formatting"])] * (len(hunks) - 1), what
    assert len(hunks) > 1, what
    assert hunks[-1] == ("significant", ["content"]), what


def test_a_real_change_inside_a_reformatted_definition(tmp_path: Path) -> None:
    """The method with the real change is significant; its neighbours keep their verdicts."""
    old, new = LARGE
    new = new.replace('"key number 7"', '"key number 70"')
    hunks = hunks_of(tmp_path, old, new)
    expected = [("trivial", ["formatting"])] * 45 + [("significant", ["content"])]
    expected[7] = ("significant", ["content"])
    assert hunks == expected


STEPS = (
    "def run(job):\n    job.validate()\n    job.charge(price='full')\n    return job\n",
    'def run(job):\n    job.charge(price="full")\n    job.validate()\n    return job\n',
)
DECORATED = (
    "@cached\n@authorized('admin')\ndef report(request):\n    return request.data\n",
    '@authorized("admin")\n@cached\ndef report(request):\n    return request.data\n',
)
SIGNATURE = (
    "def fetch(url, timeout=30, retries=3, backoff=2.0, verify=True, proxies=None, stream=False):\n"
    "    return url\n",
    "def fetch(\n    url,\n    timeout=30,\n    retries=3,\n    backoff=2.0,\n    verify=False,\n"
    "    proxies=None,\n    stream=False,\n):\n    return url\n",
)


def test_a_changed_signature_leaves_the_body_its_own_verdicts(tmp_path: Path) -> None:
    body = "".join(f"    step_{i} = prepare({i})\n" for i in range(10))
    old = f"def pipeline(source):\n{body}    return finish('done')\n"
    new = f'def pipeline(source, strict=True):\n{body}    return finish("done")\n'
    assert hunks_of(tmp_path, old, new) == [
        ("significant", ["content"]),
        ("trivial", ["formatting"]),
        ("significant", ["content"]),
    ]


FORMATTED_TRAPS = {
    "two calls swapped as their quotes changed": STEPS,
    "decorators swapped as their quotes changed": DECORATED,
    "a default changed in a signature split over lines": SIGNATURE,
    "a value changed in a reformatted call": (
        COMMENT_MOVED[0],
        COMMENT_MOVED[1].replace("argument_number_two", "argument_number_three"),
    ),
    "a comment changed as it moved": (PRAGMA_MOVED[0], PRAGMA_MOVED[1].replace("arg-", "")),
    # A comment tools read suppresses what is on its line: elsewhere, something else.
    "a type: ignore moved to another line of its statement": (
        PRAGMA_MOVED[1],
        PRAGMA_MOVED[1]
        .replace("(  # type: ignore[arg-type]", "(")
        .replace("strict=True\n", "strict=True  # type: ignore[arg-type]\n"),
    ),
    "a nosec moved beside the next statement": (
        "def sixth(values):\n    shell = run(values, shell=True)  # nosec\n    return shell\n",
        "def sixth(values):\n    shell = run(values, shell=True)\n    return shell  # nosec\n",
    ),
    "a number changed type as it was respelled": (NUMBERS[0], NUMBERS[1].replace("1.0", "1")),
    "a string's content changed between its reformatted ends": (
        QUOTES_AT_BOTH_ENDS[0],
        QUOTES_AT_BOTH_ENDS[1].replace("option number 4", "option number 5"),
    ),
}


# Statements that change body without a line of theirs changing: the line that
# starts the next definition moved (found by benchmarks/fuzz_trivial.py in flask's
# tests/test_logging.py, called `formatting`).
FIRST = "def first(app):\n    setup(app)\n    assert app.ready\n"
MIGRANTS = '    @app.route("/")\n    def index():\n        return ""\n\n    stream = StringIO()\n'
STEPS_OF_APP = "        app.reset()\n        app.clear()\n        app.start()\n"
SECOND_BODY = '    client.get("/", errors_stream=stream)\n    assert stream.getvalue()\n'
BOUNDARY_MOVED = {
    "a def line moved down: statements join the definition before": (
        f"{FIRST}\n\ndef second(app, client):\n{MIGRANTS}{SECOND_BODY}",
        f"{FIRST}\n{MIGRANTS}\n\ndef second(app, client):\n{SECOND_BODY}",
    ),
    "a def line moved up: statements join the definition after": (
        f"{FIRST}\n{MIGRANTS}\n\ndef second(app, client):\n{SECOND_BODY}",
        f"{FIRST}\n\ndef second(app, client):\n{MIGRANTS}{SECOND_BODY}",
    ),
    "a method's def line moved down in its class": (
        "class Case:\n    def first(self, app):\n        setup(app)\n\n"
        f"    def second(self, app):\n{STEPS_OF_APP}        app.check()\n",
        f"class Case:\n    def first(self, app):\n        setup(app)\n{STEPS_OF_APP}\n"
        "    def second(self, app):\n        app.check()\n",
    ),
    "an if line moved up: statements go under the next condition": (
        "if ready:\n    prepare()\n    start()\n    report()\nif late:\n    wait()\n",
        "if ready:\n    prepare()\nif late:\n    start()\n    report()\n    wait()\n",
    ),
}
FORMATTED_TRAPS |= BOUNDARY_MOVED
# Lines of a statement that no statement of its own holds (found by an adversarial
# review of the statement comparison: each was `formatting`, or `import-order`).
UNOWNED_LINES = {
    "the second statement of a line changed": (
        "a = 1; b = a + 2\nprint(b)\n",
        "a = 1; b = a - 2\nprint(b)\n",
    ),
    "a statement after a semicolon in a class body": (
        "class K:\n    a = 1; b = a * 2\n",
        "class K:\n    a = 1; b = a ** 2\n",
    ),
    "a positional-only marker on a line of its own removed": (
        "def f(\n    a,\n    /,\n):\n    return a\n",
        "def f(\n    a,\n):\n    return a\n",
    ),
    "an except clause's types on the line of its body": (
        "try:\n    f()\nexcept (A, B): pass\n",
        "try:\n    f()\nexcept A or B: pass\n",
    ),
    "a tab inside a docstring made spaces": (
        'def f():\n    """a\tb"""\n',
        'def f():\n    """a       b"""\n',
    ),
    "a module's type: ignore moved below its first import": (
        "# type: ignore\nimport os\nimport sys\n",
        "import os\n# type: ignore\nimport sys\n",
    ),
    # A second review: where a comment tools read stands inside its statement.
    "a type comment moved to another parameter": (
        "def f(a,  # type: int\n      b,\n      ):\n    # type: (...) -> None\n    pass\n",
        "def f(a,\n      b,  # type: int\n      ):\n    # type: (...) -> None\n    pass\n",
    ),
    "a type: ignore moved between two lines that read the same": (
        "x = f(\n    a,\n    g(\n        a,  # type: ignore\n    ),\n)\n",
        "x = f(\n    a,  # type: ignore\n    g(\n        a,\n    ),\n)\n",
    ),
    "a disable-next directive moved down a call": (
        "x = f(\n    # pylint: disable-next=no-member\n    a.b,\n    a.c,\n)\n",
        "x = f(\n    a.b,\n    # pylint: disable-next=no-member\n    a.c,\n)\n",
    ),
    "a no-break space at the end of a docstring dropped": (
        'def f():\n    """doc\u00a0"""\n',
        'def f():\n    """doc"""\n',
    ),
}
FORMATTED_TRAPS |= UNOWNED_LINES
FORMATTED["statements on one line split onto two"] = (
    "a = 1; b = a + 2\nprint(b)\n",
    "a = 1\nb = a + 2\nprint(b)\n",
)


@pytest.mark.parametrize("what", sorted(FORMATTED_TRAPS))
def test_formatting_with_a_change_stays_significant(tmp_path: Path, what: str) -> None:
    old, new = FORMATTED_TRAPS[what]
    hunks = hunks_of(tmp_path, old, new)
    assert ("significant", ["content"]) in hunks[:-1], (what, hunks)


def test_a_lone_carriage_return_proves_nothing(tmp_path: Path) -> None:
    """Python ends a line at a lone CR, git does not: the statements of such a file
    and its hunks would not line up (here `C = 1` would pass for line 11)."""
    padding = "".join(f"P_{i} = {i}\n" for i in range(8))
    old = "A = 'x'\rB = 1\n" + padding + "C = 1\n"
    new = 'A = "x"\rB = 1\n' + padding + "C = 2\n"
    repo = before_and_after(tmp_path / "repo", "module.py", old, new)
    entry = files_by_path(manifest_of("--repo", repo, "--fail-on", "never", "HEAD"))["module.py"]
    assert [hunk["classification"] for hunk in entry["hunks"]] == ["significant", "significant"]


def test_a_real_change_inside_a_reformatted_loop(tmp_path: Path) -> None:
    """Clause by clause: the loop's other reformatted statements stay formatting."""
    spacer = "".join(f"        # note {i}\n" for i in range(7))
    steps = [
        (f"        step_{i} = item.get('key {i}')\n", f'        step_{i} = item.get("key {i}")\n')
        for i in range(6)
    ]
    old = "def process(items):\n    for item in items:\n" + spacer.join(o for o, _ in steps)
    new = "def process(items):\n    for item in items:\n" + spacer.join(n for _, n in steps)
    new = new.replace('"key 3"', '"key 30"')
    expected = [("trivial", ["formatting"])] * 6 + [("significant", ["content"])]
    expected[3] = ("significant", ["content"])
    assert hunks_of(tmp_path, old, new) == expected


def test_a_statement_moved_between_clauses_stays_significant(tmp_path: Path) -> None:
    old = "if ready:\n    start()\n    log('a')\nelse:\n    wait()\n"
    new = 'if ready:\n    start()\nelse:\n    log("a")\n    wait()\n'
    assert ("significant", ["content"]) in hunks_of(tmp_path, old, new)[:-1]


# A parameter on a line of its own, or a `with` item: parts of a header that have no
# position of their own in the tree (`arguments`, `withitem`). The name also comes
# into the file elsewhere, so that only the statement comparison can tell.
HEADER_PARTS = {
    "a parameter removed from a signature on lines of its own": (
        "def handler(\n    request, response, limit_loader\n):\n    return request\n",
        "def handler(\n    request, response\n):\n    return request\n",
    ),
    "a context manager changed in a parenthesised with": (
        "def copy():\n    with (\n        open(SOURCE) as one,\n        open(TARGET) as two,\n"
        "    ):\n        two.write(one.read())\n",
        "def copy():\n    with (\n        open(SOURCE) as one,\n        open(SOURCE) as two,\n"
        "    ):\n        two.write(one.read())\n",
    ),
}


@pytest.mark.parametrize("what", sorted(HEADER_PARTS))
def test_a_change_in_a_header_on_lines_of_its_own_is_significant(tmp_path: Path, what: str) -> None:
    old, new = HEADER_PARTS[what]
    # The changed names are also added or removed in a hunk of their own.
    old += PADDING + "TARGET = SOURCE = None\n"
    new += PADDING + "TARGET = SOURCE = limit_loader = None\n"
    hunks = hunks_of(tmp_path, old, new)
    assert hunks[0] == ("significant", ["content"]), what
