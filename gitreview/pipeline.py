"""The flow, stage by stage: range -> changes -> classify + analyze -> manifest.

`classify_range` then `manifest_of` is what gitreview.build_manifest, the one
public function, does; the command line, the hook and the Actions step are thin
shells over them.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal, cast

from gitreview import tokens
from gitreview.analyze import Analysis, analyze
from gitreview.analyze.base import HeadTree
from gitreview.classify import FileFacts, FileVerdict, classify
from gitreview.config import CONFIG_FILE, Config, check_rule_ids, parse_config
from gitreview.errors import Exit, UserError
from gitreview.handles import Handle
from gitreview.kinds import kind_of
from gitreview.manifest import Assembled, assemble, file_report, hunk_handle
from gitreview.model import FileChange, Finding, Range, Severity
from gitreview.review.diffs import NO_KEYS, KeyBlocks
from gitreview.review.increments import Key, Reviewed, file_digest, hunk_digest
from gitreview.secrets import KeyBlock, key_blocks

Attributes = Mapping[str, "bool | str | None"]
Contents = Literal["none", "missing", "all"]
# Wraps the changes to show progress: (changes, how many) -> the same changes.
Progress = Callable[[Iterable[FileChange], int], Iterable[FileChange]]


@dataclass(frozen=True)
class Classified:
    """One file of the range, classified; its contents are dropped once read."""

    change: FileChange
    kind: str
    analysis: Analysis
    verdict: FileVerdict
    head_tokens: int  # the head side in full, for the token figures
    full: bool = False  # its whole content and diff go in the manifest
    content: str | None = None  # its text at head, kept only when `full`
    keys: KeyBlocks = NO_KEYS  # private key blocks of both sides, to redact its changes


@dataclass(frozen=True)
class Outcome:
    rng: Range
    files: list[Classified]
    findings: list[Finding]
    settings: Config
    source: str
    instructions: Mapping[str, str] = field(default_factory=dict)  # role -> its brief's text
    reviewed: Reviewed | None = None  # what an earlier review covered (--since)


def manifest_of(outcome: Outcome, *, budget: int | None = None) -> dict[str, Any]:
    """The review manifest of a classified range."""
    return review_of(outcome, budget=budget).manifest


def review_of(outcome: Outcome, *, budget: int | None = None) -> Assembled:
    """The review manifest of a classified range and each role's brief; `budget`
    overrides every role's."""
    files = [
        file_report(
            c.change,
            c.kind,
            c.analysis,
            c.verdict,
            c.head_tokens,
            keys=c.keys,
            findings=outcome.findings,
            full=c.full,
            content=c.content,
            reviewed=outcome.reviewed,
        )
        for c in outcome.files
    ]
    return assemble(
        outcome.rng,
        files,
        outcome.findings,
        source=outcome.source,
        roles=outcome.settings.roles,
        budget=budget,
        instructions=outcome.instructions,
        reviewed=outcome.reviewed,
    )


def classify_range(
    repo: str | Path | None = None,
    spec: str | None = None,
    *,
    config: str | Path | None = None,
    patch: bytes | None = None,
    patch_name: str = "-",
    contents: Contents = "none",
    base_head: tuple[str | None, str] | None = None,
    progress: Progress | None = None,
) -> Outcome:
    """Every file of the range analyzed and classified, moves included, and the findings.

    `contents`: which files carry their whole content and diff in the manifest:
    "missing" for those without T1 analysis (--fallback), "all" for the
    full-content bundle, "none" by default. `base_head` gives the range as commit
    ids (base None: the empty tree) instead of `spec`, which then only names it.
    """
    if patch is not None:
        from gitreview.patch import read_patch

        settings = _config_from_path(config)
        rng = Range(spec=f"patch:{patch_name}", base=None, head=None, commits=())
        patched = read_patch(patch, patch_name)
        return _classify(
            rng,
            patched,
            settings,
            lambda _change: ({}, None),
            head=None,
            source="patch",
            contents=contents,
        )
    from gitreview.changes import iter_changes
    from gitreview.git import TreeReader, open_repository
    from gitreview.ranges import between, resolve_range

    repository = open_repository(None if repo is None else str(repo))
    if base_head is not None:
        base_sha, head_sha = base_head
        rng = between(repository, base_sha, head_sha, spec or f"{base_sha or ''}..{head_sha}")
    else:
        rng = resolve_range(repository, spec)
    assert rng.head is not None  # only a patch has no head
    head = TreeReader(repository, rng.head)
    if config is not None:
        settings = _config_from_path(config)
    else:
        text = head.read(CONFIG_FILE)
        settings = Config() if text is None else parse_config(text, CONFIG_FILE)
        _check_rules(settings, CONFIG_FILE)
    head_attributes = _TreeAttributes(head.read)
    base_tree = TreeReader(repository, rng.base) if rng.base else None
    base_attributes = _TreeAttributes(base_tree.read if base_tree else lambda _path: None)

    def attributes(change: FileChange) -> tuple[Attributes, Attributes]:
        path = change.path
        return head_attributes.for_path(path), base_attributes.for_path(change.old_path or path)

    sized = iter_changes(repository, rng, copies=settings.detect_copies)
    changes: Iterable[FileChange] = sized
    if progress is not None:
        changes = progress(sized, len(sized))
    outcome = _classify(
        rng, changes, settings, attributes, head=head, source="git", contents=contents
    )
    return replace(outcome, instructions=_instructions(settings, head.read))


