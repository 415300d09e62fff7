"""The units whose order cannot change behaviour: top-level definitions, sections.

A moved block is trivial only when it is made of such units, whole, on both
sides (issue 11): a Python function or class at the top of its module, a
Markdown section with its subsections. Statements inside a body, module-level
assignments, YAML keys, Makefile rules... keep their order's meaning.

For Python the outline also says what each definition needs from its module
(the names it reads at import time, from decorators, defaults, bases and class
bodies, and the names its functions read when called), and what the module binds
and reads, so that a move is trivial only where every name still resolves.
Only files whose changed lines could start such a unit get an outline, and their
texts are read and outlined only when a moved block needs them.
"""

from __future__ import annotations

import builtins
import functools
import re
import sys
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, NamedTuple

from gitreview.model import FileChange, Hunk, origins_of, texts_of
from gitreview.patterns import lazy_compile

if TYPE_CHECKING:
    import ast
    import symtable

# A changed line that can start a unit: without one, no hunk of the file moved a unit.
_STARTS = {
    "python": lazy_compile(r"(?:async[ \t]+def|def|class)[ \t]|@"),
    "markdown": lazy_compile(r"#{1,6}(?:[ \t]|$)|(?:=+|-+)[ \t]*$"),
}
# Names a module has without binding them.
MODULE_NAMES = frozenset(dir(builtins)) | {"__file__", "__builtins__", "__path__", "__cached__"}
# Decorators that wrap or describe a definition and record it nowhere, by the name
# their module gives them: the order of the definitions they decorate is no meaning.
# Any other decorator runs when the definition is made and may record it in a list
# (Flask's before_request, a signal's receivers, atexit), whose order is meaning.
_RECORDING_NOTHING = frozenset(
    {
        *("builtins.staticmethod", "builtins.classmethod", "builtins.property"),
        *("functools.cache", "functools.lru_cache", "functools.cached_property"),
        *("functools.total_ordering", "functools.singledispatch", "functools.wraps"),
        *("contextlib.contextmanager", "contextlib.asynccontextmanager"),
        *("dataclasses.dataclass", "abc.abstractmethod", "enum.unique"),
        *("typing.final", "typing.no_type_check", "typing.runtime_checkable"),
        *("typing_extensions.final", "typing_extensions.runtime_checkable"),
        *("attr.s", "attr.define", "attr.frozen", "attrs.define", "attrs.frozen"),
        "pytest.fixture",  # an autouse fixture is set up in the order of definition
    }
)
# Calls that make a value and do nothing else, as a definition's defaults, bases or
# class body make them: any other call may have an effect, in the order of definition.
_CALLS_WITHOUT_EFFECTS = frozenset(
    {
        *(f"builtins.{name}" for name in ("int", "float", "str", "bytes", "bool", "complex")),
        *(f"builtins.{name}" for name in ("tuple", "list", "dict", "set", "frozenset")),
        *(f"builtins.{name}" for name in ("object", "len", "range", "sorted", "min", "max")),
        *(f"builtins.{name}" for name in ("staticmethod", "classmethod", "property")),
        *("dataclasses.field", "enum.auto", "typing.TypeVar", "typing.cast", "typing.NewType"),
        *("re.compile", "functools.partial", "collections.namedtuple"),
    }
)
# Base classes known to record nothing of their subclasses (builtins too: `Exception`):
# any other base may, by its `__init_subclass__` or its metaclass (Django's models,
# SQLAlchemy's declarative classes, plugin registries), in the order they are made.
_BASES_RECORDING_NOTHING = frozenset(
    {
        *("abc.ABC", "enum.Enum", "enum.IntEnum", "enum.StrEnum", "enum.Flag", "enum.IntFlag"),
        *("typing.NamedTuple", "typing.TypedDict", "typing.Protocol", "typing.Generic"),
        *("typing_extensions.TypedDict", "typing_extensions.Protocol"),
    }
)


