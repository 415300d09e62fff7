"""Markdown front matter where only listed keys changed (dates such as `updated`).

Two independent checks, both required: the text outside the listed keys' entries
(the body, the delimiters, every other entry and comment) is byte for byte the same,
and the loaded data differ only under listed keys (which catches an alias that
carries a listed value into another key).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any, NamedTuple

MAX_FRONT_MATTER_CHARS = 65_536
ABSENT = object()  # the value of a key that is not there


class FrontMatter(NamedTuple):
    lines: list[str]  # the YAML between the delimiters
    frame: str  # everything else: the opening line, the closing line and the body


def front_matter(text: str) -> FrontMatter | None:
    """YAML front matter: a first line `---`, closed by a line `---` or `...`."""
    lines = text.split("\n")
    if lines[0].rstrip("\r") != "---":
        return None
    for index in range(1, len(lines)):
        if lines[index].rstrip("\r") in ("---", "..."):
            return FrontMatter(lines[1:index], lines[0] + "\n" + "\n".join(lines[index:]))
    return None


def changed_keys(
    old: FrontMatter, new: FrontMatter, listed: Collection[str]
) -> list[tuple[str, object, object]] | None:
    """The listed keys whose value changed, with the old and new values (or ABSENT),
    when nothing else changed; else None."""
    if old.frame != new.frame:
        return None
    old_yaml, new_yaml = "\n".join(old.lines), "\n".join(new.lines)
    if max(len(old_yaml), len(new_yaml)) > MAX_FRONT_MATTER_CHARS:
        return None
    old_parsed, new_parsed = _parse(old_yaml, listed), _parse(new_yaml, listed)
    if old_parsed is None or new_parsed is None:
        return None
    (old_data, old_entries), (new_data, new_entries) = old_parsed, new_parsed
    if _without(old.lines, old_entries) != _without(new.lines, new_entries):
        return None
    changed = [
        key
        for key in {*old_data, *new_data}
        if old_data.get(key, ABSENT) != new_data.get(key, ABSENT)
    ]
    if not all(isinstance(key, str) and key in listed for key in changed):
        return None
    if any(key.lower() in _DATES_FALLEN_BACK_ON for key in changed) and not (
        _dated(old_data) and _dated(new_data)
    ):
        return None  # Hugo dates a page by its lastmod when it has no date of its own
    return [(key, old_data.get(key, ABSENT), new_data.get(key, ABSENT)) for key in sorted(changed)]


def _dated(data: dict[Any, Any]) -> bool:
    """Whether front matter gives its page a date of its own: Hugo's `.Date` is the
    first of `date`, `publishDate`, `pubdate`, `published`, `lastmod` and `modified`
    (any case) that it has, so without the first four, `lastmod` or `modified` dates
    the page and orders it in lists (found by adversarial reviews)."""
    return any(isinstance(key, str) and key.lower() in _OWN_DATES for key in data)


_OWN_DATES = frozenset({"date", "publishdate", "pubdate", "published"})
_DATES_FALLEN_BACK_ON = frozenset({"lastmod", "modified"})


def _parse(text: str, listed: Collection[str]) -> tuple[dict[Any, Any], set[int]] | None:
    """The data, and the lines (0-based) of the listed keys' top-level entries."""
    import yaml  # imported when a Markdown file with front matter changed: start-up

    # One safe loader composes the text once: the entries are read off its nodes, then
    # the data is built from them (which flattens merge keys in the nodes).
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return {}, set()  # empty front matter: no keys at all
        if not isinstance(node, yaml.MappingNode) or node.flow_style:
            return None
        keys = [key.value for key, _ in node.value if isinstance(key, yaml.ScalarNode)]
        if len(keys) != len(set(keys)):
            return None  # a key named twice: PyYAML keeps the last, others refuse the file
        entries: set[int] = set()
        for key, value in node.value:
            if (
                isinstance(key, yaml.ScalarNode)
                and key.tag == "tag:yaml.org,2002:str"
                and key.value in listed
                and isinstance(value, yaml.ScalarNode)
                # Plain (libyaml says "") or quoted; not a block scalar, whose end is fuzzy.
                and value.style in (None, "", "'", '"')
            ):
                entries.update(range(key.start_mark.line, value.end_mark.line + 1))
        data = loader.construct_document(node)
    except (yaml.YAMLError, ValueError, RecursionError):  # ValueError: 2024-02-30
        return None
    finally:
        loader.dispose()
    return (data, entries) if isinstance(data, dict) else None


def _without(lines: list[str], entries: set[int]) -> list[str]:
    return [line for index, line in enumerate(lines) if index not in entries]
