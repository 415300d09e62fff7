"""Python compared statement by statement: which changed lines change meaning.

Both sides are parsed once per file (issue 11: a parse per hunk under a budget
left large files without per-hunk verdicts). The statements of the two sides are
aligned as an AST diff does: a statement no hunk touches, at the same place on
both sides (its lines map through the unchanged lines), anchors the alignment;
between two anchors, the statements of each side form a region, paired in order
when both sides have as many statements, else compared as a whole: the same AST
(positions aside, docstrings cleaned, string prefixes aside) and the same
comments in the same order. A pair of definitions of the same kind is compared
header apart and body by body, recursively, and so is a pair of `if`, `for`,
`while`, `with` or `try` statements of the same shape, clause by clause: a change
deep in a large class, or in a signature, leaves the other hunks their own verdicts.

What a formatter does within one region (a trailing comment moved to another line
of the same statement, a string's quotes changed at both ends on lines of two
hunks, a statement split where git pairs lines of different statements) compares
equal; a region whose meaning changed makes every changed line in it meaningful.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from itertools import pairwise
from typing import TYPE_CHECKING, Literal, NamedTuple, cast

from gitreview.analyze import lexical
from gitreview.analyze.lexical import TOOL_COMMENT
from gitreview.analyze.python import HEAD_TREE, bodies, unwarned
from gitreview.classify import python_names
from gitreview.classify.base import FileFacts
from gitreview.classify.prose_comments import about_next_line
from gitreview.model import Hunk
from gitreview.patterns import lazy_compile

if TYPE_CHECKING:
    import ast

Span = tuple[int, int]  # first and last line, 1-based
_LONE_CR = lazy_compile("\r(?!\n)")
_OTHER_SPACE = lazy_compile(r"[^\S \n]")  # whitespace other than a space or a line break


class Parsed(NamedTuple):
    tree: ast.Module
    comments: tuple[tuple[int, str], ...]  # (line, text normalized), in order


class Differences(NamedTuple):
    """The line spans of each side whose meaning changed."""

    old: tuple[Span, ...]
    new: tuple[Span, ...]

    def touches(self, hunk: Hunk) -> bool:
        """Whether a changed line of the hunk is in a span whose meaning changed."""
        for line in hunk.lines:
            if line.origin == "-" and line.old_no is not None and _inside(self.old, line.old_no):
                return True
            if line.origin == "+" and line.new_no is not None and _inside(self.new, line.new_no):
                return True
        return False


def _inside(spans: tuple[Span, ...], line: int) -> bool:
    """Whether the line is in one of the spans (sorted, disjoint)."""
    index = bisect.bisect_right(spans, (line, float("inf"))) - 1
    return index >= 0 and spans[index][0] <= line <= spans[index][1]


def parsed_sides(facts: FileFacts) -> tuple[Parsed, Parsed] | None:
    """Both sides of a Python file, parsed once for every rule and hunk of the file."""
    if "python:parsed" not in facts.memo:
        # The head's tree as the analysis left it, where it parsed the same text.
        head_tree = cast(
            "ast.Module | Literal[False] | None", (facts.analysis.parsed or {}).get(HEAD_TREE)
        )
        new_side = _side(facts, "new")
        new = None if new_side is None else parse(new_side, head_tree)
        # A side that does not parse leaves nothing to compare: the other is not parsed.
        old_side = None if new is None else _side(facts, "old")
        old = None if old_side is None else parse(old_side)
        facts.memo["python:parsed"] = None if old is None or new is None else (old, new)
    found = facts.memo["python:parsed"]
    return found if isinstance(found, tuple) else None


def changes_meaning(facts: FileFacts, hunk: Hunk) -> bool:
    """Whether the hunk's names and numbers tell that its statements differ
    (python_names.py), as the comparison would find. A file whose every hunk tells
    so is parsed on one side only, the head, by its analysis (issue 12). The
    other hunks are read only once the asked one's two sides hold different names
    or numbers: where they hold the same (a reformatted hunk), the comparison is
    needed anyway, and where they are even written alike, the file's code is not
    blanked to know it."""
    if "python:told" not in facts.memo:
        old, new = _side(facts, "old"), _side(facts, "new")
        if old is None or new is None or python_names.written_alike(hunk, old, new):
            return False
        own = python_names.read(hunk, old, new)
        if own is None or own.removed == own.added:
            return False
        hunks = facts.change.hunks
        read = [own if one is hunk else python_names.read(one, old, new) for one in hunks]
        every = [tokens for tokens in read if tokens is not None]
        facts.memo["python:told"] = (
            {id(one): d for one, d in zip(hunks, python_names.differing(every), strict=True)}
            if len(every) == len(hunks)
            else {}
        )
    told = cast("dict[int, bool]", facts.memo["python:told"])
    return told.get(id(hunk), False)


def _side(facts: FileFacts, which: Literal["old", "new"]) -> python_names.Side | None:
    """A side's text, lexed once for the file (None: the file has no such side)."""
    key = f"python:side:{which}"
    if key not in facts.memo:
        text = facts.analysis.old_text if which == "old" else facts.analysis.new_text
        facts.memo[key] = None if text is None else python_names.Side(text)
    return cast("python_names.Side | None", facts.memo[key])


