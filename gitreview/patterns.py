"""Regular expressions compiled when first used, not at every run's start.

The modules of a run's path held about a hundred patterns, compiled at import:
20 ms of every run, an everyday push's included, most of them for kinds of file
the push never touches (issue 12). `lazy_compile` stands for `re.compile`: the
pattern compiles at its first use, and from then on its methods are those of
the compiled pattern itself, looked up as fast.
"""

from __future__ import annotations

import re
from typing import Any, cast, overload

# The compiled pattern's methods, kept on the stand-in once it compiled: later uses
# find them there without passing through __getattr__.
_METHODS = ("search", "match", "fullmatch", "finditer", "findall", "split", "sub", "subn")


class _Deferred:
    """A pattern and its flags, compiled by the first use of anything but `pattern`."""

    def __init__(self, pattern: str | bytes, flags: int) -> None:
        self.pattern = pattern
        self._flags = flags

    def __getattr__(self, name: str) -> Any:
        # Called only for what the instance does not hold yet.
        if name.startswith("__") or name in ("_flags", "_compiled"):
            raise AttributeError(name)  # copy and pickle ask before __init__ has run
        compiled = self.__dict__.get("_compiled")
        if compiled is None:
            compiled = self._compiled = re.compile(self.pattern, self._flags)
            for method in _METHODS:
                setattr(self, method, getattr(compiled, method))
        return getattr(compiled, name)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_Deferred, (self.pattern, self._flags))

    def __repr__(self) -> str:
        return f"lazy_compile({self.pattern!r}, {self._flags})"


@overload
def lazy_compile(pattern: str, flags: int = 0) -> re.Pattern[str]: ...
@overload
def lazy_compile(pattern: bytes, flags: int = 0) -> re.Pattern[bytes]: ...
def lazy_compile(pattern: str | bytes, flags: int = 0) -> re.Pattern[Any]:
    """`re.compile(pattern, flags)`, done when the pattern is first used."""
    return cast("re.Pattern[Any]", _Deferred(pattern, int(flags)))
