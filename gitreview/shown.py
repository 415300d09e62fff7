"""Names as printed on a line for a reviewer or a terminal.

git allows any byte but NUL and `/` in a file name: a newline, an escape sequence
(`\\033[31m`). Printed as they are, they break the line a name stands on (a file
named by the range's author could write lines of its own into a reviewer's brief)
or drive the terminal. A path that holds one is written quoted, as git quotes it
(`"a\\nb.py"`, quote.c), where a handle or a line names it (`written_path`), and
read back from that form (`read_path`); other text is shown with such characters
escaped (`escaped`). Found by adversarial reviews.
"""

from __future__ import annotations

from gitreview.patterns import lazy_compile

# C0 and C1 control characters, DEL, and Unicode's line and paragraph separators.
# Bidirectional controls too: a terminal or a browser shows `a\u202etxt.exe` as
# `aexe.txt` (found by an adversarial review).
BIDI_CONTROLS = r"\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"  # inside a class
UNSAFE = lazy_compile(rf"[\x00-\x1f\x7f-\x9f\u2028\u2029{BIDI_CONTROLS}]")
# Characters that show as nothing, in a line of code or data: invisible operators, a
# byte order mark, Hangul fillers (a name of one looks like no name), tag characters
# (they spell text no person sees and a model reads), and zero-width spaces, joiners
# and word joiners between two ASCII characters (`adm\u200bin`), where no script
# needs one. Found by an adversarial review: `"admin"` and `"adm\u200bin"`
# read the same.
# A zero-width space or word joiner only there too: Thai, Khmer, Lao and Burmese break
# words with them (and git's Irish translation holds a stray one after a space).
# (A soft hyphen, a combining grapheme joiner and variation selectors there too: a
# review of the fix. Not the direction marks, which right-to-left locale data puts
# between ASCII placeholders.)
INVISIBLE = lazy_compile(
    "[\u2061-\u2064\ufeff\u180e\u115f\u1160\u3164\uffa0\U000e0000-\U000e007f]"
    "|(?<=[\x21-\x7e])[\u00ad\u034f\u200b-\u200d\u2060\ufe00-\ufe0f]+(?=[\x21-\x7e])"
)
# A flag emoji's tags: the black flag, tag letters, CANCEL TAG (England's, Scotland's).
FLAG = lazy_compile("\U0001f3f4[\U000e0020-\U000e007e]+\U000e007f")
# git's escapes; any other unsafe character is written as the octal of its bytes.
_ESCAPES = {"\a": "a", "\b": "b", "\t": "t", "\n": "n", "\v": "v", "\f": "f", "\r": "r"}
_ESCAPES |= {'"': '"', "\\": "\\"}
_UNESCAPES = {letter: char for char, letter in _ESCAPES.items()}
_OCTAL = lazy_compile(r"[0-7]{3}")
# A name ending as a handle's lines do (`deploy:2`), which a handle would read as a
# typo for them (found by an adversarial review: `show` refused such a handle).
_LIKE_LINES = lazy_compile(r":-?[0-9]+(?:-[0-9]+)?$")


def escaped(text: str) -> str:
    """The text with each character that would break its line or drive a terminal
    written as an escape (`\\x0a`, `\\x1b`, `\\u2028`)."""
    return UNSAFE.sub(lambda match: _escape(ord(match.group())), text)


def visible(text: str) -> str:
    """A line of a file as a reviewer is shown it: each `INVISIBLE` character escaped
    (`\\u200b`), and each that would break its line or drive a terminal (an escape
    sequence, a CR inside it, U+2028, a bidirectional override), a tab aside (a review
    of the fix: `ESC[1A` erased the line above in `show`, and a line separator started
    a line of its own in the brief); the line itself, most often."""
    if text.isascii() and (text.isprintable() or not _ASCII_CONTROL.search(text)):
        return text  # most lines: a tab is no control here
    if "\U0001f3f4" not in text:
        return _escaped_in_a_line(text)
    pieces, last = [], 0  # a flag emoji's tags are its own (a review of the fix)
    for flag in FLAG.finditer(text):
        pieces += [_escaped_in_a_line(text[last : flag.start()]), flag.group()]
        last = flag.end()
    return "".join([*pieces, _escaped_in_a_line(text[last:])])


_ASCII_CONTROL = lazy_compile("[\x00-\x08\x0a-\x1f\x7f]")


def _escaped_in_a_line(text: str) -> str:
    return _IN_A_LINE.sub(lambda match: "".join(map(_escape, map(ord, match.group()))), text)


_IN_A_LINE = lazy_compile(
    "[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]|" + INVISIBLE.pattern
)


def _escape(code: int) -> str:
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def written_path(path: str) -> str:
    """The path as a handle, or a line naming a file for a reviewer, writes it: as it
    is, or quoted as git quotes it when it holds what would break its line or drive a
    terminal, starts with a quote, starts or ends with a space (a handle is read
    stripped), or ends as a handle's lines do."""
    if not (
        UNSAFE.search(path)
        or path.startswith('"')
        or path != path.strip()
        or _LIKE_LINES.search(path)
    ):
        return path
    out = ['"']
    for char in path:
        if char in _ESCAPES:
            out.append(f"\\{_ESCAPES[char]}")
        elif UNSAFE.match(char):
            out.append("".join(f"\\{byte:03o}" for byte in char.encode("utf-8")))
        else:
            out.append(char)
    out.append('"')
    return "".join(out)


def read_path(quoted: str) -> str | None:
    """The path a quoted one (`written_path`, with its quotes) writes; None if it
    is not one."""
    raw = bytearray()
    body, index = quoted[1:-1], 0
    while index < len(body):
        char = body[index]
        if char != "\\":
            raw += char.encode("utf-8", "surrogateescape")
            index += 1
        elif octal := _OCTAL.match(body, index + 1):
            raw.append(int(octal.group(), 8) & 0xFF)
            index = octal.end()
        elif body[index + 1 : index + 2] in _UNESCAPES:
            raw += _UNESCAPES[body[index + 1]].encode()
            index += 2
        else:
            return None
    return raw.decode("utf-8", "surrogateescape")
