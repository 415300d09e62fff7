"""Where the strings and comments are: a small hand-written lexer for code-like kinds.

`scan` walks a whole file, or a single line, once and reports the spans of string
literals and comments, and the places where it cannot be sure of itself. The
whitespace classifier uses it in two ways that must agree: over a whole file to
find the lines where whitespace is content (`literal_lines`), and over one line at
a time to build comparison keys (`line_segments`). Lines inside or touching a
multi-line string are literal; any other line starts in plain code, where lexing
it alone gives the file's answer, or inside a block comment, where any reading is
harmless (it is all comment) except on the line where the comment ends with code
after it, which is therefore literal too.

It is linear: every step is a compiled regular expression without ambiguous
repetition, or `str.find`, and the work in Python is per string, comment or slash,
not per character: real 100,000-line files lex in a few tenths of a second.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable, Iterator
from typing import Literal, NamedTuple

from gitreview.patterns import lazy_compile

C_FAMILY = frozenset({"c", "cpp", "java", "javascript", "typescript", "go", "rust", "csharp"})
SCANNED = C_FAMILY | {"python", "toml", "json"}

Tag = Literal["code", "string", "comment"]


class _Str(NamedTuple):
    """One kind of string literal, lexed from just after its opening delimiter."""

    body: re.Pattern[str] | None  # None: no escapes, it ends at the first `close`
    close: str
    multiline: bool
    hole: str = ""  # opener of an interpolation hole ("${", "{"), "" when none
    extra_quotes: bool = False  # TOML: `""""` ends a multi-line string with a quote in it


def _body(quote: str, *, multiline: bool, escapes: bool = True, hole: str = "") -> re.Pattern[str]:
    """The body of a string, up to its closing quote, a hole, or (single-line) a newline.

    Unrolled-loop form `[^stop]*(?:special[^stop]*)*`: linear, no backtracking blowup.
    """
    stop = re.escape(quote[0]) + ("\\\\" if escapes else "") + ("" if multiline else "\\n")
    # A backslash escapes the next character, a newline included, but not a brace: in
    # f"\{{" or rf"\{x}" the brace still opens a hole or pairs with the next one.
    special = (
        [r"\\(?:\r\n|[^{]|(?=\{))" if hole == "{" else r"\\(?:\r\n|[\s\S])"] if escapes else []
    )
    if len(quote) == 3:  # a lone quote, or two, inside a triple-quoted string
        special.append(re.escape(quote[0]) + "(?!" + re.escape(quote[:2]) + ")")
    if hole == "{":
        stop += r"\{"
        special.append(r"\{\{")
    elif hole == "${":
        stop += r"\$"
        special.append(r"\$(?!\{)")
    if not special:
        return lazy_compile(f"[^{stop}]*")
    return lazy_compile(f"[^{stop}]*(?:(?:{'|'.join(special)})[^{stop}]*)*")


_DQ = _Str(_body('"', multiline=False), '"', False)
_SQ = _Str(_body("'", multiline=False), "'", False)
_RUST_DQ = _Str(_body('"', multiline=True), '"', True)  # Rust strings may hold newlines
_TEMPLATE = _Str(_body("`", multiline=True, hole="${"), "`", True, hole="${")
_GO_RAW = _Str(None, "`", True)
_JAVA_BLOCK = _Str(_body('"""', multiline=True), '"""', True)
_CS_VERBATIM = _Str(lazy_compile(r'[^"]*(?:""[^"]*)*'), '"', True)  # `""` is an escaped quote
_CS_VERBATIM_HOLES = _Str(lazy_compile(r'[^"{]*(?:(?:""|\{\{)[^"{]*)*'), '"', True, hole="{")
_CS_HOLES = _Str(_body('"', multiline=False, hole="{"), '"', False, hole="{")
_TOML_LITERAL = _Str(_body("'", multiline=False, escapes=False), "'", False)
_TOML_ML_BASIC = _Str(_body('"""', multiline=True), '"""', True, extra_quotes=True)
_TOML_ML_LITERAL = _Str(None, "'''", True, extra_quotes=True)
_PY = {
    (q, holes): _Str(
        _body(q, multiline=len(q) == 3, hole="{" if holes else ""),
        q,
        len(q) == 3,
        hole="{" if holes else "",
    )
    for q in ("'", '"', "'''", '"""')
    for holes in (False, True)
}

