"""Each file of a range proved on its own: analyzed and classified, as a cache Entry.

Files are independent until moves (a pass over the whole range, in pipeline.py),
so this is the stage that spreads (issue 12). A file's entry comes from the
cache when its blob pair was proved before under the same terms; otherwise it is
proved here or, for a large range, in worker processes, one per core, started
with the first full batch of cache misses (a range of hits starts none). Workers
are started fresh (spawn: they hold none of this process's pipes to git, which
would keep a git process waiting for the end of its input), read the head
through a git process of their own, and send back entries, not records. Entries
come out in the range's order, so the bytes out are those of a single process;
a worker that dies costs only speed: what it had is proved here instead. A proof
that goes past `proof_seconds` never hangs the run (`deadline`, `Pool`).
"""

from __future__ import annotations

import contextlib
import os
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Literal, NamedTuple, cast

from gitreview import tokens
from gitreview.analyze import Analysis, analyze, settled
from gitreview.analyze.trust import Origin
from gitreview.cache import Cache, Entry, key, restored, stored
from gitreview.classify import FileFacts, aggregate, classify
from gitreview.classify.base import Verdict
from gitreview.config import CONFIG_FILE, Config, check_rule_ids, parse_config
from gitreview.errors import ProofTimedOut, UserError
from gitreview.kinds import kind_of
from gitreview.model import FileChange, Finding, Severity, origins_of
from gitreview.review.diffs import KeyBlocks, shown_hunks
from gitreview.secrets import KeyBlock, key_blocks, may_hold_blocks

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor

    from gitreview.analyze.base import HeadTree
    from gitreview.analyze.links import HeadIndex

Attributes = Mapping[str, "bool | str | None"]
# A changed file with the attributes of its path and old path (None: no base).
Pending = tuple[FileChange, Attributes, "Attributes | None"]
# A file proved: its change, its entry, and the entry's `stored` form if one was made.
Proved = tuple[FileChange, Entry, bytes | None]

# Below this many files a range is proved in this process: starting workers costs
# about what proving a few hundred small files does.
PARALLEL_FROM = 256
_BATCH = 16  # files sent to a worker at a time
_AHEAD = 4  # batches in flight per worker: blobs held are bounded by this
TIMED_OUT = "timed-out"  # the t1_cause of a file whose proof took too long


class Terms:
    """What every file of the range is proved under."""

    __slots__ = ("_digest", "git_dir", "head", "origin", "settings")

    def __init__(
        self,
        settings: Config,
        origin: Origin,
        git_dir: str | None = None,  # the repository and head commit workers read links from
        head: str | None = None,
    ) -> None:
        self.settings = settings
        self.origin = origin
        self.git_dir = git_dir
        self.head = head
        self._digest: str | None = None

    @property
    def digest(self) -> str:
        """The part of every entry's key the terms make: worked out once a run, not
        once a file (the configuration's repr holds whole schemas)."""
        if self._digest is None:
            self._digest = key(self.settings, self.origin)
        return self._digest


