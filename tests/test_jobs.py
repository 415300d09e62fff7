"""Files proved in worker processes (issue 12): the same bytes out as one process,
with the cache or without, in order, for every kind of change and finding."""

from pathlib import Path
from typing import Any

import pytest
from manifests import run
from repos import RepoFactory, git

from gitreview import verdicts
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


def _large_repo(tmp_path: Path) -> tuple[Path, int]:
    """PARALLEL_FROM + 21 pages and modules, then a commit editing half of them."""
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
    return repo, count


def test_a_large_range_uses_the_cores_by_itself(tmp_path: Path) -> None:
    """Past PARALLEL_FROM files the default is one worker per core: its manifest is
    the one a single process writes, hits and misses interleaved."""
    repo, count = _large_repo(tmp_path)
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


def test_workers_start_only_for_a_full_batch_of_cache_misses(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A large range whose blob pairs were nearly all proved before starts no worker
    (starting them costs more than the few misses): the misses are proved here."""
    repo, _ = _large_repo(tmp_path)
    calls = _pool_calls(monkeypatch, "warm", "_start")
    first = output(repo, "HEAD~1..HEAD", "--jobs", "2")
    # Cold, every file a miss: started ahead, before the first batch was full, once.
    assert calls == ["warm", "_start"]
    # Another budget: the kept result does not serve, every verdict does.
    again = output(repo, "HEAD~1..HEAD", "--jobs", "2", "--budget", "100000")
    assert again[0] == first[0]
    assert calls == ["warm", "_start"]  # verdicts were kept: no worker started at all
    # A few misses: fewer than a batch.
    for index in (1, 3, 5):
        module = repo / "src" / f"mod{index}.py"
        module.write_text(module.read_text() + "\n\ndef g(y):\n    return y\n")
    git(repo, "commit", "--quiet", "-am", "Three more functions")
    mixed = output(repo, "HEAD~2..HEAD", "--jobs", "2")
    assert calls == ["warm", "_start"]
    assert mixed == output(repo, "HEAD~2..HEAD", "--no-cache", "--jobs", "1")


def test_what_workers_store_is_what_this_process_would(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Workers send back each entry as the cache holds it, and this process stores
    those bytes as they came: they read back as the entries one process stores, and
    none of them was pickled again here."""
    import shutil

    from test_cache import database, entries

    from gitreview import cache, verdicts

    repo, count = _large_repo(tmp_path)
    changed = 2 * len(range(0, count, 2))  # half the pages and half the modules
    pickled: list[int] = []
    stored = cache.stored

    def counted(entry: cache.Entry) -> bytes:
        pickled.append(1)
        return stored(entry)

    monkeypatch.setattr(cache, "stored", counted)
    monkeypatch.setattr(verdicts, "stored", counted)  # where an entry is kept
    output(repo, "HEAD~1..HEAD", "--jobs", "2")
    by_workers = entries(repo)
    assert len(by_workers) == changed and pickled == []  # the workers pickled them
    shutil.rmtree(database(repo).parent)
    output(repo, "HEAD~1..HEAD", "--jobs", "1")
    alone = entries(repo)
    assert len(pickled) == changed
    assert by_workers.keys() == alone.keys()
    for key, data in by_workers.items():
        assert cache.restored(data) == cache.restored(alone[key])


def test_jobs_must_be_one_or_more(fixture_repo: RepoFactory) -> None:
    status, _, stderr = output(fixture_repo("kinds"), "v1..v2", "--jobs", "0")
    assert status == 2
    assert "--jobs must be 1 or more" in stderr


def _edited_files(tmp_path: Path, count: int, seconds: int) -> Path:
    """`count` text files edited in one commit, under a base that limits a file's
    proof to `seconds` (a fresh worker's start-up counts in it)."""
    repo = tmp_path / "edited"
    repo.mkdir()
    git(repo, "init", "--quiet", "--initial-branch=main")
    (repo / ".gitreview.yml").write_text(f"proof_seconds: {seconds}\n")
    for index in range(count):
        (repo / f"notes{index}.txt").write_text(f"Note {index}.\n")
    git(repo, "add", ".")
    git(repo, "commit", "--quiet", "-m", "Notes")
    for index in range(count):
        (repo / f"notes{index}.txt").write_text(f"Note {index}, longer.\n")
    git(repo, "commit", "--quiet", "-am", "Longer notes")
    return repo


def test_a_proof_that_hangs_in_a_worker_is_reported_and_the_range_reviewed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its workers are ended, the stuck batch's files proved one at a time in fresh
    ones: the file still past `proof_seconds` is timed out (t1 missing, every hunk
    significant), every other file is what it always is, and nothing of the timed
    out proof is kept in the cache."""
    repo = _edited_files(tmp_path, 40, 5)
    expected = run("--repo", repo, "HEAD~1..HEAD", "--no-cache", "--jobs", "1").manifest
    monkeypatch.setenv("GITREVIEW_TEST_HANG", "notes7.txt")  # tests only: that proof hangs
    result = run("--repo", repo, "HEAD~1..HEAD", "--jobs", "2")
    assert result.status == 0, result.stderr
    files = {entry["path"]: entry for entry in result.manifest["files"]}
    stuck = files.pop("notes7.txt")
    assert (stuck["t1"], stuck["t1_cause"]) == ("missing", "timed-out")
    assert (stuck["classification"], stuck["reasons"]) == ("significant", ["no-analysis"])
    assert files == {e["path"]: e for e in expected["files"] if e["path"] != "notes7.txt"}
    monkeypatch.delenv("GITREVIEW_TEST_HANG")
    again = run("--repo", repo, "HEAD~1..HEAD", "--jobs", "2").manifest
    assert again == expected


def test_a_proof_that_hangs_in_this_process_stops_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What it was in the middle of cannot be trusted: one line naming the file,
    status 70, no manifest."""
    repo = _edited_files(tmp_path, 3, 2)
    monkeypatch.setenv("GITREVIEW_TEST_HANG", "notes1.txt")
    result = run("--repo", repo, "HEAD~1..HEAD", "--no-cache")
    assert (result.status, result.stdout) == (70, "")
    assert result.stderr == (
        "git review-manifest: error: proving notes1.txt took longer than 2 s (proof_seconds): "
        "stopped (hint: proved in worker processes (a range of 256 files or more, or --jobs 2 "
        "with 16 or more to prove), such a file is reported, timed out, and the rest reviewed)\n"
    )


def test_a_timer_the_calling_program_runs_is_left_alone(tmp_path: Path) -> None:
    """gitreview as a library (build_manifest) in a program with its own alarm: no
    deadline of its own then, and the program's timer and handler are as they were."""
    import signal

    repo = _edited_files(tmp_path, 3, 1)

    def handler(_signal: int, _frame: object) -> None:
        raise AssertionError("the program's alarm rang during the run")

    previous = signal.signal(signal.SIGALRM, handler)
    signal.setitimer(signal.ITIMER_REAL, 100)
    try:
        assert run("--repo", repo, "HEAD~1..HEAD", "--no-cache").status == 0
        assert signal.getitimer(signal.ITIMER_REAL)[0] > 90
        assert signal.getsignal(signal.SIGALRM) is handler
        signal.setitimer(signal.ITIMER_REAL, 0)  # its handler alone: left alone too
        assert run("--repo", repo, "HEAD~1..HEAD", "--no-cache").status == 0
        assert signal.getsignal(signal.SIGALRM) is handler
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def test_workers_started_ahead_end_with_a_run_that_fails_before_its_first_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Workers started once the range's size is known, before the attributes are
    read, do not outlive a run that stops there: the error is told and no worker
    is left."""
    import multiprocessing

    from gitreview import pipeline
    from gitreview.errors import Exit, UserError

    repo, _ = _large_repo(tmp_path)

    def fails(_self: object, _paths: object) -> None:
        raise UserError("cannot read the attributes", status=Exit.RANGE)

    monkeypatch.setattr(pipeline._TreeAttributes, "read_ahead", fails)
    calls = _pool_calls(monkeypatch, "warm")
    with pytest.raises(UserError, match="cannot read the attributes"):
        pipeline.classify_range(repo, "HEAD~1..HEAD", cache=False, jobs=2)
    assert calls == ["warm"]
    assert multiprocessing.active_children() == []


def _pool_calls(monkeypatch: pytest.MonkeyPatch, *names: str) -> list[str]:
    """The names of the worker pool's `names` methods, in the order they are called
    (each still does what it did)."""
    calls: list[str] = []
    for name in names:
        method = getattr(verdicts.Pool, name)

        def counted(pool: verdicts.Pool, name: str = name, method: Any = method) -> None:
            calls.append(name)
            method(pool)

        monkeypatch.setattr(verdicts.Pool, name, counted)
    return calls


def _children(pid: int) -> set[int]:
    """The processes whose parent is `pid`, read from /proc."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                status = (entry / "status").read_text()
            except OSError:
                continue
            if f"\nPPid:\t{pid}\n" in status:
                found.add(int(entry.name))
    return found


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc")
def test_workers_end_when_the_process_that_started_them_is_killed(tmp_path: Path) -> None:
    """Found by an adversarial review: an MCP server stopped by SIGTERM mid-call left
    its workers waiting for batches for good, holding its stderr open."""
    import signal
    import subprocess
    import sys
    import time

    from repos import isolated_environment

    repo = _edited_files(tmp_path, 40, 60)
    command = Path(sys.executable).parent / "git-review-manifest"
    env = isolated_environment({"GITREVIEW_TEST_HANG": "notes7.txt"})  # a worker stays busy
    process = subprocess.Popen(
        [command, "--repo", repo, "HEAD~1..HEAD", "--no-cache", "--jobs", "2"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    workers: set[int] = set()
    for _ in range(100):  # they start within a few seconds
        workers = {pid for pid in _children(process.pid) if b"spawn_main" in _cmdline(pid)}
        if len(workers) >= 2:
            break
        time.sleep(0.1)
    assert len(workers) >= 2
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=30)
    for _ in range(100):
        if not any(map(_running, workers)):
            break
        time.sleep(0.1)
    assert not [pid for pid in workers if _running(pid)]


def _running(pid: int) -> bool:
    """Whether the process is there and not a zombie (a container's first process
    may never reap the orphans it inherits)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "\nState:\tZ" not in status


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""