# A Rust `'` starts a char literal only in these shapes; otherwise it is a lifetime or a
# label (`<'a>`, `&'a str`, `'outer: loop`), and treating it as a quote would swallow code.
_RUST_CHAR = lazy_compile(
    r"'(?:[^\\'\n\r\t]|\\(?:[nrt0\\'\"]|x[0-9a-fA-F]{2}|u\{[0-9a-fA-F_]{1,6}\}))'"
)
_CPP_RAW_DELIM = lazy_compile(r'[^()\\\s"]{0,16}\(')
_NESTED_COMMENT = lazy_compile(r"/\*|\*/")
_QUOTES = lazy_compile('"+')
_CGO = lazy_compile(r'^[ \t]*(?:import[ \t]*)?"C"[ \t]*(?://.*)?$', re.MULTILINE)

# The characters that may open a comment, a literal, a regex or a splice. The scanner
# jumps from one to the next with a single-character-class search, which runs in C;
# prefixes (`R"`, `r#"`, `@"`, `f"`) are recognised by looking back from the quote.
_STARTS = {
    "c": "/\"'\\",
    "java": "/\"'",
    "csharp": "/\"'",
    "javascript": "/\"'`",
    "go": "/\"'`",
    "rust": "/\"'",
    "python": "#\"'",
    "toml": "#\"'",
    "json": '"',
}
_STARTS["cpp"] = _STARTS["c"]
_STARTS["typescript"] = _STARTS["javascript"]


class _Lang(NamedTuple):
    starts: re.Pattern[str]
    starts_in_hole: re.Pattern[str]  # the same plus braces, inside an interpolation hole
    dq: _Str
    sq: _Str
    backtick: _Str


def _lang(kind: str) -> _Lang:
    chars = re.escape(_STARTS[kind])
    return _Lang(
        starts=lazy_compile(f"[{chars}]"),
        starts_in_hole=lazy_compile(f"[{chars}{{}}]"),
        dq=_RUST_DQ if kind == "rust" else _DQ,
        sq=_TOML_LITERAL if kind == "toml" else _SQ,
        backtick=_GO_RAW if kind == "go" else _TEMPLATE,
    )


_LANGS = {kind: _lang(kind) for kind in SCANNED}


def _after_word(text: str, index: int) -> bool:
    """Whether an identifier or number character comes right before `index`."""
    return index > 0 and (text[index - 1].isalnum() or text[index - 1] == "_")


class Scan:
    """What one pass of the lexer found; offsets into the scanned text. (Not a
    dataclass: making one costs a millisecond of every run's start-up, issue 12.)"""

    __slots__ = ("comments", "confused", "give_up", "rest_from", "slashes", "splices", "strings")

    def __init__(self) -> None:
        self.strings: list[tuple[int, int]] = []  # outermost literals
        self.comments: list[tuple[int, int]] = []
        self.confused: list[tuple[int, int]] = []  # unterminated strings
        self.slashes: list[int] = []  # JS/TS `/`: regex or division?
        self.splices: list[int] = []  # C/C++ `\` before a newline
        self.rest_from: int | None = None  # unterminated multi-line literal: unsure from here on
        self.give_up = False  # unsure of the whole text


def scan(kind: str, text: str) -> Scan:
    return _Scanner(kind, text).run()