class Unit(NamedTuple):
    first: int
    last: int  # its last line that is not blank
    movable: bool  # a definition or a section; False: any other statement, the preamble
    name: str = ""
    needs: frozenset[str] = frozenset()  # module names it reads when called (Python)
    needs_first: frozenset[str] = frozenset()  # module names it reads at import time
    # Markdown: the headings above it (level, text): the section documents part of them.
    parents: tuple[tuple[int, str], ...] = ()
    # Python: what runs when it is defined and may record it somewhere (a decorator,
    # a metaclass), as written: in a list of request hooks, receivers or exit
    # handlers, its place among the others is meaning. "" when nothing does.
    recorded_by: str = ""


class Module(NamedTuple):
    """What a Python module binds and reads at its top level."""

    bound: dict[str, list[int]]  # name -> lines bound
    read_early: dict[str, list[int]]  # read at import time
    read: frozenset[str] = frozenset()  # read anywhere
    star: bool = False  # a star import: any name may be bound
    # What runs code of the module's own at import time: calls, decorators and bases
    # whose name a top-level def or class binds, by line.
    calls: tuple[int, ...] = ()
    # The first way the module reads definitions in their order, as written
    # (`globals()`, `__subclasses__`...); "" when it has none.
    introspects: str = ""
    # The line its first statement starts on (0: none), and whether the module has a
    # `#!` line or a string of its own at its top level (its docstring, or one that
    # may become it): a definition moved there or from there decides which string is
    # the docstring, and whether the `#!` line is first.
    head: int = 0
    marked: bool = False
    # Lines whose place among the definitions is meaning, by line: comments of their
    # own that tools read by position (`# pylint: disable=all` covers the definitions
    # below it, a coding line must be first), and imports that may run the project's
    # code, which may import this module back and find only the definitions above
    # (Flask's views imported at the bottom of a package). A definition moved across
    # one goes in or out of its reach.
    markers: tuple[tuple[int, str], ...] = ()
    # The comment lines right above each definition (no blank line between), which
    # document it (`inspect.getcomments`, pydoc, Sphinx's `#:`).
    comments: tuple[tuple[str, tuple[str, ...]], ...] = ()
    # Lines inside a string (after the line it opens on): a blank line there is the
    # string's, not spacing between statements.
    literal: frozenset[int] = frozenset()


class Side(NamedTuple):
    units: tuple[Unit, ...]  # in order of first line; sections nest
    module: Module | None = None  # Python only
    # Markdown: a line opens or closes raw HTML (`<details>`, `</div>`), which may hold
    # sections: one moved may go into or out of an element.
    raw_html: bool = False
    # The file's text: in Markdown, for what blank lines beside a moved section do
    # (moves.py: a blank line may part a paragraph, or make a rule a heading's
    # underline); in Python, whether it reads its own line numbers.
    text: str = ""


class Outline:
    """The two sides of a file, read and outlined when a moved block first needs
    them: most files whose changed lines could start a unit have no moved block at
    all, and a range of thousands must not hold their texts meanwhile (issue 12).
    `old` and `new` give a side's text (None: the file has no such side)."""

    def __init__(
        self, kind: str, old: Callable[[], str | None], new: Callable[[], str | None]
    ) -> None:
        self._read = _python if kind == "python" else _markdown
        self._texts = {"old": old, "new": new}

    @functools.cached_property
    def old(self) -> Side | None:
        return self._side("old")

    @functools.cached_property
    def new(self) -> Side | None:
        return self._side("new")

    def _side(self, name: str) -> Side | None:
        text = self._texts.pop(name)()
        return None if text is None else self._read(text)


def can_start_unit(change: FileChange, kind: str) -> bool:
    """Whether a changed line of the file can start a unit: else none of its hunks
    moved one, and it needs no outline."""
    starts = _STARTS.get(kind)
    return starts is not None and any(_starts_unit(starts, hunk) for hunk in change.hunks)


def _starts_unit(starts: re.Pattern[str], hunk: Hunk) -> bool:
    lines = hunk.lines
    return any(
        origin != " " and starts.match(text)
        for origin, text in zip(origins_of(lines), texts_of(lines), strict=True)
    )


