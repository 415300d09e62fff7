"""A configuration proved valid without jsonschema (issue 12: importing it is a
third of an everyday push), never where jsonschema would refuse it.

`satisfies` may answer None (not decided); where it answers, it must agree with
jsonschema's Draft 2020-12 validator: a True it should not give would let a bad
configuration through. So its answers are compared with jsonschema's over
thousands of configurations made from the README's by random edits, and over
schemas made to trap it.
"""

import copy
import datetime
import json
import math
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml
from repos import FIXTURES, PROJECT_ROOT

from gitreview.config import load_schema
from gitreview.schema_check import satisfies

SCHEMA = load_schema("config.schema.json")


def readme_configuration() -> str:
    """The README's example `.gitreview.yml`, every key set."""
    text = (PROJECT_ROOT / "README.md").read_text("utf-8")
    blocks: list[str] = re.findall(r"```yaml\n(.*?)```", text, re.DOTALL)
    [block] = [block for block in blocks if "frontmatter_schemas:" in block and "roles:" in block]
    return block


def fixture_configurations() -> list[str]:
    """Every `.gitreview.yml` the fixture repositories commit."""
    found = []
    for path in sorted(FIXTURES.glob("*.yml")):
        for commit in yaml.safe_load(path.read_text("utf-8")).get("commits", []):
            text = (commit.get("files") or {}).get(".gitreview.yml")
            if isinstance(text, str):
                found.append(text)
    return found


def jsonschema_says(instance: object, schema: object) -> bool:
    return bool(jsonschema.Draft202012Validator(schema).is_valid(instance))


# Values an edit puts in place: of every JSON type, the edges of the schema's bounds,
# and what YAML gives that JSON has no type for.
VALUES: list[Any] = [
    0,
    1,
    -1,
    2,
    0.0,
    0.5,
    1.0,
    -0.5,
    math.nan,
    math.inf,
    -math.inf,
    True,
    False,
    None,
    "",
    "x",
    "docs",
    "Docs",
    "a-b_1",
    "1abc",
    "error",
    "warning",
    "info",
    "off",
    "never",
    "sometimes",
    "**/*.md",
    [],
    [""],
    ["x"],
    ["a", 1],
    [None],
    {},
    {"x": 1},
    {"paths": ["x"]},
    {"paths": ["x"], "schema": "s.json"},
    {"paths": [], "schema": {}},
    {"paths": ["x"], "schema": ""},
    {"budget": 1},
    {"budget": 0},
    {"kinds": ["python"], "rules": ["text/*"]},
    {1: "x"},
    datetime.date(2026, 1, 1),
]


def mutated(base: Any, rng: random.Random) -> Any:
    """`base` with one to three values replaced, keys added or removed at random."""
    value = copy.deepcopy(base)
    for _ in range(rng.randint(1, 3)):
        value = _edit(value, rng)
    return value


def _edit(value: Any, rng: random.Random) -> Any:
    if isinstance(value, dict) and value and rng.random() < 0.7:
        key = rng.choice(sorted(value, key=str))
        choice = rng.random()
        if choice < 0.15:
            del value[key]
        elif choice < 0.3:
            value[rng.choice(["extra", "Role", "ok_role", "-x", f"{key}2", 7])] = rng.choice(VALUES)
        else:
            value[key] = _edit(value[key], rng)
        return value
    if isinstance(value, list) and value and rng.random() < 0.7:
        index = rng.randrange(len(value))
        if rng.random() < 0.2:
            del value[index]
        else:
            value[index] = _edit(value[index], rng)
        return value
    return copy.deepcopy(rng.choice(VALUES))


def test_the_readme_and_fixture_configurations_are_decided_valid() -> None:
    texts = [readme_configuration(), *fixture_configurations()]
    assert len(texts) > 3
    for text in texts:
        data = yaml.safe_load(text)
        assert jsonschema_says(data, SCHEMA)
        assert satisfies(data, SCHEMA) is True, text


def test_answers_agree_with_jsonschema_on_edited_configurations() -> None:
    rng = random.Random(12)
    bases = [yaml.safe_load(readme_configuration())]
    bases += [yaml.safe_load(text) for text in fixture_configurations()]
    answered = {True: 0, False: 0, None: 0}
    for _ in range(4000):
        instance = mutated(rng.choice(bases), rng)
        answer = satisfies(instance, SCHEMA)
        answered[answer] += 1
        if answer is not None:
            assert answer == jsonschema_says(instance, SCHEMA), instance
    # It decides most of them, both ways: otherwise it would spare nobody jsonschema.
    assert answered[True] > 200 and answered[False] > 2000, answered


