"""A Markdown hunk's blocks rendered on their own decide as the whole files would.

The reflow and typo rules compare the old file with the old file plus one hunk.
`prose_markdown.hunk_sides` renders only the top-level blocks around the hunk
where the file can be cut (issue 12); these tests hold it to the whole-file
comparison on generated pages full of what could carry a block across a cut:
fences and HTML left open, lists that go on after a blank line, reference
definitions and footnotes, front matter, setext underlines, tables that
interrupt a paragraph, lone CRs and "white-space".
"""

from __future__ import annotations

import random

import pytest
from findings import diff_hunks

from gitreview.classify.base import apply_hunk
from gitreview.classify.prose_markdown import Piece, hunk_sides, patched, pieces, rendered

# Blocks a page is made of, some of them unfinished on purpose.
BLOCKS = [
    "A paragraph of plain words.",
    "A paragraph\nover two lines.",
    "# A heading",
    "## Another heading #",
    "Setext title\n============",
    "Underlined\n---",
    "- one\n- two",
    "- loose one\n\n- loose two",
    "1. first\n2. second",
    "- item\n\n  continued in the item",
    "- outer\n  - inner",
    "> quoted words\n> more quoted",
    "> [!NOTE]\n> an alert",
    "```\ncode line\n\nafter a blank in code\n```",
    "```python\nunclosed = True",
    "~~~\ntilde fence\n~~~",
    "    indented code\n\n    more code",
    "a | b\n--|--\n1 | 2",
    "text before\na | b\n--|--",
    "See [ref] and [other][ref].",
    "Some `code span` and *emphasis*.",
    "A link to [a page](other.md#part).",
    "***",
    "---\ntitle: front\n---",
    "Line with trailing spaces  \nand a hard break.",
    "not a fence ``` here",
    "   ",
    "- [ ] a task\n- [x] done",
    "Visit www.example.com today.",
]
# Blocks that link or run across the others: with one, the file is rendered whole.
WHOLE = [
    "<div>\nraw html\n</div>",
    "<pre>\nkept   spaces\n\nstill pre",
    "<!-- a comment\n\nthat goes on",
    "[ref]: https://example.com",
    "A note[^1].",
    "[^1]: the note",
    "Inline <b>bold</b> html.",
    "Words about white-space in CSS.",
    "Line with a lone\rCR.",
]
# What a hunk puts in a page: blocks, reflows of them, a lone line.
LINES = [
    "plain words",
    "```",
    "- one",
    "  indented",
    "",
    "",
    "====",
    "<div>",
    "| x |",
    "[ref]: /elsewhere",
    "> quoted",
    "#heading",
    "[^1]: a note",
    "<b>",
    "an <pre>open tag",
    "a lone\rCR",
    "white-space",
    "A paragraph of",
    "plain words.",
]


def page(chooser: random.Random) -> str:
    count = chooser.randint(1, 12)
    blocks = [chooser.choice(WHOLE if chooser.random() < 0.04 else BLOCKS) for _ in range(count)]
    return "\n\n".join(blocks) + chooser.choice(["\n", "", "\n\n"])


def edited(text: str, chooser: random.Random) -> str:
    lines = text.split("\n")
    start = chooser.randrange(len(lines))
    stop = min(len(lines), start + chooser.randint(0, 3))
    if chooser.random() < 0.4:
        # A reflow: the same words with the line breaks moved.
        words = " ".join(lines[start:stop]).split()
        cut = chooser.randint(0, len(words))
        new = [" ".join(words[:cut]), " ".join(words[cut:])]
    else:
        new = [chooser.choice(LINES) for _ in range(chooser.randint(0, 3))]
    return "\n".join([*lines[:start], *new, *lines[stop:]])


Differences = list[tuple[Piece, Piece]] | None


def differences(before: tuple[Piece, ...], after: tuple[Piece, ...]) -> Differences:
    """What the typo rule looks at: the pieces that differ, place by place."""
    if len(before) != len(after):
        return None
    return [(old, new) for old, new in zip(before, after, strict=True) if old != new]


