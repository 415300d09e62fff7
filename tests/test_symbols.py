"""Code symbols for hunks (issue #5): each hunk names the function or type it is in."""

import time
from pathlib import Path

import pytest
from findings import analysis_of, change_of
from manifests import files_by_path, manifest_of, new_lines, run
from repos import RepoFactory, git

from gitreview.analyze import Analysis, settled
from gitreview.analyze.base import LazyScopes, Report, Scope, innermost_scope
from gitreview.analyze.symbols import scopes

# A one-line change in each file of fixtures/repos/symbols.yml, and the symbol it is in.
EXPECTED = {
    "py/parser.py": [
        (10, "class Parser > class State > def reset"),
        (18, "class Parser > async def feed"),
    ],
    "js/cart.js": [(12, "class Cart > total()")],  # braces in a comment and a string
    "ts/shop.ts": [(9, "namespace Shop > function sum")],
    "go/server.go": [(15, "func (*Server) Handle")],
    "rust/stack.rs": [(11, "impl Stack<T> > fn peek"), (20, "mod tests > fn pushes")],
    "java/Cart.java": [(8, "class Cart > toString()")],
    "c/add.c": [(9, "add()")],
    "cpp/shape.cpp": [(6, "namespace geo > class Shape > area()")],
    "cs/Cart.cs": [(7, "namespace Shop > class Cart > Count()")],
    "ruby/cart.rb": [(4, "module Shop > class Cart > def total")],
}


def test_every_hunk_names_its_symbol(fixture_repo: RepoFactory) -> None:
    files = files_by_path(manifest_of("--repo", fixture_repo("symbols"), "v1..v2"))
    assert sorted(files) == sorted(EXPECTED)
    found = {
        path: [(new_lines(hunk)[0], hunk.get("symbol")) for hunk in entry["hunks"]]  # type: ignore[index]
        for path, entry in files.items()
    }
    assert found == EXPECTED


def names(kind: str, text: str) -> set[tuple[int, int, str]]:
    return {(scope.first, scope.last, scope.name) for scope in scopes(kind, text)}


def test_javascript() -> None:
    text = (
        'import React from "react"\n'  # 1: no semicolons
        "\n"
        "export default function App({ items }) {\n"  # 3: a destructured parameter
        "  return (\n"
        '    <ul className="list">\n'  # 5: JSX, where the lexer gives up
        "      {items.map((item) => <li key={item.id}>Don't</li>)}\n"
        "    </ul>\n"
        "  )\n"
        "}\n"  # 9
        "\n"
        "class Store {\n"  # 11
        "  handleClick = (e) => {\n"
        "    this.last = { e }\n"
        "  }\n"  # 14
        "  static async *entries() {\n"
        "    yield 1\n"
        "  }\n"  # 17
        "}\n"
        "\n"
        'describe("store", () => {\n'  # 20: calls with callbacks are no definitions
        '  it("works", function () {\n'
        "    expect(1).toBe(1)\n"
        "  })\n"
        "})\n"
    )
    assert names("javascript", text) == {
        (3, 9, "function App"),
        (11, 18, "class Store"),
        (12, 14, "class Store > handleClick()"),
        (15, 17, "class Store > entries()"),
    }


def test_typescript() -> None:
    text = (
        "export class Repo<T extends Base> implements IRepo<T> {\n"
        "  async find<K extends keyof T>(key: K, value: T[K]): Promise<T | undefined> {\n"
        "    for (const item of this.items) {\n"
        "      if (item[key] === value) { return item; }\n"
        "    }\n"
        "  }\n"
        "}\n"
        "export const handler = async (event: Event): Promise<void> => {\n"
        "  console.log(event);\n"
        "};\n"
        "interface Props { a: string; }\n"
        "type Options = { b: number };\n"
    )
    assert names("typescript", text) == {
        (1, 7, "class Repo"),
        (2, 6, "class Repo > find()"),
        (8, 10, "handler()"),
        (11, 11, "interface Props"),
    }