def whole_units(side: Side, first: int, last: int, texts: list[str]) -> list[Unit] | None:
    """The movable units that lines first..last hold whole, when every line that is
    not blank (nor a Python comment between statements) is in one of them."""
    inside = [u for u in side.units if u.first >= first and u.last <= last and u.movable]
    if not inside:
        return None
    for number, text in zip(range(first, last + 1), texts, strict=True):
        if not text.strip():
            continue
        if any(u.first <= number <= u.last for u in inside):
            continue
        if any(u.first <= number <= u.last for u in side.units):
            return None  # part of a statement or section that did not move whole
    return inside


# -- Python -------------------------------------------------------------------


def _python(text: str) -> Side | None:
    import ast
    import symtable

    from gitreview.analyze.python import unwarned

    if re.search("\r(?!\n)", text):
        return None  # Python ends a line at a lone CR, git does not: lines would not align
    try:
        with unwarned():
            tree = ast.parse(text)
            table = symtable.symtable(text, "<moved>", "exec")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    tables: dict[tuple[str, int], symtable.SymbolTable] = {
        (child.get_name(), child.get_lineno()): child for child in table.get_children()
    }
    units: list[tuple[Unit, ast.stmt]] = []
    bound: dict[str, list[int]] = {}
    read_early: dict[str, list[int]] = {}
    definitions = {
        statement.name
        for statement in tree.body
        if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
    }
    calls: list[int] = []
    imported: dict[str, str] = {}  # name -> the module, or module.name, it was imported as
    for node in ast.walk(tree):
        # A function that rebinds a module name (`global helper`) binds it once more,
        # when it is called: which binding is last then depends on the order.
        if isinstance(node, ast.Global):
            for name in node.names:
                bound.setdefault(name, []).append(node.lineno)
    for statement in tree.body:
        imported |= _imported(statement)
        first = min([statement.lineno, *_decorator_lines(statement)])
        last = statement.end_lineno or statement.lineno
        for name in _bindings(statement):
            bound.setdefault(name, []).append(first)
        for name in _changes(statement):
            # A value changed in place is bound anew for what reads it at import time:
            # `def connect(options={**DEFAULTS})` above `DEFAULTS["retries"] = 3`
            # copies another dict below it (found by an adversarial review).
            bound.setdefault(name, []).append(first)
        if _reaches(statement, definitions):
            calls.append(first)
        if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            child = tables.get((statement.name, statement.lineno))
            if child is None:
                units.append((Unit(first, last, False), statement))
                continue
            early = set(_header_names(statement))
            if isinstance(statement, ast.ClassDef):
                early |= _class_reads(child)
            for name in early:
                read_early.setdefault(name, []).append(first)
            reads = frozenset(_reads(child))
            units.append(
                (Unit(first, last, True, statement.name, reads, frozenset(early)), statement)
            )
        else:
            for name in _early_reads(statement, definitions):
                read_early.setdefault(name, []).append(first)
            units.append((Unit(first, last, False), statement))
    # Read: every name loaded, and every name a string could hold (`__all__`,
    # getattr(module, "name"), eval("name(3)")): a name only a string reads still
    # must resolve.
    read: set[str] = set()
    star = False
    introspects = ""
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and _is_docstring(node.body[0])
    }
    literal: set[int] = set()
    for node in ast.walk(tree):
        last = getattr(node, "end_lineno", None) or 0
        if isinstance(node, ast.Constant | ast.JoinedStr) and last > node.lineno:
            literal.update(range(node.lineno + 1, last + 1))
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            read.add(node.id)
            if node.id in _NAMESPACE_READERS and not introspects:
                introspects = f"{node.id}()"
        elif isinstance(node, ast.Attribute) and node.attr in _ORDER_READERS:
            introspects = introspects or node.attr
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in docstrings:
                read.update(_IDENTIFIER.findall(node.value))
        elif _reads_any(node):
            read |= definitions
        elif isinstance(node, ast.ImportFrom):
            star = star or any(alias.name == "*" for alias in node.names)
    recorders = _Recorders(tree, imported, bound)
    recorded = tuple(recorders.of(unit, statement) for unit, statement in units)
    calls += _calls_after_recorded(units, recorded, recorders)
    strings = any(_is_docstring(statement) for statement in tree.body)
    head = min([tree.body[0].lineno, *_decorator_lines(tree.body[0])]) if tree.body else 0
    marked = strings or text.startswith("#!")
    lines = text.split("\n")
    markers = sorted([*_directives(lines, [unit for unit, _ in units]), *_project_imports(tree)])
    comments = tuple(
        (unit.name, tuple(_comments_above(lines, unit.first))) for unit, _ in units if unit.movable
    )
    module = Module(
        bound,
        read_early,
        frozenset(read),
        star,
        tuple(calls),
        introspects,
        head,
        marked,
        tuple(markers),
        comments,
        frozenset(literal),
    )
    return Side(recorded, module, text=text)


