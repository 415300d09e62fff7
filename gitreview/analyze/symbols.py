"""The functions and types of a source file, as head-side scopes hunks fall in.

A light approach that does not need a parser per language. For brace languages
the file is lexed (analyze/lexers.py) so strings and comments are blanked out,
then every `{` is matched with its `}`; the text between the previous `;`, `{`
or `}` and a `{` is the block's head, and per-language patterns name it
(`class Parser`, `fn push`, `func (*Server) Handle`, `feed()`) or leave it
anonymous (`if`, a struct literal, a lambda), in which case it is transparent
for naming. Ruby's `def`/`class`/`module` run to the `end` at their own indent.
Where a head is ambiguous the block gets no name: a missing symbol costs less
than a wrong one.
"""

from __future__ import annotations

import functools
import re
from bisect import bisect_left, bisect_right
from collections.abc import Collection, Iterator
from itertools import accumulate

from gitreview.analyze import lexers
from gitreview.analyze.base import Scope
from gitreview.patterns import lazy_compile

BRACE_KINDS = ("c", "cpp", "csharp", "go", "java", "javascript", "rust", "typescript")
END_KINDS = ("ruby",)

# Heads that open a block but no definition, whatever follows them.
_CONTROL_WORDS = """if else for foreach while do switch case catch try finally with return throw
new synchronized using lock fixed checked unchecked unsafe sizeof typeof await yield match loop
select defer go when"""
_CONTROL = frozenset(_CONTROL_WORDS.split())
# What may come before a JavaScript method's name.
_JS_MODIFIER_WORDS = "static async get set public private protected readonly override abstract"
_JS_MODIFIERS = frozenset(_JS_MODIFIER_WORDS.split())
_TYPE_WORDS = {
    "c": ("struct", "union", "enum"),
    "cpp": ("class", "struct", "union", "enum", "namespace"),
    "csharp": ("class", "struct", "interface", "enum", "record", "namespace"),
    "java": ("class", "interface", "enum", "record"),
    "javascript": ("class",),
    "typescript": ("class", "interface", "enum", "namespace"),
    "rust": ("struct", "enum", "trait", "union", "mod", "impl"),
    "go": (),
}
_TYPE_DECLARATION = {
    kind: lazy_compile(rf"(?:^|[\s>])({'|'.join(words)})\b ?(.*)")
    for kind, words in _TYPE_WORDS.items()
    if words
}
_IDENTIFIER = lazy_compile(r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_]\w*)*")  # dotted: C# namespaces
_GO_FUNC = lazy_compile(r"func ?(?:\(([^()]*)\) ?)?([A-Za-z_]\w*) ?[\[(]")
_GO_TYPE = lazy_compile(r"type ([A-Za-z_]\w*)(?:\[[^\]]*\])? (?:struct|interface)$")
_RUST_FN = lazy_compile(r"\bfn ([A-Za-z_]\w*)")
_JS_FUNCTION = lazy_compile(r"\bfunction ?\*? ?([A-Za-z_$][\w$]*) ?(?:<[^()]*>)? ?\(")
_JS_ARROW = lazy_compile(
    r"(?:(?:export|default|const|let|var|static|readonly|private|public|protected) )*"
    r"([A-Za-z_$][\w$]*)(?:\?? ?: [^=]*)? ?= ?(?:async )?(?:\([^()]*\)|[A-Za-z_$][\w$]*)"
    r"(?: ?: [^=]*)? ?=>$"
)
_ANNOTATION = lazy_compile(r"@[\w.]+(?: ?\([^()]*\))?|\[\[?[^\[\]]*\]?\]")


class _Brace:
    """A `{` as the pass over braces found it, before any name is read."""

    __slots__ = ("close", "head_start", "inline_head", "outer", "position")

    def __init__(
        self, head_start: int, position: int, outer: int, inline_head: int | None = None
    ) -> None:
        self.head_start = head_start  # where its head starts; -1: not named (takes its outer's)
        self.position = position
        self.outer = outer  # the enclosing brace's index, -1 at the top
        self.close = -1  # where its `}` is; -1: it never closes
        # A block opened inside parentheses (`App({ items })`, `f(opts: { a: string })`):
        # where the head around it started, so the head goes on after it closes.
        self.inline_head = inline_head


