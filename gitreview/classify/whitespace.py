"""Hunks whose two sides differ only in whitespace the file type gives no meaning.

Both sides of a hunk (context included) become sequences of comparison keys:
blank lines are dropped or collapsed as the kind allows, every other line is
normalized by the kind's lexical rules, and lines where whitespace is content
(multi-line strings, code blocks...) are kept byte for byte. Lines pair one to
one, so joining or splitting lines is never whitespace-only: line breaks carry
meaning in Go and JavaScript.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, NamedTuple, cast

from gitreview.analyze import Side, lexical
from gitreview.classify.base import Proof
from gitreview.classify.prose_comments import about_next_line, example_output
from gitreview.model import Hunk, Line
from gitreview.patterns import lazy_compile

if TYPE_CHECKING:
    from gitreview.classify.base import FileFacts


class _Item(NamedTuple):
    key: str
    line: Line


def whitespace_only(facts: FileFacts, hunk: Hunk) -> Proof | None:
    policy = lexical.policy(facts.kind)
    if policy is None or _visible(hunk.removed) != _visible(hunk.added):
        return None
    if example_output(facts, hunk):
        return None  # `go test` compares an example's output with its comment, space for space
    if any(_RARE_SPACE.search(line.text) for line in hunk.lines if line.origin != " "):
        return None  # Go and Java refuse a form feed or vertical tab inside a line
    analysis = facts.analysis
    old = [line for line in hunk.lines if line.origin != "+"]
    new = [line for line in hunk.lines if line.origin != "-"]
    old_items, old_blanks = _items(facts.kind, policy, old, analysis.literal_lines("old"), "old")
    new_items, new_blanks = _items(facts.kind, policy, new, analysis.literal_lines("new"), "new")
    if [item.key for item in old_items] != [item.key for item in new_items]:
        return None
    reasons: list[str] = []
    if old_blanks or new_blanks:
        if counts_lines(facts):
            return None  # `__LINE__` below now says another line
        reasons.append("blank-lines")
    endings = spacing = False
    for before, after in zip(old_items, new_items, strict=False):
        if before.line.text == after.line.text and before.line.newline == after.line.newline:
            continue
        if _strip_cr(before.line.text) == _strip_cr(after.line.text):
            endings = True
        else:
            spacing = True
            if _in_macro_arguments(facts, before.line.text, after.line):
                return None  # a macro may stringize it, defined anywhere (`assert(a>0)`)
    if spacing:
        if _stringizes(facts):
            return None  # `#x` and stringify! turn the spacing of their argument into text
        if _either_side_holds(facts, _READS_COLUMNS):
            return None  # `column!()` on a line re-indented says another column
        reasons.append("whitespace")
    if endings:
        reasons.append("line-endings")
    if not reasons:
        return None
    return Proof(
        tuple(reasons),
        f"both sides are the same line for line once whitespace is compared by the rules of "
        f"{facts.kind} ({policy.describe()}); lines where whitespace is content "
        "(strings, code blocks) were compared exactly",
    )


# A form feed or vertical tab: whitespace to some languages, a character no
# other accepts there (Go: "invalid character U+000C"; found by an adversarial review).
_RARE_SPACE = lazy_compile(r"[\f\v]")
# A comment on one line, where a space may stand (`#/** doc **/define`).
_C_COMMENT = r"/\*(?:[^*\n]|\*+[^*/\n])*\*+/"
# A line continued (`\` at its end) is one line to the preprocessor: a macro's body
# goes on below its name, and its name may come below `#define \` (found by an
# adversarial review).
_CONTINUED = r"\\[ \t]*\r?\n"  # gcc joins a `\` with spaces after it too
# C and C++ macros that stringize their argument (`#x`), Rust's stringify!.
# (`%:` is the digraph of `#`.)
_STRINGIZE = lazy_compile(
    rf"(?:#|%:)(?:[ \t]|{_C_COMMENT}|{_CONTINUED})*define(?:[^\n]|{_CONTINUED})*?"
    rf"(?:(?:[^#\n%]|{_CONTINUED})#|(?:[^%\n]|{_CONTINUED})%:)[ \t]*[A-Za-z_(]"
    r"|\bstringify!"
)


# A call of what is conventionally a macro: an all-capitals name, C's assert, or any
# Rust macro. Its arguments' spacing may become text (`#x`, stringify!) where it is
# defined, in a header no hunk shows.
# Between the name and its bracket: spaces, line breaks, comments (`SHOW /**/ (a+b)`).
# (A comment never holds `*/`: a lazy `.*?` could end at any later one, and try each.)
_GAP = r"(?:\s|/\*(?:[^*]|\*(?!/))*\*/)*"
_C_MACRO_CALL = lazy_compile(rf"\b(?:[A-Z][A-Z0-9_]*|_[A-Z0-9_]+|assert){_GAP}\(", re.DOTALL)
_MACRO_CALL = {
    "c": _C_MACRO_CALL,
    "cpp": _C_MACRO_CALL,
    "rust": lazy_compile(r"\b[A-Za-z_]\w*\s*!\s*[(\[{]"),
    # C#'s checks take their argument's text by [CallerArgumentExpression] (.NET's
    # Debug.Assert, ArgumentNullException.ThrowIfNull, guard libraries): found by an
    # adversarial review.
    "csharp": lazy_compile(
        r"\b\w*(?:[Aa]ssert|That|ThrowIf|Guard|Ensure|Require|Check|Verify|Expect)\w*\s*\("
    ),
}
_ANY_CALL = lazy_compile(r"\b[A-Za-z_]\w*\s*\(")
# Any other C or C++ call, by its name: a macro where the project's headers or the
# file itself define one (`#define show(x) puts(#x)`), or where it is named as the
# checks of test and assertion libraries are, defined outside the project (GLib's
# `g_assert`, `g_return_if_fail`; Check's `ck_assert_int_eq`; cmocka's `assert_true`).
_C_CALL = lazy_compile(rf"\b([A-Za-z_]\w*){_GAP}\(", re.DOTALL)
_C_CHECK = lazy_compile(r"(?i)assert|expect|check|verify|require|ensure|return_(?:val_)?if|warn_if")
_C_DEFINED = lazy_compile(
    rf"^[ \t]*(?:#|%:)(?:[ \t]|{_C_COMMENT}|{_CONTINUED})*define"
    rf"(?:[ \t]|{_C_COMMENT}|{_CONTINUED})+(\w+)",
    re.MULTILINE,
)
_NOT_CALLS = frozenset(
    {
        *("if", "while", "for", "switch", "return", "sizeof", "alignof", "_Alignof"),
        *("defined", "case", "do", "else", "typeof", "__typeof__", "decltype", "catch"),
        *("throw", "new", "delete", "operator", "static_assert", "_Static_assert"),
        *("__attribute__", "__declspec", "alignas", "_Alignas", "noexcept"),
    }
)
# Lines above a changed one where a macro call it may continue is looked for.
_MACRO_LOOKBACK = 30


def _in_macro_arguments(facts: FileFacts, before: str, after: Line) -> bool:
    """Whether the spacing inside a line changed (its indentation aside) where the
    line calls a macro, or continues the arguments of one called on a line above:
    `ASSERT(a,` then `b+c);`."""
    if facts.kind not in _MACRO_CALL or before.strip() == after.text.strip():
        return False
    above = ""
    text = facts.analysis.new_text
    if text is not None and after.new_no is not None:
        if "whitespace:new-lines" not in facts.memo:  # split once per file, not per line
            facts.memo["whitespace:new-lines"] = text.split("\n")
        lines = cast("list[str]", facts.memo["whitespace:new-lines"])
        above = "\n".join(lines[max(0, after.new_no - 1 - _MACRO_LOOKBACK) : after.new_no - 1])
    # A call on the line, or whose bracket is on it (`SHOW` then `(a+b)` below), or
    # one above whose arguments are still open.
    window = f"{above}\n{after.text}"
    return any(
        end > len(above) or _still_open(window[: len(above)], end)
        for end in _macro_calls(facts, window)
    )


def _macro_calls(facts: FileFacts, text: str) -> Iterator[int]:
    """Where each call in `text` that may be a macro's opens its arguments."""
    for found in _MACRO_CALL[facts.kind].finditer(text):
        yield found.end()
    if facts.kind == "csharp":
        # A method of the file's own may take its argument's text.
        if _either_side_holds(facts, _ARGUMENT_AS_TEXT):
            yield from (found.end() for found in _ANY_CALL.finditer(text))
        return
    if facts.kind == "rust":
        return
    for found in _C_CALL.finditer(text):
        name = found.group(1)
        if name not in _NOT_CALLS and _may_be_macro(facts, name):
            yield found.end()


