"""Trivial by meaning: formatting proved by parsing, imports reordered; and the traps."""

from typing import Any

import pytest
from manifests import files_by_path, manifest_of, run
from repos import RepoFactory

EXPECTED = {
    # The same meaning, whatever the text: real black and isort output.
    "py/black.py": ("trivial", ["formatting"]),
    "py/isort.py": ("trivial", ["import-order"]),
    "data/compact.json": ("trivial", ["formatting"]),  # pretty-printed
    "yaml/flow.yml": ("trivial", ["formatting"]),  # flow style to block style
    "toml/settings.toml": ("trivial", ["formatting"]),
    # Traps.
    "py/mixed.py": ("significant", ["content"]),  # one reformatted hunk, one real change
    "py/docstring.py": ("significant", ["content"]),  # a docstring's meaning changed
    "py/comment.py": ("significant", ["content"]),  # reformatted, and a comment changed
    "py/string.py": ("significant", ["content"]),  # a string's content changed
    "py/flow.py": ("significant", ["content"]),  # a return moved into the if
    "py/import_path.py": ("significant", ["content"]),  # an import moved across sys.path
    "py/import_set.py": ("significant", ["content"]),  # another set of imports
    "data/types.json": ("significant", ["content"]),  # 1 became 1.0, true became 1
    "yaml/quoted.yml": ("significant", ["content"]),  # "8080" became 8080
    "yaml/comment.yml": ("significant", ["content"]),  # the data is the same, the comment not
    "toml/value.toml": ("significant", ["content"]),
}


@pytest.fixture(scope="module")
def meaning_files(fixture_repo: RepoFactory) -> dict[str, dict[str, Any]]:
    return files_by_path(manifest_of("--repo", fixture_repo("meaning"), "v1..v2"))


def test_every_file_is_expected(meaning_files: dict[str, dict[str, Any]]) -> None:
    assert sorted(meaning_files) == sorted(EXPECTED)


@pytest.mark.parametrize("path", sorted(EXPECTED))
def test_classification(meaning_files: dict[str, dict[str, Any]], path: str) -> None:
    entry = meaning_files[path]
    assert (entry["classification"], entry["reasons"]) == EXPECTED[path]


def test_a_reformatted_hunk_beside_a_real_change(meaning_files: dict[str, dict[str, Any]]) -> None:
    hunks = meaning_files["py/mixed.py"]["hunks"]
    assert [(h["classification"], h["reasons"]) for h in hunks] == [
        ("trivial", ["formatting"]),
        ("significant", ["content"]),
    ]


def test_explain_gives_the_evidence(fixture_repo: RepoFactory) -> None:
    repo = fixture_repo("meaning")
    hunks = files_by_path(manifest_of("--repo", repo, "v1..v2"))["py/mixed.py"]["hunks"]
    result = run("explain", "--repo", repo, hunks[0]["handle"], "v1..v2")
    assert result.status == 0, result.stderr
    assert result.stdout == (
        f"{hunks[0]['handle']}\n"
        "  trivial: formatting\n"
        "  the statements around this hunk have the same AST and comments on both sides "
        "(positions, docstring indentation and string prefixes aside)\n"
    )


@pytest.mark.parametrize(
    ("line", "newer"),
    [
        ('x = f"{item["name"]}"', True),  # its own quote inside: Python 3.12 only
        ("x = f'{a +", True),  # a one-line f-string's {} open at the end of the line
        ("x = f\"{'\\n'.join(a)}\"", True),  # a backslash inside {}
        ('x = f"{a # total}"', True),
        ("x = f\"{item['name']}\"", False),
        ('x = f"{{literal}} {a!r:>10}"', False),
        ('x = f"a\\"b {c}" + rf"\\d{n}"', False),
        ('x = f"""{a["b"]}"""', False),
        ('x = f"#{a}"', False),
        # A review of the rule: strings ending in f, nested format specs, comments.
        ("d = {'locale': 'fr'}", False),
        ('F = TypeVar("F", bound=Callable)', False),
        ('cmd = ["rm", "-rf", path]', False),
        ('x = f"{x:>{width}}"', False),
        ("x = 'a'  # f'{", False),
        ('x = f"{n:#06b}" + f"{d[1:2]}" + f"{a[\'#\']}"', False),  # a spec's #, a string's
    ],
)
def test_f_strings_that_need_python_3_12_are_told(line: str, newer: bool) -> None:
    """Found by an adversarial review: under 3.12, `f"{item["name"]}"` has the AST of
    `f"{item['name']}"`, which 3.9 to 3.11 read: that was `formatting`."""
    from gitreview.classify.formatting import _newer_fstring

    assert _newer_fstring(line) is newer