def scopes(kind: str, text: str, *, lines: Collection[int] | None = None) -> list[Scope]:
    """The named blocks of the file, in the order they close; with `lines`, only
    those that may hold one of them (the rest may be left out): every scope that
    holds one of those lines is there, named as in the whole file."""
    if kind in END_KINDS:
        return list(_end_scopes(text))
    if kind in BRACE_KINDS:
        return _brace_scopes(kind, text, lines)
    return []


# --- brace languages -------------------------------------------------------------------

# A head is named from its last lines when the whole of it names nothing: languages
# without semicolons (Go, JavaScript without them) leave earlier statements in it.
_HEAD_LINES = 12
_HEAD_CHARS = 4000
_DECORATIONS = ("@", "#[", "[", "template")  # annotations, attributes, C++ templates
_MAX_RESTARTS = 1000
_MAX_DEPTH = 100  # blocks nested deeper are not named: no real code goes there
_DIRECTIVE = lazy_compile(r"^[ \t]*#.*$", re.MULTILINE)


def _brace_scopes(kind: str, text: str, lines: Collection[int] | None) -> list[Scope]:
    if lines is not None and not lines:
        return []  # no line asked about (a file with no hunks: a rename), no block needed
    code = code_only(kind, text)
    if code is None:
        return []
    if kind in ("c", "cpp", "csharp"):  # preprocessor lines may hold unbalanced braces
        code = _DIRECTIVE.sub(lambda m: " " * len(m.group()), code)
    newlines = _newlines(code)
    asked = None if lines is None else sorted(lines)
    braces = _braces(code, newlines, None if asked is None else asked[-1])
    # Named from the outside in, and only where a block may hold an asked line: a
    # head's name is the costly part, and a block holds no line its outer does not.
    named: list[tuple[str | None, bool]] = []  # (path, in a function) of each brace
    found: list[tuple[int, Scope]] = []
    for brace in braces:
        outer_path, outer_function = named[brace.outer] if brace.outer >= 0 else (None, False)
        if brace.head_start < 0 or not _may_hold(brace, newlines, asked):
            named.append((outer_path, outer_function))
            continue
        head = code[brace.head_start : brace.position]
        name, function, start = _name_head(kind, head, outer_function)
        path = name if outer_path is None or name is None else f"{outer_path} > {name}"
        named.append((path or outer_path, outer_function or function))
        if name is not None and path is not None and brace.close >= 0:
            first = bisect_right(newlines, brace.head_start + start - 1) + 1
            last = bisect_right(newlines, brace.close - 1) + 1
            found.append((brace.close, Scope(first, last, path, "symbol")))
    return [scope for _, scope in sorted(found, key=lambda pair: pair[0])]


def _newlines(code: str) -> list[int]:
    """Where each line break is: the lengths of the lines, summed in C."""
    breaks = list(accumulate(map((1).__add__, map(len, code.split("\n"))), initial=-1))
    return breaks[1:-1]