def proved(
    pending: Iterable[Pending],
    terms: Terms,
    *,
    head: HeadTree | None,
    cache: Cache | None = None,
    jobs: int | None = None,
    size: int = 0,
    hits: Hits | None = None,
    pool: Pool | None = None,
) -> Iterator[Proved]:
    """Each change with its entry, in order, and the entry's `stored` form where
    one was made (by a worker, or for the cache). `jobs`: worker processes (None: one
    per core when the range has `size` >= PARALLEL_FROM files and a head; 1: none).
    `hits`: the entries of changes found in the cache before their blobs were read.
    `pool`: workers already started (`start_provers`), closed here."""
    from gitreview.analyze import links

    index = None if head is None else links.head_index(head)
    if pool is None:
        pool = _pool(terms, jobs, size, head)
    queue: deque[_Queued] = deque()
    batch = _Batch()
    try:
        for change, at_head, at_base, kind, entry_key, entry in _looked_up(
            pending, terms, cache, index, hits
        ):
            if entry is not None:
                queue.append((change, "", entry))
                if pool is not None and batch.tasks and len(queue) >= _BATCH * _AHEAD:
                    # Hits wait, blobs and all, behind the batch being filled: send it.
                    pool.send(batch)
                    batch = _Batch()
                yield from _ready(queue, cache, pool)
                continue
            if pool is None:
                with deadline(terms.settings.proof_seconds, change.path):
                    entry = prove(change, kind, terms, at_head, at_base, head=head, index=index)
                queue.append((change, entry_key, entry))
            else:
                queue.append((change, entry_key, (len(batch.tasks), batch)))
                batch.tasks.append((change, kind, at_head, at_base))
                if len(batch.tasks) == _BATCH:
                    pool.send(batch)
                    batch = _Batch()
            yield from _ready(queue, cache, pool)
        if pool is not None and batch.tasks:
            pool.send(batch)
        yield from _ready(queue, cache, pool, wait=True)
    finally:
        if pool is not None:
            pool.close()


# Files whose entries are looked up in the cache at once: one query, not one each.
_LOOKED_UP = 64


def _looked_up(
    pending: Iterable[Pending],
    terms: Terms,
    cache: Cache | None,
    index: HeadIndex | None,
    hits: Hits | None,
) -> Iterator[_Looked]:
    """Each file with its kind, its entry's key ("" without a cache or a head) and
    the entry the cache holds under it where the head still answers its link checks
    the same, looked up _LOOKED_UP files at a time (issue 12: a range of 11,000 files
    asked 11,000 questions), or found before (`hits`, which asked the head)."""
    if index is None:
        cache = None  # without a head, an entry's link checks cannot be answered
    chunk: list[_Looked] = []
    for change, at_head, at_base in pending:
        found = None if hits is None else hits.take(change)
        if found is not None:
            chunk.append(found)
        else:
            kind = _kind(change)
            entry_key = "" if cache is None else entry_key_of(change, kind, terms, at_head, at_base)
            chunk.append(_Looked(change, at_head, at_base, kind, entry_key, None))
        if len(chunk) == _LOOKED_UP:
            yield from _with_entries(chunk, cache, index)
            chunk = []
    yield from _with_entries(chunk, cache, index)


class _Looked(NamedTuple):
    """A file being looked up in the cache."""

    change: FileChange
    at_head: Attributes
    at_base: Attributes | None
    kind: str
    key: str  # "" when nothing is looked up (no cache, no head)
    entry: Entry | None  # a hit whose link checks the head still answers the same


def _with_entries(
    chunk: list[_Looked], cache: Cache | None, index: HeadIndex | None
) -> Iterator[_Looked]:
    """The files with the entries the cache holds for those not yet known, where
    the head still answers their link checks the same: the one place that asks."""
    asked = [item.key for item in chunk if item.key and item.entry is None]
    found = {} if cache is None or index is None or not asked else cache.get_many(asked)
    for item in chunk:
        entry = None if item.entry is not None else found.get(item.key)
        if entry is not None:
            assert index is not None  # nothing is looked up without a head
            if index.answers(entry.asked):
                item = item._replace(entry=entry)
        yield item


