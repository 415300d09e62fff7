"""The flow, stage by stage: range -> changes -> classify + analyze -> manifest.

`classify_range` then `manifest_of` is what gitreview.build_manifest, the one
public function, does; the command line, the hook and the Actions step are thin
shells over them.
"""

from __future__ import annotations

import functools
import posixpath
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, TypeVar

from gitreview.collector import paused
from gitreview.config import CONFIG_FILE, Config, parse_config
from gitreview.errors import Exit, NotFetched, UserError
from gitreview.handles import Handle
from gitreview.model import Added, Assembled, FileChange, Finding, Range

# The analyzers, the classifiers and the manifest are loaded once git is at work on
# the range (classify_range): a tenth of a second that git's pairing of renames and
# its search of the pages for links (in a repository of 40,000, most of a push's
# time) now overlap, on the other core (issue 12).
if TYPE_CHECKING:
    from gitreview.analyze import doc_includes
    from gitreview.analyze.base import HeadTree, Lost
    from gitreview.cache import Cache, Entry
    from gitreview.classify import FileVerdict, Verdict
    from gitreview.git import Listing, ObjectReader, Repository, Search, TreeReader
    from gitreview.globs import AttrRule, Gitattributes
    from gitreview.review.increments import Key, Reviewed
    from gitreview.verdicts import Attributes, Hits, Pool, Terms

Contents = Literal["none", "missing", "all"]
# Wraps the changes to show progress: (changes, how many) -> the same changes.
Progress = Callable[[Iterable[FileChange], int], Iterable[FileChange]]
_T = TypeVar("_T")


class Classified(NamedTuple):
    """One file of the range, classified; its contents are dropped once read."""

    change: FileChange
    kind: str
    verdict: FileVerdict  # its own, then as moved blocks and the trust rules leave it
    t1: bool  # T1 analysis was possible
    lost: tuple[Lost, ...]  # what links elsewhere may have pointed at (analyze.elsewhere)
    # Its entry, or the entry's `stored` form where one was made (a worker's, or the
    # cache's): what only its report reads (the analysis, the hunks as shown, the key
    # blocks), held as bytes, a third of their size as objects, until then (issue 12).
    proof: Entry | bytes
    full: bool = False  # its whole content and diff go in the manifest
    content: str | None = None  # its text at head, kept only when `full`

    def entry(self) -> Entry:
        """Its entry, as the proof left it (the verdict before moves)."""
        if isinstance(self.proof, bytes):
            from gitreview.cache import restored

            return restored(self.proof)
        return self.proof


class Outcome(NamedTuple):
    rng: Range
    files: list[Classified]
    findings: list[Finding]
    settings: Config
    source: str
    instructions: Mapping[str, str] = {}  # role -> its brief's text (never changed in place)
    reviewed: Reviewed | None = None  # what an earlier review covered (--since)


def manifest_of(outcome: Outcome, *, budget: int | None = None) -> dict[str, Any]:
    """The review manifest of a classified range (its files are let go: `review_of`)."""
    return review_of(outcome, budget=budget).manifest


@paused()
def review_of(outcome: Outcome, *, budget: int | None = None) -> Assembled:
    """The review manifest of a classified range and each role's brief; `budget`
    overrides every role's. The outcome's files are let go as their entries are
    made (the list is left empty): a large range never holds every hunk's lines and
    every entry at once (issue 12)."""
    from gitreview.manifest import assemble, file_report

    own: dict[str | None, list[Finding]] = {}
    for finding in outcome.findings:
        own.setdefault(finding.path, []).append(finding)
    files = []
    outcome.files.reverse()
    while outcome.files:
        c = outcome.files.pop()
        entry = c.entry()
        files.append(
            file_report(
                c.change,
                c.kind,
                entry.analysis,
                c.verdict,
                entry.head_tokens,
                keys=entry.keys,
                findings=own.get(c.change.path, ()),
                full=c.full,
                content=c.content,
                reviewed=outcome.reviewed,
                shown=entry.shown,
            )
        )
        del c, entry
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


