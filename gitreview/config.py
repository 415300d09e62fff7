"""Loading and validating .gitreview.yml.

The file is read from the base commit of the range, the trusted side (issue
11: a pull request must not loosen its own review); from the head commit when
there is no base; never from the working tree; or from the path given with
--config. It is checked against schemas/config.schema.json; a
bad key is an error naming the key and the file.
"""

from __future__ import annotations

import json
import posixpath
from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from gitreview.errors import Exit, UserError
from gitreview.sites import Site

CONFIG_FILE = ".gitreview.yml"
SEVERITIES = ("info", "warning", "error")
# More values than any configuration needs: a bound on what an alias bomb costs.
MAX_NODES = 100_000


DEFAULT_METADATA_KEYS = ("updated", "last_updated", "last_modified", "lastmod", "modified")


class FrontmatterSchema(NamedTuple):
    paths: tuple[str, ...]
    schema: str | Mapping[str, Any]  # a path in the repository, or the schema itself
    # A path's text, read by the pipeline from the trusted tree (issue 11), and which
    # commit that was ("base" or "head"); None when not read (a patch has no tree).
    text: str | None = None
    read_from: str | None = None


class Role(NamedTuple):
    """A reviewer role: what it reviews, and how much its brief may inline (issue #10)."""

    name: str
    paths: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()
    rules: tuple[str, ...] = ()
    budget: int | None = None
    instructions: str | None = None  # a path in the repository


class Config(NamedTuple):
    generated: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    fail_on: str = "error"
    max_file_bytes: int = 1_000_000
    proof_seconds: float = 60.0
    detect_copies: bool = True
    rules: Mapping[str, str] = {}  # rule id -> severity or "off" (never changed in place)
    large_file_bytes: int = 1_000_000
    metadata_keys: tuple[str, ...] = DEFAULT_METADATA_KEYS
    frontmatter_schemas: tuple[FrontmatterSchema, ...] = ()
    roles: tuple[Role, ...] = ()
    # Not configured: what the documentation sites' own configuration, at both ends
    # of the range, makes of its pages (sites.py), read by the pipeline.
    site: Site = Site()


def load_schema(name: str) -> dict[str, Any]:
    """One of the package's JSON Schemas."""
    from gitreview.packaged import packaged

    schema: dict[str, Any] = json.loads(packaged("schemas", name).decode("utf-8"))
    return schema


def parse_config(text: bytes | str, source: str) -> Config:
    """Parse and validate configuration text; `source` names it in errors."""
    import yaml

    try:
        # A range under review may bring its own configuration (issue 11): an alias
        # bomb must cost a bounded count, not the loading and validating it would.
        if _expanded_nodes(yaml.compose(text, Loader=yaml.SafeLoader)) > MAX_NODES:
            raise UserError(
                f"{source}: more than {MAX_NODES} values once its aliases are expanded",
                status=Exit.CONFIG,
            )
        data = yaml.safe_load(text)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f" line {mark.line + 1}" if mark is not None else ""
        problem = getattr(error, "problem", None) or "not valid YAML"
        raise UserError(f"{source}:{where}: {problem}", status=Exit.CONFIG) from None
    except RecursionError:
        raise UserError(f"{source}: nested too deeply", status=Exit.CONFIG) from None
    except ValueError as error:  # a value YAML recognises but cannot build: 2024-02-30
        raise UserError(f"{source}: {error}", status=Exit.CONFIG) from None
    if data is None:
        return Config()
    _validate(data, source)
    defaults = Config()
    return Config(
        generated=tuple(data.get("generated", ())),
        ignore=tuple(data.get("ignore", ())),
        fail_on=data.get("fail_on", defaults.fail_on),
        max_file_bytes=data.get("max_file_bytes", defaults.max_file_bytes),
        proof_seconds=data.get("proof_seconds", defaults.proof_seconds),
        detect_copies=data.get("detect_copies", defaults.detect_copies),
        rules=dict(data.get("rules", {})),
        large_file_bytes=data.get("large_file_bytes", defaults.large_file_bytes),
        metadata_keys=tuple(data.get("metadata_keys", defaults.metadata_keys)),
        frontmatter_schemas=tuple(
            FrontmatterSchema(
                tuple(item["paths"]),
                _in_repository(item["schema"], f"{source}: frontmatter_schemas: schema")
                if isinstance(item["schema"], str)
                else item["schema"],
            )
            for item in data.get("frontmatter_schemas", ())
        ),
        roles=tuple(
            Role(
                name,
                paths=tuple(role.get("paths", ())),
                kinds=tuple(role.get("kinds", ())),
                rules=tuple(role.get("rules", ())),
                budget=role.get("budget"),
                instructions=None
                if role.get("instructions") is None
                else _in_repository(role["instructions"], f"{source}: roles.{name}.instructions"),
            )
            for name, role in data.get("roles", {}).items()
        ),
    )


def _in_repository(path: str, where: str) -> str:
    """A path the configuration names in the repository, as the tree and every rule
    name it (`./review/docs.md` and `/review/docs.md` are `review/docs.md`: the trust
    rules must know it as the file read, or the range could edit it unseen)."""
    normal = posixpath.normpath(path.lstrip("/"))
    if normal in (".", "..") or normal.startswith("../"):
        raise UserError(f"{where}: {path} is outside the repository", status=Exit.CONFIG)
    return normal


def _expanded_nodes(root: Any) -> int:
    """How many nodes the YAML document has once every alias is expanded (an alias
    is the same node object again), counted without expanding them."""
    import yaml

    if root is None:
        return 0
    sizes: dict[int, int] = {}
    visiting: set[int] = set()  # on the path from the root: met again, it is a cycle
    stack: list[tuple[Any, bool]] = [(root, False)]
    while stack:
        node, children_done = stack.pop()
        if id(node) in sizes:
            continue
        if not children_done:
            if id(node) in visiting:
                return MAX_NODES + 1  # an alias inside its own anchor: endless expanded
            visiting.add(id(node))
        children: list[Any] = []
        if isinstance(node, yaml.SequenceNode):
            children = list(node.value)
        elif isinstance(node, yaml.MappingNode):
            children = [part for pair in node.value for part in pair]
        if children_done or not children:
            sizes[id(node)] = 1 + sum(sizes[id(child)] for child in children)
            continue
        stack.append((node, True))
        stack.extend((child, False) for child in children if id(child) not in sizes)
    return sizes[id(root)]


def check_rule_ids(config: Config, known: Iterable[str], source: str) -> None:
    """A rule the configuration names must exist: a typo would silently do nothing."""
    names = set(known)
    for rule in config.rules:
        if rule not in names:
            raise UserError(
                f"{source}: unknown rule 'rules.{rule}'",
                status=Exit.CONFIG,
                hint="the README lists every rule",
            )


def _validate(data: object, source: str) -> None:
    from gitreview.schema_check import satisfies

    schema = load_schema("config.schema.json")
    if satisfies(data, schema) is True:
        return  # jsonschema is not imported: a tenth of a second (schema_check.py)
    import jsonschema

    validator = jsonschema.Draft202012Validator(schema)
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
