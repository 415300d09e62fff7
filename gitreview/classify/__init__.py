"""Trivial or significant, always with the reason.

File rules decide for a whole file (a pure rename, a generated file...); hunk
rules decide hunk by hunk. Both are explicit registries: a rule returns its
reason codes when it can prove the change trivial, or None. When no rule
proves it, the change is significant, and that is the default.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Iterable

from gitreview.classify import formatting, generated, imports, prose, renames, whitespace
from gitreview.classify.base import (
    FileFacts,
    FileRule,
    FileVerdict,
    HunkRule,
    Proof,
    Verdict,
)
from gitreview.classify.outline import Outline, can_start_unit
from gitreview.classify.position import position_matters
from gitreview.lockfiles import manifest_of
from gitreview.model import MODE_SYMLINK, FileChange, Hunk
from gitreview.sites import Site

__all__ = [
    "FileFacts",
    "FileVerdict",
    "Proof",
    "Verdict",
    "aggregate",
    "classify",
    "outlined",
    "outlines",
]


# Order matters only for which reasons are reported first.
FILE_RULES: tuple[FileRule, ...] = (
    generated.ignored,
    generated.generated,
    renames.pure_rename_or_copy,
    renames.mode_only,
    prose.metadata_only,
)
HUNK_RULES: tuple[HunkRule, ...] = (
    whitespace.whitespace_only,
    imports.import_order,
    formatting.formatting,
    prose.metadata_hunk,
    prose.reflow,
    prose.typo,
)

# Statuses where the file as a whole appears or changes nature: never trivial by hunk.
_WHOLE_FILE_STATUSES = ("added", "deleted", "type-changed")

# Why a change is significant, for `explain`.
_WHY = {
    "content": "no rule could prove the change meaningless",
    "no-analysis": "no tier-1 analysis exists for this file, so no rule could look at it",
    "finding": "an error-level finding is in it",
    "added": "the file is new: its existence is the change",
    "deleted": "the file is deleted: its absence is the change",
    "type-changed": "the entry changed type (file, symlink, submodule)",
    "binary": "binary content: no rule can look inside it",
    "submodule": "a submodule now points at another commit",
    "mode": "the mode changed: the executable bit decides whether a script or program runs",
    "position": "it touches lines whose position is syntax (a shebang, a coding cookie, "
    "a Go build constraint)",
    "mdx": "an MDX file: its JavaScript and JSX are read by no rule, so no hunk of it is proved",
    "mdx-site": "a page its site compiles as MDX (Docusaurus, sites.py): its JavaScript and "
    "JSX are read by no rule, so no hunk of it is proved",
    "test-data": "a file in a folder of test data (testdata/, fixtures/, __snapshots__/...), "
    "which tests may read byte for byte: no hunk of it is proved",
    "text-data": "a .txt file that is no documentation (outside a docs folder, not named as "
    "a README or a LICENSE is), which programs may read as written: no hunk of it is proved",
    "extension": "renamed with another extension (ci.yml to ci.yml.disabled turns CI off)",
    "path-role": "renamed where the path tells tools something else (test_x.py to x.py is no "
    "longer collected, a workflow out of .github/workflows/ no longer runs)",
    "metadata": "the entry changed in a way no rule covers",
}


def classify(facts: FileFacts) -> FileVerdict:
    """The file's verdict, before moves and without an outline (`outlined`)."""
    return _with_findings(facts, _classify(facts))


def outlined(
    verdict: FileVerdict, kind: str, old: Callable[[], str | None], new: Callable[[], str | None]
) -> FileVerdict:
    """The verdict with the outline moves.py reads where `outlines` says it may,
    made from the two sides' texts (`old`, `new` give them) when a moved block
    first asks; moves.py drops it."""
    return verdict._replace(outline=Outline(kind, old, new))


def outlines(verdict: FileVerdict, change: FileChange, kind: str, site: Site) -> bool:
    """Whether a moved block may read the file's outline: a moved unit may make a
    hunk trivial later, or be the source of one (a deleted file too), where a
    changed line can start a unit."""
    if verdict.classification == "trivial" and change.status != "deleted":
        return False
    return can_start_unit(change, kind) and not _unproved(change.path, kind, site)


