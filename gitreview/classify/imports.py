"""Python imports reordered, with the same set of imports (isort's kind of change)."""

from __future__ import annotations

import textwrap

from gitreview.classify.base import FileFacts, Proof
from gitreview.model import Hunk, Line

ImportKey = tuple[str, str, int, str, str | None]


def import_order(facts: FileFacts, hunk: Hunk) -> Proof | None:
    if facts.kind != "python":
        return None
    removed, added = hunk.removed, hunk.added
    if not removed or not added or not _only_imports_between_changes(hunk):
        return None
    if any(line.text[:1] in " \t" for line in (*removed, *added)):
        return None  # indented: inside try/if, where order picks the fallback
    before, after = _imports(removed), _imports(added)
    if before is None or after is None or before != after:
        return None
    if not _order_free(after | _imports_between_changes(hunk)):
        return None
    if _comments(removed) != _comments(added):
        return None
    statements = sum(1 for line in added if line.text.strip() and not line.text.startswith("#"))
    return Proof(
        ("import-order",),
        f"the removed and added lines are the same imports ({len(after)} names, "
        f"{statements} lines) in another order",
    )


def _order_free(keys: frozenset[ImportKey]) -> bool:
    """Reordering changes nothing only if no two imports bind the same name (the
    last one wins), none is a star import (it may shadow any name), and none is a
    __future__ import (which must come first)."""
    bound = [_bound_name(key) for key in keys]
    if any(module == "__future__" or name == "*" for _, module, _, name, _ in keys):
        return False
    return len(bound) == len(set(bound))


def _bound_name(key: ImportKey) -> str:
    kind, module, _, name, asname = key
    if asname:
        return asname
    return module.split(".")[0] if kind == "import" else name


def _only_imports_between_changes(hunk: Hunk) -> bool:
    """Context lines among the changes must be imports too: moving an import
    across `sys.path.insert(...)` changes what it imports."""
    context = _context_between_changes(hunk)
    return not context or _imports(context) is not None


def _imports_between_changes(hunk: Hunk) -> frozenset[ImportKey]:
    """The imports an import moved past: they bind names too."""
    context = _context_between_changes(hunk)
    return (_imports(context) or frozenset()) if context else frozenset()


def _context_between_changes(hunk: Hunk) -> tuple[Line, ...]:
    changed = [i for i, line in enumerate(hunk.lines) if line.origin != " "]
    between = hunk.lines[changed[0] : changed[-1] + 1]
    return tuple(line for line in between if line.origin == " ")


def _imports(lines: tuple[Line, ...]) -> frozenset[ImportKey] | None:
    """The imports the lines make, one key per imported name; None unless the
    lines are whole import statements (and blank lines or comments)."""
    import ast

    text = textwrap.dedent("\n".join(line.text for line in lines))
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return None
    keys: set[ImportKey] = set()
    for statement in tree.body:
        if isinstance(statement, ast.Import):
            keys.update(("import", alias.name, 0, "", alias.asname) for alias in statement.names)
        elif isinstance(statement, ast.ImportFrom):
            module = statement.module or ""
            keys.update(
                ("from", module, statement.level, alias.name, alias.asname)
                for alias in statement.names
            )
        else:
            return None
    return frozenset(keys)


def _comments(lines: tuple[Line, ...]) -> list[str]:
    from gitreview.analyze import lexers

    text = "\n".join(line.text for line in lines)
    found = lexers.scan("python", text)
    return sorted(" ".join(text[s:e].lstrip("#").split()) for s, e in found.comments)
