"""Files proved in worker processes (issue 12): the same bytes out as one process,
with the cache or without, in order, for every kind of change and finding."""

from pathlib import Path

import pytest
from manifests import run
from repos import RepoFactory, git

from gitreview.verdicts import PARALLEL_FROM

RANGES = [
    ("kinds", "v1..v2"),
    ("kinds", "v2..v3"),
    ("moves", "v1..v2"),
    ("findings", "v1..v2"),
    ("markdown_elsewhere", "v1..v2"),
    ("roles", "v1..v2"),
]


def output(repo: Path, *args: str) -> tuple[int, str, str]:
    result = run("--repo", repo, *args)
    return result.status, result.stdout, result.stderr


@pytest.mark.parametrize(("name", "spec"), RANGES)
def test_workers_write_the_bytes_of_one_process(
    writable_repo: RepoFactory, name: str, spec: str
) -> None:
    repo = writable_repo(name)
    alone = output(repo, spec, "--no-cache", "--jobs", "1")
    assert alone[2] == ""
    assert output(repo, spec, "--no-cache", "--jobs", "2") == alone
    assert output(repo, spec, "--jobs", "3") == alone  # stored by workers...
    assert output(repo, spec, "--jobs", "2") == alone  # ...and read back


def test_a_large_range_uses_the_cores_by_itself(tmp_path: Path) -> None:
    """Past PARALLEL_FROM files the default is one worker per core: its manifest is
    the one a single process writes, hits and misses interleaved."""
    repo = tmp_path / "large"
    repo.mkdir()
    git(repo, "init", "--quiet", "--initial-branch=main")
    count = PARALLEL_FROM + 21  # its last page, edited, links to one that does not exist
    for index in range(count):
        page = repo / "docs" / f"page{index}.md"
        page.parent.mkdir(exist_ok=True)
        page.write_text(f"# Page {index}\n\nSee [next](page{index + 1}.md).\n\nText {index}.\n")
        module = repo / "src" / f"mod{index}.py"
        module.parent.mkdir(exist_ok=True)
        module.write_text(f"def f{index}(x):\n    return x + {index}\n")
    git(repo, "add", ".")
    git(repo, "commit", "--quiet", "-m", "Pages and modules")
    for index in range(0, count, 2):
        page = repo / "docs" / f"page{index}.md"
        page.write_text(page.read_text().replace("Text", "Words"))
        module = repo / "src" / f"mod{index}.py"
        module.write_text(module.read_text().replace("return x", "return  x"))
    git(repo, "commit", "--quiet", "-am", "Edit half")
    alone = output(repo, "HEAD~1..HEAD", "--no-cache", "--jobs", "1")
    assert alone[0] == 1, alone[2]
    assert output(repo, "HEAD~1..HEAD", "--no-cache") == alone
    # Half the files proved before: hits between batches keep their place.
    for index in range(0, count, 4):
        page = repo / "docs" / f"page{index}.md"
        page.write_text(page.read_text() + "\nMore.\n")
    git(repo, "commit", "--quiet", "-am", "Edit a quarter again")
    output(repo, "HEAD~2..HEAD~1")
    assert output(repo, "HEAD~2..HEAD") == output(repo, "HEAD~2..HEAD", "--no-cache", "-j", "1")


def test_jobs_must_be_one_or_more(fixture_repo: RepoFactory) -> None:
    status, _, stderr = output(fixture_repo("kinds"), "v1..v2", "--jobs", "0")
    assert status == 2
    assert "--jobs must be 1 or more" in stderr
