"""The flow, stage by stage: range -> changes -> classify + analyze -> manifest.

`build` is what gitreview.build_manifest, the one public function, calls; the
command line, the hook and the Actions step are thin shells over it.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any, cast

from gitreview.analyze import analyze
from gitreview.analyze.base import HeadTree
from gitreview.classify import FileFacts, classify
from gitreview.config import CONFIG_FILE, Config, check_rule_ids, parse_config
from gitreview.errors import Exit, UserError
from gitreview.kinds import kind_of
from gitreview.manifest import FileReport, assemble, file_report
from gitreview.model import FileChange, Finding, Range, Severity

Attributes = Mapping[str, "bool | str | None"]


def build(
    repo: str | Path | None = None,
    spec: str | None = None,
    *,
    config: str | Path | None = None,
    patch: bytes | None = None,
    patch_name: str = "-",
) -> tuple[dict[str, Any], Config]:
    """gitreview.build_manifest, also returning the configuration that was in force."""
    if patch is not None:
        settings = _config_from_path(config)
        return _build_from_patch(patch, patch_name, settings), settings
    from gitreview.git import TreeReader, open_repository
    from gitreview.ranges import resolve_range

    repository = open_repository(None if repo is None else str(repo))
    rng = resolve_range(repository, spec)
    assert rng.head is not None  # only a patch has no head
    head = TreeReader(repository, rng.head)
    if config is not None:
        settings = _config_from_path(config)
    else:
        text = head.read(CONFIG_FILE)
        settings = Config() if text is None else parse_config(text, CONFIG_FILE)
        _check_rules(settings, CONFIG_FILE)
    attributes = _HeadAttributes(head.read)

    from gitreview.changes import iter_changes

    changes = iter_changes(repository, rng, copies=settings.detect_copies)
    manifest = _manifest(rng, changes, settings, attributes.for_path, head=head, source="git")
    return manifest, settings


def _build_from_patch(data: bytes, name: str, settings: Config) -> dict[str, Any]:
    from gitreview.patch import read_patch

    changes = read_patch(data, name)
    rng = Range(spec=f"patch:{name}", base=None, head=None, commits=())
    return _manifest(rng, changes, settings, lambda _path: {}, head=None, source="patch")


def _manifest(
    rng: Range,
    changes: Iterable[FileChange],
    settings: Config,
    attributes: Callable[[str], Attributes],
    *,
    head: HeadTree | None,
    source: str,
) -> dict[str, Any]:
    from gitreview.analyze import RANGE_ANALYZERS

    reports: list[FileReport] = []
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
        facts = FileFacts(change, kind, analysis, settings, attributes(change.path), file_findings)
        reports.append(file_report(change, kind, analysis, classify(facts)))
        findings += file_findings
    for range_analyzer in RANGE_ANALYZERS:
        findings += apply_rule_settings(tuple(range_analyzer(rng, settings)), settings)
    return assemble(rng, reports, findings, source=source)


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


class _HeadAttributes:
    """gitattributes of paths at the head commit, reading each folder's
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
