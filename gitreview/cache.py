"""Verdicts already proved, kept under the git directory (issue 12).

A file's analysis and verdict are a function of what decided them: its blob
pair and the hunks git cut from it, its paths and modes, the attributes of
those paths, the configuration and where it came from, gitreview's own code
and the libraries it parses with, and the answers the head tree gave to the
file's link checks. The key is a digest of all but the last; the entry keeps
those answers, and is reused only where the head still gives them. So CI
re-runs, a pull request that gains commits and the hook's later pushes pay
only for blob pairs they have not seen.

Entries live in $GIT_COMMON_DIR/gitreview/cache/<code digest>/, one file each,
written under a temporary name and renamed into place: a concurrent run reads a
whole entry or none. An entry that cannot be read is a miss, never an error; a
write that fails (a full disk, a read-only repository) turns writing off for
the rest of the run. Nothing is written to the working tree or the object
database. An entry is read back only as the records below (a restricted
unpickler): a file planted in the cache cannot run code, though whoever can
write to the git directory can always make gitreview lie, as they can make git.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import io
import os
import pickle
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gitreview.analyze import Analysis
from gitreview.analyze.links import Asked
from gitreview.classify.base import FileVerdict
from gitreview.model import Finding
from gitreview.review.diffs import KeyBlocks

FOLDER = "gitreview/cache"  # under the git directory shared by every worktree
_MAGIC = b"gitreview-cache 1\n"
# A version's folder other runs may still be using is left alone for this long.
_STALE_SECONDS = 24 * 3600
# What an entry's records are made of; nothing else is ever unpickled.
_ALLOWED = frozenset(
    {
        ("gitreview.cache", "Entry"),
        ("gitreview.analyze", "Analysis"),
        ("gitreview.analyze.base", "Report"),
        ("gitreview.analyze.base", "Scope"),
        ("gitreview.analyze.base", "Lost"),
        ("gitreview.classify.base", "FileVerdict"),
        ("gitreview.classify.base", "Verdict"),
        ("gitreview.model", "Finding"),
        ("gitreview.review.diffs", "KeyBlocks"),
        ("gitreview.secrets", "KeyBlock"),
        ("builtins", "frozenset"),
        ("builtins", "set"),
    }
)
# Libraries whose reading of a file decides a verdict.
_LIBRARIES = ("markdown-it-py", "mdit-py-plugins", "PyYAML", "jsonschema")


@dataclass(frozen=True)
class Entry:
    """One file's proved outcome, as the pipeline kept it once classified."""

    kind: str
    analysis: Analysis  # settled: no texts
    verdict: FileVerdict  # without its outline (classify.outlined rebuilds it)
    texts: bool  # whether the analysis had the sides' texts (what outlines are read from)
    findings: tuple[Finding, ...]  # the file's own, with the configured severities
    keys: KeyBlocks
    asked: tuple[Asked, ...]  # the head tree's answers it relied on


class Cache:
    """The cache of one repository, for one version of gitreview's code."""

    def __init__(self, root: Path) -> None:
        self._root = root
        self._folder = root / code_digest()
        self._writable = True
        self.hits = 0
        self.misses = 0

    @classmethod
    def of(cls, git_dir: str) -> Cache:
        cache = cls(Path(git_dir) / FOLDER)
        cache._prune()
        return cache

    def get(self, key: str) -> Entry | None:
        try:
            data = (self._folder / key[:2] / key[2:]).read_bytes()
        except OSError:
            self.misses += 1
            return None
        entry = _load(data)
        if entry is None:
            self.misses += 1
        else:
            self.hits += 1
        return entry

    def put(self, key: str, entry: Entry) -> None:
        if not self._writable:
            return
        import tempfile

        folder = self._folder / key[:2]
        temporary = None
        try:
            folder.mkdir(parents=True, exist_ok=True)
            descriptor, temporary = tempfile.mkstemp(dir=folder, prefix=".new-")
            with os.fdopen(descriptor, "wb") as file:
                file.write(_MAGIC + pickle.dumps(entry, protocol=pickle.HIGHEST_PROTOCOL))
            os.replace(temporary, folder / key[2:])
        except OSError:
            self._writable = False  # a full disk or a read-only git directory: run on
            if temporary is not None:
                with contextlib.suppress(OSError):
                    os.unlink(temporary)

    def _prune(self) -> None:
        """Folders of other versions of the code nobody wrote to for a day go."""
        import shutil

        try:
            folders = list(self._root.iterdir())
        except OSError:
            return
        now = time.time()
        for folder in folders:
            try:
                stale = now - folder.stat().st_mtime > _STALE_SECONDS
            except OSError:
                continue
            if folder != self._folder and stale:
                shutil.rmtree(folder, ignore_errors=True)


def key(*parts: object) -> str:
    """The digest of what decided an entry (each part's repr: plain data only)."""
    return hashlib.sha256(repr(parts).encode("utf-8", "surrogateescape")).hexdigest()


@functools.cache
def code_digest() -> str:
    """gitreview's own code, the Python that runs it and the libraries it reads
    files with: any change to them is a new cache."""
    from importlib import metadata

    digest = hashlib.sha256(sys.version.encode())
    package = Path(__file__).parent
    for path in sorted(package.rglob("*.py")):
        digest.update(str(path.relative_to(package)).encode() + b"\0" + path.read_bytes())
    for name in _LIBRARIES:
        try:
            version = metadata.version(name)
        except metadata.PackageNotFoundError:
            version = "-"
        digest.update(f"{name}={version}\0".encode())
    return digest.hexdigest()[:16]


class _Unpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        if (module, name) not in _ALLOWED:
            raise pickle.UnpicklingError(f"{module}.{name} is not an entry's record")
        return super().find_class(module, name)


def _load(data: bytes) -> Entry | None:
    if not data.startswith(_MAGIC):
        return None
    try:
        entry = _Unpickler(io.BytesIO(data[len(_MAGIC) :])).load()
    except Exception:  # a torn or planted file is a miss, whatever it holds
        return None
    return entry if isinstance(entry, Entry) else None
