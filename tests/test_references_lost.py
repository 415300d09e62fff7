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