def _directives(lines: list[str], units: list[Unit]) -> Iterator[tuple[int, str]]:
    """The comments tools read on lines of their own outside every statement."""
    from gitreview.analyze.lexical import TOOL_COMMENT

    inside = iter(units)
    unit = next(inside, None)
    for number, line in enumerate(lines, 1):
        while unit is not None and unit.last < number:
            unit = next(inside, None)
        if unit is not None and unit.first <= number:
            continue
        comment = line.strip()
        if comment.startswith("#") and TOOL_COMMENT.search(comment):
            yield number, comment


def _project_imports(tree: ast.Module) -> Iterator[tuple[int, str]]:
    """The module's top-level imports (in its `if` and `try` bodies too) of modules
    that may be the project's: relative ones, and any outside the standard library
    (a module's own tree is not known here)."""
    import ast

    for statement in tree.body:
        for node in _walk_early(statement, class_bodies=False):
            if isinstance(node, ast.Import):
                tops = [alias.name.partition(".")[0] for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                tops = ["." if node.level else (node.module or "").partition(".")[0]]
            else:
                continue
            if any(top not in sys.stdlib_module_names for top in tops):
                yield node.lineno, ast.unparse(node)


def _comments_above(lines: list[str], first: int) -> Iterator[str]:
    """The comment lines right above line `first`, nearest first."""
    number = first - 1
    while number >= 1 and lines[number - 1].strip().startswith("#"):
        yield lines[number - 1].strip()
        number -= 1


def markers_around(side: Side) -> list[tuple[str, frozenset[str]]]:
    """Each line whose place among the definitions is meaning, with the definitions
    below it."""
    if side.module is None:
        return []
    return [
        (marker, frozenset(u.name for u in side.units if u.movable and u.first > line))
        for line, marker in side.module.markers
    ]


# What lists a module's definitions, or a class's subclasses, in their order of
# definition: a registry made of them (`[f for n, f in globals().items() if ...]`).
_NAMESPACE_READERS = frozenset({"globals", "vars", "locals", "dir"})
_ORDER_READERS = frozenset({"__subclasses__", "__dict__", "getmembers"})


def _imported(statement: ast.stmt) -> dict[str, str]:
    """What a top-level statement imports (in its `if` and `try` bodies too): each name
    it binds, with the module or module.name it stands for (relative imports aside)."""
    import ast

    imported = {}
    for node in _walk_early(statement, class_bodies=False):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    imported[alias.asname] = alias.name
                else:
                    imported[alias.name.split(".")[0]] = alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                imported[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return imported


class _Recorders:
    """What may record a module's definitions as they are made: a decorator, a
    metaclass, or a base class's `__init_subclass__` or metaclass. Names are resolved
    through the module's own imports (or builtins it does not bind); a name bound by
    anything else, or more than once, is not known."""

    def __init__(self, tree: ast.Module, imported: dict[str, str], bound: dict[str, list[int]]):
        import ast

        self._imported = imported
        self._bound = bound
        self._classes = {s.name: s for s in tree.body if isinstance(s, ast.ClassDef)}

    def of(self, unit: Unit, statement: ast.stmt) -> Unit:
        """The unit, with the first thing that may record it, as written."""
        import ast

        if not unit.movable:
            return unit
        for decorator in getattr(statement, "decorator_list", ()):
            if not self._decorator_records_nothing(decorator):
                return unit._replace(recorded_by="@" + ast.unparse(decorator))
        if isinstance(statement, ast.ClassDef):
            recorder = self._class_recorder(statement, set()) or self._body_effect(statement)
            if recorder is not None:
                return unit._replace(recorded_by=_shortened(ast.unparse(recorder)))
        # A call in a default, an annotation, a base or the class body runs as it is
        # defined, in the order of definition: `def a(i=next(ids))`.
        decorators = {id(one) for one in getattr(statement, "decorator_list", ())}
        for node in _walk_early(statement):
            if (
                isinstance(node, ast.Call)
                and id(node) not in decorators
                and self._qualified(node.func) not in _CALLS_WITHOUT_EFFECTS
            ):
                return unit._replace(recorded_by=_shortened(ast.unparse(node)))
        return unit

    def _body_effect(self, statement: ast.ClassDef) -> ast.stmt | None:
        """The first statement of a class body that may act outside the class as it
        is made, with no call in it (found by an adversarial review): an augmented
        assignment (`ORDER += [...]` extends the module's list), a store into an
        item or attribute, or a value of the module's own that is no definition nor
        import (a descriptor's `__set_name__` runs: `name = column`)."""
        import ast

        for inner in statement.body:
            if isinstance(inner, ast.AugAssign):
                return inner
            if isinstance(inner, ast.Assign | ast.AnnAssign):
                targets = inner.targets if isinstance(inner, ast.Assign) else [inner.target]
                if not all(isinstance(target, ast.Name) for target in targets):
                    return inner
                value = inner.value
                name = value.id if isinstance(value, ast.Name) else ""
                if name in self._bound and name not in self._imported | self._classes.keys():
                    return inner
        return None

    def _decorator_records_nothing(self, decorator: ast.expr) -> bool:
        import ast

        if isinstance(decorator, ast.Call):
            if any(keyword.arg == "autouse" for keyword in decorator.keywords):
                return False  # an autouse fixture: set up in the order of definition
            decorator = decorator.func
        qualified = self._qualified(decorator)
        return qualified is not None and (
            qualified in _RECORDING_NOTHING or qualified.startswith("pytest.mark.")
        )

    def _class_recorder(self, statement: ast.ClassDef, seen: set[str]) -> ast.expr | None:
        """The metaclass or the base (this class's, or a base's of the module's own)
        that may record the class; None when each base is known to record nothing."""
        import ast

        seen.add(statement.name)
        for keyword in statement.keywords:
            if keyword.arg == "metaclass":
                return keyword.value
        for base in statement.bases:
            plain = base.value if isinstance(base, ast.Subscript) else base  # Generic[T]
            name = plain.id if isinstance(plain, ast.Name) else ""
            own = self._classes.get(name)
            if own is None:
                qualified = self._qualified(plain) or ""
                if (
                    not qualified.startswith("builtins.")
                    and qualified not in _BASES_RECORDING_NOTHING
                ):
                    return base
            elif len(self._bound[name]) != 1:
                return base
            elif name not in seen:
                # `__class_getitem__` runs where a base subscripts the class.
                hooks = {"__init_subclass__"} | (
                    {"__class_getitem__"} if plain is not base else set()
                )
                hook = any(isinstance(s, ast.FunctionDef) and s.name in hooks for s in own.body)
                if hook or self._class_recorder(own, seen) is not None:
                    return base
        return None

    def makes_a_value(self, call: ast.Call) -> bool:
        """Whether the call only makes a value (`TypeVar("T")`, `re.compile(...)`)."""
        return self._qualified(call.func) in _CALLS_WITHOUT_EFFECTS

    def _qualified(self, expression: ast.expr) -> str | None:
        """`module.name` of a dotted name, through the import that binds its first part."""
        import ast

        attributes = []
        while isinstance(expression, ast.Attribute):
            attributes.append(expression.attr)
            expression = expression.value
        if not isinstance(expression, ast.Name):
            return None
        name = expression.id
        if name not in self._bound:
            if not hasattr(builtins, name):
                return None  # bound nowhere the module shows
            module = "builtins." + name
        elif len(self._bound[name]) == 1 and name in self._imported:
            module = self._imported[name]
        else:
            return None  # bound by something else, or more than once
        return ".".join([module, *reversed(attributes)])


def _shortened(code: str) -> str:
    return code if len(code) <= 60 else code[:57] + "..."


def _callees(statement: ast.stmt) -> Iterator[str]:
    """The names of what a statement calls at import time (decorators and bases
    included: they run code too), by the name their expression starts with."""
    import ast

    for node in _walk_early(statement):
        callees: list[ast.expr] = []
        if isinstance(node, ast.Call):
            callees.append(node.func)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            callees += node.decorator_list
            if isinstance(node, ast.ClassDef):
                callees += node.bases
        for callee in callees:
            while isinstance(callee, ast.Attribute | ast.Call | ast.Subscript):
                callee = callee.func if isinstance(callee, ast.Call) else callee.value
            if isinstance(callee, ast.Name):
                yield callee.id


def _decorator_lines(statement: ast.stmt) -> list[int]:
    return [decorator.lineno for decorator in getattr(statement, "decorator_list", [])]


def _bindings(statement: ast.stmt) -> Iterator[str]:
    """Names a top-level statement binds in the module (not in its functions' or
    classes' own scopes)."""
    import ast

    for node in _walk_early(statement, class_bodies=False):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            yield node.name
        elif isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            yield node.id
        elif isinstance(node, ast.Import | ast.ImportFrom):
            for alias in node.names:
                yield alias.asname or alias.name.split(".")[0]
        elif isinstance(node, ast.MatchAs | ast.MatchStar | ast.ExceptHandler) and node.name:
            yield node.name


def _changes(statement: ast.stmt) -> Iterator[str]:
    """Module names whose value a top-level statement, other than a definition,
    changes in place at import time: an item or attribute stored or deleted
    (`DEFAULTS["retries"] = 3`, `del CACHE[key]`), or a method that changes its
    object called (`HOOKS.append(f)`, `CONFIG.update(...)`)."""
    import ast

    if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return
    for node in _walk_early(statement, class_bodies=False):
        if isinstance(node, ast.Subscript | ast.Attribute) and not isinstance(node.ctx, ast.Load):
            target: ast.expr = node
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in _CHANGING_METHODS
        ):
            target = node.func
        else:
            continue
        while isinstance(target, ast.Subscript | ast.Attribute):
            target = target.value
        if isinstance(target, ast.Name):
            yield target.id


# Methods that change the object they are called on: lists', dicts' and sets'.
_CHANGING_METHODS = frozenset(
    {"append", "extend", "insert", "remove", "pop", "clear", "sort", "reverse", "update"}
    | {"setdefault", "popitem", "add", "discard", "difference_update", "intersection_update"}
    | {"symmetric_difference_update", "__setitem__", "__delitem__"}
)


def _walk_early(statement: ast.stmt, *, class_bodies: bool = True) -> Iterator[ast.AST]:
    """The nodes of a statement that run at import time: function bodies, lambdas
    and comprehensions aside (their own scopes); class bodies run, but bind in the
    class, not in the module."""
    import ast

    stack: list[ast.AST] = [statement]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            stack += [*node.decorator_list, *_defaults(node.args)]
            stack += [n for n in (node.returns,) if n is not None]
        elif isinstance(node, ast.Lambda):
            stack += _defaults(node.args)
        elif isinstance(node, ast.ListComp | ast.SetComp | ast.GeneratorExp):
            stack += [node.elt, *_generators(node.generators)]
        elif isinstance(node, ast.DictComp):
            stack += [node.key, node.value, *_generators(node.generators)]
        elif isinstance(node, ast.ClassDef):
            stack += [*node.decorator_list, *node.bases, *node.keywords]
            if class_bodies:
                stack += node.body
        else:
            stack += list(ast.iter_child_nodes(node))


def _generators(generators: list[ast.comprehension]) -> list[ast.AST]:
    """What a comprehension's clauses run (their targets bind in its own scope)."""
    return [part for clause in generators for part in (clause.iter, *clause.ifs)]


def _calls_after_recorded(
    units: list[tuple[Unit, ast.stmt]], recorded: tuple[Unit, ...], recorders: _Recorders
) -> Iterator[int]:
    """The top-level statements below a definition something records (`@app.route`)
    that call anything at import time: the recorder may run what it holds
    (`app.run()` serving the view, which calls a helper that must be defined by
    then; found by an adversarial review)."""
    import ast

    first = min((unit.first for unit in recorded if unit.recorded_by), default=None)
    if first is None:
        return
    skipped = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom)
    for unit, statement in units:
        if unit.first <= first or isinstance(statement, skipped):
            continue
        calls = (node for node in _walk_early(statement) if isinstance(node, ast.Call))
        if any(not recorders.makes_a_value(call) for call in calls):
            yield unit.first


