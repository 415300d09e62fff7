"""`python/import-lost`: a module the range deletes or renames away, still imported at
head. The rename itself stays trivial; the importers are what breaks."""

import subprocess
import sys
from pathlib import Path

from findings import findings_of, manifest_with_findings
from manifests import files_by_path
from repos import commits, git, isolated_environment

RULE = "python/import-lost"


def lost(repo: Path) -> list[tuple[str | None, int | None, str]]:
    git(repo, "commit", "--quiet", "-am", "After")
    manifest = manifest_with_findings("--repo", repo, "HEAD~1..HEAD")
    return [(path, line, message) for _, _, path, line, message in findings_of(manifest, RULE)]


PACKAGE = {
    "pkg/__init__.py": "",
    "pkg/core.py": "def answer():\n    return 42\n",
    "app.py": "from pkg.core import answer\nimport pkg.core\nfrom pkg import core\n",
    "pkg/other.py": (
        "from .core import answer\n"
        "try:\n    from pkg.core import answer\nexcept ImportError:\n    answer = None\n"
    ),
    "cli.py": "import json\nimport pkg\n",
}


def test_a_renamed_module_s_importers_are_reported(tmp_path: Path) -> None:
    """Every way of importing it, from files the range never touched; not an import
    with a fallback, nor one of another module."""
    repo = commits(tmp_path / "repo", PACKAGE)
    git(repo, "mv", "pkg/core.py", "pkg/engine.py")
    said = "imports pkg.core, but the range renamed pkg/core.py to pkg/engine.py"
    assert lost(repo) == [
        ("app.py", 1, said),
        ("app.py", 2, said),
        ("app.py", 3, said),
        ("pkg/other.py", 1, said),
    ]


def test_the_rename_itself_stays_trivial(tmp_path: Path) -> None:
    repo = commits(tmp_path / "repo", PACKAGE)
    git(repo, "mv", "pkg/core.py", "pkg/engine.py")
    git(repo, "commit", "--quiet", "-m", "Rename")
    manifest = manifest_with_findings("--repo", repo, "HEAD~1..HEAD")
    assert files_by_path(manifest)["pkg/engine.py"]["reasons"] == ["renamed"]


def test_importers_the_range_updates_are_not_reported(tmp_path: Path) -> None:
    repo = commits(tmp_path / "repo", {k: v for k, v in PACKAGE.items() if k != "app.py"})
    git(repo, "mv", "pkg/core.py", "pkg/engine.py")
    (repo / "pkg/other.py").write_text("from .engine import answer\n")
    assert lost(repo) == []


def test_a_deleted_top_level_module(tmp_path: Path) -> None:
    repo = commits(
        tmp_path / "repo", {"helpers.py": "X = 1\n", "main.py": "import os\nimport helpers\n"}
    )
    git(repo, "rm", "--quiet", "helpers.py")
    assert lost(repo) == [("main.py", 2, "imports helpers, but the range deleted helpers.py")]


def test_a_name_that_still_resolves_or_names_another_module(tmp_path: Path) -> None:
    """Moved to another root, `pkg.core` still answers; `json` is no tail of
    tools/json.py of two parts, and which root imports it is not known."""
    repo = commits(
        tmp_path / "repo",
        {
            "src/pkg/__init__.py": "",
            "src/pkg/core.py": "X = 1\n",
            "tools/json.py": "Y = 2\n",
            "app.py": "from pkg.core import X\nimport json\n",
        },
    )
    (repo / "lib").mkdir()
    git(repo, "mv", "src/pkg", "lib/pkg")
    git(repo, "rm", "--quiet", "tools/json.py")
    assert lost(repo) == []


def test_a_package_that_loses_its_init_is_still_a_package(tmp_path: Path) -> None:
    """Without `__init__.py`, a folder of modules is a namespace package: `import pkg`
    still works. A package whose folder is gone is lost."""
    repo = commits(
        tmp_path / "repo",
        {
            "pkg/__init__.py": "",
            "pkg/core.py": "X = 1\n",
            "old/__init__.py": "",
            "app.py": "import pkg\nfrom pkg import core\nimport old\n",
        },
    )
    git(repo, "rm", "--quiet", "pkg/__init__.py", "old/__init__.py")
    assert lost(repo) == [("app.py", 3, "imports old, but the range deleted old/__init__.py")]