def _braces(code: str, newlines: list[int], until: int | None) -> list[_Brace]:
    """Every `{` matched with its `}`, with where its head starts. Past the end of
    line `until`, a block whose head starts there cannot hold the line: it is not
    named, and once no block is open, nothing more can."""
    limit = len(code) if until is None or until > len(newlines) else newlines[until - 1]
    braces: list[_Brace] = []
    stack: list[int] = []
    boundary = after = 0  # where the head of a `{` may start; just past the last brace
    for match in re.finditer(r"[{}]", code):
        char, position = match.group(), match.start()
        semicolon = code.rfind(";", after, position)  # a statement ends the head too
        if semicolon >= 0:
            boundary = semicolon + 1
        after = position + 1
        if boundary > limit and not stack:
            break
        next_boundary = position + 1
        if char == "{":
            head_start = max(boundary, position - _HEAD_CHARS)
            brace = _Brace(-1, position, stack[-1] if stack else -1)
            if boundary > limit:
                pass
            elif code.count("(", head_start, position) > code.count(")", head_start, position):
                brace.inline_head = boundary
            elif len(stack) < _MAX_DEPTH:
                brace.head_start = head_start
            stack.append(len(braces))
            braces.append(brace)
        elif char == "}" and stack:
            brace = braces[stack.pop()]
            brace.close = position
            if brace.inline_head is not None:
                next_boundary = brace.inline_head
        boundary = next_boundary
    return braces


def _may_hold(brace: _Brace, newlines: list[int], asked: list[int] | None) -> bool:
    """Whether one of the asked lines falls from the line its head starts on to the
    line of its `}` (the block's first line is never before its head's)."""
    if asked is None:
        return True
    first = bisect_right(newlines, brace.head_start - 1) + 1
    last = len(newlines) + 1 if brace.close < 0 else bisect_right(newlines, brace.close - 1) + 1
    index = bisect_left(asked, first)
    return index < len(asked) and asked[index] <= last


def _name_head(kind: str, head: str, inside_function: bool) -> tuple[str | None, bool, int]:
    """The block's name (None: anonymous), whether it is a function, and where in
    the head its declaration starts."""
    lines = head.split("\n")
    offsets = [0]
    for line in lines[:-1]:
        offsets.append(offsets[-1] + len(line) + 1)

    @functools.cache  # the start's search below reads the same suffixes again
    def named_from(index: int) -> tuple[str | None, bool]:
        part = [line for line in lines[index:] if not line.lstrip().startswith("#")]
        words = " ".join(" ".join(part).split())  # Rust attributes and directives out
        return _name_block(kind, words, inside_function) if words else (None, False)

    suffixes = range(max(1, len(lines) - _HEAD_LINES), len(lines))
    for index in [0, *suffixes]:  # the longest reading first: it sees a whole signature
        named = named_from(index)
        if named[0] is None:
            continue
        # The declaration starts where the shortest suffix still names it the same...
        start = next(
            (later for later in reversed(suffixes) if later > index and named_from(later) == named),
            index,
        )
        while start > index and lines[start - 1].lstrip().startswith(_DECORATIONS):
            start -= 1  # ... with its annotations, as a Python decorator belongs to its def
        skipped = len(head[offsets[start] :]) - len(head[offsets[start] :].lstrip())
        return named[0], named[1], offsets[start] + skipped
    return None, False, len(head) - len(head.lstrip())


def code_only(kind: str, text: str) -> str | None:
    """The text with its strings and comments blanked (newlines kept). Where the
    lexer gives up (JSX, a regex it cannot tell from a division), lexing starts
    afresh on the next line; None when that keeps happening."""
    pieces: list[str] = []
    offset = 0
    for _ in range(_MAX_RESTARTS):
        chunk = text[offset:] if offset else text
        found = lexers.scan(kind, chunk)
        stop = _stop(chunk, found)
        position = 0
        # A string still open at the end of its line is no string in valid code but
        # the lexer misreading something (`Don't` in JSX text): its braces count.
        for start, end in sorted([*found.strings, *found.comments]):
            if start >= stop:
                break
            pieces += [chunk[position:start], _blank(chunk[start:end])]
            position = end
        if stop >= len(chunk):
            pieces.append(chunk[position:])
            return "".join(pieces)
        eol = chunk.find("\n", max(stop, position))
        cut = len(chunk) if eol < 0 else eol + 1
        rest_of_line = chunk[position:cut]
        pieces.append(_blank(rest_of_line) if found.rest_from is not None else rest_of_line)
        offset += cut
        if offset >= len(text):
            return "".join(pieces)
    return None