def _may_be_macro(facts: FileFacts, name: str) -> bool:
    if _C_CHECK.search(name) or facts.project is None:
        return True  # a patch: no header to look in
    if "whitespace:macros" not in facts.memo:
        texts = (facts.analysis.old_text or "", facts.analysis.new_text or "")
        facts.memo["whitespace:macros"] = {n for t in texts for n in _C_DEFINED.findall(t)}
    return name in cast("set[str]", facts.memo["whitespace:macros"]) or facts.project.is_macro(name)


def _still_open(text: str, start: int) -> bool:
    """Whether the bracket a call opens just before `start` is still open at the end,
    brackets in quotes aside (`SHOW2(")",` then `a+b);`); a quote not closed on its
    line may hold anything: then open."""
    depth = 1
    position = start
    while position < len(text):
        character = text[position]
        if character in "\"'" or text.startswith(("/*", "//"), position):
            skipped = _SKIPPED[text[position : position + 2] if character == "/" else character]
            close = skipped.match(text, position)
            if close is None:
                return True
            position = close.end()
            continue
        if character in "([{":
            depth += 1
        elif character in ")]}":
            depth -= 1
            if depth == 0:
                return False
        position += 1
    return True


# What may hold a bracket that is no bracket: a C string or character literal (on one
# line), a comment (`CHECK(a,   /* smile :) */` then `a+b);`).
_SKIPPED = {
    '"': lazy_compile(r'"(?:[^"\\\n]|\\.)*"'),
    "'": lazy_compile(r"'(?:[^'\\\n]|\\.)*'"),
    "/*": lazy_compile(r"/\*(?:[^*]|\*(?!/))*\*/"),
    "//": lazy_compile(r"//[^\n]*"),
}


