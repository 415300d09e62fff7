"""Git's path patterns without a working tree: wildmatch globs and ``.gitattributes``.

The manifest must depend on git objects only, so gitreview cannot ask ``git check-attr`` (which
reads the working tree). This module re-implements what it needs of gitignore(5),
gitattributes(5) and git's wildmatch.c as pure functions, checked against the real git binary
in tests/test_globs.py. Matching works on UTF-8 bytes, as git does: ``?`` and ``[...]`` match
one *byte*, so ``caf?.md`` does not match ``café.md`` while ``caf??.md`` does.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import NamedTuple, TypeAlias

from gitreview.patterns import lazy_compile

AttrValue: TypeAlias = bool | str | None
"""``True`` for ``attr``, ``False`` for ``-attr``, ``None`` for ``!attr``, else the string value."""

_BLANK = " \t\r\n"
_ATTR_NAME = lazy_compile(r"[A-Za-z0-9_.][-A-Za-z0-9_.]*")
_MAX_LINE = 2048  # git >= 2.39.1 ignores longer attribute lines (CVE-2022-23521 hardening)
_ESCAPES = {b"a": 7, b"b": 8, b"f": 12, b"n": 10, b"r": 13, b"t": 9, b"v": 11, b"\\": 92, b'"': 34}
_ESCAPE = lazy_compile(rb'\\([abfnrtv\\"]|[0-3][0-7][0-7])')
_QUOTED = lazy_compile(rb'"((?:[^"\\]|' + _ESCAPE.pattern + rb')*)"')
# git's ctype is ASCII-only, and its isspace() leaves out \v and \f.
_CLASS_TESTS: dict[str, Callable[[str], bool]] = {
    "alnum": str.isalnum, "alpha": str.isalpha, "digit": str.isdigit, "lower": str.islower,
    "upper": str.isupper, "print": str.isprintable, "cntrl": lambda c: not c.isprintable(),
    "graph": lambda c: c.isprintable() and c != " ", "blank": lambda c: c in " \t",
    "punct": lambda c: c.isprintable() and not c.isalnum() and c != " ",
    "space": lambda c: c in " \t\n\r", "xdigit": lambda c: c in "0123456789abcdefABCDEF",
}  # fmt: skip
_CHAR_CLASSES = {k.encode(): {b for b in range(128) if f(chr(b))} for k, f in _CLASS_TESTS.items()}
_CHAR = lazy_compile(rb"\\?(.)", re.DOTALL)  # a byte, possibly escaped
_CLASS_ITEM = lazy_compile(rb"\[:([^]]*):\]|" + _CHAR.pattern, re.DOTALL)
_NEVER = b"(?!)"


def _enc(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


def _dec(raw: bytes) -> str:
    return raw.decode("utf-8", "surrogateescape")


def _bracket(pat: bytes, i: int) -> tuple[bytes, int] | None:
    """Translate the ``[...]`` at ``pat[i]`` to (regex, end); None if malformed (never matches)."""
    i += 1
    negated = pat[i : i + 1] in (b"!", b"^")
    i += negated
    chars: set[int] = set()
    first = True  # a "]" right after "[" or "[!" is an ordinary character
    while i < len(pat) and (first or pat[i] != ord("]")):
        first = False
        item = _CLASS_ITEM.match(pat, i)
        if item is None:
            return None
        i = item.end()
        if item[1] is not None:  # an unknown [:name:] makes git give up on the whole pattern
            if item[1] not in _CHAR_CLASSES:
                return None
            chars |= _CHAR_CLASSES[item[1]]
            continue
        chars.add(item[2][0])  # even as the start of a reversed range like "z-a"
        if pat[i : i + 1] == b"-" and pat[i + 1 : i + 2] not in (b"", b"]"):
            end = _CHAR.match(pat, i + 1)
            if end is None:
                return None
            chars.update(range(item[2][0], end[1][0] + 1))
            i = end.end()
    if i >= len(pat):
        return None
    allowed = (set(range(256)) - chars if negated else chars) - {ord("/")}
    if not allowed:
        return _NEVER, i + 1
    return b"[" + b"".join(b"\\x%02x" % b for b in sorted(allowed)) + b"]", i + 1


def _translate(pat: bytes, start: int) -> bytes:
    """Regex source equivalent to git's wildmatch(pat) with WM_PATHNAME.

    ``pat[:start]`` is a literal prefix: git compares it with strcmp and only hands the rest
    to wildmatch, so a ``**`` right after it counts as "at the start of the pattern".
    """
    out = [re.escape(pat[:start])]
    i = start
    while i < len(pat):
        c = pat[i]
        if c == ord("*"):
            j = i
            while j < len(pat) and pat[j] == ord("*"):
                j += 1
            rest = pat[j:]
            left_ok = i == start or pat[i - 1] == ord("/")
            if j - i > 1 and left_ok and rest[:1] == b"/":
                out.append(b"(?:.*/)?")  # "**/" also matches zero directories
                j += 1
            elif j - i > 1 and left_ok and (not rest or rest[:2] == b"\\/"):
                out.append(b".*")
            else:  # a "**" not delimited by slashes is an ordinary "*"
                out.append(b"[^/]*")
            i = j
        elif c == ord("?"):
            out.append(b"[^/]")
            i += 1
        elif c == ord("["):
            translated = _bracket(pat, i)
            if translated is None:
                return _NEVER
            piece, i = translated
            out.append(piece)
        elif c == ord("\\"):
            if i + 1 >= len(pat):  # a trailing backslash can never match
                return _NEVER
            out.append(re.escape(pat[i + 1 : i + 2]))
            i += 2
        else:
            out.append(re.escape(pat[i : i + 1]))
            i += 1
    return b"".join(out)


class Glob(NamedTuple):
    """One gitignore-style pattern, compiled. Build it with :func:`compile_glob`."""

    pattern: str
    negated: bool  # leading "!"; match() ignores it, match_any() honours it
    dir_only: bool  # trailing "/"
    basename: bool  # no other "/": matches the last component at any depth
    regex: re.Pattern[bytes]  # made from the rest: adds nothing to an equality

    def _hit(self, path: bytes, is_dir: bool) -> bool:
        if self.dir_only and not is_dir:
            return False
        target = path.rpartition(b"/")[2] if self.basename else path
        return self.regex.fullmatch(target) is not None

    def match_exact(self, path: str, *, is_dir: bool = False) -> bool:
        """Whether the pattern matches ``path`` itself, as gitattributes does (no inheritance)."""
        return self._hit(_enc(path), is_dir)

    def match(self, path: str) -> bool:
        """Whether ``path`` (a file) or one of its leading directories matches, as in gitignore.

        So ``build/`` matches every file under any directory named ``build``, and ``docs``
        matches ``docs/a.md`` as well as a file called ``docs``. A leading "!" is ignored here.
        """
        return _ignored((self,), path, negation=False)


@lru_cache(maxsize=4096)
def compile_glob(pattern: str) -> Glob:
    """Compile a gitignore(5) pattern relative to the repository root (or a base directory)."""
    raw = _enc(pattern)
    negated = raw.startswith(b"!")
    raw = raw[negated:]
    dir_only = raw.endswith(b"/")
    raw = raw[: len(raw) - dir_only]
    basename = b"/" not in raw
    if not basename:
        raw = raw.removeprefix(b"/")  # only one slash: "//a" never matches
    literal = next((k for k, byte in enumerate(raw) if byte in b"*?[\\"), len(raw))
    start = 0 if basename else literal
    regex = re.compile(_translate(raw, start), re.DOTALL)
    return Glob(pattern, negated, dir_only, basename, regex)


def match_any(patterns: Sequence[str], path: str) -> bool:
    """Whether git would ignore file ``path`` if ``patterns`` were the lines of a root .gitignore.

    The last matching pattern wins and ``!pattern`` re-includes, except that (as in git) nothing
    below an excluded directory can be re-included. Empty patterns are skipped.
    """
    return _ignored([compile_glob(p) for p in patterns if p], path, negation=True)


def _ignored(globs: Sequence[Glob], path: str, *, negation: bool) -> bool:
    # git never looks inside an excluded directory, so a file is ignored as soon as one of its
    # leading directories is; otherwise the last pattern matching the file itself decides.
    parts = _enc(path).split(b"/")
    for k in range(1, len(parts) + 1):
        sub, is_dir = b"/".join(parts[:k]), k < len(parts)
        hit = next((g for g in reversed(globs) if g._hit(sub, is_dir)), None)
        if hit is not None and not (negation and hit.negated):
            return True
    return False


class AttrRule(NamedTuple):
    """One .gitattributes line: a pattern (or, if ``macro``, a macro name) and its assignments."""

    pattern: str
    attrs: tuple[tuple[str, AttrValue], ...]
    macro: bool = False


_BINARY: tuple[tuple[str, AttrValue], ...] = (("diff", False), ("merge", False), ("text", False))


def _unquote(line: str) -> tuple[str, str] | None:
    """Split a C-quoted leading pattern off ``line`` (git's unquote_c_style); None if invalid."""
    raw = _enc(line)
    quoted = _QUOTED.match(raw)
    if quoted is None:
        return None
    pattern = _ESCAPE.sub(lambda m: bytes([_ESCAPES.get(m[1]) or int(m[1], 8)]), quoted[1])
    return _dec(pattern), _dec(raw[quoted.end() :])


def _parse_line(line: str, macros_allowed: bool) -> AttrRule | None:
    if len(_enc(line)) >= _MAX_LINE:
        return None
    rest = line.lstrip(_BLANK)
    if not rest or rest.startswith("#"):
        return None
    quoted = _unquote(rest) if rest.startswith('"') else None
    # Only quoting protects blanks: a\ b is the pattern "a\" followed by an attribute "b".
    if quoted is None:  # an invalid quoted pattern is taken literally, quotes included
        name = re.split(f"[{_BLANK}]", rest, maxsplit=1)[0]
        quoted = name, rest[len(name) :]
    name, states = quoted
    macro = name.startswith("[attr]") and len(name) > len("[attr]")
    if macro:
        if not macros_allowed:  # git rejects macro definitions outside the root file
            return None
        name = re.split(f"[{_BLANK}]", name[len("[attr]") :].lstrip(_BLANK))[0]
        if not _ATTR_NAME.fullmatch(name):
            return None
    elif name.startswith("!"):  # git warns that negative patterns are ignored in attributes
        return None
    attrs: list[tuple[str, AttrValue]] = []
    for token in re.split(f"[{_BLANK}]+", states.strip(_BLANK)):
        if not token:
            continue
        key, eq, val = token.partition("=")
        value: AttrValue = val if eq else True
        if key[:1] in ("-", "!"):  # "-a=x" is just "-a"
            key, value = key[1:], (None if key[0] == "!" else False)
        if not _ATTR_NAME.fullmatch(key):  # one invalid name drops the whole line
            return None
        attrs.append((key, value))
    return AttrRule(name, tuple(attrs), macro)


@lru_cache(maxsize=256)
def parse_gitattributes(text: str, *, macros_allowed: bool = True) -> tuple[AttrRule, ...]:
    """Parse one .gitattributes file; ``macros_allowed`` is False for non-root files."""
    # git 2.39 skips a byte order mark when it reads the working tree but not a blob; we follow
    # the working tree (and libgit2), which is what the author saw work.
    lines = text.removeprefix("\ufeff").split("\n")
    return tuple(r for r in (_parse_line(ln, macros_allowed) for ln in lines) if r is not None)


class Gitattributes:
    """The .gitattributes files of one tree: ``files`` maps directory ("" = root) to text.

    Only in-tree files count: $GIT_DIR/info/attributes and global attributes are not objects.
    """

    def __init__(self, files: Mapping[str, str]) -> None:
        self._rules = {
            d.strip("/"): parse_gitattributes(text, macros_allowed=not d.strip("/"))
            for d, text in files.items()
        }
        self._set_macros()

    @classmethod
    def from_rules(cls, rules: Mapping[str, tuple[AttrRule, ...]]) -> Gitattributes:
        """The same from files already parsed (directory -> ``parse_gitattributes``)."""
        made = cls({})
        made._rules = {d.strip("/"): parsed for d, parsed in rules.items()}
        made._set_macros()
        return made

    def _set_macros(self) -> None:
        # The last definition in the root file wins, including over the built-in "binary".
        self._macros = {"binary": _BINARY}
        self._macros.update((r.pattern, r.attrs) for r in self._rules.get("", ()) if r.macro)
        # Each folder's patterns compiled once, later lines first (they take precedence).
        self._globs = {
            d: [(compile_glob(r.pattern), r.attrs) for r in reversed(rules) if not r.macro]
            for d, rules in self._rules.items()
        }

    def for_path(self, path: str) -> dict[str, AttrValue]:
        """Every attribute set, unset or valued for ``path``; unspecified ones are absent."""
        found: dict[str, AttrValue] = {}
        dirs = [d for d in self._rules if not d or path.startswith(d + "/")]
        for d in sorted(dirs, key=len, reverse=True):  # deeper files take precedence
            rel = _enc(path[len(d) + 1 :] if d else path)
            for glob, attrs in self._globs[d]:
                # A pattern matching a directory does not apply to the files inside it.
                if glob._hit(rel, False):
                    self._fill(attrs, found)
        return {name: value for name, value in found.items() if value is not None}

    def _fill(self, attrs: tuple[tuple[str, AttrValue], ...], found: dict[str, AttrValue]) -> None:
        # Mirrors attr.c fill_one(): the highest-precedence assignment of an attribute sticks
        # (even "!attr"), and a macro expands only when it is set, never when unset or valued.
        for name, value in reversed(attrs):
            if name not in found:
                found[name] = value
                if value is True and name in self._macros:
                    self._fill(self._macros[name], found)

    def value(self, path: str, name: str) -> AttrValue:
        """The raw value of one attribute (None when unspecified)."""
        return self.for_path(path).get(name)

    def is_set(self, path: str, name: str) -> bool:
        """True only for the "set" state (``attr``), as git means it; not for string values."""
        return self.value(path, name) is True


def attributes_for(path: str, files: Mapping[str, str]) -> dict[str, AttrValue]:
    """One-off form of ``Gitattributes(files).for_path(path)`` (parsing is cached per text)."""
    return Gitattributes(files).for_path(path)


def linguist_flag(attrs: Mapping[str, AttrValue], name: str) -> bool | None:
    """Linguist's reading of a boolean attribute: True, False, or None when unspecified."""
    value = attrs.get(name)
    if value is None:
        return None
    # Linguist treats any value but unset and "false" as true, so even "0" means true.
    return value is not False and value != "false"