def _stop(chunk: str, found: lexers.Scan) -> int:
    """Where the lexer's reading of `chunk` stops being trustworthy (the same tests
    the lexer makes when it gives up), or the end."""
    stops = [] if found.rest_from is None else [found.rest_from]
    if found.give_up:
        slashes = found.slashes
        stops += [s for s in slashes if chunk[s - 1 : s] == "<" or chunk[s + 1 : s + 2] == ">"]
        for start, end in [*found.strings, *found.comments]:
            index = bisect_right(slashes, start - 1) - 1
            if index >= 0:
                eol = chunk.find("\n", slashes[index])
                if eol >= 0 and start < eol < end:
                    stops.append(start)
        if not stops and slashes:
            stops.append(slashes[-1])
    return min(stops, default=len(chunk))


def _blank(piece: str) -> str:
    if "\n" not in piece:  # most strings and comments: one line
        return " " * len(piece)
    return "\n".join(" " * len(part) for part in piece.split("\n"))


def _name_block(kind: str, words: str, inside_function: bool) -> tuple[str | None, bool]:
    if kind == "go":
        return _go_block(words)
    if kind == "rust":
        function = _RUST_FN.search(words)
        if function:
            return f"fn {function.group(1)}", True
        return _type_block(kind, words), False
    if kind in ("javascript", "typescript"):
        return _js_block(kind, words)
    words = _ANNOTATION.sub(" ", words).strip()
    if kind == "cpp" and words.startswith("template"):  # template <class T> ...
        words = words[_after_angles(words, words.find("<")) :].strip()
    declared = _type_block(kind, words)
    if declared is not None or inside_function:
        return declared, False
    name = _function_name(words, allow_prefix=True)
    return (None, False) if name is None else (f"{name}()", True)


def _go_block(words: str) -> tuple[str | None, bool]:
    function = _GO_FUNC.match(words)
    if function:
        receiver, name = function.groups()
        if receiver is None:
            return f"func {name}", True
        receiver_type = receiver.split()[-1] if receiver.strip() else ""
        return f"func ({receiver_type}) {name}", True
    declared = _GO_TYPE.match(words)
    return (f"type {declared.group(1)}", False) if declared else (None, False)


def _js_block(kind: str, words: str) -> tuple[str | None, bool]:
    function = _JS_FUNCTION.search(words)
    if function and _balanced_to_end(words, function.end() - 1):
        return f"function {function.group(1)}", True
    arrow = _JS_ARROW.fullmatch(words)
    if arrow:
        return f"{arrow.group(1)}()", True
    declared = _type_block(kind, words)
    if declared is not None:
        return declared, False
    name = _function_name(words, allow_prefix=False)
    return (None, False) if name is None else (f"{name}()", True)


def _type_block(kind: str, words: str) -> str | None:
    pattern = _TYPE_DECLARATION.get(kind)
    found = pattern.search(words) if pattern else None
    if found is None:
        return None
    word, rest = found.groups()
    if kind == "rust" and word == "impl":
        return _rust_impl(rest)
    if kind == "cpp" and word == "enum" and rest.startswith(("class ", "struct ")):
        rest = rest.split(" ", 1)[1]
    name = _IDENTIFIER.match(rest)
    if name is None or name.group() in ("extends", "implements"):
        return None
    if kind in ("c", "cpp") and ("(" in rest or "=" in rest):
        return None  # `struct point *make(void)`, `struct ops x = {`: not a type's body
    return f"{word} {name.group()}"


def _rust_impl(rest: str) -> str:
    """`impl<T: Ord> Stack<T> where T: Copy` -> `impl Stack<T>`."""
    if rest.startswith("<"):
        rest = rest[_after_angles(rest, 0) :].strip()
    return "impl " + rest.split(" where ", 1)[0].strip()


