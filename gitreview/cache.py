"""Verdicts already proved, kept under the git directory (issue 12).

A file's analysis and verdict are a function of what decided them: its blob
pair and the hunks git cut from it, its paths and modes, the attributes of
those paths, the configuration and where it came from, gitreview's own code
and the libraries it parses with, and the answers the head tree gave to the
file's link checks. The key is a digest of all but the last; the entry keeps
those answers, and is reused only where the head still gives them. So CI
re-runs, a pull request that gains commits and the hook's later pushes pay
only for blob pairs they have not seen.

A whole range's result (its manifest, briefs and fail-on threshold) is kept too,
keyed by the range's commit ids, the options and configuration file that made
it, and what else git reads (Repository.surroundings): re-running the Actions
step, or an agent asking the MCP server for a range's summary, brief and
verification in turn, works the range out once. The RESULTS_KEPT kept last stay,
and the ENTRIES_KEPT entries written last: a cache is bounded however long the
hook runs in one clone.

Entries live in $GIT_COMMON_DIR/gitreview/cache/<code digest>.sqlite, an SQLite
database: a concurrent run reads whole transactions or none, and a crash loses
entries, never the file. An entry that cannot be read is a miss, never an
error; a write that fails (a full disk, a read-only repository, a lock held too
long) turns writing off for the rest of the run. Nothing is written to the
working tree or the object database. An entry is read back only as the records
below (a restricted unpickler): an entry planted in the cache cannot run code,
though whoever can write to the git directory can always make gitreview lie,
as they can make git.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import io
import os
import pickle
import sqlite3
import sys
import time
import zlib
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:  # an entry's records are imported when one is read (_ALLOWED)
    from gitreview.analyze import Analysis
    from gitreview.analyze.links import Asked
    from gitreview.classify.base import FileVerdict
    from gitreview.model import Finding
    from gitreview.review.diffs import KeyBlocks, Shown

FOLDER = "gitreview/cache"  # under the git directory shared by every worktree
_MAGIC = b"gitreview-cache 1\n"
# A version's database other runs may still be using is left alone for this long.
_STALE_SECONDS = 24 * 3600
_WRITE_EVERY = 500  # entries written in one transaction
_LOCK_SECONDS = 5.0  # how long a run waits for another's transaction before going on
_CHECKPOINT_PAGES = 4000  # the write-ahead log is copied into the database past this size
RESULTS_KEPT = 16  # whole ranges' results: those kept last stay
# Entries: those written last stay (about a kilobyte each; a release range of
# 7,000 files writes 7,000, a push a handful).
ENTRIES_KEPT = 50_000
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
        ("gitreview.review.diffs", "Shown"),
        ("gitreview.secrets", "KeyBlock"),
        ("builtins", "frozenset"),
        ("builtins", "set"),
    }
)
# Libraries whose reading of a file decides a verdict (their import names).
_LIBRARIES = ("markdown_it", "mdit_py_plugins", "yaml", "jsonschema")


class Entry(NamedTuple):
    """One file's proved outcome, as the pipeline kept it once classified."""

    kind: str
    analysis: Analysis  # settled: no texts
    verdict: FileVerdict  # without its outline (classify.outlined rebuilds it)
    texts: bool  # whether the analysis had the sides' texts (what outlines are read from)
    findings: tuple[Finding, ...]  # the file's own, with the configured severities
    keys: KeyBlocks
    asked: tuple[Asked, ...]  # the head tree's answers it relied on
    # Its hunks that may go to review, as the brief shows them (None for the others).
    shown: tuple[Shown | None, ...] = ()
    head_tokens: int = 0  # its head side in full, for the token figures