def _reaches(statement: ast.stmt, definitions: set[str]) -> bool:
    """Whether a top-level statement may run code of the module's own definitions at
    import time: it calls one (decorators and bases included), hands one over as a
    value (`sorted(names, key=by_rank)`, `run = main`), or is the block a script
    runs (`if __name__ == "__main__":`, where `unittest.main()` finds the tests)."""
    import ast

    if not definitions.isdisjoint(_callees(statement)):
        return True
    if isinstance(statement, ast.If) and any(
        isinstance(node, ast.Name) and node.id == "__name__" for node in ast.walk(statement.test)
    ):
        return True
    if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return False
    return any(
        isinstance(node, ast.Name) and node.id in definitions for node in _walk_early(statement)
    )


def _defaults(args: ast.arguments) -> list[ast.AST]:
    every = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
    annotations = [a.annotation for a in every if a is not None and a.annotation is not None]
    return [*args.defaults, *(d for d in args.kw_defaults if d is not None), *annotations]


# Where a string may name a definition: `getattr(module, "helper")`, `eval("helper(3)")`.
_IDENTIFIER = lazy_compile(r"[A-Za-z_]\w*")
# What runs code, or reads a name, that one of its arguments holds (by its place):
# given anything but a string as written, it may read any definition (`eval(source)`,
# `getattr(module, name)`).
_DYNAMIC_READERS = {"eval": 0, "exec": 0, "compile": 0, "getattr": 1}


