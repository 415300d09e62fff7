"""File changes that move or re-mode content without changing it."""

from __future__ import annotations

import posixpath
import re
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from gitreview.classify.base import Proof
from gitreview.kinds import runs_by_name
from gitreview.lockfiles import is_lock_file
from gitreview.model import MODE_EXECUTABLE, MODE_FILE, FileChange
from gitreview.patterns import lazy_compile

if TYPE_CHECKING:
    from gitreview.classify.base import FileFacts

_REGULAR = frozenset({MODE_FILE, MODE_EXECUTABLE})

# Names tools look a file up by: renamed away (or to), the file stops (or starts)
# doing what the name makes it do. Any name starting with a dot counts too.
_NAMES_TOOLS_READ = frozenset(
    {
        *("__init__.py", "__main__.py", "conftest.py", "setup.py", "noxfile.py", "manage.py"),
        *("Dockerfile", "Containerfile", "Makefile", "GNUmakefile", "makefile", "CMakeLists.txt"),
        *("BUILD", "BUILD.bazel", "WORKSPACE", "CODEOWNERS", "Jenkinsfile", "Procfile"),
        *("Vagrantfile", "Gemfile", "Rakefile", "Taskfile.yml", "justfile", "action.yml"),
        *("action.yaml", "package.json", "pyproject.toml", "setup.cfg", "tox.ini", "Cargo.toml"),
        *("go.mod", "mod.rs", "lib.rs", "main.rs", "build.rs", "index.js", "index.ts"),
        *("index.html", "index.md", "_index.md", "README.md", "SECURITY.md", "LICENSE"),
        *("pytest.ini", "MANIFEST.in", "py.typed", "conf.py", "requirements.txt", "Pipfile"),
        *("environment.yml", "meson.build", "meson_options.txt", "configure.ac", "Makefile.am"),
        *("docker-compose.yml", "docker-compose.yaml", "compose.yml", "compose.yaml"),
        *("mkdocs.yml", "mkdocs.yaml", "pom.xml", "build.gradle", "build.gradle.kts"),
        *("settings.gradle", "settings.gradle.kts", "build.sbt", "Package.swift", "Podfile"),
        *("pubspec.yaml", "mix.exs", "deno.json", "deno.jsonc", "tsconfig.json", "jsconfig.json"),
        *("angular.json", "nx.json", "turbo.json", "lerna.json", "pnpm-workspace.yaml"),
        *("netlify.toml", "vercel.json", "firebase.json", "app.yaml", "serverless.yml"),
        *("azure-pipelines.yml", "bitbucket-pipelines.yml", "codecov.yml", "renovate.json"),
        *("Chart.yaml", "values.yaml", "kustomization.yaml", "kustomization.yml"),
        *("skaffold.yaml", "Tiltfile", "Earthfile", "Brewfile", "Snakefile", "SConstruct"),
        # Django's and Celery's modules, found by their names in each app.
        *("models.py", "admin.py", "apps.py", "urls.py", "settings.py", "wsgi.py", "asgi.py"),
        *("tasks.py", "signals.py"),
        # GitHub's templates and community files, found by their names.
        *("PULL_REQUEST_TEMPLATE.md", "pull_request_template.md", "ISSUE_TEMPLATE.md"),
        *("CONTRIBUTING.md", "CODE_OF_CONDUCT.md", "SUPPORT.md", "FUNDING.yml"),
        # Found by a later review: site generators', frameworks', build tools' and
        # test runners' files, each found by its name where it is.
        *("_category_.json", "_category_.yml", "sidebars.js", "sidebars.ts", "versions.json"),
        *("_config.yml", "config.ru", "runtime.txt", "global.json", "composer.json"),
        *("Directory.Build.props", "Directory.Build.targets", "Directory.Packages.props"),
        *("mypy.ini", "gatsby-config.js", "gatsby-node.js", "gatsby-browser.js"),
        *("middleware.ts", "middleware.js", "setupTests.js", "setupTests.ts"),
        *("test_helper.exs", "test_helper.rb", "runtests.jl", "spec_helper.rb", "rails_helper.rb"),
        *("logback.xml", "logback-spring.xml", "log4j2.xml", "hooks.server.ts", "hooks.client.ts"),
        *("hooks.server.js", "hooks.client.js", "cspell.json", "biome.json", "pyrightconfig.json"),
        *("lefthook.yml", "stack.yaml", "cabal.project", "analysis_options.yaml", "vcpkg.json"),
        *("conanfile.txt", "conanfile.py", "gradle.properties", "gradlew", "mvnw"),
        # Found by a tenth review: auto-loaded, merged or selected by their names.
        *("terraform.tfvars", "terraform.tfvars.json", "docker-compose.override.yml"),
        *("docker-compose.override.yaml", "compose.override.yml", "compose.override.yaml"),
        *("flake.nix", "default.nix", "shell.nix", "env.py", "alembic.ini", "rust-toolchain"),
        *("rust-toolchain.toml", "values.schema.json", "gunicorn.conf.py", "sitecustomize.py"),
        *("usercustomize.py", "manifest.json", "ruff.toml", "pylintrc", "buildspec.yml"),
        *("template.yaml", "template.yml", "samconfig.toml", "fly.toml", "app.json", "go.work"),
        *("Justfile", "Taskfile.yaml", "NOTES.txt", "renovate.json5", "sw.js"),
        *("service-worker.js", "Caddyfile", "nginx.conf", "robots.txt", "CNAME", "_redirects"),
        # Found by an eleventh review: Rails', Bazel's, Cloudflare's, the CDK's and
        # Ansible's, mdBook's table of contents, and what coding agents load.
        *("database.yml", "MODULE.bazel", "WORKSPACE.bazel", "REPO.bazel", "wrangler.toml"),
        *("wrangler.json", "wrangler.jsonc", "cdk.json", "ansible.cfg"),
        *("SUMMARY.md", "AGENTS.md", "CLAUDE.md", "CLAUDE.local.md", "GEMINI.md"),
        # Found by a twelfth review: Erlang's, Atlantis', Danger's, Buf's, Terragrunt's,
        # Bundler's, Carthage's, Cabal's and Berkshelf's and Chef's.
        *("rebar.config", "atlantis.yaml", "Dangerfile", "buf.yaml", "buf.gen.yaml"),
        *("buf.work.yaml", "terragrunt.hcl", "gems.rb", "Cartfile", "cabal.project.local"),
        *("Berksfile", "metadata.rb"),
    }
)
# Pages a tool loads by their name, whatever their case: GitHub's front page and
# community files, coding agents' instructions (not a site's `index.md`).
_PAGES_TOOLS_LOAD = frozenset(
    name.lower()
    for name in _NAMES_TOOLS_READ
    if name.endswith(".md") and name not in ("index.md", "_index.md")
)
# Tools' configuration files found by their name (jest.config.js, vite.config.ts,
# babel.config.json, karma.conf.js...): each counts as a name tools look up.
# ASP.NET Core's appsettings.json and the one its environment's name picks.
# SwiftPM's manifest for a tools version (`Package@swift-6.2.swift`), which newer
# builds read instead of Package.swift (found by a twelfth review).
_CONFIG_NAME = lazy_compile(
    r"[^/]+\.(?:config|conf)\.[cm]?[jt]s(?:on)?|appsettings(?:\.[^/]+)?\.json"
    r"|Package@swift-[0-9.]+\.swift"
)
# Folders whose files' names are versions tools order and record: database migrations
# (Django's 0002_..., Flyway's V2__..., Rails' timestamps, Alembic's).
_MIGRATIONS = lazy_compile(r"(?:^|/)(?:migrations?|migrate|alembic/versions)/")
# Maven's and Gradle's source sets: src/main/ is built, src/test/ only tested. Kotlin
# Multiplatform's (`jsMain`, `nativeMain`: built for other targets), Android's build
# types (`debug`, `release`), and sbt's folders for a Scala version (`scala-2.12/`,
# `scala-2.13+/`): found by a thirteenth adversarial review.
_SOURCE_SET = lazy_compile(
    r"^(?:.*/)?src/(?:main|test|testFixtures|androidTest|[a-z]+Test|[a-z]+Main"
    r"|(?:debug|release)(?=/(?:java|kotlin|res|resources|assets|jniLibs|aidl|cpp|shaders|rs|ml"
    r"|baselineProfiles)/|/(?:AndroidManifest\.xml|google-services\.json)$))/"
    r"(?:[a-z]+-[0-9][0-9.]*[+-]?/)?"
)
# Names test runners collect: pytest, go test, Jest and Vitest, RSpec, JUnit, xUnit.
# unittest's and Django's `test*.py` (`tests.py`), Deno's `_test.ts`, Cypress's `.cy.ts`,
# minitest's, ExUnit's and Dart's `_test`, PHPUnit's `Test.php`.
_TEST_NAME = lazy_compile(
    r"test[^/]*\.py|[^/]*_test\.(?:py|go|rb|exs|dart|[cm]?[jt]sx?)"
    r"|[^/]*\.(?:test|spec|cy|e2e-spec|stories)\.[cm]?[jt]sx?|[^/]*_spec\.(?:rb|lua)"
    r"|(?:Test[^/]*|[^/]*Tests?)\.(?:java|kt|cs)|[^/]*Test\.php|test[-_][^/]*\.[Rr]"
    # hspec-discover's specs, Common Test's suites (a twelfth review).
    r"|[^/]*Spec\.hs|[^/]*_SUITE\.erl"
)
# Folders test runners collect: Jest's __tests__ (at any depth), Cargo's integration tests, Mocha's
# test/ (its default).
_TEST_FOLDER = lazy_compile(
    r"(?:^|/)(?:__tests__/(?:.*/)?[^/]*\.[cm]?[jt]sx?|tests/[^/]*\.rs|test/[^/]*\.[cm]?js)$"
)
# Languages whose unit is the folder: a Go package, a Terraform module.
_FOLDER_UNITS = (".go", ".tf", ".tf.json", ".tfvars")
# Go compiles a file only on the system or architecture its name ends with.
_GO_SYSTEMS = (
    "aix|android|darwin|dragonfly|freebsd|hurd|illumos|ios|js|linux|nacl|netbsd|openbsd"
    "|plan9|solaris|wasip1|windows|zos"
)
_GO_ARCHES = (
    "386|amd64|arm|arm64|loong64|mips|mips64|mips64le|mipsle|ppc64|ppc64le|riscv64|s390x|wasm"
)
_GO_CONSTRAINT = lazy_compile(
    rf"_(?:(?:{_GO_SYSTEMS})(?:_(?:{_GO_ARCHES}))?|{_GO_ARCHES})(?:_test)?\.go$"
)
# Folders whose files tools run or read by where they are (the most specific first).
_FOLDERS_TOOLS_READ = (
    *(".github/workflows/", ".github/actions/", ".github/", ".circleci/", ".gitlab/"),
    *(".buildkite/", ".husky/", ".githooks/", ".devcontainer/", ".vscode/"),
    # Jekyll's layouts and includes (found by an adversarial review).
    *("_layouts/", "_includes/"),
)
# Folders a site or an app publishes or routes by path, at any depth (a monorepo's
# apps/web/pages/): Hugo's and others' static files, Next.js's, Astro's and Nuxt's
# pages, Next.js's app router, Vercel's functions, SvelteKit's and Remix's routes.
# There a file's name is its address too (found by adversarial reviews).
_ROUTED = lazy_compile(
    r"(?:^|/)(?:(?:static|public)/.|(?:pages|app|api|routes)/.*\."
    r"(?:[cm]?[jt]sx?|mdx?|astro|svelte|vue|html?)$|api/.*\.(?:py|go|rb)$)"
)
# A site publishes a page at an address made of its path: renamed, its address
# changes (links from elsewhere, a nav or toctree naming it, search engines).
# Quarto's and R Markdown's pages and notebooks too.
_PAGE: tuple[str, ...] = (".md", ".markdown", ".mdx", ".rst", ".adoc", ".asciidoc", ".html")
_PAGE += (".htm", ".ipynb", ".qmd", ".rmd")
# Sphinx builds `.txt` pages too, where a project says so (Django's docs).
_DOCS = lazy_compile(r"(?:^|/)(?:docs?|documentation)/.*\.txt$")
# Jest mocks the module a file in __mocks__/ is named after; Rails loads initializers
# and Nuxt plugins in their names' order, and Zeitwerk and Nuxt name a class or a
# component after the file; Jekyll and Hugo name data after it (`site.data.authors`);
# Rails loads lib/tasks/; Ansible reads a role's main.yml and hosts' group_vars;
# Terraform loads `*.auto.tfvars` and merges `*_override.tf`; Spring reads a profile
# from `application-dev.properties` (found by a later review).
_NAMED_BY_FOLDER = lazy_compile(
    r"(?:^|/)(?:__mocks__|config/initializers|plugins|_data|_plugins|data|i18n|lib/tasks"
    r"|group_vars|host_vars|components)/|(?:^|/)app/.*\.rb$|(?:^|/)roles/[^/]+/[^/]+/main\.ya?ml$"
    r"|\.auto\.tfvars$|(?:^|[/_])override\.tf$|(?:^|/)application[-.][^/]*$"
    # A `*.d/` folder's files are read in their names' order (sysctl.d/,
    # docker-entrypoint-initdb.d/, conf.d/).
    r"|(?:^|/)[^/]+\.d/"
    # Found by an eleventh review: Helm renders templates/ and installs crds/ (and
    # frameworks look templates up by path), Nuxt's middleware (`.global.` runs on
    # every route), Django's commands and template tags (named by their files),
    # run-parts' cron folders, nginx's enabled sites, gettext's and Android's
    # folders (the language, the configuration they apply to), Netlify's functions.
    r"|(?:^|/)(?:templates|crds|middleware|management/commands|templatetags|locales?"
    r"|config/environments"
    # Elixir's config/ (`import_config "#{config_env()}.exs"`: a twelfth review).
    r"|config(?=/[^/]*\.exs$)"
    r"|cron\.(?:hourly|daily|weekly|monthly)|sites-(?:available|enabled)|res|netlify/functions)/"
)
# Folders of test data, whose files tests read byte for byte: a golden file, an
# expected output, a snapshot, a formatter's input.
# Golden-output layouts too (found by an adversarial review): trybuild's and rustc's
# `tests/ui/` (a `.stderr` beside each `.rs` quotes its lines and columns), and
# TypeScript's `tests/baselines/` and `tests/cases/`.
_TEST_DATA = lazy_compile(
    r"(?:^|/)(?:testdata|test_data|test-data|fixtures|__snapshots__|snapshots|golden|goldens"
    r"|expected|expectations|__testfixtures__|__fixtures__|baselines|tests/cases"
    r"|test[-_]fixtures|tests?/(?:data|resources|files))/"  # Black's tests/data/cases/
    r"|(?:^|/)tests?/ui/(?:.*/)?[^/]*\.(?:rs|stderr|stdout|fixed)$"  # not a web app's UI tests
    # A formatter's input and the output it must equal (rustfmt's tests/source/ and
    # tests/target/, rustc's tests/pretty/), and Markdown kept among tests (a Markdown
    # linter's or renderer's input): found by a thirteenth adversarial review.
    r"|(?:^|/)tests?/(?:source|target|pretty)/"
    r"|(?:^|/)tests?/(?:.*/)?[^/]*\.(?:md|markdown)$"
)
# Such folders deeper under tests/ (`tests/unit/data/`), whose files are test data
# unless named as tests are (`tests/unit/data/test_schema.py`, a Java package's
# `src/test/java/.../data/RepoTest.java`: reviews of the fix).
_DEEP_TEST_DATA = lazy_compile(r"(?:^|/)tests?/(?:[^/]+/)+(?:data|resources|files)/")
# A test's name, lower-cased (`test_schema.py`, `repotest.java`, `api.spec.ts`).
_TEST_NAME_LOWER = lazy_compile(
    r"(?:^|/)(?:test[_-][^/]*|[^/]*_test\.[^/]+|[^/]*tests?\.(?:java|kt|cs|scala|php)"
    r"|[^/]*\.(?:test|spec)\.[^/]+)$"
)


