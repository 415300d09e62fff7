"""Every kind of change, read from git objects, with the same pairs and hunks as git diff."""

import json
import posixpath
import subprocess
from pathlib import Path
from typing import Any

import pytest
from manifests import files_by_path, manifest_of, new_lines, removed_lines, run
from repos import FIXTURES, PROJECT_ROOT, RepoFactory, before_and_after, commit_id, git

from gitreview.changes import iter_changes
from gitreview.git import open_repository
from gitreview.model import EMPTY_TREE, FileChange, Range
from gitreview.patch import read_patch

# path: (status, kind, classification, reasons, t1 cause or None)
EXPECTED = {
    "CHANGELOG.md": ("added", "markdown", "significant", ["added"], None),
    "README.md": ("modified", "markdown", "significant", ["content"], None),
    "assets/favicon.ico": ("added", "binary", "significant", ["binary"], "binary"),
    "assets/logo.png": ("modified", "binary", "significant", ["binary"], "binary"),
    "bin/inventory": ("added", "symlink", "significant", ["added"], None),
    "config/current.yml": ("type-changed", "symlink", "significant", ["type-changed"], None),
    "deploy/current": ("modified", "symlink", "significant", ["content"], None),
    "docs/café.md": ("modified", "markdown", "significant", ["content"], None),
    "docs/obsolete.md": ("deleted", "markdown", "significant", ["deleted"], None),
    "docs/user guide.md": ("modified", "markdown", "significant", ["content"], None),
    "legacy/notes-latin1.txt": ("modified", "text", "significant", ["no-analysis"], "undecodable"),
    "scripts/deploy.sh": ("modified", "shell", "significant", ["mode"], "no-analyzer"),
    "src/app.py": ("modified", "python", "significant", ["content"], None),
    # Django finds admin.py and settings.py by their names: the path tells tools more.
    "src/handlers/admin.py": ("copied", "python", "significant", ["content", "path-role"], None),
    "src/handlers/base.py": ("modified", "python", "significant", ["content"], None),
    "src/settings.py": ("renamed", "python", "significant", ["content", "path-role"], None),
    "src/util/text.py": ("renamed", "python", "trivial", ["renamed"], None),
    "vendor/schemas": ("modified", "submodule", "significant", ["submodule"], "submodule"),
    "windows/install.bat": ("modified", "unknown", "significant", ["no-analysis"], "no-analyzer"),
}


@pytest.fixture(scope="module")
def kinds(fixture_repo: RepoFactory) -> dict[str, dict[str, Any]]:
    return files_by_path(manifest_of("--repo", fixture_repo("kinds"), "v1..v2"))


def test_every_kind_of_change(kinds: dict[str, dict[str, Any]]) -> None:
    found = {
        path: (e["status"], e["kind"], e["classification"], e["reasons"], e.get("t1_cause"))
        for path, e in kinds.items()
    }
    assert found == EXPECTED
    for entry in kinds.values():
        assert entry["t1"] == ("missing" if entry.get("t1_cause") else "ok")


def test_renames_and_copies_name_their_old_path(kinds: dict[str, dict[str, Any]]) -> None:
    moved = {path: (e["old_path"], e["similarity"]) for path, e in kinds.items() if "old_path" in e}
    assert moved == {
        "src/util/text.py": ("src/util/strings.py", 100),
        "src/settings.py": ("src/config.py", 85),
        "src/handlers/admin.py": ("src/handlers/base.py", 92),
    }


def test_modes(kinds: dict[str, dict[str, Any]]) -> None:
    modes = {path: e["mode"] for path, e in kinds.items() if "mode" in e}
    assert modes == {
        "scripts/deploy.sh": ["100644", "100755"],
        "config/current.yml": ["100644", "120000"],
    }


def test_files_without_hunks_get_a_whole_file_handle(
    kinds: dict[str, dict[str, Any]], fixture_repo: RepoFactory
) -> None:
    repo = fixture_repo("kinds")
    favicon = git(repo, "rev-parse", "v2:assets/favicon.ico")
    assert kinds["assets/favicon.ico"]["handle"] == f"assets/favicon.ico@{favicon[:12]}"
    assert kinds["vendor/schemas"]["handle"].startswith("vendor/schemas@a41f0c7d")


def test_a_deleted_file_is_one_hunk_of_old_lines(
    kinds: dict[str, dict[str, Any]], fixture_repo: RepoFactory
) -> None:
    [hunk] = kinds["docs/obsolete.md"]["hunks"]
    blob = git(fixture_repo("kinds"), "rev-parse", "v1:docs/obsolete.md")
    assert removed_lines(hunk) == [1, 3]
    assert new_lines(hunk) is None
    assert hunk["handle"] == f"docs/obsolete.md:-1-3@{blob[:12]}.."
    assert hunk["excerpt"].startswith("-# Legacy XML export")


def test_crlf_is_kept_out_of_excerpts(kinds: dict[str, dict[str, Any]]) -> None:
    for hunk in kinds["windows/install.bat"]["hunks"]:
        assert "\r" not in hunk["excerpt"]


def comparable(change: FileChange) -> tuple[object, ...]:
    hunks = tuple(
        (h.old_start, h.old_count, h.new_start, h.new_count, h.lines) for h in change.hunks
    )
    return (change.status, change.path, change.old_path, change.binary, hunks)


def git_diff_changes(repo: Path, base: str, head: str, *options: str) -> list[FileChange]:
    """`git diff -M` (plus `options`) of the range, read back with the patch reader."""
    text = subprocess.run(
        [
            "git",
            "-C",
            str(repo),
            "-c",
            "core.quotePath=true",
            "diff",
            "--no-color",
            "--no-ext-diff",
            "-M",
            *options,
            base,
            head,
        ],
        capture_output=True,
        check=True,
    ).stdout
    return read_patch(text, "git diff")


