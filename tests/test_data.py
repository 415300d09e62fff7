"""JSON, YAML and TOML that do not load at head (issue #5), and what must still load:
JSON with comments where tools allow them, YAML application tags, templated YAML."""

import json
from typing import Any

import pytest
from findings import analysis_of, findings_of, hunk_at, manifest_with_findings, rows
from manifests import files_by_path, review_items
from repos import RepoFactory


def _json_error(text: str) -> tuple[int, str]:
    """Where this Python's json module stops reading `text`, and what it says."""
    try:
        json.loads(text)
    except json.JSONDecodeError as error:
        return error.lineno, f"{error.msg} (column {error.colno})"
    raise AssertionError("the text loads")


@pytest.fixture(scope="module")
def findings_manifest(fixture_repo: RepoFactory) -> dict[str, Any]:
    return manifest_with_findings("--repo", fixture_repo("findings"), "v1..v2")


def test_files_that_do_not_load_are_errors_at_their_line(
    findings_manifest: dict[str, Any],
) -> None:
    # tsconfig.json (comments, trailing commas), data/stack.yml (!Ref, an odd date) and
    # chart/templates/deploy.yaml (Helm) load, or are not checked.
    # Python's own words, which 3.13 changed ("Illegal trailing comma", at its line).
    line, said = _json_error('{\n  "a": 1,\n  "b": 2,\n  }\n')
    assert findings_of(findings_manifest, "data/") == [
        ("data/syntax", "error", "data/broken-before.json", line, f"invalid JSON: {said}"),
        (
            "data/syntax",
            "error",
            "data/config.json",
            3,
            "invalid JSON: Expecting ',' delimiter (column 3)",
        ),
        (
            "data/syntax",
            "error",
            "data/settings.yml",
            3,
            "invalid YAML: mapping values are not allowed here",
        ),
        (
            "data/syntax",
            "error",
            "data/tool.toml",
            3,
            "invalid TOML: Expected newline or end of document after a statement",
        ),
    ]


def test_an_error_makes_a_whitespace_only_hunk_significant(
    findings_manifest: dict[str, Any],
) -> None:
    # data/broken-before.json did not load before either; v2 only re-indents the line
    # the parser stops at, which alone would be trivial (whitespace).
    entry = files_by_path(findings_manifest)["data/broken-before.json"]
    assert (entry["classification"], entry["reasons"]) == ("significant", ["finding"])
    hunk = hunk_at(findings_manifest, "data/broken-before.json", 4)
    assert (hunk["classification"], hunk["reasons"]) == ("significant", ["finding"])
    assert hunk["handle"] in [item["handle"] for item in review_items(findings_manifest)]


@pytest.mark.parametrize(
    ("path", "text"),
    [
        (".vscode/settings.json", '{\n  // editor\n  "a": [1, 2,],\n}\n'),
        ("tsconfig.base.json", '{"compilerOptions": {"strict": true, /* why */},}\n'),
        # A twelfth review: the root's devcontainer and tools that take comments.
        (".devcontainer.json", "// For format details, see https://aka.ms/devcontainer.json\n{}\n"),
        ("turbo.json", '{\n  // the pipeline\n  "tasks": {},\n}\n'),
        (
            "config/api-extractor.json",
            '/**\n * Config file\n */\n{"mainEntryPointFilePath": "x"}\n',
        ),
        # A thirteenth review: .NET's configuration, read with comments.
        ("src/Web/appsettings.Development.json", '{\n  // local\n  "Logging": {},\n}\n'),
        ("src/Web/Properties/launchSettings.json", '{\n  /* profiles */\n  "profiles": {}\n}\n'),
        ("a.json", '\ufeff{"a": 1}\n'),
        ("a.yml", "a: !include other.yml\nb: !!python/name:os.sep\n---\nc: 1\n"),
        ("templates/a.yaml", "name: {{ .Values.name }}\n"),
        ("roles/main.yml", "{% if x %}\na: 1\n{% endif %}\n"),
        ("a.toml", '[a]\nb = """\nmulti\n"""\n'),
    ],
)
def test_near_misses_load(path: str, text: str) -> None:
    assert rows(analysis_of(path, None, text)) == []


@pytest.mark.parametrize(
    ("path", "text", "line", "message"),
    [
        ("a.json", '{"a": 1} // no comments here\n', 1, "invalid JSON: Extra data (column 10)"),
        ("a.json", "", 1, "invalid JSON: Expecting value (column 1)"),
        (
            "a.yml",
            "a: [1,\n",
            2,
            "invalid YAML: expected the node content, but found '<stream end>'",
        ),
        ("a.yml", "a: *missing\n", 1, "invalid YAML: found undefined alias 'missing'"),
        ("a.toml", "[a]\n[a]\n", 2, "invalid TOML: Cannot declare ('a',) twice"),
        ("a.toml", "a = [1,\n", 2, "invalid TOML: Invalid value"),
    ],
)
def test_what_does_not_load(path: str, text: str, line: int, message: str) -> None:
    assert rows(analysis_of(path, None, text)) == [("data/syntax", "error", path, line, message)]