@paused()
def classify_range(
    repo: str | Path | Repository | None = None,
    spec: str | None = None,
    *,
    config: str | Path | None = None,
    patch: bytes | None = None,
    patch_name: str = "-",
    contents: Contents = "none",
    base_head: tuple[str | None, str] | None = None,
    progress: Progress | None = None,
    cache: bool = True,
    jobs: int | None = None,
    history: Sequence[str] | None = None,
) -> Outcome:
    """Every file of the range analyzed and classified, moves included, and the findings.

    `contents`: which files carry their whole content and diff in the manifest:
    "missing" for those without T1 analysis (--fallback), "all" for the
    full-content bundle, "none" by default. `base_head` gives the range as commit
    ids (base None: the empty tree) instead of `spec`, which then only names it.
    `cache`: reuse and keep verdicts proved before, under the git directory (cache.py).
    `jobs`: processes that prove files (verdicts.py; None: one per core for a large range).
    `repo`: a path (None: where git finds one), or the repository already opened.
    `history`: the secrets each commit adds looked for too, for what publishes the
    range's commits (the hook, the Actions step: analyze/history.py), in the commits
    none of these revisions holds (already published: `--remotes`).
    """
    if patch is not None:
        from gitreview.analyze.trust import Origin
        from gitreview.patch import read_patch
        from gitreview.verdicts import Terms

        settings = _config_from_path(config)
        _check_rules(settings, str(config))
        origin = Origin("default" if config is None else "file", None, _name(config))
        rng = Range(spec=f"patch:{patch_name}", base=None, head=None, commits=())
        patched = _blobs_checked(read_patch(patch, patch_name), repo)
        return _classify(
            rng,
            patched,
            Terms(settings, origin),
            lambda _change: ({}, None),
            head=None,
            source="patch",
            contents=contents,
        )
    from gitreview.changes import iter_changes
    from gitreview.git import TreeReader, open_repository
    from gitreview.ranges import range_ends

    repository = open_repository(repo)
    if base_head is not None:
        base_sha, head_sha = base_head
        rng = Range(spec or f"{base_sha or ''}..{head_sha}", base_sha, head_sha, commits=())
    else:
        rng = Range(*range_ends(repository, spec), commits=())
    assert rng.head is not None  # only a patch has no head
    head = TreeReader(repository, rng.head)
    # Issue 11: the range is untrusted input. What decides its review (configuration,
    # attributes, frontmatter schema files) comes from the base commit; from the head
    # only when there is no base (a root commit, which has nothing older to trust).
    tree: Literal["base", "head"] = "base" if rng.base else "head"
    trusted = TreeReader(repository, rng.base) if rng.base else head
    if config is not None:
        settings, source = _config_from_path(config), str(config)
    else:
        text = trusted.read(CONFIG_FILE)
        settings = Config() if text is None else parse_config(text, CONFIG_FILE)
        source = CONFIG_FILE
    # git pairs the files, then searches the pages for links to those the range takes
    # away, while the analyzers load (the imports above and in _classify).
    sized = iter_changes(repository, rng, copies=settings.detect_copies)
    listing = repository.listing(rng.base, rng.head)
    try:
        gone = sized.gone()
    except UserError:
        _check_rules(settings, source)  # a configuration's error is told first, as ever
        raise
    store = _cache(repository) if cache else None
    _search_links_ahead(repository, head, rng.head, gone, store)
    from gitreview.analyze.doc_includes import searched

    # Pages showing files' lines, searched meanwhile: where either end has a site's
    # configuration (a range that drops `book.toml` is still told of its pages).
    wanted = searched(sized.paths(), lambda path: head.exists(path) or trusted.exists(path))
    includes = None if wanted is None else head.search(*wanted)
    try:
        _check_rules(settings, source)  # git searches while it loads the analyzers
    except UserError:
        head.close()  # the search too
        if includes is not None:
            includes.close()
        if head.pages is not None:
            head.pages.close()
        raise
    settings = _with_schema_texts(settings, trusted.read, tree)
    settings = _with_site(settings, (trusted, head), sized.paths())
    from gitreview.analyze.trust import Origin
    from gitreview.verdicts import Terms, start_provers

    origin = Origin("file", tree, _name(config)) if config is not None else Origin(tree, tree)
    terms = Terms(settings, origin, repository.git_dir, rng.head)
    pool = None
    if store is None or not store.holds_entries():
        # Every file is proved: the workers load while the attributes are read.
        pool = start_provers(terms, jobs, len(sized), head)
    try:  # from here the workers, git's processes and the cache end with the run
        attributes_of = _TreeAttributes(trusted.read_many)
        attributes_of.read_ahead(sized.paths())

        def attributes(change: FileChange) -> tuple[Attributes, Attributes]:
            # Both ends from the trusted tree; with no base the old end has none, so an
            # attribute a root commit sets proves nothing (classify/generated.py).
            at_head = attributes_of.for_path(change.path)
            old_path = change.old_path or change.path
            if not rng.base:
                return at_head, {}
            # Most pairs keep their path: one reading serves both ends.
            return at_head, at_head if old_path == change.path else attributes_of.for_path(old_path)

        changes: Iterable[FileChange] = sized
        if progress is not None:
            changes = progress(sized, len(sized))
        hits = None
        if store is not None and contents != "all" and store.holds_entries():
            from gitreview.verdicts import Hits

            def needs_contents(entry: Entry) -> bool:
                return _full(entry, contents)  # an outline reads its sides from git

            # A file found in the cache from git's patch alone is not read (issue 12).
            hits = sized.unread = Hits(store, terms, attributes, head, needs_contents)
        outcome = _classify(
            rng,
            changes,
            terms,
            attributes,
            head=head,
            source="git",
            contents=contents,
            cache=store,
            jobs=jobs,
            size=len(sized),
            listing=listing,
            order=sized.order(),
            hits=hits,
            blobs=repository.objects(),
            pool=pool,
            base=trusted if rng.base else None,
            history=None if history is None else _history(repository, rng, history),
            includes=includes,
        )
    finally:
        if includes is not None:
            includes.close()
        if pool is not None:
            pool.close()  # when the classification did not get to it (twice is fine)
        listing.close()
        head.close()
        if head.pages is not None:
            head.pages.close()
        if store is not None:
            store.close()
    source = CONFIG_FILE if config is None else str(config)
    return outcome._replace(instructions=_instructions(settings, trusted.read, source))


