"""Every call into the git binary. Returns plain records.

The repository path is always explicit: inside hooks git exports GIT_DIR,
GIT_INDEX_FILE and friends, which would silently point subprocesses at another
repository (pre-commit's `no_git_env` works around the same trap). Nothing
here writes to the working tree or the object database.
"""

from __future__ import annotations

import contextlib
import functools
import io
import os
import re
import subprocess
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, Sequence
from typing import IO, TYPE_CHECKING, NamedTuple, TypeAlias, cast

from gitreview.errors import Exit, UserError
from gitreview.gitdiff import (
    PatchBlock,
    RawChange,
    parse_block,
    parse_raw_diff,
    parse_raw_fields,
    path_text,
    split_blocks,
)
from gitreview.model import EMPTY_TREE, SHA256_EMPTY_TREE, Added, Commit, Hunk
from gitreview.patterns import lazy_compile
from gitreview.shown import read_path

if TYPE_CHECKING:
    import threading

    from gitreview.page_index import PageIndex

# Variables git itself needs to run, and the user's own (`git -c`, where git stops
# looking for a repository: found by an adversarial review, `git -c safe.directory=...
# review-manifest` was refused where git ran); every other GIT_* variable is dropped.
_KEPT_GIT_VARIABLES = frozenset(
    {
        "GIT_CONFIG_PARAMETERS",
        "GIT_CEILING_DIRECTORIES",
        "GIT_DISCOVERY_ACROSS_FILESYSTEM",
        "GIT_EXEC_PATH",
        "GIT_SSH",
        "GIT_SSH_COMMAND",
        "GIT_SSL_CAINFO",
        "GIT_SSL_NO_VERIFY",
        "GIT_CONFIG_NOSYSTEM",
        "GIT_CONFIG_GLOBAL",
        "GIT_CONFIG_SYSTEM",
        "GIT_CONFIG_COUNT",
        "GIT_HTTP_PROXY_AUTHMETHOD",
        "GIT_ALLOW_PROTOCOL",
        "GIT_ASKPASS",
    }
)


# Settings every git run gets, whatever the user's configuration says: no command the
# repository names runs, and git grep's records are `TREE:PATH\0TEXT` as they are read
# (found by an adversarial review: with `grep.lineNumber` or `grep.column` set, a
# number was read as part of every name, and no page named a deleted one).
_SETTINGS = (
    ("core.fsmonitor", "false"),
    ("grep.lineNumber", "false"),
    ("grep.column", "false"),
)
_COMMITS_AT_ONCE = 1000  # commit objects read together for their subjects


