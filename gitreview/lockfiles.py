"""Package managers' lock files: which files they are, and where they fetch from.

A lock file is generated (classify/generated.py), so its hunks are trivial: no
person writes it line by line, nor reads it. But it says where each package is
downloaded from, and a range may point a package at a server of its author's
choosing (a lockfile injection). So the sources its added lines name are checked
(analyze/text.py, `text/lockfile-source`): one finding per server that is not a
public registry, or that is reached over plain http, with how many added lines
name it. Only the entries that say where a package comes from count (npm's
`resolved`, Cargo's `source`...), not the links to its funding or home page. In npm
and yarn lock files, a package given a registry tarball of another package or
version is reported too: that injection passes through the public registry.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Iterable, Iterator

from gitreview.patterns import lazy_compile

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
# Each ecosystem's lock files name its own registries only (found by an adversarial
# review: npm installs a tarball from PyPI's files or a fork's GitHub archive, which
# anyone can put there); composer installs packages from GitHub's archives besides.
_NPM = ("registry.npmjs.org", "registry.yarnpkg.com")
_PYPI = ("pypi.org", "files.pythonhosted.org")
_REGISTRIES_OF = {
    **dict.fromkeys(
        ("package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml", "bun.lock"),
        _NPM,
    ),
    **dict.fromkeys(("poetry.lock", "pdm.lock", "uv.lock", "Pipfile.lock"), _PYPI),
    "Cargo.lock": _REGISTRIES[4:8],
    "Gemfile.lock": ("rubygems.org", "index.rubygems.org"),
    "composer.lock": (
        *("repo.packagist.org", "packagist.org"),
        *("api.github.com/repos", "codeload.github.com", "github.com"),
    ),
    "mix.lock": ("repo.hex.pm", "hex.pm"),
    "Podfile.lock": ("cdn.cocoapods.org", "github.com/CocoaPods/Specs"),
    "flake.lock": (),  # a flake's input is no package of a registry (a review of the fix)
}
# A URL (`https://`, `git+ssh://`, Cargo's `registry+https://`, any case), git's
# `git@host:path`, or one without its scheme (`//host/path`: pnpm fetches it from the
# registry's scheme; found by an adversarial review); a web scheme's with any number
# of slashes, none too (`https:evil.example/x`: a URL parser reads it; a review).
_URL = (
    r"""((?:(?i:(?:[a-z][a-z0-9.-]*\+)?(?:https?|ftp|wss?):)/*|(?i:[a-z][a-z0-9+.-]*:)?//|git@)"""
    r"""[^\s"'<>()\[\]{},;]+)"""
)
# Where each lock file says a package comes from: the URL after the key that names
# its source (not a `funding` or `homepage` link). composer's sources are archives or
# repositories. Lock files not listed name no URL (go.sum) or are not read here. Kept
# as text and compiled when a lock file is read: not at every run's start (issue 12).
_SOURCE_KEYS = {
    name: pattern
    for names, pattern in (
        (("package-lock.json", "npm-shrinkwrap.json"), r'"resolved"\s*:'),
        # bun's text lock file: `"lodash": ["lodash@4.17.21", "REGISTRY", {...}, "sha512-"]`,
        # its registry "" for the default one (found by an adversarial review).
        # (its first element may name a URL itself: `["left-pad@https://...", {}]`)
        (("bun.lock",), r'(?:"resolved"\s*:|\[\s*"[^"]*+"\s*,|\[\s*"@?[^"@:\s]++@)'),
        # Yarn 2+ names a package's source in its `resolution` (`left-pad@npm:1.3.0`).
        (("yarn.lock",), r"\b(?:resolved:?|resolution:\s*+\"?@?[^@\":\s]++@)"),
        (("pnpm-lock.yaml",), r"""(?:\b|"|')(?:tarball|repo)["']?\s*+:"""),
        (("Cargo.lock",), r"""(?:\b|"|')source["']?\s*+="""),
        (("poetry.lock", "pdm.lock"), r'(?:\burl|"url")\s*='),
        (("uv.lock",), r"""(?:\b|"|')(?:registry|git|url)["']?\s*+="""),
        (("Pipfile.lock",), r'"(?:url|git|file)"\s*:'),
        (("Gemfile.lock",), r"\bremote:"),
        (("flake.lock",), r'"url"\s*:'),
        (("mix.lock",), r":git,"),
        # The lock file is YAML (`:git: https://...`); the Podfile is Ruby (`:git =>`).
        (("Podfile.lock",), r":(?:git|http|podspec)(?:\s*=>|:)"),
        (("composer.lock",), r'"url"\s*:'),
    )
    for name in names
}
_QUOTE = r"""\s*+(?:["']{1,3})?\s*+"""  # TOML's `url = """...` too; possessive: linear
_SOURCES = {name: key + _QUOTE + _URL for name, key in _SOURCE_KEYS.items()}
# Registries that are git repositories: their own URL only, not an archive of a fork's
# commit GitHub serves under it (found by an adversarial review).
_EXACT = frozenset({"github.com/rust-lang/crates.io-index", "github.com/CocoaPods/Specs"})


def is_lock_file(path: str) -> bool:
    return posixpath.basename(path) in LOCK_FILES


# The manifest each lock file pins the packages of, beside it.
_MANIFESTS = {
    **dict.fromkeys(
        ("package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml", "bun.lock"),
        "package.json",
    ),
    **dict.fromkeys(("poetry.lock", "uv.lock", "pdm.lock"), "pyproject.toml"),
    "Pipfile.lock": "Pipfile",
    "Cargo.lock": "Cargo.toml",
    "go.sum": "go.mod",
    "Gemfile.lock": "Gemfile",
    "composer.lock": "composer.json",
    "flake.lock": "flake.nix",
    "mix.lock": "mix.exs",
    "Podfile.lock": "Podfile",
}


def manifest_of(path: str) -> str | None:
    """The path of the manifest a lock file pins (None: not known)."""
    manifest = _MANIFESTS.get(posixpath.basename(path))
    return None if manifest is None else posixpath.join(posixpath.dirname(path), manifest)


def outside_sources(
    path: str, added: Iterable[tuple[int, str]], text: str | None = None
) -> Iterator[tuple[int, str, int]]:
    """For each server the added lines of a lock file name that is no public
    registry, or that they reach over plain http: the first line naming it, a
    message, and how many added lines name it. `text`: the whole lock file at head,
    where composer.lock's sources are told from its funding links (both `url`)."""
    name = posixpath.basename(path)
    if name not in _SOURCES:
        return
    packages = _composer_packages(text) if name == "composer.lock" and text else None
    urls = None if packages is None else {url for found in packages.values() for url in found}
    sources = re.compile(_SOURCES[name])
    allowed = _REGISTRIES_OF.get(name, _REGISTRIES)
    added = [(number, _plain(line)) for number, line in added]
    if name in _NAMED_ELSEWHERE:
        yield from _named_elsewhere(added, _NAMED_ELSEWHERE[name], text)
    found: dict[str, list[int]] = {}  # a server -> the added lines naming it
    said: dict[str, str] = {}  # a server -> its message
    for number, line in _with_split_values(name, added, text):
        for url in sources.findall(line):
            if urls is not None and url not in urls:
                continue  # a package's funding or support link, no source
            where, scheme, insecure = _where(url)
            if where is None:
                continue
            host = where.split("/")[0]
            shown = _shown(f"{scheme}://{where}" if scheme else f"//{where}")
            if insecure:
                key, message = f"http://{host}", f"fetches packages over plain http: {shown}"
            elif not _registry(where, allowed):
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


def _registry(where: str, allowed: tuple[str, ...]) -> bool:
    """Whether a source's host and path is one of the registries `allowed`."""
    for one in allowed:
        if one in _EXACT:
            if where.removesuffix("/").removesuffix(".git") == one:
                return True
        elif where == one or where.startswith(one + "/"):
            return True
    return False


_ESCAPED = lazy_compile(r"\\/|\\[tnr]|\\u[0-9A-Fa-f]{4}")
# What a URL parser takes out of a URL wherever it stands (WHATWG): a tab, a line
# break (a review of the fix: `https://registry.npmjs.org\t@evil.example/...` is
# evil.example's).
_DROPPED = {"\\t": "", "\\n": "", "\\r": "", "\t": "", "\n": "", "\r": ""}


def _plain(line: str) -> str:
    """A lock file's line as the tools read its values: JSON's escapes decoded (found
    by an adversarial review: `https:\\/\\/evil.example`, `"resol\\u0076ed"`)."""
    if "\\" not in line:
        return line
    return _ESCAPED.sub(_unescaped, line)


def _unescaped(escape: re.Match[str]) -> str:
    text = escape[0]
    if text == "\\/":
        return "/"
    if text in _DROPPED:
        return ""
    decoded = chr(int(text[2:], 16))
    return _DROPPED.get(decoded, decoded)


def _with_split_values(
    name: str, added: list[tuple[int, str]], text: str | None
) -> Iterator[tuple[int, str]]:
    """The added lines, each with its source's key from the line above or its value
    from the line below when a formatter put them apart (`"resolved":` then the URL
    on a line of its own: found by an adversarial review)."""
    head = text.split("\n") if text is not None else None
    ends = re.compile(f"(?:{_SOURCE_KEYS[name]}){_QUOTE}$")
    for number, line in added:
        if head is not None and 0 < number <= len(head):
            if number >= 2 and ends.search(_plain(head[number - 2]).rstrip("\r")):
                line = f"{_plain(head[number - 2]).rstrip()} {line}"
            if number < len(head) and ends.search(line.rstrip("\r")):
                line = f"{line.rstrip()} {_plain(head[number])}"
        yield number, line


def moved_packages(
    path: str, old: str | None, new: str | None, added: Iterable[tuple[int, str]]
) -> Iterator[tuple[int, str]]:
    """The added lines of a composer.lock that take a package it had before from
    another GitHub repository (`symfony/console` from a fork of another owner: any
    owner is allowed there, since composer installs from GitHub's archives; found by
    an adversarial review), each with a message."""
    if posixpath.basename(path) != "composer.lock" or old is None or new is None:
        return
    before, after = _composer_repositories(old), _composer_repositories(new)
    lines = list(added)
    for package, repositories in sorted(after.items()):
        known = before.get(package)
        for repository in sorted(repositories - (known or repositories)):
            number = next((n for n, text in lines if repository in text.lower()), None)
            if number is not None:
                yield number, f"takes {package} from another GitHub repository: {repository}"


def _composer_repositories(text: str) -> dict[str, set[str]]:
    """Each package's GitHub repositories (`owner/name`, lower-cased), from its source
    and dist URLs."""
    found: dict[str, set[str]] = {}
    for package, urls in (_composer_packages(text) or {}).items():
        for url in urls:
            repository = _github_repository(url)
            if repository:
                found.setdefault(package, set()).add(repository)
    return found


def _composer_packages(text: str) -> dict[str, list[str]] | None:
    """Each package's source and dist URLs; None if the text is no JSON object."""
    import json

    try:
        data = json.loads(text)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    found: dict[str, list[str]] = {}
    for key in ("packages", "packages-dev"):
        for entry in data.get(key) or ():
            if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
                continue
            for part in ("source", "dist"):
                where = entry.get(part)
                url = where.get("url") if isinstance(where, dict) else None
                if isinstance(url, str):
                    found.setdefault(entry["name"], []).append(url)
    return found


_GITHUB_REPOSITORY = lazy_compile(
    r"(?:github\.com/|api\.github\.com/repos/|codeload\.github\.com/)([^/\s\"]+/[^/\s\"]+?)(?:\.git)?(?:/|$)"
)


def _github_repository(url: str) -> str | None:
    found = _GITHUB_REPOSITORY.search(url.lower())
    return found[1] if found else None


def _named_elsewhere(
    added: Iterable[tuple[int, str]], named: tuple[_Named, ...], whole: str | None
) -> Iterator[tuple[int, str, int]]:
    """Each added line naming a source in the lock file's own words, which no URL
    gives (`_NAMED_ELSEWHERE`), with its message. `whole`: the lock file at head (None
    from a patch), where a workspace's declaration makes its own packages no finding."""
    for number, text in added:
        for pattern, says, own in named:
            found = pattern.search(text)
            if found and not (own is not None and whole is not None and own(whole, found[1])):
                yield number, says.format(_shown(found[1])), 1
                break


# Sources a lock file names without a URL (found by adversarial reviews): a Nix
# flake.lock's GitHub or GitLab input by its owner and repository (an update changes
# `rev` and `narHash`, not `owner`: an owner added or changed fetches another's code),
# and a version 1 package-lock.json's dependency from elsewhere than the registry,
# written as its `version` with no `resolved` line (`"github:owner/left-pad#sha"`).
_NPM_SPEC = lazy_compile(r'"version":\s*"((?:github|gitlab|bitbucket|gist|git|file|link):[^"]+)"')
_NPM_SAYS = "takes a package from {}, no public registry"
# A package taken from a path in the repository in each lock file's current words
# (found by an adversarial review: only version 1's `"version": "file:..."` was read;
# with `vendor/**` ignored, the package's code reached no reviewer): npm's and Yarn's
# `file:` tarballs, pnpm's, uv's and pdm's directories and paths, poetry's and
# composer's `type`, Pipfile.lock's `path`, and Bundler's PATH `remote`. Not a
# workspace's own packages (`link:`, `workspace:`, uv's `editable`, a `link: true`
# entry), nor the project itself (`.`).
_PATH_SAYS = "takes a package from a path, no public registry: {}"
# A pattern, its message, and what tells a workspace's own package from the path it
# names, given the whole lock file (None: always a finding).
_Named = tuple[re.Pattern[str], str, "Callable[[str, str], bool] | None"]
_NPM_WORKSPACES = lazy_compile(r'"workspaces"\s*:\s*\[([^\]]*)\]')
_UV_MEMBERS = lazy_compile(r"^members\s*=\s*\[([^\]]*)\]", re.MULTILINE)
_QUOTED = lazy_compile(r'"([^"]*)"')


def _npm_workspace(whole: str, path: str) -> bool:
    """Whether a linked folder is one of the workspaces the lock file's root declares
    (a second review: any `"workspaces"` in it exempted every folder)."""
    import fnmatch

    declared = _NPM_WORKSPACES.search(whole)
    patterns = _QUOTED.findall(declared[1]) if declared else []
    return any(fnmatch.fnmatchcase(path, pattern.rstrip("/")) for pattern in patterns)


def _uv_member(whole: str, path: str) -> bool:
    """Whether an editable folder is one of the workspace's members, by its name."""
    declared = _UV_MEMBERS.search(whole)
    members = (
        {name.lower().replace("_", "-") for name in _QUOTED.findall(declared[1])}
        if declared
        else set()
    )
    return posixpath.basename(path.rstrip("/")).lower().replace("_", "-") in members


# npm's folder dependency, linked (`"resolved": "vendor/left", "link": true`), and uv's
# editable one: a workspace's packages are such, but only those the lock file declares
# (a review of the fix: otherwise either installed an ignored folder).
_NAMED_ELSEWHERE: dict[str, tuple[_Named, ...]] = {
    "flake.lock": (
        (
            lazy_compile(r'"owner":\s*"([^"]+)"'),
            "takes a flake input from the owner '{}' (added or changed)",
            None,
        ),
    ),
    **dict.fromkeys(
        ("package-lock.json", "npm-shrinkwrap.json"),
        (
            (_NPM_SPEC, _NPM_SAYS, None),
            (lazy_compile(r'"resolved":\s*"(file:[^"]+)"'), _PATH_SAYS, None),
            (
                lazy_compile(r'"resolved":\s*"(?![^"]*:)(?!/)([^"]+)"'),
                _PATH_SAYS,
                _npm_workspace,
            ),
        ),
    ),
    "yarn.lock": (
        (lazy_compile(r'\bresolved:?\s+"?(file:[^"\s]+)'), _PATH_SAYS, None),
        (
            lazy_compile(r'\bresolution:\s*"?@?[^@":\s]++@((?:file|portal):[^"\s]+)'),
            _PATH_SAYS,
            None,
        ),
        # Yarn 1 names a folder only in the entry's key (`"left@file:../vendor/left":`).
        (lazy_compile(r'^[^\s#][^\n]*?@(file:[^",\s]+)'), _PATH_SAYS, None),
    ),
    "bun.lock": ((lazy_compile(r'\[\s*"@?[^"@\s]++@(file:[^"]+)"'), _PATH_SAYS, None),),
    "pnpm-lock.yaml": (
        (lazy_compile(r"[{,]\s*directory:\s*['\"]?([^,}'\"\s]+)"), _PATH_SAYS, None),
        (lazy_compile(r"\b(?:tarball|version):\s*['\"]?(file:[^,}'\"\s]+)"), _PATH_SAYS, None),
    ),
    "uv.lock": (
        (
            lazy_compile(r'\bsource\s*=\s*\{\s*(?:directory|path)\s*=\s*"(?!\.")([^"]+)"'),
            _PATH_SAYS,
            None,
        ),
        (
            lazy_compile(r'\bsource\s*=\s*\{\s*editable\s*=\s*"(?!\.")([^"]+)"'),
            _PATH_SAYS,
            _uv_member,
        ),
    ),
    "pdm.lock": ((lazy_compile(r'^\s*path\s*=\s*"(?!\.")([^"]+)"'), _PATH_SAYS, None),),
    "poetry.lock": ((lazy_compile(r'^\s*type\s*=\s*"(directory|file)"'), _PATH_SAYS, None),),
    "composer.lock": ((lazy_compile(r'"type":\s*"(path)"'), _PATH_SAYS, None),),
    "Pipfile.lock": ((lazy_compile(r'"path":\s*"(?!\.")([^"]+)"'), _PATH_SAYS, None),),
    # Not the project itself, from its own folder or one below (`.`, `../..`).
    "Gemfile.lock": (
        (lazy_compile(r"^\s*remote:\s+(?!\S*:)(?!\.[./]*\s*$)(\S+)"), _PATH_SAYS, None),
    ),
}


def other_packages(
    path: str, text: str | None, added: Iterable[tuple[int, str]]
) -> Iterator[tuple[int, str]]:
    """The added lines of an npm or yarn lock file that give a package a registry
    tarball of another name or version (`node_modules/is-number` resolved to
    `.../left-pad/-/left-pad-1.3.0.tgz`: a lockfile injection through the public
    registry itself), each with a message. `text`: the whole lock file at head."""
    name = posixpath.basename(path)
    if name not in _TARBALL_NAMES or text is None:
        return
    added = [(number, _plain(line)) for number, line in added]
    if name == "yarn.lock":
        yield from _yarn_resolutions(text, added)
    sources = re.compile(_SOURCES[name])
    added = [(number, line) for number, line in added if sources.search(line)]
    if not added:
        return
    expected = _TARBALL_NAMES[name](text)
    if expected is None:
        return
    for number, line in added:
        for url in sources.findall(line):
            tarball = _tarball(url)
            owners = expected.get(url)
            if tarball is None or not owners or tarball in owners:
                continue
            package, version = sorted(owners)[0]
            other = "another version's" if tarball[0] == package else "another package's"
            shown = _shown(_where(url)[0] or url)
            yield number, f"gives {package} {version} {other} tarball: {shown}"


def _tarball(url: str) -> tuple[str, str] | None:
    """The package and version a registry tarball URL names
    (`https://registry.npmjs.org/@scope/name/-/name-1.2.3.tgz#sha`)."""
    from urllib.parse import unquote

    where = _where(url)[0]
    if where is None or "/-/" not in where:
        return None
    # The name is the last part of the path before /-/ (two for a scope): a
    # registry may be served below a path of its own (/api/npm/remote/name/-/...).
    package_path, _, file = unquote(where).partition("/")[2].rpartition("/-/")
    parts = package_path.split("/")
    package = "/".join(parts[-2:] if len(parts) > 1 and parts[-2].startswith("@") else parts[-1:])
    stem = file.rpartition("/")[2].removesuffix(".tgz")
    base = package.rpartition("/")[2]
    if not stem.startswith(base + "-"):
        return package, stem  # a file of another name: matches no version
    return package, stem[len(base) + 1 :]


def _npm_tarballs(text: str) -> dict[str, set[tuple[str, str]]] | None:
    """package-lock.json's resolved URLs, each with the packages (name, version) that
    name it: `packages` (lockfile 2 and 3) and the nested `dependencies` of 1."""
    import json

    try:
        data = json.loads(text)
    except ValueError:
        return None
    found: dict[str, set[tuple[str, str]]] = {}
    packages = data.get("packages") if isinstance(data, dict) else None
    if isinstance(packages, dict):
        for key, entry in packages.items():
            if isinstance(entry, dict) and isinstance(entry.get("resolved"), str):
                package = entry.get("name") or key.rpartition("node_modules/")[2]
                owner = (str(package), str(entry.get("version", "")))
                found.setdefault(entry["resolved"], set()).add(owner)
    stack = [data.get("dependencies")] if isinstance(data, dict) else []
    while stack:
        dependencies = stack.pop()
        if not isinstance(dependencies, dict):
            continue
        for package, entry in dependencies.items():
            if not isinstance(entry, dict):
                continue
            version = str(entry.get("version", ""))
            if isinstance(entry.get("resolved"), str):
                if version.startswith("npm:"):  # an alias: npm:real-name@1.2.3
                    package, _, version = version[len("npm:") :].rpartition("@")
                found.setdefault(entry["resolved"], set()).add((package, version))
            stack.append(entry.get("dependencies"))
    return found


# yarn.lock (version 1): an entry starts at a line that is not indented; its fields.
_YARN_ENTRY = lazy_compile(r"\n(?=\S)")
_YARN_RESOLVED = lazy_compile(r'^\s+resolved:?\s+"?([^"\s]+)"?', re.MULTILINE)
_YARN_VERSION = lazy_compile(r'^\s+version:?\s+"?([^"\s]+)"?', re.MULTILINE)


def _yarn_tarballs(text: str) -> dict[str, set[tuple[str, str]]]:
    """yarn.lock's (version 1) resolved URLs, each with the packages of its entry: the
    names its header lists (`"@scope/a@^1", a@npm:b@^2`: b), at its version."""
    found: dict[str, set[tuple[str, str]]] = {}
    for block in _YARN_ENTRY.split(text):
        header, _, body = block.partition("\n")
        resolved = _YARN_RESOLVED.search(body)
        version = _YARN_VERSION.search(body)
        if resolved is None or version is None or header.startswith("#"):
            continue
        for spec in header.rstrip(":").split(","):
            spec = spec.strip().strip('"')
            if "@npm:" in spec:
                spec = spec.partition("@npm:")[2]
            package = spec[: spec.rfind("@")] if spec.rfind("@") > 0 else spec
            found.setdefault(resolved[1], set()).add((package, version[1]))
    return found


# pnpm-lock.yaml: a package's key under `packages:` (`  is-number@7.0.0:`, lockfile 6's
# `  /@scope/a@1.0.0(peer@2):`, quoted or not), and its resolution's tarball.
_PNPM_KEY = lazy_compile(r"^  ['\"]?/?((?:@[^/@\s'\"]+/)?[^/@\s'\"]+)@([^('\"\s:]+)")
_PNPM_TARBALL = lazy_compile(r"\btarball:\s*['\"]?([^\s,}'\"]+)")


def _pnpm_tarballs(text: str) -> dict[str, set[tuple[str, str]]]:
    """pnpm-lock.yaml's tarball URLs, each with the package (name, version) whose
    resolution names it (found by an adversarial review: pnpm installs another
    package's tarball under the name it was given)."""
    found: dict[str, set[tuple[str, str]]] = {}
    owner: tuple[str, str] | None = None
    for line in text.split("\n"):
        key = _PNPM_KEY.match(line)
        if key is not None:
            owner = (key[1], key[2])
            continue
        tarball = _PNPM_TARBALL.search(line) if owner is not None else None
        if tarball is not None and owner is not None:
            found.setdefault(tarball[1], set()).add(owner)
    return found


# Yarn 2+: an entry's resolution (`resolution: "left-pad@npm:1.3.0"`).
_YARN_RESOLUTION = lazy_compile(r'^\s+resolution:\s*"?(@?[^@"\s]+)@npm:([^"\s]+)"?')


def _yarn_resolutions(text: str, added: list[tuple[int, str]]) -> Iterator[tuple[int, str]]:
    """The added resolutions of a Yarn 2+ lock file that give an entry another package
    of the registry than its header names (`"is-number@npm:^7.0.0"` resolved as
    `left-pad@npm:1.3.0`: found by an adversarial review); an alias's header names
    its package (`"pad@npm:left-pad@^1.3.0"`)."""
    lines = text.split("\n")
    for number, line in added:
        resolution = _YARN_RESOLUTION.match(line)
        if resolution is None or not 0 < number <= len(lines):
            continue
        header = next(
            (lines[i] for i in range(number - 2, -1, -1) if lines[i][:1] not in ("", " ", "#")),
            "",
        )
        names = set()
        for spec in header.rstrip(":").split(","):
            spec = spec.strip().strip('"')
            if "@npm:" in spec:
                spec = spec.partition("@npm:")[2] if "@" in spec.partition("@npm:")[2] else spec
            names.add(spec[: spec.rfind("@")] if spec.rfind("@") > 0 else spec)
        # Every descriptor of the entry resolves to the resolution's package (a review of
        # the fix: a header naming left-pad too passed).
        if names and names != {resolution[1]}:
            package = sorted(names)[0]
            shown = _shown(f"{resolution[1]}@npm:{resolution[2]}")
            yield number, f"gives {package} another package of the registry: {shown}"


_TARBALL_NAMES = {
    "package-lock.json": _npm_tarballs,
    "npm-shrinkwrap.json": _npm_tarballs,
    "yarn.lock": _yarn_tarballs,
    "pnpm-lock.yaml": _pnpm_tarballs,
}


def _where(url: str) -> tuple[str | None, str, bool]:
    """The URL's host and path, without user, password, port, query or fragment (a
    token in a URL stays out of the manifest); its scheme; whether it is plain http."""
    if url.startswith("git@"):
        host, _, rest = url[len("git@") :].partition(":")
        return f"{host.lower()}/{rest}", "ssh", False
    web = _WEB_SCHEME.match(url)
    if web is not None:  # any number of slashes, none too, as a URL parser reads it
        scheme, rest = web[1].lower(), url[web.end() :]
    else:
        scheme, _, rest = url.partition("//")
        scheme = scheme.removesuffix(":").lower()
    insecure = scheme.split("+")[-1] == "http"
    # The authority ends at the first `/`, `?`, `#` or `\` (which browsers and Node
    # read as `/`): `https://evil.example?@registry.npmjs.org/...` is evil.example's
    # (found by an adversarial review).
    cut = _AUTHORITY_END.search(rest)
    authority, rest = (rest[: cut.start()], rest[cut.end() :]) if cut else (rest, "")
    host = authority.rpartition("@")[2].partition(":")[0].lower()
    if not host:
        return None, scheme, False
    return f"{host}/{rest.partition('?')[0].partition('#')[0]}", scheme, insecure


_AUTHORITY_END = lazy_compile(r"[/?#\\]")
_WEB_SCHEME = lazy_compile(r"(?i)((?:[a-z][a-z0-9.-]*\+)?(?:https?|ftp|wss?)):/*")


def _shown(where: str) -> str:
    return where if len(where) <= _SHOWN else where[: _SHOWN - 3] + "..."


_SHOWN = 100  # characters of a URL a message shows