class Cache:
    """The cache of one repository, for one version of gitreview's code: an SQLite
    database (one file, its own locking and journal), opened at the first question."""

    def __init__(self, root: Path, *, entries_kept: int = ENTRIES_KEPT) -> None:
        self._root = root
        self.path = root / f"{code_digest()}.sqlite"
        self._db: sqlite3.Connection | None = None
        self._usable = True
        self._new: list[tuple[str, bytes, int]] = []
        self._entries_kept = entries_kept
        self._wrote = False
        self._stamp = 0  # when an entry was written: increasing, even on a coarse clock
        # Whether the database held no entry when opened. Entries another run writes
        # meanwhile are then missed, as any entry may be: a miss is only work.
        self._none_kept = False

    @classmethod
    def of(cls, git_dir: str) -> Cache:
        cache = cls(Path(git_dir) / FOLDER)
        cache._prune()
        return cache

    def get(self, key: str) -> Entry | None:
        return self.get_many([key]).get(key)

    def holds_entries(self) -> bool:
        """Whether the database held entries when opened (else none is looked up)."""
        return self._open() is not None and not self._none_kept

    def get_many(self, keys: list[str]) -> dict[str, Entry]:
        """The entries kept under `keys`, asked in one query; a key whose entry is
        missing or cannot be read is left out."""
        db = self._open()
        if db is None or self._none_kept or not keys:
            return {}  # a new database: no question asked of it (a cold run's thousands)
        marks = ", ".join("?" * len(keys))
        try:
            rows = db.execute(f"SELECT key, entry FROM entries WHERE key IN ({marks})", keys)
            found = {key: _load(data) for key, data in rows}
        except sqlite3.Error:  # locked past the timeout, or not a database
            return {}
        return {key: entry for key, entry in found.items() if entry is not None}

    def put(self, key: str, data: bytes) -> None:
        """An entry kept under `key`, in its `stored` form (a worker's as it sent it)."""
        if not self._usable:
            return
        self._stamp = max(time.time_ns(), self._stamp + 1)
        self._new.append((key, data, self._stamp))
        if len(self._new) >= _WRITE_EVERY:
            self._write()

    def result(self, key: str) -> object | None:
        """A whole range's result kept under `key` (see keep), or None."""
        data = self._read("SELECT result FROM results WHERE key = ?", key)
        return None if data is None else _load_plain(data)

    def keep(self, key: str, result: object) -> None:
        """A whole range's result, plain data only (dicts, lists, strings, numbers),
        kept with the RESULTS_KEPT kept last: what a re-run of the same range with
        the same inputs prints again without working it out (issue 12)."""
        db = self._open()
        if db is None:
            return
        sink = _Deflating()
        _Keeping(sink).dump(result)
        chunks = sink.deflated()
        try:
            with _transaction(db):
                # Room for it first, then its pieces written in: given whole, SQLite
                # would copy the megabytes twice more (the bound value, the record).
                made = db.execute(
                    "INSERT OR REPLACE INTO results VALUES (NULL, ?, zeroblob(?))",
                    (key, sum(map(len, chunks))),
                )
                assert made.lastrowid is not None
                with db.blobopen("results", "result", made.lastrowid) as blob:
                    for chunk in chunks:
                        blob.write(chunk)
                db.execute(
                    "DELETE FROM results WHERE rowid NOT IN "
                    "(SELECT rowid FROM results ORDER BY rowid DESC LIMIT ?)",
                    (RESULTS_KEPT,),
                )
        except sqlite3.Error:
            self._usable = False

    def pages_naming(self, leads: Iterable[str]) -> tuple[str, set[str]] | None:
        """The commit the pages' index describes (page_index.py), and its pages
        holding a run one of `leads` begins; None when there is no index (nor its
        tables)."""
        db = self._open()
        if db is None:
            return None
        try:
            with _reading(db):  # the commit and the pages of one index
                row = db.execute("SELECT commit_id FROM pages_commit").fetchone()
                if row is None:
                    return None
                found: set[str] = set()
                for lead in leads:
                    # Runs are made of name characters, all before "~": those `lead`
                    # begins sort from it to it followed by "~".
                    query = "SELECT path FROM pages WHERE run >= ? AND run < ?"
                    found.update(path for (path,) in db.execute(query, (lead, lead + "~")))
        except sqlite3.Error:
            return None
        return row[0], found

    def pages_commit(self) -> str | None:
        """The commit the pages' index describes, if there is one."""
        db = self._open()
        if db is None:
            return None
        try:
            row = db.execute("SELECT commit_id FROM pages_commit").fetchone()
        except sqlite3.Error:
            return None
        return None if row is None else str(row[0])

    def keep_pages(
        self,
        commit: str,
        runs: Iterable[tuple[str, str]],
        *,
        since: str | None = None,
        changed: Sequence[str] = (),
    ) -> None:
        """The pages' index of `commit`: the (path, run) pairs of every page. With
        `since`, the index of that commit is brought up to `commit`: `runs` holds
        those of the pages `changed` (a deleted one holds none), and nothing is
        written if another run moved the index meanwhile."""
        db = self._open()
        if db is None:
            return
        try:
            with _transaction(db):
                # Made by the first index kept (a run without one never asks for it):
                # each page's runs of name characters (pages.py), in one tree ordered
                # by run (the pages holding runs a lead begins are next to each other,
                # and no second tree is written), and the one commit they are of.
                db.execute(
                    "CREATE TABLE IF NOT EXISTS pages "
                    "(run TEXT, path TEXT, PRIMARY KEY (run, path)) WITHOUT ROWID"
                )
                db.execute("CREATE TABLE IF NOT EXISTS pages_commit (commit_id TEXT)")
                if since is None:
                    db.execute("DELETE FROM pages")
                else:
                    row = db.execute("SELECT commit_id FROM pages_commit").fetchone()
                    if row is None or row[0] != since:
                        return
                    for start in range(0, len(changed), _PATHS_AT_ONCE):  # one pass each
                        paths = changed[start : start + _PATHS_AT_ONCE]
                        marks = ", ".join("?" * len(paths))
                        db.execute(f"DELETE FROM pages WHERE path IN ({marks})", paths)
                db.executemany("INSERT OR IGNORE INTO pages VALUES (?, ?)", _by_run(runs))
                db.execute("DELETE FROM pages_commit")
                db.execute("INSERT INTO pages_commit VALUES (?)", (commit,))
        except sqlite3.Error:
            self._usable = False

    def close(self) -> None:
        """Write what is still held, drop the entries written first beyond
        ENTRIES_KEPT, and let the database go."""
        self._write()
        if self._wrote:
            self._drop_oldest()
        if self._db is not None:
            self._db.close()
            self._db = None

    def _read(self, query: str, key: str) -> bytes | None:
        db = self._open()
        if db is None:
            return None
        try:
            row = db.execute(query, (key,)).fetchone()
        except sqlite3.Error:  # locked past the timeout, or not a database
            return None
        return None if row is None or not isinstance(row[0], bytes) else row[0]

    def _write(self) -> None:
        db = self._open() if self._new else None
        if db is None:
            self._new = []
            return
        try:
            with _transaction(db):  # a concurrent run sees all of it or none
                db.executemany("INSERT OR REPLACE INTO entries VALUES (?, ?, ?)", self._new)
            self._wrote = True
        except sqlite3.Error:  # a full disk, a read-only repository, a lock held too long
            self._usable = False
        self._new = []

    def _drop_oldest(self) -> None:
        """The entries written first beyond ENTRIES_KEPT go. Counted once, as a run
        that wrote some ends: a count takes milliseconds, not for every write."""
        db = self._open()
        if db is None:
            return
        try:
            with _transaction(db):
                (count,) = db.execute("SELECT count(*) FROM entries").fetchone()
                if count > self._entries_kept:
                    db.execute(
                        "DELETE FROM entries WHERE key IN "
                        "(SELECT key FROM entries ORDER BY stamp LIMIT ?)",
                        (count - self._entries_kept,),
                    )
        except sqlite3.Error:
            self._usable = False

    def _open(self) -> sqlite3.Connection | None:
        if self._db is None and self._usable:
            try:
                self._root.mkdir(parents=True, exist_ok=True)
                db = sqlite3.connect(self.path, timeout=_LOCK_SECONDS, isolation_level=None)
                db.execute("PRAGMA journal_mode=WAL")  # readers never wait for a writer
                db.execute("PRAGMA synchronous=NORMAL")  # a crash may lose entries, not the file
                # The log is copied into the database (and both synced) every 4,000
                # pages, not every 1,000: a cold run of 11,000 files wrote its entries
                # in 1.4 s, most of it waiting for those syncs (issue 12).
                db.execute(f"PRAGMA wal_autocheckpoint={_CHECKPOINT_PAGES}")
                # A table with row ids and an index of keys: entries are a kilobyte or
                # more, which a table keyed by its (random) keys splits page by page.
                db.execute(
                    "CREATE TABLE IF NOT EXISTS entries "
                    "(key TEXT PRIMARY KEY, entry BLOB, stamp INTEGER)"
                )
                # A rowid per result: the oldest go first.
                db.execute(
                    "CREATE TABLE IF NOT EXISTS results "
                    "(rowid INTEGER PRIMARY KEY, key TEXT UNIQUE, result BLOB)"
                )
                (kept,) = db.execute("SELECT EXISTS (SELECT 1 FROM entries)").fetchone()
                self._none_kept = not kept
                self._db = db
            except (OSError, sqlite3.Error):
                self._usable = False  # the run goes on without a cache, silently
        return self._db

    def _prune(self) -> None:
        """Databases of other versions of the code nobody wrote to for a day go."""
        try:
            files = list(self._root.iterdir())
        except OSError:
            return
        now = time.time()
        for file in files:
            try:
                stale = now - file.stat().st_mtime > _STALE_SECONDS
            except OSError:
                continue
            if stale and not file.name.startswith(self.path.name):  # -wal and -shm too
                with contextlib.suppress(OSError):
                    file.unlink()