class Hits:
    """Files found in the cache before their blobs are read (changes.Changes.unread,
    issue 12): a change made from git's patch alone whose entry the cache holds, whose
    link checks the head still answers the same, and that needs no content to be
    restored (`needs_contents`), comes without its blobs, which are never read. What
    was worked out for each change asked about (its attributes, kind, key and entry)
    waits here for `proved`, which does not work it out again."""

    def __init__(
        self,
        cache: Cache,
        terms: Terms,
        attributes: Callable[[FileChange], tuple[Attributes, Attributes | None]],
        head: HeadTree,
        needs_contents: Callable[[Entry], bool],
    ) -> None:
        self._cache = cache
        self._terms = terms
        self._attributes = attributes
        self._head = head
        self._needs_contents = needs_contents
        self._looked: dict[str, _Looked] = {}  # by path

    def __call__(self, changes: list[FileChange]) -> list[bool]:
        """Which of `changes` (made without their content) are hits needing none."""
        from gitreview.analyze import links

        index = links.head_index(self._head)
        asking = []
        for change in changes:
            at_head, at_base = self._attributes(change)
            kind = _kind(change)
            key = entry_key_of(change, kind, self._terms, at_head, at_base)
            asking.append(_Looked(change, at_head, at_base, kind, key, None))
        answers = []
        for item in _with_entries(asking, self._cache, index):
            self._looked[item.change.path] = item
            entry = item.entry
            answers.append(entry is not None and not self._needs_contents(entry))
        return answers

    def attributes(self, change: FileChange) -> tuple[Attributes, Attributes | None]:
        """The change's attributes, as they were worked out when it was asked about."""
        item = self._looked.get(change.path)
        if item is None or item.change.old_path != change.old_path:
            return self._attributes(change)
        return item.at_head, item.at_base

    def take(self, change: FileChange) -> _Looked | None:
        """How a change found in the cache was looked up: one that came without its
        blobs, or one whose blobs were read all the same and make the change its
        patch alone made (else its key is another: a binary file)."""
        item = self._looked.pop(change.path, None)
        if item is None or item.entry is None:
            return None
        if (
            change is not item.change
            and change._replace(old_data=None, new_data=None) != item.change
        ):
            return None
        return item._replace(change=change)


def _kind(change: FileChange) -> str:
    return kind_of(
        change.path,
        binary=change.binary,
        symlink=change.is_symlink,
        submodule=change.is_submodule,
    )


def prove(
    change: FileChange,
    kind: str,
    terms: Terms,
    at_head: Attributes,
    at_base: Attributes | None,
    *,
    head: HeadTree | None,
    index: HeadIndex | None,
) -> Entry:
    """One file analyzed and classified, before moves, with what its link checks
    asked of the head."""
    from gitreview.analyze import trust

    settings = terms.settings
    change = change.unpacked()  # analyzers and classifiers read the lines over and over
    if os.environ.get("GITREVIEW_TEST_HANG") == change.path:  # tests only: a proof that hangs
        while True:
            time.sleep(1)
    if index is not None:
        index.asked = []
    try:
        analysis = analyze(change, kind, config=settings, head=head)
        problem = config_problem(change, terms.origin)
        own = trust.findings(change, settings, terms.origin, problem)
        own += trust.generated_header(change)
        own += trust.link_to_unread(change, settings)
        findings = apply_rule_settings((*analysis.report.findings, *own), settings)
        facts = FileFacts(change, kind, analysis, settings, at_head, at_base, findings, index)
        verdict = classify(facts)
    finally:
        asked = () if index is None or index.asked is None else tuple(index.asked)
        if index is not None:
            index.asked = None
    # What decides the review is never trivial in the end (pipeline._never_trivial):
    # its scopes are named now, as any significant file's.
    trusted = bool(trust.rule_of(change, settings))
    significant = verdict.classification != "trivial" or trusted
    texts = analysis.old_text is not None or analysis.new_text is not None
    keys = key_blocks_of(change)
    to_show = [trusted or hunk.classification != "trivial" for hunk in verdict.hunks]
    for_review = [hunk for hunk, show in zip(change.hunks, to_show, strict=True) if show]
    return Entry(
        kind,
        settled(analysis, significant=significant, hunks=for_review),
        verdict,  # without an outline: classify.outlined makes it where the range is
        texts,
        findings,
        keys,
        asked,
        shown_hunks(change.hunks, to_show, keys),
        head_tokens(change, analysis.new_text),
    )


