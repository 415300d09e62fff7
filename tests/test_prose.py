"""Prose rules (issue #3): re-wrapped prose, typo fixes, front matter dates, and the traps
that look like them but change meaning."""

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from manifests import files_by_path, manifest_of
from repos import RepoFactory, before_and_after

from gitreview.classify.prose_words import osa_distance, typo_edits
from gitreview.pipeline import Classified, classify_range

EXPECTED = {
    # Provably meaningless.
    "docs/README.md": ("trivial", ["reflow"]),  # four paragraphs re-wrapped to 86 columns
    "docs/indexer.txt": ("trivial", ["reflow"]),  # a plain-text paragraph re-wrapped
    "docs/mixed.md": ("significant", ["content"]),  # a re-wrap, and 10 -> 20 megabytes
    "docs/post.md": ("trivial", ["metadata"]),  # front matter `updated:` only
    "docs/guide.md": ("trivial", ["typo"]),  # recieve, seperate in Markdown prose
    "docs/rotation.txt": ("trivial", ["typo"]),  # seperately in plain text
    "src/handshake.py": ("trivial", ["typo"]),  # in a Python comment
    "src/copy.c": ("trivial", ["typo"]),  # in a C block comment and a `//` comment
    "web/connect.js": ("trivial", ["typo"]),  # in a JavaScript `//` comment
    # Traps: a small edit that changes meaning.
    "docs/negation.md": ("significant", ["content"]),  # "are not cached": a negation
    "docs/number.md": ("significant", ["content"]),  # 30 -> 60
    "docs/enabled.md": ("significant", ["content"]),  # enabled -> disabled
    "docs/must.md": ("significant", ["content"]),  # must -> most: a modal, one letter
    "docs/remote.md": ("significant", ["content"]),  # remote -> remove: a real-word swap
    "docs/cable.md": ("significant", ["content"]),  # cable -> table: the first letter
    "docs/moved-line.txt": ("significant", ["content"]),  # a line moved, not only fixed
    "docs/literal.rst": ("significant", ["content"]),  # inside a literal block
    "docs/setting.txt": ("significant", ["content"]),  # `mode = recieve`: a value
    "docs/paragraphs.txt": ("significant", ["content"]),  # two paragraphs joined
    "docs/emphasis.md": ("significant", ["content"]),  # same HTML, but no re-wrap: not ours
    "docs/case.md": ("significant", ["content"]),  # python -> Python: case is not free
    "docs/reflow-added.md": ("significant", ["content"]),  # re-wrapped, and "always" added
    "docs/list-join.md": ("significant", ["content"]),  # a list item joined to the paragraph
    "docs/fence.md": ("significant", ["content"]),  # code re-wrapped, same words
    "docs/fence-typo.md": ("significant", ["content"]),  # a "typo" inside a code block
    "docs/link.md": ("significant", ["content"]),  # link target instal -> install
    "docs/code-span.md": ("significant", ["content"]),  # a word inside an inline code span
    "docs/heading.md": ("significant", ["content"]),  # a heading's words are its anchor
    "docs/front-matter-reflow.md": ("significant", ["content"]),  # YAML is no prose
    "docs/steps.txt": ("significant", ["content"]),  # a plain-text list item joined
    "docs/title.rst": ("significant", ["content"]),  # a section title: its anchor
    "src/strings.py": ("significant", ["content"]),  # a string is data, not prose
    "src/docstring.py": ("significant", ["content"]),  # so is a docstring, `#` and all
    "src/identifier.py": ("significant", ["content"]),  # foo_bar -> foo_baz in a comment
    "src/pragma.py": ("significant", ["content"]),  # `# type: ignroe` is read by mypy
    "docs/status.md": ("significant", ["content"]),  # front matter `status:` changed
    "docs/both.md": ("significant", ["content"]),  # `updated:` and the body changed
    "docs/alias.md": ("significant", ["content"]),  # an alias carries `updated` elsewhere
    "docs/inline-literal.rst": ("significant", ["content"]),  # inside ``an inline literal``
    "docs/reviewed.md": None,  # unchanged until v3
}


@pytest.fixture(scope="module")
def prose_files(fixture_repo: RepoFactory) -> dict[str, dict[str, Any]]:
    return files_by_path(manifest_of("--repo", fixture_repo("prose"), "v1..v2"))


