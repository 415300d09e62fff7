"""Placeholder: the GitHub Actions step (issue #7)."""

from __future__ import annotations


def run_ci(*, repo: str | None) -> int:
    raise NotImplementedError("the GitHub Actions step is being written")
