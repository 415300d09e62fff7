"""Markdown tier-1 analysis (issue 4): links, anchors, slugs, sections and rule settings,
end to end through the real command on fixture repositories."""

from pathlib import Path
from typing import Any

import pytest
from manifests import files_by_path, manifest_of, new_lines, removed_lines, run
from repos import RepoFactory, two_commits


def review(repo: Path, *args: str | Path, status: int) -> dict[str, Any]:
    """The manifest, checking the exit status: 1 when a finding reaches fail_on (error)."""
    result = run("--repo", repo, *args)
    assert result.status == status, result.stderr
    return result.manifest


def markdown_findings(manifest: dict[str, Any]) -> list[tuple[str, str, str, int | None, str]]:
    """The manifest's Markdown findings (other analyzers may report on the same files)."""
    return [
        (f["rule"], f["severity"], f["path"], f["line"], f["message"])
        for f in manifest["findings"]
        if f["rule"].startswith("markdown/")
    ]


# --- Links ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def links_manifest(fixture_repo: RepoFactory) -> dict[str, Any]:
    return review(fixture_repo("markdown_links"), "v1..v2", status=1)


LINKS = "docs/links.md"
BROKEN = ("markdown/broken-link", "error", LINKS)
ANCHOR = ("markdown/broken-anchor", "warning", LINKS)


def test_every_broken_link_and_anchor_is_found_and_nothing_else(
    links_manifest: dict[str, Any],
) -> None:
    # Every other link of the page resolves: relative, reference-style, images, percent-
    # encoded, folders with and without a slash, a submodule, `/`-rooted, `..` within the
    # repository, ?plain=1 line anchors, #top, explicit `name`/`id` anchors (in any case).
    assert markdown_findings(links_manifest) == [
        (*BROKEN, 3, "broken link 'nope.md': docs/nope.md does not exist at head"),
        (*BROKEN, 4, "broken image 'img/gone.png': docs/img/gone.png does not exist at head"),
        (*BROKEN, 5, "broken link 'missing-ref.md': docs/missing-ref.md does not exist at head"),
        (
            *BROKEN,
            5,
            "broken link 'sub/../nope-collapsed.md': docs/nope-collapsed.md does not exist at head",
        ),
        (*ANCHOR, 7, "broken anchor '#nowhere': no heading or anchor 'nowhere' in this file"),
        (
            *ANCHOR,
            7,
            "broken anchor 'guide.md#instal': no heading or anchor 'instal' in docs/guide.md"
            " (did you mean '#install'?)",
        ),
        (*BROKEN, 9, "broken link '/docs/nope.md': docs/nope.md does not exist at head"),
        (*BROKEN, 9, "broken link 'guide.md/': docs/guide.md is a file, not a folder"),
        (*BROKEN, 10, "broken link '../../outside.md': it leads above the repository root"),
        (*BROKEN, 12, "broken image 'img/none.png': docs/img/none.png does not exist at head"),
        (*BROKEN, 28, "broken link 'nope-html.md': docs/nope-html.md does not exist at head"),
    ]


def test_code_and_comments_hold_no_links_and_no_headings(links_manifest: dict[str, Any]) -> None:
    messages = " ".join(finding[4] for finding in markdown_findings(links_manifest))
    for target in ("nope-indented", "nope-fence", "nope-comment", "nope-span", "not-a-link"):
        assert target not in messages
    structure = files_by_path(links_manifest)[LINKS]["structure"]
    assert [section["text"] for section in structure["sections"]] == ["Links", "Über uns"]


def test_external_links_are_counted_not_checked(links_manifest: dict[str, Any]) -> None:
    # <https://...>, <me@example.com> and the bare https://example.org GitHub autolinks.
    assert files_by_path(links_manifest)[LINKS]["structure"]["external_links"] == 3


# --- Slugs ----------------------------------------------------------------------------

