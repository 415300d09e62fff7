"""A progress bar on stderr for long ranges, only where a person watches it."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import IO, TYPE_CHECKING

if TYPE_CHECKING:
    from gitreview.model import FileChange
    from gitreview.pipeline import Progress

# Below this many files a run takes well under a second: no bar.
MIN_FILES = 200


def progress_bar(stream: IO[str], *, force: bool = False) -> Progress | None:
    """A wrapper for pipeline.build's `progress`, or None when `stream` is not a
    terminal (CI logs and pipes get nothing extra)."""
    if not force and not stream.isatty():
        return None

    def wrap(items: Iterable[FileChange], total: int) -> Iterator[FileChange]:
        if total < MIN_FILES and not force:
            yield from items
            return
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

        console = Console(file=stream, force_terminal=True)
        columns = (TextColumn("gitreview"), BarColumn(), MofNCompleteColumn(), TextColumn("files"))
        with Progress(*columns, console=console, transient=True) as bar:
            task = bar.add_task("files", total=total)
            for item in items:
                yield item
                bar.advance(task)

    return wrap
