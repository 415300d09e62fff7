"""When one word replacing another is a typo fix: the word-level half of the `typo` rule.

A typo fix is a small edit of a plain word whose meaning cannot have changed. The
edit distance alone cannot tell a fix (recieve→receive) from a real-word swap that
changes meaning with one letter (must→most, enable→unable, internal→external), so
the checks here are deliberately narrow (issue #3): plain lower-case or Capitalized
ASCII words of four letters or more, the same first letter (prefixes carry negation
and direction: un-, in-/ex-, en-/de-), an old word that is no English word and a new
one that is, or one word's British and American spellings (a real word swapped for
another, from→form or warm→warn, says something else: words/ lists them), no word
from a list of meaning-bearing words
(numbers and units among them), and a restricted Damerau-Levenshtein distance of 1 (2
from eight letters). Each part of a hyphenated word is checked as a word of its own, and
no edit may add or drop a plural ending, a negating prefix or suffix (in-, un-, non-,
-less...), swap, add or drop an ending of inflection or derivation (creates/created,
iteration/iterator) or touch a number or unit prefix (deci-/deca-, bi-). When in
doubt, the pair is not a typo.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import NamedTuple

from gitreview.patterns import lazy_compile

# Words whose replacement changes meaning even when it looks like a one-letter slip:
# modals, quantifiers, negations, truth values, order and direction, opposite actions,
# numbers and units. Checked with their common inflections, and on each part of a
# hyphenated or contracted word.
_MEANING_BEARING = """
    must may might should shall can could will would need needs dare ought
    all any some none most many much few more less least lest each every either neither
    both several enough only also just even ever always never often seldom rarely usually
    sometimes already still yet again once twice
    not no nor cannot without unless except nothing nobody nowhere non
    true false yes on off null nil empty zero
    before after above below under over first last next previous prev min max
    high low early earlier earliest late latter later latest old new older newer
    upper inner outer left right front back top bottom begin end start stop finish
    same different equal unequal similar exact exactly approximately
    than then this that these those thus here there where when while whether
    allow deny disallow permit forbid grant revoke accept reject refuse
    add remove delete insert include exclude inclusive exclusive internal external
    implicit explicit implicitly explicitly import export input output
    enable disable increase decrease increment decrement raise lower maximize minimize
    maximum minimum maximal minimal open close lock unlock load unload mount unmount
    install uninstall read write encode decode encrypt decrypt ascend ascending descend
    descending encourage discourage show hide get set push pull send fetch keep drop
    public private protected safe unsafe secure insecure valid invalid sync async
    required optional mandatory deprecated supported success failure fail pass
    forbidden prohibit recommend prefer avoid require strict lenient obsolete
    stable unstable experimental greater smaller larger bigger
    everything anything something everyone anyone someone
    lose loose affect effect accept except quite quiet
    zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen
    fifteen sixteen seventeen eighteen nineteen twenty thirty forty fourty fifty sixty
    seventy eighty ninety hundred thousand million billion trillion quadrillion
    zeroth first second third fourth fifth sixth seventh eighth ninth tenth eleventh
    twelfth thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth
    twentieth thirtieth fortieth fiftieth sixtieth seventieth eightieth ninetieth
    hundredth thousandth millionth billionth trillionth
    half halves quarter double single triple quadruple quintuple dozen thrice
    unit units percent permille
    byte bit kilobyte megabyte gigabyte terabyte kibibyte mebibyte gibibyte
    millisecond microsecond nanosecond minute hour day week month year
    hourly daily weekly monthly yearly annual
"""

# Prefixes of number and unit words (deci-/deca-, milli-/micro-, bi-/tri-): an edit in
# one, or where it meets the stem (biannual/biennial), changes the quantity.
_NUMBER_PREFIX_WORDS = """
    deci deca deka hecto centi milli micro nano pico femto atto kilo mega giga tera peta
    kibi mebi gibi tebi pebi hemi demi semi sesqui bi tri tetra quadr quad quart quint
    penta hexa hepta sept octa octo nona ennea dodeca uni mono poly multi