def _early_reads(statement: ast.stmt, definitions: set[str]) -> set[str]:
    """The names a statement that is no definition reads at import time: by name,
    by a string that may name them (a docstring and `__all__` aside: nothing reads
    them as the module runs), or any definition, by a value (`eval(source)`)."""
    import ast

    if _is_docstring(statement) or list(_bindings(statement)) == ["__all__"]:
        return set()
    reads = set()
    for node in _walk_early(statement):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            reads.add(node.id)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            reads.update(_IDENTIFIER.findall(node.value))
        elif _reads_any(node):
            reads |= definitions
    return reads


def _reads_any(node: ast.AST) -> bool:
    """Whether a node is a call that may read any name: `eval(source)`."""
    import ast

    if not isinstance(node, ast.Call):
        return False
    func = node.func
    called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
    place = _DYNAMIC_READERS.get(called)
    given = node.args[place] if place is not None and len(node.args) > place else None
    return place is not None and not isinstance(given, ast.Constant)


def _is_docstring(statement: ast.stmt) -> bool:
    import ast

    return (
        isinstance(statement, ast.Expr)
        and isinstance(statement.value, ast.Constant)
        and isinstance(statement.value.value, str)
    )


def _header_names(
    statement: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef,
) -> Iterator[str]:
    """Names a definition reads in the module scope when it is executed: decorators,
    defaults and annotations, bases and keywords."""
    import ast

    parts: list[ast.AST] = [*statement.decorator_list]
    if isinstance(statement, ast.ClassDef):
        parts += [*statement.bases, *statement.keywords]
    else:
        parts += _defaults(statement.args)
        parts += [n for n in (statement.returns,) if n is not None]
    for part in parts:
        for node in ast.walk(part):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                yield node.id


