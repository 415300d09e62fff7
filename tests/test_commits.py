"""Range hygiene (issue #5): commits meant to be squashed or finished before a push."""

from findings import findings_of, manifest_with_findings
from manifests import run
from repos import RepoFactory, git

SQUASH = "is meant to be squashed: rebase with --autosquash before pushing"
FINISH = "is a work in progress: finish or squash it before pushing"


def test_fixup_squash_amend_and_wip_commits(fixture_repo: RepoFactory) -> None:
    repo = fixture_repo("range_hygiene")
    log = git(repo, "log", "--format=%H %s", "v1..v2").splitlines()
    short = {subject: sha[:12] for sha, subject in (line.split(" ", 1) for line in log)}

    def named(subject: str) -> str:
        return f'commit {short[subject]} "{subject}"'

    # Near misses: "Wipe the cache on logout", "Raise WIP_LIMIT to 5", "Add a WIP label to
    # the issue templates", "Mention fixup! commits in the guide". Range findings have no
    # path, so they are ordered by rule and message.
    assert findings_of(manifest_with_findings("--repo", repo, "v1..v2"), "range/") == sorted(
        [
            *(
                ("range/fixup-commit", "error", None, None, f"{named(subject)} {SQUASH}")
                for subject in (
                    "fixup! Add the exporter",
                    "squash! Add the exporter",
                    "amend! Add the exporter",
                )
            ),
            *(
                ("range/wip-commit", "error", None, None, f"{named(subject)} {FINISH}")
                for subject in (
                    "[WIP] half of the importer",
                    "wip: importer retries",
                    "Importer progress WIP",
                )
            ),
        ],
        key=lambda row: (row[0], row[4]),
    )


def test_a_clean_range_passes(fixture_repo: RepoFactory) -> None:
    repo = fixture_repo("range_hygiene")
    assert run("--repo", repo, "v1..v2").status == 1
    result = run("--repo", repo, "v1..v2~10")  # "Add the exporter" alone
    assert result.status == 0, result.stderr
