"""Lexical whitespace rules: each case is a trap that a missing rule would fall into.

Pairs of lines are equivalent when their normalize_line keys are equal; literal_lines
cases give the exact set of literal lines, so both a missed literal and a spurious one
(a Rust lifetime read as a quote...) fail.
"""

from __future__ import annotations

import time

import pytest

from gitreview.analyze.lexical import WhitespacePolicy, literal_lines, normalize_line, policy


def key(kind: str, line: str) -> str:
    return normalize_line(kind, line, literal=False)


# (kind, a, b): lines that differ only in whitespace the kind gives no meaning.
EQUIVALENT = [
    # inner whitespace between tokens that cannot fuse
    ("c", "int  x = 1;", "int x=1;"),
    ("c", "f( a , b );", "f(a, b);"),
    ("c", "x=1;", "x = 1;"),
    ("cpp", "a->b", "a ->b"),
    ("java", "if (a) {", "if(a){"),
    ("javascript", "const a = { b: 1 };", "const a={b:1};"),
    ("typescript", "let x : number = f( 1 )", "let x: number = f(1)"),
    ("go", "x := map[string]int{ }", "x := map[string]int{}"),
    ("rust", "fn f<'a>(x:  &'a str) -> &'a str {", "fn f<'a>(x: &'a str) -> &'a str {"),
    ("rust", 'let c = \'"\';  let s = "a  b";', 'let c=\'"\'; let s="a  b";'),
    ("csharp", "var x  =  new List<int>( );", "var x = new List<int>();"),
    ("c", 'char c = \'"\';  char *s = "a  b";', 'char c=\'"\'; char *s="a  b";'),
    ("python", "print( x ,y )", "print(x, y)"),
    ("python", "x = a  if b else c", "x = a if b else c"),
    ("json", '{ "a" :  [1 , 2] }', '{"a": [1, 2]}'),
    ("toml", "a  =  1", "a = 1"),
    ("toml", "[ table . sub ]", "[table.sub]"),
    ("text", "One sentence.  Another  one.", "One sentence. Another one."),
    # leading indentation, where the kind ignores it
    ("c", "        return 0;", "\treturn 0;"),
    ("json", '    "a": 1,', '"a": 1,'),
    ("toml", "  key = 1", "key = 1"),
    # trailing whitespace
    ("python", "x = 1   ", "x = 1"),
    ("yaml", "a: b  ", "a: b"),
    ("markdown", "Some text ", "Some text"),
    ("c", "int x;\t", "int x;"),
    ("text", "end.  ", "end."),
    ("python", "    ", ""),
    # comments: runs of whitespace are one space
    ("c", "x;  //  a   b", "x; // a b"),
    ("python", "x = 1  #  note   this", "x = 1 # note this"),
    ("rust", "/*  a   b */ x", "/* a b */ x"),
    ("javascript", "f(); // a  b", "f(); // a b"),
]