def parse(
    side: python_names.Side, tree: ast.Module | Literal[False] | None = None
) -> Parsed | None:
    """The side's tree, normalized for comparison, and its comments; None when its
    text does not parse (or nests too deep to parse). `tree`: what `ast.parse`
    gave where the analysis asked already (False: the text does not parse)."""
    import ast

    text = side.text
    if _LONE_CR.search(text) or tree is False:
        # A lone CR: Python ends a line there, git does not, the lines would not align.
        return None
    if tree is None:
        try:
            with unwarned():
                tree = ast.parse(text)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return None
    if "with" in text:
        _with_headers(tree, text, side.starts)
    if "__doc__" in text:
        # The module reads a docstring as written (`description=__doc__` with a raw
        # formatter, `textwrap.dedent(f.__doc__)`): its docstrings are compared exactly.
        for docstring in filter(None, map(_docstring, ast.walk(tree))):
            docstring.written = True  # type: ignore[attr-defined]
    _clean_docstring_of(tree)
    # Normalized where compared (_same): most statements of a large file never are.
    starts, found = side.starts, side.scan
    comments: list[tuple[int, str]] = []
    # Comments tools read: their index, line, start, and whether they are about the
    # next line.
    tools: list[tuple[int, int, int, bool]] = []
    for start, end in found.comments:
        line = bisect.bisect_right(starts, start)
        comment = _comment_key(text[start:end])
        next_line = about_next_line(comment)
        if next_line or TOOL_COMMENT.search(comment):
            tools.append((len(comments), line, start, next_line))
            comment = text[start:end].rstrip(" \t\f")  # as written, spaces and all
        if line < len(starts) - 1 and not text[starts[line - 1] : start].strip():
            # A comment of its own right above a statement documents it (pydoc's
            # `inspect.getcomments`, Sphinx's `#:`): a blank line in between parts them.
            comment += "\0" + str(not text[starts[line] : starts[line + 1]].strip())
        comments.append((line, comment))
    if tools:
        first_lines, holders = _simple_statements(tree, {line for _, line, _, _ in tools})
        for index, line, start, next_line in tools:
            comment = comments[index][1]
            # Else the code before it in its statement: two lines of a call may read
            # the same (`a,`), and a directive for the next line names what follows.
            holder = starts[holders.get(line, line) - 1]
            where = first_lines.get(line, "".join(text[holder:start].split()))
            comment += "\0" + where
            if next_line and line < len(starts) - 1:
                # It covers the line after it: a blank line put in between uncovers it.
                comment += "\0" + str(not text[starts[line] : starts[line + 1]].strip())
            comments[index] = (line, comment)
    # PEP 723's script metadata is read by a pattern: a blank line or a space more in
    # it and `uv run` reads none. Its blocks are compared as written, among comments.
    for line, block in lexical.script_metadata(text):
        comments.append((line, "\0" + block))
    comments.sort(key=lambda item: item[0])
    return Parsed(tree, tuple(comments))


