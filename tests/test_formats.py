"""Output formats of issue #7: markdown, github and sarif, rendered from the same manifest.

tests/data/sarif-schema-2.1.0.json is the OASIS SARIF 2.1.0 schema (errata 01, as in
oasis-tcs/sarif-spec Schemata/sarif-schema-2.1.0.json), vendored unchanged.
"""

import json
import random
import string
import subprocess
import sys
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from manifests import run, validate_manifest
from markdown_it import MarkdownIt
from repos import (
    PROJECT_ROOT,
    RepoFactory,
    before_and_after,
    build_commit,
    build_repo,
    commit_date,
    git,
    parse_repo,
)

from gitreview import __version__
from gitreview.analyze import RULES
from gitreview.render import FORMATS, render
from gitreview.render.github import render_github
from gitreview.render.markdown import fit, render_markdown
from gitreview.render.sarif import render_sarif

SARIF_SCHEMA = PROJECT_ROOT / "tests" / "data" / "sarif-schema-2.1.0.json"
BLOB = "0123456789ab"
SHA = "a" * 40


# -- manifests made here, valid against the manifest schema -----------------------


def finding(
    rule: str = "text/conflict-marker",
    severity: str = "error",
    path: str | None = "conflict.txt",
    line: int | None = 2,
    message: str = "merge conflict marker <<<<<<<",
) -> dict[str, Any]:
    return {"rule": rule, "severity": severity, "path": path, "line": line, "message": message}


def file_entry(path: str, classification: str = "significant", **more: Any) -> dict[str, Any]:
    entry: dict[str, Any] = {"path": path, "status": "modified", "kind": "text"}
    entry |= {"classification": classification, "reasons": ["content"], "t1": "ok", **more}
    return entry


def manifest_of(
    findings: list[dict[str, Any]] = [],  # noqa: B006 - never mutated
    files: list[dict[str, Any]] = [],  # noqa: B006
    handles: list[str] = [],  # noqa: B006
    **more: Any,
) -> dict[str, Any]:
    counts = {"error": 0, "warning": 0, "info": 0}
    for entry in findings:
        counts[entry["severity"]] += 1
    trivial = sum(entry["classification"] == "trivial" for entry in files)
    review = {}
    if handles:
        paths = {handle.split(":")[0].split("@")[0] for handle in handles}
        review["default"] = {
            "handles": len(handles),
            "files": len(paths),
            "lines": 2 * len(handles),
            "tokens": 10 * len(handles),
            "brief": 40 + 10 * len(handles),
            "batches": [
                {
                    "tokens": 10 * len(handles),
                    "handles": [{"handle": handle, "excerpt": "x = 1"} for handle in handles],
                }
            ],
        }
    manifest = {
        "schema_version": "2.0",
        "range": {
            "spec": "v1..v2",
            "base": "b" * 40,
            "head": SHA,
            "commits": [{"sha": SHA[:12], "subject": "Add the *parser* <b>now</b>"}],
        },
        "summary": {
            "files": {"total": len(files), "trivial": trivial, "significant": len(files) - trivial},
            "hunks": {"total": len(handles), "trivial": 0, "significant": len(handles)},
            "findings": counts,
        },
        "tokens": {
            "full": 1000,
            "diff": 400,
            "manifest": 120,
            "significant": 30,
            "brief": 60,
            "reduction": {"diff": 0.85, "full": 0.94},
        },
        "ledger": {"lines": 12, "trivial": {"whitespace": 4}, "significant": 8, "routed": 8},
        "findings": findings,
        "files": files,
        "review": review,
        **more,
    }
    validate_manifest(manifest)
    return manifest


def rendered_html(markdown: str) -> str:
    html: str = MarkdownIt("commonmark").enable("table").render(markdown)
    return html


def first_finding_row(markdown: str) -> str:
    """The first row of the findings table, as HTML."""
    table = rendered_html(markdown).split("<th>severity</th>")[1]
    return table.split("<tbody>")[1].split("</tr>")[0]


def sarif_of(*args: str | Path, tmp_path: Path) -> tuple[int, str]:
    """`--format sarif` written to a file: `run` takes JSON on stdout for a manifest."""
    target = tmp_path / "out.sarif"
    result = run(*args, "--format", "sarif", "-o", target)
    assert (result.stdout, result.stderr) == ("", "")
    return result.status, target.read_text("utf-8")


# -- the registry ------------------------------------------------------------------


