"""git's diff stream cut into blocks and hunks, however the pipe hands it over (issue 12)."""

import pytest
from repos import RepoFactory, git
from test_changes import our_changes

from gitreview.gitdiff import parse_block, split_blocks, whole_file_hunks
from gitreview.model import Hunk, Line


def patch_of(fixture_repo: RepoFactory) -> bytes:
    text = git(fixture_repo("kinds"), "diff-tree", "-r", "-p", "-M", "v1", "v2")
    return text.encode("utf-8", "surrogateescape") + b"\n"


@pytest.mark.parametrize("size", [1, 7, 12, 13, 4096])
def test_blocks_do_not_depend_on_where_reads_end(fixture_repo: RepoFactory, size: int) -> None:
    patch = patch_of(fixture_repo)
    whole = list(split_blocks([patch]))
    assert len(whole) == patch.count(b"diff --git ") > 10
    assert b"".join(whole) == patch
    chunks = [patch[i : i + size] for i in range(0, len(patch), size)]
    assert list(split_blocks(chunks)) == whole


def test_a_line_that_looks_like_a_header_stays_in_its_hunk() -> None:
    block = (
        b"diff --git a/notes.txt b/notes.txt\n"
        b"index 1111111..2222222 100644\n"
        b"--- a/notes.txt\n"
        b"+++ b/notes.txt\n"
        b"@@ -1,2 +1,2 @@\n"
        b"--- a/notes.txt\n"
        b"+diff --git a/x b/x\n"
        b" @@ -1 +1 @@\n"
        b"\\ No newline at end of file\n"
    )
    assert list(split_blocks([block])) == [block]
    parsed = parse_block(block)
    assert (parsed.binary, parsed.old_oid, parsed.new_oid) == (False, "1111111", "2222222")
    assert parsed.hunks == (
        Hunk(
            1,
            2,
            1,
            2,
            (
                Line("-", 1, None, "-- a/notes.txt"),
                Line("+", None, 1, "diff --git a/x b/x"),
                Line(" ", 2, 2, "@@ -1 +1 @@", newline=False),
            ),
        ),
    )


def test_hunks_go_to_workers_and_back_the_same() -> None:
    """Hunks are pickled by columns (issue 12): what comes back is equal, Lines and all."""
    import pickle

    hunks = (
        Hunk(3, 2, 3, 1, (Line("-", 3, None, "a"), Line("+", None, 3, "b", newline=False))),
        Hunk(0, 0, 0, 0, ()),
    )
    for hunk in hunks:
        back = pickle.loads(pickle.dumps(hunk, protocol=pickle.HIGHEST_PROTOCOL))
        assert back == hunk
        assert type(back) is Hunk
        assert all(type(line) is Line for line in back.lines)
        assert [line.newline for line in back.lines] == [line.newline for line in hunk.lines]


def test_a_file_added_whole() -> None:
    assert whole_file_hunks(b"", "+") == ()
    assert whole_file_hunks(b"one\r\ntwo", "-") == (
        Hunk(1, 2, 0, 0, (Line("-", 1, None, "one\r"), Line("-", 2, None, "two", newline=False))),
    )


def test_whole_file_hunks_are_git_s(fixture_repo: RepoFactory) -> None:
    """What the stream stands in for when git's attributes call a text file binary."""
    changes = {c.path: c for c in our_changes(fixture_repo("kinds"), "v1", "v2")}
    for path, origin in (("CHANGELOG.md", "+"), ("docs/obsolete.md", "-")):
        change = changes[path]
        data = change.new_data if origin == "+" else change.old_data
        assert data is not None
        assert whole_file_hunks(data, "+" if origin == "+" else "-") == change.hunks
