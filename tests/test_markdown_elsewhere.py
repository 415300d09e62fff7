"""Links elsewhere broken by the range (issue 4): files the range did not touch that link
to a heading it renamed or removed, an anchor it removed, or a Markdown file it deleted or
renamed. A touched file's links are its own analysis's business."""

import os
import random
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from manifests import files_by_path, run
from repos import RepoFactory, git

from gitreview.git import (
    GREP_LITERALS,
    GitObject,
    TreeReader,
    files_holding,
    literal_finder,
    open_repository,
)

ELSEWHERE = "markdown/broken-elsewhere"
RENAMED = "heading 'Install' of docs/guide.md was renamed to 'Installation' (#installation)"


@pytest.fixture(scope="module")
def manifest(fixture_repo: RepoFactory) -> dict[str, Any]:
    result = run("--repo", fixture_repo("markdown_elsewhere"), "v1..v2")
    assert result.status == 1, result.stderr
    return result.manifest


def findings(manifest: dict[str, Any]) -> list[tuple[str, str, str, int | None, str]]:
    return [
        (f["rule"], f["severity"], f["path"], f["line"], f["message"])
        for f in manifest["findings"]
        if f["rule"].startswith("markdown/")
    ]


def test_links_in_untouched_files(manifest: dict[str, Any]) -> None:
    broken = [f[2:] for f in findings(manifest) if f[0] == ELSEWHERE and f[1] == "error"]
    assert broken == [
        ("README.md", 3, f"link 'docs/guide.md#install' broken by this range: {RENAMED}"),
        (
            "README.md",
            4,
            "link 'docs/guide.md#faq' broken by this range: heading 'FAQ' of docs/guide.md"
            " was removed",
        ),
        (
            "README.md",
            6,
            "link 'docs/guide.md#legacy' broken by this range: anchor 'legacy' of docs/guide.md"
            " was removed",
        ),
        ("README.md", 7, "link 'docs/old.md' broken by this range: docs/old.md was deleted"),
        (
            "README.md",
            8,
            "link 'docs/moved.md#intro' broken by this range: docs/moved.md was renamed to"
            " docs/renamed.md",
        ),
        ("README.md", 10, f"link 'docs/guide.md#Install' broken by this range: {RENAMED}"),
        ("docs/index.md", 1, "link './old.md' broken by this range: docs/old.md was deleted"),
        ("docs/index.md", 1, f"link 'guide.md#install' broken by this range: {RENAMED}"),
    ]


def test_a_touched_file_gets_its_own_finding_only(manifest: dict[str, Any]) -> None:
    assert [f for f in findings(manifest) if f[2] == "docs/touched.md"] == [
        (
            "markdown/broken-anchor",
            "warning",
            "docs/touched.md",
            1,
            "broken anchor 'guide.md#install': no heading or anchor 'install' in docs/guide.md"
            " (did you mean '#installation'?)",
        )
    ]


def test_only_markdown_files_and_only_what_the_range_broke(manifest: dict[str, Any]) -> None:
    paths = {f[2] for f in findings(manifest)}
    # notes.txt names docs/old.md, but is not Markdown; index.md's link to ../src/app.py was
    # broken before the range and is not the range's doing.
    assert paths == {"README.md", "docs/index.md", "docs/touched.md"}


def test_the_renamed_heading_in_the_structure(manifest: dict[str, Any]) -> None:
    structure = files_by_path(manifest)["docs/guide.md"]["structure"]
    assert [(s["text"], s.get("was")) for s in structure["sections"]] == [
        ("Guide", None),
        ("Installation", "Install"),
        ("Usage", None),
    ]
    assert structure["removed"] == ["Guide > FAQ"]


def test_the_rule_can_be_turned_off(fixture_repo: RepoFactory, tmp_path: Any) -> None:
    config = tmp_path / "config.yml"
    config.write_text("rules:\n  markdown/broken-elsewhere: 'off'\n")
    result = run("--repo", fixture_repo("markdown_elsewhere"), "v1..v2", "--config", config)
    assert result.status == 0, result.stderr
    assert ELSEWHERE not in {f["rule"] for f in result.manifest["findings"]}