def test_formats_are_registered_and_documented() -> None:
    assert {"markdown", "github", "sarif"} <= set(FORMATS)
    help_text = " ".join(run("--help").stdout.split())
    for name in ("markdown:", "github:", "sarif:", "SARIF 2.1.0"):
        assert name in help_text, name


def test_renderers_import_nothing_heavy() -> None:
    code = (
        "import sys, gitreview.render.markdown, gitreview.render.github, gitreview.render.sarif;"
        "print(sorted(m for m in ('rich', 'pygit2', 'gitreview.analyze') if m in sys.modules))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, check=True)
    assert result.stdout == b"[]\n"


def test_every_format_is_deterministic(fixture_repo: RepoFactory, tmp_path: Path) -> None:
    one = fixture_repo("findings")
    two = build_repo("findings", tmp_path / "again")
    for name in ("markdown", "github"):
        first = run("--repo", one, "v1..v2", "--format", name)
        assert first.status == 1  # the fixture has error findings
        assert first.stdout == run("--repo", two, "v1..v2", "--format", name).stdout, name
    sarif = sarif_of("--repo", one, "v1..v2", tmp_path=tmp_path)
    assert sarif == sarif_of("--repo", two, "v1..v2", tmp_path=tmp_path)


# -- github ------------------------------------------------------------------------


def test_github_one_command_per_finding() -> None:
    manifest = manifest_of(
        [
            finding(),
            finding("python/debugger", "warning", "src/app.py", 8, "debugging leftover"),
            finding("text/executable", "info", "run.sh", None, "executable bit set"),
            finding("range/fixup-commit", "error", None, None, "commit 1234 is a fixup"),
        ]
    )
    # The most severe first: GitHub annotates only the first 10 of each severity.
    assert render_github(manifest) == (
        "::error file=conflict.txt,line=2,title=text/conflict-marker::merge conflict marker "
        "<<<<<<<\n"
        "::error title=range/fixup-commit::commit 1234 is a fixup\n"
        "::warning file=src/app.py,line=8,title=python/debugger::debugging leftover\n"
        "::notice file=run.sh,title=text/executable::executable bit set\n"
    )
    assert render_github(manifest_of()) == ""


def test_github_says_how_many_findings_it_cannot_annotate() -> None:
    findings = [
        *(finding("text/executable", "info", f"run{n:02}.sh", None, "x") for n in range(3)),
        *(finding("python/debugger", "warning", f"w{n:02}.py", 1, "w") for n in range(11)),
        *(finding(path=f"e{n:02}.txt") for n in range(12)),
    ]
    lines = render_github(manifest_of(findings)).splitlines()
    assert [line.split(" ")[0] for line in lines[:-1]] == (
        ["::error"] * 12 + ["::warning"] * 11 + ["::notice"] * 3
    )
    assert lines[0].startswith("::error file=e00.txt,") and lines[11].startswith("::error file=e11")
    assert lines[12].startswith("::warning file=w00.py,")
    assert lines[-1] == (
        "gitreview: 2 more errors and 1 more warning than GitHub annotates in one step "
        "(10 of each severity): every finding is in the manifest."
    )
    exactly_ten = [finding(path=f"e{n:02}.txt") for n in range(10)]
    assert "gitreview:" not in render_github(manifest_of(exactly_ten))


def test_markdown_lists_the_most_severe_findings_first() -> None:
    """Found by a twelfth adversarial review: the table holds the first hundred
    findings, and a hundred notes earlier in path order pushed off a warning
    (`text/bidi-control`) that does not fail the run."""
    notes = [
        finding("text/trailing-whitespace", "info", f"docs/{n:03}.txt", 1, "x") for n in range(101)
    ]
    warning = finding("text/bidi-control", "warning", "src/auth.js", 3, "bidi")
    report = render_markdown(manifest_of([*notes, warning]))
    rows = [line for line in report.splitlines() if line.startswith(("| info", "| warning"))]
    assert rows[0].startswith("| warning | `text/bidi-control` | `src/auth.js:3`"), rows[:2]
    assert "\n2 more in the manifest." in report


def test_github_escapes_properties_and_data() -> None:
    odd = finding(
        path="docs/a,b:c%d.md",
        line=3,
        message="50% done\r\nnext: a, b\n::error::injected",
    )
    assert render_github(manifest_of([odd])) == (
        "::error file=docs/a%2Cb%3Ac%25d.md,line=3,title=text/conflict-marker::"
        "50%25 done%0D%0Anext: a, b%0A::error::injected\n"
    )


def test_github_from_the_command(fixture_repo: RepoFactory) -> None:
    repo = fixture_repo("findings")
    manifest = run("--repo", repo, "v1..v2").manifest
    result = run("--repo", repo, "v1..v2", "--format", "github")
    assert result.stdout == render_github(manifest)
    assert len(result.stdout.splitlines()) == len(manifest["findings"]) > 0


# -- markdown ----------------------------------------------------------------------


def test_markdown_report() -> None:
    manifest = manifest_of(
        [finding(), finding("range/wip-commit", "error", None, None, "commit a is a WIP")],
        [
            file_entry("src/app.py"),
            file_entry("poetry.lock", "trivial", reasons=["generated"]),
            file_entry("logo.png", kind="binary", t1="missing", t1_cause="binary"),
        ],
        ["src/app.py:3-5@" + BLOB, "logo.png@" + BLOB],
        ledger={
            "lines": 12,
            "trivial": {"whitespace": 4},
            "significant": 8,
            "routed": 8,
            "unreviewable": {"binary": ["logo.png"]},
        },
    )
    assert render_markdown(manifest) == (
        "### gitreview: `v1..v2`\n"
        "\n"
        "`bbbbbbbbbbbb`..`aaaaaaaaaaaa`, 1 commit:\n"
        "\n"
        "- `aaaaaaaaaaaa` Add the \\*parser\\* \\<b\\>now\\</b\\>\n"
        "\n"
        "| | total | significant | trivial |\n"
        "| --- | ---: | ---: | ---: |\n"
        "| files | 3 | 2 | 1 |\n"
        "| hunks | 2 | 2 | 0 |\n"
        "\n"
        "**Tokens**: 400 for the plain diff, 1000 for every changed file in full plus the "
        "diff; the reviewers' briefs 60: **85% less than the diff**, 94% less than full files.\n"
        "\n"
        "**Lines**: 12 changed lines: 8 to review, 4 trivial (whitespace 4).\n"
        "\n"
        "#### Findings: 2 error, 0 warning, 0 info\n"
        "\n"
        "| severity | rule | where | message |\n"
        "| --- | --- | --- | --- |\n"
        "| error | `text/conflict-marker` | `conflict.txt:2` | merge conflict marker "
        "\\<\\<\\<\\<\\<\\<\\< |\n"
        "| error | `range/wip-commit` | the range | commit a is a WIP |\n"
        "\n"
        "#### For reviewers\n"
        "\n"
        "**default**: 2 handles in 2 files, 20 tokens, 1 batch\n"
        "\n"
        "<details><summary>Handles</summary>\n"
        "\n"
        "- `src/app.py:3-5@0123456789ab`\n"
        "- `logo.png@0123456789ab`\n"
        "\n"
        "</details>\n"
        "\n"
        "#### Skipped, and why\n"
        "\n"
        "- **Trivial** (1 file), no reviewer reads them:\n"
        "  - `poetry.lock`: generated\n"
        "- **Unreviewable** (binary, 1 file), no content to read: `logo.png`\n"
        "- **Not analyzed** (1 file), no tier-1 analysis of their content; --fallback would "
        "put their full content in the manifest:\n"
        "  - `logo.png`: binary\n"
    )


def test_markdown_a_pipe_in_a_path_keeps_the_table() -> None:
    odd = finding(path="docs/a|b `c`.md", line=3, message="x | y")
    row = first_finding_row(render_markdown(manifest_of([odd])))
    assert row.count("<td>") == 4
    assert "<td><code>docs/a|b `c`.md:3</code></td>" in row
    assert "<td>x | y</td>" in row


def test_markdown_escapes_text() -> None:
    message = "<script>alert(1)</script> *b* _i_ [l](http://x) `t` ~s~ &copy; $x$ \\"
    row = first_finding_row(render_markdown(manifest_of([finding(message=message)])))
    cell = row.split("<td>")[4]
    expected = message.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    assert cell == expected + "</td>\n"


@pytest.mark.parametrize(
    ("path", "span"),
    [
        ("plain.md", "`plain.md`"),
        ("one`tick.md", "``one`tick.md``"),
        ("`edge`", "`` `edge` ``"),
        (" spaced ", "`  spaced  `"),
        ("line\nbreak", "`line\\x0abreak`"),
    ],
)
def test_markdown_code_spans_hold_any_path(path: str, span: str) -> None:
    markdown = render_markdown(
        manifest_of(files=[file_entry(path, "trivial", reasons=["generated"])])
    )
    assert f"  - {span}: generated\n" in markdown
    shown = path.replace("\n", "\\x0a")
    assert f"<code>{shown}</code>" in rendered_html(markdown)


def test_markdown_cuts_long_lists() -> None:
    files = [file_entry(f"gen/{n:03}.js", "trivial", reasons=["generated"]) for n in range(60)]
    markdown = render_markdown(manifest_of(files=files))
    assert "  - `gen/049.js`: generated\n  - … and more: 60 files in all, in the manifest\n" in (
        markdown
    )
    assert "gen/050.js" not in markdown


def test_markdown_fit_cuts_whole_lines_and_closes_what_it_opened() -> None:
    report = "### head\n\n<details><summary>Handles</summary>\n\n" + "- `a`\n" * 2000
    report += "\n</details>\n"
    tail = "\n**Annotations**: 3 more errors.\n"
    assert fit(report, limit=len(report.encode())) == report
    assert fit(report, limit=len(report.encode()) + len(tail), tail=tail) == report + tail
    cut = fit(report, limit=4096, tail=tail)
    assert len(cut.encode()) <= 4096
    kept = cut.split("\n\n</details>\n\n")[0] + "\n"
    assert report.startswith(kept) and kept.endswith("- `a`\n")
    left_out = len(report.splitlines()) - len(kept.splitlines())
    assert cut.endswith(
        "\n\n</details>\n\n**Cut here** to stay under GitHub's limit of 1024 KiB for a step "
        f"summary: {left_out} of 2006 lines left out; the manifest has everything.\n" + tail
    )
    assert fit(report, limit=4096, tail=tail) == cut  # always the same cut
    assert "<details>" in rendered_html(cut) and "</details>" in rendered_html(cut)
    # Many open <details>, none closed before the cut: each is closed, still in the limit.
    nested = "".join(f"<details><summary>{n}</summary>\n\n- `x`\n\n" for n in range(400))
    cut = fit(nested, limit=4096)
    assert len(cut.encode()) <= 4096
    assert cut.count("<details>") == cut.count("</details>") > 0


def test_markdown_of_a_patch_and_of_a_role_less_manifest() -> None:
    manifest = manifest_of()
    manifest["range"] = {"spec": "patch:-", "base": None, "head": None, "commits": []}
    markdown = render_markdown(manifest)
    assert markdown.startswith("### gitreview: `patch:-`\n\nA patch, without its repository.\n")
    assert "#### Findings: none\n" in markdown
    assert "#### For reviewers: nothing to review\n" in markdown


def test_markdown_from_the_command_lists_what_was_skipped(fixture_repo: RepoFactory) -> None:
    repo = fixture_repo("kinds")
    result = run("--repo", repo, "v1..v2", "--format", "markdown")
    assert result.status == 0
    assert "- **Unreviewable** (submodule, 1 file), no content to read: `vendor/schemas`\n" in (
        result.stdout
    )
    assert "  - `legacy/notes-latin1.txt`: undecodable\n" in result.stdout
    assert "  - `src/util/strings.py` → `src/util/text.py`: renamed\n" in result.stdout


# -- sarif -------------------------------------------------------------------------


@cache
def sarif_validator() -> jsonschema.Draft4Validator:
    schema = json.loads(SARIF_SCHEMA.read_text("utf-8"))
    jsonschema.Draft4Validator.check_schema(schema)
    return jsonschema.Draft4Validator(
        schema, format_checker=jsonschema.Draft4Validator.FORMAT_CHECKER
    )


def validate_sarif(text: str) -> dict[str, Any]:
    log: dict[str, Any] = json.loads(text)
    errors = sorted(sarif_validator().iter_errors(log), key=str)
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors)
    return log


