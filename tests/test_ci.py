"""The GitHub Actions step (issue #7): `git review-manifest ci` run as GitHub runs it.

Each test sets the variables a runner sets (GITHUB_EVENT_NAME, GITHUB_EVENT_PATH with
a payload written here, RUNNER_TEMP, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, INPUT_*) and
runs the real command on fixtures/repos/ci.yml: `feature` (tags base, clean, trivial,
leftover, fixup) off `base`, while `main` moves on to `main-later`.
"""

import json
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml
from manifests import run, validate_manifest
from repos import PROJECT_ROOT, RepoFactory, build_commit, commit_date, commit_id, git, parse_repo

from gitreview.commands import ci
from gitreview.config import SEVERITIES
from gitreview.render import render

ZERO = "0" * 40
INPUTS = ("BASE", "HEAD", "FAIL-ON", "FALLBACK", "CONFIG", "ROLE", "SINCE")
RUNNER_VARIABLES = (
    "GITHUB_EVENT_NAME",
    "GITHUB_EVENT_PATH",
    "GITHUB_SHA",
    "GITHUB_OUTPUT",
    "GITHUB_STEP_SUMMARY",
    "RUNNER_TEMP",
)
FIXUP_MESSAGE = (
    'commit {sha} "fixup! Teach greet a greeting" is meant to be squashed: '
    "rebase with --autosquash before pushing"
)
SHALLOW = (
    "git review-manifest: error: {what} is not in this shallow clone "
    "(hint: set fetch-depth: 0 on actions/checkout to fetch the whole history)\n"
)


@dataclass(frozen=True)
class Step:
    status: int
    stdout: str
    stderr: str
    outputs: str
    summary: str
    manifest: dict[str, Any] | None


