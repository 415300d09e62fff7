"""Pages that show a file's lines by number, or include a file the range took away
(analyze/doc_includes.py; found by a twelfth adversarial review on rust-lang/book)."""

from pathlib import Path

import pytest
from findings import findings_of
from manifests import manifest_of
from repos import git, two_commits

CARGO = '[package]\nname = "x"\n\n[dependencies]\nrand = "0.8"\n'
TIGHT = '[package]\nname = "x"\n[dependencies]\nrand = "0.8"\n'  # a blank line gone
BOOK = '[book]\ntitle = "Book"\n'  # mdBook's: without a site's configuration, no search


@pytest.mark.parametrize(
    ("page", "text", "shown"),
    [
        ("src/ch01.md", "```toml\n{{#include ../listings/Cargo.toml:4:5}}\n```\n", True),
        ("src/ch01.md", "{{#rustdoc_include ../listings/Cargo.toml:4:}}\n", True),
        ("src/ch01.md", "{{#include ../listings/Cargo.toml:1:2}}\n", False),  # above the change
        ("src/ch01.md", "{{#include ../listings/Cargo.toml:deps}}\n", False),  # an anchor
        ("src/ch01.md", "{{#include ../listings/Cargo.toml}}\n", False),  # the whole file
        (
            "docs/deps.rst",
            "Deps\n====\n\n.. literalinclude:: ../listings/Cargo.toml\n   :lines: 4-5\n",
            True,
        ),
        ("docs/deps.adoc", "include::../listings/Cargo.toml[lines=4..5]\n", True),
        ("docs/deps.md", "<!--@include: ../listings/Cargo.toml{4,5}-->\n", True),
        ("docs/deps.md", '--8<-- "listings/Cargo.toml:4:5"\n', True),
    ],
)
def test_a_page_showing_lines_by_number_is_told_they_moved(
    tmp_path: Path, page: str, text: str, shown: bool
) -> None:
    repo = two_commits(
        tmp_path / "repo",
        {"book.toml": BOOK, "listings/Cargo.toml": CARGO, page: text},
        {"listings/Cargo.toml": TIGHT, page: text},
    )
    manifest = manifest_of("--repo", repo, "HEAD", "--fail-on", "never")
    entry = next(f for f in manifest["files"] if f["path"] == "listings/Cargo.toml")
    assert entry["classification"] == "trivial"  # as a change of its own file
    found = findings_of(manifest, "docs/included-lines")
    assert [(row[2], row[0]) for row in found] == ([(page, "docs/included-lines")] if shown else [])


def test_a_page_including_a_file_the_range_took_away_is_told(tmp_path: Path) -> None:
    repo = two_commits(
        tmp_path / "repo",
        {
            "book.toml": BOOK,
            "listings/main.rs": "fn main() {}\n",
            "src/ch.md": "{{#include ../listings/main.rs}}\n",
        },
        {"README.md": "# Book\n"},
    )
    git(repo, "rm", "--quiet", "listings/main.rs")
    git(repo, "commit", "--quiet", "--amend", "--no-edit")
    found = findings_of(
        manifest_of("--repo", repo, "HEAD", "--fail-on", "never"), "docs/include-lost"
    )
    assert [(row[2], row[3], row[4]) for row in found] == [
        ("src/ch.md", 1, "includes ../listings/main.rs, which the range deleted")
    ]


def test_a_page_the_range_touched_is_its_own_review_s(tmp_path: Path) -> None:
    page = "{{#include ../listings/Cargo.toml:4:5}}\n"
    repo = two_commits(
        tmp_path / "repo",
        {"book.toml": BOOK, "listings/Cargo.toml": CARGO, "src/ch.md": page},
        {"listings/Cargo.toml": TIGHT, "src/ch.md": page.replace("4:5", "3:4")},
    )
    manifest = manifest_of("--repo", repo, "HEAD", "--fail-on", "never")
    assert findings_of(manifest, "docs/included-lines") == []


def test_no_page_is_searched_without_a_site_s_configuration(tmp_path: Path) -> None:
    page = "{{#include ../listings/Cargo.toml:4:5}}\n"
    repo = two_commits(
        tmp_path / "repo",
        {"listings/Cargo.toml": CARGO, "src/ch.md": page},
        {"listings/Cargo.toml": TIGHT},
    )
    manifest = manifest_of("--repo", repo, "HEAD", "--fail-on", "never")
    assert findings_of(manifest, "docs/included-lines") == []


def test_a_range_that_drops_the_site_s_configuration_is_still_told(tmp_path: Path) -> None:
    """The base's configuration counts too: the range may not take the site's
    `book.toml` away to leave its pages unsearched (a last read of the change)."""
    page = "{{#include ../listings/Cargo.toml:4:5}}\n"
    repo = two_commits(
        tmp_path / "repo",
        {"book.toml": BOOK, "listings/Cargo.toml": CARGO, "src/ch.md": page},
        {"listings/Cargo.toml": TIGHT},
    )
    git(repo, "rm", "--quiet", "book.toml")
    git(repo, "commit", "--quiet", "--amend", "--no-edit")
    manifest = manifest_of("--repo", repo, "HEAD", "--fail-on", "never")
    assert [row[2] for row in findings_of(manifest, "docs/included-lines")] == ["src/ch.md"]


def test_a_page_of_many_includes_is_read_in_linear_time() -> None:
    """A last read of the change: each include's line was counted from the page's start,
    and each directive's options read from a split of the rest of the page."""
    import time

    from gitreview.analyze.doc_includes import _includes

    page = ".. literalinclude:: a.py\n   :lines: 2-5\n" * 20_000
    page += "{{#include b.rs:3:4}}\n" * 20_000
    start = time.perf_counter()
    found = list(_includes("p.rst", page))
    assert len(found) == 40_000
    assert (found[0].line, found[0].last) == (40_001, 4)  # mdBook's are read first
    assert (found[-1].line, found[-1].last) == (39_999, 5)
    assert time.perf_counter() - start < 10  # a blow-up bound, not a speed target
