"""The range's file changes, one at a time, from git's own diff.

Pairs and hunks come from one `git diff-tree -p --raw -M` process (git's own
rename detection, hunks cut with its indent heuristic), read as git writes it:
the pairs are the ones `git diff -M` shows, and so are the hunks (issues 2, 11,
12). Blob contents come from one `git cat-file --batch` process. Changes are
yielded one by one, so a range of thousands of files never holds every blob.

Copies: `git diff -M -C` over a large range exceeds git's rename limit and
silently loses every inexact rename (issue 11), so pairs are never taken from
it. Only a file that `git diff -M` calls added may become a copy, when
`git diff-tree -M -C` (run alongside) names its source; renames stay as they are.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Iterator

from gitreview.git import Copies, DiffStream, ObjectReader, Repository
from gitreview.gitdiff import PatchBlock, RawChange, whole_file_hunks
from gitreview.model import MODE_GITLINK, FileChange, Hunk, Origin, Range, Status

_STATUS: dict[str, Status] = {
    "A": "added",
    "M": "modified",
    "D": "deleted",
    "R": "renamed",
    "C": "copied",
    "T": "type-changed",
}

# git's own rule (xdiff-interface.c buffer_is_binary): a NUL byte in the first 8000 bytes.
_BINARY_PROBE = 8000


def is_binary(data: bytes | None) -> bool:
    return data is not None and b"\0" in data[:_BINARY_PROBE]


class Changes:
    """The range's file changes: sized (for a progress bar), read one at a time,
    once (git's output is not kept). git's pairs are waited for when first asked."""

    def __init__(self, repo: Repository, diff: DiffStream, copies: Copies | None) -> None:
        self._repo = repo
        self._diff = diff
        self._copies = copies
        self.unread: Unread | None = None

    @property
    def _raw(self) -> list[RawChange]:
        raw = self._diff.raw
        if self._copies is not None and not any(pair.status == "A" for pair in raw):
            self._copies.close()  # no added file: no copy to look for
            self._copies = None
        return raw

    def __len__(self) -> int:
        return len(self._raw)

    def paths(self) -> list[str]:
        """Every path the range's pairs name, old and new."""
        return [path for raw in self._raw for path in (raw.old_path, raw.new_path)]

    def gone(self) -> list[str]:
        """The old paths of files deleted or renamed away."""
        return [raw.old_path for raw in self._raw if raw.status in ("D", "R")]

    def order(self) -> dict[str, int]:
        """Each change's place in git's order, by its path: added files may come
        later than their place (`__iter__`), and are put back in it."""
        return {raw.new_path: place for place, raw in enumerate(self._raw)}

    def __iter__(self) -> Iterator[FileChange]:
        """The changes in git's order, but for added files met before git has found
        the range's copies: those come once it has (the first of them would wait for
        git, about half a second on a large range, while the other files can be
        analyzed), at most _DEFERRED of them and _DEFERRED_BYTES of their blobs held.
        Pairs are read _WINDOW at a time; a pair `unread` says needs no content comes
        without its blobs, which are not read at all (issue 12)."""
        raw = self._raw  # asked once: each asking looks for an added file
        if not raw:
            return
        blobs = self._repo.blob_stream([])
        blocks = self._diff.blocks()
        sources = self._repo.objects()  # copies' sources, outside the stream's order
        kept = _KeptFolders(sources, *self._diff.sides, raw)
        copies: dict[str, RawChange] | None = None
        deferred: list[_Read] = []
        held = 0  # bytes of the deferred files' blobs

        def settled() -> Iterator[FileChange]:
            """git's copies, known now; the added files deferred until then."""
            nonlocal copies, deferred
            assert self._copies is not None
            copies = self._copies.by_path(self._diff.paths)
            waiting, deferred = deferred, []
            for waited in waiting:
                yield _copied(self._repo, waited, copies, sources, kept)

        try:
            for start in range(0, len(raw), _WINDOW):
                window = []
                for streamed in raw[start : start + _WINDOW]:
                    # git prints a type change as two blocks: the old entry deleted,
                    # the new one added (diff.c run_diff).
                    patches = [next(blocks)] + ([next(blocks)] if streamed.status == "T" else [])
                    _check_order(streamed, patches)
                    window.append((streamed, patches))
                if copies is None and self._copies is not None and self._copies.ready():
                    yield from settled()
                # An added file is a plain one once git's copies are known, without it.
                known = copies if self._copies is not None else {}
                unread = self._unread(window, known, kept)
                blobs.want(
                    [
                        side[0]
                        for (streamed, _), change in zip(window, unread, strict=True)
                        if change is None
                        for side in _sides(streamed)
                        if side is not None
                    ]
                )
                for (streamed, patches), change in zip(window, unread, strict=True):
                    if change is not None:
                        yield change
                        continue
                    old_data, new_data = (
                        None if side is None else blobs.next(*side) for side in _sides(streamed)
                    )
                    read = (streamed, old_data, new_data, patches)
                    added = streamed.status == "A"
                    if copies is None and self._copies is not None and (added or deferred):
                        full = len(deferred) >= _DEFERRED or held >= _DEFERRED_BYTES
                        if self._copies.ready() or full:
                            yield from settled()
                        elif added:
                            deferred.append(read)
                            held += len(new_data or b"")
                            continue
                    yield _copied(self._repo, read, copies, sources, kept)
            if deferred:
                yield from settled()
        finally:
            blocks.close()
            blobs.close()
            if self._copies is not None:
                self._copies.close()

    def _unread(
        self,
        window: list[tuple[RawChange, list[PatchBlock]]],
        copies: dict[str, RawChange] | None,
        kept: Callable[[RawChange], bool],
    ) -> list[FileChange | None]:
        """Each pair's change made from its patch alone, where `unread` says its
        content is not needed; None where its blobs are to be read. `copies`: the
        copies git found, by path (None: not yet known)."""
        if self.unread is None:
            return [None] * len(window)
        candidates = {
            at: None
            if raw.status == "A" and (copies is None or raw.new_path in copies)
            else _unread_change(raw, patches, kept(raw))
            for at, (raw, patches) in enumerate(window)
        }
        asked = {at: change for at, change in candidates.items() if change is not None}
        wanted = self.unread(list(asked.values()))
        skipped = {at for at, skip in zip(asked, wanted, strict=True) if skip}
        return [candidates[at] if at in skipped else None for at in range(len(window))]


# Decides, for changes made without their content (`_unread_change`), which need
# none: each such change then comes as it is, and its blobs are never read.
Unread = Callable[[list[FileChange]], list[bool]]
# Pairs read from git's patch before their blobs are asked for: a window's blobs are
# asked for together, once it is known which of them are needed.
_WINDOW = 256


def _unread_change(
    raw: RawChange, patches: list[PatchBlock], folder_kept: bool
) -> FileChange | None:
    """The change a pair makes as `_file_change` would make it from its blobs, made
    from its patch alone, for a pair whose blobs decide nothing else when git's
    patch is text: not a copy (the caller knows; an added file may become one), nor
    a type change, nor a submodule. It assumes the blobs are not binary, which git's
    patch says unless an attribute made git show a binary file as text: then the
    change differs from the one the blobs make (no hunks), and so does its key in
    the cache (verdicts.py keys every field of a change but its content), which
    `unread` looks for."""
    if raw.status not in ("A", "M", "R", "D") or MODE_GITLINK in (raw.old_mode, raw.new_mode):
        return None
    [patch] = patches
    if patch.binary:
        return None
    hunks = patch.hunks if raw.old_oid != raw.new_oid else ()
    return _change(raw, None, None, False, hunks)._replace(folder_kept=folder_kept)


# A git pair read from the stream: its blobs and its patch blocks.
_Read = tuple[RawChange, "bytes | None", "bytes | None", list[PatchBlock]]
# Added files held while git looks for copies, and their blobs' bytes: past either,
# the next one waits for git.
_DEFERRED = 256
_DEFERRED_BYTES = 16 << 20


def _copied(
    repo: Repository,
    read: _Read,
    copies: dict[str, RawChange] | None,
    sources: ObjectReader,
    kept: Callable[[RawChange], bool],
) -> FileChange:
    """The change of a pair read from the stream, an added file made a copy where
    git found its source."""
    streamed, old_data, new_data, patches = read
    raw = streamed
    if streamed.status == "A" and copies is not None:
        raw = copies.get(streamed.new_path, streamed)
        if raw is not streamed and raw.old_mode != MODE_GITLINK:
            old_data = sources.read(raw.old_oid, "blob", raw.old_path)
    change = _file_change(repo, raw, old_data, new_data, patches)
    return change._replace(folder_kept=True) if kept(raw) else change


class _KeptFolders:
    """Which renames and copies into another folder took their whole folder along:
    the old folder's tree at the base is the new folder's at the head
    (`FileChange.folder_kept`). Asked of git once per pair of folders, those of all
    the range's renames together at the first question."""

    def __init__(self, objects: ObjectReader, base: str, head: str, raw: list[RawChange]) -> None:
        self._objects = objects
        self._sides = base, head
        self._renames = raw
        self._known: dict[tuple[str, str], bool] = {}

    def __call__(self, raw: RawChange) -> bool:
        pair = _folders(raw)
        if pair is None:
            return False
        if pair not in self._known:
            pairs = {pair, *filter(None, map(_folders, self._renames))} - self._known.keys()
            self._renames = []
            self._ask(sorted(pairs))
        return self._known[pair]

    def _ask(self, pairs: list[tuple[str, str]]) -> None:
        base, head = self._sides
        names = [
            f"{rev}:{folder}" for old, new in pairs for rev, folder in ((base, old), (head, new))
        ]
        trees = self._objects.lookup_many(names)
        for at, pair in enumerate(pairs):
            old, new = trees[2 * at], trees[2 * at + 1]
            self._known[pair] = (
                old is not None and new is not None and old.kind == "tree" and old.oid == new.oid
            )


def _folders(raw: RawChange) -> tuple[str, str] | None:
    """A rename's or copy's old and new folder, when they differ."""
    if raw.status not in ("R", "C"):
        return None
    old, new = posixpath.dirname(raw.old_path), posixpath.dirname(raw.new_path)
    return None if old == new else (old, new)


def iter_changes(repo: Repository, rng: Range, *, copies: bool = True) -> Changes:
    assert rng.head is not None  # only a patch has no head
    found = repo.copies(rng.base, rng.head) if copies else None
    try:
        return Changes(repo, repo.diff(rng.base, rng.head), found)
    except BaseException:
        if found is not None:
            found.close()
        raise


def _check_order(raw: RawChange, patches: list[PatchBlock]) -> None:
    """Each block's `index` line (--full-index) names the pair's blobs: a block
    never lends its hunks to another file."""
    old, new = patches[0].old_oid, patches[-1].new_oid
    if (old is not None and old != raw.old_oid) or (new is not None and new != raw.new_oid):
        raise AssertionError(f"git's patch for {raw.new_path} names {old}..{new}")


def _sides(raw: RawChange) -> tuple[tuple[str, str] | None, tuple[str, str] | None]:
    """The blobs a pair reads, old side and new side: (object id, path), or None
    for a side that does not exist or is a submodule."""
    old = (raw.old_oid, raw.old_path) if raw.status != "A" else None
    new = (raw.new_oid, raw.new_path) if raw.status != "D" else None
    return (
        None if raw.old_mode == MODE_GITLINK else old,
        None if raw.new_mode == MODE_GITLINK else new,
    )


def _file_change(
    repo: Repository,
    raw: RawChange,
    old_data: bytes | None,
    new_data: bytes | None,
    patches: list[PatchBlock],
) -> FileChange:
    binary = is_binary(old_data) or is_binary(new_data)
    hunks: tuple[Hunk, ...] = ()
    if len(patches) == 2:
        # A type change: each side's hunks on their own, as git shows them.
        if old_data and not is_binary(old_data):
            hunks = _side(patches[0], old_data, "-")
        if new_data and not is_binary(new_data):
            hunks += _side(patches[1], new_data, "+")
    elif not binary and old_data != new_data and (old_data or new_data):
        [patch] = patches
        if raw.status == "C" or (patch.binary and old_data is not None and new_data is not None):
            # The stream diffed a new file, and a copy is diffed against its source;
            # or git's attributes ($GIT_DIR/info/attributes) call binary a text file.
            hunks = repo.blob_hunks(raw.old_oid, raw.new_oid, path=raw.new_path)
        elif patch.binary:
            hunks = _side(patch, new_data or old_data or b"", "+" if new_data else "-")
        else:
            hunks = patch.hunks
    return _change(raw, old_data, new_data, binary, hunks)


def _change(
    raw: RawChange,
    old_data: bytes | None,
    new_data: bytes | None,
    binary: bool,
    hunks: tuple[Hunk, ...],
) -> FileChange:
    status = _STATUS[raw.status]
    old_exists = raw.status != "A"
    new_exists = raw.status != "D"
    return FileChange(
        status=status,
        path=raw.new_path,
        old_path=raw.old_path if old_exists else None,
        old_mode=raw.old_mode if old_exists else None,
        new_mode=raw.new_mode if new_exists else None,
        old_oid=raw.old_oid if old_exists else None,
        new_oid=raw.new_oid if new_exists else None,
        similarity=raw.score if raw.status in "RC" else None,
        binary=binary,
        hunks=hunks,
        old_data=old_data,
        new_data=new_data,
    )


def _side(patch: PatchBlock, data: bytes, origin: Origin) -> tuple[Hunk, ...]:
    """A file added or deleted whole: git's hunks, or the whole file when git's
    attributes called it binary."""
    return whole_file_hunks(data, origin) if patch.binary else patch.hunks