class _Hole:
    """An interpolation hole (`${...}`, `{...}`): code inside a string."""

    __slots__ = ("depth", "kind", "outer")

    def __init__(self, kind: _Str, outer: int) -> None:
        self.kind = kind  # the string it belongs to
        self.outer = outer  # where the outermost enclosing string starts
        self.depth = 0  # braces opened inside the hole and not yet closed


class _Scanner:
    def __init__(self, kind: str, text: str) -> None:
        self.kind, self.text, self.lang, self.out = kind, text, _LANGS[kind], Scan()
        self.stack: list[_Hole] = []  # interpolation holes we are inside, innermost last
        self.slash_at, self.slash_eol = -1, -1  # the last regex-or-division slash, its line end
        self.separator = -1  # the last digit separator

    def run(self) -> Scan:
        text, lang = self.text, self.lang
        pos: int | None = 0
        while pos is not None and pos < len(text):
            m = (lang.starts_in_hole if self.stack else lang.starts).search(text, pos)
            if m is None:
                break
            start = m.start()
            char, pos = text[start], start + 1
            # Most frequent first: this loop runs once per string, comment and slash.
            if char == '"' or char == "`":
                kind, body = self._opener(start)
                pos = self._string(kind, body, start)
            elif char == "'":
                if self.kind == "rust":
                    literal = _RUST_CHAR.match(text, start)
                    if literal:  # else a lifetime or a label: not a quote at all
                        pos = self._finish(start, literal.end())
                elif not (self.kind in ("c", "cpp") and self._digit_separator(start)):
                    kind, body = self._opener(start)  # (not `1'000'000`)
                    pos = self._string(kind, body, start)
            elif char == "/":
                pos = self._slash(start)
            elif char == "#":
                if not self.stack:  # inside a hole it is a format spec: f"{n:#x}"
                    pos = self._line_end(start)
                    self._emit(self.out.comments, start, pos)
            elif char == "\\":
                end = text.find("\n", pos)
                # C/C++: the next line joins this one (after spaces too: gcc and clang).
                if end >= 0 and not text[pos:end].strip(" \t\f\v\r"):
                    self.out.splices.append(start)
            elif char == "{":
                self.stack[-1].depth += 1
            elif self.stack[-1].depth:  # "}"
                self.stack[-1].depth -= 1
            else:  # the hole closes: back inside the string it belongs to
                hole = self.stack.pop()
                pos = self._string(hole.kind, pos, hole.outer)
        if self.stack:  # a hole never closed: whatever follows is uncertain
            self._unsure(self.stack[0].outer)
        return self.out

    def _slash(self, start: int) -> int | None:
        text, after = self.text, start + 1
        following = text[after : after + 1]
        if following == "/":
            if self.stack:  # a comment inside a hole, or a format spec: too unusual
                self._unsure(self.stack[0].outer)
                return None
            end = self._line_end(start)
            self._emit(self.out.comments, start, end)
            return end
        if following == "*":
            end = self._block_end(after + 1)
            self._emit(self.out.comments, start, end)
            return end
        if self.kind not in ("javascript", "typescript") or text[start - 1 : start] == "*":
            return after  # a division, or the `/` of a stray `*/`
        # `/a  b/` is a regex literal whose spaces matter, and only a parser can tell it
        # from a division: the caller treats the line as literal. Inside a template hole,
        # or in JSX (`</`, `/>`, whose text is content), a wrong guess could shift where
        # literals end on later lines: give up on the whole file.
        self.out.slashes.append(start)
        if self.stack or text[start - 1 : start] == "<" or following == ">":
            self.out.give_up = True
            return None
        eol = text.find("\n", start)
        self.slash_at, self.slash_eol = start, len(text) if eol < 0 else eol
        return after

    def _digit_separator(self, quote: int) -> bool:
        """C++14/C23 `1'000`, `0xFF'FF`: a quote inside a number is not a quote."""
        text, first = self.text, quote
        while first > 0 and (text[first - 1].isalnum() or text[first - 1] in "_."):
            first -= 1  # linear overall: each run of characters is walked back once
        if first < quote and (text[first].isdigit() or first - 1 == self.separator):
            self.separator = quote
            return True
        return False

    def _opener(self, start: int) -> tuple[_Str, int]:
        """The kind of string the quote at `start` opens, and where its body starts."""
        text, kind, after = self.text, self.kind, start + 1
        quote = text[start]
        triple = text.startswith(quote * 3, start)
        if quote == "`":
            return self.lang.backtick, after
        if kind == "python":
            first = start  # a prefix is at most two letters right before the quote
            while first > start - 2 and first > 0 and text[first - 1] in "rRbBuUfFtT":
                first -= 1
            holes = not _after_word(text, first) and any(c in "fFtT" for c in text[first:start])
            length = 3 if triple else 1
            return _PY[(quote * length, holes)], start + length
        if kind == "toml" and triple:
            return (_TOML_ML_BASIC if quote == '"' else _TOML_ML_LITERAL), start + 3
        if quote == "'":
            return self.lang.sq, after
        if kind == "java" and triple:
            return _JAVA_BLOCK, start + 3
        if kind == "csharp":
            return self._csharp(start)
        if kind in ("c", "cpp") and text[start - 1 : start] == "R":
            # C++ R"delim( ... )delim", maybe with an encoding prefix: u8R, uR, UR, LR.
            first = start - 1
            if text[first - 2 : first] == "u8":
                first -= 2
            elif text[first - 1 : first] in ("u", "U", "L"):
                first -= 1
            delim = _CPP_RAW_DELIM.match(text, after)
            if delim and not _after_word(text, first):
                return _Str(None, ")" + text[after : delim.end() - 1] + '"', True), delim.end()
        if kind == "rust":  # r"...", r#"..."#, br##"..."##, cr"...": no escapes
            first = start
            while first > 0 and text[first - 1] == "#":
                first -= 1
            hashes = start - first
            if text[first - 1 : first] == "r":
                first -= 1
                if text[first - 1 : first] in ("b", "c"):
                    first -= 1
                if not _after_word(text, first):
                    return _Str(None, '"' + "#" * hashes, True), after
        return self.lang.dq, after

    def _csharp(self, start: int) -> tuple[_Str, int]:
        """C# @"..." verbatim, $"..." interpolated, and \"\"\"...\"\"\" raw strings."""
        text, first = self.text, start
        while first > max(0, start - 8) and text[first - 1] in "$@":
            first -= 1
        prefix = "" if _after_word(text, first) else text[first:start]
        if "@" in prefix:
            return (_CS_VERBATIM_HOLES if "$" in prefix else _CS_VERBATIM), start + 1
        quotes = _QUOTES.match(text, start).group()  # type: ignore[union-attr]
        if len(quotes) >= 3:  # holes ignored: only as many quotes close it
            return _Str(None, quotes, True), start + len(quotes)
        return (_CS_HOLES if "$" in prefix else _DQ), start + 1

    def _string(self, kind: _Str, pos: int, outer: int) -> int | None:
        """Lex a string body from `pos`; the next position in code, or None to stop."""
        text = self.text
        if kind.body is None:
            close = text.find(kind.close, pos)
            if close < 0:
                self._unsure(outer)
                return None
            end = close + len(kind.close)
            return self._finish(outer, self._extra(kind, end) if kind.extra_quotes else end)
        end = kind.body.match(text, pos).end()  # type: ignore[union-attr]
        if text.startswith(kind.close, end):
            end += len(kind.close)
            return self._finish(outer, self._extra(kind, end) if kind.extra_quotes else end)
        if kind.hole and text.startswith(kind.hole, end):
            self.stack.append(_Hole(kind, outer))
            return end + len(kind.hole)
        if kind.multiline or self.stack:
            self._unsure(outer)
            return None
        # A single-line string still open at the end of its line: the lexer is confused.
        # That line is literal and lexing starts afresh on the next.
        self.out.confused.append((outer, end))
        self._hides_backtick(outer, end)
        return end + 1

    def _extra(self, kind: _Str, end: int) -> int:
        """TOML: `\"\"\"a\"\"\"\"` is the string `a"`: up to two more quotes belong to it."""
        for _ in range(2):
            if self.text.startswith(kind.close[0], end):
                end += 1
        return end

    def _finish(self, start: int, end: int) -> int:
        self._emit(self.out.strings, start, end)
        return end

    def _emit(self, spans: list[tuple[int, int]], start: int, end: int) -> None:
        if self.stack:
            return  # inside a hole: the outermost string covers it
        spans.append((start, end))
        self._hides_backtick(start, end)
        if self.slash_at < start < self.slash_eol < end:
            # Opened after a regex-or-division slash and running past its line: if the slash
            # began a regex, this is no literal at all, and later lines would be misread.
            self.out.give_up = True

    def _hides_backtick(self, start: int, end: int) -> None:
        """Give up where a comment or string opened after a regex-or-division slash holds
        a backtick on the slash's line: if the slash began a regex, its `//` or quote
        (`split(/\\//)`, `replace(/'/g, ...)`) opened no comment nor string, and the
        backtick opens a template literal whose lines would be read as code (found by
        an adversarial review)."""
        text = self.text
        # (a template literal itself is read as one: `/^@/.test(n) ? `${n}` : n`)
        on_its_line = self.slash_at < start < self.slash_eol and text[start] != "`"
        if on_its_line and "`" in text[start : min(end, self.slash_eol)]:
            self.out.give_up = True

    def _unsure(self, start: int) -> None:
        self.out.rest_from = self.stack[0].outer if self.stack else start

    def _line_end(self, pos: int) -> int:
        text = self.text
        while True:
            end = text.find("\n", pos)
            if end < 0:
                return len(text)
            splice = self.kind in ("c", "cpp") and text[pos:end].rstrip(" \t\f\v\r").endswith("\\")
            if not splice:
                return end
            self.out.splices.append(end - 1)  # a C comment continues past `\`-newline
            pos = end + 1

    def _block_end(self, pos: int) -> int:
        if self.kind != "rust":
            end = self.text.find("*/", pos)
            return len(self.text) if end < 0 else end + 2
        depth = 1  # Rust block comments nest
        for m in _NESTED_COMMENT.finditer(self.text, pos):
            depth += 1 if m.group() == "/*" else -1
            if depth == 0:
                return m.end()
        return len(self.text)