# What turns a line's number into a value in C, C++ and Rust (found by an adversarial
# review: `printf("line %d", __LINE__)` prints 8 after a blank line above it, not 7).
_LINE_NUMBER = lazy_compile(r"__LINE__|\bline!\s*\(|source_location|^[ \t]*#[ \t]*line\b", re.M)


def counts_lines(facts: FileFacts) -> bool:
    """Whether the file reads the numbers of its own lines (`__LINE__`,
    `runtime.Caller`, `f_lineno`): a line added or removed above moves them."""
    texts = (facts.analysis.old_text or "", facts.analysis.new_text or "")
    return reads_line_numbers(facts.kind, texts)


def reads_line_numbers(kind: str, texts: Iterable[str]) -> bool:
    """Whether any of a file's texts reads the numbers of its own lines."""
    pattern = _READS_LINE_NUMBERS.get(kind)
    return pattern is not None and any(pattern.search(text) for text in texts)


def _stringizes(facts: FileFacts) -> bool:
    """Whether the file may turn spacing into text, or hide where a string is: a
    macro that stringizes (`#x`, stringify!), or a Java escape of a quote, a
    backslash or a line break, which javac reads before anything else
    (`\\u0022a  b\\u0022` is a string; found by an adversarial review)."""
    return _either_side_holds(facts, _SPACING_AS_TEXT)


def _either_side_holds(facts: FileFacts, patterns: Mapping[str, re.Pattern[str]]) -> bool:
    """Whether either side of the file holds its kind's pattern (none: no)."""
    pattern = patterns.get(facts.kind)
    if pattern is None:
        return False
    texts = (facts.analysis.old_text or "", facts.analysis.new_text or "")
    return any(pattern.search(text) for text in texts)


