"""Whether a value satisfies a JSON Schema, decided without jsonschema where the
schema keeps to a few keywords (issue 12).

Importing jsonschema takes 0.1-0.15 s: a third of an everyday push in a
repository that has a configuration, whose validity is all the push asks of it.
`satisfies` answers True or False only where it is certain to agree with
jsonschema's Draft 2020-12 validator, and None anywhere else: a keyword it does
not know, a float where an integer is wanted, a mapping key that is not a
string, a value YAML gives that JSON has no type for. A caller asks jsonschema
whenever the answer is not True; jsonschema also words the errors.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

Answer = bool | None  # None: not decided here, ask jsonschema

# Keywords that never make a value invalid.
_ANNOTATIONS = frozenset(
    {
        "$schema",
        "$id",
        "$comment",
        "title",
        "description",
        "default",
        "examples",
        "deprecated",
        "readOnly",
        "writeOnly",
    }
)
# What JSON holds, as Python decodes it; any other value (a date from YAML, a tuple)
# is left to jsonschema.
_JSON = (dict, list, str, int, float, bool, type(None))


def satisfies(instance: object, schema: object) -> Answer:
    """True: valid under `schema`; False: invalid; None: not decided here."""
    if isinstance(schema, bool):
        return schema
    if not isinstance(schema, Mapping) or not isinstance(instance, _JSON):
        return None
    if isinstance(instance, dict) and not all(isinstance(key, str) for key in instance):
        return None
    answer: Answer = True
    for keyword, value in schema.items():
        if keyword in _ANNOTATIONS:
            continue
        check = _KEYWORDS.get(keyword)
        found = None if check is None else check(instance, value, schema)
        if found is False:
            return False  # jsonschema finds this error too, whatever else it finds
        if found is None:
            answer = None
    return answer


def _all(answers: Any) -> Answer:
    """False if any is False, else None if any is None, else True."""
    result: Answer = True
    for answer in answers:
        if answer is False:
            return False
        if answer is None:
            result = None
    return result


def _type(instance: object, value: object, _schema: Mapping[str, Any]) -> Answer:
    names = [value] if isinstance(value, str) else value
    if not isinstance(names, list) or not names:
        return None
    answers = [_is_type(instance, name) for name in names]
    if True in answers:
        return True
    return None if None in answers else False


def _is_type(instance: object, name: object) -> Answer:
    if name == "integer":
        if isinstance(instance, float):
            return None  # jsonschema's own rule for 1.0 is not repeated here
        return isinstance(instance, int) and not isinstance(instance, bool)
    if name == "number":
        return isinstance(instance, (int, float)) and not isinstance(instance, bool)
    kinds: dict[object, type | tuple[type, ...]] = {
        "object": dict,
        "array": list,
        "string": str,
        "boolean": bool,
        "null": type(None),
    }
    kind = kinds.get(name)
    return None if kind is None else isinstance(instance, kind)


def _number(instance: object) -> bool:
    return isinstance(instance, (int, float)) and not isinstance(instance, bool)


def _enum(instance: object, value: object, _schema: Mapping[str, Any]) -> Answer:
    if not isinstance(value, list) or not isinstance(instance, str):
        return None
    if not all(isinstance(each, str) for each in value):
        return None
    return instance in value


def _min_length(instance: object, value: object, _schema: Mapping[str, Any]) -> Answer:
    if not isinstance(value, int) or isinstance(value, bool):
        return None
    return len(instance) >= value if isinstance(instance, str) else True


def _minimum(instance: object, value: object, _schema: Mapping[str, Any]) -> Answer:
    if not _number(value):
        return None
    # As jsonschema compares (a NaN is below nothing).
    return not instance < value if _number(instance) else True  # type: ignore[operator]


def _exclusive_minimum(instance: object, value: object, _schema: Mapping[str, Any]) -> Answer:
    if not _number(value):
        return None
    return not instance <= value if _number(instance) else True  # type: ignore[operator]


def _min_items(instance: object, value: object, _schema: Mapping[str, Any]) -> Answer:
    if not isinstance(value, int) or isinstance(value, bool):
        return None
    return len(instance) >= value if isinstance(instance, list) else True


def _items(instance: object, value: object, schema: Mapping[str, Any]) -> Answer:
    if not isinstance(value, (Mapping, bool)) or "prefixItems" in schema:
        return None  # prefixItems takes the first items out of its reach
    if not isinstance(instance, list):
        return True
    return _all(satisfies(item, value) for item in instance)


def _properties(instance: object, value: object, _schema: Mapping[str, Any]) -> Answer:
    if not isinstance(value, Mapping):
        return None
    if not isinstance(instance, dict):
        return True
    return _all(satisfies(instance[key], value[key]) for key in instance if key in value)


def _additional_properties(instance: object, value: object, schema: Mapping[str, Any]) -> Answer:
    if not isinstance(value, (Mapping, bool)) or "patternProperties" in schema:
        return None  # keys a pattern matches are not additional
    if not isinstance(instance, dict):
        return True
    named = schema.get("properties", {})
    if not isinstance(named, Mapping):
        return None
    return _all(satisfies(instance[key], value) for key in instance if key not in named)


def _required(instance: object, value: object, _schema: Mapping[str, Any]) -> Answer:
    if not isinstance(value, list) or not all(isinstance(key, str) for key in value):
        return None
    return all(key in instance for key in value) if isinstance(instance, dict) else True


def _property_names(instance: object, value: object, _schema: Mapping[str, Any]) -> Answer:
    if not isinstance(value, (Mapping, bool)):
        return None
    if not isinstance(instance, dict):
        return True
    return _all(satisfies(key, value) for key in instance)


def _pattern(instance: object, value: object, _schema: Mapping[str, Any]) -> Answer:
    if not isinstance(value, str):
        return None
    if not isinstance(instance, str):
        return True
    try:
        return re.search(value, instance) is not None  # what jsonschema runs
    except re.error:
        return None


def _one_of(instance: object, value: object, _schema: Mapping[str, Any]) -> Answer:
    if not isinstance(value, list) or not value:
        return None
    answers = [satisfies(instance, each) for each in value]
    if None in answers:
        return None
    return answers.count(True) == 1


_Check = Callable[[object, object, Mapping[str, Any]], Answer]
_KEYWORDS: dict[str, _Check] = {
    "type": _type,
    "enum": _enum,
    "minLength": _min_length,
    "minimum": _minimum,
    "exclusiveMinimum": _exclusive_minimum,
    "minItems": _min_items,
    "items": _items,
    "properties": _properties,
    "additionalProperties": _additional_properties,
    "required": _required,
    "propertyNames": _property_names,
    "pattern": _pattern,
    "oneOf": _one_of,
}
