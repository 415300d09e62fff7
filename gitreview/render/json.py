"""The json output format: the manifest itself, as compact, deterministic text.

Its own module, light to import: a re-run whose result was kept (cache.py)
prints it without loading the stages that work a range out.
"""

from __future__ import annotations

import json
from typing import Any


def render_json(manifest: dict[str, Any], *, color: bool = False) -> str:
    """The json output format: the manifest itself."""
    return serialize(manifest)


def serialize(manifest: dict[str, Any]) -> str:
    """The manifest as compact, deterministic JSON text (one line, newline at the end)."""
    return json.dumps(manifest, ensure_ascii=False, separators=(",", ":")) + "\n"