"""
_NUMBER_PREFIXES = tuple(_NUMBER_PREFIX_WORDS.split())
# Affixes that negate or take away: with one of them added or removed, the word says
# the opposite (sensitive/insensitive, imitable/inimitable, harmful/harmless).
_NEGATING_PREFIXES = ("in", "im", "il", "ir", "un", "non", "dis", "mis", "anti", "an", "a")
_NEGATING_SUFFIXES = ("less", "free")

_APOSTROPHES = "'\u2019"  # typewriter and typographic
_NEGATION_ENDINGS = tuple(f"n{mark}t" for mark in _APOSTROPHES)
_WORD = lazy_compile(f"[A-Za-z]+(?:[{_APOSTROPHES}-][A-Za-z]+)*")
_PARTS = lazy_compile(f"[{_APOSTROPHES}-]")
_SPACES = lazy_compile(r"(\s+)")
_TICKS = lazy_compile(r"`+")


def _inflections(word: str) -> Iterable[str]:
    """A superset of a word's inflections: over-guarding only costs a missed typo."""
    yield from (word, word + "s", word + "es", word + "d", word + "ed", word + "ing")
    yield from (word + "r", word + "er", word + "st", word + "est", word + "ly")
    if word.endswith("e"):
        yield word[:-1] + "ing"
    if word.endswith("y"):
        yield from (word[:-1] + "ies", word[:-1] + "ied", word[:-1] + "ier", word[:-1] + "iest")
    yield from (word + word[-1] + "ed", word + word[-1] + "ing", word + word[-1] + "er")


