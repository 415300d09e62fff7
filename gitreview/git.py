"""Every call into pygit2 or the git binary. Returns plain records.

The repository path is always explicit: inside hooks git exports GIT_DIR,
GIT_INDEX_FILE and friends, which would silently point subprocesses at another
repository (pre-commit's `no_git_env` works around the same trap). Nothing
here writes to the working tree or the object database.
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from gitreview.errors import Exit, UserError
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


@dataclass(frozen=True)
class RawChange:
    """One record of `git diff-tree --raw`: a file pair and its status letter."""

    status: str  # A, M, D, R, C, T
    score: int | None
    old_mode: int
    new_mode: int
    old_oid: str
    new_oid: str
    old_path: str
    new_path: str


_ZERO_OID = "0" * 40


def path_text(raw: bytes) -> str:
    """A path as text. git paths are bytes; one that is not UTF-8 keeps its odd
    bytes as `\\xe9` escapes, so the manifest stays valid UTF-8 JSON."""
    return raw.decode("utf-8", "backslashreplace")


def parse_raw_diff(output: bytes) -> list[RawChange]:
    """Parse NUL-separated `git diff-tree -r -z --raw` output."""
    fields = output.split(b"\0")
    changes: list[RawChange] = []
    i = 0
    while i < len(fields) and fields[i]:
        meta = fields[i].decode("ascii").lstrip(":").split(" ")
        old_mode, new_mode, old_oid, new_oid, status = meta
        letter, score = status[0], (int(status[1:]) if len(status) > 1 else None)
        old_path = path_text(fields[i + 1])
        if letter in "RC":
            new_path = path_text(fields[i + 2])
            i += 3
        else:
            new_path = old_path
            i += 2
        changes.append(
            RawChange(
                status=letter,
                score=score,
                old_mode=int(old_mode, 8),
                new_mode=int(new_mode, 8),
                old_oid=old_oid,
                new_oid=new_oid,
                old_path=old_path,
                new_path=new_path,
            )
        )
    return changes


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

    def raw_diff(self, base: str | None, head: str, *, copies: bool) -> list[RawChange]:
        """File pairs between two commits, as `git diff -M` pairs them.

        The pairs come from git itself: libgit2's find_similar pairs some
        files differently from git and is slower on large ranges (issue #2).
        """
        args = ["diff-tree", "-r", "-z", "--raw", "--no-commit-id", "-M"]
        if copies:
            args.append("-C")
        args += [base or EMPTY_TREE, head]
        return parse_raw_diff(self._git(*args).stdout)

    def blob(self, oid: str) -> bytes:
        import pygit2

        # Straight from the object database with a full Oid: a hex string would be
        # looked up as a prefix, and an Object wrapper costs twice the read.
        _, data = self._repo.odb.read(pygit2.Oid(hex=oid))
        return bytes(data)

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

    def exists(self, path: str) -> bool:
        return self._entry_type(path) is not None

    def files_holding(
        self, literals: tuple[str, ...], suffixes: tuple[str, ...]
    ) -> tuple[str, ...]:
        return files_holding(self._repo, str(self._tree.id), literals, suffixes)


def files_holding(
    repo: Repository, treeish: str, literals: tuple[str, ...], suffixes: tuple[str, ...]
) -> tuple[str, ...]:
    """The files of `treeish` whose name ends with one of `suffixes` (in any case) and
    whose content holds one of `literals`, byte for byte: `git grep -F` searches every
    file in C, so a caller reads only the few that can matter (issue 12). A literal
    with a line break is searched as its lines, which admits more files, never fewer."""
    patterns = "".join(f"{literal}\n" for literal in literals).encode("utf-8", "surrogateescape")
    if not patterns:
        return ()
    pathspecs = [f":(icase)*{suffix}" for suffix in suffixes]
    # Colour, submodules and the pattern syntax are set here, not by the user's config.
    options = ("--no-color", "--no-recurse-submodules", "-l", "-z", "-F", "-f", "-")
    result = subprocess.run(
        ("git", "--git-dir", repo.git_dir, "grep", *options, treeish, "--", *pathspecs),
        input=patterns,
        capture_output=True,
        env=no_git_env(),
        check=False,
    )
    if result.returncode not in (0, 1):  # 1: no file holds any of them
        message = result.stderr.decode("utf-8", "replace").strip().splitlines()
        raise UserError(
            f"git grep failed: {message[-1] if message else result.returncode}", status=Exit.RANGE
        )
    prefix = f"{treeish}:".encode()
    names = result.stdout.split(b"\0")
    return tuple(path_text(name.removeprefix(prefix)) for name in names if name)


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
