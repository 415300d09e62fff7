"""Python imports reordered, with the same set of imports (isort's kind of change).

Both sides are read from the file's parse (shared with the formatting rule): the
statements the hunk's changes cover, whole, must be imports on both sides, in
the same block (the module, or the same function, `if TYPE_CHECKING:` or `try:`
body), the same set of them, with the same comments; lines between them only
blank or comments. A parenthesised import whose names sit on indented lines is
one statement like any other (issue 11).
"""

from __future__ import annotations

import posixpath
from collections.abc import Sequence
from typing import TYPE_CHECKING

from gitreview.analyze.lexical import TOOL_COMMENT
from gitreview.analyze.python import bodies
from gitreview.classify import statements
from gitreview.classify.base import FileFacts, Project, Proof
from gitreview.model import Hunk
from gitreview.patterns import lazy_compile

if TYPE_CHECKING:
    import ast

# What a line of an import statement can look like (or a blank line, or a comment).
_IMPORT_LINE = lazy_compile(
    r"\s*(?:(?:from|import)\s.*|[\w.]+(?:\s+as\s+\w+)?\s*,?\s*\)?|\)|#.*|)\s*(?:#.*)?\r?$"
)
ImportKey = tuple[str, str, int, str, str | None]
# Statements whose body's exceptions may be caught, an import's failure among them.
_CATCHING = frozenset({"Try", "TryStar", "With", "AsyncWith"})
Place = tuple[tuple[str, int, str], ...]  # the enclosing statements: kind, line, which body


def import_order(facts: FileFacts, hunk: Hunk) -> Proof | None:
    if facts.kind != "python" or not hunk.removed or not hunk.added:
        return None
    changed = (*hunk.removed, *hunk.added)
    if not all(_IMPORT_LINE.match(line.text) for line in changed):
        return None  # cheap, before any parse: a changed line that is no part of an import
    if any(
        line.text.lstrip().startswith("#") and TOOL_COMMENT.search(line.text) for line in changed
    ):
        # A comment of its own that tools read applies where it stands: `# type: ignore`
        # above every statement skips the whole module (mypy), below one it does not.
        return None
    old_text, new_text = facts.analysis.old_text, facts.analysis.new_text
    parsed = statements.parsed_sides(facts)
    if parsed is None or old_text is None or new_text is None:
        return None
    old_range, new_range = _changed_ranges(hunk)
    before = _block(parsed[0].tree, old_range, old_text.split("\n"))
    after = _block(parsed[1].tree, new_range, new_text.split("\n"))
    if before is None or after is None:
        return None
    (old_place, old_imports), (new_place, new_imports) = before, after
    if any(kind in _CATCHING and body == "body" for kind, _, body in new_place):
        # Where a failed import is caught (`except ImportError:`, `suppress`), the
        # imports before it ran and those after it did not: the order is meaning.
        return None
    # Lines before the hunk's first change keep their distance: the enclosing
    # statements start on lines that correspond.
    shift = hunk.new_start - hunk.old_start
    if [(kind, line + shift, body) for kind, line, body in old_place] != list(new_place):
        return None
    keys = _keys(old_imports)
    if keys != _keys(new_imports) or not _order_free(keys, facts.change.path, facts.project):
        return None
    if _comments(parsed[0], old_imports, old_range) != _comments(parsed[1], new_imports, new_range):
        return None
    return Proof(
        ("import-order",),
        f"the statements the hunk changes are the same imports ({len(keys)} names, "
        f"{len(new_imports)} statements) in another order, in the same block",
    )


def _changed_ranges(hunk: Hunk) -> tuple[tuple[int, int], tuple[int, int]]:
    """The old and the new lines from the hunk's first change to its last."""
    changed = [index for index, line in enumerate(hunk.lines) if line.origin != " "]
    between = hunk.lines[changed[0] : changed[-1] + 1]
    old = [line.old_no for line in between if line.origin != "+" and line.old_no]
    new = [line.new_no for line in between if line.origin != "-" and line.new_no]
    return (min(old), max(old)), (min(new), max(new))


