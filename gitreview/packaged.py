"""Files shipped inside the package: the JSON Schemas, the typo rule's word lists,
the pre-push hook's script."""

from __future__ import annotations

import os


def packaged(folder: str, name: str) -> bytes:
    """A file of the package, read beside this module as the package is installed (or
    checked out); through importlib.resources only where it is not a folder (a zip),
    since loading that costs 10 ms of a push with a configuration."""
    try:
        with open(os.path.join(os.path.dirname(__file__), folder, name), "rb") as file:
            return file.read()
    except OSError:
        from importlib import resources

        return resources.files("gitreview").joinpath(folder).joinpath(name).read_bytes()