@pytest.mark.parametrize("seed", range(4))
def test_the_blocks_around_a_hunk_decide_as_the_whole_files(seed: int) -> None:
    chooser = random.Random(seed)
    apart = compared = 0
    for _ in range(600):
        old_text = page(chooser)
        new_text = edited(old_text, chooser)
        old = rendered(old_text)
        assert old.pieces == pieces(old_text)
        for hunk in diff_hunks(old_text.encode(), new_text.encode()):
            whole_new = patched(old_text, hunk)
            sides = hunk_sides(old_text, old, hunk)
            if whole_new is None:
                assert sides is None
                continue
            assert sides is not None
            whole = (old.pieces, pieces(whole_new))
            case = f"{old_text!r} -> {whole_new!r}"
            assert (sides[0] == sides[1]) == (whole[0] == whole[1]), case
            assert differences(*sides) == differences(*whole), case
            compared += 1
            apart += len(sides[0]) < len(old.pieces)
    # The blocks are rendered apart often enough for the comparison to mean something.
    assert apart > compared / 5, (apart, compared)


@pytest.mark.parametrize("seed", range(2))
def test_a_hunk_undone_in_the_new_file_decides_as_the_whole_files(seed: int) -> None:
    """The other half of a proof (prose.py): the new file, and the new file with only
    the hunk undone. Undoing the only hunk gives the old file back."""
    chooser = random.Random(seed)
    compared = 0
    for _ in range(150):
        old_text = page(chooser)
        new_text = edited(edited(old_text, chooser), chooser)
        new = rendered(new_text)
        hunks = diff_hunks(old_text.encode(), new_text.encode())
        for hunk in hunks:
            undone = hunk.undone()
            assert undone.undone() == hunk.unpacked()
            whole_old = patched(new_text, undone)
            sides = hunk_sides(new_text, new, undone)
            if whole_old is None:  # an empty new file: no line to place it by, no proof
                assert sides is None and new_text == ""
                continue
            if len(hunks) == 1:
                assert whole_old == old_text
                # By the hunk's starts, as the metadata rule applies it (its final
                # newline aside).
                assert apply_hunk(new_text, undone).rstrip("\n") == old_text.rstrip("\n")
            assert sides is not None
            whole = (new.pieces, pieces(whole_old))
            assert differences(*sides) == differences(*whole), f"{new_text!r} -> {whole_old!r}"
            compared += 1
    assert compared > 150


def test_a_long_page_renders_only_the_blocks_around_each_hunk() -> None:
    paragraphs = [f"Paragraph {n} says something\nover two lines." for n in range(400)]
    old_text = "\n\n".join(paragraphs) + "\n"
    new_text = old_text.replace("Paragraph 200 says something\n", "Paragraph 200 says\nsomething ")
    old = rendered(old_text)
    assert old.cuts is not None
    (hunk,) = diff_hunks(old_text.encode(), new_text.encode())
    sides = hunk_sides(old_text, old, hunk)
    assert sides is not None
    before, after = sides
    assert before == after
    # Only the blocks of the hunk's changed lines, not the 400 paragraphs.
    assert len(before) < 10


@pytest.mark.parametrize(
    "old_text",
    [
        "[a]: /x\n\n" + "Words here.\n\n" * 20,
        "Note[^1].\n\n[^1]: n\n\n" + "Words here.\n\n" * 20,
        "<div>\n\n" + "Words here.\n\n" * 20,
        "white-space matters\n\n" + "Words here.\n\n" * 20,
        "Words\r\n\n" + "Words here.\n\n" * 20,
    ],
)
def test_what_links_or_runs_across_blocks_keeps_the_file_whole(old_text: str) -> None:
    assert rendered(old_text).cuts is None


FILLER = "".join(f"Paragraph {n} of filler.\n\n" for n in range(12))


@pytest.mark.parametrize(
    ("old_text", "new_text"),
    [
        # The changed line itself starts a block: indented, it goes on with the list
        # before it (and makes that list loose), which its block alone cannot show.
        (FILLER + "- item\n\nword\n\n" + FILLER, FILLER + "- item\n\n  word\n\n" + FILLER),
        # Lone CRs are line breaks to the renderer, not to git: counted in git's lines,
        # the block after the hunk would seem to start at the second paragraph.
        (FILLER + "words\n\n" + FILLER, FILLER + "words\r\rextra\n\n" + FILLER),
        # A fence opened by the hunk runs on over the blocks after it.
        (FILLER + "words\n\n" + FILLER, FILLER + "```\nwords\n\n" + FILLER),
    ],
)
def test_traps_at_the_cuts(old_text: str, new_text: str) -> None:
    old = rendered(old_text)
    assert old.cuts is not None
    (hunk,) = diff_hunks(old_text.encode(), new_text.encode())
    sides = hunk_sides(old_text, old, hunk)
    assert sides is not None
    assert old.pieces != pieces(new_text)
    assert sides[0] != sides[1]