def key(*parts: object) -> str:
    """The digest of what decided an entry (each part's repr: plain data only)."""
    return hashlib.sha256(repr(parts).encode("utf-8", "surrogateescape")).hexdigest()


@functools.cache
def code_digest() -> str:
    """gitreview's own code and schemas, the Python that runs it and the libraries it
    reads files with: any change to them is a new cache. The libraries are known by
    their files' names, sizes and times, found without importing them (asking for
    their versions through importlib.metadata took 60 ms, a fifth of an everyday push)."""
    from importlib.util import find_spec

    digest = hashlib.sha256(sys.version.encode())
    package = os.path.dirname(__file__)
    # The schemas a configuration is checked against too (a link in a checkout), and
    # the words the typo rule knows.
    data = [(os.path.join(package, "schemas"), ".json"), (os.path.join(package, "words"), ".txt")]
    for path in [*_files(package, ".py"), *(path for at in data for path in _files(*at))]:
        with open(path, "rb") as file:
            digest.update(os.path.relpath(path, package).encode() + b"\0" + file.read())
    for name in _LIBRARIES:
        spec = find_spec(name)
        folders = [] if spec is None else list(spec.submodule_search_locations or ())
        for path in sorted(file for folder in folders for file in _files(folder, ".py")):
            status = os.stat(path)
            digest.update(f"{path}\0{status.st_size}\0{status.st_mtime_ns}\0".encode())
        digest.update(f"{name}:{len(folders)}\0".encode())
    return digest.hexdigest()[:16]