def unproved(change: FileChange, kind: str, seconds: float) -> Entry:
    """The entry of a file whose proof took longer than `seconds` in a worker: no
    tier-1 data (cause timed-out), every hunk significant. Never kept in the cache."""
    why = f"its proof took longer than {seconds:g} s (proof_seconds): it was stopped"
    hunks = tuple(Verdict("significant", ("no-analysis",), why) for _ in change.hunks)
    analysis = Analysis(kind, t1=False, cause=TIMED_OUT)
    verdict = aggregate(change, False, hunks)
    keys = key_blocks_of(change)
    return Entry(kind, analysis, verdict, False, (), keys, (), (), head_tokens(change, None))


def head_tokens(change: FileChange, decoded: str | None) -> int:
    """The tokens of the file's head side in full (none for a binary file), for the
    token figures; `decoded`: that side's text, when the analysis decoded it."""
    if change.new_data is None or change.binary:
        return 0
    text = change.new_data.decode("utf-8", "replace") if decoded is None else decoded
    return tokens.estimate(text)


@contextlib.contextmanager
def deadline(seconds: float, path: str) -> Iterator[None]:
    """A proof in this process that goes past `seconds` raises ProofTimedOut from
    a timer, wherever it is (regular expressions check for signals too), and the
    run stops: what it was in the middle of cannot be trusted. A worker's proof is
    timed by this process instead, which ends the worker (Pool). No timer outside
    the main thread, without setitimer (not on Windows), or when the program that
    called gitreview uses the alarm signal itself: a handler of its own (from Python
    or from C, which could not be put back) or a timer running."""
    import signal

    if not timer_here():
        yield
        return

    def expired(_signal: int, _frame: object) -> None:
        raise ProofTimedOut(path, seconds)

    signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, signal.SIG_DFL)


def timer_here() -> bool:
    """Whether `deadline` can time a proof in this thread: the main thread, with
    setitimer, and the alarm signal unused by the program that called gitreview."""
    import signal
    import threading

    return (
        threading.current_thread() is threading.main_thread()
        and hasattr(signal, "setitimer")
        and signal.getsignal(signal.SIGALRM) is signal.SIG_DFL
        and not signal.getitimer(signal.ITIMER_REAL)[0]
    )


def entry_key_of(
    change: FileChange, kind: str, terms: Terms, at_head: Attributes, at_base: Attributes | None
) -> str:
    """What decides a file's entry, short of the head's answers to its link checks."""
    hunks = tuple(
        (h.old_start, h.old_count, h.new_start, h.new_count, origins_of(h.lines))
        for h in change.hunks
    )
    return key(
        terms.digest,
        kind,
        change.status,
        change.path,
        change.old_path,
        change.old_mode,
        change.new_mode,
        change.old_oid,
        change.new_oid,
        change.similarity,
        change.binary,
        change.content_known,
        change.folder_kept,
        hunks,
        sorted(at_head.items()),
        None if at_base is None else sorted(at_base.items()),
    )


def apply_rule_settings(findings: Iterable[Finding], settings: Config) -> tuple[Finding, ...]:
    """Each finding with the severity the configuration gives its rule; `off` drops it."""
    kept: list[Finding] = []
    for finding in findings:
        configured = settings.rules.get(finding.rule, finding.severity)
        if configured == "off":
            continue
        severity = cast(Severity, configured)  # the configuration schema allows no other value
        kept.append(
            finding if severity == finding.severity else finding._replace(severity=severity)
        )
    return tuple(kept)


def check_rules(settings: Config, source: str) -> None:
    from gitreview.analyze import RULES

    check_rule_ids(settings, RULES, source)


def config_problem(change: FileChange, origin: Origin) -> str | None:
    """Why the configuration the range brings is invalid, when this run does not read
    it: once merged it would stop every later review."""
    if origin.config == "head" or change.path != CONFIG_FILE or change.new_data is None:
        return None
    try:
        check_rules(parse_config(change.new_data, CONFIG_FILE), CONFIG_FILE)
    except UserError as error:
        return error.message if error.hint is None else f"{error.message} (hint: {error.hint})"
    return None