@pytest.fixture(scope="module")
def classified(fixture_repo: RepoFactory) -> dict[str, Classified]:
    outcome = classify_range(fixture_repo("prose"), "v1..v2")
    return {item.change.path: item for item in outcome.files}


def test_every_changed_file_of_the_fixture_is_expected(
    prose_files: dict[str, dict[str, Any]],
) -> None:
    assert sorted(prose_files) == sorted(path for path, want in EXPECTED.items() if want)


@pytest.mark.parametrize("path", sorted(path for path, want in EXPECTED.items() if want))
def test_classification(prose_files: dict[str, dict[str, Any]], path: str) -> None:
    entry = prose_files[path]
    assert (entry["classification"], entry["reasons"]) == EXPECTED[path]
    if entry["classification"] == "significant" and path != "docs/mixed.md":
        assert all(hunk["classification"] == "significant" for hunk in entry["hunks"])


def test_a_big_rewrap_is_proved_by_rendering_the_whole_file_once(
    classified: dict[str, Classified],
) -> None:
    item = classified["docs/README.md"]
    assert len(item.change.hunks) == 4
    for verdict in item.verdict.hunks:
        assert (verdict.classification, verdict.reasons) == ("trivial", ("reflow",))
        assert "the HTML of the old and of the new file are the same" in verdict.evidence


def test_beside_a_real_change_a_rewrap_is_proved_by_applying_only_its_hunk(
    classified: dict[str, Classified],
) -> None:
    rewrap, limit = classified["docs/mixed.md"].verdict.hunks
    assert (rewrap.classification, rewrap.reasons) == ("trivial", ("reflow",))
    assert "the HTML of each file with and without only this hunk" in (rewrap.evidence)
    assert (limit.classification, limit.reasons) == ("significant", ("content",))


@pytest.mark.parametrize(
    ("path", "evidence"),
    [
        ("docs/guide.md", "recieve→receive (1 edit); seperate→separate (1 edit)"),
        ("docs/rotation.txt", "seperately→separately (1 edit)"),
        ("src/handshake.py", "recieve→receive (1 edit)"),
        ("src/copy.c", "memroy→memory (1 edit); functon→function (1 edit)"),
        ("web/connect.js", "conection→connection (1 edit)"),
        ("docs/post.md", "updated: 2025-12-01 → 2026-01-15"),
    ],
)
def test_evidence_names_what_changed(
    classified: dict[str, Classified], path: str, evidence: str
) -> None:
    verdict = classified[path].verdict
    assert all(evidence in hunk.evidence for hunk in verdict.hunks)


def test_metadata_keys_come_from_the_configuration(fixture_repo: RepoFactory) -> None:
    # Read from the base: the configuration is committed before the range (issue 11).
    files = files_by_path(manifest_of("--repo", fixture_repo("prose"), "configured..v3"))
    assert (files["docs/reviewed.md"]["classification"], files["docs/reviewed.md"]["reasons"]) == (
        "trivial",
        ["metadata"],
    )
    # `updated` is no longer listed, so a new date is a change a person reads.
    assert (files["docs/post.md"]["classification"], files["docs/post.md"]["reasons"]) == (
        "significant",
        ["content"],
    )


def test_trivial_prose_is_routed_to_no_reviewer(fixture_repo: RepoFactory) -> None:
    manifest = manifest_of("--repo", fixture_repo("prose"), "v1..v2")
    routed = {
        handle.split(":")[0].split("@")[0]
        for role in manifest["review"].values()
        for batch in role["batches"]
        for handle in (item["handle"] for item in batch["handles"])
    }
    trivial = {path for path, want in EXPECTED.items() if want and want[0] == "trivial"}
    significant = {path for path, want in EXPECTED.items() if want and want[0] == "significant"}
    assert not routed & trivial
    assert routed == significant


# Hunks each prose reason catches on the fixture (issue #3 asks for the figures):
# `pytest -rP tests/test_prose.py -k figures` prints them.
FIGURES = {"reflow": 6, "typo": 5, "metadata": 2, "significant": 33}


def test_figures(fixture_repo: RepoFactory) -> None:
    counts: Counter[str] = Counter()
    for spec in ("v1..v2", "v2..v3"):
        for item in classify_range(fixture_repo("prose"), spec).files:
            for verdict in item.verdict.hunks:
                reasons = verdict.reasons if verdict.classification == "trivial" else ()
                counts.update(reasons or ("significant",))
    print(_figures_table(counts))
    assert dict(counts) == FIGURES