def is_test_data(path: str) -> bool:
    """Whether the file is in a folder of test data (`path` lower-cased)."""
    if _TEST_DATA.search(path) is not None:
        return True
    return _DEEP_TEST_DATA.search(path) is not None and not _TEST_NAME_LOWER.search(path)


def pure_rename_or_copy(facts: FileFacts) -> Proof | None:
    """Renamed or copied with identical content (and the same kind of entry), to a
    path that tells tools what the old one told them."""
    change = facts.change
    if change.status not in ("renamed", "copied") or not change.same_content:
        return None
    if role_change(change) is not None:
        return None  # ci.yml -> ci.yml.disabled switches CI off: a person decides
    reason = "renamed" if change.status == "renamed" else "copied"
    evidence = f"{change.old_path} and {change.path} are the same blob ({change.new_oid})"
    if change.old_mode == change.new_mode:
        return Proof((reason,), evidence)
    if {change.old_mode, change.new_mode} <= _REGULAR and not _runs(facts):
        return Proof((reason, "mode-only"), f"{evidence}; {_BIT_MEANS_NOTHING}")
    return None


def role_change(change: FileChange) -> tuple[str, str] | None:
    """A renamed or copied file's reason and evidence when its new path tells tools
    something else: its name or folder (`path_role_change`), a relative link's target
    or the files it names by relative paths, read from another folder."""
    if change.status not in ("renamed", "copied") or change.old_path is None:
        return None
    if link_moved(change):
        return (
            "path-role",
            "a link with a relative target went to another folder: it names another file",
        )
    moved = references_moved(change)
    if moved is not None:
        return "path-role", moved
    copied = change.status == "copied"
    return path_role_change(change.old_path, change.path, copied=copied)


