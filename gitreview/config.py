"""Loading and validating .gitreview.yml.

The file is read from the head commit (never the working tree), or from the
path given with --config. It is checked against schemas/config.schema.json; a
bad key is an error naming the key and the file.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

from gitreview.errors import Exit, UserError

CONFIG_FILE = ".gitreview.yml"
SEVERITIES = ("info", "warning", "error")


@dataclass(frozen=True)
class Config:
    generated: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    fail_on: str = "error"
    max_file_bytes: int = 1_000_000
    detect_copies: bool = True


def load_schema(name: str) -> dict[str, Any]:
    text = resources.files("gitreview").joinpath("schemas").joinpath(name).read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


def parse_config(text: bytes | str, source: str) -> Config:
    """Parse and validate configuration text; `source` names it in errors."""
    import yaml

    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f" line {mark.line + 1}" if mark is not None else ""
        problem = getattr(error, "problem", None) or "not valid YAML"
        raise UserError(f"{source}:{where}: {problem}", status=Exit.CONFIG) from None
    if data is None:
        return Config()
    _validate(data, source)
    return Config(
        generated=tuple(data.get("generated", ())),
        ignore=tuple(data.get("ignore", ())),
        fail_on=data.get("fail_on", "error"),
        max_file_bytes=data.get("max_file_bytes", 1_000_000),
        detect_copies=data.get("detect_copies", True),
    )


def _validate(data: object, source: str) -> None:
    import jsonschema

    validator = jsonschema.Draft202012Validator(load_schema("config.schema.json"))
    errors = sorted(validator.iter_errors(data), key=lambda e: list(map(str, e.absolute_path)))
    if not errors:
        return
    error = errors[0]
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        allowed = set(error.schema.get("properties", {}))
        unknown = sorted(str(key) for key in error.instance if key not in allowed)
        where = _key_path(error.absolute_path, unknown[0])
        raise UserError(
            f"{source}: unknown key '{where}'",
            status=Exit.CONFIG,
            hint=f"known keys: {', '.join(sorted(allowed))}",
        )
    if not error.absolute_path:
        raise UserError(f"{source}: must be a mapping of keys to values", status=Exit.CONFIG)
    where = _key_path(error.absolute_path)
    raise UserError(f"{source}: key '{where}': {error.message}", status=Exit.CONFIG)


def _key_path(path: Any, last: str | None = None) -> str:
    parts = [str(part) for part in path]
    if last is not None:
        parts.append(last)
    return ".".join(parts)
