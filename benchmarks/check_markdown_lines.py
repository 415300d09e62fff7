"""Check the line reader of Markdown blocks against markdown-it on a whole repository.

    python benchmarks/check_markdown_lines.py --repo PATH [--rev REV]

Every Markdown file of the tree at REV (default HEAD) is parsed twice: as gitreview
parses it (blocks read line by line where the page allows, markdown_doc._line_tokens)
and by markdown-it alone (`every_inline`). It prints how many pages the line reader
read, the time each way, and every page whose Documents differ; the exit status is 1
if any does. Run by hand on large documentation repositories (issue 12).
"""

from __future__ import annotations

import argparse
import subprocess
import time

from gitreview.analyze.markdown_doc import parse, read_line_by_line

SUFFIXES = (".md", ".markdown", ".mdx")


def markdown_blobs(repo: str, rev: str) -> list[tuple[str, bytes]]:
    listing = subprocess.run(
        ["git", "--git-dir", repo, "ls-tree", "-r", "-z", rev],
        capture_output=True,
        check=True,
    ).stdout
    wanted: list[tuple[str, str]] = []
    for record in listing.split(b"\0"):
        if not record:
            continue
        meta, _, path = record.partition(b"\t")
        mode, kind, oid = meta.split()
        name = path.decode("utf-8", "replace")
        if kind == b"blob" and mode != b"120000" and name.lower().endswith(SUFFIXES):
            wanted.append((name, oid.decode()))
    batch = subprocess.run(
        ["git", "--git-dir", repo, "cat-file", "--batch"],
        input="".join(f"{oid}\n" for _, oid in wanted).encode(),
        capture_output=True,
        check=True,
    ).stdout
    blobs, position = [], 0
    for name, _ in wanted:
        header_end = batch.index(b"\n", position)
        size = int(batch[position:header_end].split()[2])
        blobs.append((name, batch[header_end + 1 : header_end + 1 + size]))
        position = header_end + 1 + size + 1
    return blobs


def main() -> int:
    options = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    options.add_argument("--repo", required=True, help="a git directory or work tree")
    options.add_argument("--rev", default="HEAD")
    args = options.parse_args()
    repo = subprocess.run(
        ["git", "-C", args.repo, "rev-parse", "--absolute-git-dir"],
        capture_output=True,
        check=True,
        text=True,
    ).stdout.strip()
    blobs = markdown_blobs(repo, args.rev)
    texts = [(name, data.decode("utf-8", "replace")) for name, data in blobs]
    read = sum(read_line_by_line(text) for _, text in texts)
    start = time.perf_counter()
    ours = [parse(text) for _, text in texts]
    middle = time.perf_counter()
    theirs = [parse(text, every_inline=True) for _, text in texts]
    end = time.perf_counter()
    differ = [name for (name, _), one, two in zip(texts, ours, theirs, strict=True) if one != two]
    print(
        f"{len(texts)} Markdown files at {args.rev}, {read} read line by line; "
        f"{middle - start:.2f} s as gitreview parses, {end - middle:.2f} s by markdown-it alone; "
        f"{len(differ)} differ"
    )
    for name in differ[:20]:
        print(f"  differs: {name}")
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
