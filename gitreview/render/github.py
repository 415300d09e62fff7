"""GitHub workflow commands: one annotation per finding, for an Actions log.

`::error file=PATH,line=N,title=RULE::MESSAGE` (warning and notice alike).
Values are escaped as the Actions toolkit escapes them (core/src/command.ts),
so a message can never end the command early or start another one: `%`, CR
and LF everywhere, and `:` and `,` in properties too.

GitHub turns only the first 10 errors, 10 warnings and 10 notices of a step
into annotations (actions/toolkit docs/problem-matchers.md, "Limitations"),
in the order they are printed; the rest stay plain log lines. So the most
severe come first, each severity in the manifest's order (path, line, rule),
and a last plain line says how many were not annotated (issue #13).
"""

from __future__ import annotations

from typing import Any

from gitreview.render import SEVERITY_ORDER, by_severity
from gitreview.shown import escaped

COMMANDS = {"error": "error", "warning": "warning", "info": "notice"}
ANNOTATIONS_PER_SEVERITY = 10


def render_github(manifest: dict[str, Any], *, color: bool = False) -> str:
    findings = by_severity(manifest["findings"])
    text = "".join(annotation(finding) + "\n" for finding in findings)
    left = not_annotated(findings)
    if left:
        text += f"gitreview: {left}\n"
    return text


def not_annotated(findings: list[dict[str, Any]]) -> str:
    """What GitHub leaves out of a step's annotations, as a sentence; '' when nothing."""
    over = []
    for severity in SEVERITY_ORDER:
        count = sum(finding["severity"] == severity for finding in findings)
        if count > ANNOTATIONS_PER_SEVERITY:
            noun = COMMANDS[severity] + ("s" if count - ANNOTATIONS_PER_SEVERITY > 1 else "")
            over.append(f"{count - ANNOTATIONS_PER_SEVERITY} more {noun}")
    if not over:
        return ""
    return (
        f"{_joined(over)} than GitHub annotates in one step "
        f"({ANNOTATIONS_PER_SEVERITY} of each severity): every finding is in the manifest."
    )


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
    """As the toolkit escapes a command's data; any other control character (an
    escape sequence in a path) shown escaped, as the log would run it (found by an
    adversarial review)."""
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return escaped(text)


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _joined(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