def _simple_statements(tree: ast.Module, lines: set[int]) -> tuple[dict[int, str], dict[int, int]]:
    """The simple statements (no body) that start on `lines`, by line, as compared
    (positions aside). A comment tools read (`# type: ignore`, `# noqa`, `# nosec`)
    applies to the line it is on: on another line of its statement, or beside
    another statement, it suppresses something else. On a statement's first line
    it stays where formatters keep it as they split the statement; anywhere else
    the code before it on its line, spacing aside, tells where it is. Found by
    going down only into the statements that hold one of `lines`: a large file's
    tree is not walked whole for a few `# noqa`. Also, for each of `lines` inside a
    statement (a compound one's header), the line where the innermost such starts."""
    import ast

    found: dict[int, str] = {}
    holders: dict[int, int] = {}
    wanted = sorted(lines)
    pending: list[Sequence[ast.stmt]] = [tree.body]
    while pending:
        body = pending.pop()
        firsts = [statement.lineno for statement in body]
        holding = {bisect.bisect_right(firsts, line) - 1 for line in wanted}
        for statement in (body[index] for index in sorted(holding) if index >= 0):
            first, last = statement.lineno, statement.end_lineno or statement.lineno
            inner = [sub for _, sub in bodies(statement)] if hasattr(statement, "body") else []
            header_end = min((sub[0].lineno - 1 for sub in inner if sub), default=last)
            for line in wanted:
                if first <= line <= header_end:
                    holders[line] = first  # deeper statements come later and win
            if inner:
                pending += inner
            elif statement.lineno in lines:
                # Over as many lines: split, the statement's other lines are no longer
                # the comment's (mypy reports `compute(` then `"bad"` on the next line).
                lines_over = (statement.end_lineno or statement.lineno) - statement.lineno + 1
                found.setdefault(
                    statement.lineno, f"first line of {lines_over}: " + ast.dump(statement)
                )
    return found, holders


_SPACES = lazy_compile(r"[ \t\f]+")


def _comment_key(comment: str) -> str:
    """A comment as compared: runs of whitespace inside it are one space, but its
    marker is kept as written (`## type: ignore` is no type comment, `# : x` no
    Sphinx `#:` documentation)."""
    words = comment.lstrip("#")
    marker = comment[: len(comment) - len(words)] + (" " if words[:1] in (" ", "\t", "\f") else "")
    return marker + " ".join(_SPACES.split(words.strip(" \t\f")))  # not a no-break space


def clean_docstring(text: str) -> str:
    """What formatters change in a docstring: its indentation, the whitespace at
    the ends of lines and of the whole. The words and line breaks stay; so do
    trailing spaces in a docstring with doctests, whose expected output they are."""
    import inspect  # 5 ms of start-up: only once a docstring is compared
    import textwrap

    if _OTHER_SPACE.search(text):
        # cleandoc expands every tab, not only those that indent, and strips any
        # whitespace (a no-break space) at the ends: only spaces are indentation.
        return text
    if ">>>" in text:
        # doctest measures an example's indentation on every line, the first
        # included (`""">>> f(2)` then an indented `4` expects the spaces too).
        return textwrap.dedent(text).strip("\n")
    cleaned = inspect.cleandoc(text)
    # Two trailing spaces or more are a Markdown line break where a docstring is
    # rendered (found by an adversarial review): they stay, as two.
    return "\n".join(_line_end(line) for line in cleaned.split("\n")).strip()


def _line_end(line: str) -> str:
    stripped = line.rstrip()
    return stripped + "  " if line.endswith("  ") and stripped else stripped


def differences(
    old: Parsed, new: Parsed, hunks: Sequence[Hunk], old_lines: int, new_lines: int
) -> Differences | None:
    """Where the two sides differ in meaning; None when a tree is too deep to compare."""
    diff = _Diff(old, new, hunks)
    try:
        diff.bodies(old.tree.body, new.tree.body, (1, old_lines), (1, new_lines))
    except RecursionError:
        return None
    if diff.shifted:
        # Statements changed body without a line of theirs changing: no span of
        # theirs holds the line that moved them, so none can be vouched for.
        return Differences(((1, old_lines),), ((1, new_lines),))
    return Differences(tuple(sorted(diff.old_spans)), tuple(sorted(diff.new_spans)))