def _classify(facts: FileFacts) -> FileVerdict:
    verdict = None
    for rule in FILE_RULES:
        proof = rule(facts)
        if proof is not None:
            trivial = tuple(
                Verdict("trivial", proof.reasons, proof.evidence) for _ in facts.change.hunks
            )
            verdict = FileVerdict("trivial", proof.reasons, trivial, proof.evidence)
            if rule is generated.generated:
                verdict = _entry_changed(facts, verdict)
            break
    if verdict is None:
        hunk_verdicts = tuple(_classify_hunk(facts, hunk) for hunk in facts.change.hunks)
        verdict = aggregate(facts.change, facts.analysis.t1, hunk_verdicts)
    if verdict.classification != "trivial":
        return verdict
    unread = generated.out_of_unread(facts)
    if unread is not None:
        return FileVerdict("significant", ("path-role",), verdict.hunks, unread)
    # A file rule proved it trivial (a generated header, a lock file), not its path:
    # renamed out of .github/workflows/ or out of test collection, it still stops
    # running (found by a review of the path roles).
    role = renames.role_change(facts.change)
    if role is not None:
        return FileVerdict("significant", (role[0],), verdict.hunks, role[1])
    return verdict


def _entry_changed(facts: FileFacts, verdict: FileVerdict) -> FileVerdict:
    """A generated file's verdict where the file itself went or changed nature, not
    only its content (found by an adversarial review: a deleted Cargo.lock unpins
    every package, a package-lock.json made a link reads another file, a generated
    hook losing its executable bit no longer runs). What a program wrote stays
    trivial line by line; the deletion, the link's target or the bit goes to review.
    Not a lock file deleted with its whole folder: the package went (a review of the
    fix: a crate removed cost a handle for its Cargo.lock)."""
    change = facts.change
    why = f"{verdict.evidence}, but"
    if change.status == "deleted":
        # Its folder gone whole: the package went (not a manifest moved elsewhere, which
        # leaves its packages unpinned: a second review).
        folder, project = posixpath.dirname(change.path), facts.project
        gone = project is not None and bool(folder) and not project.exists(folder, folder=True)
        if gone and manifest_of(change.path):
            return verdict
        return FileVerdict("significant", ("deleted",), verdict.hunks, f"{why} {_WHY['deleted']}")
    if change.status == "type-changed":
        link = Verdict("significant", ("type-changed",), _WHY["type-changed"])
        hunks = tuple(
            link if _link_side(change, hunk) else hunk_verdict
            for hunk, hunk_verdict in zip(change.hunks, verdict.hunks, strict=True)
        )
        return FileVerdict("significant", ("type-changed",), hunks, f"{why} {_WHY['type-changed']}")
    if _mode_changed(change):
        # Renamed too: what its new path tells tools is said as well (a review of the fix).
        role = renames.role_change(change)
        reasons = ("mode",) if role is None else (role[0], "mode")
        return FileVerdict("significant", reasons, verdict.hunks, f"{why} {_WHY['mode']}")
    return verdict


def _link_side(change: FileChange, hunk: Hunk) -> bool:
    """Whether a type change's hunk is the symbolic link's target (git diffs a type
    change as the old entry's removal and the new one's addition)."""
    if change.new_mode == MODE_SYMLINK:
        return hunk.new_span is not None
    return change.old_mode == MODE_SYMLINK and hunk.new_span is None


def aggregate(change: FileChange, t1: bool, hunk_verdicts: tuple[Verdict, ...]) -> FileVerdict:
    """A file's verdict from its hunks' (when no file rule applied)."""
    every_hunk_trivial = all(v.classification == "trivial" for v in hunk_verdicts)
    if every_hunk_trivial:
        # Renamed to a path that tells tools something else: no hunk shows that.
        role = renames.role_change(change)
        if role is not None:
            bit = ("mode",) if _mode_changed(change) else ()
            return FileVerdict("significant", (role[0], *bit), hunk_verdicts, role[1])
    if hunk_verdicts and every_hunk_trivial:
        if _mode_changed(change):
            return FileVerdict(
                "significant",
                ("mode",),
                hunk_verdicts,
                "every hunk is trivial, but the mode changed too: a person decides about it",
            )
        moved = [change.status] if change.status in ("renamed", "copied") else []
        reasons = _union([*moved, *(reason for v in hunk_verdicts for reason in v.reasons)])
        return FileVerdict("trivial", reasons, hunk_verdicts, "every hunk is trivial")
    reasons = _significant_reasons(change, t1)
    # What changed besides its lines counts too (found by an adversarial review: a test
    # renamed out of collection with an edit said only `content`).
    role = renames.role_change(change)
    mode = change.status != "type-changed" and _mode_changed(change)
    reasons = _union([*reasons, *([role[0]] if role else []), *(["mode"] if mode else [])])
    evidence = _WHY[reasons[0]] if role is None else f"{_WHY[reasons[0]]}; {role[1]}"
    return FileVerdict("significant", reasons, hunk_verdicts, evidence)


