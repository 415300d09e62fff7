"""Wall time and peak memory of `git review-manifest` next to `git diff -M -p`.

    python benchmarks/bench_speed.py                       # every synthetic case
    python benchmarks/bench_speed.py --case push --case release
    python benchmarks/bench_speed.py --repo PATH RANGE     # any repository (repeatable)
    python benchmarks/bench_speed.py --compare /tmp/old-gitreview   # another source tree too

Builds deterministic repositories (fixed contents, dates and ids; cached under
--workdir) of several sizes, then times, in the same loop, `git diff -M -p` of
the range and `git review-manifest` of it, each as a fresh process (start-up
included): cold (gitreview's cache emptied first), re-run (the same command
again at once: its result is kept) and verdicts cached (again, with the kept
results dropped: a range never seen whose blob pairs all were, what a pull
request that gains a commit pays besides its new files). Verdicts cached is
taken from the second such run: the first of a range that deletes a page makes
the pages' index (page_index.py), which every later run of a clone finds made;
a note says what that first run took when it differs. It prints the medians
of wall and CPU time, their ratios, each one's peak RSS
(GNU time's, for the process and the children it waited for) and the
manifest's token figures. `--compare DIR` also runs the gitreview package found
in DIR (a checkout or `git archive` of another version), cold, each of its runs
paired with one of this version's (one after the other, each first in turn),
for a before/after table that also says in how many pairs this version was the
faster and the median of its time over the other's: on a shared machine whose
speed drifts, a pair run together compares where medians taken minutes apart do
not. Run by hand, never in the test suite (issue 12): figures, not assertions;
the machine is shared, so take medians of several runs.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import posixpath
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
GENERATOR_VERSION = "2"  # bump when a case's contents change, to rebuild the cache
STAMP = 1767225600  # 2026-01-01T00:00:00Z

Tree = dict[str, bytes]

# --- deterministic contents --------------------------------------------------------------------

WORDS = [
    "review",
    "manifest",
    "hunk",
    "handle",
    "finding",
    "reason",
    "range",
    "commit",
    "branch",
    "merge",
    "parser",
    "token",
    "reader",
    "writer",
    "buffer",
    "stream",
    "record",
    "index",
    "cache",
    "value",
    "table",
    "column",
    "layout",
    "section",
    "page",
    "guide",
    "example",
    "option",
    "default",
    "config",
    "server",
    "client",
    "request",
    "response",
    "status",
    "error",
]


def words(rng: random.Random, count: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(count))


def python_module(rng: random.Random, name: str, functions: int) -> str:
    out = [f'"""The {name} module: {words(rng, 6)}."""', "", "import os", "import sys", "", ""]
    for index in range(functions):
        out += [
            f"def {rng.choice(WORDS)}_{name}_{index}(first, second, limit={rng.randint(1, 99)}):",
            f"    '''{words(rng, 8).capitalize()}.'''",
            f"    total = first + second * {rng.randint(2, 9)}",
            "    if total > limit:",
            f"        print('{words(rng, 3)}', total)",
            "        return total - limit",
            f"    items = [first, second, {rng.randint(0, 999)}]",
            "    for item in items:",
            "        total += item",
            "    return total",
            "",
            "",
        ]
    return "\n".join(out).rstrip("\n") + "\n"


def c_file(rng: random.Random, name: str, functions: int) -> str:
    out = [f"/* {name}.c: {words(rng, 6)} */", "#include <stdio.h>", ""]
    for index in range(functions):
        out += [
            f"static int {rng.choice(WORDS)}_{name}_{index}(int first, int second)",
            "{",
            f"\tint total = first + second * {rng.randint(2, 9)};",
            f"\tif (total > {rng.randint(10, 999)}) {{",
            f'\t\tprintf("{words(rng, 3)} %d\\n", total);',
            "\t\treturn total - 1;",
            "\t}",
            "\treturn total;",
            "}",
            "",
        ]
    return "\n".join(out)


def markdown_page(rng: random.Random, title: str, sections: int, others: list[str]) -> str:
    """A page at path `title`, linking to some of the `others` as a writer would: by
    their path from its own folder, so that its links resolve."""
    out = [f"# {title}", "", words(rng, 30).capitalize() + ".", ""]
    for index in range(sections):
        out += [f"## {words(rng, 3).capitalize()} {index}", ""]
        out += [words(rng, 40).capitalize() + ".", ""]
        out += [f"- {words(rng, 6)}" for _ in range(3)] + [""]
        if others:
            target = posixpath.relpath(rng.choice(others), posixpath.dirname(title))
            out += [f"See [{words(rng, 2)}]({target}) for {words(rng, 4)}.", ""]
    return "\n".join(out)


def yaml_file(rng: random.Random, name: str) -> str:
    out = [f"name: {name}", "settings:"]
    out += [f"  {rng.choice(WORDS)}_{i}: {rng.randint(0, 9999)}" for i in range(30)]
    return "\n".join(out) + "\n"


def json_file(rng: random.Random, name: str) -> str:
    data = {"name": name, "values": {f"{rng.choice(WORDS)}_{i}": i for i in range(30)}}
    return json.dumps(data, indent=2) + "\n"


def edit_lines(rng: random.Random, text: str, hunks: int, span: int, *, prose: bool) -> str:
    """`hunks` places where up to `span` lines are rewritten: a word added to prose,
    else a name or a number changed (code and data still parse)."""
    lines = text.split("\n")
    for _ in range(hunks):
        start = rng.randrange(max(1, len(lines) - span))
        for i in range(start, min(len(lines), start + span)):
            line = lines[i]
            if not line.strip():
                continue
            if prose and (line[:1].isalpha() or line.startswith(("#", "-"))):
                lines[i] = f"{line} {rng.choice(WORDS)}"
            else:
                lines[i] = line.replace("total", "amount", 1).replace("1", "7")
    return "\n".join(lines)


def reformat_python(text: str) -> str:
    """A meaning-preserving reformat: quotes and spacing, as black would."""
    return text.replace("'", '"').replace("limit=", "limit = ").replace(", limit = ", ", limit=")


# --- the cases ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    name: str
    description: str
    build: Callable[[], list[Tree]]  # the trees of the commits, oldest first
    version: str = ""  # bumped when this case's contents change


def codebase(rng: random.Random, counts: dict[str, int]) -> Tree:
    tree: Tree = {}
    pages = [f"docs/page{i:05}.md" for i in range(counts.get("md", 0))]
    for i in range(counts.get("py", 0)):
        tree[f"src/pkg{i % 40:02}/mod{i:05}.py"] = python_module(rng, f"m{i}", 8).encode()
    for i in range(counts.get("c", 0)):
        tree[f"lib/dir{i % 30:02}/file{i:05}.c"] = c_file(rng, f"c{i}", 8).encode()
    for path in pages:
        tree[path] = markdown_page(rng, path, 4, pages[:200]).encode()
    for i in range(counts.get("yml", 0)):
        tree[f"config/set{i % 20:02}/conf{i:05}.yml"] = yaml_file(rng, f"y{i}").encode()
    for i in range(counts.get("json", 0)):
        tree[f"data/group{i % 20:02}/item{i:05}.json"] = json_file(rng, f"j{i}").encode()
    return tree


def changed(
    rng: random.Random, base: Tree, *, modify: int, rename: int, add: int, delete: int, hunks: int
) -> Tree:
    """A head tree: `modify` files edited in `hunks` places (every fourth Python file
    also reformatted, which only formatting hunks show), `rename` moved to another
    folder (most with one edit), `add` new, `delete` gone."""
    head = dict(base)
    paths = sorted(base)
    rng.shuffle(paths)
    chosen = iter(paths)
    for number, path in enumerate([next(chosen) for _ in range(modify)]):
        text = base[path].decode()
        if path.endswith(".py") and number % 4 == 0:
            text = reformat_python(text)
        head[path] = edit_lines(rng, text, hunks, 4, prose=path.endswith(".md")).encode()
    for index, path in enumerate([next(chosen) for _ in range(rename)]):
        data = head.pop(path)
        folder, _, name = path.rpartition("/")
        if index % 3:
            data = edit_lines(rng, data.decode(), 1, 2, prose=path.endswith(".md")).encode()
        if index % 4 == 0:
            name = "renamed_" + name
        head[f"{folder}/moved/{name}"] = data
    for path in [next(chosen) for _ in range(delete)]:
        head.pop(path, None)
    extra = codebase(rng, {"py": add // 2, "md": add - add // 2})
    for path, data in extra.items():
        head["new/" + path] = data
    return head


def case_push(extra: Tree | None = None) -> list[Tree]:
    """Three commits editing 15 files, adding 3 and deleting a page (`extra`: more
    files in the base, which the commits do not touch)."""
    rng = random.Random(1)
    base = codebase(rng, {"py": 150, "md": 100, "yml": 30, "json": 20})
    base.update(extra or {})
    commits = [base]
    tree = dict(base)
    edited = sorted(path for path in tree if path not in (extra or {}))
    for round_ in range(3):
        for path in edited[round_ * 7 : round_ * 7 + 5]:
            tree[path] = edit_lines(
                rng, tree[path].decode(), 1, 3, prose=path.endswith(".md")
            ).encode()
        tree[f"tests/test_round{round_}.py"] = python_module(rng, f"t{round_}", 3).encode()
        if round_ == 2:
            del tree["docs/page00003.md"]
        commits.append(dict(tree))
    return commits


def case_push_large() -> list[Tree]:
    """The same push in a repository of 40,000 more Markdown pages, a few of which
    link to the page it deletes."""
    wiki: Tree = {}
    for index in range(40_000):
        target = "../docs/page00003.md" if index % 4000 == 0 else f"p{index + 1:05}.md"
        wiki[f"wiki/w{index // 1000:02}/p{index:05}.md"] = (
            f"# Page {index}\n\nSee [the next page]({target}).\n\nNotes {index}.\n"
        ).encode()
    return case_push(wiki)


# What a repository that uses gitreview holds: every push reads and checks it.
CONFIGURATION = b"""\
generated: ["docs/api/**"]
ignore: ["vendor/"]
fail_on: error
metadata_keys: [updated]
rules:
  text/trailing-whitespace: "off"
