"""Build the test repositories described by ``fixtures/repos/*.yml`` into real git repositories.

Every commit is made with a pinned author, committer and date, so the same fixture gives the
same commit ids on every run and every machine.  Commit i (0-based) is dated
2026-01-01T00:00:00+00:00 plus i minutes.  Fixture format:

    description: one line saying what this repository exercises
    branch: main                      # initial branch (default: main)
    commits:
      - message: "subject line"       # may have a body after a blank line
        checkout: main                # switch to an existing branch/tag/rev first
        branch: feature               # create a branch at HEAD and switch to it first
        merge: feature                # no-ff merge of this branch (must not conflict)
        rename: {old/path: new/path}  # git mv, applied before files
        files:
          a.txt: "text\\n"            # UTF-8 text, byte-exact
          run.sh: {text: "...", mode: "755"}
          data.bin: {base64: "AAEC"}  # or {hex: "0001"}; both take an optional mode
          link: {symlink: "target"}
          vendor/lib: {submodule: "<40-hex commit id>"}
          old.txt: null               # delete
        chmod: {run.sh: "755"}        # applied after files
        tag: v1                       # or a list of lightweight tags
"""

import base64
import binascii
import os
import shutil
import subprocess
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TypeAlias

import yaml

PROJECT_ROOT = Path(__file__).resolve().parent.parent
FIXTURES = PROJECT_ROOT / "fixtures" / "repos"

# Fixed variables for every git process in the tests.  HOME is not here: conftest points it at a
# fresh empty directory for each test.  Inherited GIT_* variables and XDG_CONFIG_HOME are always
# dropped.
GIT_ENV: dict[str, str] = {
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_AUTHOR_NAME": "Ada Author",
    "GIT_AUTHOR_EMAIL": "ada.author@example.com",
    "GIT_COMMITTER_NAME": "Carl Committer",
    "GIT_COMMITTER_EMAIL": "carl.committer@example.com",
    "LC_ALL": "C",
}

# Inherited variables that would let the developer's configuration leak into git.
CONFIG_LEAKING_VARIABLES = ("XDG_CONFIG_HOME",)

GIT_CONFIG_OVERRIDES = (
    "core.autocrlf=false",
    "core.symlinks=true",
    "init.defaultBranch=main",
    "commit.gpgsign=false",
    "tag.gpgsign=false",
)

FIRST_COMMIT_DATE = datetime(2026, 1, 1, tzinfo=UTC)
GITLINK_MODE = "160000"
FILE_MODES = {"644": 0o644, "755": 0o755}

RepoFactory: TypeAlias = Callable[[str], Path]


def is_leaking_variable(name: str) -> bool:
    """Whether an inherited environment variable must not reach git in tests."""
    return name.startswith("GIT_") or name in CONFIG_LEAKING_VARIABLES