def our_changes(repo: Path, base: str, head: str, *, copies: bool = False) -> list[FileChange]:
    """The changes in git's order (added files may come later while git looks for
    copies: they are put back in their place, as the pipeline does)."""
    repository = open_repository(str(repo))
    start = None if base == EMPTY_TREE else commit_id(repo, base)
    rng = Range(spec="", base=start, head=commit_id(repo, head), commits=())
    changes = iter_changes(repository, rng, copies=copies)
    order = changes.order()
    return sorted(changes, key=lambda change: order[change.path])


def assert_same_as_git_diff(repo: Path, base: str, head: str) -> None:
    """Pairs and hunks as `git diff -M` has them; with copy detection, only a file
    git calls added may be a copy instead, and then as `git diff -M -C` has it."""
    theirs = [comparable(c) for c in git_diff_changes(repo, base, head) if not c.is_submodule]
    ours = [c for c in our_changes(repo, base, head) if not c.is_submodule]
    assert [comparable(c) for c in ours] == theirs
    with_copies = [c for c in our_changes(repo, base, head, copies=True) if not c.is_submodule]
    copies = {c.path: comparable(c) for c in with_copies if c.status == "copied"}
    if copies:
        by_git = {c.path: comparable(c) for c in git_diff_changes(repo, base, head, "-C")}
        assert copies == {path: by_git[path] for path in copies}
    assert [c.status for c in with_copies] == [
        "copied" if c.path in copies else c.status for c in ours
    ]
    unchanged = [comparable(c) for c in with_copies if c.path not in copies]
    assert unchanged == [comparable(c) for c in ours if c.path not in copies]


@pytest.mark.parametrize("name", sorted(path.stem for path in FIXTURES.glob("*.yml")))
def test_same_pairs_and_hunks_as_git_diff(fixture_repo: RepoFactory, name: str) -> None:
    """Every commit of every fixture against its first parent, and the whole history."""
    repo = fixture_repo(name)
    for commit in git(repo, "rev-list", "--all").splitlines():
        if git(repo, "rev-list", "--parents", "-n1", commit).count(" "):
            assert_same_as_git_diff(repo, f"{commit}~1", commit)
    assert_same_as_git_diff(repo, EMPTY_TREE, "HEAD")


def test_a_copy_is_a_file_git_diff_calls_added(fixture_repo: RepoFactory) -> None:
    [copy] = [
        c
        for c in our_changes(fixture_repo("kinds"), "v1", "v2", copies=True)
        if c.status == "copied"
    ]
    assert (copy.path, copy.old_path, copy.similarity) == (
        "src/handlers/admin.py",
        "src/handlers/base.py",
        92,
    )


@pytest.mark.parametrize(
    ("held", "held_bytes"), [(0, 1 << 20), (1, 1 << 20), (256, 1), (256, 1 << 20)]
)
def test_added_files_wait_for_git_s_copies_in_their_place(
    fixture_repo: RepoFactory, monkeypatch: pytest.MonkeyPatch, held: int, held_bytes: int
) -> None:
    """Added files met before git has found the copies come later (at most `held` of
    them, and `held_bytes` of their blobs, wait), and the same changes come out of
    them; the manifest is the same."""
    from manifests import run

    from gitreview import changes as module
    from gitreview.git import Copies

    repo = fixture_repo("kinds")
    expected = our_changes(repo, "v1", "v2", copies=True)
    before = run("--repo", repo, "--no-cache", "v1..v2")
    monkeypatch.setattr(Copies, "ready", lambda self: False)
    monkeypatch.setattr(module, "_DEFERRED", held)
    monkeypatch.setattr(module, "_DEFERRED_BYTES", held_bytes)
    repository = open_repository(str(repo))
    rng = Range(spec="", base=commit_id(repo, "v1"), head=commit_id(repo, "v2"), commits=())
    changes = iter_changes(repository, rng)
    came = [change.path for change in changes]
    order = changes.order()
    added = [c.path for c in expected if c.status in ("added", "copied")]
    assert len(added) > 2
    # Files that came after one git lists after them: added files that waited.
    waited = {path for i, path in enumerate(came) if any(order[o] > order[path] for o in came[:i])}
    if held >= len(added) and held_bytes > 1:  # every added file waited: they come last
        assert came[-len(added) :] == added and len(waited) > 1
    else:  # at most one at a time: the next added file waits for git instead
        assert len(waited) <= (1 if held else 0)
    assert our_changes(repo, "v1", "v2", copies=True) == expected
    assert run("--repo", repo, "--no-cache", "v1..v2") == before


