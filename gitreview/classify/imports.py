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
    before, after = _imports(removed), _imports(added)
    if before is None or after is None or before != after:
        return None
    if _comments(removed) != _comments(added):
        return None
    return Proof(
        ("import-order",),
        f"the removed and added lines are the same {len(after)} imports in another order",
    )


def _only_imports_between_changes(hunk: Hunk) -> bool:
    """Context lines among the changes must be imports too: moving an import
    across `sys.path.insert(...)` changes what it imports."""
    changed = [i for i, line in enumerate(hunk.lines) if line.origin != " "]
    between = hunk.lines[changed[0] : changed[-1] + 1]
    context = tuple(line for line in between if line.origin == " ")
    return not context or _imports(context) is not None


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
