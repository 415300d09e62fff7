"""Configuration: read from the base commit, validated, errors that name the key and file.

Why the base and not the head: tests/test_trust.py (issue 11).
"""

from pathlib import Path

import pytest
from manifests import run
from repos import RepoFactory, git


def commit_config(repo: Path, text: str) -> None:
    (repo / ".gitreview.yml").write_text(text)
    git(repo, "add", ".gitreview.yml")
    git(repo, "commit", "--quiet", "-m", "Configure gitreview")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "generatd: ['*.js']\n",
            ".gitreview.yml: unknown key 'generatd' (hint: known keys: detect_copies, "
            "fail_on, frontmatter_schemas, generated, ignore, large_file_bytes, max_file_bytes, "
            "metadata_keys, proof_seconds, roles, rules)",
        ),
        (
            "proof_seconds: 0\n",
            ".gitreview.yml: key 'proof_seconds': 0 is less than or equal to the minimum of 0",
        ),
        ("generated: '*.js'\n", ".gitreview.yml: key 'generated': '*.js' is not of type 'array'"),
        ("generated: [1]\n", ".gitreview.yml: key 'generated.0': 1 is not of type 'string'"),
        (
            "fail_on: sometimes\n",
            ".gitreview.yml: key 'fail_on': 'sometimes' is not one of "
            "['error', 'warning', 'info', 'never']",
        ),
        ("- a\n- b\n", ".gitreview.yml: must be a mapping of keys to values"),
        (
            "rules: {no-such-rule: warning}\n",
            ".gitreview.yml: unknown rule 'rules.no-such-rule' (hint: the README lists every rule)",
        ),
        (
            "rules: {x: loud}\n",
            ".gitreview.yml: key 'rules.x': 'loud' is not one of "
            "['error', 'warning', 'info', 'off']",
        ),
        (
            "generated: [\n",
            ".gitreview.yml: line 2: expected the node content, but found '<stream end>'",
        ),
    ],
)
def test_bad_configuration_at_base(writable_repo: RepoFactory, text: str, message: str) -> None:
    repo = writable_repo("branches")
    commit_config(repo, text)
    (repo / "README.md").write_text("# Greeter\n")
    git(repo, "commit", "--quiet", "--all", "-m", "Shorten the README")
    result = run("--repo", repo, "HEAD")
    assert (result.status, result.stdout) == (4, "")
    assert result.stderr == f"git review-manifest: error: {message}\n"


def test_configuration_is_read_from_base_not_the_working_tree(writable_repo: RepoFactory) -> None:
    repo = writable_repo("branches")
    commit_config(repo, "ignore: ['README.md']\n")
    (repo / "README.md").write_text("# Greeter\n")
    git(repo, "commit", "--quiet", "--all", "-m", "Shorten the README")
    (repo / ".gitreview.yml").write_text("not: [valid\n")  # uncommitted: must not be read
    result = run("--repo", repo, "HEAD")
    assert result.status == 0, result.stderr
    assert result.manifest["files"][0]["reasons"] == ["ignored"]


def test_configuration_of_the_base_commit_applies(writable_repo: RepoFactory) -> None:
    repo = writable_repo("branches")
    commit_config(repo, "ignore: ['*.md']\n")
    (repo / "README.md").write_text("# Greeter\n")
    git(repo, "commit", "--quiet", "--all", "-m", "Shorten the README")
    files = run("--repo", repo, "HEAD~1..HEAD").manifest["files"]
    reasons = {entry["path"]: entry["reasons"] for entry in files}
    assert reasons["README.md"] == ["ignored"]
    # The configuration of the head commit does not apply to its own range.
    files = run("--repo", repo, "HEAD~2..HEAD").manifest["files"]
    reasons = {entry["path"]: entry["reasons"] for entry in files}
    assert reasons["README.md"] == ["content"]


def test_missing_config_file(fixture_repo: RepoFactory, tmp_path: Path) -> None:
    result = run("--repo", fixture_repo("branches"), "HEAD", "--config", tmp_path / "none.yml")
    assert result.status == 4
    assert result.stderr == (
        f"git review-manifest: error: cannot read configuration {tmp_path / 'none.yml'}: "
        "No such file or directory\n"
    )


def test_a_value_yaml_cannot_build_is_a_configuration_error(
    fixture_repo: RepoFactory, tmp_path: Path
) -> None:
    config = tmp_path / "review.yml"
    config.write_text("ignore: []\nnote: 2023-02-30\n")
    result = run("--repo", fixture_repo("branches"), "HEAD", "--config", config)
    assert (result.status, result.stderr) == (
        4,
        f"git review-manifest: error: {config}: day is out of range for month\n",
    )


def test_bad_key_names_the_given_file(fixture_repo: RepoFactory, tmp_path: Path) -> None:
    config = tmp_path / "review.yml"
    config.write_text("ignore: []\nreviewers: {}\n")
    result = run("--repo", fixture_repo("branches"), "HEAD", "--config", config)
    assert result.status == 4
    assert result.stderr.startswith(
        f"git review-manifest: error: {config}: unknown key 'reviewers'"
    )


def test_empty_configuration_is_the_default(fixture_repo: RepoFactory, tmp_path: Path) -> None:
    config = tmp_path / "empty.yml"
    config.write_text("# nothing yet\n")
    assert run("--repo", fixture_repo("branches"), "HEAD", "--config", config).status == 0


@pytest.mark.parametrize("rules", ["{no-such-rule: error}", "{text/secret: error}"])
def test_a_configuration_error_is_told_before_what_git_cannot_read(
    writable_repo: RepoFactory, tmp_path: Path, rules: str
) -> None:
    """git starts on the range before the configuration's rule ids are checked (the
    check loads the analyzers, which git's work overlaps): a bad rule is still the
    error told, not the blob git then fails to read; with good rules, the blob is."""
    repo = writable_repo("kinds")
    blob = git(repo, "rev-parse", "v2:src/settings.py")  # git reads it to pair a rename
    git(repo, "rm", "--quiet", "--cached", "src/settings.py")
    (repo / ".git" / "objects" / blob[:2] / blob[2:]).unlink()
    config = tmp_path / "review.yml"
    config.write_text(f"rules: {rules}\n")
    result = run("--repo", repo, "--config", config, "v1..v2")
    if "no-such-rule" in rules:
        assert (result.status, result.stderr) == (
            4,
            f"git review-manifest: error: {config}: unknown rule 'rules.no-such-rule' "
            "(hint: the README lists every rule)\n",
        )
    else:
        assert result.status == 3
        assert result.stderr.startswith(
            f"git review-manifest: error: src/settings.py: blob {blob[:12]} is missing"
        )
