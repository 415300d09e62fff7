"""Run the real command and check what it produced.

Every JSON manifest a test gets through `run` is validated against
schemas/review-manifest.schema.json, so no test can produce one silently
invalid.
"""

import io
import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
from repos import PROJECT_ROOT

from gitreview.cli import main

SCHEMAS = PROJECT_ROOT / "schemas"


@cache
def manifest_validator() -> jsonschema.Draft202012Validator:
    schema = json.loads((SCHEMAS / "review-manifest.schema.json").read_text("utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def validate_manifest(manifest: Any) -> None:
    errors = sorted(manifest_validator().iter_errors(manifest), key=str)
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors)


@dataclass(frozen=True)
class Result:
    status: int
    stdout: str
    stderr: str

    @property
    def manifest(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(self.stdout)
        return data


@contextmanager
def _stdin(data: bytes) -> Iterator[None]:
    previous = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    try:
        yield
    finally:
        sys.stdin = previous


def run(*args: str | Path, stdin: bytes = b"") -> Result:
    """Run `git review-manifest ARGS` in this process; validate a JSON manifest on stdout."""
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err), _stdin(stdin):
        try:
            status = main([str(arg) for arg in args])
        except SystemExit as exit:  # argparse's --help, --version and usage errors
            status = exit.code if isinstance(exit.code, int) else 1
    result = Result(status, out.getvalue(), err.getvalue())
    if result.stdout.startswith("{"):
        validate_manifest(result.manifest)
        check_text(result.stdout, result.manifest)
    return result


def check_text(text: str, manifest: dict[str, Any]) -> None:
    """The json format prints the manifest's own serialization, made once, whose
    `tokens.manifest` is the cost of that very text (issue 12)."""
    from gitreview import tokens
    from gitreview.render.json import serialize

    if "schema_version" in manifest:
        assert text == serialize(manifest)
        assert manifest["tokens"]["manifest"] == tokens.estimate(text)


def manifest_of(*args: str | Path) -> dict[str, Any]:
    result = run(*args)
    assert result.status == 0, result.stderr
    return result.manifest


def files_by_path(manifest: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Each file's entry by path, its `hunks` joined with its significant hunks
    from the review (see all_hunks): a view for tests, not the manifest's shape."""
    joined = {}
    for entry in manifest["files"]:
        hunks = all_hunks(manifest, entry["path"])
        joined[entry["path"]] = {**entry, "hunks": hunks} if hunks else entry
    return joined


def new_lines(hunk: dict[str, Any]) -> list[int] | None:
    """The hunk's added lines, [first, last], read from its handle (None for a
    hunk that only removes)."""
    from gitreview.handles import parse_handle

    handle = parse_handle(hunk["handle"])
    if handle.side == "old" or handle.first is None or handle.last is None:
        return None
    return [handle.first, handle.last]


def removed_lines(hunk: dict[str, Any]) -> list[int] | None:
    """A hunk that only removes: its removed lines, [first, last], from its handle."""
    from gitreview.handles import parse_handle

    handle = parse_handle(hunk["handle"])
    if handle.side != "old" or handle.first is None or handle.last is None:
        return None
    return [handle.first, handle.last]


def review_items(manifest: dict[str, Any], role: str | None = None) -> list[dict[str, Any]]:
    """The significant hunks and whole files of the review, each once, in role
    and batch order (`role`: that role's only)."""
    seen: dict[str, dict[str, Any]] = {}
    for name, entry in manifest["review"].items():
        if role is not None and name != role:
            continue
        for batch in entry["batches"]:
            for item in batch["handles"]:
                seen.setdefault(item["handle"], item)
    return list(seen.values())


def all_hunks(manifest: dict[str, Any], path: str) -> list[dict[str, Any]]:
    """Every hunk of the file at `path`, trivial (from its entry) and significant
    (from the review), in the file's order, each with its `classification`."""
    from gitreview.handles import parse_handle

    [entry] = [e for e in manifest["files"] if e["path"] == path]
    if entry["classification"] == "trivial":
        return []
    hunks = [{**h, "classification": "trivial"} for h in entry.get("hunks", [])]
    hunks += [
        {"reasons": ["content"], **item, "classification": "significant"}
        for item in review_items(manifest)
        if item["handle"].split("@")[0].rsplit(":", 1)[0] == path and "excerpt" in item
    ]

    def place(hunk: dict[str, Any]) -> tuple[int, int]:
        handle = parse_handle(hunk["handle"])
        return (handle.first or 0, handle.side == "new")

    return sorted(hunks, key=place)