def test_the_vendored_schema_is_sarif_2_1_0() -> None:
    schema = json.loads(SARIF_SCHEMA.read_text("utf-8"))
    assert schema["$schema"] == "http://json-schema.org/draft-04/schema#"
    assert schema["title"] == "Static Analysis Results Format (SARIF) Version 2.1.0 JSON Schema"
    assert schema["properties"]["version"]["enum"] == ["2.1.0"]
    assert len(schema["definitions"]) == 52
    with pytest.raises(AssertionError, match="'tool' is a required property"):
        validate_sarif('{"version": "2.1.0", "runs": [{"results": []}]}')  # a run needs a tool


def test_sarif_from_the_command(fixture_repo: RepoFactory, tmp_path: Path) -> None:
    repo = fixture_repo("findings")
    manifest = run("--repo", repo, "v1..v2").manifest
    status, text = sarif_of("--repo", repo, "v1..v2", tmp_path=tmp_path)
    assert status == 1
    assert text == render_sarif(manifest)
    log = validate_sarif(text)
    assert log["version"] == "2.1.0"
    (sarif_run,) = log["runs"]
    driver = sarif_run["tool"]["driver"]
    assert (driver["name"], driver["version"]) == ("gitreview", __version__)
    rule_ids = [rule["id"] for rule in driver["rules"]]
    assert rule_ids == sorted({f["rule"] for f in manifest["findings"]})
    for rule in driver["rules"]:
        assert rule["shortDescription"]["text"] == RULES[rule["id"]].summary
    levels = {"error": "error", "warning": "warning", "info": "note"}
    assert len(sarif_run["results"]) == len(manifest["findings"])
    for result_entry, entry in zip(sarif_run["results"], manifest["findings"], strict=True):
        assert result_entry["ruleId"] == entry["rule"]
        assert rule_ids[result_entry["ruleIndex"]] == entry["rule"]
        assert result_entry["level"] == levels[entry["severity"]]
        assert result_entry["message"] == {"text": entry["message"]}
        (location,) = result_entry["locations"]
        physical = location["physicalLocation"]
        assert physical["artifactLocation"] == {"uri": entry["path"]}
        assert physical["region"] == {"startLine": entry["line"]}
    assert sarif_run["properties"]["head"] == manifest["range"]["head"]


