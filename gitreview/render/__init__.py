"""Output formats, all rendered from the same manifest.

An explicit registry: format name -> (module, function). Modules are imported
only when their format is asked for (rich is heavy, and start-up matters).
Every renderer takes the manifest and a `color` flag and returns text; none
may print a secret's value (the manifest's excerpts and messages are already
redacted; a renderer that reads file content must redact it too).
"""

from __future__ import annotations

import importlib
from typing import Any

FORMATS: dict[str, tuple[str, str]] = {
    "json": ("gitreview.render.json", "render_json"),
    "text": ("gitreview.render.text", "render_text"),
    "full": ("gitreview.render.full", "render_full"),
    "markdown": ("gitreview.render.markdown", "render_markdown"),
    "github": ("gitreview.render.github", "render_github"),
    "sarif": ("gitreview.render.sarif", "render_sarif"),
}


def render(manifest: dict[str, Any], output_format: str, *, color: bool = False) -> str:
    module_name, function_name = FORMATS[output_format]
    renderer = getattr(importlib.import_module(module_name), function_name)
    text: str = renderer(manifest, color=color)
    return text


def counted(number: int, noun: str, plural: str | None = None) -> str:
    """ "1 file", "3 files": what every format and message says a count with."""
    return f"{number} {noun if number == 1 else plural or noun + 's'}"


SEVERITY_ORDER = ("error", "warning", "info")


def by_severity(findings: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Errors, then warnings, then notices; the manifest's order within each (a stable
    sort): what a format that shows some of them shows first."""
    return sorted(findings, key=lambda finding: SEVERITY_ORDER.index(finding["severity"]))