class _Diff:
    def __init__(self, old: Parsed, new: Parsed, hunks: Sequence[Hunk]) -> None:
        self.old, self.new = old, new
        lines = [line for hunk in hunks for line in hunk.lines]
        self.removed = sorted(ln.old_no for ln in lines if ln.old_no and ln.origin == "-")
        self.added = sorted(ln.new_no for ln in lines if ln.new_no and ln.origin == "+")
        self.old_to_new: dict[int, int] = {}  # unchanged lines inside hunks
        self.ends: list[int] = []  # the first old line after each hunk
        self.shifts: list[int] = []  # how far the old lines from there moved
        for hunk in hunks:
            for line in hunk.lines:
                if line.origin == " " and line.old_no is not None and line.new_no is not None:
                    self.old_to_new[line.old_no] = line.new_no
            end = hunk.old_start + hunk.old_count if hunk.old_count else hunk.old_start + 1
            shift = (hunk.new_start + hunk.new_count) - end
            if not hunk.new_count:
                shift += 1  # an empty new side starts at the line before
            self.ends.append(end)
            self.shifts.append(shift)
        self.old_spans: list[Span] = []
        self.new_spans: list[Span] = []
        # Whether unchanged lines went to another body: the line starting the next
        # definition or clause moved past them (`_shifted`).
        self.shifted = False

    def map(self, line: int) -> int | None:
        """The new line an unchanged old line became."""
        if _any_in(self.removed, (line, line)):
            return None
        if line in self.old_to_new:
            return self.old_to_new[line]
        index = bisect.bisect_right(self.ends, line) - 1
        return line + (self.shifts[index] if index >= 0 else 0)

    def bodies(
        self, old: Sequence[ast.stmt], new: Sequence[ast.stmt], old_span: Span, new_span: Span
    ) -> None:
        by_first = {_span(statement)[0]: statement for statement in new}
        anchors: list[tuple[int, int]] = []  # indexes of paired unchanged statements
        position = {id(statement): index for index, statement in enumerate(new)}
        for index, statement in enumerate(old):
            first, last = _span(statement)
            if _any_in(self.removed, (first, last)):
                continue
            target = self.map(first)
            partner = by_first.get(target) if target is not None else None
            if partner is None or _span(partner)[1] != self.map(last):
                continue
            if _any_in(self.added, _span(partner)):
                continue
            if anchors and position[id(partner)] <= anchors[-1][1]:
                continue
            anchors.append((index, position[id(partner)]))
        previous_old, previous_new = -1, -1
        for old_index, new_index in [*anchors, (len(old), len(new))]:
            olds, news = old[previous_old + 1 : old_index], new[previous_new + 1 : new_index]
            region_old = (
                _span(old[previous_old])[1] + 1 if previous_old >= 0 else old_span[0],
                _span(old[old_index])[0] - 1 if old_index < len(old) else old_span[1],
            )
            region_new = (
                _span(new[previous_new])[1] + 1 if previous_new >= 0 else new_span[0],
                _span(new[new_index])[0] - 1 if new_index < len(new) else new_span[1],
            )
            self.region(olds, news, region_old, region_new)
            previous_old, previous_new = old_index, new_index

    def region(
        self, old: Sequence[ast.stmt], new: Sequence[ast.stmt], old_span: Span, new_span: Span
    ) -> None:
        """Statements between two anchors: paired in order when both sides have as
        many (each pair with the lines before it), else compared as a whole."""
        if not self._changed(old_span, new_span):
            return
        if len(old) != len(new) or not old or _share_lines(old) or _share_lines(new):
            # Statements on one line (`a = 1; b = a + 2`) have no lines of their own.
            self.pair(old, new, old_span, new_span)
            return
        old_first, new_first = old_span[0], new_span[0]
        for index, (one, two) in enumerate(zip(old, new, strict=True)):
            last = index == len(old) - 1
            old_last = old_span[1] if last else _span(one)[1]
            new_last = new_span[1] if last else _span(two)[1]
            self.pair([one], [two], (old_first, old_last), (new_first, new_last))
            old_first, new_first = old_last + 1, new_last + 1

    def pair(
        self, old: Sequence[ast.stmt], new: Sequence[ast.stmt], old_span: Span, new_span: Span
    ) -> None:
        if not self._changed(old_span, new_span):
            return
        if len(old) == 1 and len(new) == 1 and _definitions(old[0], new[0]):
            # Header and body apart: a changed signature leaves the body's hunks
            # their own verdicts, and the other way round.
            old_header, new_header = _header_end(old[0]), _header_end(new[0])
            before_old = (old_span[0], old_header)
            before_new = (new_span[0], new_header)
            if not _same_header(old[0], new[0]):
                # Up to the body: a header's lines without a node of their own (a
                # `/,` or `*,` marker, the closing `):`) are its too.
                self._differ(*_to_body(old[0], before_old, new[0], before_new))
            elif not self._same_comments(before_old, before_new):
                self._differ(before_old, before_new)
            for definition in (old[0], new[0]):
                _clean_docstring_of(definition)  # type: ignore[arg-type]
            inner_old = (old_header + 1, old_span[1])
            inner_new = (new_header + 1, new_span[1])
            self.bodies(old[0].body, new[0].body, inner_old, inner_new)  # type: ignore[attr-defined]
            return
        if len(old) == 1 and len(new) == 1 and _compounds(old[0], new[0]):
            self.compound(old[0], new[0], old_span, new_span)
            return
        same = len(old) == len(new) and all(map(_same, old, new))
        if not same or not self._same_comments(old_span, new_span):
            self._differ(old_span, new_span)

    def compound(self, old: ast.stmt, new: ast.stmt, old_span: Span, new_span: Span) -> None:
        """An `if`, `for`, `while`, `with` or `try` on both sides, the same shape: its
        header (the test, the target, the handlers' types...) apart, each clause's
        statements on their own. A change on a line between clauses (`else:`, a
        comment before `except`) makes the whole statement differ."""
        old_clauses, new_clauses = _clauses(old), _clauses(new)
        old_header = (old_span[0], _header_end(old))
        new_header = (new_span[0], _header_end(new))
        old_glue = _glue(old_span, old_header, [_list_span(c) for c in old_clauses])
        new_glue = _glue(new_span, new_header, [_list_span(c) for c in new_clauses])
        if any(_any_in(self.removed, span) for span in old_glue) or any(
            _any_in(self.added, span) for span in new_glue
        ):
            self._differ(old_span, new_span)
            return
        if not _same_shell(old, new):
            self._differ(*_to_body(old, old_header, new, new_header))
        elif not self._same_comments(old_header, new_header):
            self._differ(old_header, new_header)
        for one, two in zip(old_clauses, new_clauses, strict=True):
            self.bodies(one, two, _list_span(one), _list_span(two))

    def _changed(self, old_span: Span, new_span: Span) -> bool:
        if _any_in(self.removed, old_span) or _any_in(self.added, new_span):
            return True
        if self._shifted(old_span, new_span):
            self.shifted = True
            return True
        return False

    def _shifted(self, old_span: Span, new_span: Span) -> bool:
        """Whether two spans without a changed line are not each other's lines: the
        lines a body holds are the same on both sides only where its spans map onto
        each other. `def second():` moved down past three statements leaves them
        unchanged, in the body of the definition before."""
        old_empty, new_empty = old_span[0] > old_span[1], new_span[0] > new_span[1]
        if old_empty or new_empty:
            return old_empty != new_empty
        return self.map(old_span[0]) != new_span[0] or self.map(old_span[1]) != new_span[1]

    def _same_comments(self, old_span: Span, new_span: Span) -> bool:
        return _comments_in(self.old.comments, old_span) == _comments_in(
            self.new.comments, new_span
        )

    def _differ(self, old_span: Span, new_span: Span) -> None:
        # Either may be empty (first > last): a region only the other side has.
        if old_span[0] <= old_span[1]:
            self.old_spans.append(old_span)
        if new_span[0] <= new_span[1]:
            self.new_spans.append(new_span)


