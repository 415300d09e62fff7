"""The cache of proved verdicts (issue 12): a warm run writes the same bytes as a
cold one, reuses what it stored, asks the head again what a file's links relied
on, and never lets the cache fail a run or touch the working tree or objects."""

import io
import itertools
import os
import pickle
import sqlite3
import subprocess
import sys
import time
import tracemalloc
import zlib
from pathlib import Path

import pytest
from manifests import run, validate_manifest
from repos import RepoFactory, git, isolated_environment

from gitreview.analyze import Analysis
from gitreview.cache import FOLDER, RESULTS_KEPT, Cache, Entry, code_digest, stored
from gitreview.classify.base import FileVerdict
from gitreview.git import BlobStream
from gitreview.model import Finding
from gitreview.render.json import serialize
from gitreview.review.diffs import NO_KEYS

BROKEN = "markdown/broken-link"
ANCHOR = "markdown/broken-anchor"


def cached(repo: Path, *args: str) -> str:
    result = run("--repo", repo, *args)
    assert result.status in (0, 1), result.stderr
    assert result.stderr == ""
    return result.stdout


def cold(repo: Path, *args: str) -> str:
    return cached(repo, *args, "--no-cache")


def database(repo: Path) -> Path:
    return repo / ".git" / FOLDER / f"{code_digest()}.sqlite"


def entries(repo: Path) -> dict[str, bytes]:
    """The stored entries by key (none when there is no database yet)."""
    if not database(repo).exists():
        return {}
    with sqlite3.connect(database(repo)) as db:
        return dict(db.execute("SELECT key, entry FROM entries ORDER BY key"))


def store(repo: Path, changed: dict[str, bytes]) -> None:
    """Entries written over, as a person or a program with access to .git could; the
    whole ranges' results go, so that the next run reads entries."""
    with sqlite3.connect(database(repo)) as db:
        db.executemany(
            "UPDATE entries SET entry = ? WHERE key = ?", [(v, k) for k, v in changed.items()]
        )
        db.execute("DELETE FROM results")


def results(repo: Path) -> dict[str, bytes]:
    with sqlite3.connect(database(repo)) as db:
        return dict(db.execute("SELECT key, result FROM results ORDER BY rowid"))


def plant_results(repo: Path, result: object) -> None:
    with sqlite3.connect(database(repo)) as db:
        data = b"gitreview-cache 1\n" + zlib.compress(pickle.dumps(result))
        db.execute("UPDATE results SET result = ?", (data,))


def rules_at(output: str, path: str) -> list[str]:
    from json import loads

    return [f["rule"] for f in loads(output)["findings"] if f["path"] == path]


def test_a_warm_run_writes_the_bytes_of_a_cold_one(writable_repo: RepoFactory) -> None:
    repo = writable_repo("cache")
    objects = git(repo, "count-objects", "-v")
    expected = cold(repo, "v0..v1")
    assert not (repo / ".git" / FOLDER).exists()  # --no-cache keeps nothing either
    assert cached(repo, "v0..v1") == expected
    kept = entries(repo)
    assert len(kept) == 2  # docs/a.md and src/app.py
    assert cached(repo, "v0..v1") == expected
    assert entries(repo) == kept
    assert git(repo, "status", "--porcelain", "--ignored") == ""
    assert git(repo, "count-objects", "-v") == objects


def test_what_a_file_s_links_relied_on_is_asked_again(writable_repo: RepoFactory) -> None:
    """docs/a.md has the same blob pair in all three ranges; its link's target is
    there, then deleted, then its heading renamed."""
    repo = writable_repo("cache")
    assert rules_at(cached(repo, "v0..v1"), "docs/a.md") == []
    renamed = cached(repo, "v0..v3")  # b.md is still there: only its content differs
    assert rules_at(renamed, "docs/a.md") == [ANCHOR]
    assert renamed == cold(repo, "v0..v3")
    deleted = cached(repo, "v0..v2")
    assert rules_at(deleted, "docs/a.md") == [BROKEN]
    assert deleted == cold(repo, "v0..v2")