def test_a_tree_moved_under_another_root_loses_only_the_old_root_s_names(
    tmp_path: Path,
) -> None:
    """`src/pkg` moved to `lib/pkg`: `pkg.core` still answers, but `src.pkg.core` does
    not, nor a relative import from what stays under `src/`. Only files holding the
    old root's name, or under it, can hold such an import (issue 12: moving a
    package's tree had every file naming one of its modules parsed)."""
    repo = commits(
        tmp_path / "repo",
        {
            "src/pkg/__init__.py": "",
            "src/pkg/core.py": "X = 1\n",
            "src/run.py": "from .pkg import core\n",
            "app.py": "from pkg.core import X\nimport pkg.core\n",
            "tools/old.py": "import os\nimport src.pkg.core\n",
        },
    )
    (repo / "lib").mkdir()
    git(repo, "mv", "src/pkg", "lib/pkg")
    package = "imports src.pkg, but the range renamed src/pkg/__init__.py to lib/pkg/__init__.py"
    core = "imports src.pkg.core, but the range renamed src/pkg/core.py to lib/pkg/core.py"
    assert lost(repo) == [
        ("src/run.py", 1, package),
        ("src/run.py", 1, core),
        ("tools/old.py", 2, core),
    ]


def test_python_says_nothing_about_the_importers_it_reads(tmp_path: Path) -> None:
    """An importer Python warns about (`1if`, an unknown escape) leaves stderr empty,
    as the files the range touched do (test_python.py)."""
    repo = commits(
        tmp_path / "repo",
        {"pkg/core.py": "X = 1\n", "app.py": "import pkg.core\nx = '\\d'\ny = 1if x else 2\n"},
    )
    git(repo, "mv", "pkg/core.py", "pkg/engine.py")
    git(repo, "commit", "--quiet", "-m", "Rename")
    result = subprocess.run(
        [sys.executable, "-W", "default", "-m", "gitreview", "--repo", str(repo), "HEAD~1..HEAD"],
        capture_output=True,
        env=isolated_environment(),
    )
    assert result.returncode == 0, result.stderr
    assert b"python/import-lost" in result.stdout
    assert result.stderr == b""


def test_a_module_renamed_beside_the_scripts_that_import_it(tmp_path: Path) -> None:
    """Found by an adversarial review: a script imports what lies beside it (its folder
    is `sys.path[0]`), so renaming `scripts/Helpers.py` to `helpers.py` broke
    `import Helpers` in `scripts/deploy.py`, with no finding. One folder up, the same
    one-part import names no module of that folder."""
    files = {
        "scripts/Helpers.py": "def run():\n    return 1\n",
        "scripts/deploy.py": "import Helpers\n\nHelpers.run()\n",
        "tools/other.py": "import Helpers\n",
    }
    repo = commits(tmp_path / "repo", files)
    git(repo, "mv", "scripts/Helpers.py", "scripts/helpers.py")
    assert lost(repo) == [
        (
            "scripts/deploy.py",
            1,
            "imports Helpers, but the range renamed scripts/Helpers.py to scripts/helpers.py",
        )
    ]


def test_a_package_s_module_or_a_standard_name_is_no_script_s_import(tmp_path: Path) -> None:
    """A review of the fix: in a package, `import types` loads the standard library's,
    not a sibling `types.py`; nor does a script's `import logging` load its sibling."""
    files = {
        "mypkg/__init__.py": "",
        "mypkg/types.py": "X = 1\n",
        "mypkg/use.py": "import types\n",
        "scripts/logging.py": "X = 1\n",
        "scripts/run.py": "import logging\n",
        "scripts/helper.py": "X = 1\n",
        "mypkg/other.py": "import helper\n",
    }
    repo = commits(tmp_path / "repo", files)
    git(repo, "mv", "mypkg/types.py", "mypkg/_types.py")
    git(repo, "rm", "--quiet", "scripts/logging.py")
    git(repo, "mv", "scripts/helper.py", "scripts/helpers.py")
    assert lost(repo) == []
