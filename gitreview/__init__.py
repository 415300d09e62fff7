"""gitreview: review manifests for language-model reviewers.

The one public function is `build_manifest`; the command line, the pre-push
hook and the GitHub Actions step are thin shells over it.
"""

from __future__ import annotations

from gitreview.pipeline import build_manifest

__all__ = ["__version__", "build_manifest"]
__version__ = "0.1.0"