def test_go() -> None:
    text = (
        "package main\n"
        "\n"
        'import "fmt"\n'
        "\n"
        "type Handler interface {\n"  # 5
        "\tServe() error\n"
        "}\n"
        "\n"
        "func process(\n"  # 9: a signature over several lines
        "\ta int,\n"
        ") (int, error) {\n"
        "\tgo func() {\n"
        '\t\tfmt.Println("}")\n'
        "\t}()\n"
        "\treturn a, nil\n"
        "}\n"  # 16
        "\n"
        "func (l *List[T]) Push(v T) {\n"
        "\tl.items = append(l.items, Config{A: 1})\n"
        "}\n"
    )
    assert names("go", text) == {
        (5, 7, "type Handler"),
        (9, 16, "func process"),
        (18, 20, "func (*List[T]) Push"),
    }


def test_rust() -> None:
    text = (
        "#[derive(Debug)]\n"
        "pub enum Shape {\n"
        "    Circle { r: f64 },\n"
        "}\n"
        "\n"
        "impl fmt::Display for Shape {\n"  # 6
        "    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {\n"
        "        match self {\n"
        '            Shape::Circle { r } => write!(f, "{}", r),\n'
        "        }\n"
        "    }\n"
        "}\n"  # 12
        "\n"
        "pub(crate) async fn run<T>(x: T) -> Result<(), E>\n"
        "where\n"
        "    T: Send,\n"
        "{\n"
        "    let c = |y: i32| { y + 1 };\n"
        "    Ok(())\n"
        "}\n"  # 20
    )
    assert names("rust", text) == {
        (1, 4, "enum Shape"),
        (6, 12, "impl fmt::Display for Shape"),
        (7, 11, "impl fmt::Display for Shape > fn fmt"),
        (14, 20, "fn run"),
    }


def test_c_and_cpp() -> None:
    c = (
        "static struct point *make(int x) {\n"
        "  return NULL;\n"
        "}\n"
        "int main(void)\n"
        "{\n"
        "  list_for_each_entry(pos, head, member) {\n"  # a macro loop inside a function
        "    use(pos);\n"
        "  }\n"
        "}\n"
        "static const struct ops table = {\n"
        "  .open = 1,\n"
        "};\n"
    )
    assert names("c", c) == {(1, 3, "make()"), (4, 9, "main()")}
    cpp = (
        "#define BEGIN namespace app {\n"
        "template <typename T>\n"
        "class Stack : public Base<T> {\n"
        " public:\n"
        "  explicit Stack(int n) : size_(n), data_(new T[n]) {\n"
        "    init();\n"
        "  }\n"
        "};\n"
        "template <typename T>\n"
        "T Stack<T>::pop() {\n"
        "  std::for_each(v.begin(), v.end(), [](int x) {\n"
        "    use(x);\n"
        "  });\n"
        "}\n"
    )
    assert names("cpp", cpp) == {
        (2, 8, "class Stack"),
        (5, 7, "class Stack > Stack()"),
        (9, 14, "Stack::pop()"),
    }


def test_java_and_csharp() -> None:
    java = (
        "public class OrderService<T> extends Base {\n"
        '    @SuppressWarnings("unchecked")\n'
        "    public <R> Map<String, List<R>> group(List<R> items) throws IOException {\n"
        "        Runnable r = new Runnable() {\n"
        "            public void run() { work(); }\n"
        "        };\n"
        "        items.forEach(item -> {\n"
        "            process(item);\n"
        "        });\n"
        "        return null;\n"
        "    }\n"
        "}\n"
    )
    assert names("java", java) == {
        (1, 12, "class OrderService"),
        (2, 11, "class OrderService > group()"),
    }
    csharp = (
        "namespace App.Services\n"
        "{\n"
        "    public class Orders : ControllerBase\n"
        "    {\n"
        '        [HttpGet("{id}")]\n'
        "        public async Task<IActionResult> Get(int id)\n"
        "        {\n"
        "            return Ok();\n"
        "        }\n"
        "        public string Name { get; set; }\n"
        "    }\n"
        "}\n"
    )
    assert names("csharp", csharp) == {
        (1, 12, "namespace App.Services"),
        (3, 11, "namespace App.Services > class Orders"),
        (5, 9, "namespace App.Services > class Orders > Get()"),
    }


