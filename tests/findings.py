"""Helpers for the finding tests (issue #5): findings as tuples, and a change built
from two texts so an analyzer can be tried without a repository."""

import io
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any, cast

import pygit2
from manifests import Result, files_by_path, new_lines, run
from pygit2.enums import DiffOption

from gitreview.analyze import Analysis, analyze
from gitreview.cli import main
from gitreview.config import Config
from gitreview.kinds import kind_of
from gitreview.model import MODE_FILE, FileChange, Hunk, Line, Origin, Status

FindingRow = tuple[str, str, str | None, int | None, str]


def git_diff(repo: Path, *revisions: str) -> bytes:
    """The patch `git diff` gives for the revisions, as --patch reads it."""
    return subprocess.run(
        ["git", "-C", str(repo), "diff", "--no-color", "--no-ext-diff", "-M", *revisions],
        capture_output=True,
        check=True,
    ).stdout


def run_any(*args: str | Path, stdin: bytes = b"") -> Result:
    """Like manifests.run, for any output format: SARIF is JSON but not a manifest."""
    out, err = io.StringIO(), io.StringIO()
    previous = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    try:
        with redirect_stdout(out), redirect_stderr(err):
            status = main([str(arg) for arg in args])
    finally:
        sys.stdin = previous
    return Result(status, out.getvalue(), err.getvalue())


def manifest_with_findings(*args: str | Path) -> dict[str, Any]:
    """The manifest of a run that may exit 1 because of its findings."""
    result = run(*args)
    assert result.status in (0, 1), result.stderr
    return result.manifest


def findings_of(
    manifest: dict[str, Any], prefix: str = "", path: str | None = None
) -> list[FindingRow]:
    """The manifest's findings whose rule starts with `prefix` (and on `path`), as
    (rule, severity, path, line, message)."""
    return [
        (f["rule"], f["severity"], f["path"], f["line"], f["message"])
        for f in manifest["findings"]
        if f["rule"].startswith(prefix) and (path is None or f["path"] == path)
    ]


def hunk_at(manifest: dict[str, Any], path: str, line: int) -> dict[str, Any]:
    """The hunk of `path` whose new side holds `line`."""
    entry = files_by_path(manifest)[path]
    return next(h for h in entry["hunks"] if (span := new_lines(h)) and span[0] <= line <= span[1])


def change_of(
    path: str, old: str | None, new: str | None, *, content_known: bool = True
) -> FileChange:
    """The change from `old` to `new` (None: the side does not exist), with git's hunks."""
    old_data = None if old is None else old.encode("utf-8")
    new_data = None if new is None else new.encode("utf-8")
    status: Status = "added" if old is None else "deleted" if new is None else "modified"
    return FileChange(
        status=status,
        path=path,
        old_path=None if old is None else path,
        old_mode=None if old is None else MODE_FILE,
        new_mode=None if new is None else MODE_FILE,
        old_oid=None,
        new_oid=None,
        similarity=None,
        binary=False,
        hunks=diff_hunks(old_data, new_data),
        old_data=old_data if content_known else None,
        new_data=new_data if content_known else None,
        content_known=content_known,
    )


def analysis_of(
    path: str, old: str | None, new: str | None, *, content_known: bool = True
) -> Analysis:
    change = change_of(path, old, new, content_known=content_known)
    return analyze(change, kind_of(path), config=Config(), head=None)


def rows(analysis: Analysis) -> list[FindingRow]:
    return [(f.rule, f.severity, f.path, f.line, f.message) for f in analysis.report.findings]


def diff_hunks(old: bytes | None, new: bytes | None, *, context: int = 3) -> tuple[Hunk, ...]:
    """The hunks of a text diff between two contents, as git would cut them
    (libgit2's, for tests that need no repository; FORCE_TEXT: binary is git's call)."""
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