def test_same_pairs_and_hunks_as_git_diff_on_this_project() -> None:
    """Real history with real refactors: where libgit2 without git's indent
    heuristic would cut hunks differently."""
    if not (PROJECT_ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    commits = git(PROJECT_ROOT, "rev-list", "--max-count=30", "HEAD").splitlines()
    if len(commits) < 2:
        pytest.skip("not enough history")
    for head in commits[:-1]:
        base = f"{head}~1"
        if subprocess.run(
            ["git", "-C", str(PROJECT_ROOT), "rev-parse", "-q", "--verify", base],
            capture_output=True,
        ).returncode:
            continue
        assert_same_as_git_diff(PROJECT_ROOT, base, head)


def test_a_rename_that_changes_the_extension_is_significant(writable_repo: RepoFactory) -> None:
    repo = writable_repo("kinds")
    git(repo, "mv", "src/app.py", "src/app.py.disabled")
    git(repo, "commit", "--quiet", "-m", "Disable the app")
    [entry] = manifest_of("--repo", repo, "HEAD")["files"]
    assert (entry["status"], entry["classification"], entry["reasons"]) == (
        "renamed",
        "significant",
        ["extension"],
    )
    assert "handle" in entry  # routed whole: no hunk says why


def one_file(repo: Path, path: str, text: str) -> Path:
    """A repository of one commit holding one file."""
    repo.mkdir()
    git(repo, "init", "--quiet")
    (repo / path).parent.mkdir(parents=True, exist_ok=True)
    (repo / path).write_text(text)
    git(repo, "add", "-A")
    git(repo, "commit", "--quiet", "-m", "Before")
    return repo


RENAMES = [
    # (old path, new path, the new file's classification and reasons)
    ("test_parser.py", "check_parser.py", "significant", ["path-role"]),  # no longer collected
    ("pkg/__init__.py", "pkg/init.py", "significant", ["path-role"]),  # no longer a package
    ("scan.yml", ".github/workflows/scan.yml", "significant", ["path-role"]),  # now runs
    (".github/workflows/scan.yml", ".github/scan.yml", "significant", ["path-role"]),
    (".github/workflows/scan.yml", ".github/workflows/old/scan.yml", "significant", ["path-role"]),
    ("tests/conftest.py", "tests/unit/conftest.py", "significant", ["path-role"]),  # its scope
    ("sys_linux.go", "sys.go", "significant", ["path-role"]),  # now built everywhere
    ("src/app.js", "src/app.test.js", "significant", ["path-role"]),  # now collected
    ("gitignore", ".gitignore", "significant", ["path-role"]),  # a name tools read
    ("pytest.ini", "config/pytest.ini", "significant", ["path-role"]),  # no longer read
    ("MANIFEST.in", "packaging/MANIFEST.in", "significant", ["path-role"]),
    ("web/jest.config.js", "jest.config.js", "significant", ["path-role"]),  # another root
    ("app/migrations/0002_add.py", "app/migrations/0003_add.py", "significant", ["path-role"]),
    ("src/main/java/App.java", "src/test/java/App.java", "significant", ["path-role"]),
    # Found by an adversarial review: each was `renamed`.
    ("tests/it.rs", "src/it.rs", "significant", ["path-role"]),  # no longer a Cargo test
    ("__tests__/a.js", "src/a.js", "significant", ["path-role"]),  # Jest no longer collects it
    ("infra/main.tf", "infra/old/main.tf", "significant", ["path-role"]),  # another module
    ("pkg/a/x.go", "pkg/b/x.go", "significant", ["path-role"]),  # another Go package
    ("app/models.py", "app/model.py", "significant", ["path-role"]),  # Django's models
    (".github/PULL_REQUEST_TEMPLATE.md", ".github/pr_template.md", "significant", ["path-role"]),
    # Found by a fifth adversarial review: each was `renamed`.
    ("audit.go", "go.sum", "significant", ["extension"]),  # not a lock file edited
    ("x_test.go", "_x_test.go", "significant", ["path-role"]),  # the go tool skips it
    ("about.md", "_about.md", "significant", ["path-role"]),  # Jekyll no longer publishes it
    ("src/bin/deploy.rs", "src/bin/deploy-old.rs", "significant", ["path-role"]),  # the binary
    ("src/consts.ts", "src/consts.d.ts", "significant", ["extension"]),  # compiles to nothing
    ("src/Foo.java", "src/Bar.java", "significant", ["path-role"]),  # `public class Foo`
    ("_posts/2020-01-01-hello.md", "_posts/2024-06-01-hello.md", "significant", ["path-role"]),
    ("data/secrets.json", "static/secrets.json", "significant", ["path-role"]),  # published
    ("components/admin.js", "pages/admin.js", "significant", ["path-role"]),  # a route
    ("src/main/java/a/App.java", "src/main/java/b/App.java", "trivial", ["renamed"]),
    # Found by a thirteenth adversarial review: each was `renamed`. Kotlin Multiplatform's
    # source sets, sbt's folders of a Scala version, Android's build types, .NET projects.
    (
        "lib/src/macosMain/kotlin/S.kt",
        "lib/src/nativeMain/kotlin/S.kt",
        "significant",
        ["path-role"],
    ),
    (
        "bench/src/main/scala/B.scala",
        "bench/src/main/scala-2.12-/B.scala",
        "significant",
        ["path-role"],
    ),
    (
        "app/src/debug/java/Flags.java",
        "app/src/release/java/Flags.java",
        "significant",
        ["path-role"],
    ),
    (
        "src/Serilog/Enrichers/T.cs",
        "src/Serilog.Enrichers.Thread/T.cs",
        "significant",
        ["path-role"],
    ),
    ("src/Serilog/Enrichers/T.cs", "src/Serilog/Core/T.cs", "trivial", ["renamed"]),  # same project
    # A review of the fix: a project moved whole, into src/, is the same assembly; a web
    # app's own `src/debug/` is no Android build type.
    ("web/src/debug/panel.js", "web/src/release/panel.js", "trivial", ["renamed"]),
    # A second review: two services' projects of one name are two assemblies; Firebase's
    # file of a build type is one.
    (
        "services/orders/src/Api/Refund.cs",
        "services/billing/src/Api/Refund.cs",
        "significant",
        ["path-role"],
    ),
    (
        "app/src/release/google-services.json",
        "app/google-services.json",
        "significant",
        ["path-role"],
    ),
    ("src/shop/core.py", "src/shop/engine.py", "trivial", ["renamed"]),
    ("pkg/core.py", "pkg/engine.py", "trivial", ["renamed"]),
    # Another folder's conftest.py, or none in `testpaths` (an eleventh review).
    ("tests/test_a.py", "tests/unit/test_a.py", "significant", ["path-role"]),
    # Found by an eighth adversarial review: each was `renamed`.
    ("docs/usage.md", "docs/using.md", "significant", ["path-role"]),  # the page's address
    ("pages/about.tsx", "pages/company.tsx", "significant", ["path-role"]),  # the route
    ("app/about/page.tsx", "app/about/view.tsx", "significant", ["path-role"]),  # no route
    ("apps/web/pages/a.tsx", "apps/web/pages/b.tsx", "significant", ["path-role"]),
    ("app/tests.py", "app/checks.py", "significant", ["path-role"]),  # unittest's test*.py
    ("__mocks__/axois.js", "__mocks__/axios.js", "significant", ["path-role"]),  # mocks axios
    ("test/api.js", "spec/api.js", "significant", ["path-role"]),  # Mocha's default folder
    ("foo_test.ts", "foo_check.ts", "significant", ["path-role"]),  # Deno's tests
    ("login.cy.ts", "login.ts", "significant", ["path-role"]),  # Cypress's
    ("tools/cal_utils.py", "tools/calendar.py", "significant", ["path-role"]),  # shadows it
    ("app/core.py", "app/engine.py", "trivial", ["renamed"]),  # no route
    # Found by a review of those: each was `renamed`.
    ("test/models/user_test.rb", "test/models/user.rb", "significant", ["path-role"]),
    ("tests/UserTest.php", "tests/User.php", "significant", ["path-role"]),
    ("test/user_test.exs", "test/user.exs", "significant", ["path-role"]),
    ("test/user_test.dart", "test/user.dart", "significant", ["path-role"]),
    ("docs/topics/forms.txt", "docs/topics/form.txt", "significant", ["path-role"]),
    ("analysis.ipynb", "study.ipynb", "significant", ["path-role"]),
    # Found by a review of the names tools look up: each was `renamed`.
    (
        ".github/workflows/build.yml",
        ".github/workflows/build-reusable.yml",
        "significant",
        ["path-role"],
    ),
    ("tests/Unit/UserTest.php", "tests/Unit/UserTests.php", "significant", ["path-role"]),
    ("app/Http/UserController.php", "app/Http/AccountController.php", "significant", ["path-role"]),
    ("app/models/user.rb", "app/models/account.rb", "significant", ["path-role"]),
    (
        "config/initializers/01_setup.rb",
        "config/initializers/setup.rb",
        "significant",
        ["path-role"],
    ),
    ("tests/testthat/test-foo.R", "tests/testthat/foo.R", "significant", ["path-role"]),
    ("src/Button.stories.tsx", "src/Button.tsx", "significant", ["path-role"]),
    (".storybook/preview.js", ".storybook/preview-old.js", "significant", ["path-role"]),
    ("docs/a/_category_.json", "docs/b/_category_.json", "significant", ["path-role"]),
    ("_data/authors.yml", "_data/people.yml", "significant", ["path-role"]),
    ("prod.auto.tfvars", "prod.tfvars", "significant", ["path-role"]),
    ("roles/web/tasks/main.yml", "roles/web/tasks/setup.yml", "significant", ["path-role"]),
    ("build/x/global.json", "build/global.json", "significant", ["path-role"]),
    (
        "src/main/resources/application.properties",
        "src/main/resources/application-dev.properties",
        "significant",
        ["path-role"],
    ),
    # Found by a tenth adversarial review.
    *(
        (old, new, "significant", ["path-role"])
        for old, new in (
            ("infra/terraform.tfvars", "infra/prod.tfvars"),
            ("docker-compose.override.yml", "docker-compose.dev.yml"),
            ("flake.nix", "nix/flake.nix"),
            ("alembic/env.py", "alembic/environment.py"),
            ("rust-toolchain.toml", "toolchain.toml"),
            (
                "docker-entrypoint-initdb.d/01-schema.sql",
                "docker-entrypoint-initdb.d/03-schema.sql",
            ),
            ("etc/sysctl.d/10-forward.conf", "etc/sysctl.d/90-forward.conf"),
            ("tests/test_parser.py", "tests/parser_test.py"),
            ("chart/values.schema.json", "chart/schema.json"),
            ("gunicorn.conf.py", "gunicorn_conf.py"),
            ("sitecustomize.py", "site_customize.py"),
            ("api/hello.py", "api/hi.py"),
            ("pkg/testdata/golden.txt", "pkg/testdata/golden_old.txt"),
            ("extension/manifest.json", "extension/manifest.v3.json"),
            ("src/pkg/core.pyi", "src/pkg/base.pyi"),
        )
    ),
    # Found by an eleventh adversarial review: each was `renamed`.
    *(
        (old, new, "significant", ["path-role"])
        for old, new in (
            ("tests/unit/test_users.py", "tests/integration/test_users.py"),  # conftest, testpaths
            ("src/__tests__/parser/numbers.js", "src/parser/numbers.js"),  # Jest, any depth
            ("middleware/auth.global.ts", "middleware/auth.ts"),  # Nuxt: no longer global
            ("chart/templates/job.yaml", "chart/job.yaml"),  # Helm renders templates/ only
            ("app/management/commands/sync.py", "app/management/commands/pull.py"),
            ("etc/cron.daily/backup", "etc/cron.weekly/backup"),
            ("nginx/sites-available/app.conf", "nginx/sites-enabled/app.conf"),
            ("locale/pt/LC_MESSAGES/app.po", "locale/pt_BR/LC_MESSAGES/app.po"),
            ("app/src/main/res/raw/config.json", "app/src/main/res/raw-night/config.json"),
            ("netlify/functions/hello.js", "netlify/functions/hi.js"),
            ("appsettings.Production.json", "appsettings.Prod.json"),
            ("config/database.yml", "config/db.yml"),
            ("MODULE.bazel", "bazel/MODULE.bazel"),
            ("AGENTS.md", "docs/AGENTS.md"),
        )
    ),
    ("tests/test_users.py", "tests/test_accounts.py", "trivial", ["renamed"]),  # control
    # A review of those: a library's testing.py is no test; more names and folders.
    ("mylib/testing.py", "src/mylib/testing.py", "trivial", ["renamed"]),
    ("wrangler.jsonc", "old/wrangler.jsonc", "significant", ["path-role"]),
    (
        "config/environments/production.rb",
        "config/environments/prod.rb",
        "significant",
        ["path-role"],
    ),
    # A twelfth review: names tools look for, modules named by their paths, SwiftPM
    # targets, Kotlin's file classes, test suites, Elixir's configuration.
    *(
        (old, new, "significant", ["path-role"])
        for old, new in (
            ("Package.swift", "Package@swift-6.2.swift"),
            ("Sources/Net/Client.swift", "Sources/NetExtras/Client.swift"),
            ("Tests/NetTests/ClientTests.swift", "Sources/Net/ClientTests.swift"),
            ("src/Http/Client.php", "src/Net/Client.php"),
            ("src/Data/Parser.hs", "src/Data/Lexer.hs"),
            ("src/parser.erl", "src/lexer.erl"),
            ("test/parser_SUITE.erl", "test/parser_suite.erl"),
            ("src/acme/core.clj", "src/acme/main.clj"),
            ("okio/src/main/kotlin/utf8.kt", "okio/src/main/kotlin/Utf8.kt"),
            ("config/prod.exs", "config/production.exs"),
            ("atlantis.yaml", "ops/atlantis.yaml"),
            ("rebar.config", "erl/rebar.config"),
            ("Dangerfile", "ci/Dangerfile"),
            ("buf.gen.yaml", "proto/buf.gen.yaml"),
            ("terragrunt.hcl", "live/terragrunt.hcl"),
        )
    ),
]


@pytest.mark.parametrize("edited", [False, True], ids=["pure", "with a trailing space dropped"])
@pytest.mark.parametrize(("old", "new", "classification", "reasons"), RENAMES)
def test_a_rename_is_trivial_only_where_the_path_tells_tools_the_same(
    tmp_path: Path, old: str, new: str, classification: str, reasons: list[str], edited: bool
) -> None:
    text = "value = compute(1, 2) \nother = compute(3, 4)\n" * 8
    repo = one_file(tmp_path / "repo", old, text)
    (repo / new).parent.mkdir(parents=True, exist_ok=True)
    git(repo, "mv", old, new)
    if edited:  # a trivial hunk rides along: the path still decides
        (repo / new).write_text(text.replace(" \n", "\n", 1))
    git(repo, "commit", "--quiet", "-am", "Rename")
    [entry] = manifest_of("--repo", repo, "--fail-on", "never", "HEAD")["files"]
    assert (entry["status"], entry["classification"]) == ("renamed", classification), entry
    if edited and classification == "trivial":
        reasons = ["renamed", "whitespace"]
    if not edited or entry["kind"] not in ("unknown", "text", "ruby"):  # whitespace is content
        assert entry["reasons"] == reasons, entry


@pytest.mark.parametrize(
    ("source", "copy", "classification", "reasons"),
    [
        (".github/workflows/ci.yml", ".github/workflows/deploy.yml", "significant", ["path-role"]),
        ("tests/conftest.py", "tests/unit/conftest.py", "significant", ["path-role"]),
        ("tests/test_a.py", "tests/test_b.py", "significant", ["path-role"]),  # collected twice
        ("lib/a.py", "lib/b.py", "trivial", ["copied"]),
    ],
)
def test_a_copy_is_trivial_only_where_its_path_has_no_role(
    tmp_path: Path, source: str, copy: str, classification: str, reasons: list[str]
) -> None:
    """A copy adds a file: a workflow copied beside another runs too."""
    text = "".join(f"step_{n} = run('./deploy.sh --target {n}')\n" for n in range(12))
    repo = one_file(tmp_path / "repo", source, text)
    (repo / source).write_text(text + "\n")  # git looks for copies among changed files
    (repo / copy).parent.mkdir(parents=True, exist_ok=True)
    (repo / copy).write_text(text)
    git(repo, "add", "-A")
    git(repo, "commit", "--quiet", "-m", "Copy")
    entry = files_by_path(manifest_of("--repo", repo, "--fail-on", "never", "HEAD"))[copy]
    assert (entry["status"], entry["classification"], entry["reasons"]) == (
        "copied",
        classification,
        reasons,
    )


MODES = [
    # (path, content, the file's classification and reasons when only its +x goes)
    ("notes/guide.txt", b"A guide.\n", "trivial", ["mode-only"]),
    ("src/lib.c", b"int f(void) { return 1; }\n", "trivial", ["mode-only"]),
    ("assets/logo.png", b"\x89PNG\r\n\x1a\n\x00\x00", "trivial", ["mode-only"]),
    ("tools/run.py", b"#!/usr/bin/env python3\nprint(1)\n", "significant", ["mode"]),
    ("scripts/build.sh", b"make all\n", "significant", ["mode"]),  # run by sh anyway
    (".husky/pre-commit", b"npm test\n", "significant", ["mode"]),  # git's hooks fall back on sh
    ("bin/tool", b"\x7fELF\x02\x01\x01\x00", "significant", ["mode"]),
    # Run by their name, without a #! line: a web server's CGI, macOS's .command.
    ("cgi-bin/run.cgi", b"echo hi\n", "significant", ["mode"]),
    ("tools/start.command", b"echo hi\n", "significant", ["mode"]),
]


@pytest.mark.parametrize("renamed", [False, True], ids=["in place", "renamed"])
@pytest.mark.parametrize(("path", "content", "classification", "reasons"), MODES)
def test_the_executable_bit_is_trivial_only_on_a_file_nothing_runs(
    tmp_path: Path,
    path: str,
    content: bytes,
    classification: str,
    reasons: list[str],
    renamed: bool,
) -> None:
    """`chmod -x` on a hook switches it off: a person decides about that."""
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "--quiet")
    (repo / path).parent.mkdir(parents=True, exist_ok=True)
    (repo / path).write_bytes(content)
    git(repo, "add", "--chmod=+x", path)
    git(repo, "commit", "--quiet", "-m", "Before")
    git(repo, "update-index", "--chmod=-x", path)
    new = path
    if renamed:
        new = posixpath.join(posixpath.dirname(path), "moved-" + posixpath.basename(path))
        git(repo, "mv", path, new)
    git(repo, "commit", "--quiet", "-m", "Mode")
    [entry] = manifest_of("--repo", repo, "--fail-on", "never", "HEAD")["files"]
    assert entry["mode"] == ["100755", "100644"]
    expected = ["renamed", *reasons] if renamed and classification == "trivial" else reasons
    if renamed and path.startswith("."):
        expected = ["path-role", "mode"]  # a dot folder's files are found by their names
    assert (entry["classification"], entry["reasons"]) == (classification, expected), entry