def link_moved(change: FileChange) -> bool:
    """Whether a symbolic link with a relative target went to another folder: the
    same target then names another file, or none (found by an adversarial review:
    `config/active.env -> envs/prod.env` moved into `config/staging/` now reads the
    staging file). Its target not in hand: maybe."""
    if not change.is_symlink:
        return False
    old_path = change.old_path or change.path
    if posixpath.dirname(old_path) == posixpath.dirname(change.path):
        return False
    target = change.new_data
    if target is None:
        return True
    if target.startswith(b"/"):
        return False
    # The same file from both folders (`../../tools/env.sh` from a package renamed
    # beside its old name): no other file (a review of the fix).
    name = target.decode("utf-8", "surrogateescape")
    was = posixpath.normpath(posixpath.join(posixpath.dirname(old_path), name))
    return was != posixpath.normpath(posixpath.join(posixpath.dirname(change.path), name))


def references_moved(change: FileChange) -> str | None:
    """How a file moved to another folder names other files by paths relative to its
    own folder, which now resolve from another one (found by an adversarial review:
    `from .config import RATE`, `require("./auth")` and `#include "limits.h"` read
    another folder's file, its content unchanged); None when it names none, or its
    folder is the same. A folder moved whole (`FileChange.folder_kept`) holds the
    same files: only what names a file above it (`..`, Rust's `#[path]`) counts.
    Without the content in hand: maybe."""
    old_path = change.old_path or change.path
    if posixpath.dirname(old_path) == posixpath.dirname(change.path):
        return None
    pattern = _RELATIVE_REFERENCE.get(posixpath.splitext(change.path)[1].lower())
    if pattern is None:
        return None
    if change.new_data is None:
        return "it may name files by paths relative to its folder, which moved"
    text = change.new_data.decode("utf-8", "replace")
    extension = posixpath.splitext(change.path)[1].lower()
    located = _SELF_LOCATING.get(extension)
    found = None if located is None else located.search(text)
    if found is not None:
        return f"it finds files from its own place (`{found.group()}`), now another"
    # (Rust's `#[path = ...]`, `#[ path = ...]` or `#[cfg_attr(unix, path = ...)]` may
    # name a file anywhere: a review of the fix.)
    inside = change.folder_kept and _PATH_ATTRIBUTE.search(text) is None
    for found in pattern.finditer(text):
        start = text.rfind("\n", 0, found.start()) + 1
        end = text.find("\n", found.end())
        end = len(text) if end < 0 else end
        if inside and ".." not in text[found.start() : end]:
            continue  # a file of the folder, which moved whole
        line = " ".join(text[start:end].split())
        named = line if len(line) <= 60 else line[:57] + "..."
        return (
            f"it names a file by a path relative to its folder (`{named}`), now read from another"
        )
    return None


