"""git's diff stream cut into blocks and hunks, however the pipe hands it over (issue 12)."""

import pickle
import random
import sys

import pytest
from repos import RepoFactory, git
from test_changes import our_changes

from gitreview import tokens
from gitreview.classify import aggregate
from gitreview.classify.base import Verdict
from gitreview.classify.moves import FileInput, find_moves
from gitreview.gitdiff import parse_block, split_blocks, whole_file_hunks
from gitreview.kinds import kind_of
from gitreview.model import FileChange, Hunk, Line, PackedLines, origins_of, texts_of
from gitreview.review.diffs import changed_rows


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


def test_a_packed_hunk_sent_to_a_worker_leaves_its_texts_as_they_were() -> None:
    """This process pickles each hunk it sends to a worker, and holds the hunk to the
    end: its texts that are not all ASCII go as their UTF-8, so that no copy of it
    stays cached in them (issue 12); escaped bytes of text that is not UTF-8 too."""
    for texts in (["plain", "привет ⋯ 世界", ""], ["bad byte \udcff", "é", "x"]):
        hunk = Hunk(1, 2, 1, 1, PackedLines.of(" -+", texts, 1, 1, (2,)))
        assert isinstance(hunk.lines, PackedLines)
        size = sys.getsizeof(hunk.lines.body)
        back = pickle.loads(pickle.dumps(hunk, protocol=pickle.HIGHEST_PROTOCOL))
        assert sys.getsizeof(hunk.lines.body) == size
        assert back == hunk and isinstance(back.lines, PackedLines)
        assert back.lines.texts == tuple(texts) and back.lines.open_ends == (2,)


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


def _reference_hunk(lines: list[str], old_start: int, new_start: int) -> tuple[Line, ...]:
    """The Lines a hunk's text holds, counted one by one as the parser once made them."""
    found: list[Line] = []
    old_no, new_no = old_start, new_start
    for text in lines:
        mark = text[:1]
        if mark == "\\":
            found[-1] = found[-1]._replace(newline=False)
        elif mark == "-":
            found.append(Line("-", old_no, None, text[1:]))
            old_no += 1
        elif mark == "+":
            found.append(Line("+", None, new_no, text[1:]))
            new_no += 1
        else:
            found.append(Line(" ", old_no, new_no, text[1:]))
            old_no += 1
            new_no += 1
    return tuple(found)


def _random_hunk(rng: random.Random) -> tuple[list[str], int, int]:
    """A hunk's text as git writes it: lines of each origin, an empty context line
    (diff.suppressBlankEmpty), texts that look like headers, and "No newline" marks
    after the last line of either side."""
    texts = ["", "x", "\r", "-- a", "++ b", "@@ -1 +1 @@", "\\ x", " lead", "é"]
    body = [rng.choice("- +") + rng.choice(texts) for _ in range(rng.randint(1, 12))]
    body = ["" if line == " " and rng.random() < 0.3 else line for line in body]
    marks: list[int] = []
    for side in ("-", "+"):
        last = max((i for i, line in enumerate(body) if line[:1] in (side, " ", "")), default=None)
        if last is not None and rng.random() < 0.3:
            marks.append(last)
    for index in sorted(set(marks), reverse=True):
        body.insert(index + 1, "\\ No newline at end of file")
    # A start of 0 with lines on that side is not git's, yet it must read the same.
    return body, rng.randint(0, 3), rng.randint(0, 3)