def test_a_path_that_is_not_utf8(writable_repo: RepoFactory, tmp_path: Path) -> None:
    import os

    repo = writable_repo("kinds")
    name = os.fsdecode(b"lat\xe9.txt")
    (repo / name).write_text("caf\n")
    git(repo, "add", "--", name)
    git(repo, "commit", "--quiet", "-m", "A Latin-1 file name")
    target = tmp_path / "manifest.json"
    assert run("--repo", repo, "HEAD", "-o", target).status == 0
    manifest = json.loads(target.read_text("utf-8"))
    assert [entry["path"] for entry in manifest["files"]] == ["lat\\xe9.txt"]


def test_a_diff_driver_s_algorithm_does_not_cut_the_hunks(writable_repo: RepoFactory) -> None:
    """The hunks are git's default algorithm's, whatever a diff driver in
    info/attributes asks: `show` recomputes them with it, and the handles must match."""
    repo = writable_repo("cache")
    (repo / "cut.txt").write_text("}\n}\nx\nb\nc\n{\nx\nx\n")
    git(repo, "add", "cut.txt")
    git(repo, "commit", "--quiet", "--message", "Before")
    (repo / "cut.txt").write_text("x\nc\na\n}\nx\n{\na\nb\n")
    git(repo, "commit", "--quiet", "--all", "--message", "After")
    plain = manifest_of("--repo", repo, "--no-cache", "--fail-on", "never", "HEAD")
    (repo / ".git" / "info" / "attributes").write_text("*.txt diff=other\n")
    git(repo, "config", "diff.other.algorithm", "patience")
    driven = manifest_of("--repo", repo, "--no-cache", "--fail-on", "never", "HEAD")
    assert driven == plain
    handles = [h["handle"] for h in files_by_path(driven)["cut.txt"].get("hunks", [])]
    handles += [
        item["handle"]
        for role in driven["review"].values()
        for batch in role["batches"]
        for item in batch["handles"]
    ]
    assert handles
    for handle in handles:
        assert run("show", "--repo", repo, handle).status == 0