@paused()
def since_review(
    outcome: Outcome,
    repo: str | Path | Repository | None = None,
    *,
    since: str | None = None,
    since_manifest: str | Path | None = None,
    config: str | Path | None = None,
    cache: bool = True,
    jobs: int | None = None,
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
    repository = open_repository(repo)
    wanted: set[str] | None = None
    if since is not None:
        head = repository.resolve_commit(since)
        if head is None:
            raise NotFetched.revision(since)
        base = outcome.rng.base and repository.merge_base(outcome.rng.base, head)
        named = since
    else:
        assert since_manifest is not None
        base, head, wanted = _manifest_review(since_manifest)
        if repository.resolve_commit(head) is None:
            raise NotFetched(f"{since_manifest}: its head {head[:12]} is not in this repository")
        named = str(since_manifest)
    before = classify_range(
        repository, config=config, base_head=(base, head), cache=cache, jobs=jobs
    )
    from gitreview.manifest import hunk_handle
    from gitreview.review.increments import Reviewed, file_digest, hunk_digest

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
                    hunks[(change.path, hunk_digest(change, hunk))] = handle
        whole = str(Handle(change.path, change.new_oid or change.old_oid))
        if not significant and (wanted is None or whole in wanted):
            hunks[(change.path, file_digest(change))] = whole  # routed whole
    return outcome._replace(reviewed=Reviewed(named, hunks))


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
    terms: Terms,
    attributes: Callable[[FileChange], tuple[Attributes, Attributes | None]],
    *,
    head: HeadTree | None,
    source: str,
    contents: Contents,
    cache: Cache | None = None,
    jobs: int | None = None,
    size: int = 0,
    listing: Listing | None = None,
    order: Mapping[str, int] | None = None,
    hits: Hits | None = None,
    blobs: ObjectReader | None = None,
    pool: Pool | None = None,
    base: HeadTree | None = None,
    history: _History | None = None,
    includes: Search | None = None,
) -> Outcome:
    """Every file proved (verdicts.py), then what only the whole range shows: moved
    blocks, links elsewhere, and the range analyzers. `listing`: the range's
    commits, which git lists while the files are proved in this process, or, when
    workers prove them, while moved blocks are looked for: a core is free then.
    `order`: each change's place by its path, when `changes` may come out of it
    (changes.Changes: added files wait for git's copies). `blobs`: where a file's
    sides are read again if a moved block needs its outline (a patch has none: its
    sides are kept). `pool`: the workers, when they were started before the first
    file was read (verdicts.start_provers). `base`: the base commit's tree, asked too
    where the head's answer could loosen the range's own review."""
    from gitreview.analyze import RANGE_ANALYZERS, imports_lost, trust
    from gitreview.analyze import elsewhere as analyze_elsewhere
    from gitreview.classify.moves import find_moves
    from gitreview.verdicts import apply_rule_settings, proved, provers

    settings = terms.settings

    files: list[Classified] = []
    findings: list[Finding] = []
    if hits is not None:
        attributes = hits.attributes  # a hit's, worked out when it was found
    if listing is not None and provers(terms, jobs, size) == 1:
        listing.start()  # git lists the commits on the core no worker takes
    pending = ((change, *attributes(change)) for change in changes)
    proving = proved(
        pending, terms, head=head, cache=cache, jobs=jobs, size=size, hits=hits, pool=pool
    )
    alike = _Alike()
    for change, entry, data in proving:
        files.append(_restored(change, entry, data, contents, blobs, alike, terms.settings))
        findings += entry.findings
    if order is not None:
        files.sort(key=lambda c: order[c.change.path])  # moves go in the range's order
    if listing is not None:
        listing.start()
    # Asked of both ends: the range may not loosen its own review by dropping the
    # option (`python_functions`) that makes its moves significant.
    tests_named = functools.cache(
        lambda: head is None or any(_tests_named(tree) for tree in (head, base) if tree)
    )
    moved = find_moves([(c.change, c.kind, c.t1, c.verdict) for c in files], tests_named)
    if listing is not None:
        rng = rng._replace(commits=listing.commits())
    files = [
        c._replace(verdict=_never_trivial(v) if trust.rule_of(c.change, settings) else v)
        for c, v in zip(files, moved, strict=True)
    ]
    touched = {c.change.path for c in files}
    lost = (one for c in files for one in c.lost)
    findings += apply_rule_settings(analyze_elsewhere(lost, head, touched), settings)
    moved_away = ((c.change.status, c.change.old_path, c.change.path) for c in files)
    findings += apply_rule_settings(imports_lost(moved_away, head), settings)
    if includes is not None:
        from gitreview.analyze import doc_includes

        included = map(_included, (c.change for c in files))
        shown = doc_includes.check(included, head, touched, includes.result())
        findings += apply_rule_settings(tuple(shown), settings)
    for range_analyzer in RANGE_ANALYZERS:
        findings += apply_rule_settings(tuple(range_analyzer(rng, settings)), settings)
    if history is not None and head is not None and len(rng.commits) > 1:
        # One commit's own diff is the range's: only two or more can hide one.
        from gitreview.analyze.history import secrets_in_history

        found = secrets_in_history(
            history.added(), functools.cache(_text_of(head)), history.in_base
        )
        findings += apply_rule_settings(tuple(found), settings)
    return _redacted(Outcome(rng, files, findings, settings, source))


