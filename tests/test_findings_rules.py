"""The rules of issue #5 as a whole: stable ids, default severities, and severities
the configuration changes (`rules:` in .gitreview.yml)."""

import re
from pathlib import Path

from findings import findings_of, hunk_at, manifest_with_findings
from manifests import files_by_path, run
from repos import RepoFactory

from gitreview.analyze import RULES, code, commits, data, history, python, text

DEFAULTS = {
    "python/syntax": "error",
    "python/debugger": "warning",
    "data/syntax": "error",
    "code/debugger": "warning",
    "text/conflict-marker": "error",
    "text/secret": "error",
    "text/large-file": "warning",
    "text/binary-added": "warning",
    "text/binary-text": "warning",
    "text/bidi-control": "warning",
    "text/invisible-character": "warning",
    "text/trailing-whitespace": "info",
    "text/no-final-newline": "info",
    "text/executable": "info",
    "text/lockfile-source": "warning",
    "range/fixup-commit": "error",
    "range/wip-commit": "error",
    "range/secret-in-history": "error",
}


def test_rule_ids_and_default_severities() -> None:
    modules = (python, data, code, text, commits, history)
    ours = {rule.id: rule.severity for module in modules for rule in module.RULES}
    assert ours == DEFAULTS
    for rule_id in ours:
        assert re.fullmatch(r"(python|data|code|text|range)/[a-z]+(-[a-z]+)*", rule_id)
        assert RULES[rule_id].summary


def write_config(tmp_path: Path, text: str) -> Path:
    config = tmp_path / "gitreview.yml"
    config.write_text(text)
    return config


def test_an_info_finding_raised_to_error_makes_its_hunk_significant(
    fixture_repo: RepoFactory, tmp_path: Path
) -> None:
    repo = fixture_repo("whitespace")
    before = files_by_path(manifest_with_findings("--repo", repo, "v1..v2"))
    assert before["py/trailing.py"]["reasons"] == ["whitespace"]
    config = write_config(tmp_path, "rules:\n  text/trailing-whitespace: error\n")
    result = run("--repo", repo, "v1..v2", "--config", config)
    assert result.status == 1  # fail_on: error
    after = result.manifest
    assert findings_of(after, "text/trailing-whitespace", "py/trailing.py") == [
        (
            "text/trailing-whitespace",
            "error",
            "py/trailing.py",
            1,
            "trailing whitespace on 1 added line",
        )
    ]
    assert files_by_path(after)["py/trailing.py"]["reasons"] == ["finding"]
    assert hunk_at(after, "py/trailing.py", 1)["reasons"] == ["finding"]


def test_rules_can_be_lowered_or_turned_off(fixture_repo: RepoFactory, tmp_path: Path) -> None:
    config = write_config(
        tmp_path,
        "rules:\n  python/debugger: 'off'\n  data/syntax: warning\n  range/wip-commit: info\n",
    )
    findings = manifest_with_findings(
        "--repo", fixture_repo("findings"), "v1..v2", "--config", config
    )
    assert findings_of(findings, "python/debugger") == []
    assert {row[1] for row in findings_of(findings, "data/syntax")} == {"warning"}
    hygiene = manifest_with_findings(
        "--repo", fixture_repo("range_hygiene"), "v1..v2", "--config", config
    )
    assert {row[1] for row in findings_of(hygiene, "range/wip-commit")} == {"info"}
    assert {row[1] for row in findings_of(hygiene, "range/fixup-commit")} == {"error"}
