"""SARIF 2.1.0 (OASIS): the findings as one run, for code scanning.

Only what a code-scanning consumer reads: the tool and the rules that appear
(with the short description and default level gitreview gives them), and one
result per finding, located at its path and head-side line when it has them.
A finding about the range itself (a fixup! commit) has no location.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

SCHEMA_URI = (
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)
LEVELS = {"error": "error", "warning": "warning", "info": "note"}


def render_sarif(manifest: dict[str, Any], *, color: bool = False) -> str:
    from gitreview import __version__

    findings = manifest["findings"]
    rule_ids = sorted({finding["rule"] for finding in findings})
    index = {rule_id: position for position, rule_id in enumerate(rule_ids)}
    run: dict[str, Any] = {
        "tool": {
            "driver": {
                "name": "gitreview",
                "version": __version__,
                "rules": [_rule(rule_id) for rule_id in rule_ids],
            }
        },
        "results": [_result(finding, index[finding["rule"]]) for finding in findings],
    }
    rng = manifest["range"]
    if rng["head"] is not None:
        run["properties"] = {"range": rng["spec"], "base": rng["base"], "head": rng["head"]}
    log = {"$schema": SCHEMA_URI, "version": "2.1.0", "runs": [run]}
    return json.dumps(log, ensure_ascii=False, indent=2) + "\n"


def _rule(rule_id: str) -> dict[str, Any]:
    from gitreview.analyze import RULES

    descriptor: dict[str, Any] = {"id": rule_id}
    rule = RULES.get(rule_id)
    if rule is not None:
        descriptor["shortDescription"] = {"text": rule.summary}
        descriptor["defaultConfiguration"] = {"level": LEVELS[rule.severity]}
    return descriptor


def _result(finding: dict[str, Any], rule_index: int) -> dict[str, Any]:
    result: dict[str, Any] = {
        "ruleId": finding["rule"],
        "ruleIndex": rule_index,
        "level": LEVELS[finding["severity"]],
        "message": {"text": finding["message"]},
    }
    if finding["path"] is not None:
        physical: dict[str, Any] = {"artifactLocation": {"uri": artifact_uri(finding["path"])}}
        if finding["line"] is not None:
            physical["region"] = {"startLine": finding["line"]}
        result["locations"] = [{"physicalLocation": physical}]
    return result


def artifact_uri(path: str) -> str:
    """A repository path as a relative URI reference: every character that is not
    unreserved percent-encoded (UTF-8), so `a b#1.md` or `x:y` stays a path."""
    return quote(path, safe="/")