def test_bytes_that_are_no_utf8_show_as_escapes(tmp_path: Path) -> None:
    # Found by an adversarial review: as U+FFFD, `caf\xe9` made `caf\xe8` showed two
    # lines alike, in the excerpt and in `show`.
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "--quiet")
    (repo / "name.txt").write_bytes(b'name = "caf\xe9"\n')
    git(repo, "add", "-A")
    git(repo, "commit", "--quiet", "-m", "Before")
    (repo / "name.txt").write_bytes(b'name = "caf\xe8"\n')
    git(repo, "commit", "--quiet", "-am", "After")
    manifest = manifest_of("--repo", repo, "HEAD")
    [hunk] = files_by_path(manifest)["name.txt"]["hunks"]
    assert "caf\\xe9" in hunk["excerpt"] and "caf\\xe8" in hunk["excerpt"]
    shown = run("show", "--repo", repo, hunk["handle"]).stdout
    assert shown.splitlines()[1:] == ['-1 name = "caf\\xe9"', '+1 name = "caf\\xe8"']


def test_a_submodule_brief_names_both_commits(fixture_repo: RepoFactory) -> None:
    # Found by an adversarial review: the commit it pointed at before appeared nowhere.
    repo = fixture_repo("kinds")
    ids = [git(repo, "rev-parse", f"{tag}:vendor/schemas")[:12] for tag in ("v1", "v2")]
    brief = run("--repo", repo, "v1..v2", "--format", "brief").stdout
    assert (
        f"(submodule modified: commit {ids[0]}, then {ids[1]}; its content is the commits "
        "between them, in the submodule's own repository)"
    ) in brief