_PATH_ATTRIBUTE = lazy_compile(r"#!?\[[^\]\n]*\bpath[ \t]*=")

# What finds files from the file's own place, where it may go anywhere from
# (`Path(__file__).parent.parent`, `dirname "$(dirname "$0")"`): counted even where
# the whole folder moved (a review of the fix).
_SELF_LOCATING = {
    **dict.fromkeys((".py", ".pyi"), lazy_compile(r"\b__file__\b")),
    ".rb": lazy_compile(r"\b__FILE__\b|\b__dir__\b"),
    **dict.fromkeys(
        (".js", ".mjs", ".cjs", ".jsx", ".ts", ".tsx", ".mts", ".cts"),
        lazy_compile(r"\b__dirname\b|\b__filename\b|\bimport\.meta\.(?:url|dirname|filename)\b"),
    ),
    **dict.fromkeys(
        (".sh", ".bash", ".zsh", ".ksh"), lazy_compile(r"\$\{?(?:0|BASH_SOURCE)\b|\$\{0[%#]")
    ),
}

# What names a file relative to the naming file's folder, by language: Python's
# relative imports, JavaScript's and TypeScript's `./` and `../` specifiers, C's quoted
# includes (looked for beside the file first), Rust's `mod name;` and `include_*!`.
# `'.'` and `'..'` name a folder's index (a review of the fix); a file that finds
# files from its own place (`__dirname`, `__file__`, `__FILE__`, `$0`) names them so too.
_JS_RELATIVE = lazy_compile(
    r"""(?:\bfrom|\bimport|\brequire\s*\(|\bimport\s*\()\s*['"`]\.\.?(?:/|['"`])"""
)
_C_RELATIVE = lazy_compile(
    r'^[ \t]*(?:#|%:)(?:[ \t]|/\*[^\n]*?\*/)*(?:include|import)(?:[ \t]|/\*[^\n]*?\*/)*"',
    re.MULTILINE,
)
_RELATIVE_REFERENCE = {
    # (after `;` or `try:` too, and importlib's relative names: a review of the fix)
    **dict.fromkeys(
        (".py", ".pyi"),
        lazy_compile(r"(?:^|[;:])[ \t]*from[ \t]+\.|import_module\(\s*['\"]\.", re.MULTILINE),
    ),
    ".rb": lazy_compile(r"\brequire_relative\b|\brequire\s*\(?\s*['\"]\.\.?/"),
    # Sass's and Less's imports name partials beside the file, unless a module's.
    **dict.fromkeys(
        (".scss", ".sass", ".less"),
        lazy_compile(
            r"@(?:import|use|forward)[ \t]+(?:\([^)\n]*\)[ \t]*)?['\"](?!sass:|https?:|//)"
        ),
    ),
    # A script that sources files from its own folder, or from the one it is run in.
    **dict.fromkeys(
        (".sh", ".bash", ".zsh", ".ksh"),
        lazy_compile(r"(?:^|[;&|(]|then|do)[ \t]*(?:source|\.)[ \t]+['\"]?\.\.?/", re.MULTILINE),
    ),
    **dict.fromkeys(
        (".js", ".mjs", ".cjs", ".jsx", ".ts", ".tsx", ".mts", ".cts", ".vue", ".svelte"),
        _JS_RELATIVE,
    ),
    **dict.fromkeys((".c", ".h", ".cc", ".cpp", ".cxx", ".hh", ".hpp", ".m", ".mm"), _C_RELATIVE),
    ".rs": lazy_compile(
        r"^[ \t]*(?:#\[[^\]\n]*\][ \t]*)*(?:pub[ \t]*(?:\([^)\n]*\))?[ \t]+)?mod[ \t]+(?:r#)?\w+"
        r"[ \t]*;|\binclude(?:_str|_bytes)?!",
        re.MULTILINE,
    ),
}


