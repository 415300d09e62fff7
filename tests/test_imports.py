"""Imports reordered, as isort writes them, wherever they are (issue 11)."""

from pathlib import Path
from typing import Any

import pytest
from manifests import files_by_path, manifest_of
from repos import before_and_after, git, two_commits

USE = "\n\nprint(alpha, beta, gamma)\n"

REORDERED = {
    "inside a function": (
        "def load():\n    import sys\n    import json\n    return json, sys\n",
        "def load():\n    import json\n    import sys\n    return json, sys\n",
    ),
    "inside `if TYPE_CHECKING:`": (
        "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n"
        "    from pathlib import Path\n    from collections.abc import Iterator\n",
        "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n"
        "    from collections.abc import Iterator\n    from pathlib import Path\n",
    ),
    "names on the indented lines of a parenthesised import": (
        "from shapes import (\n    square,\n    circle,\n    triangle,\n)\n",
        "from shapes import (\n    circle,\n    square,\n    triangle,\n)\n",
    ),
    "two imports swapped, each with its own `# noqa`": (
        "import zlib  # noqa: F401\nimport abc  # noqa: I001\n",
        "import abc  # noqa: I001\nimport zlib  # noqa: F401\n",
    ),
    "sections parted by a blank line": (
        "import os\nimport requests\nimport sys\n",
        "import os\nimport sys\n\nimport requests\n",
    ),
    "other packages' modules in a package's `__init__.py`": (
        "import sys\nimport json\n",
        "import json\nimport sys\n",
        "shop/__init__.py",
    ),
}

NOT_REORDERED = {
    # Where a failed import is caught, those before it ran and those after it did not
    # (found by an adversarial review: `os` is unbound after the old order's failure).
    "inside `try:`, whose failure is caught": (
        "try:\n    import fast_json\n    import os\nexcept ImportError:\n    fast_json = None\n",
        "try:\n    import os\n    import fast_json\nexcept ImportError:\n    fast_json = None\n",
    ),
    "inside `with suppress(ImportError):`": (
        "with suppress(ImportError):\n    import fast_json\n    import os\n",
        "with suppress(ImportError):\n    import os\n    import fast_json\n",
    ),
    "an import moved from `try:` into its `except`": (
        "try:\n    import yaml\n    import toml\nexcept ImportError:\n    yaml = None\n",
        "try:\n    import yaml\nexcept ImportError:\n    import toml\n    yaml = None\n",
    ),
    "an import moved past a call inside a function": (
        "def load():\n    import json\n    setup()\n    import plugins\n    return json\n",
        "def load():\n    import plugins\n    setup()\n    import json\n    return json\n",
    ),
    "imports moved into another block": (
        "if FAST:\n    import fast\n    import quick\nelse:\n    import slow\n",
        "if FAST:\n    import fast\nelse:\n    import quick\n    import slow\n",
    ),
    "a `# noqa` moved to another import (nothing reordered)": (
        "import os  # noqa: F401\nimport sys\n",
        "import os\nimport sys  # noqa: F401\n",
    ),
    "a name dropped from a parenthesised import": (
        "from shapes import (\n    square,\n    circle,\n    triangle,\n)\n",
        "from shapes import (\n    circle,\n    triangle,\n)\n",
    ),
    "gevent's monkey-patching moved after ssl's import (grequests patches as imported)": (
        "import grequests\nimport boto3\n",
        "import boto3\nimport grequests\n",
    ),
    "Instana's instrumentation moved after what it instruments": (
        "import instana\nimport requests\n",
        "import requests\nimport instana\n",
    ),
    "setuptools moved after distutils (it replaces distutils as it is imported)": (
        "import setuptools\nimport distutils.core\n",
        "import distutils.core\nimport setuptools\n",
    ),
    "a package's own modules in its `__init__.py` (imports circling between them)": (
        "from .models import Model\nfrom .admin import Admin\n",
        "from .admin import Admin\nfrom .models import Model\n",
        "shop/__init__.py",
    ),
    # Any module of the package (found by an adversarial review: a circular import
    # between its siblings fails in one order only).
    "a package's sibling modules imported by one of its modules": (
        "from . import b\nfrom . import a\n",
        "from . import a\nfrom . import b\n",
        "pkg/main.py",
    ),
    "a package's own modules, named in full, in one of its modules": (
        "from shop.models import Model\nfrom shop.admin import Admin\n",
        "from shop.admin import Admin\nfrom shop.models import Model\n",
        "shop/views.py",
    ),
    "a package's own modules, named in full, in its `__init__.py`": (
        "from shop.models import Model\nfrom shop.admin import Admin\n",
        "from shop.admin import Admin\nfrom shop.models import Model\n",
        "shop/__init__.py",
    ),
}


