"""The pages' index (page_index.py): the pages it gives for a lost page's names hold
every page in which a search finds one, whether the index is made from the head
by git or brought up to a new head from the pages that differ (issue 12)."""

import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from manifests import run
from repos import git

from gitreview.analyze.links import Mentions
from gitreview.cache import FOLDER, code_digest
from gitreview.git import NameRuns, Repository, Search, open_repository
from gitreview.pages import MARKDOWN_SUFFIXES, NAME_RUN, lead, name_forms, name_runs

# Characters of names and of the text around them: name characters, those that end
# a run, letters past ASCII (one that folds to "K" or "s"), line ends and NUL.
_PIECES = [*"aZ09_.-/ %\\()[]<>#é\u212a\u017f\r\n\0", "md", "MD", "mdx", "Md", "markdown"]


def _random_name(rng: random.Random) -> str:
    stem = "".join(rng.choice(_PIECES) for _ in range(rng.randint(0, 4)))
    stem = stem.replace("/", "").replace("\0", "").replace("\n", "")
    return stem + rng.choice([".md", ".MD", ".mdx", ".markdown", ".Md"])


def test_a_names_lead_begins_a_run_of_every_page_that_holds_the_name() -> None:
    """Against the search's own reading (`Mentions`): wherever it finds one of a
    lost page's names in a page, one of the page's runs begins with that name's
    lead, so the index gives the page."""
    rng = random.Random(20261126)
    found = 0
    for _ in range(4000):
        names = [form for _ in range(rng.randint(1, 3)) for form in name_forms(_random_name(rng))]
        pieces = [rng.choice(_PIECES) for _ in range(rng.randint(0, 12))]
        for _ in range(rng.randint(0, 3)):
            pieces.insert(rng.randint(0, len(pieces)), rng.choice(names))
        text = "".join(pieces)
        runs = name_runs(text.encode("utf-8"))
        for name in Mentions(names).of(text):
            found += 1
            assert any(run.startswith(lead(name)) for run in runs), (name, text, runs)
    assert found > 2000  # the check is not idle


