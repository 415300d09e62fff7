"""The json output format: the manifest itself, as compact, deterministic text.

Its own module, light to import: a re-run whose result was kept (cache.py)
prints it without loading the stages that work a range out.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any


def render_json(manifest: dict[str, Any], *, color: bool = False) -> str:
    """The json output format: the manifest itself."""
    return serialize(manifest)


def serialize(manifest: dict[str, Any]) -> str:
    """The manifest as compact, deterministic JSON text (one line, newline at the end)."""
    return compact(manifest) + "\n"


def value_pieces(value: Any) -> list[str]:
    """`compact(value)` in pieces, joined with "": a list item by item, each item whole
    (a file's entry, a finding, a role's review item), and a mapping key by key where
    it holds a list or a mapping. A large range's manifest is megabytes of text: the
    encoder grows one buffer for a whole value, and a string holding one character
    past Latin-1 (an excerpt's "⏎") takes two bytes for each of its characters."""
    if isinstance(value, list):
        return list_pieces(compact(item) for item in value)
    if _holds_containers(value):
        pieces = ["{"]
        for number, (key, item) in enumerate(value.items()):
            pieces.append(f"{',' if number else ''}{compact(key)}:")
            pieces += value_pieces(item)
        pieces.append("}")
        return pieces
    return [compact(value)]


def list_pieces(items: Iterable[str]) -> list[str]:
    """A list's text in pieces from its items' texts, taken one at a time: a piece
    for each item, with the bracket or comma before it."""
    pieces: list[str] = []
    for item in items:
        pieces.append(("," if pieces else "[") + item)
    if not pieces:
        return ["[]"]
    pieces.append("]")
    return pieces


def _holds_containers(value: Any) -> bool:
    return (
        isinstance(value, dict)
        and all(isinstance(key, str) for key in value)
        and any(isinstance(item, list | dict) and item for item in value.values())
    )


def framed(values: dict[str, list[str]]) -> list[str]:
    """The manifest's text in pieces from each top-level key's value in pieces: one
    value's can be made again without serializing the rest (the manifest's own token
    figure), and the text is never copied whole but once."""
    if not values:
        return ["{}\n"]
    pieces: list[str] = []
    for number, (key, value) in enumerate(values.items()):
        pieces.append(f"{',' if number else '{'}{compact(key)}:")
        pieces += value
    pieces.append("}\n")
    return pieces


def compact(value: Any) -> str:
    """A value as the manifest's JSON text holds it."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
