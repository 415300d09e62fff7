"""GitHub workflow commands: one annotation per finding, for an Actions log.

`::error file=PATH,line=N,title=RULE::MESSAGE` (warning and notice alike).
Values are escaped as the Actions toolkit escapes them (core/src/command.ts),
so a message can never end the command early or start another one: `%`, CR
and LF everywhere, and `:` and `,` in properties too.
"""

from __future__ import annotations

from typing import Any

COMMANDS = {"error": "error", "warning": "warning", "info": "notice"}


def render_github(manifest: dict[str, Any], *, color: bool = False) -> str:
    return "".join(annotation(finding) + "\n" for finding in manifest["findings"])


def annotation(finding: dict[str, Any]) -> str:
    properties: list[str] = []
    if finding["path"] is not None:
        properties.append(f"file={escape_property(finding['path'])}")
        if finding["line"] is not None:
            properties.append(f"line={finding['line']}")
    properties.append(f"title={escape_property(finding['rule'])}")
    command = COMMANDS[finding["severity"]]
    return f"::{command} {','.join(properties)}::{escape_data(finding['message'])}"


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")
