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
    return compact(manifest) + "\n"


def serialize_pieces(manifest: dict[str, Any]) -> list[str]:
    """`serialize(manifest)` in pieces, joined with "": each top-level key's, then its
    value's, a list's item by item (a large range's files are megabytes of text, and
    the encoder grows one buffer for a whole value). A value's piece can be made
    again without serializing the rest (the manifest's own token figure), and the
    text is never copied whole but once."""
    if not manifest:
        return ["{}\n"]
    pieces: list[str] = []
    for number, (key, value) in enumerate(manifest.items()):
        pieces.append(f"{',' if number else '{'}{compact(key)}:")
        if isinstance(value, list) and value:
            pieces.append("[" + compact(value[0]))
            pieces += ("," + compact(item) for item in value[1:])
            pieces.append("]")
        else:
            pieces.append(compact(value))
    pieces.append("}\n")
    return pieces


def key_piece(manifest: dict[str, Any], key: str) -> str:
    """The piece of `serialize_pieces(manifest)` that holds the key itself; its value
    starts in the next. No value's piece ends with ":"."""
    return f"{'{' if next(iter(manifest)) == key else ','}{compact(key)}:"


def compact(value: Any) -> str:
    """A value as the manifest's JSON text holds it."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