def path_role_change(
    old_path: str, new_path: str, *, copied: bool = False
) -> tuple[str, str] | None:
    """How a new path tells tools something the old one did not, as a reason code
    ("extension", "path-role") and the evidence; None when it tells them the same.
    A copy leaves the old path as it was: any role of the new one is new (a workflow
    copied beside another runs too)."""
    old_name, new_name = posixpath.basename(old_path), posixpath.basename(new_path)
    if _extension(old_name) != _extension(new_name):
        # ci.yml -> ci.yml.disabled switches CI off: a person decides.
        return "extension", f"{old_path} and {new_path} have different extensions"
    for what, role in _ROLES:
        old, new = ("" if copied else role(old_path)), role(new_path)
        if old != new:
            if copied:
                return "path-role", f"the copy is new to {what}: {new}"
            return "path-role", f"the path changes {what}: {old or 'none'}, then {new or 'none'}"
    return None


def page_read_by_name(path: str) -> bool:
    """Whether tools load the page by its name (coding agents' `AGENTS.md`, GitHub's
    `readme.md` and community files in any case) or its dot folder
    (`.github/copilot-instructions.md`); not a site's pages of a folder frameworks
    read code from (`docs/plugins/`: a review of the fix)."""
    folders = path.split("/")[:-1]
    if any(folder.startswith(".") for folder in folders):
        return True
    return posixpath.basename(path).lower() in _PAGES_TOOLS_LOAD