class _History(NamedTuple):
    """What the range's commits added, and whether the base holds a text anywhere."""

    added: Callable[[], Iterable[Added]]
    in_base: Callable[[str], bool]


def _history(repository: Repository, rng: Range, published: Sequence[str]) -> _History:
    base, head = rng.base, rng.head
    assert head is not None  # only a patch has no head
    return _History(
        lambda: repository.added_in_history(base, head, published),
        lambda text: base is not None and repository.tree_holds(base, text),
    )


def _included(change: FileChange) -> doc_includes.Changed:
    """What a page including the file needs of its change (analyze/doc_includes.py)."""
    from gitreview.analyze.doc_includes import Changed
    from gitreview.model import origins_of

    old_path = change.old_path or change.path
    gone = change.status == "deleted" or (change.status == "renamed" and old_path != change.path)
    first: int | None = None
    if change.hunks and change.status != "added":
        # The first hunk's first change, past the context lines that lead it.
        hunk = change.hunks[0]
        origins = origins_of(hunk.lines)
        first = hunk.old_start + len(origins) - len(origins.lstrip(" "))
    renamed_to = change.path if change.status == "renamed" else None
    return Changed(old_path, gone, renamed_to, first)


def _text_of(tree: HeadTree) -> Callable[[str], str | None]:
    """A file's text at the tree's commit, None where it has none."""

    def text(path: str) -> str | None:
        data = tree.read(path)
        return None if data is None else data.decode("utf-8", "replace")

    return text


