"""Tests for gitreview.globs: hand-written tables plus comparisons against the real git binary."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from gitreview.globs import (
    AttrRule,
    AttrValue,
    Gitattributes,
    attributes_for,
    compile_glob,
    linguist_flag,
    match_any,
    parse_gitattributes,
)

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git not installed")


def _git(repo: Path, *args: str, stdin: bytes = b"") -> bytes:
    """Run git isolated from user and system configuration; exit status 1 is not an error.

    (check-ignore exits with 1 when it ignores none of the paths, even with --non-matching.)
    """
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(
        HOME=str(repo.parent),
        XDG_CONFIG_HOME=str(repo.parent / "xdg"),
        GIT_CONFIG_NOSYSTEM="1",
        GIT_ATTR_NOSYSTEM="1",
        LC_ALL="C",
    )
    done = subprocess.run(
        ["git", *args], cwd=repo, env=env, input=stdin, capture_output=True, check=False
    )
    assert done.returncode in (0, 1), done.stderr.decode(errors="replace")
    return done.stdout


def _scratch_repo(base: Path) -> Path:
    repo = base / "repo"
    repo.mkdir()
    _git(repo, "init", "-q")
    return repo


# --- wildmatch / gitignore semantics ----------------------------------------------------------

GLOB_CASES: list[tuple[str, str, bool]] = [
    ("*.py", "a.py", True),
    ("*.py", "src/deep/a.py", True),  # no slash: basename at any depth
    ("*.py", "a.pyc", False),
    ("*", "src/a.py", True),
    ("src/*.py", "src/a.py", True),
    ("src/*.py", "src/sub/a.py", False),  # "*" does not cross "/"
    ("src/*.py", "x/src/a.py", False),  # a slash anchors the pattern
    ("/a.py", "a.py", True),
    ("/a.py", "src/a.py", False),
    ("?.txt", "a.txt", True),
    ("?.txt", "ab.txt", False),
    ("caf?.md", "café.md", False),  # "?" is one byte and "é" is two in UTF-8
    ("caf??.md", "café.md", True),
    ("[abc].c", "b.c", True),
    ("[!abc].c", "b.c", False),
    ("[^abc].c", "d.c", True),
    ("[a-c]x", "bx", True),
    ("[]]", "]", True),  # "]" right after "[" is literal
    ("a[/]b", "a/b", False),  # a class never matches "/"
    ("[[:digit:]]*", "1.txt", True),
    ("\\*", "*", True),
    ("\\*", "a", False),
    ("**/foo", "foo", True),
    ("**/foo", "a/b/foo", True),
    ("foo/**", "foo/a/b", True),
    ("a/**/b", "a/b", True),  # zero directories
    ("a/**/b", "a/x/y/b", True),
    ("a**b", "a/x/b", False),  # "**" not delimited by slashes is a plain "*"
    ("foo**/bar", "fooxbar/z/bar", True),  # git quirk, see _translate
    ("build/", "build/out.o", True),  # directory-only: matches files below it
    ("build/", "build", False),
    ("build/", "src/build/x/y.o", True),
    ("docs", "docs/a.md", True),  # a matching directory covers its files
    ("a/b/", "a/b/c", True),
    ("a/b/", "x/a/b/c", False),
    ("[abc", "a", False),  # malformed patterns never match
    ("x[[:bogus:]]", "xa", False),
    ("trail\\", "trail\\", False),
]


@pytest.mark.parametrize(("pattern", "path", "expected"), GLOB_CASES)
def test_compile_glob_table(pattern: str, path: str, expected: bool) -> None:
    assert compile_glob(pattern).match(path) is expected


def test_compile_glob_is_cached_and_exposes_flags() -> None:
    glob = compile_glob("!docs/")
    assert glob is compile_glob("!docs/")
    assert (glob.negated, glob.dir_only, glob.basename) == (True, True, True)
    assert compile_glob("docs/").match_exact("docs/a.md") is False
    assert compile_glob("docs/").match_exact("docs", is_dir=True) is True


@pytest.mark.parametrize(
    ("patterns", "path", "expected"),
    [
        (["*.log", "!keep.log"], "a/keep.log", False),
        (["*.log", "!keep.log"], "a/other.log", True),
        (["build/", "!build/keep.txt"], "build/keep.txt", True),  # cannot re-include below
        (["", "x"], "x", True),
        ([], "x", False),
    ],
)
def test_match_any_table(patterns: list[str], path: str, expected: bool) -> None:
    assert match_any(patterns, path) is expected


WILDMATCH_PATTERNS = [
    *sorted({case[0] for case in GLOB_CASES}),
    "foo", "foo/", "/foo", "foo/bar", "/foo/bar", "foo/*", "**/foo/bar", "a/**", "**", "***/x",
    "[!]]x", "[[:alpha:]-]", "[a-]", "[z-a]", "[a\\-z]", "[[:x]", "\\[a]", "f\\?o", "a/b**",
    "doc/*.md", "*.md/", "name with space", "é*", "d/**/", "a/**\\/b", "\\!x", "[[:space:]]",
    "ünï/*", "[é]", "x/y//", "[a-c-e]", "[a-c--e]", "[--0]", "[\\]]", "[!a-]", "[]-a]",
    "[[:x:]", "[:]", "[[::]]",
]  # fmt: skip
WILDMATCH_PATHS = [
    "foo", "foo.py", "a/foo", "a/foo/x.py", "foo/bar", "foo/bar/baz", "x/foo/bar", "a/b",
    "a/x/b", "a/x/y/b", "ab", "axb", "a/xb", "a.txt", "ab.txt", "café.md", "cafe.md", "a.c",
    "b.c", "d.c", "ax", "bx", "dx", "]", "]x", "x", "1.txt", "-", "*", "a", "[a]", "f?o", "fxo",
    "foox/y/bar", "fooxbar/z/bar", "a/bc/d/e", "a/b/c", "x/a/b/c", "doc/x.md", "doc/sub/x.md",
    "x.md/y", "x.md", "name with space", "dir/name with space/f", "é", "éx/y", "d/e/f", "d/x",
    "trail\\", "!x", "a/b/x", "q/a/b", "src/a.py", "src/sub/a.py", "build/out.o", "build",
    "docs/a.md", "tab\tname", "ünï/файл.txt", "a/ b", "x/y/z", "e", "d", "0", ",", "^", "[",
    "d/:",  # not ":" or ".": git would read them as pathspec magic and as the top directory
]  # fmt: skip


def _check_ignore(repo: Path, gitignore: str, paths: list[str]) -> dict[str, bool]:
    """Ask git which of ``paths`` the given root .gitignore ignores (files need not exist)."""
    (repo / ".gitignore").write_text(gitignore, encoding="utf-8")
    stdin = b"".join(p.encode() + b"\0" for p in paths)
    args = ("check-ignore", "--no-index", "-v", "-n", "-z", "--stdin")
    fields = _git(repo, *args, stdin=stdin).split(b"\0")
    result = {}
    for k in range(0, len(fields) - 1, 4):  # source, line number, pattern, path
        pattern, path = fields[k + 2].decode(), fields[k + 3].decode()
        result[path] = bool(pattern) and not pattern.startswith("!")
    return result


@pytest.fixture(scope="module")
def ignore_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _scratch_repo(tmp_path_factory.mktemp("ignore"))


@needs_git
@pytest.mark.parametrize("pattern", WILDMATCH_PATTERNS)
def test_compile_glob_agrees_with_git_check_ignore(ignore_repo: Path, pattern: str) -> None:
    expected = _check_ignore(ignore_repo, pattern + "\n", WILDMATCH_PATHS)
    actual = {path: compile_glob(pattern).match(path) for path in WILDMATCH_PATHS}
    assert actual == expected


@needs_git
@pytest.mark.parametrize(
    "name", ["alnum", "alpha", "blank", "cntrl", "digit", "graph", "lower", "print", "punct",
             "space", "upper", "xdigit"],
)  # fmt: skip
def test_character_classes_agree_with_git(ignore_repo: Path, name: str) -> None:
    pattern = f"x[[:{name}:]]"
    paths = ["x" + chr(c) for c in range(1, 128) if chr(c) != "/"] + ["xé"]
    expected = _check_ignore(ignore_repo, pattern + "\n", paths)
    assert {path: compile_glob(pattern).match(path) for path in paths} == expected


@needs_git
@pytest.mark.parametrize(
    "patterns",
    [
        ["*.md", "!docs/*.md", "docs/x.md"],
        ["build/", "!build/keep.txt", "!x"],
        ["a/", "!a/"],
        ["foo", "!foo/"],
        ["**/b", "!a/**", "*.py", "!/foo.py"],
    ],
)
def test_match_any_agrees_with_git_check_ignore(ignore_repo: Path, patterns: list[str]) -> None:
    paths = [*WILDMATCH_PATHS, "docs/x.md", "docs/y.md", "build/keep.txt", "a/keep", "foo.py"]
    expected = _check_ignore(ignore_repo, "".join(p + "\n" for p in patterns), paths)
    assert {path: match_any(patterns, path) for path in paths} == expected


# --- .gitattributes ---------------------------------------------------------------------------


def test_parse_gitattributes() -> None:
    text = "\n".join(
        [
            "\ufeff# a comment after a byte order mark",
            "",
            "*.c text -diff !merge eol=lf -x=ignored",
            '"a b.txt"\tspaced',
            '"caf\\303\\251 \\"q\\".md" accent',
            '"bad\\q" literal',
            "!neg.txt never",
            "[attr]gen linguist-generated -diff",
            "*.y ok bad!name",
            "*.z " + "x" * 2048,
        ]
    )
    c_attrs = (("text", True), ("diff", False), ("merge", None), ("eol", "lf"), ("x", False))
    assert parse_gitattributes(text) == (
        AttrRule("*.c", c_attrs),
        AttrRule("a b.txt", (("spaced", True),)),
        AttrRule('café "q".md', (("accent", True),)),
        AttrRule('"bad\\q"', (("literal", True),)),
        AttrRule("gen", (("linguist-generated", True), ("diff", False)), macro=True),
    )
    assert parse_gitattributes("[attr]gen x\n*.c y", macros_allowed=False) == (
        AttrRule("*.c", (("y", True),)),
    )


@pytest.mark.parametrize(
    ("value", "expected"),
    [(True, True), ("true", True), ("0", True), (False, False), ("false", False), (None, None)],
)
def test_linguist_flag(value: AttrValue, expected: bool | None) -> None:
    attrs = {} if value is None else {"linguist-generated": value}
    assert linguist_flag(attrs, "linguist-generated") is expected


def test_macros_precedence_and_is_set() -> None:
    files = {
        "": "[attr]gen linguist-generated -diff\n*.pb.go gen\n*.c binary\nx.c -binary\n",
        "api/": "*.pb.go -linguist-generated\n",
    }
    attrs = Gitattributes(files)
    assert attrs.for_path("a.pb.go") == {"gen": True, "linguist-generated": True, "diff": False}
    assert attrs.for_path("api/a.pb.go") == {
        "gen": True,
        "linguist-generated": False,
        "diff": False,
    }
    assert attrs.for_path("x.c") == {"binary": False}  # unsetting a macro expands nothing
    assert attrs.is_set("a.c", "binary") and not attrs.is_set("a.c", "diff")
    assert attrs.value("a.c", "merge") is False and attrs.value("a.c", "eol") is None
    assert attributes_for("sub/a.pb.go", files) == attrs.for_path("sub/a.pb.go")


ROOT_ATTRIBUTES = r"""# root file
[attr]generated linguist-generated -diff
[attr]gen2 generated linguist-vendored
*.txt text eol=lf
*.bin binary
*.min.js generated
*.pb.* gen2
vendor/** linguist-vendored
**/fixtures/** linguist-generated=true
/top.md doc=root
docs/*.md doc=anchored
"name with space.txt" spaced
"caf\303\251.md" accent
caf?.md onebyte
caf??.md twobytes
build/ dirattr
*.py lang=python
legacy.py -diff !text
*.dat !binary
!neg.txt never
*.keep -generated
ünï/** unicode
spaces\ in\ dir/* escaped
[attr]binary -diff
*.raw binary
*.cfg dropped bad/name
*.cfg -flag=ignored empty=
"""
DOCS_ATTRIBUTES = "\n".join(
    [
        "\ufeff*.md doc=docs",  # git skips a byte order mark when it reads the working tree
        "*.cfg " + "x" * 2048,  # and ignores over-long lines
        "*.txt -text",
        "/api/*.md api",
        "**/deep/* deepattr",
        "*.bin -binary diff",
        "generated.c generated -linguist-generated",
        "[attr]local nope",  # macros may only be defined in the root file
        "*.local local",
    ]
)
API_ATTRIBUTES = "*.md !doc\nref.md doc=api\n"
ATTR_FILES = {"": ROOT_ATTRIBUTES, "docs": DOCS_ATTRIBUTES, "docs/api": API_ATTRIBUTES}
ATTR_PATHS = [
    "a.txt", "sub/a.txt", "docs/a.txt", "docs/api/b.txt", "x.bin", "docs/x.bin", "lib/app.min.js",
    "docs/app.min.js", "vendor/lib.py", "vendor/deep/x/y.c", "src/vendor/x.c", "fixtures/a.json",
    "tests/fixtures/a/b.json", "top.md", "sub/top.md", "docs/top.md", "docs/readme.md",
    "docs/sub/readme.md", "docs/api/ref.md", "docs/api/other.md", "docs/api/sub/ref.md",
    "docs/deep/x.c", "docs/a/deep/x.c", "deep/x.c", "name with space.txt",
    "sub/name with space.txt", "café.md", "docs/café.md", "cafe.md", "build/out.o", "build",
    "main.py", "legacy.py", "sub/legacy.py", "x.dat", "neg.txt", "!neg.txt", "a.keep",
    "docs/generated.c", "generated.c", "api.pb.go", "ünï/файл.txt", "spaces in dir/f.py",
    "x.local", "docs/x.local", "x.raw", "a.cfg", "docs/a.cfg",
]  # fmt: skip


def _check_attr(repo: Path, paths: list[str]) -> dict[str, dict[str, AttrValue]]:
    stdin = b"".join(p.encode() + b"\0" for p in paths)
    fields = _git(repo, "check-attr", "-a", "-z", "--stdin", stdin=stdin).split(b"\0")
    result: dict[str, dict[str, AttrValue]] = {path: {} for path in paths}
    states: dict[str, AttrValue] = {"set": True, "unset": False, "unspecified": None}
    for k in range(0, len(fields) - 1, 3):  # path, attribute, info
        path, name, info = (f.decode() for f in fields[k : k + 3])
        result[path][name] = states.get(info, info)
    return result


@needs_git
def test_attributes_agree_with_git_check_attr(tmp_path: Path) -> None:
    repo = _scratch_repo(tmp_path)
    for directory, text in ATTR_FILES.items():
        (repo / directory).mkdir(parents=True, exist_ok=True)
        (repo / directory / ".gitattributes").write_text(text, encoding="utf-8")
    expected = _check_attr(repo, ATTR_PATHS)
    attributes = Gitattributes(ATTR_FILES)
    assert {path: attributes.for_path(path) for path in ATTR_PATHS} == expected