def _with_findings(facts: FileFacts, verdict: FileVerdict) -> FileVerdict:
    """A hunk that carries an error-level finding is never trivial, nor is its file."""
    errors = [f.line for f in facts.findings if f.severity == "error"]
    if not errors:
        return verdict
    carried = Verdict("significant", ("finding",), _WHY["finding"])
    hunks = tuple(
        carried if any(_carries(hunk, line) for line in errors) else hunk_verdict
        for hunk, hunk_verdict in zip(facts.change.hunks, verdict.hunks, strict=True)
    )
    if verdict.classification == "trivial":
        return FileVerdict("significant", ("finding",), hunks, _WHY["finding"])
    return FileVerdict(verdict.classification, verdict.reasons, hunks, verdict.evidence)


def _carries(hunk: Hunk, line: int | None) -> bool:
    """Whether a head-side finding line falls in the hunk (a finding with no line
    concerns the whole file, so every hunk carries it)."""
    if line is None:
        return True
    return hunk.new_start <= line < hunk.new_start + max(hunk.new_count, 1)


def _classify_hunk(facts: FileFacts, hunk: Hunk) -> Verdict:
    if facts.change.status in _WHOLE_FILE_STATUSES:
        # The file's existence is the change: an added __init__.py holding one blank
        # line makes a package, whatever its whitespace.
        return Verdict("significant", (facts.change.status,), _WHY[facts.change.status])
    if position_matters(facts, hunk):
        return Verdict("significant", ("content",), _WHY["position"])
    unproved = _unproved(facts.change.path, facts.kind, facts.config.site)
    if unproved:
        return Verdict("significant", ("content",), _WHY[unproved])
    for rule in HUNK_RULES:
        proof = rule(facts, hunk)
        if proof is not None:
            return Verdict("trivial", proof.reasons, proof.evidence)
    reason = "content" if facts.analysis.t1 else "no-analysis"
    return Verdict("significant", (reason,), _WHY[reason])


def _unproved(path: str, kind: str, site: Site) -> str:
    """Why no hunk of the file may be proved trivial, whatever its kind's rules say
    ("" when they may): found by adversarial reviews."""
    lowered = path.lower()
    if lowered.endswith(".mdx"):
        return "mdx"  # JavaScript (`export const poem = \`...\``, `{...}`, JSX) in Markdown
    if kind == "markdown" and site.mdx_at(path):
        return "mdx-site"  # Docusaurus compiles `.md` as MDX too
    folders = lowered.split("/")[:-1]
    if renames.is_test_data(lowered):
        return "test-data"
    if kind == "text" and lowered.endswith(".txt") and not _documentation(lowered, folders):
        return "text-data"
    return ""


def _documentation(lowered: str, folders: list[str]) -> bool:
    """Whether a `.txt` file is documentation, for people to read: in a folder of
    documentation, or named as a project's documents are. Any other is as likely
    read by a program (`version.txt` by `$(cat version.txt)`, which keeps a `\r`;
    Arduino's `keywords.txt`, whose tabs are syntax; `//go:embed usage.txt`, a
    table printed as written; found by two adversarial reviews)."""
    if not _DOC_FOLDERS.isdisjoint(folders):
        return True
    name = lowered.rsplit("/", 1)[-1].removesuffix(".txt")
    first = name.split(".")[0].split("-")[0].split("_")[0]
    # `README-dev.txt` is one; `release-version.txt` is not (a review found it trivial).
    return name in _DOC_NAMES or first in _DOC_WORDS


# Names no program's data takes as its first word.
_DOC_WORDS = frozenset({"readme", "license", "licence", "copying", "changelog", "notice"})
_DOC_FOLDERS = frozenset({"doc", "docs", "documentation", "man", "manual", "guide", "guides"})
_DOC_NAMES = frozenset(
    {"readme", "license", "licence", "copying", "notice", "changelog", "changes", "history"}
    | {"news", "authors", "contributors", "contributing", "install", "todo", "credits"}
    | {"thanks", "release", "releasenotes", "upgrading", "faq", "security", "hacking", "notes"}
)


def _mode_changed(change: FileChange) -> bool:
    return None not in (change.old_mode, change.new_mode) and change.old_mode != change.new_mode


def _significant_reasons(change: FileChange, t1: bool) -> tuple[str, ...]:
    """Why a file needs a reviewer: what kind of change no rule could prove trivial."""
    if change.is_submodule:
        return ("submodule",)
    if change.status not in _WHOLE_FILE_STATUSES and change.same_content and _mode_changed(change):
        return ("mode",)  # an executable's bit, whatever its content
    if change.binary:
        return ("binary",)
    if change.status in _WHOLE_FILE_STATUSES:
        return (change.status,)
    if not change.hunks:
        if _mode_changed(change):
            return ("mode",)
        return ("metadata",)
    return ("content",) if t1 else ("no-analysis",)


def _union(reasons: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(reasons))