def test_a_txt_file_read_by_a_tool_keeps_its_reason(tmp_path: Path) -> None:
    # No rule reads CMake or pip's files: their hunks are `no-analysis`, not the
    # `content` of a .txt file that is no documentation.
    repo = before_and_after(tmp_path / "repo", "requirements.txt", "flask==2.0\n", "flask==3.0\n")
    [hunk] = files_by_path(manifest_of("--repo", repo, "HEAD"))["requirements.txt"]["hunks"]
    assert hunk["reasons"] == ["no-analysis"]


def test_show_of_a_submodule_handle_names_its_commit(fixture_repo: RepoFactory) -> None:
    # Found by an adversarial review: the manifest's own handle was refused as unknown
    # ("fetch its commits": a submodule's commits are in its own repository).
    repo = fixture_repo("kinds")
    manifest = manifest_of("--repo", repo, "v1..v2")
    [handle] = [
        item["handle"]
        for batch in manifest["review"]["default"]["batches"]
        for item in batch["handles"]
        if item["handle"].startswith("vendor/schemas@")
    ]
    shown = run("show", "--repo", repo, handle)
    commit = handle.partition("@")[2]
    assert (shown.status, shown.stdout) == (
        0,
        f"(submodule vendor/schemas: commit {commit}, in the submodule's own repository: "
        f"git -C vendor/schemas show {commit})\n",
    )


