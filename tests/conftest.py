"""Shared fixtures: git isolation for every test, and the YAML-described test repositories."""

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pygit2
import pytest
from pygit2.enums import ConfigLevel
from repos import CONFIG_LEAKING_VARIABLES, GIT_ENV, RepoFactory, build_repo


def isolate_git_environment(monkeypatch: pytest.MonkeyPatch, home: Path) -> None:
    """Point HOME at ``home``, drop inherited GIT_* variables and set the fixed GIT_ENV ones."""
    for name in list(os.environ):
        if name.startswith("GIT_") or name in CONFIG_LEAKING_VARIABLES:
            monkeypatch.delenv(name)
    monkeypatch.setenv("HOME", str(home))
    for name, value in GIT_ENV.items():
        monkeypatch.setenv(name, value)


@contextmanager
def isolated_libgit2_config(home: Path) -> Iterator[None]:
    """Make libgit2 (pygit2) read global config from ``home`` and no system config.

    libgit2 reads HOME once, when pygit2 is imported, and ignores GIT_CONFIG_NOSYSTEM, so
    changing the environment alone does not isolate it.
    """
    no_system_config = home / ".no-system-config"
    search_paths = {
        ConfigLevel.PROGRAMDATA: no_system_config,
        ConfigLevel.SYSTEM: no_system_config,
        ConfigLevel.XDG: home / ".config" / "git",
        ConfigLevel.GLOBAL: home,
    }
    previous = {level: pygit2.settings.search_path[level] for level in search_paths}
    try:
        for level, path in search_paths.items():
            pygit2.settings.search_path[level] = str(path)
        yield
    finally:
        for level, path_text in previous.items():
            pygit2.settings.search_path[level] = path_text


@pytest.fixture(scope="session", autouse=True)
def isolated_git_session(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Isolation for session-scoped fixtures, which run before the per-test isolation."""
    home = tmp_path_factory.mktemp("session-home")
    with pytest.MonkeyPatch.context() as monkeypatch, isolated_libgit2_config(home):
        isolate_git_environment(monkeypatch, home)
        yield


@pytest.fixture(autouse=True)
def isolated_git(
    monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Path]:
    """Isolate each test from the developer's git setup; yields the test's fresh, empty HOME."""
    home = tmp_path_factory.mktemp("home")
    isolate_git_environment(monkeypatch, home)
    with isolated_libgit2_config(home):
        yield home


@pytest.fixture(scope="session")
def fixture_repo(tmp_path_factory: pytest.TempPathFactory) -> RepoFactory:
    """``fixture_repo(name)``: the fixture built once per session. Treat it as read-only."""
    built: dict[str, Path] = {}

    def get(name: str) -> Path:
        if name not in built:
            built[name] = build_repo(name, tmp_path_factory.mktemp(f"fixture-{name}"))
        return built[name]

    return get


@pytest.fixture
def writable_repo(tmp_path: Path) -> RepoFactory:
    """``writable_repo(name)``: a fresh build of the fixture in tmp_path, free to change."""

    def build(name: str) -> Path:
        dest = tmp_path / name
        copies = 1
        while dest.exists():
            copies += 1
            dest = tmp_path / f"{name}-{copies}"
        return build_repo(name, dest)

    return build