def test_a_stored_entry_is_what_a_warm_run_reuses(writable_repo: RepoFactory) -> None:
    repo = writable_repo("cache")
    cached(repo, "v0..v1")
    planted = Finding("markdown/heading-skip", "warning", "docs/a.md", 1, "planted")
    changed = {}
    for key, data in entries(repo).items():
        entry = pickle.loads(data.partition(b"\n")[2])
        assert isinstance(entry, Entry)
        entry = entry._replace(findings=(*entry.findings, planted))
        changed[key] = b"gitreview-cache 1\n" + pickle.dumps(entry)
    store(repo, changed)
    assert rules_at(cached(repo, "v0..v1"), "docs/a.md") == ["markdown/heading-skip"] * 2
    assert rules_at(cold(repo, "v0..v1"), "docs/a.md") == []


class _Planted:
    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (os.system, ("touch planted-by-cache",))


def test_a_new_database_is_asked_nothing_and_an_old_one_everything(
    writable_repo: RepoFactory, tmp_path: Path
) -> None:
    """A cold run's database held no entry: none of its thousands of files is looked
    up. One that holds entries is asked about each file, whoever wrote them, many
    files in one query; an entry that cannot be read is left out, as a miss."""
    repo = writable_repo("cache")
    cold_store = Cache(tmp_path / "one")
    asked: list[str] = []
    db = cold_store._open()
    assert db is not None
    db.set_trace_callback(asked.append)
    assert cold_store.get("a" * 64) is None and cold_store.get_many(["b" * 64]) == {}
    assert [query for query in asked if "FROM entries" in query] == []
    cold_store.close()
    cached(repo, "v0..v1")
    kept = entries(repo)
    torn = next(iter(kept))
    store(repo, {torn: kept[torn][:40]})
    warm = Cache(database(repo).parent)
    db = warm._open()
    assert db is not None
    db.set_trace_callback(asked.append)
    assert warm.get_many([*kept, "c" * 64]) == {
        key: pickle.loads(data.partition(b"\n")[2]) for key, data in kept.items() if key != torn
    }
    assert len([query for query in asked if "FROM entries" in query]) == 1
    warm.close()


def test_torn_garbage_or_planted_entries_are_misses(writable_repo: RepoFactory) -> None:
    repo = writable_repo("cache")
    expected = cold(repo, "v0..v1")
    cached(repo, "v0..v1")
    (torn, data), (garbage, _) = entries(repo).items()
    store(repo, {torn: data[:40], garbage: b"\0\1\2 not an entry"})
    assert cached(repo, "v0..v1") == expected
    assert entries(repo)[torn] == data  # the misses were stored again, whole
    store(repo, {key: b"gitreview-cache 1\n" + pickle.dumps(_Planted()) for key in entries(repo)})
    assert cached(repo, "v0..v1") == expected
    assert not (repo / "planted-by-cache").exists()
    assert not Path("planted-by-cache").exists()


def test_rows_of_another_type_are_misses(writable_repo: RepoFactory) -> None:
    """Found by an adversarial review: an entry or a range's result kept as text was
    a TypeError, one kept as a large integer a MemoryError (exit 70)."""
    repo = writable_repo("cache")
    expected = cold(repo, "v0..v1")
    assert cached(repo, "v0..v1") == expected
    with sqlite3.connect(database(repo)) as db:
        db.execute("UPDATE results SET result = 'not an entry'")
    assert cached(repo, "v0..v1") == expected
    text, number = list(entries(repo))[:2]
    with sqlite3.connect(database(repo)) as db:
        db.execute("UPDATE entries SET entry = 'not an entry' WHERE key = ?", (text,))
        db.execute("UPDATE entries SET entry = ? WHERE key = ?", (10**18, number))
        db.execute("DELETE FROM results")
    assert cached(repo, "v0..v1") == expected


def test_a_cache_that_cannot_be_written_changes_nothing(writable_repo: RepoFactory) -> None:
    """A full disk or a read-only git directory: the run goes on, uncached, silently."""
    repo = writable_repo("cache")
    expected = cold(repo, "v0..v2")
    blocked = repo / ".git" / FOLDER
    blocked.parent.mkdir(parents=True)
    blocked.write_text("not a folder")
    assert cached(repo, "v0..v2") == expected
    assert blocked.read_text() == "not a folder"
    blocked.unlink()
    blocked.mkdir()
    database(repo).write_bytes(b"not a database, and never one")
    assert cached(repo, "v0..v2") == expected