roles:
  docs:
    paths: ["**/*.md", "docs/**"]
    kinds: [markdown]
    budget: 6000
  default:
    budget: 20000
"""


def case_push_configured() -> list[Tree]:
    """The same push in a repository with a configuration."""
    return case_push({".gitreview.yml": CONFIGURATION})


def case_pull_request() -> list[Tree]:
    rng = random.Random(2)
    base = codebase(rng, {"py": 1200, "md": 500, "yml": 200, "json": 100})
    head = changed(rng, base, modify=180, rename=10, add=10, delete=0, hunks=3)
    return [base, head]


def case_release() -> list[Tree]:
    rng = random.Random(3)
    base = codebase(rng, {"c": 2500, "py": 2500, "md": 1500, "yml": 800, "json": 700})
    head = changed(rng, base, modify=5000, rename=1050, add=600, delete=300, hunks=4)
    return [base, head]


def case_markdown() -> list[Tree]:
    rng = random.Random(4)
    base = codebase(rng, {"md": 4000, "yml": 50})
    head = changed(rng, base, modify=1500, rename=100, add=100, delete=20, hunks=1)
    return [base, head]


def case_reformat() -> list[Tree]:
    rng = random.Random(5)
    base = codebase(rng, {"py": 1500, "md": 50})
    head = {
        path: reformat_python(data.decode()).encode() if path.endswith(".py") else data
        for path, data in base.items()
    }
    return [base, head]


CASES = {
    case.name: case
    for case in (
        Case(
            "push",
            "everyday push: 3 commits, 19 files (a page deleted), in a 300-file repository",
            case_push,
            version=".2",
        ),
        Case(
            "push-config",
            "the same push in a repository with a .gitreview.yml (roles, rules, globs)",
            case_push_configured,
        ),
        Case(
            "push-large",
            "the same push in a repository of 40,000 more Markdown pages",
            case_push_large,
        ),
        Case("pull-request", "200-file pull request in a 2,000-file repository", case_pull_request),
        Case(
            "release",
            "release range: C, Python, Markdown, YAML, JSON; thousands of files, 1,050 renames",
            case_release,
        ),
        Case(
            "markdown",
            "Markdown-heavy: 1,500 pages edited of 4,000, 100 renamed",
            case_markdown,
            version=".2",
        ),
        Case(
            "reformat",
            "whole-repository Python reformat (quotes, spacing), 1,500 files",
            case_reformat,
        ),
    )
}


def fast_import(trees: list[Tree]) -> Iterator[bytes]:
    """A fast-import stream committing each tree in turn, tagged c0, c1, ..."""
    previous: Tree = {}
    for index, tree in enumerate(trees):
        when = STAMP + 60 * index
        message = f"Commit {index}\n".encode()
        yield (
            f"commit refs/heads/main\nmark :{index + 1}\n"
            f"author Ada Author <ada@example.com> {when} +0000\n"
            f"committer Carl Committer <carl@example.com> {when} +0000\n"
            f"data {len(message)}\n"
        ).encode() + message
        if index:
            yield f"from :{index}\n".encode()
        for path in sorted(previous.keys() - tree.keys()):
            yield f"D {path}\n".encode()
        for path in sorted(tree):
            if previous.get(path) != tree[path]:
                data = tree[path]
                yield f"M 100644 inline {path}\ndata {len(data)}\n".encode() + data + b"\n"
        yield f"\nreset refs/tags/c{index}\nfrom :{index + 1}\n\n".encode()
        previous = tree


def build_case(case: Case, workdir: Path) -> tuple[Path, str]:
    repo = workdir / f"{case.name}-v{GENERATOR_VERSION}{case.version}"
    trees = None
    if not (repo / "done").exists():
        trees = case.build()
        subprocess.run(["rm", "-rf", str(repo)], check=True)
        subprocess.run(["git", "init", "--quiet", "--bare", str(repo)], check=True, env=git_env())
        importer = subprocess.Popen(
            ["git", "--git-dir", str(repo), "fast-import", "--quiet"],
            stdin=subprocess.PIPE,
            env=git_env(),
        )
        assert importer.stdin is not None
        for chunk in fast_import(trees):
            importer.stdin.write(chunk)
        importer.stdin.close()
        if importer.wait() != 0:
            raise SystemExit(f"fast-import failed for {case.name}")
        (repo / "done").write_text("built\n")
    last = subprocess.run(
        ["git", "--git-dir", str(repo), "tag", "--list", "c*"],
        capture_output=True,
        check=True,
        text=True,
    ).stdout.split()
    return repo, f"c0..c{len(last) - 1}"


# --- measuring ---------------------------------------------------------------------------------


def git_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env["GIT_CONFIG_NOSYSTEM"] = "1"
    return env


@dataclass
class Sample:
    seconds: float
    cpu: float  # user + system, of the process and the children it waited for
    peak_mib: float
    output: bytes


def measure(command: list[str], env: dict[str, str]) -> Sample:
    """One run of `command`: wall time, CPU time, peak RSS and stdout.

    The command runs under GNU time when there is one: a process's peak RSS
    starts at its parent's size when it is spawned (Linux keeps the high-water
    mark across exec), and time is a small parent, where this script is not.
    Otherwise os.wait4 gives the figures, the peak inflated by this process.
    """
    handle, report = tempfile.mkstemp(prefix="bench-", suffix=".time")
    os.close(handle)
    wrapped = [GNU_TIME, "-f", "%M %U %S", "-o", report, *command] if GNU_TIME else command
    start = time.perf_counter()
    process = subprocess.Popen(wrapped, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    stdout, stderr = process.stdout, process.stderr
    assert stdout is not None and stderr is not None
    errors: list[bytes] = []
    drain = threading.Thread(target=lambda: errors.append(stderr.read()))
    drain.start()
    output = stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - start
    drain.join()
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode not in (0, 1):
        message = b"".join(errors).decode(errors="replace")[-500:]
        raise SystemExit(f"{' '.join(command)} failed ({process.returncode}): {message}")
    cpu, peak_mib = usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024
    with open(report) as figures:
        fields = figures.read().split()
    os.unlink(report)
    if GNU_TIME and len(fields) >= 3:
        peak_mib, cpu = int(fields[-3]) / 1024, float(fields[-2]) + float(fields[-1])
    return Sample(seconds, cpu, peak_mib, output)


GNU_TIME = shutil.which("time", path="/usr/bin:/bin")


@dataclass
class Row:
    label: str
    files: int
    hunks: int
    git: list[Sample]
    ours: list[Sample]  # cold: an empty cache
    warm: list[Sample]  # run again at once: its result kept
    verdicts: list[Sample]  # run again without its result: every verdict in the cache
    other: list[Sample]
    first_verdicts: list[Sample]  # the first such run: it may make the pages' index
    tokens: dict[str, float]


def cache_folder(repo: Path) -> Path:
    common = subprocess.run(
        [
            "git",
            "--git-dir",
            str(repo / ".git" if (repo / ".git").exists() else repo),
            "rev-parse",
            "--path-format=absolute",
            "--git-common-dir",
        ],
        capture_output=True,
        check=True,
        text=True,
        env=git_env(),
    ).stdout.strip()
    return Path(common) / "gitreview" / "cache"


def clear_cache(repo: Path) -> None:
    """gitreview's cache, gone: the next run is cold."""
    shutil.rmtree(cache_folder(repo), ignore_errors=True)