def _definitions(old: ast.stmt, new: ast.stmt) -> bool:
    """Two definitions of the same kind, each body on lines of its own."""
    import ast

    kinds = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
    if not isinstance(old, kinds) or type(old) is not type(new):
        return False
    assert isinstance(new, kinds)
    return old.body[0].lineno > _header_end(old) and new.body[0].lineno > _header_end(new)


def _clauses(statement: ast.stmt) -> list[list[ast.stmt]]:
    """The statement lists of a compound statement, in order: body, handlers' bodies,
    else, finally."""
    lists = [statement.body]  # type: ignore[attr-defined]
    lists += [handler.body for handler in getattr(statement, "handlers", ())]
    lists += [getattr(statement, name, []) for name in ("orelse", "finalbody")]
    return [statements for statements in lists if statements]


def _compounds(old: ast.stmt, new: ast.stmt) -> bool:
    """Two compound statements of the same kind and shape, each clause on lines of
    its own."""
    import ast

    kinds = ast.If | ast.For | ast.AsyncFor | ast.While | ast.With | ast.AsyncWith | ast.Try
    if not isinstance(old, kinds) or type(old) is not type(new):
        return False
    shape = [
        [len(getattr(node, "handlers", ()))]
        + [bool(getattr(node, name, ())) for name in ("orelse", "finalbody")]
        for node in (old, new)
    ]
    if shape[0] != shape[1]:
        return False
    if any(
        handler.body[0].lineno <= _handler_end(handler)
        for node in (old, new)
        for handler in getattr(node, "handlers", ())
    ):
        return False  # `except (A, B): pass`: its types share a line with its body
    return all(
        clause[0].lineno > _header_end(node) for node in (old, new) for clause in _clauses(node)
    )


