"""Files at head that name, by a path their language resolves, a file the range
deleted or renamed away (`code/reference-lost`): C and C++'s `#include "..."`,
Rust's `mod name;`, and JavaScript's and TypeScript's relative imports.

A rename is trivial as a change to its own file (the contract's "pure rename"), but
the build of whatever still names the old path breaks, and that file may be one
the range never touched (found by adversarial reviews). Python's imports are
python_lost.py's. Looked for once per range, and only when such a file went away:
git searches the head's files of the language for the old file's name, and only
the files holding it are read.

Only what resolves without the build's configuration is followed: an include
resolves from the including file's folder, or through include paths nobody here
knows, so it counts as lost only when no file at head ends with the path it names;
a `mod` from its file's folder (no `#[path]` attribute above it); an import from
its file's folder, with the extensions and index files bundlers try. Path aliases
(`@/util`), packages and `#include <...>` are not followed.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable, Iterator
from typing import NamedTuple

from gitreview.analyze.base import HeadTree, Rule
from gitreview.model import Finding
from gitreview.patterns import lazy_compile

RULE = Rule(
    "code/reference-lost",
    "warning",
    "a file at head includes, declares or imports a file the range deleted or renamed away",
)
RULES = (RULE,)

_C = (".c", ".cc", ".cpp", ".cxx", ".c++", ".h", ".hh", ".hpp", ".hxx", ".h++", ".m", ".mm")
_C_HEADERS = (".h", ".hh", ".hpp", ".hxx", ".h++", ".inc", ".inl", ".ipp", ".tcc", ".def")
_JS = (".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts", ".vue", ".svelte")
# What a bundler or TypeScript tries after a relative specifier, in order.
_JS_TRIED = (*_JS, ".d.ts", ".json")
_JS_RUNTIME = (".js", ".mjs", ".cjs", ".jsx")  # TypeScript's ESM imports name the output

_INCLUDE = lazy_compile(r'^[ \t]*#[ \t]*(?:include|import)[ \t]*"([^"\n]+)"', re.MULTILINE)
_MOD = lazy_compile(
    r"^[ \t]*(?:pub(?:\([^)\n]*\))?[ \t]+)?mod[ \t]+(r#)?([A-Za-z_]\w*)[ \t]*;", re.MULTILINE
)
_PATH_ATTRIBUTE = lazy_compile(r"#\[\s*path\s*=")
# A relative specifier after `from`, `import`, `require(`, `import(`, `export ... from`.
_SPECIFIER = lazy_compile(
    r"(?:\bfrom|^[ \t]*import|\brequire[ \t]*\(|\bimport[ \t]*\()[ \t]*"
    r"""(['"])(\.\.?/[^'"\n]*)\1""",
    re.MULTILINE,
)


class Gone(NamedTuple):
    """A file the range took away: its old path, and its new path if renamed."""

    path: str
    renamed_to: str | None

    def what(self) -> str:
        if self.renamed_to is None:
            return f"deleted {self.path}"
        return f"renamed {self.path} to {self.renamed_to}"


def gone(changes: Iterable[tuple[str, str | None, str]], head: HeadTree) -> list[Gone]:
    """The files among (status, old path, path) that C, Rust or JavaScript may name
    and that are no longer at head."""
    found = []
    for status, old_path, path in changes:
        was = old_path if status == "renamed" else path
        if status not in ("deleted", "renamed") or was is None:
            continue
        if not was.lower().endswith((*_C_HEADERS, ".rs", *_JS)) or head.is_file(was):
            continue
        found.append(Gone(was, path if status == "renamed" else None))
    return found


def check(lost: list[Gone], head: HeadTree | None) -> Iterator[Finding]:
    """Each include, `mod` or import at head of a file in `lost`."""
    if head is None or not lost:
        return
    by_name: dict[str, list[Gone]] = {}
    for one in lost:
        by_name.setdefault(_stem(one.path), []).append(one)
    literals = tuple(sorted(by_name))
    suffixes = (*_C, *_C_HEADERS, ".rs", *_JS)
    holders = list(head.files_holding(literals, suffixes))  # files: git grep reads blobs
    for path, data in zip(holders, head.read_many(holders), strict=True):
        if data is None:
            continue
        text = data.decode("utf-8", "replace")
        lowered = path.lower()
        if lowered.endswith((*_C, *_C_HEADERS)):
            yield from _includes(path, text, lost, head)
        elif lowered.endswith(".rs"):
            yield from _mods(path, text, by_name, head)
        else:
            yield from _imports(path, text, lost, head, frozenset(by_name))


def _stem(path: str) -> str:
    """What a file naming this one must hold: its name without its extension (a
    JavaScript import may leave it out, a `mod` always does); for a folder's
    `index.ts` or `mod.rs`, the folder's name (`./core`, `mod parser;`: a review)."""
    folder, name = posixpath.split(path)
    stem = name[: -len(".d.ts")] if name.endswith(".d.ts") else posixpath.splitext(name)[0]
    if stem in ("index", "mod") and folder:
        return posixpath.basename(folder)
    return stem


def _finding(path: str, text: str, offset: int, what: str, one: Gone) -> Finding:
    line = text.count("\n", 0, offset) + 1
    return Finding(RULE.id, RULE.severity, path, line, f"{what}, but the range {one.what()}")


def _includes(path: str, text: str, lost: list[Gone], head: HeadTree) -> Iterator[Finding]:
    """`#include "name"`: from the file's folder, else through include paths: lost
    when the old path answered to it and no file at head does but the renamed one
    itself (which an include path of the build may still find: said so)."""
    folder = posixpath.dirname(path)
    for match in _INCLUDE.finditer(text):
        name = match.group(1)
        beside = posixpath.normpath(posixpath.join(folder, name))
        if beside == ".." or beside.startswith("../"):
            continue  # outside the repository (a review: git's batch stopped at it)
        if head.is_file(beside):
            continue
        tail = posixpath.normpath(name)
        while tail.startswith("../"):
            tail = tail[3:]  # what an include path may still find of it
        for one in lost:
            if one.path not in (beside, tail) and not one.path.endswith("/" + tail):
                continue
            answering = [p for p in _ending_with(tail, head) if p != one.renamed_to]
            if not answering:
                what = f'includes "{name}"'
                if one.renamed_to is not None and one.renamed_to.endswith("/" + tail):
                    what += " (found there only if an include path of the build names its folder)"
                yield _finding(path, text, match.start(), what, one)
            break


def _ending_with(tail: str, head: HeadTree) -> list[str]:
    """The files at head an include path may find as `tail`."""
    return [p for p in head.files((tail,)) if p == tail or p.endswith("/" + tail)]


def _mods(
    path: str, text: str, by_name: dict[str, list[Gone]], head: HeadTree
) -> Iterator[Finding]:
    """`mod name;`: `name.rs` or `name/mod.rs` beside a crate root or a `mod.rs`,
    else in the folder named after the file."""
    folder, name = posixpath.split(path)
    if not _crate_root(path):
        folder = posixpath.join(folder, name[: -len(".rs")])
    for match in _MOD.finditer(text):
        module = match.group(2)
        before = text[max(0, match.start() - 200) : match.start()].rsplit(";", 1)[-1]
        if _PATH_ATTRIBUTE.search(before):
            continue  # `#[path = "..."]` says where it is
        candidates = tuple(
            posixpath.normpath(posixpath.join(folder, name))
            for name in (f"{module}.rs", f"{module}/mod.rs")
        )
        if any(head.is_file(candidate) for candidate in candidates):
            continue
        for one in by_name.get(module, ()):
            if one.path in candidates:
                yield _finding(path, text, match.start(), f"declares mod {module}", one)
                break


def _crate_root(path: str) -> bool:
    """Whether the Rust file is a crate's root or a `mod.rs`, whose modules are found
    beside it: `lib.rs`, `main.rs`, `build.rs`, a file of `src/bin/`, `tests/`,
    `examples/` or `benches/` (a review: `tests/common.rs` was read as a module)."""
    folder, name = posixpath.split(path)
    if name in ("mod.rs", "lib.rs", "main.rs", "build.rs"):
        return True
    return f"/{folder}".endswith(("/src/bin", "/tests", "/examples", "/benches"))


def _imports(
    path: str, text: str, lost: list[Gone], head: HeadTree, stems: frozenset[str]
) -> Iterator[Finding]:
    """A relative import: the files a bundler or TypeScript would try, none at head
    and one of them the old path. Only a specifier ending with a lost file's name
    (`stems`) is resolved (a review: a bundle of 80,000 requires took seconds)."""
    folder = posixpath.dirname(path)
    gone_paths = {one.path: one for one in lost}
    lost_by: dict[str, Gone | None] = {}  # specifier -> the file it loaded, gone
    for match in _SPECIFIER.finditer(text):
        last = posixpath.basename(match.group(2).split("?", 1)[0].rstrip("/"))
        if last not in stems and posixpath.splitext(last)[0] not in stems:
            continue
        # (within a window: a minified line of megabytes is read once, not per import)
        window = max(0, match.start() - 400)
        line_start = max(window, text.rfind("\n", window, match.start()) + 1)
        if text[line_start : match.start()].lstrip().startswith(("//", "*", "/*")):
            continue  # a comment
        specifier = match.group(2).split("?", 1)[0]
        if specifier not in lost_by:  # resolved once per file (a bundle repeats them)
            candidates = _tried(posixpath.normpath(posixpath.join(folder, specifier)))
            hit = next((gone_paths[c] for c in candidates if c in gone_paths), None)
            if hit is not None and any(head.is_file(candidate) for candidate in candidates):
                hit = None
            lost_by[specifier] = hit
        hit = lost_by[specifier]
        if hit is not None:
            yield _finding(path, text, match.start(2), f"imports {specifier}", hit)


def _tried(base: str) -> list[str]:
    """The paths a relative specifier may load: as written, with each extension, a
    folder's index, and TypeScript's source for an output's extension (`./a.js`
    loads `a.ts`)."""
    tried = [base, *(base + ext for ext in _JS_TRIED)]
    tried += [f"{base}/index{ext}" for ext in _JS_TRIED]
    stem, extension = posixpath.splitext(base)
    if extension in _JS_RUNTIME:
        tried += [stem + ext for ext in (".ts", ".tsx", ".mts", ".cts", ".d.ts")]
    return tried