@pytest.mark.parametrize(
    ("target", "new", "classification"),
    [
        ("envs/prod.env", "config/staging/active.env", "significant"),  # now names another file
        ("envs/prod.env", "config/current.env", "trivial"),  # the same folder: the same file
        ("/etc/app/prod.env", "config/staging/active.env", "trivial"),  # absolute
        ("../envs/prod.env", "other/active.env", "trivial"),  # envs/prod.env from there too
    ],
)
def test_a_relative_link_moved_to_another_folder_names_another_file(
    tmp_path: Path, target: str, new: str, classification: str
) -> None:
    """Found by an adversarial review: a link's target is read from its own folder."""
    repo = tmp_path / "repo"
    (repo / "config" / "staging").mkdir(parents=True)
    (repo / "other").mkdir()
    git(repo, "init", "--quiet", "--initial-branch=main")
    (repo / "config" / "active.env").symlink_to(target)
    git(repo, "add", "-A")
    git(repo, "commit", "--quiet", "-m", "Link")
    git(repo, "mv", "config/active.env", new)
    git(repo, "commit", "--quiet", "-m", "Move")
    [entry] = manifest_of("--repo", repo, "HEAD")["files"]
    assert (entry["status"], entry["classification"]) == ("renamed", classification), entry
    reasons = ["path-role"] if classification == "significant" else ["renamed"]
    assert entry["reasons"] == reasons


@pytest.mark.parametrize(
    ("old", "new", "content", "classification"),
    [
        ("app/billing/tax.py", "app/shipping/tax.py", "from .config import RATE\n", "significant"),
        ("lib/v1/guard.js", "lib/v2/guard.js", 'const auth = require("./auth");\n', "significant"),
        ("src/a/check.c", "src/b/check.c", '#include "limits.h"\nint n = LIMIT;\n', "significant"),
        ("src/a/lib.rs", "src/b/lib.rs", "mod parser;\n", "significant"),
        # A review of the fix: after `;`, Ruby's require_relative, a Rust attribute.
        (
            "app/billing/tax.py",
            "app/shipping/tax.py",
            "import os; from .config import R\n",
            "significant",
        ),
        ("lib/a/tax.rb", "lib/b/tax.rb", 'require_relative "config"\n', "significant"),
        ("src/a/sys.rs", "src/b/sys.rs", "#[cfg(unix)] mod config;\n", "significant"),
        # A review of the folder fix: `'..'` and `'.'` specifiers, Sass's partials, a
        # script or module finding files from its own place.
        (
            "lib/a/util.js",
            "lib/b/util.js",
            "const lib = require('..');\n",
            "significant",
        ),
        ("src/a/api.ts", "src/b/api.ts", "export * from '.';\n", "significant"),
        ("styles/a/site.scss", "styles/b/site.scss", '@import "variables";\n', "significant"),
        ("tools/a/run.sh", "tools/b/run.sh", '. "$(dirname "$0")/common.sh"\n', "significant"),
        ("app/a/load.py", "app/b/load.py", "DATA = os.path.dirname(__file__)\n", "significant"),
        ("styles/a/site.scss", "styles/b/site.scss", '@use "sass:math";\n', "trivial"),
        ("app/billing/tax.py", "app/tax.py", "import json\nRATE = 0.2\n", "trivial"),
        # Erlang's module is the file's name; Main.hs names no module (a review).
        ("src/parser.erl", "apps/core/src/parser.erl", "-module(parser).\n", "trivial"),
        ("app/Main.hs", "exe/Main.hs", "main = pure ()\n", "trivial"),
        ("app/billing/tax.py", "app/billing/vat.py", "from .config import RATE\n", "trivial"),
        ("src/a/check.c", "src/b/check.c", "#include <limits.h>\n", "trivial"),
    ],
)
def test_a_file_moved_to_another_folder_reads_its_relative_names_there(
    tmp_path: Path, old: str, new: str, content: str, classification: str
) -> None:
    """Found by an adversarial review: moved byte for byte beside another `config.py`,
    `auth.js`, `limits.h`, the file's relative names read other files, and the
    rename was `renamed`; the same folder, or no relative name, is still trivial."""
    repo = tmp_path / "repo"
    (repo / posixpath.dirname(old)).mkdir(parents=True)
    git(repo, "init", "--quiet", "--initial-branch=main")
    (repo / old).write_text(content)
    (repo / posixpath.dirname(new)).mkdir(parents=True, exist_ok=True)
    (repo / posixpath.dirname(new) / "README").write_text("Another folder's files.\n")
    git(repo, "add", "-A")
    git(repo, "commit", "--quiet", "-m", "Add")
    git(repo, "mv", old, new)
    git(repo, "commit", "--quiet", "-m", "Move")
    [entry] = manifest_of("--repo", repo, "HEAD")["files"]
    assert (entry["status"], entry["classification"]) == ("renamed", classification), entry
    assert entry["reasons"] == (["path-role"] if classification == "significant" else ["renamed"])


def test_what_changed_of_a_file_besides_its_lines_is_in_its_reasons_and_brief(
    tmp_path: Path,
) -> None:
    """Found by an adversarial review: a test renamed out of collection, with an
    edit, said only `content`, and its brief showed the edited line, not the rename;
    a dropped executable bit or a file made a link was not shown either."""
    text = "".join(f"def test_{n}():\n    assert login('alice', 's{n}')\n\n\n" for n in range(6))
    repo = tmp_path / "repo"
    (repo / "tests").mkdir(parents=True)
    git(repo, "init", "--quiet", "--initial-branch=main")
    (repo / "tests/test_auth.py").write_text(text)
    (repo / "hook.sh").write_text("#!/bin/sh\nmake lint\n")
    (repo / "hook.sh").chmod(0o755)
    git(repo, "add", "-A")
    git(repo, "commit", "--quiet", "-m", "Base")
    git(repo, "mv", "tests/test_auth.py", "tests/check_auth.py")
    (repo / "tests/check_auth.py").write_text(text.replace("s5", "S5"))
    (repo / "hook.sh").write_text("#!/bin/sh\nmake lint || true\n")
    (repo / "hook.sh").chmod(0o644)
    git(repo, "commit", "--quiet", "-am", "Tweak")
    entries = files_by_path(manifest_of("--repo", repo, "HEAD"))
    assert entries["tests/check_auth.py"]["reasons"] == ["content", "path-role"]
    assert entries["hook.sh"]["reasons"][-1] == "mode"
    brief = run("--repo", repo, "HEAD", "--format", "brief").stdout
    assert "rename from tests/test_auth.py\n@@ tests/check_auth.py:" in brief
    assert "old mode 100755\nnew mode 100644\n@@ hook.sh:" in brief