def _named(path: str) -> str:
    """The whole path of a file tools look up by name: where it is counts too (a
    conftest.py or a Makefile applies to its own folder). So does any file of a
    folder whose name starts with a dot (`.github/workflows/build.yml` is called by
    its name, `.storybook/preview.js`, `.mvn/wrapper/`), or of a folder where a
    framework finds files by their names or orders them by them."""
    name = posixpath.basename(path)
    if name in _NAMES_TOOLS_READ or name.startswith(".") or _CONFIG_NAME.fullmatch(name):
        return path
    if is_lock_file(path):  # read beside its manifest (go.sum moved away from go.mod)
        return path
    if any(folder.startswith(".") for folder in path.split("/")[:-1]):
        return path
    # Tests open test data by its path.
    return path if _NAMED_BY_FOLDER.search(path) or is_test_data(path.lower()) else ""


def _address(path: str) -> str:
    """The whole path of a file a site serves or routes by it: a page, or a file in
    a folder that is routed (`pages/about.tsx` is /about)."""
    if path.lower().endswith(_PAGE) or _ROUTED.search(path) or _DOCS.search(path.lower()):
        return path
    return ""


def _shadowed(path: str) -> str:
    """The standard library module a Python file's name shadows: scripts of its
    folder import it instead (`tools/calendar.py`)."""
    name, extension = posixpath.splitext(posixpath.basename(path))
    return name if extension == ".py" and name in sys.stdlib_module_names else ""