# (kind, a, b): lines whose whitespace difference matters.
DIFFERENT = [
    # whitespace that keeps two tokens apart
    ("c", "int x;", "intx;"),
    ("c", "a + +b", "a ++b"),
    ("c", "a - -b", "a --b"),
    ("cpp", "vector<vector<int> >", "vector<vector<int>>"),
    ("c", "a = = b", "a == b"),
    ("c", "a & &b", "a &&b"),
    ("c", "a | |b", "a ||b"),
    ("c", "x = a / /b", "x = a //b"),
    ("c", "x = * /p", "x = */p"),
    ("rust", "a . .b", "a ..b"),
    ("cpp", "a : :b", "a ::b"),
    ("c", "p - >x", "p ->x"),
    ("cpp", "a > >b", "a >>b"),
    ("c", "a ! = b", "a != b"),
    ("cpp", 'auto s = u8 "x";', 'auto s = u8"x";'),
    ("python", 'x = f "a"', 'x = f"a"'),
    ("python", "x = 1 if y else 2", "x = 1if y else 2"),
    ("c", "x = 1 .5;", "x = 1.5;"),
    ("python", "x = 1. e5", "x = 1.e5"),
    ("c", "x = 1e -5;", "x = 1e-5;"),
    ("c", "x = 1e- 5;", "x = 1e-5;"),
    ("c", "x = 0x1e +1;", "x = 0x1e+1;"),
    ("json", "[- 1]", "[-1]"),
    ("toml", "[ [products]]", "[[products]]"),
    ("toml", "d = 1979-05-27  07:32:00", "d = 1979-05-27 07:32:00"),
    # whitespace inside any string, single-line too
    ("c", 'printf("a  b");', 'printf("a b");'),
    ("c", 'char c = \'"\';  char *s = "a  b";', 'char c = \'"\'; char *s = "a b";'),
    ("rust", "fn f<'a>(x: &'a str) { \"a  b\" }", "fn f<'a>(x: &'a str) { \"a b\" }"),
    ("rust", 'let c = \'"\'; let s = "a  b";', 'let c = \'"\'; let s = "a b";'),
    ("rust", 'let c = b\'"\'; let s = "a  b";', 'let c = b\'"\'; let s = "a b";'),
    ("python", "x = 'a  b'", "x = 'a b'"),
    ("python", 'x = f"{y}  z"', 'x = f"{y} z"'),
    ("python", "x = f\"{d['k']}  z\"", "x = f\"{d['k']} z\""),
    ("python", 'x = rf"\\{y}  z"', 'x = rf"\\{y} z"'),
    ("javascript", "x = `a  ${b}  c`", "x = `a ${b} c`"),
    ("csharp", 'var s = $"{(a ? "x  y" : "z")}";', 'var s = $"{(a ? "x y" : "z")}";'),
    ("csharp", 'var s = @"a  b";', 'var s = @"a b";'),
    ("json", '{"a  b": 1}', '{"a b": 1}'),
    ("toml", "a = 'x  y'", "a = 'x y'"),
    ("go", "s := `a  b`", "s := `a b`"),
    ("rust", 'let s = r#"a  b"#;', 'let s = r#"a b"#;'),
    ("cpp", 'auto s = R"(a  b)";', 'auto s = R"(a b)";'),
    ("c", 'x = "unterminated  ', 'x = "unterminated'),
    # a regex literal, which only a parser could tell from a division
    ("javascript", "x = /a  b/.test(s)", "x = /a b/.test(s)"),
    ("typescript", "const r = a  /  b", "const r = a / b"),
    # preprocessor lines: `F(x)` is function-like, `F (x)` object-like
    ("c", "#define F(x) x", "#define F (x) x"),
    ("cpp", "#include <a b.h>", "#include <a  b.h>"),
    # trailing whitespace after a backslash
    ("c", "#define A 1 \\ ", "#define A 1 \\"),
    ("python", "x = 1 + \\  ", "x = 1 + \\"),
    ("markdown", "line\\ ", "line\\"),
    ("yaml", "a: b \\  ", "a: b \\"),
    # Markdown: two trailing spaces are a hard line break
    ("markdown", "Some text  ", "Some text"),
    # leading indentation where it is syntax
    ("python", "    return x", "  return x"),
    ("yaml", "  a: 1", "a: 1"),
    ("markdown", "    code", "code"),
    ("text", "    indented", "indented"),
    ("text", "    x  = 1", "    x = 1"),  # an indented literal block, even without context
    # no inner freedom in YAML and Markdown; prose words stay apart
    ("yaml", "a:b", "a: b"),
    ("yaml", "a: x  y", "a: x y"),
    ("markdown", "a  b", "a b"),
    ("text", "Helloworld", "Hello world"),
    ("text", "| a  | b |", "| a | b |"),
    ("text", "=====  =====", "===== ====="),
    # comments: the words must stay the words; quoted and directive text is exact
    ("c", "// ab", "// a b"),
    ("javascript", '// say "a  b"', '// say "a b"'),
    ("go", "//go:generate stringer  -type=T", "//go:generate stringer -type=T"),
    ("rust", "///     let x = 1;", "/// let x = 1;"),
    # a lone CR may end a line for a compiler: such a line is exact
    ("javascript", "x; //\r s = 'a  b';", "x; //\r s = 'a b';"),
    # kinds without whitespace freedom
    ("shell", "echo  a", "echo a"),
    ("makefile", "all:  x", "all: x"),
    ("html", "<pre>a  b</pre>", "<pre>a b</pre>"),
]


@pytest.mark.parametrize(("kind", "a", "b"), EQUIVALENT)
def test_equivalent(kind: str, a: str, b: str) -> None:
    assert key(kind, a) == key(kind, b)


