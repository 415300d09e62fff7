"""Every call into pygit2 or the git binary. Returns plain records.

The repository path is always explicit: inside hooks git exports GIT_DIR,
GIT_INDEX_FILE and friends, which would silently point subprocesses at another
repository (pre-commit's `no_git_env` works around the same trap). Nothing
here writes to the working tree or the object database.
"""

from __future__ import annotations

import io
import os
import re
import subprocess
from collections.abc import Generator, Iterator, Mapping
from typing import TYPE_CHECKING, cast

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
from gitreview.model import EMPTY_TREE, Commit, Hunk, Line, Origin

if TYPE_CHECKING:
    import pygit2

# Variables git itself needs to run; every other GIT_* variable is dropped.
_KEPT_GIT_VARIABLES = frozenset(
    {
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


def no_git_env() -> dict[str, str]:
    """The process environment without the GIT_* variables a hook inherits."""
    return {
        key: value
        for key, value in os.environ.items()
        if not key.startswith("GIT_")
        or key in _KEPT_GIT_VARIABLES
        or key.startswith(("GIT_CONFIG_KEY_", "GIT_CONFIG_VALUE_"))
    }


class Repository:
    """A git repository opened by path, read only."""

    def __init__(self, handle: pygit2.Repository) -> None:
        self._repo = handle
        self.git_dir = handle.path.rstrip("/")

    # -- running git ---------------------------------------------------------

    def _git(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[bytes]:
        result = subprocess.run(
            ("git", "--git-dir", self.git_dir, *args),
            capture_output=True,
            env=no_git_env(),
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
        return bool(self._repo.is_shallow)

    def resolve_commit(self, rev: str) -> str | None:
        """The full id of the commit `rev` names, with git's own revision syntax."""
        import pygit2

        # No `^{commit}` suffix on the revision: `:/message` would swallow it.
        result = self._git("rev-parse", "--verify", "--quiet", "--end-of-options", rev, check=False)
        if result.returncode != 0:
            return None
        try:
            commit = self._repo[result.stdout.decode("ascii").strip()].peel(pygit2.Commit)
        except (KeyError, ValueError, pygit2.GitError):
            return None  # names a tree or a blob: not a commit
        return str(commit.id)

    def merge_base(self, one: str, two: str) -> str | None:
        result = self._git("merge-base", one, two, check=False)
        if result.returncode != 0:
            return None
        return result.stdout.decode("ascii").strip()

    def first_parent(self, sha: str) -> str | None:
        import pygit2

        commit = self._repo[sha].peel(pygit2.Commit)
        parents = commit.parent_ids
        return str(parents[0]) if parents else None

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

    def new_commits(self, head: str, remote: str) -> list[str]:
        """Commits reachable from head and from no remote-tracking ref of `remote`
        (of any remote when it is not a configured name), oldest first."""
        remotes = self._git("remote", check=False).stdout.decode("utf-8", "replace").split()
        scope = f"--remotes={remote}" if remote in remotes else "--remotes"
        output = self._git("rev-list", "--topo-order", "--reverse", head, "--not", scope)
        return output.stdout.decode("ascii").split()

    def hooks_dir(self) -> str:
        """Where git looks for hooks: core.hooksPath (relative to the work tree) or
        $GIT_DIR/hooks."""
        result = self._git("config", "--path", "--get", "core.hooksPath", check=False)
        configured = result.stdout.decode("utf-8", "replace").strip()
        if not configured:
            return os.path.join(self.git_dir, "hooks")
        if os.path.isabs(configured):
            return configured
        root = self._repo.workdir or self.git_dir
        return os.path.normpath(os.path.join(root, configured))

    def commits(self, base: str | None, head: str) -> tuple[Commit, ...]:
        """Commits reachable from head and not from base, oldest first."""
        import pygit2
        from pygit2.enums import SortMode

        walker = self._repo.walk(pygit2.Oid(hex=head), SortMode.TOPOLOGICAL | SortMode.REVERSE)
        if base is not None:
            walker.hide(pygit2.Oid(hex=base))
        found: list[Commit] = []
        for commit in walker:
            subject = commit.message.split("\n", 1)[0].strip()
            found.append(Commit(sha=str(commit.id), subject=subject))
        return tuple(found)

    # -- trees and blobs -----------------------------------------------------

    def diff(self, base: str | None, head: str) -> DiffStream:
        """The range's file pairs and hunks, as `git diff -M` pairs and cuts them,
        from one git process read as it runs (issue 12)."""
        return DiffStream(self, base, head)

    def copies(self, base: str | None, head: str) -> Copies:
        """Copy pairs of the range (`git diff-tree -M -C`), started at once so git
        finds them while the caller reads the diff."""
        return Copies(self, base, head)

    def blobs(self) -> BlobReader:
        """One long-lived `git cat-file --batch`: blobs without a process each, and
        without mapping the packs into this process (issue 12)."""
        return BlobReader(self)

    def blob_hunks(self, old_oid: str, new_oid: str, *, path: str) -> tuple[Hunk, ...]:
        """git's hunks between two blobs, as text, with the stream's options: for a
        copy, and for a file git's attributes call binary that is text to us."""
        result = self._isolated(
            "diff", *_PATCH_OPTIONS, "--text", "--diff-algorithm=myers", old_oid, new_oid
        )
        if result.returncode not in (0, 1):
            raise self.object_error(result.stderr, {old_oid: path, new_oid: path})
        blocks = list(split_blocks(result.stdout.split(b"\n")))
        return parse_block(blocks[0]).hunks if blocks else ()

    def _isolated(self, *args: str) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run(
            isolated_command(self.git_dir, *args),
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

    def blob_by_prefix(self, prefix: str) -> bytes | None:
        """The content of the blob a (possibly abbreviated) id names, or None."""
        import pygit2

        try:
            obj = self._repo.revparse_single(prefix)
        except (KeyError, ValueError, pygit2.GitError):
            return None
        if not isinstance(obj, pygit2.Blob):
            return None
        return bytes(obj.data)


# The options of every patch gitreview reads, spelled out so no configuration
# changes the hunks: git's defaults, with its indent heuristic (issue 2).
_PATCH_OPTIONS = (
    "--full-index",
    "--indent-heuristic",
    "--no-ext-diff",
    "--no-textconv",
    "--no-color",
    "--unified=3",
    "--inter-hunk-context=0",
)
_ZERO_OID = "0" * 40
_OBJECT_ID = re.compile(r"\b[0-9a-f]{40}(?:[0-9a-f]{24})?\b")


def missing_object(oid: str, path: str) -> UserError:
    """A blob the range needs is not in the object database (issue 11)."""
    return UserError(
        f"{path or 'a file of the range'}: blob {oid[:12]} is missing from the repository",
        status=Exit.RANGE,
        hint="a partial clone or a damaged mirror cannot be reviewed; fetch the range in full",
    )


def isolated_command(git_dir: str, *args: str) -> tuple[str, ...]:
    """A git command that reads git objects only: no user or system attributes."""
    return ("git", "--git-dir", git_dir, "-c", "core.attributesFile=/dev/null", *args)


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
    a chatty git can never block on a full pipe."""

    def __init__(self, repo: Repository, *args: str, stdin: bool = False) -> None:
        import threading

        self._repo = repo
        self.process = subprocess.Popen(
            isolated_command(repo.git_dir, *args),
            stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=isolated_env(repo.git_dir),
            cwd=repo.git_dir,
        )
        self.stdout = cast(io.BufferedReader, self.process.stdout)
        self._stderr = b""
        self._drain = threading.Thread(target=self._read_stderr, daemon=True)
        self._drain.start()

    def _read_stderr(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self._stderr = (self._stderr + line)[-65536:]

    def finish(self, paths: Mapping[str, str]) -> None:
        """Wait for git; its failure becomes one line naming the path it could not read."""
        status = self.process.wait()
        try:
            if status != 0:
                self._drain.join()
                raise self._repo.object_error(self._stderr, paths)
        finally:
            self.close()

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self._drain.join()
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            if stream is not None:
                stream.close()


class DiffStream:
    """`git diff-tree -r -z --raw -p -M` of a range: the pairs, then one patch
    block per pair, read as git writes them so git works on another core."""

    def __init__(self, repo: Repository, base: str | None, head: str) -> None:
        self._repo = repo
        self._base, self._head = base or EMPTY_TREE, head
        self._git = _Process(
            repo, "diff-tree", "-r", "-z", "--raw", "-p", "-M", *_PATCH_OPTIONS, self._base, head
        )
        self.raw, self._rest = self._read_raw()

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
            self._git.finish(self._oids_of([]))
            return [], b""
        end = data.find(b"\0\0")
        if end < 0:
            # git stopped before the end of the records: it could not read a blob.
            self._git.finish(self._oids_of([]))
            raise UserError("git diff-tree stopped without an error", status=Exit.RANGE)
        return parse_raw_fields(data[: end + 1].split(b"\0")), data[end + 2 :]

    def blocks(self) -> Generator[PatchBlock]:
        """The patch blocks, in the order of `raw` (a type change has two)."""
        if not self.raw:
            return
        try:
            for block in split_blocks(self._lines()):
                yield parse_block(block)
            self._git.finish(self._oids_of(self.raw))
        finally:
            self._git.close()

    def close(self) -> None:
        self._git.close()

    def _lines(self) -> Iterator[bytes]:
        parts = self._rest.split(b"\n")
        self._rest = b""
        tail = parts.pop()
        yield from parts
        first = tail + self._git.stdout.readline()
        if not first:
            return
        yield first[:-1] if first.endswith(b"\n") else first
        for line in self._git.stdout:
            yield line[:-1] if line.endswith(b"\n") else line

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


class Copies:
    """The copies `git diff-tree -M -C` finds, by their new path; its process
    starts at once and is read when asked."""

    def __init__(self, repo: Repository, base: str | None, head: str) -> None:
        self._git = _Process(
            repo, "diff-tree", "-r", "-z", "--raw", "-M", "-C", base or EMPTY_TREE, head
        )

    def by_path(self, paths: Mapping[str, str]) -> dict[str, RawChange]:
        """`paths` (object id -> path) names the file of a blob git could not read."""
        try:
            records = parse_raw_diff(self._git.stdout.read())
            self._git.finish(paths)
        finally:
            self._git.close()
        return {change.new_path: change for change in records if change.status == "C"}

    def close(self) -> None:
        self._git.close()


class BlobReader:
    """Blob contents from one `git cat-file --batch` process."""

    def __init__(self, repo: Repository) -> None:
        self._git = _Process(repo, "cat-file", "--batch", stdin=True)

    def read(self, oid: str, path: str) -> bytes:
        stdin = self._git.process.stdin
        assert stdin is not None
        stdin.write(oid.encode("ascii") + b"\n")
        stdin.flush()
        header = self._git.stdout.readline()
        fields = header.split()
        if len(fields) != 3 or fields[1] != b"blob":
            self.close()
            raise missing_object(oid, path)
        size = int(fields[2])
        data = self._git.stdout.read(size + 1)  # the content, then "\n"
        return data[:size]

    def close(self) -> None:
        self._git.close()


class TreeReader:
    """Read access to one commit's tree (the analyzers' HeadTree): files are read
    from git objects, so checks work in bare repositories and in CI alike."""

    def __init__(self, repo: Repository, commit: str) -> None:
        import pygit2

        self._repo = repo
        self._tree = repo._repo[commit].peel(pygit2.Tree)
        self._files: tuple[str, ...] | None = None
        # Folder path -> its tree: `tree["a/b/c"]` re-reads every folder on the way,
        # and link checks ask about many paths in the same folders.
        self._folders: dict[str, pygit2.Tree | None] = {"": self._tree}

    def _folder(self, path: str) -> pygit2.Tree | None:
        import pygit2

        if path not in self._folders:
            parent, _, name = path.rpartition("/")
            above = self._folder(parent)
            found = None
            if above is not None and name in above:
                entry = above[name]
                found = entry if isinstance(entry, pygit2.Tree) else None
            self._folders[path] = found
        return self._folders[path]

    def _entry(self, path: str) -> pygit2.Object | None:
        path = path.strip("/")
        if not path:
            return self._tree
        parent, _, name = path.rpartition("/")
        folder = self._folder(parent)
        if folder is None or name not in folder:
            return None
        return folder[name]

    def _entry_type(self, path: str) -> str | None:
        entry = self._entry(path)
        return None if entry is None else str(entry.type_str)

    def read(self, path: str) -> bytes | None:
        entry = self._entry(path)
        if entry is None or entry.type_str != "blob":
            return None
        _, data = self._repo._repo.odb.read(entry.id)
        return bytes(data)

    def is_file(self, path: str) -> bool:
        return self._entry_type(path) == "blob"

    def is_dir(self, path: str) -> bool:
        return self._entry_type(path) == "tree"

    def files(self, suffixes: tuple[str, ...] = ()) -> tuple[str, ...]:
        if self._files is None:
            output = self._repo._git("ls-tree", "-r", "-z", "--name-only", str(self._tree.id))
            names = output.stdout.split(b"\0")
            self._files = tuple(path_text(name) for name in names if name)
        if not suffixes:
            return self._files
        return tuple(path for path in self._files if path.endswith(suffixes))


def open_repository(path: str | None) -> Repository:
    """Open the repository containing `path` (default: the current folder)."""
    import pygit2

    start = os.path.abspath(path or os.getcwd())
    if not os.path.isdir(start):
        raise UserError(f"not a git repository: {start} (no such folder)", status=Exit.RANGE)
    found = pygit2.discover_repository(start)
    if found is None:
        raise UserError(
            f"not a git repository (or any parent up to the root): {start}",
            status=Exit.RANGE,
            hint="run inside a repository or pass --repo PATH",
        )
    try:
        return Repository(pygit2.Repository(found))
    except pygit2.GitError as error:
        raise UserError(f"cannot open repository {found}: {error}", status=Exit.RANGE) from None


def diff_hunks(old: bytes | None, new: bytes | None, *, context: int = 3) -> tuple[Hunk, ...]:
    """The hunks of a text diff between two contents, as git would cut them.

    Binary detection is the caller's (git's rule, not libgit2's), so FORCE_TEXT.
    """
    import pygit2
    from pygit2.enums import DiffOption

    patch = pygit2.Patch.create_from(
        old,
        new,
        flag=DiffOption.INDENT_HEURISTIC | DiffOption.FORCE_TEXT,
        context_lines=context,
        interhunk_lines=0,
    )
    return tuple(_hunk(hunk) for hunk in patch.hunks)


def _hunk(hunk: pygit2.DiffHunk) -> Hunk:
    lines: list[Line] = []
    for line in hunk.lines:
        if line.origin in "=<>":
            # "\ No newline at end of file" belongs to the line just before it.
            lines[-1] = lines[-1]._replace(newline=False)
            continue
        raw = line.raw_content
        if raw.endswith(b"\n"):
            raw = raw[:-1]
        lines.append(
            Line(
                origin=cast(Origin, line.origin),
                old_no=line.old_lineno if line.old_lineno > 0 else None,
                new_no=line.new_lineno if line.new_lineno > 0 else None,
                text=raw.decode("utf-8", "replace"),
            )
        )
    return Hunk(
        old_start=hunk.old_start,
        old_count=hunk.old_lines,
        new_start=hunk.new_start,
        new_count=hunk.new_lines,
        lines=tuple(lines),
    )
