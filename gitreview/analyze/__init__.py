"""Tier-1 (T1) analysis of a changed file: what a program learns of its content.

`analyze` decodes both sides, runs the analyzers registered for the file's
kind (structure, scopes, findings) and the ones for any text, and says whether
T1 data exists. A file without it is significant and, with --fallback, gets
its full content in the manifest. An analyzer that fails is caught: its file
gets `t1: missing` (analyzer-failed), and the rest of the run goes on.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from itertools import chain
from typing import Any, Literal

from gitreview.analyze import (
    code,
    commits,
    data,
    doc_includes,
    history,
    lexical,
    markdown,
    python,
    python_lost,
    references_lost,
    text,
    trust,
)
from gitreview.analyze.base import (
    Analyzer,
    HeadTree,
    Lost,
    RangeAnalyzer,
    Report,
    Rule,
    Scope,
    Subject,
    innermost_scope,
)
from gitreview.config import Config
from gitreview.model import FileChange, Finding, Hunk

# The explicit registry: analyzers by kind, analyzers for any text, and checks of
# the range itself. Each module also lists the rules it can report.
ANALYZERS: dict[str, tuple[Analyzer, ...]] = {
    "markdown": (markdown.analyze,),
    "python": (python.analyze,),
    "json": (data.analyze,),
    "yaml": (data.analyze,),
    "toml": (data.analyze,),
    **{kind: (code.analyze,) for kind in code.KINDS},
}
TEXT_ANALYZERS: tuple[Analyzer, ...] = (text.analyze,)
# Analyzers that also work from the hunks alone, for patch-only input (debugging
# leftovers on added lines).
PATCH_ANALYZERS: dict[str, tuple[Analyzer, ...]] = {
    "python": (python.analyze,),
    **{kind: (code.analyze,) for kind in code.DEBUGGER_KINDS},
}
RANGE_ANALYZERS: tuple[RangeAnalyzer, ...] = (commits.analyze_range,)
RULES: dict[str, Rule] = {
    rule.id: rule
    for module in (
        markdown,
        python,
        python_lost,
        references_lost,
        data,
        code,
        text,
        commits,
        history,
        doc_includes,
        trust,
    )
    for rule in module.RULES
}

# Kinds whose content has no T1 analysis, and the cause the manifest gives.
_NO_ANALYSIS_CAUSE = {"binary": "binary", "submodule": "submodule"}

# Kinds in which no line can be inside a multi-line literal.
_CONTEXT_FREE_KINDS = frozenset({"json"})

Side = Literal["old", "new"]


_ANALYSIS_FIELDS = ("kind", "t1", "cause", "old_text", "new_text", "context_free", "report")


class Analysis:
    """What T1 analysis learned of one file. (Not a dataclass: making one costs a
    millisecond of every run's start-up, issue 12.)"""

    __slots__ = (
        "_literal",
        "cause",
        "context_free",
        "dialect",
        "kind",
        "new_text",
        "old_text",
        "parsed",
        "report",
        "t1",
    )

    def __init__(
        self,
        kind: str,
        t1: bool,
        cause: str | None = None,  # why T1 data is missing
        old_text: str | None = None,
        new_text: str | None = None,
        context_free: bool = False,  # no line of this kind can sit inside a multi-line literal
        report: Report | None = None,
        parsed: dict[str, object] | None = None,  # sides its analyzers parsed (Subject)
        dialect: str = "",  # which markup a text file is in, by its name: "rst" or ""
    ) -> None:
        self.kind = kind
        self.dialect = dialect
        self.t1 = t1
        self.cause = cause
        self.old_text = old_text
        self.new_text = new_text
        self.context_free = context_free
        self.report = Report() if report is None else report
        self.parsed = parsed
        self._literal: dict[str, frozenset[int] | None] = {}

    # Compared and shown by what it is, the literal lines worked out aside.
    def __eq__(self, other: object) -> bool:
        return isinstance(other, Analysis) and all(
            getattr(self, name) == getattr(other, name) for name in _ANALYSIS_FIELDS
        )

    __hash__ = None  # type: ignore[assignment]  # mutable: its literal lines are worked out late

    def __repr__(self) -> str:
        values = ", ".join(f"{name}={getattr(self, name)!r}" for name in _ANALYSIS_FIELDS)
        return f"Analysis({values})"

    def literal_lines(self, side: Side) -> frozenset[int] | None:
        """Lines of one side where whitespace is content; None when every line
        must count as such. Lexing is the costly part of a run, so it happens
        only for a hunk that got past the cheap checks, once per side."""
        if side not in self._literal:
            text = self.old_text if side == "old" else self.new_text
            if text is None:
                self._literal[side] = frozenset() if self.context_free else None
            else:
                self._literal[side] = lexical.literal_lines(self.kind, text, self.dialect)
        return self._literal[side]


def analyze(change: FileChange, kind: str, *, config: Config, head: HeadTree | None) -> Analysis:
    without_text = Subject(change, kind, None, None, config, head)
    if kind in _NO_ANALYSIS_CAUSE:
        # No content analysis, but the text checks still see what was added: a
        # binary file, its size, its mode (issue #5).
        report, _ = _run(TEXT_ANALYZERS, without_text)
        return Analysis(kind, t1=False, cause=_NO_ANALYSIS_CAUSE[kind], report=report)
    if not change.content_known:
        # Without the whole file a changed line may sit inside a multi-line
        # string; only kinds that have none can still be compared. Checks of
        # added lines (secrets, conflict markers) still run on the hunks.
        report, _ = _run((*PATCH_ANALYZERS.get(kind, ()), *TEXT_ANALYZERS), without_text)
        return Analysis(
            kind,
            t1=False,
            cause="patch-only",
            context_free=kind in _CONTEXT_FREE_KINDS,
            report=report,
        )
    if change.is_lfs_pointer:
        # The file is in Git LFS's storage; git holds a pointer to it, which is no
        # JSON nor Python to parse (found by an adversarial review: every dataset
        # update was a syntax error). Its added lines are still checked.
        report, _ = _run(TEXT_ANALYZERS, without_text)
        return Analysis(kind, t1=False, cause="lfs-pointer", report=report)
    sizes = [len(data) for data in (change.old_data, change.new_data) if data is not None]
    if any(size > config.max_file_bytes for size in sizes):
        # Too large to decode and parse, not to check its size and added lines.
        report, _ = _run(TEXT_ANALYZERS, without_text)
        return Analysis(kind, t1=False, cause="too-large", report=report)
    try:
        old_text = None if change.old_data is None else change.old_data.decode("utf-8")
        new_text = None if change.new_data is None else change.new_data.decode("utf-8")
    except UnicodeDecodeError:
        # No structure to trust, but added lines can still hold a secret.
        old_lossy = None if change.old_data is None else change.old_data.decode("utf-8", "replace")
        new_lossy = None if change.new_data is None else change.new_data.decode("utf-8", "replace")
        subject = Subject(change, kind, old_lossy, new_lossy, config, head)
        report, _ = _run(TEXT_ANALYZERS, subject)
        return Analysis(kind, t1=False, cause="undecodable", report=report)
    parsed: dict[str, object] = {}
    subject = Subject(change, kind, old_text, new_text, config, head, parsed)
    kind_analyzers = ANALYZERS.get(kind, ())
    report, failed = _run((*kind_analyzers, *TEXT_ANALYZERS), subject)
    if failed:
        return Analysis(kind, t1=False, cause="analyzer-failed", report=report)
    if kind != "symlink" and not kind_analyzers and lexical.policy(kind) is None:
        return Analysis(
            kind, t1=False, cause="no-analyzer", old_text=old_text, new_text=new_text, report=report
        )
    dialect = "rst" if change.path.lower().endswith((".rst", ".rest")) else ""
    return Analysis(
        kind,
        t1=True,
        old_text=old_text,
        new_text=new_text,
        report=report,
        parsed=parsed,
        dialect=dialect,
    )


def settled(
    analysis: Analysis, *, significant: bool, hunks: Sequence[Hunk] | None = None
) -> Analysis:
    """The analysis as kept once its file is classified: without the texts, and with
    its scopes named now for a significant file (the manifest gives its hunks theirs;
    moved blocks only ever make a file trivial) and dropped for a trivial one, so
    that no text outlives its file's turn (issue 12). With `hunks` (those that may
    go to review), only the scopes the manifest names them with are kept: a large
    file has hundreds. Its names (symbols, sections, the structure's strings) are
    redacted here, where the file is proved and once for its cache entry, not for
    every range that reads it (issue 11)."""
    report = analysis.report
    scopes = tuple(report.scopes) if significant else ()
    if scopes and hunks is not None:
        # In their order, so that of two alike the same one is still the innermost.
        named = {innermost_scope(scopes, hunk) for hunk in hunks}
        scopes = tuple(scope for scope in scopes if scope in named)
    report = _names_redacted(report._replace(scopes=scopes))
    # Without its texts, and without what was worked out from them: only the
    # classification that just ended asks for literal lines.
    return Analysis(
        analysis.kind, analysis.t1, analysis.cause, None, None, analysis.context_free, report
    )


def _names_redacted(report: Report) -> Report:
    """The report with every credential in its symbols, sections and structure
    redacted; the same record when none may hold one (the common case). A file may
    have hundreds of names: they are searched together first, and redacted one by
    one only then."""
    import json

    from gitreview.secrets import name_may_change, redact_name

    scopes, structure = report.scopes, report.structure
    if name_may_change("\n".join(scope.name for scope in scopes)):
        scopes = tuple(scope._replace(name=redact_name(scope.name)) for scope in scopes)
    if structure and name_may_change(json.dumps(structure, ensure_ascii=False)):
        structure = _redact_strings(structure, redact_name)
    if scopes is report.scopes and structure == report.structure:
        return report
    return report._replace(scopes=scopes, structure=structure)


def _redact_strings(value: Any, name: Callable[[str], str]) -> Any:
    if isinstance(value, str):
        return name(value)
    if isinstance(value, Mapping):
        return {key: _redact_strings(item, name) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_redact_strings(item, name) for item in value]
    return value


def _run(analyzers: Iterable[Analyzer], subject: Subject) -> tuple[Report, bool]:
    """All the analyzers' reports merged, and whether one of them failed."""
    findings: list[Finding] = []
    scopes: list[Sequence[Scope]] = []
    structure: dict[str, object] = {}
    lost: list[Lost] = []
    failed = False
    for analyzer in analyzers:
        try:
            report = analyzer(subject)
        except Exception:  # an analyzer bug must not cost the user the whole manifest
            failed = True
            continue
        findings += report.findings
        if not (isinstance(report.scopes, tuple) and not report.scopes):
            scopes.append(report.scopes)  # as it is: lazy scopes stay lazy
        lost += report.lost
        if report.structure:
            structure.update(report.structure)
    merged: Sequence[Scope] = scopes[0] if len(scopes) == 1 else tuple(chain(*scopes))
    return Report(tuple(findings), merged, structure or None, tuple(lost)), failed


def elsewhere(
    lost: Iterable[Lost], head: HeadTree | None, touched: Collection[str] = ()
) -> Iterator[Finding]:
    """Links in any Markdown file at head but those the range `touched` to what the
    range's changes took away (deleted pages, removed headings: each file's
    `Report.lost`), looked for in one pass over the head for the whole range (issue
    12); nothing is read when nothing was lost."""
    targets = list(lost)
    if head is None or not targets:
        return iter(())
    from gitreview.analyze import links

    return links.check_elsewhere(targets, links.head_index(head), touched)


def imports_lost(
    changes: Iterable[tuple[str, str | None, str]], head: HeadTree | None
) -> Iterator[Finding]:
    """Imports at head of the Python modules the range deleted or renamed away, and
    includes, `mod`s and relative imports of the C headers, Rust and JavaScript
    files it did, of (status, old path, path) (python_lost.py, references_lost.py);
    nothing is read when none went."""
    if head is None:
        return iter(())
    changes = list(changes)
    return chain(
        python_lost.check(python_lost.gone(changes, head), head),
        references_lost.check(references_lost.gone(changes, head), head),
    )