def isolated_environment(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The current environment without leaking variables, plus GIT_ENV and ``extra``."""
    inherited = {name: value for name, value in os.environ.items() if not is_leaking_variable(name)}
    return {**inherited, **GIT_ENV, **(extra or {})}


def git(
    repo: Path,
    *args: str,
    input: bytes | None = None,
    env: Mapping[str, str] | None = None,
) -> str:
    """Run git in ``repo`` isolated from the developer's setup and return its stdout.

    ``env`` adds variables on top of the isolated environment (e.g. commit dates).  The output
    is decoded as UTF-8 with surrogateescape and loses its final newline.  A failing git call
    raises AssertionError carrying git's stderr (and stdout, where merges report conflicts).
    """
    overrides = [part for setting in GIT_CONFIG_OVERRIDES for part in ("-c", setting)]
    result = subprocess.run(
        ["git", *overrides, *args],
        cwd=repo,
        input=input,
        stdin=subprocess.DEVNULL if input is None else None,
        capture_output=True,
        env=isolated_environment(env),
        check=False,
    )
    if result.returncode != 0:
        report = b"\n".join(part.strip() for part in (result.stderr, result.stdout) if part.strip())
        raise AssertionError(
            f"git {' '.join(args)} failed in {repo} with exit code {result.returncode}:\n"
            + report.decode("utf-8", "surrogateescape")
        )
    return result.stdout.decode("utf-8", "surrogateescape").removesuffix("\n")


def commit_id(repo: Path, rev: str) -> str:
    """The full id of the commit that ``rev`` names."""
    return git(repo, "rev-parse", "--verify", "--end-of-options", f"{rev}^{{commit}}")


# --- Fixture specification --------------------------------------------------------------------


@dataclass(frozen=True)
class Content:
    """A regular file: its exact bytes and, optionally, its mode ("644" or "755")."""

    data: bytes
    mode: str | None = None


@dataclass(frozen=True)
class Symlink:
    target: str


@dataclass(frozen=True)
class Gitlink:
    """A submodule entry (mode 160000) pointing at a commit that need not exist."""

    commit: str


FileEntry: TypeAlias = Content | Symlink | Gitlink | None  # None deletes the path


@dataclass(frozen=True)
class CommitSpec:
    message: str
    checkout: str | None
    branch: str | None
    merge: str | None
    renames: dict[str, str]
    files: dict[str, FileEntry]
    chmods: dict[str, str]
    tags: tuple[str, ...]


@dataclass(frozen=True)
class RepoSpec:
    description: str
    branch: str
    commits: tuple[CommitSpec, ...]


class FixtureError(ValueError):
    """A fixture file does not follow the format."""


def load_spec(name: str) -> RepoSpec:
    """Read and validate ``fixtures/repos/{name}.yml``."""
    path = FIXTURES / f"{name}.yml"
    document: object = yaml.safe_load(path.read_text(encoding="utf-8"))
    return parse_repo(document, where=str(path))


def parse_repo(document: object, where: str) -> RepoSpec:
    fields = as_mapping(document, where, allowed={"description", "branch", "commits"})
    commits = fields.get("commits")
    if not isinstance(commits, list) or not commits:
        raise FixtureError(f"{where}: 'commits' must be a non-empty list")
    return RepoSpec(
        description=as_string(fields.get("description"), f"{where}: description"),
        branch=as_string(fields.get("branch", "main"), f"{where}: branch"),
        commits=tuple(
            parse_commit(commit, f"{where}: commit {index}") for index, commit in enumerate(commits)
        ),
    )


def parse_commit(document: object, where: str) -> CommitSpec:
    allowed = {"message", "checkout", "branch", "merge", "rename", "files", "chmod", "tag"}
    fields = as_mapping(document, where, allowed=allowed)
    renames = as_mapping(fields.get("rename", {}), f"{where}: rename")
    files = as_mapping(fields.get("files", {}), f"{where}: files")
    chmods = as_mapping(fields.get("chmod", {}), f"{where}: chmod")
    return CommitSpec(
        message=as_string(fields.get("message"), f"{where}: message"),
        checkout=as_optional_string(fields.get("checkout"), f"{where}: checkout"),
        branch=as_optional_string(fields.get("branch"), f"{where}: branch"),
        merge=as_optional_string(fields.get("merge"), f"{where}: merge"),
        renames={old: as_string(new, f"{where}: rename {old}") for old, new in renames.items()},
        files={path: parse_entry(entry, f"{where}: {path}") for path, entry in files.items()},
        chmods={path: as_mode(mode, f"{where}: chmod {path}") for path, mode in chmods.items()},
        tags=as_tags(fields.get("tag"), f"{where}: tag"),
    )


def parse_entry(document: object, where: str) -> FileEntry:
    if document is None:
        return None
    if isinstance(document, str):
        return Content(document.encode("utf-8"))
    fields = as_mapping(
        document, where, allowed={"text", "base64", "hex", "symlink", "submodule", "mode"}
    )
    kinds = sorted(set(fields) - {"mode"})
    if len(kinds) != 1:
        raise FixtureError(f"{where}: give exactly one of text, base64, hex, symlink, submodule")
    kind = kinds[0]
    value = as_string(fields[kind], f"{where}: {kind}")
    mode = as_mode(fields["mode"], f"{where}: mode") if "mode" in fields else None
    if kind in ("symlink", "submodule") and mode is not None:
        raise FixtureError(f"{where}: a {kind} has no mode")
    if kind == "symlink":
        return Symlink(value)
    if kind == "submodule":
        return Gitlink(as_object_id(value, where))
    return Content(decode_bytes(kind, value, where), mode)


def decode_bytes(kind: str, value: str, where: str) -> bytes:
    """The bytes of a text, base64 or hex entry; whitespace in base64 and hex is ignored."""
    compact = "".join(value.split())
    try:
        if kind == "base64":
            return base64.b64decode(compact, validate=True)
        if kind == "hex":
            return bytes.fromhex(compact)
    except (binascii.Error, ValueError) as error:
        raise FixtureError(f"{where}: invalid {kind}: {error}") from error
    return value.encode("utf-8")


def as_mapping(document: object, where: str, allowed: set[str] | None = None) -> dict[str, object]:
    if not isinstance(document, dict):
        raise FixtureError(f"{where}: expected a mapping, got {document!r}")
    mapping: dict[str, object] = {}
    for key, value in document.items():
        if not isinstance(key, str):
            raise FixtureError(f"{where}: key {key!r} must be a string (quote it)")
        if allowed is not None and key not in allowed:
            raise FixtureError(f"{where}: unknown key {key!r}; expected one of {sorted(allowed)}")
        mapping[key] = value
    return mapping


def as_string(value: object, where: str) -> str:
    if not isinstance(value, str):
        raise FixtureError(f"{where}: expected a string (quote it), got {value!r}")
    return value


def as_optional_string(value: object, where: str) -> str | None:
    return None if value is None else as_string(value, where)


def as_tags(value: object, where: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, list):
        return tuple(as_string(tag, where) for tag in value)
    return (as_string(value, where),)


def as_mode(value: object, where: str) -> str:
    mode = str(value) if isinstance(value, int) and not isinstance(value, bool) else value
    if mode not in FILE_MODES:
        raise FixtureError(f'{where}: mode must be "644" or "755", got {value!r}')
    return str(mode)


def as_object_id(value: str, where: str) -> str:
    if len(value) != 40 or any(char not in "0123456789abcdef" for char in value):
        raise FixtureError(f"{where}: submodule must be a 40-character lowercase hex id")
    return value


# --- Building ---------------------------------------------------------------------------------


def build_repo(name: str, dest: Path) -> Path:
    """Build fixture ``name`` as a git repository at ``dest`` (absent or empty) and return it."""
    spec = load_spec(name)
    dest.mkdir(parents=True, exist_ok=True)
    if any(dest.iterdir()):
        raise FileExistsError(f"{dest} is not empty")
    git(dest, "init", "--quiet", f"--initial-branch={spec.branch}")
    for index, commit in enumerate(spec.commits):
        build_commit(dest, commit, commit_date(index))
    return dest


def commit_date(index: int) -> str:
    """The pinned author and committer date of the ``index``-th commit of a fixture."""
    return (FIRST_COMMIT_DATE + timedelta(minutes=index)).isoformat()


def build_commit(repo: Path, commit: CommitSpec, date: str) -> None:
    if commit.checkout is not None:
        git(repo, "checkout", "--quiet", commit.checkout, "--")
    if commit.branch is not None:
        git(repo, "checkout", "--quiet", "-b", commit.branch)
    if commit.merge is not None:
        start_merge(repo, commit.merge)
    for old, new in commit.renames.items():
        rename_path(repo, old, new)
    for path, entry in commit.files.items():
        write_entry(repo, path, entry)
    for path, mode in commit.chmods.items():
        set_mode(repo, path, mode)
    record_commit(repo, commit.message, date)
    for tag in commit.tags:
        git(repo, "tag", tag)


def start_merge(repo: Path, branch: str) -> None:
    """Merge ``branch`` into HEAD without committing; the merge must be clean and non-trivial."""
    git(repo, "merge", "--quiet", "--no-ff", "--no-commit", branch)
    merge_head = Path(git(repo, "rev-parse", "--git-path", "MERGE_HEAD"))
    if not (repo / merge_head).exists():
        raise FixtureError(f"merging {branch!r} into HEAD would not create a merge commit")


def rename_path(repo: Path, old: str, new: str) -> None:
    (repo / new).parent.mkdir(parents=True, exist_ok=True)
    git(repo, "mv", "--", old, new)


def write_entry(repo: Path, path: str, entry: FileEntry) -> None:
    """Make ``path`` hold ``entry`` on disk and in the index.

    A regular file rewritten with new content keeps its mode unless the entry gives one.
    """
    target = repo / path
    if not (isinstance(entry, Content) and target.is_file() and not target.is_symlink()):
        remove_from_work_tree(target)
    if entry is None:
        git(repo, "--literal-pathspecs", "rm", "--quiet", "-r", "--cached", "--", path)
        remove_empty_parents(repo, target)
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(entry, Gitlink):
        # An empty directory is how git leaves an uninitialised submodule: status stays clean.
        target.mkdir()
        cacheinfo = f"{GITLINK_MODE},{entry.commit},{path}"
        git(repo, "update-index", "--add", "--cacheinfo", cacheinfo)
        return
    if isinstance(entry, Symlink):
        target.symlink_to(entry.target)
    else:
        target.write_bytes(entry.data)
    git(repo, "--literal-pathspecs", "add", "--", path)
    if isinstance(entry, Content) and entry.mode is not None:
        set_mode(repo, path, entry.mode)


def set_mode(repo: Path, path: str, mode: str) -> None:
    """Set the mode on disk and in the index (the index part also works without core.fileMode)."""
    (repo / path).chmod(FILE_MODES[mode])
    executable = "+x" if mode == "755" else "-x"
    git(repo, "update-index", f"--chmod={executable}", "--", path)


def remove_from_work_tree(path: Path) -> None:
    """Remove whatever is at ``path`` (file, symlink or directory), if anything."""
    if path.is_symlink() or path.is_file():
        path.unlink()
    elif path.is_dir():
        shutil.rmtree(path)


def remove_empty_parents(repo: Path, path: Path) -> None:
    parent = path.parent
    while parent != repo and parent.is_dir() and not any(parent.iterdir()):
        parent.rmdir()
        parent = parent.parent


def record_commit(repo: Path, message: str, date: str) -> None:
    dates = {"GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date}
    git(
        repo,
        "commit",
        "--quiet",
        "--no-verify",
        "--allow-empty",
        "--cleanup=whitespace",
        "--file=-",
        input=message.encode("utf-8"),
        env=dates,
    )


def before_and_after(dest: Path, path: str, old: str, new: str) -> Path:
    """A repository of two commits: `path` holding `old`, then `new` (byte-exact)."""
    dest.mkdir(parents=True)
    git(dest, "init", "--quiet", "--initial-branch=main")
    for text, message in ((old, "Before"), (new, "After")):
        target = dest / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(text.encode("utf-8"))
        git(dest, "add", "--", path)
        git(dest, "commit", "--quiet", "-m", message)
    return dest


def two_commits(dest: Path, old: dict[str, str], new: dict[str, str]) -> Path:
    """A repository of two commits: the `old` files, then the `new` ones."""
    return commits(dest, old, new)


def commits(dest: Path, *versions: dict[str, str]) -> Path:
    """A repository of a commit per version of its files ("Before", "After"...)."""
    dest.mkdir(parents=True)
    git(dest, "init", "--quiet", "--initial-branch=main")
    for number, files in enumerate(versions):
        for path, text in files.items():
            (dest / path).parent.mkdir(parents=True, exist_ok=True)
            (dest / path).write_text(text)
            git(dest, "add", "--", path)
        git(
            dest,
            "commit",
            "--quiet",
            "-m",
            ("Before", "After")[number] if number < 2 else f"{number}",
        )
    return dest