def _block(
    tree: ast.Module, lines: tuple[int, int], texts: list[str]
) -> tuple[Place, list[ast.stmt]] | None:
    """The import statements that lines first..last cover, whole, all in one body;
    with where that body is. None if anything else is among them."""
    import ast

    body: Sequence[ast.stmt] = tree.body
    place: list[tuple[str, int, str]] = []
    while True:
        covered = [s for s in body if s.lineno <= lines[1] and (s.end_lineno or 0) >= lines[0]]
        if len(covered) != 1 or isinstance(covered[0], ast.Import | ast.ImportFrom):
            break
        inside = [
            (name, sub)
            for name, sub in bodies(covered[0])
            if any(s.lineno <= lines[1] and (s.end_lineno or 0) >= lines[0] for s in sub)
        ]
        if len(inside) != 1:
            return None
        place.append((type(covered[0]).__name__, covered[0].lineno, inside[0][0]))
        body = inside[0][1]
    if not covered or not all(isinstance(s, ast.Import | ast.ImportFrom) for s in covered):
        return None
    inside_statements = {n for s in covered for n in range(s.lineno, (s.end_lineno or 0) + 1)}
    for number in range(lines[0], lines[1] + 1):
        text = texts[number - 1].strip() if number <= len(texts) else ""
        if number not in inside_statements and text and not text.startswith("#"):
            return None  # a `try:` or `else:` line, or code outside any statement
    return tuple(place), covered


def _keys(imports: list[ast.stmt]) -> frozenset[ImportKey]:
    import ast

    keys: set[ImportKey] = set()
    for statement in imports:
        if isinstance(statement, ast.Import):
            keys.update(("import", alias.name, 0, "", alias.asname) for alias in statement.names)
        elif isinstance(statement, ast.ImportFrom):
            module = statement.module or ""
            keys.update(
                ("from", module, statement.level, alias.name, alias.asname)
                for alias in statement.names
            )
    return frozenset(keys)


def _order_free(keys: frozenset[ImportKey], path: str, project: Project | None) -> bool:
    """Reordering changes nothing only if no two imports bind the same name (the
    last one wins), none is a star import (it may shadow any name), none is a
    __future__ import (which must come first), none changes what later imports
    find (_PATCHING), and none imports the project's own modules: they run in that
    order, and with imports circling between them the order decides which one finds
    the other half made (in any module, not only a package's `__init__.py`). The
    project's own: a relative import, one named after a folder of the file's path,
    or one the head's tree has a folder or a Python file for (with no tree, none
    is known not to be)."""
    bound = [_bound_name(key) for key in keys]
    folders = set(posixpath.dirname(path).split("/")) - {""}
    for _, module, level, name, _ in keys:
        top = module.partition(".")[0]
        if module == "__future__" or name == "*" or top in _PATCHING:
            return False
        if level or top in folders:
            return False
    if len(bound) != len(set(bound)) or project is None:
        return False
    tops = sorted({module.partition(".")[0] for _, module, _, _, _ in keys})
    return not any(project.is_module(top) for top in tops)


# Modules whose import changes what later imports find: setuptools replaces
# distutils as it is imported (and pkg_resources imports it); gevent's and
# eventlet's monkey-patching (grequests runs it), tracers that patch the libraries
# imported after them (ddtrace, New Relic, Sentry's and OpenTelemetry's automatic
# instrumentation, Instana), importers of other languages' modules (hy, pyximport),
# checkers that rewrite what is imported after them (typeguard, beartype), and
# matplotlib, whose backend is picked before pyplot's import (adversarial reviews);
# pythonnet's clr, cppimport's and nimporter's import hooks, locust (gevent's
# monkey-patching), qtpy and pyqtgraph (which take the Qt binding imported before).
_PATCHING = frozenset(
    {"setuptools", "distutils", "pkg_resources", "_distutils_hack"}
    | {"gevent", "eventlet", "grequests", "ddtrace", "newrelic", "sentry_sdk", "elasticapm"}
    | {"opentelemetry", "scout_apm", "pydevd", "matplotlib", "pytest_cov", "coverage"}
    | {"instana", "hy", "pyximport", "typeguard", "beartype", "import_hook"}
    | {"clr", "cppimport", "nimporter", "locust", "qtpy", "pyqtgraph"}
)


def _bound_name(key: ImportKey) -> str:
    kind, module, _, name, asname = key
    if asname:
        return asname
    return module.split(".")[0] if kind == "import" else name


def _comments(
    parsed: statements.Parsed, imports: list[ast.stmt], lines: tuple[int, int]
) -> tuple[dict[frozenset[ImportKey], list[str]], list[str]]:
    """The comments on each import's own lines, by what it imports (a `# noqa` or
    `# type: ignore` is about its statement: moved to another one, it is about that
    one), and those on lines of their own, in any order."""
    on: dict[frozenset[ImportKey], list[str]] = {}
    loose = []
    for number, text in parsed.comments:
        if not lines[0] <= number <= lines[1]:
            continue
        owner = next((s for s in imports if s.lineno <= number <= (s.end_lineno or 0)), None)
        if owner is None:
            loose.append(text)
        else:
            on.setdefault(_keys([owner]), []).append(text)
    return {key: sorted(texts) for key, texts in on.items()}, sorted(loose)