def key_blocks_of(change: FileChange) -> KeyBlocks:
    """The secret blocks of both sides (`key_blocks`), found with the whole file in view so
    that a hunk holding a few lines of a key's body is redacted too. Without the
    content (a patch), the hunks' own lines, context included, stand for it."""

    def blocks(data: bytes | None, side: Literal["-", "+"]) -> tuple[KeyBlock, ...]:
        if data is not None:
            if not may_hold_blocks(data):
                return ()
            return tuple(key_blocks(data.decode("utf-8", "replace").split("\n")))
        numbered = {
            (line.old_no if side == "-" else line.new_no): line.text
            for hunk in change.hunks
            for line in hunk.lines
            if line.origin in (" ", side)
        }
        if not any(may_hold_blocks(text) for text in numbered.values()):
            return ()
        lines = [""] * max(n or 0 for n in numbered)
        for number, text in numbered.items():
            if number:
                lines[number - 1] = text
        return tuple(key_blocks(lines))

    return KeyBlocks(blocks(change.old_data, "-"), blocks(change.new_data, "+"))


# --- Workers -------------------------------------------------------------------------


# A file's task in a worker: the change, its kind and its attributes at head and base.
_Task = tuple[FileChange, str, Attributes, "Attributes | None"]
# A file in line to come out: its cache key ("" when none) and its entry, or where
# its entry will be (its place in a batch).
_Queued = tuple[FileChange, str, "Entry | tuple[int, _Batch]"]


def start_provers(terms: Terms, jobs: int | None, size: int, head: HeadTree | None) -> Pool | None:
    """The workers of a range whose every file will be proved (no verdict was kept),
    started now: they load while this process reads the attributes and the first
    files, not once the first batch is read (issue 12: about a tenth of a second
    sooner on git's own history). None when the range is proved in this process.
    The pool goes to `proved`, which closes it; `Pool.close` may be called again."""
    pool = _pool(terms, jobs, size, head)
    if pool is not None:
        pool.warm()
    return pool


def _pool(terms: Terms, jobs: int | None, size: int, head: HeadTree | None) -> Pool | None:
    """The range's workers, not started yet; None when it is proved in this process.
    Where no timer can end a proof here (a thread: the MCP server's tools), one worker
    proves it, timed by this process (found by an adversarial review: a slow file held
    a tool call past `proof_seconds`, beyond cancelling, and the server past its end)."""
    import threading

    workers = provers(terms, jobs, size)
    threaded = threading.current_thread() is not threading.main_thread()
    timed = timer_here()  # never in a thread
    # (`jobs=1` is no process, as documented; nor a program's main thread that keeps
    # the alarm for itself: spawning would run its main module again, a review found.)
    if workers < 2 and (jobs is not None or not threaded or not (terms.git_dir and terms.head)):
        return None
    return Pool(workers, terms, head, timed_here=timed)


def provers(terms: Terms, jobs: int | None, size: int) -> int:
    """How many processes prove a range's files (1: this one alone): workers need a
    repository to read from."""
    if not (terms.git_dir and terms.head):
        return 1
    if jobs is not None:
        return max(jobs, 1)
    if size < PARALLEL_FROM:
        return 1
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


class _Batch:
    """Files for a worker: filled, sent, then its entries once they are back."""

    def __init__(self) -> None:
        self.tasks: list[_Task] = []
        self.sent = False
        self.future: Future[list[bytes]] | None = None  # None once sent: proved here
        self.entries: list[Entry] | None = None
        self.stored: list[bytes] | None = None  # the entries as the cache holds them