def _files(folder: str, suffix: str) -> list[str]:
    """The files under `folder` whose names end in `suffix`, sorted. Byte code
    folders are not entered: os.walk, which listed them too, took three times as
    long over the libraries (3 ms of every run; pathlib's rglob, three times more
    again: issue 12). A link to a folder inside is not followed (a loop would never
    end); `folder` itself may be one."""
    found = []
    folders = [folder]
    while folders:
        try:
            entries = os.scandir(folders.pop())
        except OSError:
            continue  # gone or unreadable, as os.walk would skip it
        with entries:
            for entry in entries:
                if entry.is_dir():  # a link to a folder is one too, as os.walk has it
                    if entry.name != "__pycache__" and not entry.is_symlink():
                        folders.append(entry.path)
                elif entry.name.endswith(suffix):
                    found.append(entry.path)
    return sorted(found)


@contextlib.contextmanager
def _transaction(db: sqlite3.Connection) -> Iterator[None]:
    """One write transaction, committed at the end, rolled back on an error. The
    connection is in autocommit mode (so that reads take no lock they keep), in
    which `with db:` opens none: each row written was its own transaction, three
    times the cost of a batch of 500 (issue 12), and not what a concurrent run
    should see. IMMEDIATE: the write lock is waited for at the start, not at the
    first write of a transaction that has read."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:  # SQLite rolls back by itself on a full disk, for one
            with contextlib.suppress(sqlite3.Error):
                db.execute("ROLLBACK")
        raise


def _by_run(runs: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    """(run, path) rows in the table's order: each written at the end of its tree."""
    return sorted((run, path) for path, run in runs)