@pytest.mark.parametrize(
    ("schema", "instance"),
    [
        ({"type": "integer"}, 1.0),  # an integer to some drafts, not to others
        ({"type": "integer"}, True),
        ({"type": "number"}, False),
        ({"minimum": 1}, math.nan),  # below nothing: valid to jsonschema
        ({"exclusiveMinimum": 0}, math.nan),
        ({"minimum": 1}, True),  # not a number: the bound does not apply
        ({"type": "string"}, datetime.date(2026, 1, 1)),
        ({"enum": [1, True]}, 1),
        ({"enum": ["1"]}, 1),
        ({"items": {"type": "string"}, "prefixItems": [{"type": "integer"}]}, [1, "a"]),
        ({"additionalProperties": False, "patternProperties": {"^x": {}}}, {"x1": 1}),
        ({"additionalProperties": False, "properties": {"a": {}}}, {"a": 1, "b": 2}),
        ({"oneOf": [{"type": "string"}, {"minLength": 1}]}, "abc"),  # both: invalid
        ({"oneOf": [{"type": "string"}, {"type": "integer"}]}, "abc"),
        (
            {"oneOf": [{"type": "array"}, {"items": {"type": "integer"}, "prefixItems": [{}]}]},
            ["a"],
        ),  # the second is valid too: prefixItems covers the one item
        ({"oneOf": [{"type": "array"}, {"type": "array", "$ref": "#"}]}, []),
        ({"propertyNames": {"pattern": "^[a-z]+$"}}, {"ab": 1, "Cd": 2}),
        ({"propertyNames": {"pattern": "^[a-z]+$"}}, {1: 2}),
        ({"required": ["a"]}, {"b": 1}),
        ({"required": ["a"]}, ["a"]),
        ({"minItems": 1}, []),
        ({"minLength": 2}, "é"),
        ({"type": ["string", "null"]}, None),
        ({"type": ["string", "integer"]}, 1.5),
        ({"not": {"type": "string"}}, 1),
        ({"type": "object", "format": "email"}, {}),
        (True, 1),
        (False, 1),
    ],
)
def test_answers_agree_with_jsonschema_on_traps(schema: Any, instance: object) -> None:
    answer = satisfies(instance, schema)
    if answer is not None:
        assert answer == jsonschema_says(instance, schema)


def test_a_valid_configuration_is_read_without_importing_jsonschema(tmp_path: Path) -> None:
    """The point of it: measured in a fresh process, where nothing imported it yet."""
    config = tmp_path / "gitreview.yml"
    config.write_text(readme_configuration(), "utf-8")
    bad = tmp_path / "bad.yml"
    bad.write_text("fail_on: sometimes\n", "utf-8")
    program = (
        "import sys\n"
        "from gitreview.config import parse_config\n"
        "from gitreview.errors import UserError\n"
        "parse_config(open(sys.argv[1], 'rb').read(), 'x')\n"
        "print('jsonschema' in sys.modules)\n"
        "try:\n"
        "    parse_config(open(sys.argv[2], 'rb').read(), 'x')\n"
        "except UserError as error:\n"
        "    print(error.message)\n"
        "print('jsonschema' in sys.modules)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", program, str(config), str(bad)],
        capture_output=True,
        text=True,
        check=True,
        cwd=PROJECT_ROOT,
    )
    assert result.stdout.splitlines() == [
        "False",
        "x: key 'fail_on': 'sometimes' is not one of ['error', 'warning', 'info', 'never']",
        "True",
    ]


def test_the_schema_keeps_to_what_is_decided_here() -> None:
    """A keyword added to the configuration's schema that `satisfies` does not know
    would quietly send every configuration back to jsonschema: this says so."""
    from gitreview.schema_check import _ANNOTATIONS, _KEYWORDS

    used: set[str] = set()

    def walk(schema: object, *, named: bool = False) -> None:
        if isinstance(schema, dict):
            for key, value in schema.items():
                if not named:
                    used.add(key)
                # The keys of `properties` are names, not keywords.
                walk(value, named=key == "properties" and not named)
        elif isinstance(schema, list):
            for item in schema:
                walk(item)

    walk(json.loads((PROJECT_ROOT / "schemas" / "config.schema.json").read_text("utf-8")))
    assert used - _ANNOTATIONS - set(_KEYWORDS) == set()