def listed(word: str, words: str = "english") -> bool:
    """Whether a lower-case word is in words/WORDS.txt (SCOWL's American and British
    lists: `english`, both; `american-only` and `british-only`, the words one has and
    the other has not), one word a line, sorted: a binary search over its text, which
    is read once and never split (a set of the 75,000 English words took 20 ms)."""
    text = _words(words)
    low, high = 0, len(text)
    while low < high:
        start = text.rfind("\n", 0, (low + high) // 2) + 1
        end = text.index("\n", start)
        line = text[start:end]
        if line == word:
            return True
        if line < word:
            low = end + 1
        else:
            high = start
    return False


def _spelling_fixed(old: str, new: str) -> bool:
    """Whether `old` is no English word and `new` is one, or the two are one word spelt
    the British and the American way: each only in its own list (story/storey and
    meter/metre, words of both, are not), and one of the dialects' correspondences
    apart (neighbours/neighbors; not analysed/analyzer, furore/furors, nitre/nite)."""
    if not listed(old):
        return listed(new)
    if listed(old, "british-only") and listed(new, "american-only"):
        return _spelt_apart(old, new)
    return listed(old, "american-only") and listed(new, "british-only") and _spelt_apart(new, old)


# How one word's British and American spellings differ, British first.
_DIALECTS = (
    *(("our", "or"), ("re", "er"), ("is", "iz"), ("ys", "yz"), ("ll", "l")),
    *(("ae", "e"), ("oe", "e"), ("ogue", "og"), ("ence", "ense"), ("sc", "sk"), ("mme", "m")),
)


def _spelt_apart(british: str, american: str) -> bool:
    """Whether one of _DIALECTS, made once in `british`, spells `american`."""
    for ours, theirs in _DIALECTS:
        at = british.find(ours)
        while at >= 0:
            if british[:at] + theirs + british[at + len(ours) :] == american:
                return True
            at = british.find(ours, at + 1)
    return False


@functools.cache
def _words(name: str) -> str:
    from gitreview.packaged import packaged

    return packaged("words", f"{name}.txt").decode("ascii")


@functools.cache
def guarded_words() -> frozenset[str]:
    """The meaning-bearing words with their inflections (built on first use: start-up)."""
    return frozenset(form for word in _MEANING_BEARING.split() for form in _inflections(word))


class Flavor(NamedTuple):
    """How words are delimited in one kind of prose."""

    lead: str  # punctuation that may open a word
    trail: str  # punctuation that may close it
    capitalized: bool = True  # whether a Capitalized word can be prose


MARKDOWN = Flavor(lead="(*_~", trail=".,;:!?)*_~")
TEXT = Flavor(lead="(*", trail=".,;:!?)*")
# In code, a Capitalized word is as likely a type, a class or an exported name (Go doc
# comments start with one) as the start of a sentence.
COMMENT = Flavor(lead="(", trail=".,;:!?)", capitalized=False)


class Fix(NamedTuple):
    old: str
    new: str
    edits: int
    old_span: tuple[int, int] = (0, 0)  # the whole token, in the old line
    new_span: tuple[int, int] = (0, 0)  # the whole token, in the new line

    def __str__(self) -> str:
        return f"{self.old}→{self.new} ({self.edits} edit{'s' if self.edits > 1 else ''})"


def line_fixes(old: str, new: str, flavor: Flavor) -> list[Fix] | None:
    """The typo fixes that turn line `old` into line `new`, or None when anything else
    changed: spacing, punctuation, a number, a word added or removed, a word inside a
    code span, or a word swap that is not a typo."""
    old_parts, new_parts = _SPACES.split(old), _SPACES.split(new)
    if len(old_parts) != len(new_parts):
        return None  # a word was added or removed
    code = _code_spans(old)
    if code is None:
        return None
    fixes: list[Fix] = []
    old_at = new_at = 0
    for index, (before, after) in enumerate(zip(old_parts, new_parts, strict=True)):
        if before != after:
            if index % 2 or code[0] < old_at < code[1]:  # whitespace, or maybe code
                return None
            fix = token_fix(before, after, flavor)
            if fix is None:
                return None
            spans = (old_at, old_at + len(before)), (new_at, new_at + len(after))
            fixes.append(Fix(fix.old, fix.new, fix.edits, *spans))
        old_at, new_at = old_at + len(before), new_at + len(after)
    return fixes


def _code_spans(line: str) -> tuple[int, int] | None:
    """Where inline code may be on a line: from its first backtick to its last (code spans
    open and close with runs of one or more backticks, which may nest shorter runs, so
    anything between them is doubtful); None when a span may run on to another line."""
    runs = _TICKS.findall(line)
    if len(runs) % 2:
        return None
    return (line.find("`"), line.rfind("`")) if runs else (-1, -1)


def token_fix(before: str, after: str, flavor: Flavor) -> Fix | None:
    """`before`→`after` as a typo fix of one word, with the same punctuation around it."""
    old, new = _split(before, flavor), _split(after, flavor)
    if old is None or new is None or (old[0], old[2]) != (new[0], new[2]):
        return None
    if not flavor.capitalized and not old[1].islower():
        return None
    edits = typo_edits(old[1], new[1])
    return None if edits is None else Fix(old[1], new[1], edits)


def _split(token: str, flavor: Flavor) -> tuple[str, str, str] | None:
    """Punctuation before, the word, punctuation after; None if `token` holds no plain
    word (digits, underscores, dots, slashes, quotes, brackets: numbers, identifiers,
    paths, URLs, code)."""
    start = len(token) - len(token.lstrip(flavor.lead))
    end = len(token.rstrip(flavor.trail))
    if start >= end or not _WORD.fullmatch(token, start, end):
        return None
    return token[:start], token[start:end], token[end:]


def typo_edits(old: str, new: str) -> int | None:
    """How many edits turn plain word `old` into `new`, when that is a typo fix."""
    shape = _shape(old)
    if shape is None or shape != _shape(new):
        return None  # ALL-CAPS, camelCase and case changes: names, acronyms, constants
    old_low, new_low = old.lower(), new.lower()
    if _PARTS.findall(old_low) != _PARTS.findall(new_low):
        return None  # a hyphen or an apostrophe added, removed or changed
    letters = min(_letters(old_low), _letters(new_low))
    if letters < 4 or _guarded(old_low) or _guarded(new_low):
        return None
    # Each part of a compound word is a word of its own: case-sensitive/case-insensitive
    # hides its negation in the second part.
    parts = zip(_PARTS.split(old_low), _PARTS.split(new_low), strict=True)
    if not all(_part_may_be_typo(a, b) for a, b in parts if a != b):
        return None
    edits = osa_distance(old_low, new_low)
    return edits if 0 < edits <= (1 if letters < 8 else 2) else None


def _part_may_be_typo(old: str, new: str) -> bool:
    """Whether one changed part of a word (the whole of a plain word) may be a misspelling
    of the other: nothing in the edit can carry meaning."""
    if min(len(old), len(new)) < 4 or old[0] != new[0]:
        return False  # un-, in-/ex-, en-/de-, local/global: the start of a word is meaning
    if old.endswith("est") != new.endswith("est"):
        return False  # stronger→strongest: a comparative is not a typo
    if _plural_pair(old, new) or _plural_pair(new, old):
        return False  # owner→owners: a number, not a spelling
    if _other_ending(old, new):
        return False  # creates→created, iteration→iterator: another form, not a spelling
    if _affixed(old, new) or _affixed(new, old):
        return False
    if _number_prefix_touched(old, new) or _opposite_affix(old, new):
        return False
    # Last, the word lists (the checks above are on the two words alone):
    return _spelling_fixed(old, new)  # from→form, warm→warn: a word for another


def _plural_pair(short: str, long: str) -> bool:
    """Whether `long` is `short` with a plural (or third-person) ending added."""
    if long.endswith("ss"):
        return False  # proces→process, acces→access: a doubled s is a spelling slip
    return long in (short + "s", short + "es") or (
        short.endswith("y") and long == short[:-1] + "ies"
    )


# Endings of inflection and derivation: a word that only swaps one for another (or
# gains or loses one) is another form of its stem, a tense, a person, a noun for a
# verb, and says something else (iteration/iterator, creates/created).
_ENDING_WORDS = """
    s es d ed ing ings er ers or ors ion ions ation ations ator ators ant ants ent ents
    ance ances ence ences ive ives ment ments al als ally ly able ible ity ities ize izes
    ized izing ise ises ised ising ism isms ist ists ness ful ure ures
"""
_ENDINGS = frozenset(["", *_ENDING_WORDS.split()])


def _other_ending(old: str, new: str) -> bool:
    """Whether the two words share their stem and differ only by such endings."""
    common = _common_start(old, new)
    return old[common:] in _ENDINGS and new[common:] in _ENDINGS


def _opposite_affix(old: str, new: str) -> bool:
    """Whether the words differ by affixes that name other things, which a word list
    may lack (found by an adversarial review: hypotension/hypertension, intrastate/
    interstate, callee/caller were `typo`)."""
    for one, other in _OPPOSITE_PREFIXES:
        if old.startswith(one) and new.startswith(other):
            return True
    return any(
        old[: -len(one)] == new[: -len(other)] and old.endswith(one) and new.endswith(other)
        for pair in _OPPOSITE_ENDINGS
        for one, other in (pair, pair[::-1])
    )


_OPPOSITE_PREFIXES = tuple(
    (one, other)
    for pair in (("hyper", "hypo"), ("inter", "intra"), ("micro", "macro"), ("endo", "exo"))
    for one, other in (pair, pair[::-1])
)
# Endings compared after the words' common start: a person's role (attendee and
# attender). Not nitrite/nitrate, lactase/lactose: those endings swapped are most
# misspellings' too (definate/definite, purpase/purpose; found by a review of the fix).
_OPPOSITE_ENDINGS = (("ee", "er"), ("ee", "or"))


def _common_start(old: str, new: str) -> int:
    """How many letters the two words share from their start."""
    common = 0
    while common < min(len(old), len(new)) and old[common] == new[common]:
        common += 1
    return common


def _affixed(plain: str, other: str) -> bool:
    """Whether `other` is (nearly) `plain` with a negating prefix or suffix added."""
    for prefix in _NEGATING_PREFIXES:
        stem = other[len(prefix) :]
        if other.startswith(prefix) and not plain.startswith(prefix) and _near(stem, plain):
            return True
    for suffix in _NEGATING_SUFFIXES:
        stem = other[: -len(suffix)]
        if other.endswith(suffix) and not plain.endswith(suffix) and _near(stem, plain):
            return True
    return False


def _near(a: str, b: str) -> bool:
    return osa_distance(a, b) <= 1


def _number_prefix_touched(old: str, new: str) -> bool:
    """Whether the edit reaches into a number or unit prefix of either word, or the
    stem right after it (decimeter/decameter, biannual/biennial)."""
    common = _common_start(old, new)
    return any(
        word.startswith(prefix) and common <= len(prefix)
        for word in (old, new)
        for prefix in _NUMBER_PREFIXES
    )


def _shape(word: str) -> str | None:
    letters = _PARTS.sub("", word)
    if letters.islower():
        return "lower"
    if letters[0].isupper() and (len(letters) == 1 or letters[1:].islower()):
        return "capitalized"
    return None


def _letters(word: str) -> int:
    return len(_PARTS.sub("", word))


def _guarded(word: str) -> bool:
    guarded = guarded_words()
    if word in guarded or word.endswith(_NEGATION_ENDINGS):
        return True
    return any(part in guarded for part in _PARTS.split(word))


def osa_distance(a: str, b: str) -> int:
    """Restricted Damerau-Levenshtein (optimal string alignment) distance: insertions,
    deletions, substitutions and swaps of two adjacent letters. Never less than the
    unrestricted distance, so it errs on the side of "not a typo"."""
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        current = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = a[i - 1] != b[j - 1]
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                current[j] = min(current[j], previous2[j - 2] + 1)
        previous2, previous = previous, current
    return previous[len(b)]
