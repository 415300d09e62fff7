"""gitreview: review manifests for language-model reviewers.

The one public function is `build_manifest`; the command line, the pre-push
hook and the GitHub Actions step are thin shells over it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

__all__ = ["__version__", "build_manifest"]
__version__ = "0.1.0"


def build_manifest(
    repo: str | Path | None = None,
    spec: str | None = None,
    *,
    config: str | Path | None = None,
    patch: bytes | None = None,
    patch_name: str = "-",
    fallback: bool = False,
    cache: bool = True,
) -> dict[str, Any]:
    """Build the review manifest of a commit range (or of a unified diff).

    `repo` is any folder inside the repository (default: the current one);
    `spec` is `A..B`, `A...B`, `REV`, or None for the current branch against
    its upstream. With `patch` (the bytes of a unified diff), the diff is read
    instead of the repository. With `fallback`, every file without tier-1
    analysis carries its full content and diff. With `cache`, verdicts proved for
    blob pairs seen before are reused and new ones kept, under the git directory
    (never the working tree or the objects). Raises gitreview.errors.UserError
    for every mistake a user can make; its `status` is the documented exit status.
    """
    # Nothing heavy is imported until asked: start-up matters for small pushes.
    from gitreview.commands.manifest import review_of_range

    assembled, _ = review_of_range(
        repo,
        spec,
        config=config,
        patch=patch,
        patch_name=patch_name,
        contents="missing" if fallback else "none",
        cache=cache,
    )
    return assembled.manifest