def test_every_markdown_suffix_in_any_case_is_searched(tmp_path: Path) -> None:
    # Links elsewhere are found by one `git grep` per range (issue 12): its path filter
    # must admit every name the analyzer takes for Markdown.
    repo = tmp_path / "repo"
    pages = {
        "old.md": "# Old\n",
        "docs/Guide.MD": "[old](../old.md)\n",
        "notes.Markdown": "see [the old page](old.md)\n",
        "app.mdx": "[old](/old.md)\n",
        "notes.txt": "[old](old.md)\n",
    }
    build(repo, pages, {"old.md": None})
    result = run("--repo", repo, "HEAD")
    assert [(f["path"], f["line"], f["message"]) for f in result.manifest["findings"]] == [
        ("app.mdx", 1, "link '/old.md' broken by this range: old.md was deleted"),
        ("docs/Guide.MD", 1, "link '../old.md' broken by this range: old.md was deleted"),
        ("notes.Markdown", 1, "link 'old.md' broken by this range: old.md was deleted"),
    ]


def test_the_search_lists_the_files_that_hold_a_literal(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    build(repo, {"a.md": "x tar.md y\n", "b.MD": "two\nlines\n", "c.md": "none\n"}, {})
    repository = open_repository(str(repo))
    head = repository.resolve_commit("HEAD")
    assert head is not None
    tree = TreeReader(repository, head)
    # A literal with a line break is searched as its lines: more files, never fewer.
    assert sorted(tree.files_holding(("tar.md", "gone\nlines"), (".md",))) == ["a.md", "b.MD"]
    assert tree.files_holding(("absent",), (".md",)) == ()
    assert tree.files_holding((), (".md",)) == ()


def test_a_search_started_ahead_answers_with_what_it_still_lacks(tmp_path: Path) -> None:
    """The pipeline starts the search for deleted pages' names before analysis; the
    anchors lost are only known after, and are searched for then."""
    repo = tmp_path / "repo"
    pages = {"a.md": "[x](gone.md)\n", "b.md": "[y](kept.md#h)\n", "c.md": "none\n"}
    build(repo, pages, {})
    repository = open_repository(str(repo))
    head = repository.resolve_commit("HEAD")
    assert head is not None
    tree = TreeReader(repository, head)
    tree.search_ahead(("gone.md", "other.md"), (".md",))
    assert sorted(tree.files_holding(("gone.md", "kept.md"), (".md",))) == ["a.md", "b.md"]
    assert tree.files_holding(("kept.md",), (".txt",)) == ()
    tree.close()
    stopped = TreeReader(repository, head)
    stopped.search_ahead(("gone.md",), (".md",))
    stopped.close()  # never asked: the search is stopped, not waited for
    assert stopped.files_holding(("c.md",), (".md",)) == ()


def test_work_is_done_meanwhile_only_while_git_searches(tmp_path: Path) -> None:
    """Links elsewhere load markdown-it while git searches; once the search is over,
    nothing is done ahead of its result (it may have found no file to parse)."""
    repo = tmp_path / "repo"
    build(repo, {"a.md": "[x](gone.md)\n", "c.md": "none\n"}, {})
    repository = open_repository(str(repo))
    head = repository.resolve_commit("HEAD")
    assert head is not None
    done: list[str] = []
    tree = TreeReader(repository, head)
    tree.search_ahead(("gone.md",), (".md",))
    assert tree.files_holding(("gone.md",), (".md",), lambda: done.append("early")) == ("a.md",)
    assert done in ([], ["early"])  # at most once, and only if git was still at it
    done.clear()
    assert tree.files_holding(("gone.md",), (".md",), lambda: done.append("late")) == ("a.md",)
    assert done == []  # the search is over: its result is read at once
    tree.close()


def test_many_literals_are_looked_for_by_reading_the_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """More names than git grep tries quickly: the files are read instead, and the
    same files are found as git grep finds."""
    repo = tmp_path / "repo"
    names = [f"p{number:03}.md" for number in range(GREP_LITERALS + 6)] + ["café.md"]
    pages = {
        "a.md": "see [x](p007.md)\n",
        "b.MD": "[y](sub/p069.md)\n",
        "c.md": "xp001.md, a longer name holding one\n",
        "d.txt": "p002.md, in a file that is not Markdown\n",
        "e.md": "P003.MD, in other case\n",
        "f.md": "[z](café.md)\n",
        "g.md": "p00.md p0.md .md\n",
    }
    build(repo, pages, {})
    repository = open_repository(str(repo))
    head = repository.resolve_commit("HEAD")
    assert head is not None
    literals = tuple(names)
    tree = TreeReader(repository, head)
    tree.search_ahead(literals, (".md",))  # too many for git grep: nothing started
    by_reading = sorted(tree.files_holding(literals, (".md",)))
    by_grep = sorted(files_holding(repository, head, literals, (".md",)))
    assert by_reading == by_grep == ["a.md", "b.MD", "c.md", "f.md"]
    # The files found were read: the read that follows (links elsewhere parse them)
    # takes them as found, without asking git again, and then lets them go.
    asked = asked_names(tree, monkeypatch)
    texts = [pages[path].encode() for path in by_reading]
    assert tree.read_many([*by_reading, "d.txt"]) == [*texts, pages["d.txt"].encode()]
    # by its blob's id: the tree was listed for the search
    assert asked == [git(repo, "rev-parse", "HEAD:d.txt").strip()]
    assert tree.read_many(by_reading) == texts  # asked of git this time
    assert len(asked) == 1 + len(by_reading)
    tree.close()


def asked_names(tree: TreeReader, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What the tree asks git's batch process for from now on, in order."""
    asked: list[str] = []
    lookup_many = tree._objects.lookup_many

    def recorded(names: Sequence[str]) -> list[GitObject | None]:
        asked.extend(names)
        return lookup_many(names)

    monkeypatch.setattr(tree._objects, "lookup_many", recorded)
    return asked


def test_the_tree_is_listed_once_for_its_files_and_the_search(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    pages = {"a.md": "p000.md\n", "docs/b.MD": "x\n", "docs/c.txt": "p001.md\n", "d.md": "-\n"}
    build(repo, pages, {})
    repository = open_repository(str(repo))
    head = repository.resolve_commit("HEAD")
    assert head is not None
    tree = TreeReader(repository, head)
    assert sorted(tree.files()) == ["a.md", "d.md", "docs/b.MD", "docs/c.txt"]
    assert sorted(tree.files((".md",))) == ["a.md", "d.md"]
    names = tuple(f"p{number:03}.md" for number in range(GREP_LITERALS + 1))
    assert tree.files_holding(names, (".md",)) == ("a.md",)  # by reading: not c.txt


def test_past_so_many_files_read_by_path_the_tree_is_listed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """git finds a file by its path folder by folder: once PATHS_BEFORE_LISTING have
    been found that way (links elsewhere may read thousands of pages), the tree is
    listed and the rest are asked for by blob id; a path the listing holds no file
    at is not asked for at all. Paths found missing do not count (git finds them
    missing fast: a range asks for each folder's .gitattributes). What is read is
    the same."""
    from gitreview import git as git_module

    repo = tmp_path / "repo"
    pages = {f"docs/{number}/p.md": f"page {number}\n" for number in range(6)}
    build(repo, pages | {"sub/link.md": "x\n"}, {})
    git(repo, "rm", "-q", "sub/link.md")
    (repo / "sub").mkdir()
    os.symlink("../docs/0/p.md", repo / "sub" / "link.md")
    git(repo, "add", "sub")
    git(repo, "commit", "-q", "-m", "a link")
    repository = open_repository(str(repo))
    head = repository.resolve_commit("HEAD")
    assert head is not None
    paths = [*pages, "docs/none.md", "docs/0", "sub/link.md", "docs/1/p.md"]
    expected = [TreeReader(repository, head).read(path) for path in paths]
    assert expected[:6] == [f"page {number}\n".encode() for number in range(6)]
    assert expected[6:] == [None, None, b"../docs/0/p.md", b"page 1\n"]
    monkeypatch.setattr(git_module, "PATHS_BEFORE_LISTING", 3)
    tree = TreeReader(repository, head)
    asked = asked_names(tree, monkeypatch)
    missing = [f"docs/{number}/.gitattributes" for number in range(6)]
    assert tree.read_many(missing) == [None] * 6
    assert tree.read_many(paths[:3]) + tree.read_many(paths[3:]) == expected
    assert [name.partition(":")[2] for name in asked[:9]] == missing + paths[:3]  # by path
    assert not any(":" in name for name in asked[9:])  # then by id, and only files
    assert len(asked) == 9 + len(paths) - 3 - 2


def test_a_literal_is_found_wherever_it_ends() -> None:
    holds = literal_finder(["a.md", "abc.md", "x%20y.md", "é.md"])
    assert holds(b"see a.md")
    assert holds(b"zabc.md!") and holds(b"b.md abc.md")
    assert holds("\u00e9.md".encode())
    assert not holds(b"b.md bc.md a.m d.md") and not holds(b"")
    assert not literal_finder([])(b"anything")


def test_many_literals_are_found_as_each_would_be_alone() -> None:
    """Hundreds of literals sharing their beginnings, some inside others, some
    made of what a regular expression reads as syntax, against any `in`."""
    chooser = random.Random(12)
    alphabet = "ab.(|*\\[é"
    for _ in range(200):
        literals = [
            "".join(chooser.choices(alphabet, k=chooser.randint(1, 6)))
            for _ in range(chooser.choice((1, 3, 80, 400)))
        ]
        data = "".join(chooser.choices(alphabet + "xyz", k=chooser.randint(0, 40))).encode()
        holds = literal_finder(literals)
        assert holds(data) == any(literal.encode() in data for literal in literals), (
            literals,
            data,
        )
    # A path is anyone's to choose: literals branching at each of a thousand bytes.
    deep = literal_finder(["a" * length + "b" for length in range(1000)])
    assert deep(b"a" * 999 + b"b") and deep(b"xab") and not deep(b"a" * 2000)


def test_links_to_many_deleted_pages_are_found(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    count = GREP_LITERALS + 6
    pages = {f"p{number:03}.md": "# P\n" for number in range(count)}
    pages["keep.md"] = "# Keep\n\nSee [p5](p005.md) and [p69](p069.md).\n"
    build(repo, pages, {f"p{number:03}.md": None for number in range(count)})
    result = run("--repo", repo, "--no-cache", "--fail-on", "never", "HEAD")
    assert result.status == 0, result.stderr
    assert [(f["path"], f["line"], f["rule"]) for f in result.manifest["findings"]] == [
        ("keep.md", 3, ELSEWHERE),
        ("keep.md", 3, ELSEWHERE),
    ]


def build(repo: Path, first: dict[str, str], then: dict[str, str | None]) -> None:
    """A repository of two commits: `first`, then `then` applied (None deletes)."""
    repo.mkdir()
    git(repo, "init", "--quiet", "--initial-branch=main")
    for files in (first, then):
        for path, text in files.items():
            if text is None:
                git(repo, "rm", "--quiet", "--", path)
                continue
            (repo / path).parent.mkdir(parents=True, exist_ok=True)
            (repo / path).write_text(text)
            git(repo, "add", "--", path)
        git(repo, "commit", "--quiet", "--allow-empty", "-m", "commit")


def test_the_names_a_file_mentions_are_found_in_one_pass() -> None:
    """`Mentions` against the plain reading: a name anywhere, but not as the tail
    of a longer name."""
    import random

    from gitreview.analyze.links import Mentions

    def plainly(text: str, name: str) -> bool:
        start = text.find(name)
        while start != -1:
            before = text[start - 1] if start else "/"
            if not (before.isalnum() or before in "_-."):
                return True
            start = text.find(name, start + 1)
        return False

    names = ["p7.md", "p17.md", "Guide.MD", "a%20b.md", "x.y.markdown", "7.md"]
    names += ["guide.md", "a-guide.md", "install-guide.md"]  # one tail, three lengths
    pieces = [*names, "/", "(", " ", "_", "-", ".", "p", "1", "md", ".MD", "%20", "\n", "[l]("]
    pieces += ["a", "install", "guide"]
    mentions = Mentions(names)
    chooser = random.Random(12)
    for _ in range(2000):
        text = "".join(chooser.choice(pieces) for _ in range(chooser.randint(0, 12)))
        assert mentions.of(text) == {n for n in names if plainly(text, n)}, text


def test_links_elsewhere_are_found_from_any_folder_when_the_git_dir_names_its_worktree(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A submodule's git directory sets core.worktree: run from a subfolder, git would
    read the search's paths from there, and links outside it would go unchecked."""
    work, git_dir = tmp_path / "work", tmp_path / "git-dir"
    git(tmp_path, "init", "--quiet", f"--separate-git-dir={git_dir}", str(work))
    git(work, "config", "core.worktree", str(work))
    (work / "docs").mkdir()
    (work / "top.md").write_text("# Top\n\nSee [p](docs/page.md).\n")
    (work / "docs" / "in.md").write_text("# In\n\nSee [p](page.md).\n")
    (work / "docs" / "page.md").write_text("# P\n")
    commit_then_delete(work, "docs/page.md")
    monkeypatch.chdir(work / "docs")
    result = run("--repo", git_dir, "--no-cache", "--fail-on", "never", "HEAD")
    assert result.status == 0, result.stderr
    broken = [(f["path"], f["rule"]) for f in result.manifest["findings"]]
    assert broken == [
        ("docs/in.md", "markdown/broken-elsewhere"),
        ("top.md", "markdown/broken-elsewhere"),
    ]


def test_links_elsewhere_are_found_however_common_editors_spell_the_name(
    tmp_path: Path,
) -> None:
    """A backslash before `_`, lower-case percent-escapes: the search for the deleted
    pages' names must admit the files that spell them so."""
    work = tmp_path / "work"
    git(tmp_path, "init", "--quiet", str(work))
    (work / "page_name.md").write_text("# P\n")
    (work / "café.md").write_text("# C\n")
    (work / "one.md").write_text("# One\n\nSee [p](page\\_name.md).\n")
    (work / "two.md").write_text("# Two\n\nSee [c](caf%c3%a9.md).\n")
    commit_then_delete(work, "page_name.md", "café.md")
    result = run("--repo", work, "--no-cache", "--fail-on", "never", "HEAD")
    assert result.status == 0, result.stderr
    broken = [(f["path"], f["rule"]) for f in result.manifest["findings"]]
    assert broken == [
        ("one.md", "markdown/broken-elsewhere"),
        ("two.md", "markdown/broken-elsewhere"),
    ]


def commit_then_delete(work: Path, *pages: str) -> None:
    """Everything in `work` committed, then `pages` deleted in a second commit."""
    git(work, "add", "--all")
    git(work, "commit", "--quiet", "--message", "Pages")
    git(work, "rm", "--quiet", *pages)
    git(work, "commit", "--quiet", "--message", "Delete pages")


@pytest.mark.parametrize("rules", ["", "rules: {markdown/broken-link: warning}\n"])
def test_the_search_starts_before_the_analyzers_load(
    fixture_repo: RepoFactory, tmp_path: Path, rules: str
) -> None:
    """git searches the pages while the analyzers, classifiers and manifest load (a
    tenth of a second): in a repository of 40,000 pages the search is most of a push.
    Seen from a fresh process, where nothing is loaded yet; with a configuration that
    names a rule too, whose check loads the analyzers."""
    config = tmp_path / "review.yml"
    config.write_text(rules or "fail_on: never\n")
    program = (
        "import subprocess, sys\n"
        "seen = []\n"
        "start = subprocess.Popen.__init__\n"
        "def started(self, args, *rest, **named):\n"
        "    if 'grep' in args:\n"
        "        seen.append(sorted(m for m in ('gitreview.analyze', 'gitreview.classify',\n"
        "                                       'gitreview.manifest') if m in sys.modules))\n"
        "    start(self, args, *rest, **named)\n"
        "subprocess.Popen.__init__ = started\n"
        "from gitreview.cli import main\n"
        "sys.argv = ['git-review-manifest', '--repo', sys.argv[1], '--config', sys.argv[2],\n"
        "            '--no-cache', 'v1..v2']\n"
        "try:\n"
        "    main()\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(seen[0], file=sys.stderr)\n"
    )
    repo = fixture_repo("markdown_elsewhere")
    result = subprocess.run(
        [sys.executable, "-c", program, str(repo), str(config)],
        capture_output=True,
        text=True,
        check=True,
    )
    # The first search, for the pages the range takes away (later ones look for what
    # only the analysis finds: anchors of headings it removed).
    assert result.stderr.splitlines()[-1] == "[]"


def test_the_files_naming_a_lost_page_are_read_a_batch_at_a_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Files that name a lost page are read a few at a time and let go once looked
    at (a range losing pages that thousands of files name held all their texts):
    the findings do not depend on how many are read at once."""
    from gitreview.analyze.links import HeadIndex

    repo = tmp_path / "repo"
    pages = {
        f"p{number}.md": f"# P{number}\n\nSee [gone](gone.md) and [old](old.md#a).\n"
        for number in range(5)
    }
    pages |= {"gone.md": "# Gone\n", "old.md": "# A\n", "other.md": "[p1](p1.md)\n"}
    build(repo, pages, {"gone.md": None, "old.md": None})
    expected = run("--repo", repo, "--no-cache", "--fail-on", "never", "HEAD").manifest["findings"]
    assert [f["path"] for f in expected] == [f"p{number}.md" for number in range(5) for _ in "ab"]
    batches: list[list[str]] = []
    read_many = TreeReader.read_many

    def recorded(tree: TreeReader, paths: Sequence[str]) -> list[bytes | None]:
        batches.append([path for path in paths if path.startswith("p")])
        return read_many(tree, paths)

    monkeypatch.setattr(TreeReader, "read_many", recorded)
    monkeypatch.setattr(HeadIndex, "TEXTS_AT_ONCE", 2)
    result = run("--repo", repo, "--no-cache", "--fail-on", "never", "HEAD")
    assert result.manifest["findings"] == expected
    assert [batch for batch in batches if batch] == [
        ["p0.md", "p1.md"],
        ["p2.md", "p3.md"],
        ["p4.md"],
    ]