def since_review(
    outcome: Outcome,
    repo: str | Path | None = None,
    *,
    since: str | None = None,
    since_manifest: str | Path | None = None,
    config: str | Path | None = None,
) -> Outcome:
    """The outcome, knowing what an earlier review covered (issue #13): the
    range's own changes up to the head reviewed last (`since`, from its merge
    base with this range's base), or the handles a manifest reviewed last
    (`since_manifest`, whose range is classified again from git objects)."""
    from gitreview.git import open_repository

    if since is None and since_manifest is None:
        return outcome
    if outcome.rng.head is None:
        raise UserError("--since needs a repository, not a patch", status=Exit.USAGE)
    repository = open_repository(None if repo is None else str(repo))
    wanted: set[str] | None = None
    if since is not None:
        head = repository.resolve_commit(since)
        if head is None:
            raise UserError(
                f"unknown revision {since!r} (--since)",
                status=Exit.RANGE,
                hint="the head reviewed last must be in this repository: fetch it",
            )
        base = outcome.rng.base and repository.merge_base(outcome.rng.base, head)
        named = since
    else:
        assert since_manifest is not None
        base, head, wanted = _manifest_review(since_manifest)
        if repository.resolve_commit(head) is None:
            raise UserError(
                f"{since_manifest}: its head {head[:12]} is not in this repository",
                status=Exit.RANGE,
                hint="the head reviewed last must be in this repository: fetch it",
            )
        named = str(since_manifest)
    before = classify_range(repo, config=config, base_head=(base, head))
    hunks: dict[Key, str] = {}
    for item in before.files:
        change = item.change
        if item.verdict.classification == "trivial":
            continue
        significant = False
        for hunk, verdict in zip(change.hunks, item.verdict.hunks, strict=True):
            handle = hunk_handle(change, hunk)
            if verdict.classification == "significant":
                significant = True
                if wanted is None or handle in wanted:
                    hunks[(change.path, hunk_digest(hunk))] = handle
        whole = str(Handle(change.path, change.new_oid or change.old_oid))
        if not significant and (wanted is None or whole in wanted):
            hunks[(change.path, file_digest(change))] = whole  # routed whole
    return replace(outcome, reviewed=Reviewed(named, hunks))


def _manifest_review(path: str | Path) -> tuple[str | None, str, set[str]]:
    """A manifest's base, head and the handles it sent to reviewers (or that it
    found reviewed before it)."""
    import json

    try:
        data = json.loads(Path(path).read_text("utf-8"))
        rng = data["range"]
        head, base = rng["head"], rng["base"]
        handles = {
            item["handle"]
            for role in data["review"].values()
            for batch in role["batches"]
            for item in batch["handles"]
        }
        handles |= {
            hunk["handle"]
            for entry in data["files"]
            for hunk in (entry, *entry.get("hunks", ()))
            if "reviewed" in hunk
        }
    except OSError as error:
        message = f"cannot read manifest {path}: {error.strerror}"
        raise UserError(message, status=Exit.USAGE) from None
    except (ValueError, KeyError, TypeError, AttributeError):
        raise UserError(f"{path}: not a gitreview 2.0 manifest", status=Exit.USAGE) from None
    if not isinstance(head, str):
        raise UserError(
            f"{path}: a manifest of a patch has no head to compare with", status=Exit.USAGE
        )
    return base, head, handles