def no_git_env() -> dict[str, str]:
    """The process environment without the GIT_* variables a hook inherits, and with
    no command the repository's configuration names run as git reads: a repository
    under review may carry a folder set up as one, with its own (found by adversarial
    reviews). `_SETTINGS` are given as the command line's `-c` would (GIT_CONFIG_COUNT,
    git 2.31+), and after the user's own `git -c` settings, which git reads last."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith("GIT_")
        or key in _KEPT_GIT_VARIABLES
        or key.startswith(("GIT_CONFIG_KEY_", "GIT_CONFIG_VALUE_"))
    }
    given = env.get("GIT_CONFIG_COUNT", "0")
    count = int(given) if given.isdigit() else 0
    for key, value in _SETTINGS:
        env[f"GIT_CONFIG_KEY_{count}"] = key
        env[f"GIT_CONFIG_VALUE_{count}"] = value
        count += 1
    env["GIT_CONFIG_COUNT"] = str(count)
    if env.get("GIT_CONFIG_PARAMETERS"):
        # git reads the user's `git -c` after GIT_CONFIG_COUNT: ours go after theirs
        # (a review of the fix: `git -c grep.lineNumber=true` undid it).
        ours = " ".join(f"'{key}={value}'" for key, value in _SETTINGS)
        env["GIT_CONFIG_PARAMETERS"] = f"{env['GIT_CONFIG_PARAMETERS']} {ours}"
    # Nor does any git fetch a partial clone's missing object (git 2.44+): that would
    # write to the objects, and reach the remote by the repository's own
    # `core.sshCommand` (found by an adversarial review).
    env["GIT_NO_LAZY_FETCH"] = "1"
    return env


class Repository:
    """A git repository opened by path, read only, through the git binary: no
    library to load at start-up (pygit2 alone took 0.17 s, issue 12)."""

    def __init__(
        self,
        git_dir: str,
        *,
        work_tree: str | None,
        shallow: bool,
        common_dir: str | None = None,
        empty_tree: str = EMPTY_TREE,
    ) -> None:
        self.git_dir = git_dir.rstrip("/")
        # The tree of no files, by the repository's object format's id (found by an
        # adversarial review: a SHA-256 repository has no 4b825dc..., and a range from
        # its root commit failed).
        self.empty_tree = empty_tree
        # What every worktree of the repository shares (objects, refs, gitreview's cache).
        self.common_dir = (common_dir or git_dir).rstrip("/")
        self.work_tree = work_tree
        self._shallow = shallow
        self._objects: ObjectReader | None = None

    # -- running git ---------------------------------------------------------

    def _git(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[bytes]:
        result = subprocess.run(
            ("git", "--git-dir", self.git_dir, *args),
            capture_output=True,
            env=no_git_env(),
            # From the git directory: with core.worktree set (a submodule's), git would
            # read paths relative to the folder the user ran from.
            cwd=self.git_dir,
            check=False,
        )
        if check and result.returncode != 0:
            message = result.stderr.decode("utf-8", "replace").strip().splitlines()
            raise UserError(
                f"git {args[0]} failed: {message[-1] if message else result.returncode}",
                status=Exit.RANGE,
            )
        return result

    # -- revisions -----------------------------------------------------------

    @property
    def is_shallow(self) -> bool:
        return self._shallow

    def shallow_boundary(self) -> frozenset[str]:
        """The commits a shallow clone holds without their parents (none in a full
        clone): git's `shallow` file, in the folder every worktree shares."""
        if not self._shallow:
            return frozenset()
        try:
            with open(os.path.join(self.common_dir, "shallow"), "rb") as file:
                return frozenset(file.read().decode("ascii", "replace").split())
        except OSError:
            return frozenset()

    def resolve_commit(self, rev: str) -> str | None:
        """The full id of the commit `rev` names, with git's own revision syntax
        (cat-file reads names as rev-parse does): no git process of its own."""
        named = self.objects().lookup(rev)
        if named is None or named.kind == "commit":
            return None if named is None else named.oid
        # A tag is peeled; a tree or a blob is no commit. No `^{commit}` suffix on the
        # revision itself: `:/message` would swallow it.
        found = self.objects().lookup(f"{named.oid}^{{commit}}")
        return found.oid if found is not None else None

    def surroundings(self) -> Callable[[], bytes]:
        """What git reads besides the objects of a range, and that can change what it
        makes of the same commits: the configuration (its includes and the
        environment's too: a rename limit pairs files differently), replacement refs,
        grafts, the shallow boundary and info/attributes. A result kept for a range is
        reused only while these stay the same (cache.py). Asked of git now, read when
        called: the range's ends are resolved meanwhile."""
        asked = (
            ("config", "--list", "-z", "--includes"),
            ("for-each-ref", "--format=%(refname) %(objectname)", "refs/replace/"),
        )
        running = [  # both at once: this is on the way of every run
            subprocess.Popen(
                ("git", "--git-dir", self.git_dir, *args),
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                env=no_git_env(),
            )
            for args in asked
        ]

        def read() -> bytes:
            parts = [process.communicate()[0] for process in running]
            for folder in sorted({self.git_dir, self.common_dir}):
                for name in ("shallow", "info/grafts", "info/attributes"):
                    try:
                        with open(os.path.join(folder, name), "rb") as file:
                            parts.append(file.read())
                    except OSError:
                        parts.append(b"-")
            return b"\0\0".join(parts)

        return read

    def merge_base(self, one: str, two: str) -> str | None:
        result = self._git("merge-base", one, two, check=False)
        if result.returncode != 0:
            return None
        return result.stdout.decode("ascii").strip()

    def first_parent(self, sha: str) -> str | None:
        """The first parent; None for a root commit and a shallow clone's boundary."""
        result = self._git("rev-list", "--parents", "-n1", sha, "--")
        parents = result.stdout.decode("ascii").split()[1:]
        return parents[0] if parents else None

    def first_parent_line(self, sha: str, count: int) -> list[str]:
        """The commit and its first parents, newest first, at most `count` of them."""
        result = self._git("rev-list", "--first-parent", f"--max-count={count}", sha, "--")
        return result.stdout.decode("ascii").split()

    def current_branch(self) -> str | None:
        result = self._git("symbolic-ref", "--quiet", "--short", "HEAD", check=False)
        return result.stdout.decode("utf-8", "replace").strip() or None

    def upstream_of_head(self) -> str | None:
        result = self._git(
            "rev-parse", "--abbrev-ref", "--symbolic-full-name", "@{upstream}", check=False
        )
        if result.returncode != 0:
            return None
        return result.stdout.decode("utf-8", "replace").strip() or None

    def has_commit(self, sha: str) -> bool:
        return self._git("cat-file", "-e", f"{sha}^{{commit}}", check=False).returncode == 0

    def new_commits(self, head: str) -> list[str]:
        """The commits of head's first-parent line that no remote-tracking ref has,
        oldest first: the branch's own, whatever histories its merges bring in (an
        unrelated one's root is not where the branch starts)."""
        output = self._git("rev-list", "--first-parent", "--reverse", head, "--not", "--remotes")
        return output.stdout.decode("ascii").split()

    def hooks_dir(self) -> str:
        """Where git looks for hooks: core.hooksPath (relative to the work tree), or the
        hooks folder every worktree shares (found by an adversarial review: in a linked
        worktree the hook went to its own git folder, where git never runs one)."""
        result = self._git("config", "--path", "--get", "core.hooksPath", check=False)
        configured = result.stdout.decode("utf-8", "replace").strip()
        if not configured:
            return os.path.join(self.common_dir, "hooks")
        if os.path.isabs(configured):
            return configured
        root = self.work_tree or self.git_dir
        return os.path.normpath(os.path.join(root, configured))

    def commits(self, base: str | None, head: str) -> tuple[Commit, ...]:
        """Commits reachable from head and not from base, oldest first."""
        return self.listing(base, head).commits()

    def listing(self, base: str | None, head: str) -> Listing:
        """The commits of `commits`, listed by git while the caller does something else."""
        return Listing(self, base, head)

    # -- trees and blobs -----------------------------------------------------

    def diff(self, base: str | None, head: str) -> DiffStream:
        """The range's file pairs and hunks, as `git diff -M` pairs and cuts them,
        from one git process read as it runs (issue 12)."""
        return DiffStream(self, base, head)

    def copies(self, base: str | None, head: str) -> Copies:
        """Copy pairs of the range (`git diff-tree -M -C`), started at once so git
        finds them while the caller reads the diff."""
        return Copies(self, base, head)

    def added_in_history(
        self, base: str | None, head: str, published: Sequence[str] = ()
    ) -> Iterator[Added]:
        """The lines each commit of the range adds, a hunk at a time, read as git
        writes them: what the range's history holds, where its own diff shows only
        where the range ends (a secret one commit adds and a later one removes). Not
        in commits the `published` revisions hold (`--remotes`): their secrets went
        out before (a review of the rule: main's, merged into a branch pushed)."""
        span = head if base is None else f"{base}..{head}"
        git = _Process(
            self,
            "log",
            "-p",
            # A merge's own lines too, against its first parent (what it was merged into:
            # a secret added while resolving it; found by a review of the fix).
            "--diff-merges=first-parent",
            "--no-renames",
            "--no-ext-diff",
            "--no-textconv",
            "--no-color",
            "--unified=0",
            "--src-prefix=a/",
            "--dst-prefix=b/",
            "--format=%x00%H",
            span,
            *(("--not", *published) if published else ()),
        )
        try:
            yield from _added_hunks(git.stdout)
            git.finish(dict)
        finally:
            git.close()

    def blob_stream(self, wanted: list[str]) -> BlobStream:
        """The contents of the blobs `wanted` (and of those `BlobStream.want` adds),
        read in that order."""
        return BlobStream(self, wanted)

    def objects(self) -> ObjectReader:
        """The repository's long-lived `git cat-file --batch`, shared by every
        reader: objects without a process each, and without mapping the packs
        into this process (issue 12)."""
        if self._objects is None:
            self._objects = ObjectReader(self)
        return self._objects

    def blob_hunks(self, old_oid: str, new_oid: str, *, path: str) -> tuple[Hunk, ...]:
        """git's hunks between two blobs, as text, with the stream's options: for a
        copy, and for a file git's attributes call binary that is text to us."""
        result = self._isolated("diff", *_PATCH_OPTIONS, "--text", old_oid, new_oid)
        if result.returncode not in (0, 1):
            raise self.object_error(result.stderr, {old_oid: path, new_oid: path})
        blocks = list(split_blocks([result.stdout]))
        return parse_block(blocks[0]).hunks if blocks else ()

    def _isolated(self, *args: str) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run(
            isolated_command(self, *args),
            capture_output=True,
            env=isolated_env(self.git_dir),
            cwd=self.git_dir,
            check=False,
        )

    def object_error(self, stderr: bytes, paths: Mapping[str, str]) -> UserError:
        """git's failure to read the objects of `paths` (object id -> path) as one
        line naming the path: a partial clone or a damaged mirror (issue 11)."""
        message = stderr.decode("utf-8", "replace").strip().splitlines()
        last = message[-1] if message else "git failed"
        for oid in _OBJECT_ID.findall(stderr.decode("ascii", "replace")):
            if oid in paths:
                return missing_object(oid, paths[oid])
        return UserError(f"git failed: {last}", status=Exit.RANGE)

    def branches_containing(self, commit: str, *, besides: str = "") -> list[str]:
        """The branches, local or remote-tracking, that hold the commit; `besides` (a
        pushed ref, refs/heads/NAME) and its remote-tracking twins left out."""
        done = self._git(
            "for-each-ref", "--contains", commit, "--format=%(refname)", "refs/heads/",
            "refs/remotes/", check=False,
        )  # fmt: skip
        name = besides.removeprefix("refs/heads/") if besides.startswith("refs/heads/") else None
        refs = done.stdout.decode("utf-8", "surrogateescape").split()
        return [
            ref
            for ref in refs
            if name is None
            or not (
                ref == besides or (ref.startswith("refs/remotes/") and ref.endswith(f"/{name}"))
            )
        ]

    def commits_only_on(self, commit: str) -> list[str]:
        """The commits of the commit's first-parent line, newest first, that no
        remote-tracking ref without it holds."""
        others = self.remote_refs_without(commit)
        done = self._git(
            "rev-list", "--first-parent", commit, *(("--not", *others) if others else ()),
            check=False,
        )  # fmt: skip
        return done.stdout.decode("ascii", "replace").split()

    def remote_refs_without(self, commit: str) -> list[str]:
        """The remote-tracking refs that do not hold the commit."""
        done = self._git(
            "for-each-ref", "--no-contains", commit, "--format=%(refname)", "refs/remotes/",
            check=False,
        )  # fmt: skip
        return done.stdout.decode("utf-8", "surrogateescape").split()

    def tree_holds(self, commit: str, text: str) -> bool:
        """Whether a file of the commit's tree holds `text` (git grep, in C)."""
        done = self._isolated(
            "grep", "-q", "-F", "-I", "--no-textconv", "--no-color", "-e", text, commit, "--"
        )
        return done.returncode == 0

    def changed_paths(self, old: str, new: str, suffixes: tuple[str, ...]) -> list[str] | None:
        """The paths whose name ends with one of `suffixes` (in any case) that differ
        between commits `old` and `new`, or None when git cannot tell (`old` is gone)."""
        done = self._isolated(
            "diff-tree", "-r", "-z", "--no-renames", "--name-only", old, new, "--",
            *_pathspecs(suffixes),
        )  # fmt: skip
        if done.returncode != 0:
            return None
        return [path_text(name) for name in done.stdout.split(b"\0") if name]

    def blob_by_prefix(self, prefix: str) -> tuple[str, bytes] | None:
        """The full id and the content of the blob a (possibly abbreviated) id
        names, or None."""
        if not re.fullmatch(r"[0-9a-fA-F]{4,64}", prefix):
            return None
        found = self.objects().lookup(prefix)
        return (found.oid, found.data) if found is not None and found.kind == "blob" else None