class Pool:
    """Worker processes, and how many batches they hold.

    A batch whose entries take longer than `proof_seconds` to come back has its
    workers ended: its files are proved again one at a time in fresh workers, and
    the one that still goes past the limit gets an entry saying so (`unproved`);
    the batches the ended workers held are sent to the fresh ones."""

    def __init__(
        self, workers: int, terms: Terms, head: HeadTree | None, *, timed_here: bool = True
    ) -> None:
        self._here = (terms, head)  # to prove a batch here when its worker died
        # Whether a batch may be proved here, under `deadline`'s timer (not in a thread).
        self._timed_here = timed_here
        self._workers = workers
        self._seconds = terms.settings.proof_seconds
        self._executor: ProcessPoolExecutor | None = None
        self.started = False  # workers start with the first full batch of cache misses
        self._held = 0
        self._sent: deque[_Batch] = deque()  # with the workers, in the order sent

    def _start(self) -> None:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        self.started = True
        self._executor = ProcessPoolExecutor(
            self._workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_start_worker,
            initargs=(self._here[0], os.getpid()),
        )

    def warm(self) -> None:
        """Each worker started now (the executor starts one per task it is given)."""
        self._start()
        assert self._executor is not None
        for _ in range(self._workers):
            self._executor.submit(_started)

    def send(self, batch: _Batch) -> None:
        """A full batch to the workers, started for the first one; a partial batch
        too once they run, else it is proved here: a range whose files are almost
        all cache hits starts no worker."""
        if self.started or len(batch.tasks) == _BATCH or not self._timed_here:
            self._submit(batch)
        else:
            batch.entries = _prove_batch(batch.tasks, self._here)
            batch.tasks = []
            batch.sent = True

    def _submit(self, batch: _Batch) -> None:
        if not self.started:
            self._start()
        if self._executor is not None:
            try:
                batch.future = self._executor.submit(_prove_stored, batch.tasks)
                self._sent.append(batch)
            except RuntimeError:  # the pool broke (a worker died): proved here instead
                self._executor = None
        batch.sent = True
        self._held += 1

    def full(self) -> bool:
        return self._held >= self._workers * _AHEAD

    def collect(self, batch: _Batch) -> list[Entry]:
        """The batch's entries, waited for; proved here when its worker died."""
        from concurrent.futures import TimeoutError as TookTooLong
        from concurrent.futures.process import BrokenProcessPool

        if batch.entries is None:
            self._held -= 1
            if batch.future is not None:
                try:
                    batch.stored = batch.future.result(timeout=self._seconds)
                    batch.entries = list(map(restored, batch.stored))
                except TookTooLong:
                    batch.entries = self._one_at_a_time(batch)
                except BrokenProcessPool:
                    self._executor = None
            if batch.entries is None:
                batch.entries = _prove_batch(batch.tasks, self._here)
            batch.tasks = []  # its blobs go
            if self._sent and self._sent[0] is batch:
                self._sent.popleft()
        return batch.entries

    def _one_at_a_time(self, stuck: _Batch) -> list[Entry]:
        """The entries of a batch that went past the limit, each file proved alone
        in fresh workers; then what the ended workers held is sent again."""
        from concurrent.futures import TimeoutError as TookTooLong
        from concurrent.futures.process import BrokenProcessPool

        held = [batch for batch in self._sent if batch is not stuck and batch.entries is None]
        self._end_workers()
        entries: list[Entry] = []
        for task in stuck.tasks:
            single = _Batch()
            single.tasks = [task]
            self._submit(single)
            self._held -= 1  # not one the range's files wait behind
            try:
                if single.future is None:  # the fresh workers broke at once
                    raise BrokenProcessPool
                entries += map(restored, single.future.result(timeout=self._seconds))
            except TookTooLong:
                entries.append(unproved(task[0], task[1], self._seconds))
                self._end_workers()
            except BrokenProcessPool:  # it kills its worker: proved here, as any such
                self._executor = None
                entries += _prove_batch([task], self._here)
            if single in self._sent:
                self._sent.remove(single)
        for batch in held:
            self._sent.remove(batch)
            self._held -= 1
            batch.future = None  # its workers' answer will never come
            self._submit(batch)
        return entries

    def _end_workers(self) -> None:
        """The workers killed, whatever they are doing; the next batch sent starts
        fresh ones."""
        import multiprocessing

        executor, self._executor = self._executor, None
        self.started = False
        if executor is None:
            return
        # This pool's processes only (another request of the MCP server may have its
        # own): Python 3.14 has kill_workers; before, the executor's private table.
        kill = getattr(executor, "kill_workers", None)
        if kill is not None:
            kill()
        else:
            mine = getattr(executor, "_processes", None)
            for process in list(mine.values()) if mine else multiprocessing.active_children():
                process.kill()
        executor.shutdown(wait=True, cancel_futures=True)

    def close(self) -> None:
        if any(batch.entries is None for batch in self._sent):
            self._end_workers()  # a run cut short: nothing left to wait for
        elif self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)