def _classify(
    rng: Range,
    changes: Iterable[FileChange],
    settings: Config,
    attributes: Callable[[FileChange], tuple[Attributes, Attributes | None]],
    *,
    head: HeadTree | None,
    source: str,
    contents: Contents,
) -> Outcome:
    from gitreview.analyze import RANGE_ANALYZERS
    from gitreview.classify.moves import find_moves

    files: list[Classified] = []
    findings: list[Finding] = []
    for change in changes:
        kind = kind_of(
            change.path,
            binary=change.binary,
            symlink=change.is_symlink,
            submodule=change.is_submodule,
        )
        analysis = analyze(change, kind, config=settings, head=head)
        file_findings = apply_rule_settings(analysis.report.findings, settings)
        at_head, at_base = attributes(change)
        facts = FileFacts(change, kind, analysis, settings, at_head, at_base, file_findings)
        verdict = classify(facts)
        head_text = analysis.new_text
        if head_text is None and change.new_data is not None and not change.binary:
            head_text = change.new_data.decode("utf-8", "replace")
        full = contents == "all" or (contents == "missing" and not analysis.t1)
        files.append(
            Classified(
                # Keep hunks, drop the blobs: a range of thousands of files must not
                # hold every blob until the end.
                replace(change, old_data=None, new_data=None),
                kind,
                replace(analysis, old_text=None, new_text=None),
                verdict,
                tokens.estimate(head_text) if head_text else 0,
                full=full,
                content=head_text if full else None,
                keys=_key_blocks(change),
            )
        )
        findings += file_findings
    moved = find_moves([(c.change, c.kind, c.analysis.t1, c.verdict) for c in files])
    files = [replace(c, verdict=verdict) for c, verdict in zip(files, moved, strict=True)]
    touched = {c.change.path for c in files}
    elsewhere = (f for c in files for f in c.analysis.report.elsewhere if f.path not in touched)
    findings += apply_rule_settings(elsewhere, settings)
    for range_analyzer in RANGE_ANALYZERS:
        findings += apply_rule_settings(tuple(range_analyzer(rng, settings)), settings)
    return Outcome(rng, files, findings, settings, source)


def _key_blocks(change: FileChange) -> KeyBlocks:
    """The private key blocks of both sides, found with the whole file in view so
    that a hunk holding a few lines of a key's body is redacted too. Without the
    content (a patch), the hunks' own lines, context included, stand for it."""

    def blocks(data: bytes | None, side: Literal["-", "+"]) -> tuple[KeyBlock, ...]:
        if data is not None:
            if b"PRIVATE KEY" not in data:
                return ()
            return tuple(key_blocks(data.decode("utf-8", "replace").split("\n")))
        numbered = {
            (line.old_no if side == "-" else line.new_no): line.text
            for hunk in change.hunks
            for line in hunk.lines
            if line.origin in (" ", side)
        }
        if not any("PRIVATE KEY" in text for text in numbered.values()):
            return ()
        lines = [""] * max(n or 0 for n in numbered)
        for number, text in numbered.items():
            if number:
                lines[number - 1] = text
        return tuple(key_blocks(lines))

    return KeyBlocks(blocks(change.old_data, "-"), blocks(change.new_data, "+"))


def _instructions(settings: Config, read: Callable[[str], bytes | None]) -> dict[str, str]:
    """Each role's instructions file, read from the commit its configuration came
    from; a missing file is a configuration error naming it."""
    texts: dict[str, str] = {}
    for role in settings.roles:
        if role.instructions is None:
            continue
        data = read(role.instructions)
        if data is None:
            raise UserError(
                f"{CONFIG_FILE}: roles.{role.name}.instructions: no file {role.instructions}",
                status=Exit.CONFIG,
            )
        texts[role.name] = data.decode("utf-8", "replace")
    return texts


def apply_rule_settings(findings: Iterable[Finding], settings: Config) -> tuple[Finding, ...]:
    """Each finding with the severity the configuration gives its rule; `off` drops it."""
    kept: list[Finding] = []
    for finding in findings:
        configured = settings.rules.get(finding.rule, finding.severity)
        if configured == "off":
            continue
        severity = cast(Severity, configured)  # the configuration schema allows no other value
        kept.append(
            finding if severity == finding.severity else replace(finding, severity=severity)
        )
    return tuple(kept)


def _check_rules(settings: Config, source: str) -> None:
    from gitreview.analyze import RULES

    check_rule_ids(settings, RULES, source)


def _config_from_path(path: str | Path | None) -> Config:
    if path is None:
        return Config()
    try:
        text = Path(path).read_bytes()
    except OSError as error:
        raise UserError(
            f"cannot read configuration {path}: {error.strerror}", status=Exit.CONFIG
        ) from None
    settings = parse_config(text, str(path))
    _check_rules(settings, str(path))
    return settings


class _TreeAttributes:
    """gitattributes of paths in one commit's tree, reading each folder's
    .gitattributes once; the working tree and $GIT_DIR/info are never read."""

    def __init__(self, read: Callable[[str], bytes | None]) -> None:
        self._read = read
        self._files: dict[str, str | None] = {}

    def for_path(self, path: str) -> Attributes:
        from gitreview import globs

        files: dict[str, str] = {}
        folder = posixpath.dirname(path)
        folders = [""]
        parts = folder.split("/") if folder else []
        folders += ["/".join(parts[: i + 1]) for i in range(len(parts))]
        for directory in folders:
            text = self._file(directory)
            if text is not None:
                files[directory] = text
        if not files:
            return {}
        return globs.attributes_for(path, files)

    def _file(self, directory: str) -> str | None:
        if directory not in self._files:
            name = f"{directory}/.gitattributes" if directory else ".gitattributes"
            data = self._read(name)
            self._files[directory] = None if data is None else data.decode("utf-8", "replace")
        return self._files[directory]