# The options of every patch gitreview reads, spelled out so no configuration
# changes the hunks: git's defaults, with its indent heuristic (issue 2). The
# algorithm too: a diff driver's `algorithm` (info/attributes and the configuration)
# would otherwise cut the stream's hunks unlike `show`'s.
_PATCH_OPTIONS = (
    "--full-index",
    "--diff-algorithm=myers",
    "--indent-heuristic",
    "--no-ext-diff",
    "--no-textconv",
    "--no-color",
    "--unified=3",
    "--inter-hunk-context=0",
)
_ZERO_OID = "0" * 40
_OBJECT_ID = lazy_compile(r"\b[0-9a-f]{40}(?:[0-9a-f]{24})?\b")


def _added_hunks(stream: IO[bytes]) -> Iterator[Added]:
    """The added lines of `git log -p --unified=0 --format=%x00%H`, by hunk."""
    commit = path = ""
    hunk: Added | None = None
    for raw in stream:
        line = raw.rstrip(b"\n").decode("utf-8", "surrogateescape")
        if hunk is not None:
            # A hunk's removed lines come before its added ones (a line replaced: found
            # by a review of the fix, which had ended the hunk at them).
            if line.startswith("+"):
                hunk.lines.append(line[1:])
                continue
            if line.startswith(("-", "\\")):
                continue
        if hunk is not None and hunk.lines:
            yield hunk
        hunk = None
        if line.startswith("\0"):
            commit = line[1:]
        elif line.startswith("+++ "):
            # git ends a name holding a space with a tab (a review of the fix).
            name = line[4:].removesuffix("\t")
            if name.startswith('"'):
                name = read_path(name) or name
            path = name[2:] if name.startswith("b/") else ""  # "": /dev/null
        elif line.startswith("@@ ") and path:
            numbers = _HUNK_NEW_START.match(line)
            if numbers is not None:
                hunk = Added(commit, path, int(numbers.group(1)), [])
    if hunk is not None and hunk.lines:
        yield hunk


_HUNK_NEW_START = lazy_compile(r"@@ -[0-9,]+ \+([0-9]+)")


def missing_object(oid: str, path: str) -> UserError:
    """A blob the range needs is not in the object database (issue 11)."""
    return UserError(
        f"{path or 'a file of the range'}: blob {oid[:12]} is missing from the repository",
        status=Exit.RANGE,
        hint="a partial clone or a damaged mirror cannot be reviewed; fetch the range in full",
    )


def isolated_command(repo: Repository, *args: str) -> tuple[str, ...]:
    """A git command that reads git objects only: no user, system or tree attributes.
    The empty tree as `attr.tree` pins the attributes git reads to none: git 2.42+
    honours attr.tree in any configuration, and 2.43 to 2.45.1 read a bare
    repository's attributes from HEAD, which in CI may be the head under review
    (older gits ignore the unknown key)."""
    return (
        "git",
        "--git-dir",
        repo.git_dir,
        "-c",
        "core.attributesFile=/dev/null",
        "-c",
        f"attr.tree={repo.empty_tree}",
        *args,
    )


def isolated_env(git_dir: str) -> dict[str, str]:
    """The environment of a git process that must read objects only (issue 12).

    Run from the git directory with an index that does not exist, git finds no
    `.gitattributes` in a working tree or an index, so a checkout's `-diff`
    cannot turn a text file binary; and it never fetches a missing object of a
    partial clone into the object database (GIT_NO_LAZY_FETCH, git 2.44+).
    """
    env = no_git_env()
    env["GIT_ATTR_NOSYSTEM"] = "1"
    env["GIT_INDEX_FILE"] = os.path.join(git_dir, "gitreview-no-index")
    env["GIT_NO_LAZY_FETCH"] = "1"
    return env


class _Process:
    """A git process whose output is read as it runs. A thread drains stderr, so
    a chatty git can never block on a full pipe; the process ends when this
    object is closed or forgotten."""

    def __init__(self, repo: Repository, *args: str, stdin: bool = False) -> None:
        import threading
        import weakref

        self._repo = repo
        self.process = subprocess.Popen(
            isolated_command(repo, *args),
            stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=isolated_env(repo.git_dir),
            cwd=repo.git_dir,
        )
        self.stdout = cast(io.BufferedReader, self.process.stdout)
        self._stderr: list[bytes] = []
        # The thread and the finalizer hold no reference to self: forgetting the
        # object must end the process.
        self._drain = threading.Thread(
            target=_drain, args=(self.process.stderr, self._stderr), daemon=True
        )
        self._drain.start()
        self._stop = weakref.finalize(self, _stop, self.process, self._drain)

    def finish(self, paths: Callable[[], Mapping[str, str]]) -> None:
        """Wait for git; its failure becomes one line naming the path it could not
        read (`paths`: object id -> path, worked out only then)."""
        status = self.process.wait()
        try:
            if status != 0:
                self._drain.join()
                raise self._repo.object_error(b"".join(self._stderr), paths())
        finally:
            self.close()

    def close(self) -> None:
        self._stop()


def _widen_pipe(stream: IO[bytes]) -> None:
    """Let git run up to a megabyte ahead of the reader instead of 64 KiB, so it
    keeps diffing on the other core while a file is analyzed (Linux only)."""
    try:
        import fcntl

        fcntl.fcntl(stream.fileno(), fcntl.F_SETPIPE_SZ, 1 << 20)
    except (ImportError, AttributeError, OSError):
        pass  # another system, or a lower pipe-max-size: the default size works