def test_packed_lines_read_as_the_lines_git_wrote() -> None:
    """Hunks hold their lines as columns (PackedLines, issue 12): every way a Line is
    read gives what counting the lines one by one gives."""
    rng = random.Random(12)
    for _ in range(3000):
        body, old_start, new_start = _random_hunk(rng)
        expected = _reference_hunk(body, old_start, new_start)
        old_count = sum(line.origin != "+" for line in expected)
        new_count = sum(line.origin != "-" for line in expected)
        header = f"@@ -{old_start},{old_count} +{new_start},{new_count} @@"
        block = "\n".join(["diff --git a/f b/f", "--- a/f", "+++ b/f", header, *body, ""])
        (hunk,) = parse_block(block.encode()).hunks
        lines = hunk.lines
        assert isinstance(lines, PackedLines)
        assert tuple(lines) == expected and lines == expected and expected == lines
        assert len(lines) == len(expected) and hash(lines) == hash(expected)
        for index in range(-len(expected), len(expected)):
            assert lines[index] == expected[index]
        for index in (len(expected), -len(expected) - 1):
            with pytest.raises(IndexError):
                lines[index]
        for _ in range(5):
            start, stop = rng.randint(-3, 14), rng.randint(-3, 14)
            step = rng.choice([1, 1, 2, -1])
            assert lines[start:stop:step] == expected[start:stop:step]
        assert origins_of(lines) == origins_of(expected) == "".join(x.origin for x in expected)
        assert texts_of(lines, 1, 4) == texts_of(expected, 1, 4)
        plain = hunk._replace(lines=expected)
        for name in ("old_span", "new_span", "changed_count", "scope_line", "removed", "added"):
            assert getattr(hunk, name) == getattr(plain, name), name
        assert hunk.unpacked() == plain and type(hunk.unpacked().lines) is tuple
        back = pickle.loads(pickle.dumps(hunk, protocol=pickle.HIGHEST_PROTOCOL))
        assert back == hunk and isinstance(back.lines, PackedLines)
        assert tokens.hunk_chars(hunk) == tokens.hunk_chars(plain)
        assert changed_rows(hunk) == changed_rows(plain)


def test_hunks_one_after_another_read_as_the_lines_git_wrote() -> None:
    """A block of several hunks, some with empty context lines and "No newline" marks,
    most without (as most of git's are): each holds its own lines, counted from its
    header, and no line of the next."""
    rng = random.Random(5)
    for _ in range(2000):
        hunks = [_random_hunk(rng) for _ in range(rng.randint(1, 4))]
        if rng.random() < 0.5:  # most hunks of git's diff: every line starts with its origin
            hunks = [
                ([line or " " for line in body if line[:1] != "\\"], o, n) for body, o, n in hunks
            ]
        text = ["diff --git a/f b/f", "--- a/f", "+++ b/f"]
        expected = []
        for body, old_start, new_start in hunks:
            lines = _reference_hunk(body, old_start, new_start)
            old_count = sum(line.origin != "+" for line in lines)
            new_count = sum(line.origin != "-" for line in lines)
            text += [f"@@ -{old_start},{old_count} +{new_start},{new_count} @@", *body]
            expected.append(lines)
        parsed = parse_block("\n".join([*text, ""]).encode()).hunks
        assert [tuple(hunk.lines) for hunk in parsed] == expected


def test_moves_read_packed_lines_as_lines() -> None:
    """Moved blocks are found from the columns (runs of one origin, their texts): the
    same verdicts, pointers and all, as from the hunks' Lines."""
    rng = random.Random(7)
    texts = [f"value_{n} = compute_something_long({n}, other_argument)" for n in range(8)]
    found = 0
    for _ in range(600):
        files: list[FileInput] = []
        for name in ("a.py", "b.c"):
            hunks: list[Hunk] = []
            for _ in range(rng.randint(1, 3)):
                body = []
                for _ in range(rng.randint(1, 4)):
                    origin, first = rng.choice("-+ "), rng.randrange(4)
                    run = texts[first : first + rng.randint(1, 5)]
                    if rng.random() < 0.3:
                        run = [*run, ""]
                    body += [origin + rng.choice(["", "    "]) + text for text in run]
                expected = _reference_hunk(body, 10, 10)
                old = sum(line.origin != "+" for line in expected)
                new = sum(line.origin != "-" for line in expected)
                header = f"@@ -10,{old} +10,{new} @@"
                block = "\n".join(["diff --git a/f b/f", header, *body, ""]).encode()
                hunks += parse_block(block).hunks
            change = FileChange(
                "modified", name, name, 0o100644, 0o100644, "1" * 40, "2" * 40, None, False,
                tuple(hunks),
            )  # fmt: skip
            verdicts = tuple(Verdict("significant", ("content",)) for _ in hunks)
            files.append((change, kind_of(name), True, aggregate(change, True, verdicts)))
        unpacked = [(change.unpacked(), *rest) for change, *rest in files]
        packed_verdicts = find_moves(files)
        assert packed_verdicts == find_moves(unpacked)  # type: ignore[arg-type]
        found += sum(v.hunks != f[3].hunks for v, f in zip(packed_verdicts, files, strict=True))
    assert found > 20  # blocks did move
