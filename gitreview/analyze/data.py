"""JSON, YAML and TOML: a file that does not load at head is an error, at its line.

Only well-formedness is checked, never meaning: YAML is composed, not
constructed, so application tags (`!Ref`, `!include`) and odd scalars are
fine; JSON with comments is accepted where tools define it so (tsconfig.json,
VS Code settings...); templated YAML (`{{ }}`, `{% %}`: Helm, Jinja) is not
checked, since it is not YAML until rendered.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Callable

from gitreview.analyze.base import Report, Rule, Subject
from gitreview.model import Finding
from gitreview.patterns import lazy_compile

RULES: tuple[Rule, ...] = (
    Rule("data/syntax", "error", "a JSON, YAML or TOML file does not load at head"),
)

# Files that tools read as JSON with comments and trailing commas.
_JSONC_GLOBS = (
    "tsconfig*.json",
    "jsconfig*.json",
    ".vscode/*.json",
    ".devcontainer/*.json",
    "devcontainer.json",
    ".eslintrc.json",
    ".babelrc.json",
    "*.code-workspace",
    # Found by a twelfth adversarial review: the root's devcontainer (VS Code's template
    # starts with a comment), and tools that write or read their files with comments.
    ".devcontainer.json",
    "api-extractor.json",
    "api-documenter.json",
    "turbo.json",
    "deno.json",
    "tslint.json",
    "biome.json",
    "typedoc.json",
    ".swcrc",
    "*.jsonc",
    # Found by a thirteenth adversarial review: .NET's configuration, which ASP.NET
    # Core's JSON provider reads with comments (and Json.NET read DNX's project.json).
    "appsettings*.json",
    "launchSettings.json",
    "project.json",
    "global.json",
)
_TEMPLATE = lazy_compile(r"\{\{|\{%")
_TRAILING_COMMA = lazy_compile(r",(\s*[}\]])")
_TOML_WHERE = lazy_compile(r" \((?:at line (\d+), column \d+|at end of document)\)$")

Problem = tuple[int | None, str]  # line, what is wrong


def analyze(subject: Subject) -> Report:
    text = subject.new_text
    if text is None:
        return Report()
    text = text.removeprefix("\ufeff")
    check = _CHECKS[subject.kind]
    problem = check(text, subject.change.path)
    if problem is None:
        return Report()
    line, message = problem
    return Report((Finding("data/syntax", "error", subject.change.path, line, message),))


def _json(text: str, path: str) -> Problem | None:
    import json

    try:
        json.loads(text)
    except json.JSONDecodeError as error:
        if _is_jsonc(path) and _loads_as_jsonc(text):
            return None
        return error.lineno, f"invalid JSON: {error.msg} (column {error.colno})"
    return None


def _is_jsonc(path: str) -> bool:
    name = path.rsplit("/", 1)[-1]
    return any(
        fnmatch.fnmatchcase(path, glob) or fnmatch.fnmatchcase(name, glob) for glob in _JSONC_GLOBS
    )


def _loads_as_jsonc(text: str) -> bool:
    """Whether the text is JSON once its comments and trailing commas are gone."""
    import json

    from gitreview.analyze import lexers

    found = lexers.scan("javascript", text)  # JSON strings lex as JavaScript strings
    if found.give_up or found.rest_from is not None:
        return False
    parts, position = [], 0
    for start, end in found.comments:
        parts += [text[position:start], " "]
        position = end
    bare = _TRAILING_COMMA.sub(r"\1", "".join([*parts, text[position:]]))
    try:
        json.loads(bare)
    except json.JSONDecodeError:
        return False
    return True


def _yaml(text: str, path: str) -> Problem | None:
    import yaml

    if _TEMPLATE.search(text):
        return None
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when available
    try:
        for _ in yaml.compose_all(text, Loader=loader):
            pass
        return None
    except yaml.YAMLError:
        pass
    # Parse again with the pure-Python loader: its messages and marks are the same
    # on every machine, with or without libyaml.
    try:
        for _ in yaml.compose_all(text, Loader=yaml.SafeLoader):
            pass
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line = None if mark is None else mark.line + 1
        return line, f"invalid YAML: {error.problem or error.context}"
    except yaml.YAMLError as error:
        return None, f"invalid YAML: {error}"
    return None


def _toml(text: str, path: str) -> Problem | None:
    import tomllib

    try:
        tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        message = str(error)
        where = _TOML_WHERE.search(message)
        line = int(where.group(1)) if where and where.group(1) else text.count("\n") + 1
        problem = message[: where.start()] if where else message
        return line, f"invalid TOML: {problem}"
    return None


_CHECKS: dict[str, Callable[[str, str], Problem | None]] = {
    "json": _json,
    "yaml": _yaml,
    "toml": _toml,
}