def test_ruby() -> None:
    text = (
        "module Shop\n"
        "  class Cart < Base\n"
        "    class << self\n"
        "      def build\n"
        "        new\n"
        "      end\n"
        "    end\n"
        "\n"
        "    def self.create(x) = new(x)\n"
        "\n"
        "    def total\n"
        "      items.each do |item|\n"
        "        item.price\n"
        "      end\n"
        "    end\n"
        "  end\n"
        "end\n"
    )
    assert names("ruby", text) == {
        (1, 17, "module Shop"),
        (2, 16, "module Shop > class Cart"),
        (4, 6, "module Shop > class Cart > def build"),
        (9, 9, "module Shop > class Cart > def self.create"),
        (11, 15, "module Shop > class Cart > def total"),
    }


@pytest.mark.parametrize("kind", ["javascript", "go", "rust", "c"])
def test_unbalanced_text_gives_what_it_can(kind: str) -> None:
    text = "}}} fn f() {\n int g() {\n ( ) ; \" ' ` /* // \n"
    assert all(scope.first <= scope.last for scope in scopes(kind, text))


def test_a_hunk_gets_the_innermost_symbol() -> None:
    text = "class A {\n  run() {\n    go();\n  }\n}\n"
    found = analysis_of("a.js", None, text).report.scopes
    assert {(s.first, s.last, s.name) for s in found} == {
        (1, 5, "class A"),
        (2, 4, "class A > run()"),
    }


def test_the_registry_and_the_symbol_finder_agree_on_kinds() -> None:
    from gitreview.analyze import code, symbols

    assert sorted(code.KINDS) == sorted((*symbols.BRACE_KINDS, *symbols.END_KINDS))


@pytest.mark.parametrize(
    ("kind", "text"),
    [
        ("javascript", "{" * 50_000 + "}" * 50_000),
        ("javascript", "class A {" * 20_000 + "}" * 20_000),
        ("javascript", "foo([" + "{a: 1}, " * 20_000 + "]);"),
        ("cpp", "template <" * 20_000 + "{}"),
        ("java", "@A " * 50_000 + "void f() {}"),
        ("ruby", "  def a\n" * 20_000),
    ],
    ids=["nested", "nested-named", "objects-in-a-call", "angles", "annotations", "ruby"],
)
def test_symbols_take_linear_time(kind: str, text: str) -> None:
    start = time.perf_counter()
    scopes(kind, text)
    assert time.perf_counter() - start < 30  # a blow-up bound, not a speed target


# --- named only as far as a hunk asks (issue 12) ----------------------------------------

TEXTS = {
    "c": "int main(void)\n{\n  if (x) {\n    go();\n  }\n}\nstatic int\nhelper(int a,\n"
    "       int b)\n{\n  return a;\n}\nstruct s { int a; };\nint last(void) { return 0; }\n",
    "javascript": "class A {\n  run() {\n    go();\n  }\n}\nconst f = (a) => {\n  g({ a,\n"
    "    b });\n};\nfunction h() {\n  return 1;\n}\n",
    "go": "func (s *Server) Handle(w Writer) {\n\tgo()\n}\n\ntype T struct {\n\ta int\n}\n"
    "func main() {\n\tx := T{\n\t\ta: 1,\n\t}\n}\n",
}


@pytest.mark.parametrize("kind", sorted(TEXTS))
def test_symbols_named_for_some_lines_are_those_of_the_whole_file(kind: str) -> None:
    text = TEXTS[kind]
    everything = scopes(kind, text)
    total = text.count("\n") + 1
    asked_sets = [{line} for line in range(1, total + 1)]
    asked_sets += [{first, first + gap} for first in range(1, total) for gap in (1, 3, 7)]
    for asked in asked_sets:
        found = scopes(kind, text, lines=asked)
        assert found == [s for s in everything if s in found]  # the same names, in order
        for line in asked:
            holding = [s for s in everything if s.first <= line <= s.last]
            assert [s for s in found if s.first <= line <= s.last] == holding
    assert len(scopes(kind, text, lines={1})) < len(everything)  # the rest is left out
    assert scopes(kind, text, lines=()) == []


