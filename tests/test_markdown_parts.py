"""The Markdown analyzer's parts, without a repository: slugs, line numbers, section
pairing, the analysis without a head tree, and the head index shared by a range."""

from collections.abc import Iterable

import pytest

from gitreview.analyze import markdown
from gitreview.analyze.base import Subject
from gitreview.analyze.markdown_doc import parse
from gitreview.analyze.sections import compare, sections, words_changed
from gitreview.analyze.slugs import Slugger
from gitreview.config import Config
from gitreview.model import FileChange


def change(path: str, status: str = "modified", old_path: str | None = None) -> FileChange:
    return FileChange(
        status=status,  # type: ignore[arg-type]
        path=path,
        old_path=old_path or path,
        old_mode=0o100644,
        new_mode=0o100644,
        old_oid="1" * 40,
        new_oid="2" * 40,
        similarity=None,
        binary=False,
        hunks=(),
    )


class FakeHead:
    """A head tree in memory that counts what it is asked."""

    def __init__(self, files: dict[str, str]) -> None:
        self._files = files
        self.reads: list[str] = []
        self.listings = 0

    def read(self, path: str) -> bytes | None:
        self.reads.append(path)
        text = self._files.get(path)
        return None if text is None else text.encode()

    def is_file(self, path: str) -> bool:
        return path in self._files

    def is_dir(self, path: str) -> bool:
        return path == "" or any(name.startswith(path.rstrip("/") + "/") for name in self._files)

    def files(self, suffixes: tuple[str, ...] = ()) -> Iterable[str]:
        self.listings += 1
        return [name for name in self._files if name.endswith(suffixes or ("",))]


def test_a_slug_colliding_with_a_numbered_one_is_numbered_again() -> None:
    slugger = Slugger()  # github-slugger's rule
    assert [slugger.slug(text) for text in ("Foo", "Foo", "Foo-1", "foo")] == [
        "foo",
        "foo-1",
        "foo-1-1",
        "foo-2",
    ]


def test_link_lines_inside_paragraphs_tables_and_after_comments() -> None:
    document = parse(
        "Intro line\nsecond [a](a.md) line\n\n"  # 2
        "| x | y |\n|---|---|\n| 1 | [b](b.md) |\n\n"  # 6
        "Text <!-- a comment\nover two lines --> then [c](c.md)\n"  # 9
        "and <span\nid='x'>[d](d.md)</span>\n"  # 11
    )
    assert [(link.target, link.line) for link in document.links] == [
        ("a.md", 2),
        ("b.md", 6),
        ("c.md", 9),
        ("d.md", 11),
    ]
    assert document.anchors == {"x"}


@pytest.mark.parametrize(
    ("old", "new", "words"),
    [
        (("one two three four",), ("one two", "three four"), 0),  # re-wrapped
        (("one  two",), ("one two",), 0),  # whitespace
        (("one two three",), ("one too three",), 1),
        (("one two",), ("one two three four",), 2),
        (("- item one",), ("* item one",), 0),  # a bullet is not a word
    ],
)
def test_words_changed(old: tuple[str, ...], new: tuple[str, ...], words: int) -> None:
    assert words_changed(old, new) == words


def test_a_heading_replaced_by_another_subject_is_removed_and_added() -> None:
    base = sections(parse("# A\n\nSame body here.\n\n# B\n\nAll about bees.\n"))
    head = sections(parse("# A2\n\nSame body here.\n\n# C\n\nCats, only cats.\n"))
    comparison = compare(base, head)
    assert [(c.added, c.was) for c in comparison.changes] == [(False, "A"), (True, None)]
    assert [section.name for section in comparison.removed] == ["B"]


def test_a_moved_section_is_not_added() -> None:
    base = sections(parse("# A\n\na\n\n# B\n\nb\n"))
    head = sections(parse("# B\n\nb\n\n# A\n\na\n"))
    comparison = compare(base, head)
    assert (comparison.changes, comparison.removed) == (compare(base, base).changes, ())


def test_without_a_head_tree_only_anchors_within_the_file_are_checked() -> None:
    subject = Subject(
        change("doc.md"),
        "markdown",
        "# Doc\n\n## Gone\n",
        "# Doc\n\n[missing](missing.md) [here](#doc) [there](#gone)\n",
        Config(),
        None,
    )
    report = markdown.analyze(subject)
    assert [(f.rule, f.line, f.message) for f in report.findings] == [
        (
            "markdown/broken-anchor",
            3,
            "broken anchor '#gone': no heading or anchor 'gone' in this file",
        )
    ]
    assert report.elsewhere == ()


def test_the_head_is_indexed_once_per_range() -> None:
    files = {
        "a.md": "# New\n",
        "b.md": "# New\n",
        "x.md": "[a](a.md#a) [b](b.md#b)\n",
        "y.md": "nothing to see\n",
    }
    head = FakeHead(files)
    for path, old in (("a.md", "# A\n"), ("b.md", "# B\n")):  # two headings lost: two scans
        subject = Subject(change(path), "markdown", old, files[path], Config(), head)
        elsewhere = markdown.analyze(subject).elsewhere
        assert [(f.path, f.line) for f in elsewhere] == [("x.md", 1)]
    assert head.listings == 1
    # Each file read once at most; a.md never, as its analysis brought its text along.
    assert sorted(head.reads) == ["b.md", "x.md", "y.md"]
    other = FakeHead(files)
    markdown.analyze(Subject(change("a.md"), "markdown", "# A\n", "# New\n", Config(), other))
    assert other.listings == 1  # a new head is a new range