@pytest.mark.parametrize(("kind", "a", "b"), DIFFERENT)
def test_different(kind: str, a: str, b: str) -> None:
    assert key(kind, a) != key(kind, b)


def test_literal_lines_are_compared_exactly() -> None:
    assert normalize_line("c", "int  x;", literal=True) == "int  x;"
    assert normalize_line("python", "x = 1  ", literal=True) == "x = 1  "


# (kind, text, the exact set of literal lines)
LITERAL = [
    ("python", 'def f():\n    """Doc  string\n      more."""\n    return 1\n', {2, 3}),
    ("python", "x = f'''{a}\n  b'''\ny = 2\n", {1, 2}),
    ("python", 'x = f"{d["k"]}  y"\nz = 1\n', set()),  # Python 3.12 nested quotes
    ("python", "x = 'a \\\n  b'\ny = 1\n", {1, 2}),  # backslash-continued string
    ("python", "s = '#'  # not a string: 'x\ny = 1\n", set()),
    ("python", 'x = rf"\\{{%"\ny = "a  b"\n', set()),  # a backslash does not escape a brace
    ("python", "x = f\"{n:#x}\"\ny = 'a'\n", set()),  # `#` in a hole: a format spec
    ("yaml", "a: |\n  x  y\n  z\nb: 1\n", {1, 2, 3}),
    ("yaml", "a: >-\n  folded  text\nb: 'one\n  two'\nc: 1\n", {1, 2, 3, 4}),
    ("yaml", "a: 1\nb: [x,  y]\n", set()),
    ("markdown", "# T\n\n```py\n  x  = 1\n```\n\ntext\n", {3, 4, 5}),
    ("markdown", "line one  \nline two\\\nthree\n", {1, 2}),
    ("markdown", "para\n\n    indented  code\n\n<pre>\na  b\n</pre>\n", {3, 5, 6, 7}),
    ("markdown", "---\ntitle: x\ndesc: |\n  a  b\n---\n# Doc\n", {1, 2, 3, 4, 5}),
    ("markdown", "~~~\n a\n~~~\n- item\n\n  > quote\n", {1, 2, 3}),
    ("javascript", "const s = `a\n  b`;\nconst t = 1;\n", {1, 2}),
    ("javascript", "x = `${`\n  inner`}  tail`;\ny = 2;\n", {1, 2}),
    ("javascript", "x = `${a\ny = 1;\n", {1, 2}),  # a hole never closed
    ("javascript", "if (/a  b/.test(s)) {}\nz = 1;\n", {1}),
    ("javascript", "x = a / b;\n/* c */ y = 1 // d\n", {1}),
    ("typescript", "let s = 'it\\'s';\nlet t = \"a  b\";\n", set()),
    ("go", "s := `raw\n  text`\nx := 1\n", {1, 2}),
    ("go", 'r := \'"\'\ns := "a  b"\n', set()),
    ("rust", "fn f<'a>(x: &'a str) -> &'a str {\n    'outer: loop {}\n    x\n}\n", set()),
    ("rust", 'let c = \'"\';\nlet s = "a\n  b";\n', {2, 3}),
    ("rust", 'let s = r#"a "quoted"\n  b"#;\nlet t = 1;\n', {1, 2}),
    ("rust", 'let b = br##"x"#\n"##;\n', {1, 2}),
    ("rust", '/* a /* nested */ "still comment\n */\nlet x = 1;\n', set()),
    ("rust", "/** Doc\n *     let x  = 1;\n */\nfn f() {}\n", {1, 2, 3}),
    ("c", 'char c = \'"\';\nchar *s = "a  b";\n', set()),
    ("c", 'char *s = "abc\nint x = 1;\n', {1}),  # unterminated: that line only
    ("c", '#define A(x) \\\n    x\nchar *s = "a\\\n  b";\n', {2, 3, 4}),
    ("c", '/* it\'s "a\n */ x = "b  c";\ny = 1;\n', {2}),
    ("cpp", 'auto s = R"x(a\n  ")" b)x";\nint y;\n', {1, 2}),
    ("cpp", 'auto s = u8R"(a\nb)";\n', {1, 2}),
    ("cpp", "int x = 1'000;\nint y = 0xFF'FF'FF;\n", set()),
    ("cpp", 'auto s = R"(never closed\nint y;\nint z;\n', {1, 2, 3}),
    ("csharp", 'var s = @"a\n""b""  c";\nint y;\n', {1, 2}),
    ("csharp", 'var p = @"C:\\dir\\";\nvar s = "a  b";\n', set()),  # no escapes in @""
    ("csharp", 'var s = """\n  raw "" text\n  """;\nint y;\n', {1, 2, 3}),
    ("csharp", 'var s = $@"{a}\n  {b}";\nchar c = \'"\';\n', {1, 2}),
    ("java", 'String s = """\n    text  block\n    """;\nint x;\n', {1, 2, 3}),
    ("toml", "a = \"\"\"\nx  y\n\"\"\"\nb = '''\nz'''\nc = 1\n", {1, 2, 3, 4, 5}),
    ("toml", 'a = "x"  # "comment\nb = 2\n', set()),
    ("json", '{\n  "a": "b  c"\n}\n', set()),
    ("text", "Prose  here.\n\n    literal  block\n\nmore\n", {3}),
    (
        "text",
        "=====  =====\nA      B\n=====  =====\nx      y\n=====  =====\n\nafter\n",
        {1, 2, 3, 4, 5},
    ),
    ("text", "Intro\n\n----\ncode  here\n----\nafter\n", {3, 4, 5}),
    ("python", 'x = """never closed\ny  = 1\n', {1, 2}),  # to the end: all literal
    ("python", 'def f():\n    """Doc."""\n    return g(\n', set()),  # brackets: no strings
]