def hunks(
    tmp_path: Path, old: str, new: str, path: str = "module.py"
) -> list[tuple[str, list[str]]]:
    repo = before_and_after(tmp_path / "repo", path, old + USE, new + USE)
    entry = files_by_path(manifest_of("--repo", repo, "--fail-on", "never", "HEAD"))[path]
    if entry["classification"] == "trivial":
        return [("trivial", entry["reasons"])]
    return [(hunk["classification"], hunk["reasons"]) for hunk in entry["hunks"]]


@pytest.mark.parametrize("what", sorted(REORDERED))
def test_imports_reordered(tmp_path: Path, what: str) -> None:
    assert hunks(tmp_path, *REORDERED[what]) == [("trivial", ["import-order"])]


@pytest.mark.parametrize("what", sorted(NOT_REORDERED))
def test_imports_moved_elsewhere_stay_significant(tmp_path: Path, what: str) -> None:
    assert ("significant", ["content"]) in hunks(tmp_path, *NOT_REORDERED[what])


# The project's own modules, found in the head's tree wherever they are (found by an
# adversarial review): a package with effects imported by a script in another folder,
# and modules at the root imported by a module beside them. The standard library's
# modules, in the same repositories, stay trivial.
OWN_MODULES = {
    "a package of the project, imported by a script in another folder": (
        "scripts/run.py",
        "from mylib import alpha\nfrom mylib import beta\n",
        "from mylib import beta\nfrom mylib import alpha\n",
    ),
    "modules at the root, imported by a module beside them": (
        "main.py",
        "import alpha\nimport beta\n",
        "import beta\nimport alpha\n",
    ),
}
PROJECT = {
    "mylib/__init__.py": "REGISTRY = []\n",
    "mylib/alpha.py": "from mylib import REGISTRY\nREGISTRY.append('alpha')\n",
    "mylib/beta.py": "from mylib import REGISTRY\nREGISTRY.append('beta')\n",
    "alpha.py": "import beta\n",
    "beta.py": "X = 1\n",
}


def _in_project(tmp_path: Path, path: str, old: str, new: str) -> dict[str, Any]:
    repo = two_commits(tmp_path / "repo", {**PROJECT, path: old}, {path: new})
    return files_by_path(manifest_of("--repo", repo, "--fail-on", "never", "HEAD"))[path]


@pytest.mark.parametrize("what", sorted(OWN_MODULES))
def test_the_projects_own_modules_keep_their_order(tmp_path: Path, what: str) -> None:
    path, old, new = OWN_MODULES[what]
    entry = _in_project(tmp_path, path, old, new)
    assert entry["classification"] == "significant"
    # Control: the standard library's modules, in the same file of the same project.
    swapped = ("import sys\nimport json\n", "import json\nimport sys\n")
    control = _in_project(tmp_path / "control", path, *swapped)
    assert (control["classification"], control["reasons"]) == ("trivial", ["import-order"])


def test_a_cached_reorder_is_proved_again_when_the_project_gains_the_module(
    tmp_path: Path,
) -> None:
    """The verdict of a blob pair kept in the cache holds what the head's tree
    answered: a later range whose head has the module proves it again."""
    path, old, new = OWN_MODULES["a package of the project, imported by a script in another folder"]
    repo = before_and_after(tmp_path / "repo", path, old, new)
    first = files_by_path(manifest_of("--repo", repo, "--fail-on", "never", "HEAD"))[path]
    assert first["classification"] == "trivial"  # `mylib` is no module of this project
    for name, text in PROJECT.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(text)
    git(repo, "add", "--", *PROJECT)
    git(repo, "commit", "--quiet", "-m", "The project's modules")
    later = files_by_path(manifest_of("--repo", repo, "--fail-on", "never", "HEAD~2..HEAD"))
    assert later[path]["classification"] == "significant"
