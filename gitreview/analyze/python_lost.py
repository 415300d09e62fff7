"""Python modules the range deletes or renames away that files at head still import
(`python/import-lost`).

A rename is trivial as a change to its own file (the contract's "pure rename"), but
whoever imports the old name then fails with ModuleNotFoundError, and that file may
be one the range never touched. Looked for once per range, and only when a module
went away: git searches the head's Python files for the module's name, and only
the files holding it are read and parsed.

A module is known by its path: `pkg/core.py` is `pkg.core`, `src/pkg/core.py` also
`pkg.core` (the root a project imports from is not known, so an absolute import
names any tail of the path, of two parts at least unless the module is at the top).
An import inside `try:` is a fallback, and one whose name a renamed module still
ends with may resolve: neither is reported.
"""

from __future__ import annotations

import posixpath
import sys
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, NamedTuple

from gitreview.analyze.base import HeadTree, Rule
from gitreview.model import Finding

if TYPE_CHECKING:
    import ast

RULE = Rule(
    "python/import-lost",
    "warning",
    "a Python file at head imports a module the range deleted or renamed away",
)
RULES = (RULE,)
_SUFFIXES = (".py", ".pyi")
# Module names shorter than this are not looked for (`x.py`): every Python file holds
# them, so every one would be read and parsed.
_SHORTEST = 2


class Gone(NamedTuple):
    """A module the range took away: its old path, and its new path if renamed."""

    path: str
    renamed_to: str | None


def gone(changes: Iterable[tuple[str, str | None, str]], head: HeadTree) -> list[Gone]:
    """The Python modules among (status, old path, path) that are no longer at head."""
    found = []
    for status, old_path, path in changes:
        was = old_path if status == "renamed" else path
        if status not in ("deleted", "renamed") or was is None or not was.endswith(_SUFFIXES):
            continue
        if head.is_file(was):
            continue
        if posixpath.basename(was).startswith("__init__.") and head.is_dir(posixpath.dirname(was)):
            continue  # still a (namespace) package: importing it works
        found.append(Gone(was, path if status == "renamed" else None))
    return found


def check(lost: list[Gone], head: HeadTree | None) -> Iterator[Finding]:
    """Each import at head of a module in `lost`."""
    if head is None or not lost:
        return
    from gitreview.git import literal_finder

    clues = [clue for one in lost for clue in _clues(one)]
    if not clues:
        return
    anywhere = literal_finder([clue.literal for clue in clues if not clue.under])
    under: dict[str, list[str]] = {}
    for clue in clues:
        if clue.under:
            under.setdefault(clue.under, []).append(clue.literal)
    near = {folder: literal_finder(literals) for folder, literals in under.items()}
    by_name: dict[str, list[Gone]] = {}  # an import can only load a module of its last name
    for one in lost:
        by_name.setdefault(_parts(one.path)[-1], []).append(one)
    holders = list(head.files_holding(tuple({clue.literal for clue in clues}), _SUFFIXES))
    for path, data in zip(holders, head.read_many(holders), strict=True):
        if data is None:
            continue
        if anywhere(data) or any(
            path.startswith(folder) and holds(data) for folder, holds in near.items()
        ):
            # A script's folder is `sys.path[0]`, not a package's (no `__init__.py`).
            script = not head.is_file(posixpath.join(posixpath.dirname(path), "__init__.py"))
            yield from _imports_of_lost(path, data, by_name, script)


class _Clue(NamedTuple):
    """What a file must hold to hold an import of a lost module: `literal`, and when
    `under` is a folder, only a file under it counts."""

    literal: str
    under: str = ""


def _clues(one: Gone) -> list[_Clue]:
    """What a file importing `one` by a name that no longer loads it must hold.

    A deleted module, or one renamed to another last name, may be imported by any
    name ending in its own: its name must be there. A module moved whose last d-1
    parts stay (`src/pkg/core.py` to `lib/pkg/core.py`: d = 3) still answers to
    every absolute name shorter than d: a lost one holds the old path's part d
    from the end (`src`), and a relative import that resolves to the old path,
    without naming that part, comes from a file under the old path's top folder,
    naming the module. Moving a package's tree had every file naming one of its
    modules read and parsed (pytest's `src/_pytest` moved to `lib/`: the run took
    4.5-5.0 s, now 1.1-1.3 s)."""
    old = _parts(one.path)
    if len(old[-1]) < _SHORTEST:
        return []  # every Python file holds such a name: all would be parsed
    if one.renamed_to is None:
        return [_Clue(old[-1])]
    new = _parts(one.renamed_to)
    depth = 1
    while depth <= min(len(old), len(new)) and old[-depth] == new[-depth]:
        depth += 1
    if depth == 1 or depth > len(old) or len(old[-depth]) < _SHORTEST:
        return [_Clue(old[-1])]
    return [_Clue(old[-depth]), _Clue(old[-1], old[0] + "/")]