def test_a_run_that_finds_the_cache_locked_goes_on(writable_repo: RepoFactory) -> None:
    """Another run holding the database's write lock past the timeout costs this one
    its writes, not its manifest."""
    import gitreview.cache

    repo = writable_repo("cache")
    expected = cold(repo, "v0..v1")
    cached(repo, "v0..v2")  # creates the database
    holder = sqlite3.connect(database(repo), isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        before = gitreview.cache._LOCK_SECONDS
        gitreview.cache._LOCK_SECONDS = 0.1
        try:
            assert cached(repo, "v0..v1") == expected
        finally:
            gitreview.cache._LOCK_SECONDS = before
    finally:
        holder.rollback()
        holder.close()


def test_concurrent_runs_agree(writable_repo: RepoFactory) -> None:
    repo = writable_repo("cache")
    expected = cold(repo, "v0..v3")
    command = [sys.executable, "-m", "gitreview", "--repo", str(repo), "v0..v3"]
    env = isolated_environment()
    processes = [
        subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        for _ in range(4)
    ]
    outputs = [process.communicate() for process in processes]
    assert [(out.decode(), err.decode()) for out, err in outputs] == [(expected, "")] * 4
    assert len(entries(repo)) == 3  # docs/a.md, docs/b.md and src/app.py, once each
    assert cached(repo, "v0..v3") == expected


def test_worktrees_share_one_cache(writable_repo: RepoFactory, tmp_path: Path) -> None:
    repo = writable_repo("cache")
    linked = tmp_path / "linked"
    git(repo, "worktree", "add", "--quiet", "--detach", str(linked), "v1")
    expected = cold(linked, "v0..v1")
    assert cached(linked, "v0..v1") == expected
    assert len(entries(repo)) == 2
    assert list((repo / ".git" / "worktrees").rglob("cache")) == []


def test_other_versions_are_pruned_a_day_after_their_last_write(
    writable_repo: RepoFactory,
) -> None:
    repo = writable_repo("cache")
    root = repo / ".git" / FOLDER
    root.mkdir(parents=True)
    old, recent = root / "0123456789abcdef.sqlite", root / "fedcba9876543210.sqlite"
    for file in (old, recent):
        file.write_bytes(b"x")
    day_and_more = time.time() - 25 * 3600
    os.utime(old, (day_and_more, day_and_more))
    cached(repo, "v0..v1")
    assert not old.exists()
    assert recent.exists()
    os.utime(database(repo), (day_and_more, day_and_more))  # this version's is kept
    cached(repo, "v0..v1")
    assert len(entries(repo)) == 2


def test_the_configuration_is_part_of_the_key(writable_repo: RepoFactory, tmp_path: Path) -> None:
    repo = writable_repo("cache")
    config = tmp_path / "review.yml"
    config.write_text("generated: ['docs/**']\n")
    cached(repo, "v0..v1")
    generated = cached(repo, "v0..v1", "--config", str(config))
    assert generated == cold(repo, "v0..v1", "--config", str(config))
    assert generated != cold(repo, "v0..v1")
    validate_manifest(__import__("json").loads(generated))


# --- whole ranges' results ------------------------------------------------------------


def test_a_re_run_of_the_same_range_is_its_kept_result(writable_repo: RepoFactory) -> None:
    """The Actions step run again, or an agent asking for the summary, the brief and
    then the verification of one range: worked out once."""
    repo = writable_repo("cache")
    expected = cold(repo, "v0..v1")
    assert cached(repo, "v0..v1") == expected
    assert len(results(repo)) == 1
    manifest = __import__("json").loads(expected)
    manifest["range"]["spec"] = "kept!!"  # as long as "v0..v1": the same token figure
    plant_results(repo, ([serialize(manifest)], {}, "error"))
    assert __import__("json").loads(cached(repo, "v0..v1"))["range"]["spec"] == "kept!!"
    assert cached(repo, "v0..v2") == cold(repo, "v0..v2")  # another range: its own
    assert cold(repo, "v0..v1") == expected


def test_a_kept_result_is_only_plain_data(writable_repo: RepoFactory) -> None:
    repo = writable_repo("cache")
    expected = cold(repo, "v0..v1")
    cached(repo, "v0..v1")
    planted: object
    for planted in (_Planted(), ("not", "a result"), "garbage", ({}, {}, "error"), ("{", {}, "")):
        plant_results(repo, planted)
        assert cached(repo, "v0..v1") == expected
    assert not (repo / "planted-by-cache").exists()
    assert not Path("planted-by-cache").exists()


def test_a_kept_result_is_text_in_pieces(writable_repo: RepoFactory) -> None:
    """The manifest and the briefs are kept in pieces (manifest.py, review/brief.py):
    a kept result holding anything else is a miss, worked out again, never a traceback."""
    repo = writable_repo("cache")
    expected = cold(repo, "v0..v1", "--format", "brief")
    assert expected.startswith("# Review brief: default")
    text = cached(repo, "v0..v1")
    planted = {"default": ["planted ", "brief\n"]}
    plant_results(repo, ([text[:9], text[9:]], planted, "error"))
    assert cached(repo, "v0..v1", "--format", "brief") == "planted brief\n"
    assert cached(repo, "v0..v1") == text
    for briefs in ({"default": "a whole brief\n"}, {"default": ["piece", 1]}, {"default": None}):
        plant_results(repo, ([text], briefs, "error"))
        assert cached(repo, "v0..v1", "--format", "brief") == expected
    for whole in (text, [text, None]):
        plant_results(repo, (whole, planted, "error"))
        assert cached(repo, "v0..v1", "--format", "brief") == expected


def test_what_else_git_reads_is_part_of_a_result_s_key(writable_repo: RepoFactory) -> None:
    """The same commits, yet git makes something else of them: a rename limit that
    leaves two edited renames unpaired, or a replacement of the head commit."""
    repo = writable_repo("cache")
    git(repo, "checkout", "--quiet", "v1")
    for old, new in (("docs/a.md", "docs/first.md"), ("src/app.py", "src/total.py")):
        git(repo, "mv", old, new)
        with (repo / new).open("a") as file:
            file.write("\n# one line more\n")
    git(repo, "commit", "--quiet", "--all", "--message", "Rename two files and edit them")
    git(repo, "tag", "moved")
    before = cached(repo, "v1..moved")
    assert '"status":"renamed"' in before
    git(repo, "config", "diff.renameLimit", "1")
    unpaired = cached(repo, "v1..moved")
    assert '"status":"renamed"' not in unpaired
    assert unpaired == cold(repo, "v1..moved")
    git(repo, "config", "--unset", "diff.renameLimit")
    assert cached(repo, "v1..moved") == before
    git(
        repo,
        "replace",
        git(repo, "rev-parse", "moved").strip(),
        git(repo, "rev-parse", "v1").strip(),
    )
    replaced = cached(repo, "v1..moved")
    assert replaced != before
    assert replaced == cold(repo, "v1..moved")


def test_each_option_that_changes_a_result_is_part_of_its_key(
    writable_repo: RepoFactory, tmp_path: Path
) -> None:
    repo = writable_repo("cache")
    cached(repo, "v0..v3")
    for options in (
        ("--fallback",),
        ("--format", "full"),
        ("--budget", "1"),
        ("--since", "v1"),
        ("--format", "brief"),
        ("--format", "text"),
    ):
        assert cached(repo, "v0..v3", *options) == cold(repo, "v0..v3", *options), options
    first = tmp_path / "first.json"
    first.write_text(cached(repo, "v0..v1"))
    since = cached(repo, "v0..v3", "--since-manifest", str(first))
    assert since == cold(repo, "v0..v3", "--since-manifest", str(first))
    first.write_text(cached(repo, "v1..v3"))  # the same file, another review
    since = cached(repo, "v0..v3", "--since-manifest", str(first))
    assert since == cold(repo, "v0..v3", "--since-manifest", str(first))


def test_only_the_results_kept_last_stay(writable_repo: RepoFactory) -> None:
    repo = writable_repo("cache")
    for budget in range(1, RESULTS_KEPT + 3):
        cached(repo, "v0..v1", "--budget", str(budget))
    assert len(results(repo)) == RESULTS_KEPT


def test_a_since_is_kept_by_the_name_given_and_an_unknown_one_is_an_error(
    writable_repo: RepoFactory,
) -> None:
    repo = writable_repo("cache")
    cached(repo, "v0..v3")  # a result without --since is kept
    unknown = run("--repo", repo, "--since", "no-such-revision", "v0..v3")
    assert unknown.status == 3
    assert "unknown revision 'no-such-revision' (--since)" in unknown.stderr
    cached(repo, "v0..v3", "--since", "v1")
    named = cached(repo, "v0..v3", "--since", "v1^{commit}")  # the same commit, named otherwise
    assert named == cold(repo, "v0..v3", "--since", "v1^{commit}")


def test_only_the_entries_written_last_stay(writable_repo: RepoFactory, tmp_path: Path) -> None:
    repo = writable_repo("cache")
    cached(repo, "v0..v1")
    entry = pickle.loads(next(iter(entries(repo).values())).partition(b"\n")[2])
    for turn in range(3):
        cache = Cache(tmp_path, entries_kept=4)
        for number in range(3):
            cache.put(f"run{turn}-{number}", stored(entry))
        cache.close()
    with sqlite3.connect(cache.path) as db:
        kept = sorted(key for (key,) in db.execute("SELECT key FROM entries"))
    assert kept == ["run1-2", "run2-0", "run2-1", "run2-2"]
    assert Cache(tmp_path).get("run2-0") == entry


def test_a_kept_result_leaves_its_texts_as_they_were(tmp_path: Path) -> None:
    """Texts not all ASCII (the brief's `⋯` for unchanged lines left out, an excerpt's
    `…`) come back the same, and keeping them caches no UTF-8 copy in each: when a
    large range's result is kept, its manifest and briefs are all held (issue 12)."""
    texts = ["plain", "a gap ⋯ here", "lone \udcff surrogate", "…" * 1000, "é"]
    result = (texts, {"default": texts[1:], "docs": []}, "error")
    sizes = [sys.getsizeof(text) for text in texts]
    cache = Cache(tmp_path)
    cache.keep("range", result)
    assert [sys.getsizeof(text) for text in texts] == sizes
    assert cache.result("range") == result
    cache.close()
    assert Cache(tmp_path).result("range") == result


def test_a_kept_text_is_bytes_or_the_result_is_a_miss(tmp_path: Path) -> None:
    class Refers(pickle.Pickler):
        def persistent_id(self, obj: object) -> object:
            return ("os", "system") if obj == "x" else None

    cache = Cache(tmp_path)
    cache.keep("range", (["x"], {}, "error"))
    assert cache.result("range") == (["x"], {}, "error")
    cache.close()
    planted = io.BytesIO()
    Refers(planted).dump((["x"], {}, "error"))
    with sqlite3.connect(cache.path) as db:
        data = b"gitreview-cache 1\n" + zlib.compress(planted.getvalue())
        db.execute("UPDATE results SET result = ?", (data,))
    assert Cache(tmp_path).result("range") is None


def test_keeping_a_result_holds_no_copy_of_it(tmp_path: Path) -> None:
    """The result is pickled into its compressor piece by piece, with no memo (which
    would hold every text pickled, and each one's UTF-8) and no join of the pieces:
    what keeping allocates at once stays far under the result's own size."""
    texts = [f"row {number} ⋯ " * 40 for number in range(20_000)]  # 11 MB of UTF-8
    cache = Cache(tmp_path)
    cache.keep("warm-up", ([], {}, "error"))  # the database opened, outside the count
    tracemalloc.start()
    try:
        cache.keep("range", (texts, {"default": texts}, "error"))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 2**20
    assert cache.result("range") == (texts, {"default": texts}, "error")
    cache.close()


def test_a_batch_of_entries_is_written_whole_or_not_at_all(tmp_path: Path) -> None:
    """Entries go in one transaction a batch: a run that fails halfway through one (a
    full disk; here a trigger) leaves none of it, and a concurrent run sees all of a
    batch or nothing (each row on its own was also three times the cost)."""
    verdict = FileVerdict("significant", ("content",), ())
    entry = Entry("text", Analysis("text", t1=True), verdict, False, (), NO_KEYS, ())
    cache = Cache(tmp_path)
    cache.put("first", stored(entry))
    cache.close()
    with sqlite3.connect(cache.path) as db:
        db.execute(
            "CREATE TRIGGER refuse BEFORE INSERT ON entries WHEN NEW.key = 'k3' "
            "BEGIN SELECT RAISE(ABORT, 'refused'); END"
        )
    cache = Cache(tmp_path)
    for number in range(5):
        cache.put(f"k{number}", stored(entry))
    cache.close()
    with sqlite3.connect(cache.path) as db:
        assert [key for (key,) in db.execute("SELECT key FROM entries")] == ["first"]
    assert Cache(tmp_path).get("k0") is None


def asked_blobs(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The blobs git is asked for from now on, in order."""
    wanted: list[str] = []
    want = BlobStream.want

    def recorded(stream: BlobStream, names: list[str]) -> None:
        wanted.extend(names)
        want(stream, names)

    monkeypatch.setattr(BlobStream, "want", recorded)
    return wanted


def test_a_hit_that_needs_no_content_is_not_read(
    writable_repo: RepoFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file found in the cache from git's patch alone comes without its blobs,
    which git is never asked for (issue 12). Not even the deleted page's, though a
    moved block could come from its sections: its outline would read it from git,
    and no moved block asks. With every file's content in the manifest (`--format
    full`), every blob is read."""
    repo = writable_repo("cache")
    expected = {form: cold(repo, "v0..v2", "--format", form) for form in ("json", "full")}
    cached(repo, "v0..v2")
    store(repo, {})  # the kept results dropped, every entry kept
    wanted = asked_blobs(monkeypatch)
    assert cached(repo, "v0..v2") == expected["json"]
    assert wanted == []
    wanted.clear()
    assert cached(repo, "v0..v2", "--format", "full") == expected["full"]
    assert git(repo, "rev-parse", "v1:docs/a.md") in wanted


def test_a_binary_file_git_shows_as_text_is_read(
    writable_repo: RepoFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An attribute in $GIT_DIR/info/attributes can make git show a binary file's
    change as text. Made from git's patch alone, its change (not binary, with hunks)
    is not the one its blobs make (binary, no hunks): its key is another, so it is
    not a hit, and its blobs are read."""
    repo = writable_repo("kinds")
    (repo / ".git" / "info").mkdir(exist_ok=True)
    (repo / ".git" / "info" / "attributes").write_text("*.png diff\n")
    assert "Binary files" not in git(repo, "diff", "v1", "v2", "--", "assets/logo.png")
    expected = cold(repo, "v1..v2")
    cached(repo, "v1..v2")
    store(repo, {})
    wanted = asked_blobs(monkeypatch)
    assert cached(repo, "v1..v2") == expected
    assert git(repo, "rev-parse", "v2:assets/logo.png") in wanted


@pytest.mark.parametrize("name", ["moves", "markdown_sections", "kinds", "symbols"])
def test_a_range_whose_verdicts_are_cached_writes_the_bytes_of_a_cold_one(
    writable_repo: RepoFactory, name: str
) -> None:
    """Moved blocks, outlines and every kind of file, as the cache restores them with
    or without their blobs: each range of the fixture run cold, then again with its
    verdicts cached and its result dropped."""
    repo = writable_repo(name)
    tags = git(repo, "tag", "--list").split()
    ranges = [f"{one}..{two}" for one, two in itertools.pairwise(tags)]
    assert ranges
    for rng in ranges:
        expected = cold(repo, rng, "--fallback")
        cached(repo, rng, "--fallback")
        store(repo, {})
        assert cached(repo, rng, "--fallback") == expected, rng


def test_the_code_digest_reads_the_words_and_schemas_verdicts_depend_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The typo rule's word list and the configuration's schemas decide verdicts as the
    code does: a new list (or schema) is a new cache."""
    from gitreview import cache

    read: list[str] = []
    files = cache._files

    def recorded(folder: str, suffix: str) -> list[str]:
        found = files(folder, suffix)
        read.extend(found)
        return found

    monkeypatch.setattr(cache, "_files", recorded)
    cache.code_digest.__wrapped__()
    package = os.path.dirname(cache.__file__)
    words = ("english", "american-only", "british-only")
    for name in (*(f"words/{one}.txt" for one in words), "schemas/config.schema.json"):
        assert os.path.join(package, *name.split("/")) in read, name


def test_the_cache_is_new_when_a_library_file_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A library gitreview reads files with is known by its files' names, sizes and
    times, in every folder under it: one of them edited, the code digest differs."""
    from gitreview import cache

    library = tmp_path / "library"
    (library / "inner").mkdir(parents=True)
    (library / "__init__.py").write_text("")
    (library / "inner" / "reader.py").write_text("LIMIT = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(cache, "_LIBRARIES", ("library",))
    before = cache.code_digest.__wrapped__()
    assert cache.code_digest.__wrapped__() == before
    (library / "inner" / "reader.py").write_text("LIMIT = 10\n")
    assert cache.code_digest.__wrapped__() != before
