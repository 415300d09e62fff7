"""Markdown frontmatter: valid YAML, a mapping, and what the configured schemas require.

`frontmatter_schemas` in .gitreview.yml maps path globs to JSON Schemas
(Draft 2020-12, `format` checked), each given inline or as a JSON or YAML file
read from the base commit (the trusted side, issue 11; the head without a base).
YAML dates are checked as ISO 8601 strings, which is what they are in the file:
JSON has no date type.
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Iterator, Mapping
from typing import Any, NamedTuple

from gitreview.analyze.links import HeadIndex
from gitreview.analyze.markdown import FRONTMATTER_SCHEMA, INVALID_FRONTMATTER
from gitreview.analyze.markdown_doc import Frontmatter
from gitreview.config import FrontmatterSchema
from gitreview.globs import match_any
from gitreview.model import Finding

_TYPE_NAMES = {
    list: "a list",
    str: "a string",
    int: "a number",
    float: "a number",
    bool: "a boolean",
}


class Metadata(NamedTuple):
    """A frontmatter block read as YAML."""

    data: Mapping[str, Any] | None  # None when the block is not a valid mapping
    key_lines: Mapping[str, int] = {}  # never changed in place
    problem: Finding | None = None


def read(block: Frontmatter, path: str) -> Metadata:
    import yaml  # imported when a run needs it: start-up dominates small pushes

    # The pure-Python loader: frontmatter is small, and libyaml words its errors
    # differently, so a finding would depend on how PyYAML was installed.
    loader = yaml.SafeLoader(block.content)
    content_line = block.first + 1  # the line after the opening `---`
    try:
        node = loader.get_single_node()
        data = None if node is None else loader.construct_document(node)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        line = content_line + mark.line if mark is not None else block.first
        problem = getattr(error, "problem", None) or "cannot be read"
        return _invalid(path, line, f"frontmatter is not valid YAML: {problem}")
    except ValueError as error:  # a value YAML recognises but cannot build: 2024-13-45
        return _invalid(path, block.first, f"frontmatter is not valid YAML: {error}")
    finally:
        loader.dispose()
    if node is None or data is None:
        return Metadata({})  # an empty block: no keys
    if not isinstance(data, dict):
        kind = _TYPE_NAMES.get(type(data), "a single value")
        message = f"frontmatter is {kind}, not a mapping of keys to values"
        return _invalid(path, block.first, message)
    key_lines = {str(key.value): content_line + key.start_mark.line for key, _ in node.value}
    return Metadata(_as_json(data), key_lines)


def _invalid(path: str, line: int, message: str) -> Metadata:
    rule = INVALID_FRONTMATTER
    return Metadata(None, problem=Finding(rule.id, rule.severity, path, line, message))


def _as_json(value: Any) -> Any:
    """YAML's values as JSON Schema sees JSON: dates as ISO strings, keys as strings."""
    if isinstance(value, dict):
        return {str(key): _as_json(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_as_json(item) for item in value]
    if isinstance(value, (datetime.date, datetime.datetime)):
        return value.isoformat()
    return value


def check_schemas(
    metadata: Metadata,
    block: Frontmatter | None,
    path: str,
    schemas: tuple[FrontmatterSchema, ...],
    index: HeadIndex | None,
) -> Iterator[Finding]:
    """A finding per problem, for every schema whose globs match `path`. A file
    without frontmatter is checked as an empty mapping: its required keys are missing."""
    if metadata.data is None:
        return  # invalid frontmatter is its own finding
    fallback_line = block.first if block is not None else 1
    for entry in schemas:
        if not match_any(entry.paths, path):
            continue
        schema = _load(entry, index)
        if schema is None:
            continue  # a patch: no tree to read the schema from
        if isinstance(schema, str):
            yield Finding(FRONTMATTER_SCHEMA.id, FRONTMATTER_SCHEMA.severity, path, None, schema)
            continue
        for key, message in _problems(schema, metadata.data):
            line = metadata.key_lines.get(key.split(".")[0], fallback_line)
            yield Finding(FRONTMATTER_SCHEMA.id, FRONTMATTER_SCHEMA.severity, path, line, message)


def _load(entry: FrontmatterSchema, index: HeadIndex | None) -> Mapping[str, Any] | str | None:
    """The schema, why it cannot be used, or None when there is no tree to read it from."""
    import jsonschema

    source = entry.schema
    if isinstance(source, str):
        name = f"frontmatter schema '{source}'"
        if entry.read_from is not None:  # read from the trusted tree (issue 11)
            text, side = entry.text, entry.read_from
        elif index is None:
            return None
        else:
            text, side = index.text(source.lstrip("/")), "head"
        if text is None:
            return f"{name} does not exist at {side}"
        schema = _parse_schema(text, source)
        if schema is None:
            return f"{name} is not a JSON or YAML mapping"
    else:
        name, schema = "the inline frontmatter schema", source
    try:
        jsonschema.Draft202012Validator.check_schema(schema)
    except jsonschema.SchemaError as error:
        return f"{name} is not a valid JSON Schema: {error.message}"
    return schema


def _parse_schema(text: str, source: str) -> Mapping[str, Any] | None:
    import yaml

    try:
        schema = json.loads(text) if source.endswith(".json") else yaml.safe_load(text)
    except (ValueError, yaml.YAMLError):
        return None
    return schema if isinstance(schema, dict) else None


def _problems(schema: Mapping[str, Any], data: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    """(key path, message) for each problem, naming the key."""
    import jsonschema

    validator = jsonschema.Draft202012Validator(
        schema, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
    )
    reported: set[tuple[str, str]] = set()
    errors = sorted(validator.iter_errors(data), key=lambda e: (list(map(str, e.path)), e.message))
    for error in errors:
        where = ".".join(str(part) for part in error.absolute_path)
        for key, message in _explain(error, where):
            if (key, message) not in reported:
                reported.add((key, message))
                yield key, message


def _explain(error: Any, where: str) -> Iterator[tuple[str, str]]:
    """jsonschema's `required` and `additionalProperties` errors name the key only in
    prose; the key is the point of the finding, so it comes first."""
    prefix = f"{where}." if where else ""
    instance = error.instance
    if error.validator == "required" and isinstance(instance, dict):
        for key in error.validator_value:
            if key not in instance:
                yield prefix + key, f"frontmatter key '{prefix}{key}' is required"
    elif error.validator == "additionalProperties" and isinstance(instance, dict):
        for key in _unexpected(error.schema, instance):
            yield prefix + key, f"frontmatter key '{prefix}{key}' is not allowed"
    elif where:
        yield where, f"frontmatter key '{where}': {error.message}"
    else:
        yield "", f"frontmatter: {error.message}"


def _unexpected(schema: Mapping[str, Any], instance: Mapping[str, Any]) -> list[str]:
    import re

    named = schema.get("properties", {})
    patterns = [re.compile(pattern) for pattern in schema.get("patternProperties", {})]
    return [
        key
        for key in instance
        if key not in named and not any(pattern.search(key) for pattern in patterns)
    ]