def _imports_of_lost(
    path: str, data: bytes, by_name: dict[str, list[Gone]], script: bool
) -> Iterator[Finding]:
    import ast

    from gitreview.analyze.python import unwarned

    try:
        with unwarned():  # the code under review's warnings are not gitreview's
            tree = ast.parse(data)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return  # python/syntax says so, where the range touched it
    said: set[tuple[int, str]] = set()
    for node in _imports(tree):
        for name, exact in _imported(node, path):
            for one in by_name.get(name[-1], ()):
                beside = path if script else ""  # where a one-part name may be found
                if not _names(one, name, exact, beside) or (node.lineno, one.path) in said:
                    continue
                said.add((node.lineno, one.path))
                what = (
                    f"deleted {one.path}"
                    if one.renamed_to is None
                    else f"renamed {one.path} to {one.renamed_to}"
                )
                message = f"imports {'.'.join(name)}, but the range {what}"
                yield Finding(RULE.id, RULE.severity, path, node.lineno, message)


def _imports(tree: ast.Module) -> Iterator[ast.Import | ast.ImportFrom]:
    """The module's import statements, at any depth, but those in a `try:` body (they
    have a fallback), in order. Only statement lists are gone through: an import is
    never inside an expression (walking every node took most of the check's time)."""
    import ast

    from gitreview.analyze.python import bodies

    pending: list[Iterator[ast.stmt]] = [iter(tree.body)]
    while pending:
        statement = next(pending[-1], None)
        if statement is None:
            pending.pop()
        elif isinstance(statement, ast.Import | ast.ImportFrom):
            yield statement
        else:
            fallback = isinstance(statement, ast.Try | ast.TryStar) and statement.handlers
            lists = [sub for name, sub in bodies(statement) if not (fallback and name == "body")]
            pending += [iter(sub) for sub in reversed(lists)]


def _imported(node: ast.Import | ast.ImportFrom, path: str) -> Iterator[tuple[list[str], bool]]:
    """The module names an import may load, each with whether it is a path from the
    top (a relative import) or may be any tail of one (an absolute import)."""
    import ast

    if isinstance(node, ast.Import):
        for alias in node.names:
            yield alias.name.split("."), False
        return
    module = node.module.split(".") if node.module else []
    if node.level:
        package = _parts(path)[:-1] if not path.endswith(("__init__.py", "__init__.pyi")) else None
        if package is None:
            package = _parts(path)
        if node.level - 1 > len(package):
            return
        base = package[: len(package) - (node.level - 1)] + module
        exact = True
    else:
        base, exact = module, False
    if base:
        yield base, exact
    for alias in node.names:
        if alias.name != "*":
            yield [*base, alias.name], exact


def _names(one: Gone, name: list[str], exact: bool, importer: str) -> bool:
    """Whether the import `name` in the script `importer` ("": a package's module)
    loads the module that went away, and the renamed module's new path does not
    answer to it as well."""
    if not _answers(_parts(one.path), name, exact, importer):
        return False
    return one.renamed_to is None or not _answers(_parts(one.renamed_to), name, exact, importer)


def _answers(parts: list[str], name: list[str], exact: bool, importer: str) -> bool:
    if exact:
        return parts == name
    if len(name) < 2 and len(parts) > 1:
        # `import core` loads a top-level module: which root is not known. But a script
        # imports what lies beside it (its folder is `sys.path[0]`): found by an
        # adversarial review, `scripts/Helpers.py` renamed `helpers.py`. Not a name of
        # the standard library, which comes first (a review of the fix: `import types`).
        return (
            bool(importer)
            and parts[:-1] == posixpath.dirname(importer).split("/")
            and parts[-1:] == name
            and name[0] not in sys.stdlib_module_names
        )
    return len(name) <= len(parts) and parts[len(parts) - len(name) :] == name


def _parts(path: str) -> list[str]:
    """A module's dotted name as parts, from its path (`pkg/__init__.py`: pkg)."""
    stem = posixpath.splitext(path)[0].split("/")
    return stem[:-1] if stem[-1] == "__init__" else stem