def _globals(table: symtable.SymbolTable) -> set[str]:
    return {s.get_name() for s in table.get_symbols() if s.is_global() and s.is_referenced()}


def _reads(table: symtable.SymbolTable) -> set[str]:
    """Module names read anywhere in a definition's scopes."""
    names = _globals(table)
    for child in table.get_children():
        names |= _reads(child)
    return names


def _class_reads(table: symtable.SymbolTable) -> set[str]:
    """Module names a class body reads while the class is made (nested classes too)."""
    names = _globals(table)
    for child in table.get_children():
        if child.get_type() == "class" or child.get_name() in _COMPREHENSIONS:
            names |= _class_reads(child)
    return names


# The scopes of comprehensions, which run where they are written (a class body's too).
_COMPREHENSIONS = frozenset({"listcomp", "setcomp", "dictcomp", "genexpr"})


# -- Markdown -----------------------------------------------------------------

# Raw HTML that links: moved into another file, its target may no longer resolve.
# Raw HTML in a line (a tag, which may name a URL: `href=`, `srcset=`, `poster=`,
# `data=`...), or an autolink.
HTML_LINK = lazy_compile(r"<[A-Za-z/!?]")
# A section, step or chapter named by its place.
_BY_PLACE = lazy_compile(
    r"(?i)\b(?:previous|preceding|next|prior)\s+(?:section|step|chapter)\b"
    r"|\b(?:section|step)\s+(?:above|below)\b"
)


