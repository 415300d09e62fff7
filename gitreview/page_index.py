"""The pages' index: which pages of the head may name a file, kept between runs.

Links elsewhere (analyze/links.py) read the pages that name a file the range
loses. Found by `git grep`, that costs a read of every page of the head, in
every run: in a repository of 40,000 pages, most of an everyday push. The index
keeps each page's runs of name characters ending with a Markdown suffix
(pages.name_runs) in the cache, for the commit it was made of; the next run
brings it up to its own head by reading only the pages that differ, so what a
push pays grows with the push, not with the repository (issue 12).

A page holding a name has a run the name's lead begins (pages.lead): the pages
the index gives are all those a search would give that matter, and perhaps a few
more, which the links check reads and finds nothing in. The index is made where
a cache is kept from run to run (a clone's hook, not a fresh CI checkout), when
a range first loses a page: by one `git grep -o`, at about a search's cost.
Without Perl-compatible regular expressions in git, pages are searched as before.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from gitreview.pages import MARKDOWN_SUFFIXES, NAME_RUN, is_markdown, lead, name_runs

if TYPE_CHECKING:
    from gitreview.cache import Cache
    from gitreview.git import NameRuns, Repository, TreeReader

# Past this many pages that differ from the indexed commit, the index is made again
# from the head (one git process) rather than brought up to it page by page.
CHANGED_PAGES = 2000


class PageIndex:
    """The pages' index of one head, as a run works it out and then keeps it."""

    def __init__(self, repo: Repository, head: TreeReader, commit: str, cache: Cache) -> None:
        self._repo = repo
        self._head = head
        self._commit = commit
        self._cache = cache
        self._since: str | None = None  # the indexed commit brought up to the head
        self._changed: dict[str, set[str]] = {}  # pages that differ from it: their runs
        self._made: NameRuns | None = None  # every page's runs, when made from the head
        self._runs: list[tuple[str, str]] | None = None  # what is kept at the end
        self._usable = True

    def start(self) -> None:
        """Ask what the cache holds and git what differs from it, or start git
        listing every page's runs: called as soon as the range is known to lose a
        page, so that git works while the analyzers load."""
        from gitreview.git import NameRuns

        since = self._cache.pages_commit()
        changed: list[str] | None = [] if since == self._commit else None
        if since is not None and since != self._commit:
            changed = self._repo.changed_paths(since, self._commit, MARKDOWN_SUFFIXES)
        if changed is None or len(changed) > CHANGED_PAGES:
            self._made = NameRuns(self._repo, self._commit, NAME_RUN, MARKDOWN_SUFFIXES)
            return
        self._since = since
        texts = self._head.read_many(changed)
        self._changed = {
            path: set() if data is None else name_runs(data)
            for path, data in zip(changed, texts, strict=True)
        }

    def holding(
        self,
        literals: tuple[str, ...],
        suffixes: tuple[str, ...],
        meanwhile: Callable[[], object] | None = None,
    ) -> tuple[str, ...] | None:
        """The files whose name ends with one of `suffixes` that may hold one of
        `literals` (TreeReader.files_holding), or None where the index cannot tell
        (not the pages, not file names): then they are searched."""
        if not self._usable or suffixes != MARKDOWN_SUFFIXES:
            return None
        if not all(map(is_markdown, literals)):
            return None
        if self._since is None and self._made is None:
            self.start()
        leads = tuple(sorted({lead(literal) for literal in literals}))
        if self._made is not None:
            self._runs = self._made.result(meanwhile)
            if self._runs is None:  # git cannot: the pages are searched
                self._usable = False
                return None
            return tuple(sorted(_naming(self._runs, leads)))
        found = self._cache.pages_naming(leads)
        if found is None or found[0] != self._since:  # another run moved the index
            self._usable = False
            return None
        kept = {path for path in found[1] if path not in self._changed}
        return tuple(sorted(kept | _naming(self._changed_runs(), leads)))

    def close(self) -> None:
        """Keep the index of the head, if it was worked out."""
        if self._made is not None:
            self._made.close()
            if self._runs is not None:
                self._cache.keep_pages(self._commit, self._runs)
        elif self._since is not None and self._usable and self._since != self._commit:
            changed = list(self._changed)
            since = self._since
            self._cache.keep_pages(self._commit, self._changed_runs(), since=since, changed=changed)

    def _changed_runs(self) -> list[tuple[str, str]]:
        return [(path, run) for path, runs in self._changed.items() for run in runs]


def _naming(runs: Iterable[tuple[str, str]], leads: tuple[str, ...]) -> set[str]:
    """The pages holding a run one of `leads` begins."""
    return {path for path, run in runs if run.startswith(leads)}
