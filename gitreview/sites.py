"""Documentation sites: what their configuration makes of the Markdown pages below it.

Two things a page's own text cannot tell, which its site's configuration does:
- Docusaurus (2 and later) compiles `.md` pages as MDX: JavaScript in `{...}` and
  JSX, whose whitespace no rule reads (an `.mdx` file's is never proved either);
- some sites render every line break as a `<br>`: MkDocs' `nl2br`, Hugo's
  `hardWraps`, kramdown's and markdown-it's `hard_wrap`/`breaks`, Jekyll's
  CommonMark `HARDBREAKS`, remark-breaks. Re-wrapped prose is then another page.

Read at both ends of the range (the range may not drop the setting that makes its
own review stricter; one it adds makes it stricter too), from the configuration
files at the root, in the folders documentation sites live in, and in each changed
page's first folder (its second in a site's folder or a monorepo's `apps/`). A
configuration applies below its own folder and to the folders it names by a
relative path (`path: '../docs'`, `docs_dir: pages`).
Found by adversarial reviews.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable, Mapping
from typing import NamedTuple

from gitreview.patterns import lazy_compile

# Folders a site's configuration is looked for in, besides the changed pages' own.
_SITE_FOLDERS = ("", "docs", "doc", "website", "site", "documentation", "www", "web")
_DOCUSAURUS = tuple(f"docusaurus.config.{ext}" for ext in ("js", "ts", "mjs", "cjs", "mts", "cts"))
_DATA = ("toml", "yaml", "yml", "json")
_OTHERS = (
    *("mkdocs.yml", "mkdocs.yaml", "_config.yml", "_config.yaml", "package.json"),
    *(f"hugo.{ext}" for ext in _DATA),
    *(f"config.{ext}" for ext in _DATA),
    *(f"config/_default/{name}.{ext}" for name in ("hugo", "config", "markup") for ext in _DATA),
    *(f".vitepress/config.{ext}" for ext in ("js", "ts", "mjs", "mts")),
    *(f".vuepress/config.{ext}" for ext in ("js", "ts")),
    *(".eleventy.js", *(f"eleventy.config.{ext}" for ext in ("js", "mjs", "cjs", "ts", "mts"))),
    *("_quarto.yml", "_quarto.yaml"),
    *("astro.config.mjs", "astro.config.js", "astro.config.ts", "gatsby-config.js"),
    *("gatsby-config.ts", "next.config.js", "next.config.mjs", ".remarkrc", ".remarkrc.json"),
    *(".remarkrc.js", ".remarkrc.yml", ".remarkrc.yaml"),
)
# What turns every line break of a page into a `<br>`.
_BREAKS = lazy_compile(
    r"nl2br|hardwraps[\"']?\s*[:=]\s*true|hard_wrap[\"']?\s*[:=]\s*true|\bbreaks[\"']?\s*[:=]\s*true"
    r"|hardbreaks|hard_line_breaks|remark-breaks|remarkbreaks",
    re.IGNORECASE,
)
# Folders a configuration names, relative to its own: `path: '../docs'`, `docs_dir: pages`.
_NAMED_FOLDER = lazy_compile(r"[\"'](\.\.?/[^\"'\s]*)[\"']|\bdocs_dir:\s*[\"']?([^\"'\s#]+)")


class Site(NamedTuple):
    """Where pages are MDX, and where every line break is a `<br>`: folders ("" for
    the whole repository), each with the configuration file that says so."""

    mdx: tuple[tuple[str, str], ...] = ()
    breaks: tuple[tuple[str, str], ...] = ()

    def mdx_at(self, path: str) -> str:
        """The configuration that makes the page MDX; "" if none."""
        return _covering(self.mdx, path)

    def breaks_at(self, path: str) -> str:
        """The configuration that renders the page's line breaks; "" if none."""
        return _covering(self.breaks, path)


def site_folders(pages: Iterable[str]) -> list[str]:
    """The folders a site's configuration for these changed pages may be in: the root,
    the folders sites live in, each page's first folder, and in those or in a
    monorepo's `apps/`, `packages/`... the one below it (`apps/docs/`, `docs/site/`).
    Not every folder above every page: a documentation repository's thousands of
    pages are in hundreds of folders, whose trees cost a tenth of a second to read."""
    folders = dict.fromkeys(_SITE_FOLDERS)
    for page in pages:
        parts = page.split("/")[:-1]
        if parts:
            folders.setdefault(parts[0])
        if len(parts) > 1 and (parts[0] in _MONOREPO_FOLDERS or parts[0] in _SITE_FOLDERS):
            folders.setdefault("/".join(parts[:2]))  # apps/docs/, docs/site/
    return list(folders)


_MONOREPO_FOLDERS = frozenset({"apps", "packages", "sites", "projects", "services", "libs"})


NAMES = frozenset(name.partition("/")[0] for name in (*_DOCUSAURUS, *_OTHERS))


def candidates(listing: Mapping[str, frozenset[str]]) -> list[str]:
    """The configuration files to read, of those folders (folder -> the names it
    holds): a name whose first part the folder holds (`config/` for Hugo's
    `config/_default/hugo.toml`)."""
    return [
        posixpath.join(folder, name)
        for folder, names in listing.items()
        for name in (*_DOCUSAURUS, *_OTHERS)
        if name.partition("/")[0] in names
    ]


def site_of(texts: Mapping[str, bytes | None]) -> Site:
    """The site the configuration files found (path -> content, None where none is) make."""
    mdx: list[tuple[str, str]] = []
    breaks: list[tuple[str, str]] = []
    for path, data in texts.items():
        if data is None:
            continue
        text = data.decode("utf-8", "replace")
        name = posixpath.basename(path)
        if name in _DOCUSAURUS:
            mdx += ((scope, path) for scope in _scopes(path, text))
        if _BREAKS.search(text) and (name != "package.json" or "remark-breaks" in text):
            breaks += ((scope, path) for scope in _scopes(path, text))
    return Site(tuple(sorted(set(mdx))), tuple(sorted(set(breaks))))


def _scopes(path: str, text: str) -> list[str]:
    """The folders a configuration applies to: its own (its site's, for one in a
    `.vitepress/` or `config/_default/` folder), and those it names."""
    folder = posixpath.dirname(path)
    for inner in ("config/_default", ".vitepress", ".vuepress"):
        if folder == inner or folder.endswith("/" + inner):
            folder = folder[: -len(inner)].rstrip("/")
    scopes = [folder]
    for found in _NAMED_FOLDER.finditer(text):
        named = posixpath.normpath(posixpath.join(folder, found[1] or found[2]))
        scopes.append("" if named == "." else named)
    return [scope for scope in scopes if not scope.startswith("..")]


def _covering(scopes: tuple[tuple[str, str], ...], path: str) -> str:
    for scope, source in scopes:
        if not scope or path.startswith(scope + "/"):
            return source
    return ""
