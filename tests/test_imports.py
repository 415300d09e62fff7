"""Imports reordered, as isort writes them, wherever they are (issue 11)."""

from pathlib import Path

import pytest
from manifests import files_by_path, manifest_of
from repos import before_and_after

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