def _markdown(text: str) -> Side:
    """Sections with their subsections; the front matter and the preamble stay put."""
    from gitreview.analyze.markdown_doc import parse

    document = parse(text)
    lines = document.lines
    units = []
    if document.frontmatter is not None:
        units.append(Unit(document.frontmatter.first, document.frontmatter.last, False))
    start = document.frontmatter.last + 1 if document.frontmatter else 1
    headings = document.headings
    preamble_last = headings[0].line - 1 if headings else len(lines)
    if start <= preamble_last:
        units.append(Unit(start, _trimmed(lines, start, preamble_last), False))
    above: list[tuple[int, str]] = []
    for position, heading in enumerate(headings):
        last = len(lines)
        for after in headings[position + 1 :]:
            if after.level <= heading.level:
                last = after.line - 1
                break
        above = [(level, text) for level, text in above if level < heading.level]
        end = _trimmed(lines, heading.line, last)
        # A page that names a section by where it is ("the previous section") is read
        # in its order (found by an adversarial review).
        movable = _BY_PLACE.search(text) is None
        units.append(Unit(heading.line, end, movable, heading.slug, parents=tuple(above)))
        above.append((heading.level, heading.text))
    return Side(tuple(units), raw_html=any(map(_HTML_LINE.match, lines)), text=text)


# A line that may start an HTML block (a tag or a comment, up to three spaces in), or
# a site generator's block around sections: a Hugo shortcode, a Liquid tag, a
# VitePress or Docusaurus container (`{{% beta %}}`, `{% if %}`, `::: details`), or a
# MyST target, which labels what follows it (`(beta-label)=`).
_HTML_LINE = lazy_compile(r" {0,3}(?:<[A-Za-z/!?]|\{\{[<%]|\{%|:::|\([^()\s]+\)=[ \t]*$)")


def _trimmed(lines: tuple[str, ...], first: int, last: int) -> int:
    while last > first and not lines[last - 1].strip():
        last -= 1
    return last