def _restored(
    change: FileChange,
    entry: Entry,
    data: bytes | None,
    contents: Contents,
    blobs: ObjectReader | None,
    alike: _Alike,
    settings: Config,
) -> Classified:
    """The file as it was classified when its entry was stored: its blobs are read
    again only to put its content in the manifest (`_full`), and for its outline
    when a moved block asks. `data`: the entry's `stored` form, if one was made,
    held instead of the entry. `alike`: the verdicts' parts kept so far."""
    from gitreview.classify import outlined, outlines

    verdict = entry.verdict
    verdict = verdict._replace(
        classification=alike(verdict.classification),
        reasons=alike(verdict.reasons),
        hunks=tuple(map(alike, verdict.hunks)),
        evidence=alike(verdict.evidence),
    )
    if outlines(verdict, change, entry.kind, settings.site):
        # The analysis decoded both sides (entry.texts): the outline reads them again.
        old = _side(change.old_oid, change.old_data, change.old_path or change.path, blobs)
        new = _side(change.new_oid, change.new_data, change.path, blobs)
        verdict = outlined(verdict, entry.kind, *((old, new) if entry.texts else (_no_side,) * 2))
    full = _full(entry, contents)
    content = None
    if full and change.new_data is not None and not change.binary:
        content = change.new_data.decode("utf-8", "backslashreplace")
    if change.old_data is not None or change.new_data is not None:
        # Keep hunks, drop the blobs: a range of thousands of files must not
        # hold every blob until the end. (A hit made from the patch has none.)
        change = change._replace(old_data=None, new_data=None)
    return Classified(
        change,
        entry.kind,
        verdict,
        entry.analysis.t1,
        entry.analysis.report.lost,
        entry if data is None else data,
        full=full,
        content=content,
    )


class _Alike:
    """One object for all values alike, as each file's verdict is kept: each entry
    was unpickled on its own, and thousands of hunks say "significant, content, no
    rule could prove the change meaningless" (a large range held each apart, issue 12)."""

    __slots__ = ("_kept",)

    def __init__(self) -> None:
        self._kept: dict[Any, Any] = {}

    def __call__(self, value: _T) -> _T:
        kept: _T = self._kept.setdefault(value, value)
        return kept