def _migration(path: str) -> str:
    """The whole path of a database migration: its name is its version."""
    return path if _MIGRATIONS.search(path) else ""


def _source_set(path: str) -> str:
    found = _SOURCE_SET.match(path)
    return found.group() if found else ""


def is_test_path(path: str) -> bool:
    """Whether a test runner collects the file by its name, or by its folder."""
    if _TEST_NAME.fullmatch(posixpath.basename(path)) is not None:
        return True
    return _TEST_FOLDER.search(path) is not None


def _test(path: str) -> str:
    """Which test runners collect the file: unittest's discovery only `test*.py`
    (`test_parser.py` made `parser_test.py` is no longer run by it)."""
    if not is_test_path(path):
        return ""
    name = posixpath.basename(path)
    return "a test named test*.py" if name.startswith("test") and name.endswith(".py") else "a test"


def _test_folder(path: str) -> str:
    """The folder of a test: moved to another, it may be collected no more (pytest's
    `testpaths`), or run with other fixtures (the folder's conftest.py; found by an
    adversarial review). Not of a Python module only unittest's `test*.py` takes for
    one (`testing.py`, `testutils.py`: a library's, moved into `src/`)."""
    name = posixpath.basename(path)
    if name.startswith("test") and name.endswith(".py") and not name.startswith("test_"):
        return ""
    return posixpath.dirname(path) + "/" if is_test_path(path) else ""


def _go_constraint(path: str) -> str:
    found = _GO_CONSTRAINT.search(posixpath.basename(path))
    return found.group().removesuffix(".go").removesuffix("_test") if found else ""


def _folder(path: str) -> str:
    """The folder of a file under one that tools read, itself: GitHub runs the workflows
    of .github/workflows/, not of a folder below it."""
    if not path.startswith(_FOLDERS_TOOLS_READ):
        return ""
    return posixpath.dirname(path) + "/"


def _unit(path: str) -> str:
    """The folder of a file whose language makes one unit of a folder: moved to
    another, a Go file is in another package, a Terraform file in another module
    (whose resources `terraform apply` destroys in the old one), a Swift file in
    another SwiftPM target (a module, or tests; found by a twelfth review)."""
    if path.endswith(".swift"):
        target = _SWIFT_TARGET.search(path)
        return target.group() if target else ""
    if path.endswith(_DOTNET_SOURCES):
        # An SDK-style .NET project compiles every file below its project file: the
        # project's folder, as a solution lays them out (`src/Serilog/`, `test/X.Tests/`),
        # else the top folder (a class moved into another project leaves its assembly:
        # a thirteenth review).
        # (By its path: two services' `src/Api/` are two assemblies, a second review
        # found. A project moved whole into `src/` is significant too: a cost.)
        project = _DOTNET_PROJECT.match(path)
        top = posixpath.dirname(path).partition("/")[0]
        return project.group() if project else top + "/" if top else ""
    return posixpath.dirname(path) + "/" if path.endswith(_FOLDER_UNITS) else ""


_SWIFT_TARGET = lazy_compile(r"(?:^|/)(?:Sources|Tests|Plugins)/[^/]+/")
_DOTNET_SOURCES = (".cs", ".fs", ".vb")
_DOTNET_PROJECT = lazy_compile(
    r"(?i:(?:[^/]+/)*?(?:src|source|test|tests|samples?|benchmarks?|tools)/)[^/]+/"
)


def _extension(name: str) -> str:
    """A file name's extension, TypeScript's declaration files' in full (`consts.ts`
    compiles to JavaScript, `consts.d.ts` to nothing)."""
    double = _DOUBLE_EXTENSION.search(name)
    return double.group() if double else posixpath.splitext(name)[1]


_DOUBLE_EXTENSION = lazy_compile(r"\.d\.[cm]?ts$")