_PATHS_AT_ONCE = 500  # pages whose rows one statement deletes (SQLite's limit: 999)


@contextlib.contextmanager
def _reading(db: sqlite3.Connection) -> Iterator[None]:
    """One read transaction: its queries see one state of the database."""
    db.execute("BEGIN")
    try:
        yield
    finally:
        with contextlib.suppress(sqlite3.Error):
            db.execute("COMMIT")


class _Unpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        found = _FOUND.get((module, name))
        if found is None:
            if (module, name) not in _ALLOWED:
                raise pickle.UnpicklingError(f"{module}.{name} is not an entry's record")
            found = _FOUND[(module, name)] = super().find_class(module, name)
        return found


# The records of _ALLOWED, once found: a verdicts-cached run reads thousands of entries.
_FOUND: dict[tuple[str, str], Any] = {}


class _Keeping(pickle.Pickler):
    """How a result is pickled: a text that is not all ASCII as its UTF-8, encoded
    here. Pickled as a string, its UTF-8 would stay cached in the string for as long
    as the result lives: 5 MiB more at the end of a large range (issue 12), when the
    manifest and the briefs are all held. And with no memo ("fast" mode: a result is
    plain data, with no cycles), which would hold every text and its UTF-8 until the
    end, and whose table is megabytes of its own."""

    def __init__(self, file: _Deflating) -> None:
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.fast = True

    def persistent_id(self, obj: Any) -> bytes | None:
        if type(obj) is str and not obj.isascii():
            return obj.encode("utf-8", "surrogatepass")
        return None


class _PlainUnpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        raise pickle.UnpicklingError(f"{module}.{name} is not plain data")

    def persistent_load(self, pid: Any) -> str:
        if not isinstance(pid, bytes):
            raise pickle.UnpicklingError("a kept text is bytes")
        return pid.decode("utf-8", "surrogatepass")


class _Deflating:
    """Where a result is pickled to: compressed as pickle writes it, so that its
    whole pickled text (megabytes for a large range) is never held at once."""

    def __init__(self) -> None:
        self._compressor = zlib.compressobj(1)
        self._chunks = [_MAGIC]

    def write(self, data: bytes) -> int:
        self._chunks.append(self._compressor.compress(data))
        return len(data)

    def deflated(self) -> list[bytes]:
        """What was written, compressed, after the magic line: in pieces, which the
        database is given one by one (never joined: a copy of megabytes)."""
        self._chunks.append(self._compressor.flush())
        return self._chunks


def _load_plain(data: bytes) -> object | None:
    if not data.startswith(_MAGIC):
        return None
    try:
        result: object = _PlainUnpickler(io.BytesIO(zlib.decompress(data[len(_MAGIC) :]))).load()
    except Exception:  # a torn or planted result is a miss, whatever it holds
        return None
    return result


def stored(entry: Entry) -> bytes:
    """An entry as the cache holds it: what a worker sends back, so that this process
    unpickles it once and stores those bytes, never pickling it again (issue 12)."""
    return _MAGIC + pickle.dumps(entry, protocol=pickle.HIGHEST_PROTOCOL)


def restored(data: bytes) -> Entry:
    """An entry from its `stored` form, as a worker made it."""
    entry = _load(data)
    if entry is None:
        raise ValueError("not an entry as `stored` makes it")
    return entry


def _load(data: object) -> Entry | None:
    """The entry kept as `data`; None for anything else (a row of another type too:
    `bytes()` of a large integer was a MemoryError, found by an adversarial review)."""
    if not isinstance(data, bytes) or not data.startswith(_MAGIC):
        return None
    try:
        entry = _Unpickler(io.BytesIO(data[len(_MAGIC) :])).load()
    except Exception:  # a torn or planted file is a miss, whatever it holds
        return None
    return entry if isinstance(entry, Entry) else None