def _side(
    oid: str | None, data: bytes | None, path: str, blobs: ObjectReader | None
) -> Callable[[], str | None]:
    """A side's text, as an outline reads it: from git when asked (a file found in
    the cache was never read), if there is a git to ask; else from the blob in hand
    (none from a patch). No id: the file has no such side."""
    if blobs is not None and oid is not None:
        return lambda: blobs.read(oid, "blob", path).decode("utf-8")
    if data is None:
        return _no_side
    text = data.decode("utf-8")
    return lambda: text


def _no_side() -> None:
    return None


def _full(entry: Entry, contents: Contents) -> bool:
    """Whether the file's whole content goes in the manifest."""
    return contents == "all" or (contents == "missing" and not entry.analysis.t1)


def _search_links_ahead(
    repository: Repository, head: TreeReader, commit: str, gone: list[str], store: Cache | None
) -> None:
    """Links elsewhere to the Markdown files the range deletes or renames away are
    looked for by git while the range is analyzed (analyze/links.py): in a
    repository of 40,000 pages that search is most of an everyday push. Where a
    cache is kept from run to run, the pages' index answers instead, brought up to
    the head by reading the pages that differ (page_index.py)."""
    from gitreview.pages import MARKDOWN_SUFFIXES, is_markdown, name_forms

    if store is not None and store.holds_entries():  # none in a fresh clone's first run
        from gitreview.page_index import PageIndex

        head.pages = PageIndex(repository, head, commit, store)
    names = sorted({form for path in gone if is_markdown(path) for form in name_forms(path)})
    if names and head.pages is not None:
        head.pages.start()
    elif names:
        head.search_ahead(tuple(names), MARKDOWN_SUFFIXES)


# pytest's configuration files at the root, and the options that collect tests by
# other names than `test*` (found by an adversarial review: `check_*` functions).
_PYTEST_CONFIGS = ("pytest.ini", "pyproject.toml", "setup.cfg", "tox.ini", ".pytest.ini")
_OTHER_TEST_NAMES = (b"python_functions", b"python_classes")


def _blobs_checked(
    changes: list[FileChange], repo: str | Path | Repository | None
) -> list[FileChange]:
    """The patch's changes, each keeping the blob ids of its `index` line only where
    the repository (where one is) has those blobs and the change's hunks take the one
    to the other (patch.takes): else its handles name lines alone, which `show`
    cannot open to other lines than the patch's."""
    from gitreview.git import open_repository
    from gitreview.patch import takes

    if not any(change.old_oid or change.new_oid for change in changes):
        return changes
    try:
        repository = open_repository(repo)
    except UserError:
        repository = None  # no repository to hold the blobs: no handle may name them

    def blob(oid: str | None) -> tuple[bool, bytes | None]:
        if oid is None:
            return True, None
        found = None if repository is None else repository.blob_by_prefix(oid)
        return (found is not None, None if found is None else found[1])

    checked = []
    try:
        for change in changes:
            if change.old_oid or change.new_oid:
                (has_old, old), (has_new, new) = blob(change.old_oid), blob(change.new_oid)
                if not (has_old and has_new and takes(change, old, new)):
                    change = change._replace(old_oid=None, new_oid=None)
            checked.append(change)
    finally:
        if repository is not None:
            repository.objects().close()
    return checked


def _tests_named(head: HeadTree) -> bool:
    """Whether the head's pytest configuration collects tests by other names."""
    texts = head.read_many(_PYTEST_CONFIGS)
    return any(name in text for text in texts if text for name in _OTHER_TEST_NAMES)


def _cache(repository: Repository) -> Cache:
    from gitreview.cache import Cache

    return Cache.of(repository.common_dir)