@pytest.mark.parametrize(("kind", "text", "expected"), LITERAL)
def test_literal_lines(kind: str, text: str, expected: set[int]) -> None:
    assert literal_lines(kind, text) == frozenset(expected)


UNLEXABLE = [
    ("yaml", "a: 1\nb: @x\n"),  # a scanner error
    ("yaml", "a: |\r  x\nb: 1\n"),  # a lone CR: PyYAML's line numbers would not be ours
    ("yaml", "a: 'x\u2028y'\nb: 1\n"),
    ("markdown", "a\rb\n```\nx\n```\n"),
    ("typescript", "const e = <div>\n  some  text\n</div>;\n"),  # JSX text is content
    ("javascript", "x = `${a / b}\n  y`;\n"),  # a slash inside a template hole
    ("javascript", "x = /`/;\ny = `a\n  b`;\n"),  # a backtick after a slash, running on
    ("go", 'package p\n\n// #include <stdio.h>\nimport "C"\n'),  # cgo preamble is C
    ("shell", "echo  a\n"),
    ("unknown", "x\n"),
]


@pytest.mark.parametrize(("kind", "text"), UNLEXABLE)
def test_literal_lines_gives_up(kind: str, text: str) -> None:
    assert literal_lines(kind, text) is None


def test_policies() -> None:
    code = WhitespacePolicy(True, True, "any", inner=True, leading=True)
    for kind in ("java", "javascript", "typescript", "go", "rust", "csharp"):
        assert policy(kind) == code
    for kind in ("c", "cpp"):  # a source file ends with a newline
        assert policy(kind) == code._replace(final_newline=False)
    assert policy("json") == code
    assert policy("toml") == code
    assert policy("python") == WhitespacePolicy(True, True, "any", inner=True, leading=False)
    assert policy("yaml") == WhitespacePolicy(True, True, "any", inner=False, leading=False)
    assert policy("markdown") == WhitespacePolicy(True, True, "runs", inner=False, leading=False)
    assert policy("text") == WhitespacePolicy(True, True, "runs", inner=True, leading=False)
    for kind in ("shell", "makefile", "css", "html", "xml", "ruby", "unknown"):
        assert policy(kind) is None