def _drain(stream: IO[bytes], kept: list[bytes]) -> None:
    for line in stream:
        kept.append(line)
        if len(kept) > 100:
            del kept[0]


def _stop(process: subprocess.Popen[bytes], drain: threading.Thread) -> None:
    if process.poll() is None:
        process.kill()
    process.wait()
    drain.join()
    for stream in (process.stdin, process.stdout, process.stderr):
        if stream is not None:
            with contextlib.suppress(OSError, ValueError):  # a feeding thread's input
                stream.close()


class DiffStream:
    """`git diff-tree -r -z --raw -p -M` of a range: the pairs, then one patch
    block per pair, read as git writes them so git works on another core. git
    starts at once; its pairs are waited for when first asked (`raw`), so the
    caller can work meanwhile (git pairs a large range's renames for a while)."""

    def __init__(self, repo: Repository, base: str | None, head: str) -> None:
        self._repo = repo
        self._base, self._head = base or repo.empty_tree, head
        self._git = _Process(
            repo, "diff-tree", "-r", "-z", "--raw", "-p", "-M", *_PATCH_OPTIONS, self._base, head
        )
        _widen_pipe(self._git.stdout)
        self._rest = b""

    @property
    def sides(self) -> tuple[str, str]:
        """The trees diffed: the base (the empty tree for a root commit) and the head."""
        return self._base, self._head

    @functools.cached_property
    def raw(self) -> list[RawChange]:
        """The pairs, in git's order."""
        raw, self._rest = self._read_raw()
        return raw

    def _read_raw(self) -> tuple[list[RawChange], bytes]:
        """The raw records, which end with an empty field, and what follows them."""
        chunks: list[bytes] = []
        seen = b""
        while True:
            chunk = self._git.stdout.read1(1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
            seen = seen[-1:] + chunk
            if b"\0\0" in seen:
                break
        data = b"".join(chunks)
        if not data:
            self._git.finish(lambda: self._oids_of([]))
            return [], b""
        end = data.find(b"\0\0")
        if end < 0:
            # git stopped before the end of the records: it could not read a blob.
            self._git.finish(lambda: self._oids_of([]))
            raise UserError("git diff-tree stopped without an error", status=Exit.RANGE)
        return parse_raw_fields(data[: end + 1].split(b"\0")), data[end + 2 :]

    def blocks(self) -> Generator[PatchBlock]:
        """The patch blocks, in the order of `raw` (a type change has two)."""
        if not self.raw:
            return
        try:
            for block in split_blocks(self._chunks()):
                yield parse_block(block)
            self._git.finish(lambda: self._oids_of(self.raw))
        finally:
            self._git.close()

    def close(self) -> None:
        self._git.close()

    def _chunks(self) -> Iterator[bytes]:
        yield self._rest
        self._rest = b""
        while chunk := self._git.stdout.read1(1 << 20):
            yield chunk

    def paths(self) -> dict[str, str]:
        """Object id -> path of the range's blobs, to name one git could not read."""
        return self._oids_of(self.raw)

    def _oids_of(self, raw: list[RawChange]) -> dict[str, str]:
        """Object id -> path, to name the file git could not read. Without the
        records (git failed while pairing), a diff without renames names them:
        it never reads a blob."""
        if not raw:
            result = self._repo._isolated(
                "diff-tree", "-r", "-z", "--raw", "--no-renames", self._base, self._head
            )
            raw = parse_raw_diff(result.stdout) if result.returncode == 0 else []
        paths: dict[str, str] = {}
        for change in raw:
            paths[change.old_oid] = change.old_path
            paths[change.new_oid] = change.new_path
        paths.pop(_ZERO_OID, None)
        return paths


class Listing:
    """A range's commits, oldest first, from `git rev-list` started when asked
    and read later: git lists them while the caller does other work, not on the
    way to the first proof (0.2-0.3 s on git's own v2.47..v2.50)."""

    def __init__(self, repo: Repository, base: str | None, head: str) -> None:
        self._repo = repo
        hidden = ("--not", base) if base is not None else ()
        self._args = ("rev-list", "--topo-order", "--reverse", head, *hidden, "--")
        self._git: _Process | None = None

    def start(self) -> None:
        if self._git is None:
            self._git = _Process(self._repo, *self._args)

    def commits(self) -> tuple[Commit, ...]:
        self.start()
        assert self._git is not None
        shas = self._git.stdout.read().decode("ascii").split()
        self._git.finish(dict)  # a failure as one line; the process ends either way
        if not shas:
            return ()
        cut = self._repo.shallow_boundary().intersection(shas)
        if cut:
            # A commit of the boundary that has no parents anyway is a true root (a clone
            # as deep as its history: a review of the fix).
            reader = self._repo.objects()
            cut = frozenset(sha for sha in cut if _has_parents(reader.read(sha, "commit")))
        if cut:
            # The commits below it are missing, not absent from the range: checks of
            # the range's commits would pass on part of them (found by an adversarial
            # review: a `fixup!` below the boundary of a CI clone was no finding).
            raise UserError(
                f"the range's commits go on below this shallow clone's history (commit "
                f"{min(cut)[:12]} has no parents here)",
                status=Exit.RANGE,
                hint="fetch more history (git fetch --unshallow, or fetch-depth: 0 in CI)",
            )
        reader, commits = self._repo.objects(), []
        for start in range(0, len(shas), _COMMITS_AT_ONCE):  # not every commit held at once
            chunk = shas[start : start + _COMMITS_AT_ONCE]
            raw = reader.read_many(chunk, "commit")
            commits += [Commit(sha, _subject(data)) for sha, data in zip(chunk, raw, strict=True)]
        return tuple(commits)

    def close(self) -> None:
        if self._git is not None:
            self._git.close()


class Copies:
    """The copies `git diff-tree -M -C` finds, by their new path; its process
    starts at once and is read when asked."""

    def __init__(self, repo: Repository, base: str | None, head: str) -> None:
        self._git = _Process(
            repo, "diff-tree", "-r", "-z", "--raw", "-M", "-C", base or repo.empty_tree, head
        )
        _widen_pipe(self._git.stdout)  # git can end before it is read: `ready`

    def ready(self) -> bool:
        """Whether git has found them all (its output fits in its pipe: a megabyte)."""
        return self._git.process.poll() is not None

    def by_path(self, paths: Callable[[], Mapping[str, str]]) -> dict[str, RawChange]:
        """`paths` (object id -> path) names the file of a blob git could not read."""
        try:
            records = parse_raw_diff(self._git.stdout.read())
            self._git.finish(paths)
        finally:
            self._git.close()
        return {change.new_path: change for change in records if change.status == "C"}

    def close(self) -> None:
        self._git.close()


class BlobStream:
    """Blobs in an order known in advance, from one `git cat-file --batch` kept
    up to _AHEAD names ahead of the reader: git reads the next files' blobs on
    the other core while this one is analyzed, and no blob costs a round trip
    (issue 12). No thread: the names ahead never fill the input pipe (64 KiB),
    so writing them cannot block while git waits for its output to be read."""

    def __init__(self, repo: Repository, wanted: list[str]) -> None:
        self._git = _Process(repo, "cat-file", "--batch", stdin=True)
        _widen_pipe(self._git.stdout)
        self._wanted = list(wanted)
        self._sent = self._read = 0

    def want(self, names: list[str]) -> None:
        """More blobs, read after those wanted so far."""
        self._wanted += names

    def next(self, oid: str, path: str) -> bytes:
        """The next blob, which must be `oid`; missing, an error naming `path`."""
        if self._sent - self._read < _AHEAD // 2 and self._sent < len(self._wanted):
            end = min(len(self._wanted), self._read + _AHEAD)
            names = "".join(f"{name}\n" for name in self._wanted[self._sent : end])
            stdin = self._git.process.stdin
            assert stdin is not None
            stdin.write(names.encode("ascii"))
            stdin.flush()
            self._sent = end
        self._read += 1
        fields = self._git.stdout.readline().split()
        if len(fields) != 3 or fields[1] != b"blob":
            self.close()
            raise missing_object(oid, path)
        if fields[0].decode("ascii") != oid:
            raise AssertionError(f"cat-file answered {fields[0]!r} for {oid}")
        size = int(fields[2])
        data = self._git.stdout.read(size + 1)  # the content, then "\n"
        return data[:size]

    def close(self) -> None:
        self._git.close()


# Blob names a BlobStream keeps ahead: at most 65 bytes each (SHA-256), well
# under the 64 KiB of a pipe.
_AHEAD = 512


# Names written to `git cat-file --batch` at once: with the longest path (4 KiB)
# after them, still under the 16 KiB any pipe holds (64 KiB on Linux).
_NAMES_BYTES = 8 * 1024


class GitObject(NamedTuple):
    oid: str
    kind: str  # blob, tree, commit, tag
    data: bytes


def _relative_path(name: str) -> bool:
    """Whether `REV:PATH` names its path from the working directory (`./`, `../`)."""
    _, colon, path = name.partition(":")
    return bool(colon) and (path in (".", "..") or path.startswith(("./", "../")))


class ObjectReader:
    """Objects from one long-lived `git cat-file --batch` process, started at
    the first question."""

    def __init__(self, repo: Repository) -> None:
        self._repo = repo
        self._git: _Process | None = None

    def lookup(self, name: str) -> GitObject | None:
        """The object `name` names (`OID`, `REV:PATH`, `OID^{commit}`), or None
        when there is none."""
        return self.lookup_many([name])[0]

    def lookup_many(self, names: Sequence[str]) -> list[GitObject | None]:
        """`lookup` of each name, in order: written to git up to _NAMES_BYTES at a
        time, then its answers read, instead of a round trip each (a range of a
        thousand folders asks for each one's .gitattributes). A write that size
        never waits: git has read every earlier name before answering it."""
        found: list[GitObject | None] = []
        start = 0
        while start < len(names):
            if _relative_path(names[start]):
                # `REV:../x` is read from the working directory, and git's batch stops
                # at one outside the repository: no file of the tree is there (a
                # review: an include climbing above the root ended the run, silently).
                found.append(None)
                start += 1
                continue
            if "\n" in names[start]:  # the batch reads one name a line
                found.append(self._lookup_alone(names[start]))
                start += 1
                continue
            lines: list[bytes] = []
            size = 0
            for name in names[start:]:
                if "\n" in name or size >= _NAMES_BYTES or _relative_path(name):
                    break
                lines.append(name.encode("utf-8", "surrogateescape") + b"\n")
                size += len(lines[-1])
            if self._git is None:
                self._git = _Process(self._repo, "cat-file", "--batch", stdin=True)
            stdin = self._git.process.stdin
            assert stdin is not None
            try:
                stdin.write(b"".join(lines))
                stdin.flush()
            except BrokenPipeError:
                raise self._stopped() from None
            found += [self._answer() for _ in lines]
            start += len(lines)
        return found

    def _answer(self) -> GitObject | None:
        assert self._git is not None
        line = self._git.stdout.readline()
        if not line:
            raise self._stopped()
        fields = line.split()
        if len(fields) != 3 or not fields[2].isdigit() or fields[1] not in _OBJECT_TYPES:
            return None  # "NAME missing", "NAME ambiguous"
        size = int(fields[2])
        data = self._git.stdout.read(size + 1)  # the content, then "\n"
        return GitObject(fields[0].decode("ascii"), fields[1].decode("ascii"), data[:size])

    def _stopped(self) -> UserError:
        """git's batch ended before it answered: why, as one line (found by an
        adversarial review: a partial clone's missing blob, which git may not fetch,
        stopped it, and the next question was an internal error)."""
        assert self._git is not None
        git, self._git = self._git, None
        try:
            git.finish(dict)
        except UserError as error:
            return UserError(
                error.message,
                status=Exit.RANGE,
                hint="a partial clone or a damaged mirror cannot be reviewed; fetch the range "
                "in full",
            )
        return UserError("git cat-file --batch ended before it answered", status=Exit.INTERNAL)

    def _lookup_alone(self, name: str) -> GitObject | None:
        found = self._repo._git(
            "rev-parse", "--verify", "--quiet", "--end-of-options", name, check=False
        )
        if found.returncode != 0:
            return None
        oid = found.stdout.decode("ascii").strip()
        typed = self._repo._git("cat-file", "-t", oid, check=False)
        if typed.returncode != 0:
            # Named but not here, as the batch answers "missing": a submodule's commit
            # (found by an adversarial review: one whose path holds a newline was an
            # error where `show` prints its note).
            return None
        kind = typed.stdout.decode("ascii").strip()
        return GitObject(oid, kind, self._repo._git("cat-file", kind, oid).stdout)

    def read(self, oid: str, kind: str, path: str = "") -> bytes:
        """The content of object `oid` of type `kind`; missing, it is an error
        naming `path` (issue 11)."""
        return self.read_many([oid], kind, [path])[0]

    def read_many(
        self, oids: Sequence[str], kind: str, paths: Sequence[str] | None = None
    ) -> list[bytes]:
        """`read` of each object, asked of git together."""
        contents: list[bytes] = []
        for index, found in enumerate(self.lookup_many(oids)):
            if found is None or found.kind != kind:
                raise missing_object(oids[index], paths[index] if paths else "")
            contents.append(found.data)
        return contents

    def close(self) -> None:
        if self._git is not None:
            self._git.close()
            self._git = None


_OBJECT_TYPES = frozenset({b"blob", b"tree", b"commit", b"tag"})


def _has_parents(commit: bytes) -> bool:
    """Whether a commit object's header names a parent (not its message: a review)."""
    header = commit.split(b"\n\n", 1)[0]
    return b"\nparent " in b"\n" + header


def _subject(commit: bytes) -> str:
    """The first line of a raw commit object's message, in its declared encoding."""
    headers, _, message = commit.partition(b"\n\n")
    encoding = "utf-8"
    for header in headers.split(b"\n"):
        if header.startswith(b"encoding "):
            encoding = header[9:].decode("ascii", "replace").strip()
    try:
        text = message.decode(encoding, "replace")
    except LookupError:  # an encoding Python does not know
        text = message.decode("utf-8", "replace")
    return text.lstrip("\n").split("\n", 1)[0].strip()


def _submodules(tree: bytes, id_size: int) -> set[bytes]:
    """The names of a raw tree object's submodules: its `MODE NAME\\0ID` records of
    mode 160000 (the ID `id_size` bytes)."""
    if b"160000 " not in tree:  # the common case: no submodule in the folder
        return set()
    return {name for mode, name in _tree_entries(tree, id_size) if mode == b"160000"}


def _tree_entries(tree: bytes, id_size: int) -> Iterator[tuple[bytes, bytes]]:
    """A raw tree object's entries, as their modes and names."""
    position = 0
    while position < len(tree):
        space = tree.find(b" ", position)
        end = tree.find(b"\0", space)
        if space < 0 or end < 0:
            break
        yield tree[position:space], tree[space + 1 : end]
        position = end + 1 + id_size


class TreeReader:
    """Read access to one commit's tree (the analyzers' HeadTree): files are read
    from git objects, so checks work in bare repositories and in CI alike."""

    def __init__(self, repo: Repository, commit: str) -> None:
        self._repo = repo
        self._commit = commit
        self._objects = repo.objects()
        # The listing: each path's blob id (raw bytes; empty for a submodule's commit).
        self._entries: dict[str, bytes] | None = None
        # Path -> its object type (or None): link checks ask about the same paths.
        self._types: dict[str, str | None] = {}
        self._oids: dict[str, str | None] = {}
        self._submodules: dict[str, set[bytes]] = {}  # folder -> its submodules' names
        self._ahead: Search | None = None
        self.pages: PageIndex | None = None  # the pages' index, where the cache keeps one
        self._read_by_path = 0  # files found by their paths: past a few, the tree is listed
        # Files the search by reading found, kept for the read that follows it.
        self._found: dict[str, bytes] = {}

    def _lookup(self, path: str) -> GitObject | None:
        path = path.strip("/")
        found = self._objects.lookup(f"{self._commit}:{path}")
        kind = None if found is None else found.kind
        if found is None and self._is_gitlink(path):
            kind = "commit"  # a submodule: its commit is in another repository
        self._types[path] = kind
        self._oids[path] = None if found is None else found.oid
        return found

    def _is_gitlink(self, path: str) -> bool:
        """Whether `path` names a submodule: an entry of mode 160000 in its folder's
        tree (its commit is in another repository). Each folder's tree is read once,
        through the batch process (a `git rev-parse` a missing link target cost 4 ms)."""
        folder, _, name = path.rpartition("/")
        if folder not in self._submodules:
            tree = self._objects.lookup(f"{self._commit}:{folder}")
            names: set[bytes] = set()
            if tree is not None and tree.kind == "tree":
                # The tree's own id says how long the ids in it are (SHA-1 or SHA-256).
                names = _submodules(tree.data, len(tree.oid) // 2)
            self._submodules[folder] = names
        return name.encode("utf-8", "surrogateescape") in self._submodules[folder]

    def names_in(self, folders: Sequence[str], among: Iterable[str]) -> dict[str, frozenset[str]]:
        """Which of the names `among` each folder holds ("" for the root; none for a
        folder the tree has not), each folder's tree read once, together, and looked
        into for the names (`MODE NAME\\0` records) rather than listed: a folder of
        thousands of pages is searched in C."""
        wanted = {name: b" " + name.encode("utf-8", "surrogateescape") + b"\0" for name in among}
        found = self._objects.lookup_many([f"{self._commit}:{folder}" for folder in folders])
        return {
            folder: frozenset(name for name, record in wanted.items() if record in tree.data)
            if tree is not None and tree.kind == "tree"
            else frozenset()
            for folder, tree in zip(folders, found, strict=True)
        }

    def _entry_type(self, path: str) -> str | None:
        path = path.strip("/")
        if path not in self._types:
            self._lookup(path)
        return self._types[path]

    def read(self, path: str) -> bytes | None:
        return self.read_many([path])[0]

    def read_many(self, paths: Sequence[str]) -> list[bytes | None]:
        """The content of each file (None: no such file), asked of git together.
        Not _lookup: whether a missing file is a submodule does not matter here, and
        asking costs a process (a range reads each folder's .gitattributes)."""
        read: dict[str, bytes | None] = {
            path: self._found.pop(path) for path in paths if path in self._found
        }
        asked = [path for path in paths if path not in read]
        if self._read_by_path >= PATHS_BEFORE_LISTING:
            self._listing()
        names = self._names(asked)
        wanted = [(path, name) for path, name in zip(asked, names, strict=True) if name]
        found = self._objects.lookup_many([name for _, name in wanted])
        read.update(dict.fromkeys(asked))  # none: not a file of the tree
        for (path, _), one in zip(wanted, found, strict=True):
            read[path] = one.data if one is not None and one.kind == "blob" else None
        if self._entries is None:  # files found by path (a missing one is found fast)
            self._read_by_path += sum(read[path] is not None for path in asked)
        return [read[path] for path in paths]

    def _names(self, paths: Sequence[str]) -> list[str | None]:
        """What git is asked for each file: its blob's id once the tree was listed (git
        finds an id six times faster than a path, folder by folder), None for a path
        the listing holds no file at; else the path."""
        if self._entries is None:
            return [f"{self._commit}:{path.strip('/')}" for path in paths]
        found = (self._entries.get(path.strip("/")) for path in paths)
        return [oid.hex() if oid else None for oid in found]

    def oid(self, path: str) -> str | None:
        path = path.strip("/")
        if path not in self._oids:
            self._lookup(path)
        return self._oids[path]

    def is_submodule(self, path: str) -> bool:
        return self._entry_type(path) == "commit"

    def is_file(self, path: str) -> bool:
        return self._entry_type(path) == "blob"

    def is_dir(self, path: str) -> bool:
        return self._entry_type(path) == "tree"

    def files(self, suffixes: tuple[str, ...] = ()) -> tuple[str, ...]:
        paths = tuple(self._listing())
        return tuple(path for path in paths if path.endswith(suffixes)) if suffixes else paths

    def _listing(self) -> dict[str, bytes]:
        """Every entry of the tree, listed once: its path, and its blob's id as raw
        bytes (empty for a submodule's commit). Kept for the rest of the run, so kept
        small: a tree of 38,000 files is 8 MB as tuples of text, 4 MB this way."""
        if self._entries is None:
            output = self._repo._git("ls-tree", "-r", "-z", self._commit).stdout
            self._entries = {}
            for record in output.split(b"\0"):
                meta, _, name = record.partition(b"\t")
                fields = meta.split()
                if len(fields) == 3:
                    oid = bytes.fromhex(fields[2].decode("ascii")) if fields[1] == b"blob" else b""
                    self._entries[path_text(name)] = oid
        return self._entries

    def exists(self, path: str) -> bool:
        return self._entry_type(path) is not None

    def search(self, literals: tuple[str, ...], suffixes: tuple[str, ...]) -> Search:
        """`files_holding`, started now, for its result to be read later (`Search`)."""
        return Search(self._repo, self._commit, literals, suffixes)

    def search_ahead(self, literals: tuple[str, ...], suffixes: tuple[str, ...]) -> None:
        """Start the search `files_holding` will most likely be asked for; `close`
        stops it if it was not. Too many literals for git grep are looked for when
        asked."""
        if len(literals) <= GREP_LITERALS:
            self._ahead = Search(self._repo, self._commit, literals, suffixes)

    def close(self) -> None:
        if self._ahead is not None:
            self._ahead.close()
            self._ahead = None

    def macros(self) -> frozenset[str]:
        options = ["-h", "-o", "-a", "-E", "-e", _MACRO]
        found = _grep_output(_grep(self._repo, self._commit, options, _HEADERS))
        return frozenset(_MACRO_NAME.findall(found.decode("utf-8", "replace")))

    def files_holding(
        self,
        literals: tuple[str, ...],
        suffixes: tuple[str, ...],
        meanwhile: Callable[[], object] | None = None,
    ) -> tuple[str, ...]:
        if self.pages is not None:
            indexed = self.pages.holding(literals, suffixes, meanwhile)
            if indexed is not None:
                return indexed
        found: tuple[str, ...] = ()
        wanted = literals
        ahead = self._ahead
        if ahead is not None and ahead.suffixes == suffixes:
            # What it found for other literals too is more files to read, never fewer.
            found = ahead.result(meanwhile)
            wanted = tuple(literal for literal in literals if literal not in ahead.literals)
        if len(wanted) > GREP_LITERALS:
            found = (*found, *self._files_read_holding(wanted, suffixes))
        elif wanted:
            search = Search(self._repo, self._commit, wanted, suffixes)
            found = (*found, *search.result(meanwhile))
        return tuple(dict.fromkeys(found))

    def _files_read_holding(
        self, literals: tuple[str, ...], suffixes: tuple[str, ...]
    ) -> list[str]:
        """`files_holding` by reading every file with one of `suffixes` (in any case),
        a thousand at a time through the batch process: git grep tries each literal
        on its own, so hundreds of them cost seconds where reading costs a fraction."""
        wanted = [
            (oid.hex(), path)
            for path, oid in self._listing().items()
            if oid and path.lower().endswith(suffixes)
        ]
        holds = literal_finder(literals)
        found: list[str] = []
        for start in range(0, len(wanted), _FILES_AT_ONCE):
            chunk = wanted[start : start + _FILES_AT_ONCE]
            objects = self._objects.lookup_many([oid for oid, _ in chunk])
            for (_, path), blob in zip(chunk, objects, strict=True):
                if blob is not None and holds(blob.data):
                    found.append(path)
                    self._found[path] = blob.data  # read next: not asked of git twice
        return found


# A function-like macro's definition, and the headers that share them between files
# (one a .c file defines is its own: its text shows it). Git's 330 headers: 0.14 s.
# Any macro: a name defined as another (`#define show dbg_expr`) called with
# arguments is that one's call (found by an adversarial review).
# `%:` is the digraph of `#`, and a comment may stand where a space does
# (`#/**/define`, `#define/**/show`): found by an adversarial review.
_C_SPACE = r"([[:space:]]|/\*([^*]|\*+[^*/])*\*+/)"
# A `#define \` whose name is on the next line (found by an adversarial review) is
# found as `\` (model.ANY_MACRO).
_MACRO = (
    rf"^[[:space:]]*(#|%:){_C_SPACE}*define"
    rf"({_C_SPACE}+[A-Za-z_][A-Za-z0-9_]*|{_C_SPACE}*\\[[:space:]]*$)"
)
_MACRO_NAME = lazy_compile(r"define(?:\s|/\*(?:[^*]|\*+[^*/])*\*+/)*(\w+|\\)")
_HEADERS = (".h", ".hh", ".hpp", ".hxx", ".h++", ".inl", ".ipp", ".tcc", ".tpp", ".inc", ".def")

# More literals than this are looked for by reading the files instead of git grep,
# which tries each literal on its own: over 4,000 pages, 100 names took it 0.4 s,
# 700 names 2.8 s.
GREP_LITERALS = 64
_FILES_AT_ONCE = 1000  # files read together when the search reads them
# Files found by path before the tree is listed and the rest asked by blob id: git
# finds a file's path folder by folder (0.5 ms each in a tree of 4,000 pages;
# listing it took 10 ms), and a range that loses pages may read thousands that name
# them. A missing file is found missing fast (0.13 ms for each of 260 absent
# .gitattributes in tldr's tree, whose listing takes 0.15 s): it does not count.
PATHS_BEFORE_LISTING = 128


def literal_finder(literals: Sequence[str]) -> Callable[[bytes], bool]:
    """Whether a file's bytes hold one of `literals` (UTF-8, as git grep reads
    them), in one pass of one pattern: the literals as a tree of their common
    beginnings (`mod0(?:0160|2280)`), which the regular expression engine walks
    in C from each place the first bytes could start one. Looking for each
    literal's last bytes on their own read a file once per distinct ending: the
    release range's 448 lost modules took 2.6 s over 2,712 files, 12 ms this way."""
    tree: _Tree = {}  # byte -> the tree after it; _END where a literal ends
    longer: list[bytes] = []  # deeper than the tree goes: looked for one by one
    for literal in {literal.encode("utf-8", "surrogateescape") for literal in literals}:
        if not literal:
            continue
        if len(literal) > _TREE_DEPTH:
            longer.append(literal)
            continue
        node = tree
        for byte in literal:
            if _END in node:
                break  # a shorter literal ends here: any longer one holds it
            node = node.setdefault(byte, {})
        else:
            node[_END] = {}  # longer literals beyond it are left out: this one suffices
    pattern = re.compile(_alternatives(tree)) if tree else None
    return lambda data: (
        (pattern is not None and pattern.search(data) is not None)
        or any(literal in data for literal in longer)
    )


_END = -1  # no byte: marks the end of a literal in literal_finder's tree
# The longest literal put in the tree: each of its bytes may open a group, and a
# pattern nested a thousand deep is more than Python compiles (a path in the range
# is anyone's to choose).
_TREE_DEPTH = 256
_Tree: TypeAlias = "dict[int, _Tree]"


def _alternatives(node: _Tree) -> bytes:
    """The pattern of the literals in `node`'s tree, after what led to it."""
    if _END in node:
        return b""
    branches = [re.escape(bytes([byte])) + _alternatives(node[byte]) for byte in sorted(node)]
    return branches[0] if len(branches) == 1 else b"(?:" + b"|".join(branches) + b")"


def files_holding(
    repo: Repository, treeish: str, literals: tuple[str, ...], suffixes: tuple[str, ...]
) -> tuple[str, ...]:
    """The files of `treeish` whose name ends with one of `suffixes` (in any case) and
    whose content holds one of `literals`, byte for byte: `git grep -F` searches every
    file in C, so a caller reads only the few that can matter (issue 12). A literal
    with a line break is searched as its lines, which admits more files, never fewer."""
    return Search(repo, treeish, literals, suffixes).result()


def _pathspecs(suffixes: tuple[str, ...]) -> list[str]:
    return [f":(icase)*{suffix}" for suffix in suffixes]


def _grep(
    repo: Repository, treeish: str, options: list[str], suffixes: tuple[str, ...]
) -> subprocess.Popen[bytes]:
    """`git grep OPTIONS TREEISH` over the files whose name ends with one of
    `suffixes` (in any case), started. Colour, submodules and the pattern syntax are
    set here, not by the user's config, and patterns match bytes, whatever the
    locale (a Perl pattern in a UTF-8 locale would fold case past ASCII and stop at
    a page that is not UTF-8). One thread: searching objects, git's threads wait on
    one lock and cost twice the time (40,000 pages: 0.09 s against 0.2 s), on a
    core the analysis needs."""
    options = ["--no-color", "--no-recurse-submodules", "--threads=1", *options]
    return subprocess.Popen(
        isolated_command(repo, "grep", *options, treeish, "--", *_pathspecs(suffixes)),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**isolated_env(repo.git_dir), "LC_ALL": "C"},
        cwd=repo.git_dir,  # paths from the top, whatever core.worktree says
    )


def _grep_output(process: subprocess.Popen[bytes]) -> bytes:
    """What a search started by `_grep` found (nothing: status 1), once it ends."""
    stdout, stderr = process.communicate()
    if process.returncode not in (0, 1):
        message = stderr.decode("utf-8", "replace").strip().splitlines()
        failure = message[-1] if message else process.returncode
        raise UserError(f"git grep failed: {failure}", status=Exit.RANGE)
    return stdout


class Search:
    """`files_holding`, started at once and read when asked: git searches on another
    core while the range is analyzed."""

    def __init__(
        self, repo: Repository, treeish: str, literals: tuple[str, ...], suffixes: tuple[str, ...]
    ) -> None:
        self.literals = frozenset(literals)
        self.suffixes = suffixes
        self._treeish = treeish
        self._found: tuple[str, ...] | None = None
        self._process: subprocess.Popen[bytes] | None = None
        patterns = "".join(f"{literal}\n" for literal in literals)
        if not patterns:
            self._found = ()
            return
        self._process = _grep(repo, treeish, ["-l", "-z", "-F", "-f", "-"], suffixes)
        assert self._process.stdin is not None
        # git reads every pattern before it searches: this never waits on its output.
        self._process.stdin.write(patterns.encode("utf-8", "surrogateescape"))
        self._process.stdin.close()
        self._process.stdin = None  # communicate() has nothing more to send

    def result(self, meanwhile: Callable[[], object] | None = None) -> tuple[str, ...]:
        """The files found; `meanwhile` is done first if git is still searching."""
        if self._found is None:
            assert self._process is not None
            if meanwhile is not None and self._process.poll() is None:
                meanwhile()
            stdout = _grep_output(self._process)
            prefix = f"{self._treeish}:".encode()
            names = stdout.split(b"\0")
            self._found = tuple(path_text(name.removeprefix(prefix)) for name in names if name)
        return self._found

    def close(self) -> None:
        """Stop the search if nobody asked for its result."""
        if self._process is not None and self._found is None:
            self._process.kill()
            self._process.communicate()


class NameRuns:
    """The runs of name characters each file of `treeish` whose name ends with one of
    `suffixes` holds where `pattern` (pages.NAME_RUN) finds them (`git grep -o -P`),
    as (path, run) pairs; started at once and read when asked, as Search is: what
    the pages' index is made of (page_index.py), at about a search's cost."""

    def __init__(
        self, repo: Repository, treeish: str, pattern: str, suffixes: tuple[str, ...]
    ) -> None:
        self._treeish = treeish
        # -a: a page git takes for binary is read as text all the same.
        options = ["-z", "-o", "-a", "-P", "-e", pattern]
        self._process: subprocess.Popen[bytes] | None = _grep(repo, treeish, options, suffixes)
        assert self._process.stdin is not None
        self._process.stdin.close()
        self._process.stdin = None
        self._found: list[tuple[str, str]] | None = None

    def result(self, meanwhile: Callable[[], object] | None = None) -> list[tuple[str, str]] | None:
        """The (path, run) pairs; None when git could not find them (a git built
        without Perl-compatible regular expressions). `meanwhile` as in Search.result."""
        if self._process is not None:
            if meanwhile is not None and self._process.poll() is None:
                meanwhile()
            stdout, _ = self._process.communicate()
            status, self._process = self._process.returncode, None
            if status in (0, 1):  # 1: no file holds a run
                self._found = _runs_found(stdout, self._treeish)
        return self._found

    def close(self) -> None:
        if self._process is not None:
            self._process.kill()
            self._process.communicate()
            self._process = None


def _runs_found(output: bytes, treeish: str) -> list[tuple[str, str]]:
    """`git grep -z -o`'s records, `TREEISH:PATH NUL RUN LF`, as (path, run) pairs.
    A run holds no line break and no NUL (a path may hold a line break), and no byte
    of either is part of a character: the output is decoded whole, as `path_text`
    decodes a path, and its records read by one expression (40,000 in 0.03 s)."""
    record = re.compile(re.escape(f"{treeish}:") + "([^\0]*)\0([^\n]*)\n")
    return record.findall(output.decode("utf-8", "backslashreplace"))


_WHERE_AND_WHAT = (
    "--absolute-git-dir",
    "--is-shallow-repository",
    "--is-bare-repository",
    "--path-format=absolute",
    "--git-common-dir",
    "--show-object-format",
)


def open_repository(path: str | os.PathLike[str] | Repository | None) -> Repository:
    """Open the repository containing `path` (default: the current folder, or the
    one git names: `git --git-dir=X review-manifest` passes X on as GIT_DIR, as it
    does to any subcommand, and a hook's GIT_DIR names its own repository). A
    repository already opened is itself."""
    if isinstance(path, Repository):
        return path
    start = os.path.abspath(path or os.getcwd())
    if not os.path.isdir(start):
        raise UserError(f"not a git repository: {start} (no such folder)", status=Exit.RANGE)
    env = no_git_env()
    named = os.environ.get("GIT_DIR") if path is None else None
    if named:
        env["GIT_DIR"] = named
        if "GIT_WORK_TREE" in os.environ:
            env["GIT_WORK_TREE"] = os.environ["GIT_WORK_TREE"]
    result = subprocess.run(
        ("git", "rev-parse", *_WHERE_AND_WHAT),
        capture_output=True,
        env=env,
        cwd=start,
        check=False,
    )
    if result.returncode != 0:
        lines = result.stderr.decode("utf-8", "replace").strip().splitlines()
        # git's reason is its "fatal:" line; "dubious ownership" adds advice after it.
        fatal = [line.removeprefix("fatal: ") for line in lines if line.startswith("fatal: ")]
        if named and (not fatal or "not a git repository" in fatal[0]):
            raise UserError(
                f"not a git repository: {named} (GIT_DIR)",
                status=Exit.RANGE,
                hint="check git's --git-dir, or pass --repo PATH",
            )
        if not fatal or "not a git repository" in fatal[0]:
            raise UserError(
                f"not a git repository (or any parent up to the root): {start}",
                status=Exit.RANGE,
                hint="run inside a repository or pass --repo PATH",
            )
        raise UserError(f"cannot open repository {start}: {fatal[0]}", status=Exit.RANGE)
    where = result.stdout.decode("utf-8", "surrogateescape").splitlines()
    git_dir, shallow, bare, common_dir, object_format = where
    work_tree = None
    if bare != "true":
        top = subprocess.run(
            ("git", "rev-parse", "--show-toplevel"),
            capture_output=True,
            env=env,
            cwd=start,
            check=False,
        )
        work_tree = top.stdout.decode("utf-8", "surrogateescape").strip() or None
    shallow_clone = shallow == "true"
    return Repository(
        git_dir,
        work_tree=work_tree,
        shallow=shallow_clone,
        common_dir=common_dir,
        empty_tree=SHA256_EMPTY_TREE if object_format == "sha256" else EMPTY_TREE,
    )