def _skipped(path: str) -> str:
    """Whether tools skip the file, or treat it apart, by a leading `_` or `.` of its
    name: the go tool ignores `_x_test.go`, Jekyll and Hugo publish no `_about.md`,
    Sass compiles no partial `_x.scss`."""
    return "a name starting with _ or ." if posixpath.basename(path)[:1] in "_." else ""


def _output(path: str) -> str:
    """The whole path of a file whose name is what a build makes of it or reads from
    it: a Rust binary, example or benchmark (`src/bin/deploy.rs` builds `deploy`), a
    Java class (its public class must be named as the file), a Jekyll post (its date
    and address), a Python stub (the module it types: type checkers pair them by
    path; found by an adversarial review)."""
    if path.endswith((".java", ".kt")):
        # Java's public class; Kotlin's class of a file's top-level functions (`UtilsKt`:
        # a twelfth review).
        return posixpath.basename(path)
    if path.endswith(".erl"):
        return posixpath.basename(path)  # Erlang's module is the file's name alone
    if path.endswith(_MODULE_IS_PATH) and not _NO_MODULE.search(path):
        return path
    return path if _NAMED_OUTPUT.search(path) else ""


# Languages whose module is named by its file's path: PHP's PSR-4 autoloading (the
# namespace is the folder), a Python stub (the module it types: type checkers pair
# them by path), Haskell's, Erlang's, Clojure's, Elm's, PureScript's, Idris' and
# Agda's modules (a twelfth review).
_MODULE_IS_PATH: tuple[str, ...] = (".php", ".pyi", ".hs", ".lhs", ".clj", ".cljs")
_MODULE_IS_PATH += (".cljc", ".elm", ".purs", ".idr", ".agda")

# Haskell files that are no module named by their path: a program's `Main.hs`, Cabal's
# `Setup.hs` and cabal-testsuite's `*.test.hs` scripts (a review of the rule).
_NO_MODULE = lazy_compile(r"(?:^|/)(?:Main|Setup)\.l?hs$|\.test\.hs$")

_NAMED_OUTPUT = lazy_compile(
    r"(?:^|/)(?:src/bin|examples|benches)/.*\.rs$|(?:^|/)_(?:posts|drafts)/"
)


# What a path tells tools, each read from the path alone.
_ROLES: tuple[tuple[str, Callable[[str], str]], ...] = (
    ("the name tools look for", _named),
    ("what test runners collect", _test),
    ("the folder a test runs from", _test_folder),
    ("the Go build constraint", _go_constraint),
    ("the folder tools read", _folder),
    ("a migration's version", _migration),
    ("the source set", _source_set),
    ("the package or module its folder makes", _unit),
    ("whether tools skip it", _skipped),
    ("what the build names after it", _output),
    ("the address a site serves it at", _address),
    ("the standard library module it shadows", _shadowed),
)


def mode_only(facts: FileFacts) -> Proof | None:
    """Only the executable bit changed, on a regular file nothing runs."""
    change = facts.change
    if (
        change.status == "modified"
        and change.same_content
        and change.old_mode != change.new_mode
        and {change.old_mode, change.new_mode} <= _REGULAR
        and not _runs(facts)
    ):
        return Proof(("mode-only",), f"same blob ({change.new_oid}); {_BIT_MEANS_NOTHING}")
    return None


_BIT_MEANS_NOTHING = "only the executable bit changed, on a file nothing runs"
# The starts of what a system runs: a #! line, and executable binaries (ELF,
# Mach-O, universal Mach-O, PE).
_RUNNABLE_STARTS = (
    *(b"#!", b"\x7fELF", b"\xfe\xed\xfa\xce", b"\xfe\xed\xfa\xcf", b"\xce\xfa\xed\xfe"),
    *(b"\xcf\xfa\xed\xfe", b"\xca\xfe\xba\xbe", b"MZ"),
)


def _runs(facts: FileFacts) -> bool:
    """Whether the executable bit may decide if the file runs: a script's `#!` line,
    an executable binary, or text a shell runs as a script when the system will not
    (execve's ENOEXEC, which git's hooks and every shell fall back on): a shell
    script, or a file of unknown kind with no extension; or a file whose name says
    it is run (`.cgi`, which a web server runs by its bit, `.command` on macOS, a
    script of an interpreter). A side not read: maybe."""
    data = facts.change.new_data
    if data is None or data.startswith(_RUNNABLE_STARTS):
        return True
    name = posixpath.basename(facts.change.path)
    if runs_by_name(name):
        return True
    return facts.kind == "shell" or (facts.kind == "unknown" and "." not in name)