def forget_results(repo: Path) -> None:
    """The whole ranges' results gone, every file's verdict kept: the next run is
    that of a range never seen whose blob pairs all were."""
    import sqlite3

    for database in cache_folder(repo).glob("*.sqlite"):
        with contextlib.closing(sqlite3.connect(database)) as db, db:
            db.execute("DELETE FROM results")


ROOT = Path(__file__).resolve().parent.parent


def user_python(workdir: Path) -> str:
    """The Python of a user's `pip install .`: a virtual environment holding the
    project's dependencies and nothing else, made once under `workdir`. The
    version under test is found through PYTHONPATH, as an installed one would be
    in site-packages. (A development venv's editable install adds a path finder
    to every start-up, which users never have: 30 ms for `python -c pass` here,
    a few ms for a whole run, which imports most of what it loads anyway.)
    Without a package index to install from, this Python, with a note."""
    import hashlib
    import tomllib

    needed = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    digest = hashlib.sha256("\n".join([sys.version, *needed]).encode()).hexdigest()[:12]
    venv = workdir / f"venv-{digest}"
    python = venv / "bin" / "python"
    if python.exists():
        return str(python)
    making = Path(tempfile.mkdtemp(prefix="venv-", dir=workdir))
    try:
        subprocess.run([sys.executable, "-m", "venv", str(making)], check=True)
        pip = [str(making / "bin" / "python"), "-m", "pip", "install", "--quiet", *needed]
        subprocess.run(pip, check=True)
        making.rename(venv)
    except (OSError, subprocess.CalledProcessError) as error:
        shutil.rmtree(making, ignore_errors=True)
        print(
            f"note: no venv of the dependencies ({error}): timing {sys.executable}", file=sys.stderr
        )
        return sys.executable
    return str(python)