def literal_lines(kind: str, text: str) -> frozenset[int] | None:
    """1-based lines where whitespace is content or the lexer is unsure; None: all of them."""
    if kind == "go" and '"C"' in text and _CGO.search(text):
        return None  # cgo: the comment before `import "C"` is C code, strings and all
    if kind in ("c", "cpp") and "??/" in text:
        return None  # the trigraph of `\` (C before C23): it splices lines where it ends one
    found = scan(kind, text)
    if found.give_up:
        return None
    newlines = [m.start() for m in re.finditer("\n", text)]
    last = len(newlines) + (not text.endswith("\n"))  # the last line's number

    def line(offset: int) -> int:
        return bisect_left(newlines, offset) + 1

    lines: set[int] = set()

    def span(start: int, end: int) -> None:
        lines.update(range(line(start), line(max(start, end - 1)) + 1))

    for start, end in found.strings:
        if text.find("\n", start, end) >= 0:
            span(start, end)
    for start, end in found.confused:
        span(start, end)
    for start in found.slashes:
        lines.add(line(start))
    for start in found.splices:
        lines.add(min(last, line(start) + 1))  # the spliced line joins the one before
    for start, end in found.comments:
        if text.find("\n", start, end) < 0:
            continue
        doc = text[start + 2 : start + 3] in ("*", "!") and end - start > 4
        if kind == "rust" and doc:
            span(start, end)  # a doc comment: Markdown whose code blocks are doctests
        elif kind in C_FAMILY:
            # Go's documentation may be a `/* */` comment without `*`s.
            lines.update(_shown_as_written(text, start, end, doc or kind == "go", line))
        eol = text.find("\n", end)
        if text[end : len(text) if eol < 0 else eol].strip():
            # Code after a multi-line comment closes: alone, that line would lex as if it
            # started in code, so the comment's text could pair up quotes wrongly.
            lines.add(line(end - 1))
    if found.rest_from is not None:
        lines.update(range(line(found.rest_from), last + 1))
    return frozenset(lines)