def _after_angles(words: str, start: int) -> int:
    """Just past the `<...>` that opens at `start` (nested ones included)."""
    depth = 0
    for index in range(max(start, 0), len(words)):
        depth += {"<": 1, ">": -1}.get(words[index], 0)
        if depth == 0:
            return index + 1
    return len(words)


def _function_name(words: str, *, allow_prefix: bool) -> str | None:
    """`public static int parse(String s) throws IOException` -> `parse`: the name before
    the first top-level parameter list, which must close and not be part of a call."""
    open_paren = words.find("(")
    if open_paren <= 0 or not _balanced_to_end(words, open_paren):
        return None
    name, prefix = _qualified_name(words[:open_paren].rstrip())
    if not name or name in _CONTROL or name[0].isdigit():
        return None
    if allow_prefix:
        if any(char in prefix for char in "=();") or set(prefix.split()) & _CONTROL:
            return None
    elif any(word not in _JS_MODIFIERS for word in prefix.replace("*", " ").split()):
        return None
    tail = words[_matching_paren(words, open_paren) + 1 :]
    return None if "=" in tail.replace("=>", "").replace("->", "") else name


def _qualified_name(before: str) -> tuple[str, str]:
    """The name that ends `before` and what comes before it, template arguments left
    out: `T Stack<T>::pop` -> (`Stack::pop`, `T `), `foo<int>` -> `foo`."""
    parts: list[str] = []
    end = len(before)
    while True:
        if before[:end].endswith(">"):
            end = _angles_start(before, end)
        start = end
        while start > 0 and (before[start - 1].isalnum() or before[start - 1] in "_$~#."):
            start -= 1
        parts.append(before[start:end])
        if not before[:start].endswith("::"):
            break
        end = start - 2
    return "::".join(reversed(parts)).lstrip("."), before[:start]


def _angles_start(words: str, end: int) -> int:
    """Where the `<...>` that ends just before `end` opens (nested ones included)."""
    depth = 0
    for index in range(end - 1, -1, -1):
        depth += {">": 1, "<": -1}.get(words[index], 0)
        if depth == 0:
            return index
    return end


def _matching_paren(words: str, open_paren: int) -> int:
    depth = 0
    for index in range(open_paren, len(words)):
        char = words[index]
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth == 0:
                return index
    return -1


def _balanced_to_end(words: str, open_paren: int) -> bool:
    """Whether the parenthesis closes and every one after it does too: a head that
    ends inside a call's arguments (`describe("x", function () {`) is no definition."""
    if _matching_paren(words, open_paren) < 0:
        return False
    return words.count("(", open_paren) == words.count(")", open_paren)


# --- Ruby: def, class and module down to the `end` at their own indent ----------------

_RUBY_HEAD = lazy_compile(r"([ \t]*)(def|class|module) +(?!<<)([^\s(;<=]+)")
_RUBY_END = lazy_compile(r"\s*end\b")


def _end_scopes(text: str) -> Iterator[Scope]:
    lines = text.split("\n")
    open_blocks: list[tuple[int, str]] = []  # (last line, name) of enclosing scopes
    for index, line in enumerate(lines):
        head = _RUBY_HEAD.match(line)
        if head is None:
            continue
        indent, word, name = head.groups()
        last = _end_line(lines, index, len(indent.expandtabs()))
        while open_blocks and open_blocks[-1][0] < index + 1:
            open_blocks.pop()
        full = " > ".join([*(outer for _, outer in open_blocks), f"{word} {name}"])
        yield Scope(index + 1, last, full, "symbol")
        open_blocks.append((last, f"{word} {name}"))


def _end_line(lines: list[str], head: int, indent: int) -> int:
    """The `end` at the head's indent, or the last line before the code comes back to
    that indent (a one-line `def x = 1`)."""
    last = head
    for index in range(head + 1, len(lines)):
        line = lines[index]
        if not line.strip():
            continue
        if len(line.expandtabs()) - len(line.expandtabs().lstrip()) <= indent:
            return index + 1 if _RUBY_END.match(line) else last + 1
        last = index
    return last + 1