def run_range(
    label: str,
    repo: Path,
    spec: str,
    repeat: int,
    compare: Path | None,
    *,
    warm_up: bool,
    python: str = sys.executable,
) -> Row:
    location = ["-C", str(repo)] if (repo / ".git").exists() else ["--git-dir", str(repo)]
    rev_parse = subprocess.run(
        ["git", *location, "rev-parse", *spec.split("..")],
        capture_output=True,
        check=True,
        text=True,
        env=git_env(),
    ).stdout.split()
    base, head = (rev_parse[0], rev_parse[1]) if len(rev_parse) == 2 else (EMPTY_TREE, rev_parse[0])
    git_diff = ["git", *location, "diff", "--no-color", "--no-ext-diff", "-M", "-p", base, head]
    # -P: the current folder must not shadow the version under test (--compare).
    ours = [
        python,
        "-P",
        "-m",
        "gitreview",
        "--repo",
        str(repo),
        "--fail-on",
        "never",
        f"{base}..{head}",
    ]
    env = git_env()
    # Byte code written and reused, as an installed package has it; one untimed
    # run of each version, before the first range, writes it.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPATH"] = str(ROOT)
    other_env = dict(env, PYTHONPATH=str(compare)) if compare else env
    if warm_up:
        measure(ours, env)
        if compare:
            measure(ours, other_env)
    samples: dict[str, list[Sample]] = {
        "git": [],
        "ours": [],
        "warm": [],
        "verdicts": [],
        "other": [],
        "first": [],
    }
    for turn in range(repeat):
        samples["git"].append(measure(git_diff, env))
        # The two versions' cold runs side by side, each first in turn: a shared
        # host's speed drifts within minutes, so only a pair run together compares.
        # Each version's cache is a file of its own (named by its code), so the
        # second of a pair is cold too, and this version's stays for the next runs.
        clear_cache(repo)
        if compare and turn % 2:
            samples["other"].append(measure(ours, other_env))
        samples["ours"].append(measure(ours, env))
        if compare and not turn % 2:
            samples["other"].append(measure(ours, other_env))
        samples["warm"].append(measure(ours, env))
        forget_results(repo)
        samples["first"].append(measure(ours, env))
        forget_results(repo)
        samples["verdicts"].append(measure(ours, env))
    clear_cache(repo)
    manifest = json.loads(samples["ours"][-1].output)
    for name in ("warm", "verdicts"):
        if samples[name][-1].output != samples["ours"][-1].output:
            print(f"note: {label}: the {name} manifest differs from the cold one", file=sys.stderr)
    if compare and json.loads(samples["other"][-1].output) != manifest:
        print(f"note: {label}: the two versions' manifests differ", file=sys.stderr)
    summary = manifest["summary"]
    return Row(
        label,
        summary["files"]["total"],
        summary["hunks"]["total"],
        samples["git"],
        samples["ours"],
        samples["warm"],
        samples["verdicts"],
        samples["other"],
        samples["first"],
        manifest["tokens"],
    )