def _ready(
    queue: deque[_Queued], cache: Cache | None, pool: Pool | None, *, wait: bool = False
) -> Iterator[Proved]:
    """The changes at the front of the queue whose entries are known, each stored in
    the cache when newly proved. A batch is waited for when `wait`, or when the
    workers hold as many as they may."""
    while queue:
        change, entry_key, held = queue[0]
        data = None
        if isinstance(held, Entry):
            entry = held
        else:
            position, batch = held
            if not batch.sent:
                return  # its batch is still being filled
            assert pool is not None
            if batch.entries is None and not (wait or pool.full() or _finished(batch)):
                return
            entry = pool.collect(batch)[position]
            data = None if batch.stored is None else batch.stored[position]
        queue.popleft()
        if cache is not None and entry_key and entry.analysis.cause != TIMED_OUT:
            # (A proof that timed out may not on another day.)
            data = stored(entry) if data is None else data
            cache.put(entry_key, data)
        yield change, entry, data


def _finished(batch: _Batch) -> bool:
    return batch.future is None or batch.future.done()


# In a worker process: the terms and the head tree it proves files under.
_WORKER: tuple[Terms, HeadTree | None] | None = None


def _start_worker(terms: Terms, parent: int) -> None:
    global _WORKER
    import gc
    import signal
    import threading

    from gitreview.git import Repository, TreeReader

    gc.disable()  # a worker lives for one range: see collector.py
    # Ctrl-C reaches the whole process group: the parent says it was interrupted, and
    # ends its workers (a review found a worker's KeyboardInterrupt printed as a crash).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_end_with, args=(parent,), daemon=True).start()
    head = None
    if terms.git_dir is not None and terms.head is not None:
        repository = Repository(terms.git_dir, work_tree=None, shallow=False)
        head = TreeReader(repository, terms.head)
    _WORKER = (terms, head)


def _end_with(parent: int) -> None:
    """End this worker once the process that started it is gone (found by an
    adversarial review: a server stopped by SIGTERM mid-call left its workers waiting
    for batches, for good, holding its stderr open). Not by a signal at the parent's
    death: Linux sends that when the thread that started the worker ends, and the
    MCP server starts workers from a tool call's thread. `parent` is the id the parent
    gave: it may be gone before this worker starts (a review of the fix)."""
    while os.getppid() == parent:
        time.sleep(_PARENT_CHECK_SECONDS)
    os._exit(1)


_PARENT_CHECK_SECONDS = 1.0


def _started() -> None:
    """A worker's first task when the pool is warmed: nothing but being started."""


def _prove_stored(batch: list[_Task]) -> list[bytes]:
    """A worker's entries for a batch, as the cache holds them: this process stores
    what it is sent, not pickling each entry a second time."""
    return list(map(stored, _prove_batch(batch)))


def _prove_batch(
    batch: list[_Task], here: tuple[Terms, HeadTree | None] | None = None
) -> list[Entry]:
    """Entries for a batch: in a worker, under the terms it started with, or `here`."""
    from gitreview.analyze import links

    proving = here or _WORKER
    assert proving is not None
    terms, head = proving
    index = None if head is None else links.head_index(head)
    entries = []
    for change, kind, at_head, at_base in batch:
        # Here, a timer stops the run; in a worker, the parent times the batch (Pool).
        timer = deadline(terms.settings.proof_seconds, change.path)
        with timer if here is not None else contextlib.nullcontext():
            entries.append(prove(change, kind, terms, at_head, at_base, head=head, index=index))
    return entries