@pytest.mark.parametrize("setting", [None, "grep.lineNumber", "grep.column", "-c grep.lineNumber"])
def test_git_finds_the_runs_python_finds(
    tmp_path: Path, setting: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The index is made by `git grep -o` and brought up to date by Python: the two
    find the same runs, in pages of any suffix and case, in text git takes for
    binary, past ASCII, with CR line ends; whatever the user's configuration asks
    git grep to print (found by an adversarial review: a line number was read as part
    of every name)."""
    repo = tmp_path / "repo"
    pages = {
        "a.md": "see [x](x/a.md) and <b.MD> then c.mdx, d.markdown e.md.md-x, f.mdx.md\n",
        "B.MARKDOWN": "a1.md\r\nzé.md \u017f.md \u212a.md k.mdxx [q](../x%20y.md) _under_.md\n",
        "bin.mdx": "\0binary a2.md\n",
        "none.md": "no names here\n",
        "notes.txt": "a3.md\n",
        "line\nbreak/é.md": "in a path with a line break: a4.md\n",
    }
    build(repo, pages)
    if setting is not None and setting.startswith("-c "):
        # `git -c` (a review of the fix: read after the settings gitreview gives)
        monkeypatch.setenv("GIT_CONFIG_PARAMETERS", f"'{setting[3:]}'='true'")
    elif setting is not None:
        git(repo, "config", setting, "true")
    found = NameRuns(open_repository(str(repo)), "HEAD", NAME_RUN, MARKDOWN_SUFFIXES).result()
    assert found is not None
    expected = {
        (path, run)
        for path, text in pages.items()
        if path.lower().endswith(MARKDOWN_SUFFIXES)
        for run in name_runs(text.encode("utf-8"))
    }
    assert set(found) == expected
    assert ("a.md", "e.md.md") in expected and ("B.MARKDOWN", "k.mdx") in expected
    assert ("line\nbreak/é.md", "a4.md") in expected


def test_the_index_is_made_then_brought_up_to_each_head(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A clone whose cache is kept: its first run searches (a fresh clone keeps
    nothing), the next makes the index from git, and later ones bring it up to
    their head from the pages that differ, without a search. Each finds what a run
    without the cache finds."""
    repo = tmp_path / "repo"
    pages = {f"docs/p{number}.md": f"# P{number}\n\n[Gone](gone.md)\n" for number in range(4)}
    pages |= {
        "docs/gone.md": "# Gone\n",
        "docs/other.md": "# Other\n",
        "x.md": "[o](docs/other.md)\n",
    }
    build(repo, pages)
    git(repo, "rm", "-q", "docs/gone.md")
    commit(repo)

    def no_search(*args: object, **kwargs: object) -> None:
        raise AssertionError("the pages were searched")

    def broken(rng: str, *, searched: bool = True) -> list[tuple[str, int]]:
        expected = run("--repo", repo, "--fail-on", "never", "--no-cache", rng)
        with monkeypatch.context() as patched:
            if not searched:
                patched.setattr(Search, "__init__", no_search)
            result = run("--repo", repo, "--fail-on", "never", rng)
        assert result.status == 0, result.stderr
        assert result.manifest["findings"] == expected.manifest["findings"]
        return [(f["path"], f["line"]) for f in result.manifest["findings"]]

    assert broken("HEAD~1..HEAD") == [(f"docs/p{number}.md", 3) for number in range(4)]
    assert indexed(repo) is None  # the first run of a clone searches
    forget_results(repo)
    assert broken("HEAD~1..HEAD", searched=False) == [(f"docs/p{n}.md", 3) for n in range(4)]
    assert indexed(repo) == git(repo, "rev-parse", "HEAD").strip()

    # Pages the review does not touch, changed since the indexed head: one that now
    # names the other page, a new one naming it, one deleted; then the other page goes.
    (repo / "docs" / "p1.md").write_text("# P1\n\n[O](other.md)\n")
    (repo / "docs" / "new.md").write_text("# New\n\n[O](./other.md)\n")
    git(repo, "add", "docs")
    git(repo, "rm", "-q", "docs/p3.md")
    commit(repo)
    git(repo, "rm", "-q", "docs/other.md")
    commit(repo)
    assert broken("HEAD~1..HEAD", searched=False) == [
        ("docs/new.md", 3),
        ("docs/p1.md", 3),
        ("x.md", 1),
    ]
    assert indexed(repo) == git(repo, "rev-parse", "HEAD").strip()
    # Back to an older head: brought back from the pages that differ.
    assert broken("HEAD~3..HEAD~2", searched=False) == [
        ("docs/p0.md", 3),
        ("docs/p1.md", 3),
        ("docs/p2.md", 3),
        ("docs/p3.md", 3),
    ]
    assert indexed(repo) == git(repo, "rev-parse", "HEAD~2").strip()


def test_pages_are_searched_where_git_cannot_make_the_index(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A git without Perl-compatible regular expressions cannot list the runs (a
    pattern git rejects stands for it here): the pages are searched, no index is
    kept, and the findings are the same."""
    repo = tmp_path / "repo"
    build(repo, {"a.md": "[g](gone.md)\n", "gone.md": "# Gone\n"})
    git(repo, "rm", "-q", "gone.md")
    commit(repo)
    expected = run("--repo", repo, "--fail-on", "never", "--no-cache", "HEAD~1..HEAD").manifest
    run("--repo", repo, "HEAD~1..HEAD")
    forget_results(repo)
    monkeypatch.setattr("gitreview.page_index.NAME_RUN", "(?<bad")
    result = run("--repo", repo, "--fail-on", "never", "HEAD~1..HEAD")
    assert result.manifest["findings"] == expected["findings"] != []
    assert indexed(repo) is None


def test_an_index_another_run_moved_is_not_written_over(tmp_path: Path) -> None:
    """Bringing the index up to a head writes only where it still describes the
    commit it was brought from: another run may have moved it meanwhile."""
    from gitreview.cache import Cache

    cache = Cache(tmp_path)
    cache.keep_pages("c1", [("a.md", "gone.md"), ("b.md", "x.md")])
    cache.keep_pages("c3", [("a.md", "other.md")], since="c2", changed=["a.md"])
    assert cache.pages_naming(["gone.md"]) == ("c1", {"a.md"})
    cache.keep_pages("c2", [("a.md", "other.md")], since="c1", changed=["a.md"])
    assert cache.pages_naming(["gone.md", "other.md", "x.md"]) == ("c2", {"a.md", "b.md"})
    assert cache.pages_naming(["gone.md"]) == ("c2", set())
    assert cache.pages_naming(["x"]) == ("c2", {"b.md"})  # a lead begins the run
    cache.close()


def build(repo: Path, files: dict[str, str]) -> None:
    repo.mkdir()
    git(repo, "init", "-q")
    for path, text in files.items():
        (repo / path).parent.mkdir(parents=True, exist_ok=True)
        (repo / path).write_bytes(text.encode("utf-8"))
    git(repo, "add", ".")
    commit(repo)


def commit(repo: Path) -> None:
    git(repo, "commit", "-q", "--allow-empty", "-m", "commit")


def database(repo: Path) -> Path:
    return repo / ".git" / FOLDER / f"{code_digest()}.sqlite"


def indexed(repo: Path) -> str | None:
    """The commit the pages' index describes (its tables are made with it)."""
    with sqlite3.connect(database(repo)) as db:
        try:
            row = db.execute("SELECT commit_id FROM pages_commit").fetchone()
        except sqlite3.OperationalError:
            return None
    return None if row is None else str(row[0])


def forget_results(repo: Path) -> None:
    """The whole ranges' results dropped: the next run works its range out."""
    with sqlite3.connect(database(repo)) as db:
        db.execute("DELETE FROM results")


def test_past_so_many_pages_that_differ_the_index_is_made_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """More pages differ from the indexed commit than CHANGED_PAGES: the index is
    made again from the head by git, not brought up to it page by page."""
    from gitreview import page_index

    repo = tmp_path / "repo"
    build(repo, {"a.md": "[g](gone.md)\n", "b.md": "# B\n", "gone.md": "# Gone\n"})
    git(repo, "rm", "-q", "gone.md")
    commit(repo)
    run("--repo", repo, "HEAD~1..HEAD")
    forget_results(repo)
    run("--repo", repo, "HEAD~1..HEAD")  # the index made
    (repo / "b.md").write_text("[g](gone2.md)\n")
    (repo / "gone2.md").write_text("# Gone too\n")
    git(repo, "add", ".")
    commit(repo)
    git(repo, "rm", "-q", "gone2.md")
    commit(repo)
    made: list[str] = []
    original = NameRuns.__init__

    def recorded(self: NameRuns, repo: Repository, treeish: str, *args: Any) -> None:
        made.append(treeish)
        original(self, repo, treeish, *args)

    monkeypatch.setattr(NameRuns, "__init__", recorded)
    monkeypatch.setattr(page_index, "CHANGED_PAGES", 0)  # b.md differs
    result = run("--repo", repo, "--fail-on", "never", "HEAD~1..HEAD")
    assert [(f["path"], f["rule"]) for f in result.manifest["findings"]] == [
        ("b.md", "markdown/broken-elsewhere")
    ]
    assert made == [git(repo, "rev-parse", "HEAD").strip()]
    assert indexed(repo) == made[0]