def median(samples: list[Sample], field: str) -> float:
    values: list[float] = [getattr(sample, field) for sample in samples]
    return statistics.median(values)


def print_header(compare: bool) -> None:
    """Wall time (CPU time in brackets: user + system of the process and its git
    children, which a busy shared machine disturbs less)."""
    header = "| range | files / hunks | `git diff -M -p` | cold | ratio | re-run | ratio |"
    header += " verdicts cached | ratio |"
    rule = "|---|---|---|---|---|---|---|---|---|"
    if compare:
        header += " before | ratio before | faster in pairs |"
        rule += "---|---|---|"
    header += " peak RSS git / cold / verdicts cached | tokens full / manifest / significant |"
    rule += "---|---|"
    print(header)
    print(rule, flush=True)


def timing(samples: list[Sample], digits: int = 2) -> str:
    return f"{median(samples, 'seconds'):.{digits}f} s ({median(samples, 'cpu'):.{digits}f})"


def ratio(samples: list[Sample], base: list[Sample]) -> str:
    wall = median(samples, "seconds") / median(base, "seconds")
    cpu = median(samples, "cpu") / max(median(base, "cpu"), 0.001)
    return f"{wall:.1f}x ({cpu:.1f}x)"


def pairs(row: Row) -> str:
    """In how many of the pairs of cold runs this version was the faster, and the
    median of its time over the other's, pair by pair."""
    shares = [ours.seconds / other.seconds for ours, other in zip(row.ours, row.other, strict=True)]
    faster = sum(share < 1 for share in shares)
    return f"{faster} of {len(shares)}, {statistics.median(shares):.2f}x"


