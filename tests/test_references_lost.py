"""code/reference-lost: a file at head still names, by a path its language resolves,
a C header, a Rust module or a JavaScript module the range renamed or deleted."""

from pathlib import Path

from findings import findings_of
from manifests import manifest_of
from repos import commits, git

BEFORE = {
    "src/main.c": '#include "util.h"\n#include "config.h"\nint main(void) { return f(); }\n',
    "src/util.h": "int f(void);\n",
    "src/config.h": "#define N 1\n",
    "include/config.h": "#define N 2\n",
    "rs/src/main.rs": 'mod parser;\n#[path = "gen/out.rs"]\nmod out;\nfn main() {}\n',
    "rs/src/parser.rs": "pub fn parse() {}\n",
    "rs/src/gen/out.rs": "pub fn out() {}\n",
    "web/src/app.ts": (
        "import { a } from './util';\nimport b from './other.js';\n"
        "// import c from './util'\nimport d from '@/util';\nimport e from './kept.js';\n"
    ),
    "web/src/util.ts": "export const a = 1;\n",
    "web/src/other.ts": "export default 2;\n",
    "web/src/kept.ts": "export default 3;\n",
}


def repo_of(tmp_path: Path) -> Path:
    return commits(tmp_path / "repo", BEFORE)


def test_what_still_names_a_renamed_or_deleted_file_is_told(tmp_path: Path) -> None:
    repo = repo_of(tmp_path)
    (repo / "src/lib").mkdir()
    git(repo, "mv", "src/util.h", "src/lib/util.h")
    git(repo, "mv", "src/config.h", "src/lib/config.h")  # include/config.h answers
    git(repo, "mv", "rs/src/parser.rs", "rs/src/parse.rs")
    git(repo, "mv", "rs/src/gen/out.rs", "rs/src/gen/output.rs")  # named by #[path]: not read
    git(repo, "mv", "web/src/util.ts", "web/src/utils.ts")
    git(repo, "rm", "--quiet", "web/src/other.ts")
    git(repo, "commit", "--quiet", "-m", "Move")
    found = findings_of(manifest_of("--repo", repo, "--fail-on", "never", "HEAD"), RULE)
    assert [(path, line, message) for _, _, path, line, message in found] == [
        (
            "rs/src/main.rs",
            1,
            "declares mod parser, but the range renamed rs/src/parser.rs to rs/src/parse.rs",
        ),
        (
            "src/main.c",
            1,
            'includes "util.h" (found there only if an include path of the build names its '
            "folder), but the range renamed src/util.h to src/lib/util.h",
        ),
        (
            "web/src/app.ts",
            1,
            "imports ./util, but the range renamed web/src/util.ts to web/src/utils.ts",
        ),
        ("web/src/app.ts", 2, "imports ./other.js, but the range deleted web/src/other.ts"),
    ]


def test_a_rename_whose_references_moved_with_it_is_told_nothing(tmp_path: Path) -> None:
    repo = repo_of(tmp_path)
    git(repo, "mv", "web/src/util.ts", "web/src/utils.ts")
    git(repo, "mv", "rs/src/parser.rs", "rs/src/parse.rs")
    app = (repo / "web/src/app.ts").read_text().replace("from './util'", "from './utils'")
    (repo / "web/src/app.ts").write_text(app)
    main = (repo / "rs/src/main.rs").read_text().replace("mod parser;", "mod parse;")
    (repo / "rs/src/main.rs").write_text(main)
    git(repo, "commit", "--quiet", "-am", "Move")
    assert findings_of(manifest_of("--repo", repo, "--fail-on", "never", "HEAD"), RULE) == []


RULE = "code/reference-lost"


def test_a_folders_index_and_mod_and_crate_roots_are_followed(tmp_path: Path) -> None:
    """A review of the rule: `./core` loads `core/index.ts` and `mod parser;` loads
    `parser/mod.rs`, and `tests/it.rs` and `build.rs` are crate roots; an include
    climbing above the repository's root ended the run, silently."""
    repo = commits(
        tmp_path / "repo",
        {
            "src/main.ts": "import { core } from './core';\n",
            "src/core/index.ts": "export const core = 1;\n",
            "rs/src/main.rs": "mod parser;\nfn main() {}\n",
            "rs/src/parser/mod.rs": "pub fn parse() {}\n",
            "rs/tests/it.rs": "mod common;\n",
            "rs/tests/common.rs": "pub fn setup() {}\n",
            "lib/main.c": '#include "../../../util.h"\n#include "util.h"\n',
            "lib/util.h": "int f(void);\n",
        },
    )
    git(repo, "mv", "src/core/index.ts", "src/core/core.ts")
    git(repo, "mv", "rs/src/parser", "rs/src/parse")
    git(repo, "rm", "--quiet", "rs/tests/common.rs")
    git(repo, "mv", "lib/util.h", "lib/utils.h")
    git(repo, "commit", "--quiet", "-m", "Move")
    found = findings_of(manifest_of("--repo", repo, "--fail-on", "never", "HEAD"), RULE)
    assert [(path, line) for _, _, path, line, _ in found] == [
        ("lib/main.c", 2),
        ("rs/src/main.rs", 1),
        ("rs/tests/it.rs", 1),
        ("src/main.ts", 1),
    ]


def test_a_path_above_the_root_is_no_file_and_stops_nothing(tmp_path: Path) -> None:
    """git's batch process stopped at `HEAD:../x` (read from the working directory,
    outside the repository), and every later lookup of the run failed."""
    from gitreview.git import TreeReader, open_repository

    repo = commits(tmp_path / "repo", {"a.txt": "a\n"})
    repository = open_repository(repo)
    head = TreeReader(repository, repository.resolve_commit("HEAD") or "")
    assert [head.is_file(path) for path in ("../../x.h", "./a.txt", "..", "a.txt")] == [
        False,
        False,
        False,
        True,
    ]