def test_lexing_is_linear() -> None:
    """100k-line files lex fast, and inputs built to provoke backtracking stay linear."""
    chunk = 'int f(int a) {\n  /* c */\n  char c = \'"\';\n  return g("a  b", a) / 2; // x\n}\n'
    samples = [
        ("c", chunk * 20_000),
        ("javascript", "const s = `x ${a} y`;\nconst t = 'q' + \"r\"; // c\n" * 50_000),
        ("python", 'def f(x):\n    """Doc."""\n    return f"{x}"  # c\n\n' * 25_000),
        ("c", '"' + "a\\\\" * 200_000),
        ("cpp", "1'" * 200_000),
        ("rust", "/*" * 100_000),
        ("csharp", '$"{' * 100_000),
        ("toml", '"""' + '\\"' * 200_000),
    ]
    for kind, text in samples:
        started = time.perf_counter()
        literal_lines(kind, text)
        assert time.perf_counter() - started < 30, kind  # a blow-up bound, not a speed target


def test_python_lexer_agrees_with_tokenize_on_the_standard_library() -> None:
    """Every line tokenize puts in a multi-line string, our lexer calls literal too.

    tokenize is the reference but ten times slower, so gitreview runs its own lexer;
    this keeps the two in step on real code (a few hundred standard library files).
    """
    import io
    import sysconfig
    import tokenize
    from pathlib import Path

    stdlib = Path(sysconfig.get_paths()["stdlib"])
    files = sorted(stdlib.glob("*.py")) + sorted(stdlib.glob("[a-m]*/*.py"))
    checked = 0
    for path in files[:250]:
        try:
            text = path.read_text("utf-8")
            tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
        except (UnicodeDecodeError, SyntaxError, tokenize.TokenError):
            continue
        expected: set[int] = set()
        for token in tokens:
            (first, _), (last, _) = token.start, token.end
            if token.type == tokenize.STRING and last > first:
                expected.update(range(first, last + 1))
        found = literal_lines("python", text)
        assert found is not None, path
        assert expected <= found, (path, sorted(expected - found)[:5])
        checked += 1
    assert checked > 150


@pytest.mark.parametrize(
    ("line", "gives_up"),
    [
        ("const parts = path.split(/\\//).map((p) => `\n  usage: ${p}\n`);\n", True),
        ('const q = dir.replace(/\'/g, "x"), body = `\nmake  install\n`;\n', True),
        # A review of the fix: a template literal after a regex is read as one.
        ("return /^@/.test(name) ? `${name}` : `@scope/${name}`;\n", False),
        ("s.replace(/-/g, `_`);\n", False),
    ],
)
def test_a_backtick_hidden_after_a_slash_gives_up(line: str, gives_up: bool) -> None:
    from gitreview.analyze import lexers

    assert lexers.scan("javascript", line + "const x  =  1;\n").give_up is gives_up


def test_hostile_lines_stay_linear() -> None:
    """Found by a twelfth adversarial review: a C line of 28 comments before its code
    (each one more doubled the time: a minute), and a Python file of 16,000 PEP 723
    headers with no fence (the PEP's pattern read every one to the end: a minute)."""
    from gitreview.analyze.lexical import script_metadata

    for kind, text in [
        ("c", "/**/" * 40 + "int x =  1;"),
        ("python", "# /// a\n" * 20_000 + "x = 1\n"),
        ("python", "#///\n" * 100_000 + "x = 1\n"),  # fence-like lines (a review of the fix)
    ]:
        started = time.perf_counter()
        normalize_line(kind, text.splitlines()[0], literal=False)
        literal_lines(kind, text)
        script_metadata(text)
        assert time.perf_counter() - started < 30, kind  # a blow-up bound, not a speed target


# The PEP's own pattern (https://peps.python.org/pep-0723/#reference-implementation).
PEP_723 = r"(?m)^# /// (?P<type>[a-zA-Z0-9-]+)$\s(?P<content>(^#(| .*)$\s)+)^# ///$"


def test_script_metadata_finds_what_the_pep_s_pattern_finds() -> None:
    import random
    import re

    from gitreview.analyze.lexical import script_metadata

    pieces = ["# /// script", "# ///", "#", "# a = 1", "x = 1", "", "# /// a-b", "#x", "#  ///"]
    rng = random.Random(723)
    for _ in range(3000):
        text = "\n".join(rng.choice(pieces) for _ in range(rng.randint(1, 12)))
        text += rng.choice(["", "\n"])
        fences = re.finditer(r"(?m)^#[ \t]*///", text)
        expected = sorted(
            (text.count("\n", 0, found.start()) + 1, found.group())
            for found in (*re.finditer(PEP_723, text), *fences)
        )
        assert script_metadata(text) == expected, text