# Written by hand from GitHub's rule: lower-case the rendered text, drop every character
# but letters, marks, digits, `_`, `-` and spaces, spaces to hyphens, -1, -2... for repeats.
GITHUB_SLUGS = [
    ("Hello, World!", "hello-world"),
    ("Foo & Bar", "foo--bar"),  # the `&` goes, both spaces stay
    ("C++ / C#", "c--c"),
    ("What's new in v2.0?", "whats-new-in-v20"),
    ("`code()` in heading", "code-in-heading"),  # code spans keep their text
    ("Emoji 🎉 party", "emoji--party"),  # an emoji is a symbol: removed
    ("snake_case_name", "snake_case_name"),
    ("Ünïcödé Heading", "ünïcödé-heading"),  # letters beyond ASCII are letters
    ("1. Step one", "1-step-one"),
    ("Dup", "dup"),
    ("Dup", "dup-1"),
    ("Dup", "dup-2"),
    ("**Bold** and _em_", "bold-and-em"),
    ("Heading with [a link](slugs.md)", "heading-with-a-link"),
    ("100% sure", "100-sure"),
    ("A -- B", "a------b"),  # "A  --  B": every space and hyphen counts
    ("日本語の見出し", "日本語の見出し"),
    ("<b>Raw</b> HTML &amp; entities", "raw-html--entities"),  # tags go, `&amp;` is `&`
    ("Setext heading", "setext-heading"),
    ("Trailing hashes", "trailing-hashes"),
    ("Image ![alt text](logo.png) here", "image--here"),  # an image has no text
]


@pytest.fixture(scope="module")
def slugs_manifest(fixture_repo: RepoFactory) -> dict[str, Any]:
    return manifest_of("--repo", fixture_repo("markdown_slugs"), "HEAD")


def test_slugs_follow_github(slugs_manifest: dict[str, Any]) -> None:
    sections = files_by_path(slugs_manifest)["docs/slugs.md"]["structure"]["sections"]
    assert [(section["text"], section["slug"]) for section in sections] == GITHUB_SLUGS


def test_anchors_use_the_numbered_slugs(slugs_manifest: dict[str, Any]) -> None:
    # #dup-2 and #setext-heading exist; #dup-3 does not.
    assert markdown_findings(slugs_manifest) == [
        (
            "markdown/broken-anchor",
            "warning",
            "docs/slugs.md",
            24,
            "broken anchor '#dup-3': no heading or anchor 'dup-3' in this file"
            " (did you mean '#dup-2'?)",
        )
    ]


def test_an_added_file_marks_no_section_added(slugs_manifest: dict[str, Any]) -> None:
    sections = files_by_path(slugs_manifest)["docs/slugs.md"]["structure"]["sections"]
    assert not any("added" in section or "changed" in section for section in sections)


# --- Sections -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def manual_manifest(fixture_repo: RepoFactory) -> dict[str, Any]:
    return manifest_of("--repo", fixture_repo("markdown_sections"), "v1..v2")


def test_structure_of_a_reworked_manual(manual_manifest: dict[str, Any]) -> None:
    assert files_by_path(manual_manifest)["docs/manual.md"]["structure"] == {
        "frontmatter": ["title", "updated", "tags"],
        "preamble": {"lines": [6, 7], "words": 6},
        "sections": [
            {"level": 1, "text": "Manual", "slug": "manual", "lines": [8, 11], "words": 4},
            {
                "level": 2,
                "text": "Installation",
                "slug": "installation",
                "lines": [12, 15],
                "words": 5,
                "was": "Install",
            },
            {
                "level": 3,
                "text": "Requirements",
                "slug": "requirements",
                "lines": [16, 19],
                "words": 4,
                "changed": 1,  # 3.11 -> 3.12
            },
            {
                "level": 2,
                "text": "Usage",
                "slug": "usage",
                "lines": [20, 24],
                "words": 9,
                "changed": 4,  # "range." -> "range, or with nothing."
            },
            {"level": 2, "text": "Unchanged", "slug": "unchanged", "lines": [25, 28], "words": 4},
            {
                "level": 4,
                "text": "Too deep",
                "slug": "too-deep",
                "lines": [29, 31],
                "words": 5,
                "added": True,
            },
        ],
        "removed": ["Manual > Old flags"],
        "external_links": 1,
    }


def test_heading_level_skip(manual_manifest: dict[str, Any]) -> None:
    assert markdown_findings(manual_manifest) == [
        (
            "markdown/heading-skip",
            "warning",
            "docs/manual.md",
            29,
            "heading 'Too deep' skips a level: h4 after h2",
        )
    ]


def test_each_hunk_names_its_innermost_section(fixture_repo: RepoFactory) -> None:
    manifest = manifest_of("--repo", fixture_repo("markdown_hunks"), "v1..v2")
    hunks = files_by_path(manifest)["docs/hunks.md"]["hunks"]
    assert [(removed_lines(hunk), new_lines(hunk), hunk["section"]) for hunk in hunks] == [
        (None, [3, 3], "Top"),
        (None, [13, 13], "Top > Install > Requirements"),
        ([26, 26], None, "Top > Usage"),  # a pure deletion: where the lines were
    ]