def _figures_table(counts: Counter[str]) -> str:
    total = sum(counts.values())
    rows = [f"{reason:<12} {count:>4} hunks" for reason, count in sorted(counts.items())]
    return "\n".join([f"prose fixture, {total} hunks in all:", *rows])


# The word-level half of `typo`, pair by pair: a table that reads like the rule.
@pytest.mark.parametrize(
    ("old", "new", "edits"),
    [
        ("recieve", "receive", 1),  # two letters swapped
        ("accomodate", "accommodate", 1),  # a letter doubled
        ("enviroment", "environment", 1),  # a letter added
        ("definately", "definitely", 1),  # a letter replaced
        ("Seperate", "Separate", 1),  # Capitalized on both sides
        ("recieveing", "receiving", 2),  # eight letters or more: two edits
        ("teh", "the", None),  # under four letters: never
        ("enabled", "disabled", None),  # three edits, and a guarded word
        ("must", "most", None),  # a modal
        ("never", "fever", None),  # a negation... and a first letter
        ("internal", "external", None),  # the first letter carries direction
        ("necessary", "unnecessary", None),  # a negating prefix
        ("remote", "remove", None),  # a meaning-bearing verb
        ("then", "than", None),  # a comparison
        ("stronger", "strongest", None),  # a comparative
        ("megabyte", "gigabyte", None),  # a unit
        ("three", "there", None),  # a number
        ("python", "Python", None),  # a case change alone
        ("HTTP", "HTPP", None),  # an acronym, a constant
        ("getValue", "getValues", None),  # camelCase: an identifier
        ("receive", "receive", None),  # nothing changed
    ],
)
def test_typo_edits(old: str, new: str, edits: int | None) -> None:
    assert typo_edits(old, new) == edits


def test_osa_distance_counts_a_swap_as_one_edit() -> None:
    assert [osa_distance(*pair) for pair in (("ab", "ba"), ("abc", "ca"), ("", "ab"))] == [1, 3, 2]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # A list item's own marker, on both sides (tldr's style guide).
        (
            "# Aliases\n\n2. **Provides a new alias**, such as `ni` for `New-Item`. In this\n"
            "case, use the standard template.\n",
            "# Aliases\n\n2. **Provides a new alias**, such as `ni` for `New-Item`.\n"
            "In this case, use the standard template.\n",
        ),
        # An autolink starting a line is no tag.
        (
            "# Links\n\nFor example, use this instead of\n<https://example.com/en-us/cd>.\n",
            "# Links\n\nFor example, use this instead of <https://example.com/en-us/cd>.\n",
        ),
        # An item's text re-wrapped onto a line of its own at its column, and joined up
        # again (the re-indentation rule: a twelfth review).
        (
            "# Steps\n\n- Install the tool and run it once to set it up.\n",
            "# Steps\n\n- Install the tool and run it\n  once to set it up.\n",
        ),
        (
            "# Steps\n\n1. Install the tool and run it\n   once to set it up.\n",
            "# Steps\n\n1. Install the tool and run it once to set it up.\n",
        ),
    ],
)
def test_a_re_wrap_keeping_its_list_marker_or_an_autolink_is_reflow(
    tmp_path: Path, old: str, new: str
) -> None:
    repo = before_and_after(tmp_path / "repo", "guide.md", old, new)
    entry = files_by_path(manifest_of("--repo", repo, "HEAD"))["guide.md"]
    assert (entry["classification"], entry["reasons"]) == ("trivial", ["reflow"])


@pytest.mark.parametrize(
    "line",
    ["Seperate the words.", "It works. Seperate them.", "- **Seperate** them.", "> Seperate them."],
)
def test_a_typo_fixed_at_a_sentence_start_is_typo(tmp_path: Path, line: str) -> None:
    # A review of the fix: a capital at a sentence's start says nothing of a name.
    old, new = f"# Guide\n\n{line}\n", f"# Guide\n\n{line.replace('Seperate', 'Separate')}\n"
    repo = before_and_after(tmp_path / "repo", "guide.md", old, new)
    entry = files_by_path(manifest_of("--repo", repo, "HEAD"))["guide.md"]
    assert (entry["classification"], entry["reasons"]) == ("trivial", ["typo"])