class Runner:
    """A GitHub runner's environment around one run of the step."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
        self.monkeypatch = monkeypatch
        self.tmp_path = tmp_path
        self.temp = tmp_path / "runner-temp"
        self.output = tmp_path / "github-output"
        self.summary = tmp_path / "step-summary"
        self.event = tmp_path / "event.json"
        self.manifest_path = self.temp / "gitreview" / "manifest.json"
        for name in (*RUNNER_VARIABLES, *(f"INPUT_{name}" for name in INPUTS)):
            monkeypatch.delenv(name, raising=False)

    def __call__(
        self,
        repo: Path,
        event: str | None,
        payload: dict[str, Any] | None = None,
        **inputs: str,
    ) -> Step:
        for leftover in (self.output, self.summary, self.manifest_path):
            leftover.unlink(missing_ok=True)  # each step gets files of its own
        patch = self.monkeypatch
        for name in ("GITHUB_EVENT_NAME", "GITHUB_EVENT_PATH", *(f"INPUT_{n}" for n in INPUTS)):
            patch.delenv(name, raising=False)
        if event is not None:
            patch.setenv("GITHUB_EVENT_NAME", event)
        if payload is not None:
            self.event.write_text(json.dumps(payload), "utf-8")
            patch.setenv("GITHUB_EVENT_PATH", str(self.event))
        patch.setenv("RUNNER_TEMP", str(self.temp))
        patch.setenv("GITHUB_OUTPUT", str(self.output))
        patch.setenv("GITHUB_STEP_SUMMARY", str(self.summary))
        for name, value in inputs.items():
            patch.setenv(f"INPUT_{name.upper().replace('_', '-')}", value)
        result = run("ci", "--repo", repo)
        manifest = None
        if self.manifest_path.exists():
            manifest = json.loads(self.manifest_path.read_text("utf-8"))
            validate_manifest(manifest)
        return Step(
            result.status,
            result.stdout,
            result.stderr,
            self.output.read_text("utf-8") if self.output.exists() else "",
            self.summary.read_text("utf-8") if self.summary.exists() else "",
            manifest,
        )


@pytest.fixture
def runner(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Runner:
    return Runner(monkeypatch, tmp_path)


@pytest.fixture
def repo(fixture_repo: RepoFactory) -> Path:
    return fixture_repo("ci")


def sha(repo: Path, tag: str) -> str:
    return commit_id(repo, tag)


def pull_request(repo: Path, base: str, head: str) -> dict[str, Any]:
    return {
        "action": "synchronize",
        "number": 7,
        "pull_request": {
            "base": {"ref": "main", "sha": sha(repo, base)},
            "head": {"ref": "feature", "sha": sha(repo, head)},
        },
    }


def push(repo: Path, before: str | None, after: str | None, *new: str) -> dict[str, Any]:
    return {
        "ref": "refs/heads/feature",
        "before": sha(repo, before) if before else ZERO,
        "after": sha(repo, after) if after else ZERO,
        "created": before is None,
        "deleted": after is None,
        "commits": [{"id": sha(repo, tag), "distinct": True} for tag in new],
    }


def outputs(runner: Runner, manifest: dict[str, Any], **expected: object) -> str:
    values = {
        "manifest": runner.manifest_path,
        "briefs": Path(runner.manifest_path).parent,
        "significant": 0,
        "trivial": 0,
        "handles": 0,
        "errors": 0,
        "warnings": 0,
        "notices": 0,
        "reduction": manifest["tokens"]["reduction"]["diff"],
        "skip": "false",
        "sarif": runner.manifest_path.with_name("findings.sarif"),
        **expected,
    }
    return "".join(f"{name}={value}\n" for name, value in values.items())


def test_pull_request_reviews_what_the_branch_adds(repo: Path, runner: Runner) -> None:
    # main moved on after the fork: the range starts at the merge base, not at main.
    step = runner(repo, "pull_request", pull_request(repo, "main-later", "fixup"))
    assert step.manifest is not None
    base, head = sha(repo, "main-later"), sha(repo, "fixup")
    assert step.manifest["range"]["spec"] == f"{base}...{head}"
    assert step.manifest["range"]["base"] == sha(repo, "base")
    assert [entry["path"] for entry in step.manifest["files"]] == [
        "notes.txt",
        "scripts/run.sh",
        "src/app.py",
    ]
    assert step.status == 1  # the fixup! commit is an error; fail-on defaults to error
    message = FIXUP_MESSAGE.format(sha=head[:12])
    assert step.stdout == (
        f"::error title=range/fixup-commit::{message}\n"
        "::notice file=scripts/run.sh,title=text/executable::new file is executable\n"
    )
    assert step.outputs == outputs(
        runner, step.manifest, significant=2, trivial=1, handles=2, errors=1, notices=1
    )
    assert step.summary == render(step.manifest, "markdown")
    assert step.summary.startswith(
        f"### gitreview: `{base[:12]}...{head[:12]}`\n\n"
        f"`{sha(repo, 'base')[:12]}`..`{head[:12]}`, 4 commits:\n"
    )
    assert f"| error | `range/fixup-commit` | the range | {message} |" in step.summary
    assert step.stderr == (
        "gitreview: 2 significant and 1 trivial hunks; findings: 1 error, 0 warning, 1 info; "
        f"manifest: {runner.manifest_path}\n"
        "gitreview: findings at or above fail-on (error): failing the step\n"
    )


def test_pull_request_target_reads_the_same_payload(repo: Path, runner: Runner) -> None:
    step = runner(repo, "pull_request_target", pull_request(repo, "base", "clean"))
    assert step.manifest is not None
    assert step.manifest["range"]["spec"] == f"{sha(repo, 'base')}...{sha(repo, 'clean')}"
    assert step.status == 0


def test_push_of_a_trivial_change_lets_later_steps_skip(repo: Path, runner: Runner) -> None:
    step = runner(repo, "push", push(repo, "clean", "trivial", "trivial"))
    assert step.manifest is not None
    assert step.manifest["range"]["spec"] == f"{sha(repo, 'clean')}..{sha(repo, 'trivial')}"
    assert (step.status, step.stdout) == (0, "")
    assert step.outputs == outputs(runner, step.manifest, trivial=1, skip="true")
    assert "#### For reviewers: nothing to review" in step.summary
    assert "- **Trivial** (1 file), no reviewer reads them:\n  - `notes.txt`: blank-lines" in (
        step.summary
    )


def test_push_with_a_warning_passes_unless_fail_on_says_warning(repo: Path, runner: Runner) -> None:
    payload = push(repo, "clean", "leftover", "trivial", "leftover")
    annotation = "::warning file=src/app.py,line=2,title=python/debugger::"
    annotation += "debugging leftover: breakpoint()\n"
    step = runner(repo, "push", payload)
    assert (step.status, step.stdout) == (0, annotation)
    assert step.manifest is not None
    expected = outputs(runner, step.manifest, significant=1, trivial=1, handles=1, warnings=1)
    assert step.outputs == expected
    strict = runner(repo, "push", payload, fail_on="warning")
    assert (strict.status, strict.stdout) == (1, annotation)
    assert strict.stderr.endswith(
        "gitreview: findings at or above fail-on (warning): failing the step\n"
    )
    assert runner(repo, "push", payload, fail_on="never").status == 0


def test_fail_on_and_severities_come_from_the_configuration(
    repo: Path, runner: Runner, tmp_path: Path
) -> None:
    config = tmp_path / "gitreview.yml"
    config.write_text("fail_on: info\n", "utf-8")
    payload = push(repo, "base", "clean", "clean")  # one info finding
    assert runner(repo, "push", payload).status == 0
    assert runner(repo, "push", payload, config=str(config)).status == 1
    assert runner(repo, "push", payload, config=str(config), fail_on="error").status == 0
    config.write_text("rules: {text/executable: error}\n", "utf-8")
    step = runner(repo, "push", payload, config=str(config))
    assert step.status == 1
    assert step.stdout.startswith("::error file=scripts/run.sh,title=text/executable::")


def test_new_branch_starts_at_the_parent_of_its_oldest_commit(repo: Path, runner: Runner) -> None:
    step = runner(repo, "push", push(repo, None, "trivial", "clean", "trivial"))
    assert step.manifest is not None
    assert step.manifest["range"]["spec"] == f"{sha(repo, 'base')}..{sha(repo, 'trivial')}"
    assert [c["subject"] for c in step.manifest["range"]["commits"]] == [
        "Teach greet a greeting",
        "Space out the notes",
    ]


def test_new_branch_starts_where_its_commits_do_in_any_order(repo: Path, runner: Runner) -> None:
    # Found by an adversarial review: the parent of the event's first commit was the
    # base, so commits listed newest first made a pushed commit the base.
    step = runner(repo, "push", push(repo, None, "trivial", "trivial", "clean"))
    assert step.manifest is not None
    assert step.manifest["range"]["spec"] == f"{sha(repo, 'base')}..{sha(repo, 'trivial')}"


def test_new_branch_with_no_new_commit_has_nothing_to_review(repo: Path, runner: Runner) -> None:
    """Found by a twelfth adversarial review: a branch made at a commit already pushed
    (the event lists no commit) was reviewed from its tip's parent, and findings
    already on main failed the step; the hook checks nothing there either."""
    payload = push(repo, None, "trivial")
    payload["ref"] = "refs/heads/release"  # made at a commit of `feature`
    step = runner(repo, "push", payload)
    assert (step.status, step.manifest) == (0, None)
    assert step.stderr == "gitreview: the push brought no new commit: nothing to review\n"
    assert "skip=true\n" in step.outputs
    # The same commit pushed as its own branch's tip only: no other branch holds it,
    # so it is reviewed (a review of the fix: a tag of a commit on no branch).
    step = runner(repo, "push", push(repo, None, "trivial"))
    assert step.manifest is not None
    assert step.manifest["range"]["spec"] == sha(repo, "trivial")
    # A payload that lists no commits at all is not taken for one that lists none.
    payload = push(repo, None, "trivial")
    del payload["commits"]
    step = runner(repo, "push", payload)
    assert step.manifest is not None
    assert step.manifest["range"]["spec"] == sha(repo, "trivial")


def test_a_push_of_commits_down_to_the_root_is_reviewed_from_the_empty_tree(
    repo: Path, runner: Runner
) -> None:
    """A review of the fix: a first push of three commits reviewed only the last."""
    payload = push(repo, None, "trivial", "base", "clean", "trivial")
    step = runner(repo, "push", payload)
    assert step.manifest is not None
    assert step.manifest["range"]["base"] is None
    assert len(step.manifest["range"]["commits"]) == 3


def test_a_list_of_commits_github_may_have_cut_decides_no_base(repo: Path, runner: Runner) -> None:
    """A third review: a list without the head commit (GitHub cuts long ones) made the
    head its own base, and nothing was reviewed. Then the branch's commits no other
    remote branch holds are (here none has a remote: all of them)."""
    step = runner(repo, "push", push(repo, None, "trivial", "clean"))
    assert step.manifest is not None
    assert step.manifest["range"]["head"] == sha(repo, "trivial")
    assert step.manifest["range"]["base"] is None
    assert len(step.manifest["range"]["commits"]) == 3


def test_a_force_push_back_to_an_older_commit_has_nothing_to_review(
    repo: Path, runner: Runner
) -> None:
    """A review of the fix: `before` the clone lacks and no commit listed (a branch
    reset to an older commit) failed the step with exit 3."""
    payload = push(repo, "clean", "trivial")
    payload["before"] = "0123456789abcdef" * 2 + "01234567"
    step = runner(repo, "push", payload)
    assert (step.status, step.manifest) == (0, None)
    assert "skip=true\n" in step.outputs


def test_a_force_push_whose_before_the_clone_lacks_reviews_what_it_brought(
    repo: Path, runner: Runner
) -> None:
    """Found by a twelfth adversarial review: after a force-push `before` is on no
    branch, a full clone lacks it, and the step failed with exit 3."""
    payload = push(repo, "clean", "trivial", "trivial")
    payload["before"] = "0123456789abcdef" * 2 + "01234567"
    step = runner(repo, "push", payload)
    assert step.status == 0, step.stderr
    assert "is not in this clone (a force-push): reviewing what the push brought" in step.stderr
    assert step.manifest is not None
    assert step.manifest["range"]["spec"] == f"{sha(repo, 'clean')}..{sha(repo, 'trivial')}"


def test_a_deleted_branch_has_nothing_to_review(repo: Path, runner: Runner) -> None:
    step = runner(repo, "push", push(repo, "clean", None))
    assert (step.status, step.stdout, step.manifest) == (0, "", None)
    assert step.stderr == "gitreview: the push deleted its ref: nothing to review\n"
    assert step.outputs == (
        "manifest=\nbriefs=\nsignificant=0\ntrivial=0\nhandles=0\nerrors=0\nwarnings=0\n"
        "notices=0\nreduction=0.0\nskip=true\nsarif=\n"
    )


def test_inputs_override_the_event(repo: Path, runner: Runner) -> None:
    step = runner(
        repo, "pull_request", pull_request(repo, "base", "fixup"), base="base", head="clean"
    )
    assert step.manifest is not None
    assert step.manifest["range"]["spec"] == "base...clean"
    head_only = runner(repo, "push", push(repo, "base", "fixup", "fixup"), head="trivial")
    assert head_only.manifest is not None
    assert head_only.manifest["range"]["spec"] == f"{sha(repo, 'base')}..trivial"


def test_other_events_review_github_sha(
    repo: Path, runner: Runner, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GITHUB_SHA", sha(repo, "leftover"))
    step = runner(repo, "workflow_dispatch", {"inputs": {}})
    assert step.manifest is not None
    assert step.manifest["range"]["spec"] == sha(repo, "leftover")
    with_base = runner(repo, "schedule", None, base="base", head="fixup")
    assert with_base.manifest is not None
    assert with_base.manifest["range"]["spec"] == "base...fixup"


def test_fallback_puts_unanalyzed_files_in_the_manifest(repo: Path, runner: Runner) -> None:
    payload = push(repo, "base", "clean", "clean")
    assert "fallback" not in (runner(repo, "push", payload).manifest or {})
    step = runner(repo, "push", payload, fallback="true")
    assert step.manifest is not None
    assert step.manifest["fallback"]["files"] == 1
    script = next(f for f in step.manifest["files"] if f["path"] == "scripts/run.sh")
    assert script["full"]["content"] == '#!/bin/sh\nexec python3 -m app "$@"\n'
    assert "--fallback put their full content in the manifest" in step.summary


def test_role_limits_the_outputs_and_the_summary(repo: Path, runner: Runner) -> None:
    payload = pull_request(repo, "base", "clean")
    step = runner(repo, "pull_request", payload, role="default")
    assert step.manifest is not None
    assert "handles=2\n" in step.outputs
    assert "**default**: 2 handles in 2 files" in step.summary
    unknown = runner(repo, "pull_request", payload, role="docs")
    assert (unknown.status, unknown.stdout, unknown.outputs) == (2, "", "")
    assert unknown.stderr == (
        "git review-manifest: error: unknown role 'docs': the roles are default\n"
    )
    # A role the configuration names that got nothing: no handles, the step passes
    # (found by a twelfth adversarial review: it failed the step).
    git(repo, "checkout", "--quiet", "base")
    (repo / ".gitreview.yml").write_text("roles:\n  docs:\n    kinds: [markdown]\n")
    git(repo, "add", ".gitreview.yml")
    git(repo, "commit", "--quiet", "-m", "Roles")
    git(repo, "tag", "roles")
    git(repo, "checkout", "--quiet", "clean")
    git(repo, "rebase", "--quiet", "roles")
    git(repo, "tag", "clean-with-roles")
    idle = runner(
        repo, "pull_request", pull_request(repo, "roles", "clean-with-roles"), role="docs"
    )
    assert idle.status == 0, idle.stderr
    assert "handles=0\n" in idle.outputs


@pytest.mark.parametrize(
    ("inputs", "message"),
    [
        (
            {"fail_on": "fatal"},
            "the fail-on input must be error, warning, info or never, not 'fatal'",
        ),
        ({"fallback": "yes"}, "the fallback input must be true or false, not 'yes'"),
    ],
)
def test_bad_inputs(repo: Path, runner: Runner, inputs: dict[str, str], message: str) -> None:
    step = runner(repo, "pull_request", pull_request(repo, "base", "clean"), **inputs)
    assert (step.status, step.stdout, step.outputs) == (2, "", "")
    assert step.stderr == f"git review-manifest: error: {message}\n"


def test_bad_payloads(repo: Path, runner: Runner, tmp_path: Path) -> None:
    step = runner(repo, "pull_request", {"action": "opened"})
    assert step.status == 3
    assert step.stderr == (
        "git review-manifest: error: the pull_request event payload has no "
        "pull_request.base.sha and pull_request.head.sha (hint: give the base and head inputs)\n"
    )
    runner.monkeypatch.setenv("GITHUB_EVENT_PATH", str(tmp_path / "missing.json"))
    result = run("ci", "--repo", repo)
    assert (result.status, result.stderr) == (
        3,
        f"git review-manifest: error: cannot read the event payload "
        f"{tmp_path / 'missing.json'}: No such file or directory\n",
    )
    nothing = runner(repo, "workflow_dispatch", {})
    assert (nothing.status, nothing.stderr) == (
        3,
        "git review-manifest: error: no range to review: neither the event nor the inputs "
        "name a head commit (hint: run it from GitHub Actions, or set INPUT_BASE and "
        "INPUT_HEAD)\n",
    )


def test_shallow_checkout_says_to_fetch_the_whole_history(
    repo: Path, runner: Runner, tmp_path: Path
) -> None:
    clone = tmp_path / "clone"
    subprocess.run(
        ["git", "clone", "--quiet", "--depth", "1", "--branch", "fixup", f"file://{repo}", clone],
        check=True,
        capture_output=True,
    )
    step = runner(clone, "pull_request", pull_request(repo, "main-later", "fixup"))
    what = f"the base commit {sha(repo, 'main-later')[:12]}"
    assert (step.status, step.stdout, step.outputs) == (3, "", "")
    assert step.stderr == SHALLOW.format(what=what)
    new_branch = runner(clone, "push", push(repo, None, "fixup", "leftover", "fixup"))
    assert (new_branch.status, new_branch.stderr) == (
        3,
        SHALLOW.format(what=f"the parent of {sha(repo, 'leftover')[:12]}"),
    )
    tip = runner(clone, "workflow_dispatch", {}, head="fixup")
    assert (tip.status, tip.stderr) == (
        3,
        SHALLOW.format(what=f"the parent of {sha(repo, 'fixup')[:12]}"),
    )
    named = runner(clone, "workflow_dispatch", {}, base="origin/main", head="fixup")
    assert (named.status, named.stderr) == (3, SHALLOW.format(what="the base commit origin/main"))


def test_without_runner_temp_the_manifest_goes_to_the_temp_folder(
    repo: Path, runner: Runner, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    monkeypatch.setenv("GITHUB_SHA", sha(repo, "trivial"))
    result = run("ci", "--repo", repo)
    assert result.status == 0, result.stderr
    validate_manifest(json.loads((tmp_path / "tmp/gitreview/manifest.json").read_text("utf-8")))


def test_outputs_on_several_lines_use_a_delimiter() -> None:
    text = ci.format_outputs([("one", "a"), ("two", "b\nGITREVIEW_EOF\nc")])
    assert text == "one=a\ntwo<<GITREVIEW_EOF_\nb\nGITREVIEW_EOF\nc\nGITREVIEW_EOF_\n"


def test_action_passes_every_input_and_maps_every_output() -> None:
    action = yaml.safe_load((PROJECT_ROOT / "action.yml").read_text("utf-8"))
    assert action["runs"]["using"] == "composite"
    step = next(s for s in action["runs"]["steps"] if s.get("id") == "gitreview")
    passed = {name: value for name, value in step["env"].items() if name.startswith("INPUT_")}
    assert passed == {
        f"INPUT_{name.upper()}": f"${{{{ inputs.{name} }}}}" for name in action["inputs"]
    }
    assert set(passed) == {f"INPUT_{name}" for name in INPUTS}
    names = [name for name, _ in ci.outputs(_empty_manifest(), Path("m.json"))]
    assert list(action["outputs"]) == names
    for name, output in action["outputs"].items():
        assert output["value"] == f"${{{{ steps.gitreview.outputs.{name} }}}}"
        assert output["description"]
    for name, entry in action["inputs"].items():
        assert entry["description"] and entry["required"] is False, name


def _empty_manifest() -> dict[str, Any]:
    counts = {"total": 0, "trivial": 0, "significant": 0}
    return {
        "summary": {"files": counts, "hunks": counts, "findings": dict.fromkeys(SEVERITIES, 0)},
        "tokens": {"reduction": {"diff": 0.0, "full": 0.0}},
        "review": {},
        "findings": [],
    }


def test_since_the_head_reviewed_last_sends_only_what_is_new(repo: Path, runner: Runner) -> None:
    # The previous push's head was `clean`: its script and greeting were reviewed then.
    step = runner(repo, "pull_request", pull_request(repo, "main-later", "leftover"), since="clean")
    assert step.manifest is not None
    since = step.manifest["since"]
    assert (since["spec"], since["hunks"]) == ("clean", 1)
    routed = [
        i["handle"]
        for r in step.manifest["review"].values()
        for b in r["batches"]
        for i in b["handles"]
    ]
    assert [handle.split(":")[0] for handle in routed] == ["src/app.py"]
    briefs = sorted(p.name for p in (runner.temp / "gitreview").glob("brief-*.md"))
    assert briefs == ["brief-default.md"]
    brief = (runner.temp / "gitreview" / "brief-default.md").read_text("utf-8")
    assert "breakpoint()" in brief and "exec python3" not in brief


def test_a_since_the_clone_lacks_reviews_everything(repo: Path, runner: Runner) -> None:
    step = runner(
        repo, "pull_request", pull_request(repo, "main-later", "leftover"), since="f" * 40
    )
    assert step.manifest is not None and "since" not in step.manifest
    assert (
        f"gitreview: unknown revision '{'f' * 40}' (--since): reviewing the whole range\n"
        in step.stderr
    )


# -- GitHub's limits (issue #13) ------------------------------------------------------


def built(tmp_path: Path, name: str, commits: list[dict[str, Any]]) -> Path:
    repo = tmp_path / name
    repo.mkdir()
    git(repo, "init", "--quiet", "--initial-branch=main")
    document = {"description": name, "commits": commits}
    for index, spec in enumerate(parse_repo(document, where=name).commits):
        build_commit(repo, spec, commit_date(index))
    return repo


def test_annotations_come_most_severe_first_and_the_summary_counts_the_rest(
    runner: Runner, tmp_path: Path
) -> None:
    files: dict[str, Any] = {f"notes/n{n:02}.txt": "spaces after   \n" for n in range(11)}
    files |= {f"src/d{n:02}.py": "def f():\n    breakpoint()\n" for n in range(12)}
    files |= {f"conflicts/c{n:02}.txt": "<<<<<<< HEAD\nours\n" for n in range(13)}
    repo = built(
        tmp_path,
        "many-findings",
        [
            {"message": "Base", "tag": "base", "files": {"README.md": "# Demo\n"}},
            {"message": "Add many leftovers", "tag": "head", "files": files},
        ],
    )
    step = runner(repo, None, base="base", head="head")
    assert step.status == 1
    commands = [line.split(" ")[0] for line in step.stdout.splitlines()]
    assert commands == ["::error"] * 13 + ["::warning"] * 12 + ["::notice"] * 11 + ["gitreview:"]
    assert step.stdout.splitlines()[0].startswith("::error file=conflicts/c00.txt,line=1,")
    assert step.stdout.splitlines()[13].startswith("::warning file=src/d00.py,line=2,")
    assert step.summary.endswith(
        "\n**Annotations**: 3 more errors, 2 more warnings and 1 more notice than GitHub "
        "annotates in one step (10 of each severity): every finding is in the manifest.\n"
    )
    # Every finding is also in the SARIF file the README's workflow uploads to code scanning.
    assert step.manifest is not None
    sarif = runner.manifest_path.with_name("findings.sarif").read_text("utf-8")
    assert sarif == render(step.manifest, "sarif")
    assert len(json.loads(sarif)["runs"][0]["results"]) == 13 + 12 + 11


def test_the_step_summary_of_a_huge_range_stays_under_one_mebibyte(
    runner: Runner, tmp_path: Path
) -> None:
    # Fifty commits whose subjects are 30 KB each: the report lists them all (50 is
    # its cap), about 1.5 MB in all.
    commits: list[dict[str, Any]] = [{"message": "Base", "tag": "base", "files": {"a.txt": "0\n"}}]
    commits += [
        {"message": f"Step {n} " + "word " * 6000, "files": {"a.txt": f"{n}\n"}}
        for n in range(1, 51)
    ]
    repo = built(tmp_path, "huge", commits)
    step = runner(repo, None, base="base", head="main")
    assert step.status == 0, step.stderr
    # Cut at a line boundary: at most one subject line (30 KB) short of the limit.
    assert 1024 * 1024 - 32_000 < len(step.summary.encode("utf-8")) <= 1024 * 1024
    assert step.summary.startswith(render(step.manifest or {}, "markdown")[:100_000])
    last = step.summary.splitlines()[-1]
    assert last.startswith("**Cut here** to stay under GitHub's limit of 1024 KiB for a step ")
    assert last.endswith(" lines left out; the manifest has everything.")
    again = runner(repo, None, base="base", head="main")
    assert again.summary == step.summary