# What opens and closes, inside a doc comment, lines shown as written: a `<pre>`, a
# fenced block, and a JSDoc/TSDoc `@example` (up to the next tag).
_PRE = lazy_compile(r"(?i)<pre[\s>]|^(?:```|~~~)|^@example\b")
_PRE_END = {
    "<": lazy_compile(r"(?i)</pre>"),
    "`": lazy_compile(r"^```"),
    "~": lazy_compile(r"^~~~"),
    "@": lazy_compile(r"^@(?!example\b)\w"),
}
# The `*` a block comment's line may start with, and the spaces after it.
_LEADER = lazy_compile(r"[ \t]*(\*(?!/))?([ \t]*)")


def _shown_as_written(
    text: str, start: int, end: int, doc: bool, line: Callable[[int], int]
) -> Iterator[int]:
    """The lines of a block comment, after its first, whose spacing within the
    comment is content: more than one space after the `*` that starts them (Javadoc
    and Doxygen code, an indented Go code block), every line of a doc comment without
    `*`s, and in a doc comment every line of a `<pre>`, a fenced block or a JSDoc
    `@example`. Alone, such a line lexes as code, which would fold its spacing."""
    closer = None  # what ends the `<pre>`, fence or example the lines are in
    first = start
    while first < end:
        stop = text.find("\n", first, end)
        stop = end if stop < 0 else stop
        leader = _LEADER.match(text, first, stop) if first > start else None
        content = text[leader.end() if leader else first + 3 : stop]
        if closer is not None and first > start:
            yield line(first)
        if closer is not None and closer.search(content):
            closer = None
        elif closer is None and doc and (opened := _PRE.search(content)):
            closer = _PRE_END[opened.group().lstrip()[0]]
            if closer.search(content, opened.end()):
                closer = None  # `<pre>x</pre>` on one line
            elif first > start:
                yield line(first)
        if leader is not None and closer is None:
            star, spaces = leader.group(1), leader.group(2)
            shown = not text.startswith("*/", leader.end()) and leader.end() < stop
            if shown and (doc if star is None else len(spaces) > 1 or "\t" in spaces):
                yield line(first)
            elif doc and text[first:stop].rstrip("\r").endswith("  "):
                yield line(first)  # two trailing spaces: a line break in the rendered docs
        first = stop + 1


def line_segments(kind: str, line: str) -> list[tuple[Tag, int, int]] | None:
    """Split one line into code, string and comment parts; None: compare it exactly."""
    found = scan(kind, line)
    if found.give_up or found.slashes:
        return None
    spans: list[tuple[Tag, int, int]] = [("string", s, e) for s, e in found.strings]
    spans += [("string", s, e) for s, e in found.confused]
    spans += [("comment", s, e) for s, e in found.comments]
    if found.rest_from is not None:
        spans.append(("string", found.rest_from, len(line)))
    segments: list[tuple[Tag, int, int]] = []
    pos = 0
    for tag, start, end in sorted(spans, key=lambda item: item[1]):
        if start > pos:
            segments.append(("code", pos, start))
        segments.append((tag, start, end))
        pos = end
    if pos < len(line):
        segments.append(("code", pos, len(line)))
    return segments