def test_symbols_inside_an_unclosed_block_are_named_with_it() -> None:
    text = "namespace outer {\nint f(void)\n{\n  return 1;\n}\nint g(void)\n{\n  go();\n}\n"
    assert scopes("cpp", text, lines={8}) == [s for s in scopes("cpp", text) if s.first >= 6]
    assert [s.name for s in scopes("cpp", text, lines={8})] == ["namespace outer > g()"]


def test_lazy_scopes_are_named_once_on_first_use() -> None:
    calls = []

    def name() -> list[Scope]:
        calls.append(1)
        return [Scope(1, 2, "f()", "symbol")]

    lazy = LazyScopes(name)
    assert calls == []
    assert (len(lazy), list(lazy), lazy[0].name) == (1, [Scope(1, 2, "f()", "symbol")], "f()")
    assert calls == [1]


def test_a_classified_file_keeps_its_scopes_only_when_significant() -> None:
    calls = []

    def name() -> list[Scope]:
        calls.append(1)
        return [Scope(1, 2, "f()", "symbol")]

    analysis = Analysis(
        "c", t1=True, old_text="a", new_text="b", report=Report((), LazyScopes(name))
    )
    trivial = settled(analysis, significant=False)
    assert (trivial.report.scopes, trivial.old_text, trivial.new_text, calls) == (
        (),
        None,
        None,
        [],
    )
    significant = settled(analysis, significant=True)
    assert (significant.report.scopes, calls) == ((Scope(1, 2, "f()", "symbol"),), [1])


def test_a_significant_file_keeps_only_the_scopes_its_hunks_are_named_with() -> None:
    """What the manifest names each hunk with, and nothing else (issue 12)."""
    functions = "".join(f"\n\ndef f{i}():\n    return {i}\n" for i in range(12))
    old = f"class Outer:\n    class Inner:\n        def g(self):\n            return 1\n{functions}"
    new = old.replace("return 1\n", "return 10\n", 1).replace("return 7\n", "return 70\n")
    analysis, hunks = analysis_of("a.py", old, new), change_of("a.py", old, new).hunks
    every = tuple(analysis.report.scopes)
    kept = settled(analysis, significant=True, hunks=hunks).report.scopes
    assert [scope.name for scope in kept] == ["class Outer > class Inner > def g", "def f7"]
    # Named only where a hunk's line is: f0..f6 and f8..f11 never are.
    assert [scope.name for scope in every] == [
        "class Outer",
        "class Outer > class Inner",
        "class Outer > class Inner > def g",
        "def f7",
    ]
    for hunk in hunks:
        assert innermost_scope(kept, hunk) == innermost_scope(every, hunk)


@pytest.mark.parametrize(
    ("old", "new", "text"),
    [
        ("empty.c", "empty.h", ""),  # no line at all
        ("one.c", "one.h", "int x;"),  # one line, no line break
        ("app.js", "app.mjs", "export default 1\n"),
    ],
)
def test_a_file_renamed_without_a_hunk_names_no_symbol(
    tmp_path: Path, old: str, new: str, text: str
) -> None:
    """A rename that changes the extension is significant with no hunk, so no line
    is asked about: an empty C file renamed so was an internal error (IndexError),
    found by auditing git's history."""
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "--quiet")
    (repo / old).write_text(text)
    git(repo, "add", old)
    git(repo, "commit", "--quiet", "-m", "Add")
    git(repo, "mv", old, new)
    git(repo, "commit", "--quiet", "-m", "Rename")
    result = run("--repo", repo, "HEAD~1..HEAD")
    assert (result.status, result.stderr) == (0, "")
    entry = files_by_path(result.manifest)[new]
    assert (entry["status"], entry["classification"], entry["reasons"]) == (
        "renamed",
        "significant",
        ["extension"],
    )
    assert "hunks" not in entry