def _handler_end(handler: ast.excepthandler) -> int:
    """The last line of an `except` clause's types and name."""
    kind = getattr(handler, "type", None)
    return handler.lineno if kind is None else max(handler.lineno, kind.end_lineno or 0)


def _list_span(statements: list[ast.stmt]) -> Span:
    return _span(statements[0])[0], _span(statements[-1])[1]


def _glue(whole: Span, header: Span, clauses: list[Span]) -> list[Span]:
    """The lines of a compound statement outside its header and its clauses' statements."""
    glue, position = [], header[1] + 1
    for first, last in clauses:
        if first > position:
            glue.append((position, first - 1))
        position = last + 1
    if position <= whole[1]:
        glue.append((position, whole[1]))
    return glue


def _same_shell(old: ast.stmt, new: ast.stmt) -> bool:
    """The same compound statement but for its clauses' statements."""
    import ast

    lists: list[tuple[ast.AST, str, list[ast.stmt]]] = []
    for node in (old, new):
        owners: list[ast.AST] = [node, *getattr(node, "handlers", ())]
        for owner in owners:
            for name in ("body", "orelse", "finalbody"):
                value = getattr(owner, name, None)
                if isinstance(value, list) and (not value or isinstance(value[0], ast.stmt)):
                    lists.append((owner, name, value))
                    setattr(owner, name, [])
    try:
        return _same(old, new)
    finally:
        for owner, name, value in lists:
            setattr(owner, name, value)


def _same_header(old: ast.stmt, new: ast.stmt) -> bool:
    """The same definition but for the body: name, decorators, arguments, bases."""
    old_body, new_body = old.body, new.body  # type: ignore[attr-defined]
    try:
        old.body, new.body = [], []  # type: ignore[attr-defined]
        return _same(old, new)
    finally:
        old.body, new.body = old_body, new_body  # type: ignore[attr-defined]


def _share_lines(statements: Sequence[ast.stmt]) -> bool:
    """Whether a statement starts on the line where the one before it ends."""
    return any(_span(later)[0] <= _span(earlier)[1] for earlier, later in pairwise(statements))


def _to_body(old: ast.stmt, old_header: Span, new: ast.stmt, new_header: Span) -> tuple[Span, Span]:
    """The headers' spans through to the line before their bodies' first statement."""

    def through(statement: ast.stmt, header: Span) -> Span:
        body = statement.body  # type: ignore[attr-defined]
        return header[0], max(header[1], _span(body[0])[0] - 1)

    return through(old, old_header), through(new, new_header)


def _any_in(lines: list[int], span: Span) -> bool:
    """Whether a sorted list of lines has one in the span."""
    index = bisect.bisect_left(lines, span[0])
    return index < len(lines) and lines[index] <= span[1]