def test_a_file_made_a_submodule_says_its_commit(tmp_path: Path) -> None:
    """Found by an adversarial review: a file replaced by a submodule showed its
    removed lines and `new mode 160000`, but no hunk holds the commit it now is."""
    commit = "4" * 40
    repo = one_file(tmp_path / "repo", "crypto.py", "def sign(data):\n    return hmac(data)\n")
    git(repo, "rm", "--quiet", "crypto.py")
    git(repo, "update-index", "--add", "--cacheinfo", f"160000,{commit},crypto.py")
    git(repo, "commit", "--quiet", "-m", "Use the shared crypto module")
    [entry] = manifest_of("--repo", repo, "HEAD")["files"]
    assert (entry["status"], entry["mode"]) == ("type-changed", ["100644", "160000"])
    brief = run("--repo", repo, "HEAD", "--format", "brief").stdout
    assert "new mode 160000\nnew submodule commit 444444444444\n@@ crypto.py:" in brief


def test_a_generated_file_renamed_out_of_its_role_is_significant(tmp_path: Path) -> None:
    """Found by a review of the path roles: a generated header proved the file
    trivial before its path was asked about: a generated workflow moved out of
    .github/workflows/ no longer runs."""
    text = "# This file is automatically generated. DO NOT EDIT.\non: push\njobs: {}\n"
    repo = one_file(tmp_path / "repo", ".github/workflows/triage.lock.yml", text)
    (repo / "disabled").mkdir()
    git(repo, "mv", ".github/workflows/triage.lock.yml", "disabled/triage.lock.yml")
    git(repo, "commit", "--quiet", "-m", "Disable")
    [entry] = manifest_of("--repo", repo, "HEAD")["files"]
    assert (entry["classification"], entry["reasons"]) == ("significant", ["path-role"])


@pytest.mark.parametrize(
    ("path", "data"),
    [
        ("tests/data/cases/comments.py", True),  # Black's
        ("src/test/resources/expected.json", True),  # Maven's
        ("tests/unit/data/case.py", True),
        ("test-fixtures/npm/package-lock.json", True),
        # Reviews of the fix: tests in a folder named data are no test data.
        ("tests/unit/data/test_schema.py", False),
        ("src/test/java/com/acme/data/RepoTest.java", False),
        ("tests/api/files/test_upload.py", False),
        ("src/app/data/models.py", False),
    ],
)
def test_what_is_test_data(path: str, data: bool) -> None:
    from gitreview.classify.renames import is_test_data

    assert is_test_data(path.lower()) is data


PACKAGE = {
    "api.py": "from . import sessions\n",
    "sessions.py": "from .config import RATE\n",
    "config.py": "RATE = 0.2\n",
    "guard.js": 'const auth = require("./auth");\n',
    "auth.js": "module.exports = {};\n",
}


@pytest.mark.parametrize(
    ("then", "significant"),
    [
        ({}, set()),  # the whole folder moved: every name reads the same file
        ({"config.py": "RATE = 0.0\n"}, {"api.py", "sessions.py", "guard.js", "config.py"}),
        ({"extra.py": "X = 1\n"}, {"api.py", "sessions.py", "guard.js", "extra.py"}),  # one more
        ({"up.py": None}, {"up.py"}),  # it names a file above the folder
        ({"lib.rs": None}, {"lib.rs"}),  # through Rust's #[path]
        ({"sys.rs": None}, {"sys.rs"}),  # through #[cfg_attr(unix, path = ...)] (a review)
        ({"base.py": None}, {"base.py"}),  # from its own place, up (a third review)
    ],
)
def test_a_folder_moved_whole_keeps_its_relative_names(
    tmp_path: Path, then: dict[str, str | None], significant: set[str]
) -> None:
    """A package moved whole (requests' and flask's moves to `src/`) holds the same
    files: what its files name relative to their folder is the same file, and the
    renames stay `renamed`; a sibling edited or added, or a name above the folder
    (`..`, a Rust `#[path]`), makes them read another (found by a review of the
    relative-names check, which cost those moves their `renamed`)."""
    repo = tmp_path / "repo"
    (repo / "pkg").mkdir(parents=True)
    git(repo, "init", "--quiet", "--initial-branch=main")
    (repo / "settings.py").write_text("DEBUG = False\n")
    (repo / "x.rs").write_text("pub fn f() {}\n")
    files = dict(PACKAGE)
    if "up.py" in then:
        files["up.py"] = "from .. import settings\n"
    if "lib.rs" in then:
        files["lib.rs"] = '#[path = "../x.rs"]\nmod x;\n'
    if "base.py" in then:
        files["base.py"] = "BASE_DIR = Path(__file__).resolve().parent.parent\n"
    if "sys.rs" in then:
        files["sys.rs"] = '#[cfg_attr(unix, path = "../x.rs")]\nmod x;\n'
    for name, text in files.items():
        (repo / "pkg" / name).write_text(text)
    git(repo, "add", "-A")
    git(repo, "commit", "--quiet", "-m", "Add")
    (repo / "src").mkdir()
    git(repo, "mv", "pkg", "src/pkg")
    for name, edited in then.items():
        if edited is not None:
            (repo / "src" / "pkg" / name).write_text(edited)
    git(repo, "add", "-A")
    git(repo, "commit", "--quiet", "-m", "Move")
    entries = files_by_path(manifest_of("--repo", repo, "HEAD"))
    found = {
        posixpath.basename(path)
        for path, entry in entries.items()
        if entry["classification"] == "significant"
    }
    assert found == significant, entries
    for name in files.keys() - significant:
        assert entries[f"src/pkg/{name}"]["reasons"] == ["renamed"]
    for name in significant & {"api.py", "up.py", "lib.rs", "sys.rs", "base.py"}:
        assert "path-role" in entries[f"src/pkg/{name}"]["reasons"]