def _redacted(outcome: Outcome) -> Outcome:
    """The outcome with every credential in a name redacted (issue 11): a path, the
    range spec the user typed (a branch may be named like a token), a commit subject,
    a finding, a moved block's pointer and the evidence (a file's sections, symbols
    and structure were redacted where it was proved: analyze.settled). Done once
    classification is over, so every output (the manifest and each format, explain,
    the hook, the ci step) starts from names with nothing to hide. A handle still
    resolves: its blob id, not its path, is what `show` reads."""
    from gitreview.secrets import redact, redact_name

    names: dict[str, str] = {}  # evidence repeats from hunk to hunk

    def name(text: str) -> str:
        if text not in names:
            names[text] = redact_name(text)
        return names[text]

    rng = outcome.rng
    commits = tuple(c._replace(subject=redact(c.subject)) for c in rng.commits)
    rng = rng._replace(spec=name(rng.spec), commits=commits)
    findings = [
        f._replace(path=f.path and name(f.path), message=name(f.message)) for f in outcome.findings
    ]
    files = [_redacted_file(item, name) for item in outcome.files]
    return outcome._replace(rng=rng, files=files, findings=findings)


def _redacted_file(item: Classified, name: Callable[[str], str]) -> Classified:
    """The file with its names redacted; the same record when none holds a secret
    (the common case, and a range may have thousands of files). Its analysis's
    names were redacted when it was proved (analyze.settled)."""
    change, verdict = item.change, item.verdict
    path, old_path = name(change.path), change.old_path and name(change.old_path)
    if (path, old_path) != (change.path, change.old_path):
        change = change._replace(path=path, old_path=old_path)
    hunks = tuple(_redacted_verdict(hunk, name) for hunk in verdict.hunks)
    evidence = name(verdict.evidence)
    if evidence != verdict.evidence or hunks != verdict.hunks:
        verdict = verdict._replace(evidence=evidence, hunks=hunks)
    if change is item.change and verdict is item.verdict:
        return item
    return item._replace(change=change, verdict=verdict)


def _redacted_verdict(verdict: Verdict, name: Callable[[str], str]) -> Verdict:
    evidence = name(verdict.evidence)
    pointers = tuple((kind, name(handle)) for kind, handle in verdict.pointers)
    if evidence == verdict.evidence and pointers == verdict.pointers:
        return verdict
    return verdict._replace(evidence=evidence, pointers=pointers)


def _never_trivial(verdict: FileVerdict) -> FileVerdict:
    """A change to what decides the review is for a person to judge (issue 11): no
    rule, configured glob or move makes it trivial."""
    from gitreview.analyze.trust import REASON, WHY
    from gitreview.classify import FileVerdict, Verdict

    significant = Verdict("significant", (REASON,), WHY)
    hunks = tuple(
        significant if hunk.classification == "trivial" else hunk for hunk in verdict.hunks
    )
    if verdict.classification == "trivial":
        return FileVerdict("significant", (REASON,), hunks, WHY)
    return verdict._replace(hunks=hunks)


def _with_schema_texts(settings: Config, read: Callable[[str], bytes | None], side: str) -> Config:
    """The configuration with its frontmatter schema files read from the trusted tree."""
    if not any(isinstance(entry.schema, str) for entry in settings.frontmatter_schemas):
        return settings
    schemas = []
    for entry in settings.frontmatter_schemas:
        if isinstance(entry.schema, str):
            data = read(entry.schema)
            text = None if data is None else data.decode("utf-8", "replace")
            entry = entry._replace(text=text, read_from=side)
        schemas.append(entry)
    return settings._replace(frontmatter_schemas=tuple(schemas))


def _with_site(settings: Config, trees: Iterable[TreeReader], paths: Iterable[str]) -> Config:
    """The configuration with what the documentation sites make of the range's
    Markdown pages (sites.py), read at both ends: a setting either has counts."""
    from gitreview.pages import is_markdown
    from gitreview.sites import NAMES, Site, candidates, site_folders, site_of

    pages = [path for path in paths if is_markdown(path)]
    if not pages:
        return settings
    folders = site_folders(pages)
    found = []
    for tree in dict.fromkeys(trees):  # one tree when the range has no base
        wanted = candidates(tree.names_in(folders, NAMES))
        found.append(site_of(dict(zip(wanted, tree.read_many(wanted), strict=True))))
    site = Site(
        mdx=tuple(sorted({scope for one in found for scope in one.mdx})),
        breaks=tuple(sorted({scope for one in found for scope in one.breaks})),
    )
    return settings._replace(site=site) if site != settings.site else settings


