"""Output formats, all rendered from the same manifest."""

from __future__ import annotations

from typing import Any


def render(manifest: dict[str, Any], output_format: str, *, color: bool = False) -> str:
    if output_format == "json":
        from gitreview.manifest import serialize

        return serialize(manifest)
    if output_format == "full":
        from gitreview.render.full import render_full

        return render_full(manifest)
    if output_format == "text":
        from gitreview.render.text import render_text

        return render_text(manifest, color=color)
    raise ValueError(f"unknown format {output_format}")