def _span(statement: ast.stmt) -> Span:
    decorators = getattr(statement, "decorator_list", [])
    first = min([statement.lineno, *(d.lineno for d in decorators)])
    return first, statement.end_lineno or statement.lineno


def _header_end(statement: ast.stmt) -> int:
    """The last line of a compound statement's header (a definition's decorators,
    signature and bases; an `if`'s test...): its body starts after it. A node
    without a position of its own (a signature's `arguments`, a `with` item) ends
    where the last of its parts does: a parameter on a line of its own is header."""
    import ast

    last = statement.lineno
    parts = [
        node
        for node in ast.iter_child_nodes(statement)
        if not isinstance(node, ast.stmt | ast.excepthandler | ast.match_case)
    ]
    while parts:
        node = parts.pop()
        end = getattr(node, "end_lineno", None)
        if end is None:
            parts += ast.iter_child_nodes(node)
        else:
            last = max(last, end)
    return last


def _same(old: object, new: object) -> bool:
    """The same tree, positions aside, as formatters leave it: string prefixes aside
    (u"x" is "x"), docstrings cleaned of their indentation. Values compare type for
    type and floats by their spelling (-0.0 is not 0.0). Iterative: no recursion limit,
    and no dump of a large statement to build."""
    import ast

    pairs: list[tuple[object, object]] = [(old, new)]
    while pairs:
        one, two = pairs.pop()
        if type(one) is not type(two):
            return False
        if isinstance(one, ast.AST):
            if isinstance(one, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                _clean_docstring_of(one)
                _clean_docstring_of(two)  # type: ignore[arg-type]
            elif isinstance(one, ast.With | ast.AsyncWith) and _brackets_differ(one, two):
                return False
            pairs += [
                (getattr(one, name, None), getattr(two, name, None))
                for name in one._fields
                if name != "kind"  # a Constant's `u` prefix
            ]
        elif isinstance(one, list):
            assert isinstance(two, list)
            if len(one) != len(two):
                return False
            pairs += zip(one, two, strict=True)
        elif isinstance(one, float | complex):
            if repr(one) != repr(two):
                return False
        elif one != two:
            return False
    return True


def _clean_docstring_of(
    node: ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef,
) -> None:
    docstring = _docstring(node)
    if docstring is not None and not getattr(docstring, "written", False):
        docstring.value = clean_docstring(str(docstring.value))


def _brackets_differ(one: ast.With | ast.AsyncWith, two: object) -> bool:
    """Whether two `with` statements of several context managers are written with
    brackets on one side only: before Python 3.9, `with (a, b):` holds one tuple (found
    by adversarial reviews; a backslash or `(a), b` is no such bracket)."""
    return getattr(one, "written", None) != getattr(two, "written", None)


def _with_headers(tree: ast.Module, text: str, starts: Sequence[int]) -> None:
    """Each `with` of several context managers keeps its header as written, spacing
    aside, from `with` to its body (`_brackets_differ`)."""
    import ast

    for node in ast.walk(tree):
        if isinstance(node, ast.With | ast.AsyncWith) and len(node.items) > 1:
            body = node.body[0]
            first = starts[node.lineno - 1] + node.col_offset
            header = text[first : starts[body.lineno - 1] + body.col_offset]
            node.written = _NOT_WRITTEN.sub("", header)  # type: ignore[union-attr]


# What a header's layout may change without changing what it says: spacing, a
# backslash that continues the line.
_NOT_WRITTEN = lazy_compile(r"[\s\\]+")


def _docstring(node: ast.AST) -> ast.Constant | None:
    """The string a module, class or function starts with, if it does."""
    import ast

    if not isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
        return None
    first = node.body[0] if node.body else None
    if (
        isinstance(first, ast.Expr)
        and isinstance(first.value, ast.Constant)
        and isinstance(first.value.value, str)
    ):
        return first.value
    return None


def _comments_in(comments: tuple[tuple[int, str], ...], span: Span) -> list[str]:
    lines = [line for line, _ in comments]
    start = bisect.bisect_left(lines, span[0])
    end = bisect.bisect_right(lines, span[1])
    return [text for _, text in comments[start:end]]