def _name(config: str | Path | None) -> str | None:
    return None if config is None else str(config)


def _instructions(
    settings: Config, read: Callable[[str], bytes | None], source: str
) -> dict[str, str]:
    """Each role's instructions file, read from the trusted tree, as the configuration
    (issue 11: a range must not rewrite its own reviewer's prompt); a missing file is
    a configuration error naming it, in `source`, the configuration's file."""
    from gitreview.secrets import redact

    texts: dict[str, str] = {}
    for role in settings.roles:
        if role.instructions is None:
            continue
        data = read(role.instructions)
        if data is None:
            raise UserError(
                f"{source}: roles.{role.name}.instructions: no file {role.instructions}",
                status=Exit.CONFIG,
            )
        texts[role.name] = redact(data.decode("utf-8", "replace"))  # every brief prints it
    return texts


def _config_from_path(path: str | Path | None) -> Config:
    if path is None:
        return Config()
    try:
        text = Path(path).read_bytes()
    except OSError as error:
        raise UserError(
            f"cannot read configuration {path}: {error.strerror}", status=Exit.CONFIG
        ) from None
    return parse_config(text, str(path))


def _check_rules(settings: Config, source: str) -> None:
    """Every rule the configuration names exists: the analyzers, loaded for it only
    when it names one, say which do."""
    if settings.rules:
        from gitreview.verdicts import check_rules

        check_rules(settings, source)


class _TreeAttributes:
    """gitattributes of paths in one commit's tree. Each folder's .gitattributes is
    read and parsed once, and the rules that apply in a folder are gathered once
    for all its files; the working tree and $GIT_DIR/info are never read."""

    def __init__(self, read: Callable[[list[str]], list[bytes | None]]) -> None:
        self._read = read  # files' contents (None: no such file), asked together
        self._rules: dict[str, tuple[AttrRule, ...] | None] = {}  # folder -> its file's
        self._folders: dict[str, Gitattributes | None] = {}  # folder -> all that apply

    def for_path(self, path: str) -> Attributes:
        matcher = self._matcher(posixpath.dirname(path))
        return {} if matcher is None else matcher.for_path(path)

    def read_ahead(self, paths: Iterable[str]) -> None:
        """The .gitattributes of every folder above `paths`, asked of git at once
        (one question a folder cost 0.3 s on a range over a thousand folders)."""
        folders = {
            chained for folder in set(map(posixpath.dirname, paths)) for chained in _chain(folder)
        }
        wanted = sorted(folder for folder in folders if folder not in self._rules)
        for folder, data in zip(wanted, self._read(list(map(_file, wanted))), strict=True):
            self._rules[folder] = _parsed(folder, data)

    def _matcher(self, folder: str) -> Gitattributes | None:
        if folder not in self._folders:
            from gitreview.globs import Gitattributes

            rules = {d: r for d in _chain(folder) if (r := self._file_rules(d)) is not None}
            self._folders[folder] = Gitattributes.from_rules(rules) if rules else None
        return self._folders[folder]

    def _file_rules(self, folder: str) -> tuple[AttrRule, ...] | None:
        if folder not in self._rules:
            self._rules[folder] = _parsed(folder, self._read([_file(folder)])[0])
        return self._rules[folder]


def _chain(folder: str) -> list[str]:
    """The root ("") and every folder down to `folder`."""
    parts = folder.split("/") if folder else []
    return ["", *("/".join(parts[: i + 1]) for i in range(len(parts)))]


def _file(folder: str) -> str:
    return f"{folder}/.gitattributes" if folder else ".gitattributes"


def _parsed(folder: str, data: bytes | None) -> tuple[AttrRule, ...] | None:
    from gitreview.globs import parse_gitattributes

    text = None if data is None else data.decode("utf-8", "replace")
    return None if text is None else parse_gitattributes(text, macros_allowed=not folder)