_ESCAPED_SYNTAX = lazy_compile(r"\\u+00(?:22|27|5[cC]|0[aAdD])")
_SPACING_AS_TEXT = {"c": _STRINGIZE, "cpp": _STRINGIZE, "rust": _STRINGIZE, "java": _ESCAPED_SYNTAX}
# Code that reads where it is, in the file itself (found by adversarial reviews): a
# blank line added above it changes what it says. Not a traceback's numbers, which
# any code prints, nor another frame's (`frame.f_lineno`, `e.getStackTrace()`,
# `err.stack`), nor a log format's (`%(lineno)d`, Go's `Lshortfile`), which number
# every file's lines alike: only code that asks where it itself is.
_READS_LINE_NUMBERS = {
    **dict.fromkeys(("c", "cpp"), lazy_compile(rf"{_LINE_NUMBER.pattern}|__builtin_LINE", re.M)),
    "rust": lazy_compile(rf"{_LINE_NUMBER.pattern}|Location::caller|track_caller", re.M),
    "go": lazy_compile(r"runtime\.Caller|^//line ", re.M),
    # Also `from inspect import stack`, a function's first line, its source's lines (a
    # review of the fix); not a stack printed, as a traceback is.
    "python": lazy_compile(
        r"currentframe|getframeinfo|inspect\.stack|extract_stack|_getframe|\bstack\(\)"
        r"|__code__\.co_firstlineno|getsourcelines"
    ),
    "java": lazy_compile(
        r"(?:Throwable|Exception)\(\)\s*\.getStackTrace|currentThread\(\)\s*\.getStackTrace"
    ),
    **dict.fromkeys(
        ("javascript", "typescript"),
        lazy_compile(r"captureStackTrace|Error\([^)]*\)\s*\.stack"),
    ),
    "csharp": lazy_compile(r"CallerLineNumber|new\s+StackFrame\b|new\s+StackTrace\b"),
}
_ARGUMENT_AS_TEXT = {"csharp": lazy_compile(r"CallerArgumentExpression")}
# ...and its column: re-indenting its line changes what it says.
_READS_COLUMNS = {
    **dict.fromkeys(("c", "cpp"), lazy_compile(r"source_location|__builtin_COLUMN")),
    "rust": lazy_compile(r"\bcolumn!\s*\(|Location::caller|track_caller"),
}


def _visible(lines: tuple[Line, ...]) -> str:
    """The non-whitespace characters of the lines: equal on both sides whenever
    the hunk is whitespace-only, so most hunks are decided here, cheaply."""
    return "".join("".join(line.text.split()) for line in lines)


def _items(
    kind: str,
    policy: lexical.WhitespacePolicy,
    lines: list[Line],
    literal: frozenset[int] | None,
    side: Side,
) -> tuple[list[_Item], int]:
    """Comparison keys of one side, and how many blank lines it adds or removes."""
    items: list[_Item] = []
    blanks = 0
    previous_blank = False
    above = ""  # the last line above that is not blank
    for index, line in enumerate(lines):
        number = line.old_no if side == "old" else line.new_no
        is_literal = literal is None or number in literal
        blank = line.text.strip(" \t\r") == "" and not is_literal
        if blank and index > 0 and lines[index - 1].text.rstrip(" \t\r").endswith("\\"):
            blank = False  # a blank line ends a backslash continuation: it matters
        if blank and _parts_from_its_comment(kind, above):
            blank = False
        if not blank:
            above = line.text
        if blank:
            blanks += line.origin != " "
            if policy.blank_lines == "any":
                continue
            if policy.blank_lines == "runs":
                if not previous_blank:
                    items.append(_Item("\0blank", line))
                previous_blank = True
                continue
        previous_blank = False
        items.append(_Item(_key(kind, policy, line, literal=is_literal), line))
    return items, blanks


def _parts_from_its_comment(kind: str, above: str) -> bool:
    """Whether a blank line after `above` parts a line from a comment about it: a
    directive for the next line, or in Go and Python any comment, which is a
    declaration's documentation (`go doc`, a `Deprecated:` notice; pydoc) only right
    above it."""
    code = above.strip()
    if kind == "go" and (code.startswith("//") or code.endswith("*/")):
        return True
    if kind == "python" and code.startswith("#"):
        return True  # `inspect.getcomments`, pydoc and Sphinx's `#:` read it only right above
    return bool(code) and about_next_line(code)


def _key(kind: str, policy: lexical.WhitespacePolicy, line: Line, *, literal: bool) -> str:
    # A context line too: git may pair a line re-indented on one side with an
    # unchanged line that reads the same on the other (`    }` closing an `if` now,
    # a `for` before: found by an adversarial review). Literal on one side and not on
    # the other, its two keys differ (exact, then normalized).
    if literal or not policy.line_endings:
        # Exact: a "\r" or a missing final newline inside a literal is content.
        return f"{line.text}\0{line.newline}"
    key = lexical.normalize_line(kind, _strip_cr(line.text), literal=False)
    return key if line.newline or policy.final_newline else f"{key}\0no final newline"


def _strip_cr(text: str) -> str:
    return text[:-1] if text.endswith("\r") else text
