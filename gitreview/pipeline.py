"""The flow, stage by stage: range -> changes -> classify + analyze -> manifest.

`classify_range` then `manifest_of` is what gitreview.build_manifest, the one
public function, does; the command line, the hook and the Actions step are thin
shells over them.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal, cast

from gitreview import tokens
from gitreview.analyze import Analysis, analyze, settled
from gitreview.analyze import elsewhere as analyze_elsewhere
from gitreview.analyze.base import HeadTree
from gitreview.classify import FileFacts, FileVerdict, classify
from gitreview.config import CONFIG_FILE, Config, check_rule_ids, parse_config
from gitreview.errors import Exit, UserError
from gitreview.kinds import kind_of
from gitreview.manifest import assemble, file_report
from gitreview.model import FileChange, Finding, Range, Severity

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


@dataclass(frozen=True)
class Outcome:
    rng: Range
    files: list[Classified]
    findings: list[Finding]
    settings: Config
    source: str


def manifest_of(outcome: Outcome) -> dict[str, Any]:
    """The review manifest of a classified range."""
    files = [
        file_report(
            c.change, c.kind, c.analysis, c.verdict, c.head_tokens, full=c.full, content=c.content
        )
        for c in outcome.files
    ]
    return assemble(outcome.rng, files, outcome.findings, source=outcome.source)


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
    return _classify(rng, changes, settings, attributes, head=head, source="git", contents=contents)


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
                settled(analysis, significant=verdict.classification != "trivial"),
                verdict,
                tokens.estimate(head_text) if head_text else 0,
                full=full,
                content=head_text if full else None,
            )
        )
        findings += file_findings
    moved = find_moves([(c.change, c.kind, c.analysis.t1, c.verdict) for c in files])
    files = [replace(c, verdict=verdict) for c, verdict in zip(files, moved, strict=True)]
    touched = {c.change.path for c in files}
    reports = (c.analysis.report for c in files)
    elsewhere = (f for f in analyze_elsewhere(reports, head) if f.path not in touched)
    findings += apply_rule_settings(elsewhere, settings)
    for range_analyzer in RANGE_ANALYZERS:
        findings += apply_rule_settings(tuple(range_analyzer(rng, settings)), settings)
    return Outcome(rng, files, findings, settings, source)


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
