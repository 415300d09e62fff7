"""Package managers' lock files: which files they are, and where they fetch from.

A lock file is generated (classify/generated.py), so its hunks are trivial: no
person writes it line by line, nor reads it. But it says where each package is
downloaded from, and a range may point a package at a server of its author's
choosing (a lockfile injection). So the sources its added lines name are checked
(analyze/text.py, `text/lockfile-source`): one finding per server that is not a
public registry, or that is reached over plain http, with how many added lines
name it. Only the entries that say where a package comes from count (npm's
`resolved`, Cargo's `source`...), not the links to its funding or home page.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable, Iterator

# Lock files of common package managers, by file name.
LOCK_FILES = frozenset(
    {
        "package-lock.json",
        "npm-shrinkwrap.json",
        "yarn.lock",
        "pnpm-lock.yaml",
        "bun.lock",
        "poetry.lock",
        "uv.lock",
        "pdm.lock",
        "Pipfile.lock",
        "Cargo.lock",
        "go.sum",
        "Gemfile.lock",
        "composer.lock",
        "flake.lock",
        "mix.lock",
        "Podfile.lock",
        "packages.lock.json",
        "gradle.lockfile",
    }
)

# The public registries, as host or host/path prefix, and the lock files that may
# name each one besides (composer installs packages from GitHub's archives).
_REGISTRIES = (
    *("registry.npmjs.org", "registry.yarnpkg.com", "pypi.org", "files.pythonhosted.org"),
    *("index.crates.io", "static.crates.io", "crates.io", "github.com/rust-lang/crates.io-index"),
    *("rubygems.org", "index.rubygems.org", "repo.packagist.org", "packagist.org"),
    *("repo.hex.pm", "hex.pm", "cdn.cocoapods.org", "github.com/CocoaPods/Specs"),
    *("api.nuget.org", "proxy.golang.org"),
)
_REGISTRIES_OF = {"composer.lock": ("api.github.com/repos", "codeload.github.com", "github.com")}
# A URL (`https://`, `git+ssh://`, Cargo's `registry+https://`) or git's `git@host:path`.
_URL = r"""((?:[a-z][a-z0-9+.-]*://|git@)[^\s"'<>()\[\]{},;]+)"""
# Where each lock file says a package comes from: the URL after the key that names
# its source (not a `funding` or `homepage` link). composer's sources are archives or
# repositories. Lock files not listed name no URL (go.sum) or are not read here. Kept
# as text and compiled when a lock file is read: not at every run's start (issue 12).
_SOURCES = {
    name: pattern + r"""\s*["']?\s*""" + _URL
    for names, pattern in (
        (("package-lock.json", "npm-shrinkwrap.json", "bun.lock"), r'"resolved":'),
        (("yarn.lock",), r"\bresolved:?"),
        (("pnpm-lock.yaml",), r"\b(?:tarball|repo):"),
        (("Cargo.lock",), r"\bsource\s*="),
        (("poetry.lock", "pdm.lock"), r"\burl\s*="),
        (("uv.lock",), r"\b(?:registry|git|url)\s*="),
        (("Pipfile.lock",), r'"url":'),
        (("Gemfile.lock",), r"\bremote:"),
        (("composer.lock",), r'"url":(?=\s*"[^"]*(?:\.git"|/zipball/|/tarball/|\.zip"|\.tar))'),
    )
    for name in names
}


def is_lock_file(path: str) -> bool:
    return posixpath.basename(path) in LOCK_FILES


def outside_sources(path: str, added: Iterable[tuple[int, str]]) -> Iterator[tuple[int, str, int]]:
    """For each server the added lines of a lock file name that is no public
    registry, or that they reach over plain http: the first line naming it, a
    message, and how many added lines name it."""
    name = posixpath.basename(path)
    if name not in _SOURCES:
        return
    sources = re.compile(_SOURCES[name])
    allowed = (*_REGISTRIES, *_REGISTRIES_OF.get(name, ()))
    found: dict[str, list[int]] = {}  # a server -> the added lines naming it
    said: dict[str, str] = {}  # a server -> its message
    for number, text in added:
        for url in sources.findall(text):
            where, scheme, insecure = _where(url)
            if where is None:
                continue
            host = where.split("/")[0]
            shown = _shown(f"{scheme}://{where}")
            if insecure:
                key, message = f"http://{host}", f"fetches packages over plain http: {shown}"
            elif not any(where == one or where.startswith(one + "/") for one in allowed):
                key, message = host, f"fetches packages from {host}, no public registry: {shown}"
            else:
                continue
            said.setdefault(key, message)
            lines = found.setdefault(key, [])
            if not lines or lines[-1] != number:
                lines.append(number)
    for key, lines in found.items():
        others = len(lines) - 1
        more = f" (and {others} more added line{'s' if others > 1 else ''})" if others else ""
        yield lines[0], said[key] + more, len(lines)


def _where(url: str) -> tuple[str | None, str, bool]:
    """The URL's host and path, without user, password, port, query or fragment (a
    token in a URL stays out of the manifest); its scheme; whether it is plain http."""
    if url.startswith("git@"):
        host, _, rest = url[len("git@") :].partition(":")
        return f"{host.lower()}/{rest}", "ssh", False
    scheme, _, rest = url.partition("://")
    insecure = scheme.split("+")[-1] == "http"
    authority, _, rest = rest.partition("/")
    host = authority.rpartition("@")[2].partition(":")[0].lower()
    if not host:
        return None, scheme, False
    return f"{host}/{rest.partition('?')[0].partition('#')[0]}", scheme, insecure


def _shown(where: str) -> str:
    return where if len(where) <= _SHOWN else where[: _SHOWN - 3] + "..."


_SHOWN = 100  # characters of a URL a message shows