def test_a_hunk_in_the_frontmatter_has_no_section(manual_manifest: dict[str, Any]) -> None:
    first = files_by_path(manual_manifest)["docs/manual.md"]["hunks"][0]
    assert (new_lines(first), "section" in first) == ([3, 4], False)


# --- Rule settings --------------------------------------------------------------------


def test_rules_in_the_configuration_change_severities_and_classes(
    fixture_repo: RepoFactory,
) -> None:
    # .gitreview.yml: heading-skip raised to error, broken-link lowered to warning,
    # broken-anchor off. Every hunk only adds a trailing space.
    manifest = review(fixture_repo("markdown_rules"), "v1..v2", status=1)
    assert markdown_findings(manifest) == [
        (
            "markdown/broken-link",
            "warning",
            "docs/page.md",
            3,
            "broken link 'missing.md': docs/missing.md does not exist at head",
        ),
        (
            "markdown/heading-skip",
            "error",
            "docs/page.md",
            11,
            "heading 'Skipped' skips a level: h3 after h1",
        ),
    ]
    hunks = files_by_path(manifest)["docs/page.md"]["hunks"]
    assert [(hunk["classification"], hunk["reasons"]) for hunk in hunks] == [
        ("trivial", ["whitespace"]),  # carries a warning only
        ("significant", ["finding"]),  # its context holds the heading that is now an error
        ("trivial", ["whitespace"]),
    ]


def test_default_severities_without_the_rules(fixture_repo: RepoFactory, tmp_path: Path) -> None:
    config = tmp_path / "plain.yml"
    config.write_text("fail_on: never\n")
    manifest = manifest_of("--repo", fixture_repo("markdown_rules"), "v1..v2", "--config", config)
    assert [
        (rule, severity, line) for rule, severity, _, line, _ in markdown_findings(manifest)
    ] == [
        ("markdown/broken-link", "error", 3),
        ("markdown/heading-skip", "warning", 11),
        ("markdown/broken-anchor", "warning", 13),
    ]
    hunks = files_by_path(manifest)["docs/page.md"]["hunks"]
    assert [hunk["reasons"] for hunk in hunks] == [["finding"], ["whitespace"], ["whitespace"]]


def test_a_link_to_a_submodule_holds_in_a_sha256_repository(tmp_path: Path) -> None:
    """Whether a missing path is a submodule is read from its folder's tree, whose
    ids are 32 bytes long in a SHA-256 repository: a submodule entry after other
    entries is found, a missing page is still broken."""
    from repos import git

    repo = tmp_path / "sha256"
    repo.mkdir()
    git(repo, "init", "--quiet", "--object-format=sha256", "--initial-branch=main")
    (repo / "docs").mkdir()
    (repo / "docs" / "a.md").write_text("# A\n")
    (repo / "docs" / "b.md").write_text("# B\n")
    git(repo, "add", ".")
    git(repo, "update-index", "--add", "--cacheinfo", f"160000,{'5' * 64},docs/vendor")
    git(repo, "commit", "--quiet", "-m", "Pages and a submodule")
    (repo / "README.md").write_text("[vendor](docs/vendor) and [gone](docs/gone.md)\n")
    git(repo, "add", "README.md")  # (not ".": the submodule has no folder to keep it)
    git(repo, "commit", "--quiet", "-m", "Links")
    manifest = review(repo, "HEAD~1..HEAD", status=1)
    broken = [(f[2], f[3], f[4]) for f in markdown_findings(manifest)]
    assert broken == [
        ("README.md", 1, "broken link 'docs/gone.md': docs/gone.md does not exist at head")
    ]


def test_a_paragraph_of_many_links_is_read_in_linear_time(tmp_path: Path) -> None:
    """Found by a twelfth adversarial review: each link's line was counted from the
    paragraph's start, and a page of 175,000 links (under the size limit) took a
    minute: the run ended with exit 70."""
    import time

    page = "# T\n\nhello\n\n" + "[](a)" * 199_000 + "\n"  # under max_file_bytes
    repo = two_commits(
        tmp_path / "repo", {"index.md": "# T\n\nhello\n", "a": "x\n"}, {"index.md": page}
    )
    started = time.perf_counter()
    result = run("--repo", repo, "HEAD", "--no-cache")
    assert result.status == 0, result.stderr
    assert time.perf_counter() - started < 20  # a blow-up bound (it took 45 s), no target
