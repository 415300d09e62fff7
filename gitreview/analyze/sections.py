"""Sections of a Markdown file, and how a range changed them.

A section runs from its heading to the line before the next heading, so the
sections of a file never overlap; the text before the first heading (after
any frontmatter) is the preamble. Sections of the two sides are paired by
heading (level and text) in document order; an unpaired heading of the base
pairs with a new one at the same place whose body is mostly the same: the
heading was renamed. What stays unpaired was removed or added.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import NamedTuple, TypeVar

from gitreview.analyze.markdown_doc import Document, Heading
from gitreview.patterns import lazy_compile

# Share of a body that must survive for a changed heading to count as renamed.
_RENAMED_SIMILARITY = 0.5


class Section(NamedTuple):
    heading: Heading | None  # None for the preamble
    name: str  # the heading path, "Install > Requirements"; "" for the preamble
    first: int
    last: int
    body: tuple[str, ...]  # the lines under the heading, whitespace runs collapsed, blanks out

    @property
    def words(self) -> int:
        # A word holds a letter or a digit: each is found from its first one to its end.
        return len(_WORD_REST.findall(" ".join(self.body)))


# A letter or a digit: what str.isalnum() admits (\w is that and "_").
_ALNUM = lazy_compile(r"[^\W_]")
# From a word's first letter or digit to its end: one match per word (`_words`).
_WORD_REST = lazy_compile(r"[^\W_]\S*")


def _words(line: str) -> list[str]:
    """Words of prose; list bullets, table bars and fences are not words."""
    return [token for token in line.split() if _ALNUM.search(token)]


def sections(document: Document) -> tuple[Section, ...]:
    """The preamble (when it has lines) and one section per heading."""
    total = len(document.lines)
    start = document.frontmatter.last + 1 if document.frontmatter else 1
    headings = document.headings
    found: list[Section] = []
    preamble_last = headings[0].line - 1 if headings else total
    if start <= preamble_last:
        found.append(Section(None, "", start, preamble_last, _body(document, start, preamble_last)))
    path: list[Heading] = []
    for position, heading in enumerate(headings):
        last = headings[position + 1].line - 1 if position + 1 < len(headings) else total
        path = [*(above for above in path if above.level < heading.level), heading]
        name = " > ".join(above.text for above in path)
        body = _body(document, heading.end + 1, last)
        found.append(Section(heading, name, heading.line, last, body))
    return tuple(found)


def _body(document: Document, first: int, last: int) -> tuple[str, ...]:
    lines = (" ".join(line.split()) for line in document.lines[first - 1 : last])
    return tuple(line for line in lines if line)


class Change(NamedTuple):
    """How the range changed one head section."""

    added: bool = False
    was: str | None = None  # the heading's text at base, when it was renamed
    words: int = 0  # words added, removed or replaced


class Comparison(NamedTuple):
    changes: tuple[Change, ...]  # one per head section, in order
    removed: tuple[Section, ...]  # base sections with no counterpart at head
    successors: dict[str, Heading]  # base slug -> head heading


def compare(base: Sequence[Section], head: Sequence[Section]) -> Comparison:
    pairs = _pair(base, head)  # head index -> base index
    changes = tuple(
        _change(base[pairs[index]], section) if index in pairs else Change(added=True)
        for index, section in enumerate(head)
    )
    paired = set(pairs.values())
    removed = tuple(section for index, section in enumerate(base) if index not in paired)
    successors = {
        old.heading.slug: new.heading
        for new_index, old_index in pairs.items()
        if (old := base[old_index]).heading and (new := head[new_index]).heading
    }
    return Comparison(changes, removed, successors)


def _change(old: Section, new: Section) -> Change:
    was = None
    if old.heading and new.heading and old.heading.text != new.heading.text:
        was = old.heading.text
    return Change(was=was, words=words_changed(old.body, new.body))


def _key(section: Section) -> tuple[int, str]:
    return (section.heading.level, section.heading.text) if section.heading else (0, "")


def _pair(base: Sequence[Section], head: Sequence[Section]) -> dict[int, int]:
    from difflib import SequenceMatcher  # only once sections are compared

    # Headings as they are (a review of the bounded diff: a middle counted as replaced
    # whole made every section of a reformatted changelog a candidate of every other).
    matcher = SequenceMatcher(None, [_key(s) for s in base], [_key(s) for s in head], False)
    pairs: dict[int, int] = {}
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            pairs.update((j1 + k, i1 + k) for k in range(i2 - i1))
        elif tag == "replace":
            pairs.update(_renamed(base, range(i1, i2), head, range(j1, j2)))
    # A section moved elsewhere keeps its heading: pair what is left by key.
    paired = set(pairs.values())
    left = [i for i in range(len(base)) if i not in paired]
    for j in (j for j in range(len(head)) if j not in pairs):
        same = next((i for i in left if _key(base[i]) == _key(head[j])), None)
        if same is not None:
            pairs[j] = same
            left.remove(same)
    return pairs


def _renamed(
    base: Sequence[Section], olds: range, head: Sequence[Section], news: range
) -> dict[int, int]:
    """Pairs, in order, within a block of changed headings: same level, similar body."""
    pairs: dict[int, int] = {}
    start = news.start
    for i in olds:
        for j in range(start, news.stop):
            old, new = base[i], head[j]
            if _key(old)[0] == _key(new)[0] and _similar(old.body, new.body):
                pairs[j] = i
                start = j + 1
                break
    return pairs


def _similar(old: tuple[str, ...], new: tuple[str, ...]) -> bool:
    from difflib import SequenceMatcher  # only once sections are compared

    matcher = SequenceMatcher(None, old, new, False)
    if matcher.quick_ratio() < _RENAMED_SIMILARITY:
        return False
    return len(old) * len(new) > _MATCHED_PAIRS or matcher.ratio() >= _RENAMED_SIMILARITY


def words_changed(old: tuple[str, ...], new: tuple[str, ...]) -> int:
    """Words added, removed or replaced: lines are compared first, then the words of
    the lines that differ (fast on long sections, and re-wrapping costs nothing)."""
    if old == new:
        return 0
    total = 0
    for tag, i1, i2, j1, j2 in _opcodes(old, new):
        if tag == "equal":
            continue
        before = [word for line in old[i1:i2] for word in _words(line)]
        after = [word for line in new[j1:j2] for word in _words(line)]
        total += sum(
            max(b2 - b1, a2 - a1) for op, b1, b2, a1, a2 in _opcodes(before, after) if op != "equal"
        )
    return total


# Past this many pairs of items, difflib's matcher, quadratic on repetitive input (a
# paragraph of 20,000 `*a` words took a minute: found by an adversarial review), is run
# only on what lies between the two sides' common start and common end; past it there
# too, that middle counts as replaced whole.
_MATCHED_PAIRS = 1_000_000

Opcode = tuple[str, int, int, int, int]
T = TypeVar("T", bound=Hashable)


def _opcodes(old: Sequence[T], new: Sequence[T]) -> Sequence[Opcode]:
    """difflib's opcodes from `old` to `new`, within a bounded cost."""
    from difflib import SequenceMatcher  # only once sections are compared

    if len(old) * len(new) <= _MATCHED_PAIRS:
        return SequenceMatcher(None, old, new, False).get_opcodes()
    shorter = min(len(old), len(new))
    start = next((i for i in range(shorter) if old[i] != new[i]), shorter)
    end = next((k for k in range(shorter - start) if old[-1 - k] != new[-1 - k]), shorter - start)
    old_stop, new_stop = len(old) - end, len(new) - end
    found: list[Opcode] = [("equal", 0, start, 0, start)] if start else []
    middle_old, middle_new = old[start:old_stop], new[start:new_stop]
    if len(middle_old) * len(middle_new) <= _MATCHED_PAIRS:
        inner = SequenceMatcher(None, middle_old, middle_new, False).get_opcodes()
        found += [
            (t, i1 + start, i2 + start, j1 + start, j2 + start) for t, i1, i2, j1, j2 in inner
        ]
    else:
        found.append(("replace", start, old_stop, start, new_stop))
    if end:
        found.append(("equal", old_stop, len(old), new_stop, len(new)))
    return found