def test_sarif_locations_and_rules_made_here() -> None:
    manifest = manifest_of(
        [
            finding(path="docs/a b#1:ä.md", line=None, severity="info"),
            finding("range/fixup-commit", "error", None, None, "commit 1234 is a fixup"),
            finding("custom/rule", "warning", "x.txt", 4, "a rule gitreview does not know"),
        ]
    )
    log = validate_sarif(render_sarif(manifest))
    rules = log["runs"][0]["tool"]["driver"]["rules"]
    assert rules[0] == {"id": "custom/rule"}
    assert rules[1]["defaultConfiguration"] == {"level": "error"}
    first, second, third = log["runs"][0]["results"]
    uri = first["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert uri == "docs/a%20b%231%3A%C3%A4.md"
    assert "region" not in first["locations"][0]["physicalLocation"]
    assert first["level"] == "note"
    assert "locations" not in second  # about the range, not a file
    assert third["ruleIndex"] == 0


def test_sarif_of_no_findings_is_an_empty_run() -> None:
    log = validate_sarif(render_sarif(manifest_of()))
    assert log["runs"][0]["results"] == []
    assert log["runs"][0]["tool"]["driver"]["rules"] == []


# -- secrets -----------------------------------------------------------------------


def test_no_format_prints_a_secret(tmp_path: Path) -> None:
    # Made up at run time: no file of this repository holds a credential.
    made_up = random.Random(7)
    token = "ghp_" + "".join(
        made_up.choice(string.ascii_letters + string.digits) for _ in range(36)
    )
    document = {
        "description": "a token added to a file and named in a commit subject",
        "commits": [
            {"message": "Base", "tag": "v1", "files": {"app.cfg": "name = demo\n"}},
            {
                "message": f"Use the token {token}",
                "tag": "v2",
                "files": {"app.cfg": f"name = demo\ntoken = {token}\n"},
            },
        ],
    }
    repo = tmp_path / "secret"
    repo.mkdir()
    git(repo, "init", "--quiet", "--initial-branch=main")
    for index, commit in enumerate(parse_repo(document, where="secret").commits):
        build_commit(repo, commit, commit_date(index))
    manifest = run("--repo", repo, "v1..v2").manifest
    assert any(f["rule"] == "text/secret" for f in manifest["findings"])
    for name in FORMATS:
        assert token not in render(manifest, name), name
        assert token[4:20] not in render(manifest, name), name


@pytest.mark.parametrize("output", ["text", "github"])
def test_control_characters_of_names_are_shown_escaped(tmp_path: Path, output: str) -> None:
    # Found by adversarial reviews: a path holding `\033[31m` drove the terminal, and
    # the CI log through an annotation's `file=`.
    path = "esc\x1b[31mred.md"
    repo = before_and_after(tmp_path / "repo", path, "# A\n", "# B\n[x](missing.md)\n")
    text = run("--repo", repo, "HEAD", "--format", output, "--fail-on", "never").stdout
    assert "\x1b" not in text
    assert "esc\\x1b[31mred.md" in text