def print_row(row: Row, compare: bool) -> None:
    line = f"| {row.label} | {row.files:,} / {row.hunks:,} | {timing(row.git, 3)} |"
    line += f" {timing(row.ours)} | {ratio(row.ours, row.git)} |"
    line += f" {timing(row.warm)} | {ratio(row.warm, row.git)} |"
    line += f" {timing(row.verdicts)} | {ratio(row.verdicts, row.git)} |"
    if compare:
        line += f" {timing(row.other)} | {ratio(row.other, row.git)} | {pairs(row)} |"
    tokens = row.tokens
    line += (
        f" {median(row.git, 'peak_mib'):.0f} / {median(row.ours, 'peak_mib'):.0f}"
        + f" / {median(row.verdicts, 'peak_mib'):.0f} MiB"
        + (f" (before {median(row.other, 'peak_mib'):.0f})" if compare else "")
        + f" | {tokens['full']:,} / {tokens['manifest']:,} / {tokens['significant']:,} |"
    )
    print(line, flush=True)
    first, then = median(row.first_verdicts, "seconds"), median(row.verdicts, "seconds")
    if abs(first - then) > 0.2 * then:
        print(
            f"note: {row.label}: the first run with its verdicts cached took"
            f" {timing(row.first_verdicts)} (the pages' index is made in it)",
            file=sys.stderr,
            flush=True,
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--case", action="append", choices=sorted(CASES), help="default: all, or none with --repo"
    )
    parser.add_argument("--repo", nargs=2, action="append", metavar=("PATH", "RANGE"), default=[])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--compare", type=Path, help="a source tree of another gitreview")
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/gitreview-bench"))
    options = parser.parse_args()
    options.workdir.mkdir(parents=True, exist_ok=True)
    names = options.case or ([] if options.repo else list(CASES))
    ranges = [(f"{Path(path).name} {spec}", Path(path), spec) for path, spec in options.repo]
    for name in names:
        repo, spec = build_case(CASES[name], options.workdir)
        ranges.append((CASES[name].description, repo, spec))
    python = user_python(options.workdir)
    print(f"# {os.cpu_count()} cpus, {options.repeat} runs each, medians\n", flush=True)
    compare = options.compare is not None
    print_header(compare)
    for index, (label, repo, spec) in enumerate(ranges):
        row = run_range(
            label, repo, spec, options.repeat, options.compare, warm_up=index == 0, python=python
        )
        print_row(row, compare)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
