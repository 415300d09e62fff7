"""The kind of a file, from its path: it decides which rules and analyzers apply."""

from __future__ import annotations

import posixpath

from gitreview.patterns import lazy_compile

_BY_EXTENSION = {
    ".md": "markdown",
    ".markdown": "markdown",
    ".mdx": "markdown",
    ".py": "python",
    ".pyi": "python",
    ".json": "json",
    ".yml": "yaml",
    ".yaml": "yaml",
    ".toml": "toml",
    ".txt": "text",
    ".rst": "text",
    ".adoc": "text",
    ".c": "c",
    ".h": "c",
    ".cc": "cpp",
    ".cpp": "cpp",
    ".cxx": "cpp",
    ".hh": "cpp",
    ".hpp": "cpp",
    ".java": "java",
    ".js": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".jsx": "javascript",
    ".ts": "typescript",
    ".tsx": "typescript",
    ".go": "go",
    ".rs": "rust",
    ".cs": "csharp",
    ".rb": "ruby",
    ".sh": "shell",
    ".bash": "shell",
    ".zsh": "shell",
    ".mk": "makefile",
    ".css": "css",
    ".scss": "css",
    ".html": "html",
    ".htm": "html",
    ".xml": "xml",
    ".svg": "xml",
}

_BY_NAME = {
    "makefile": "makefile",
    "gnumakefile": "makefile",
    "dockerfile": "dockerfile",
    "license": "text",
    "copying": "text",
    "authors": "text",
    "notice": "text",
    # Files named .txt that are no prose: tools read them line by line, word by word.
    "cmakelists.txt": "cmake",
    "robots.txt": "unknown",
    "security.txt": "unknown",
    "llms.txt": "unknown",
    "sitemap.txt": "unknown",  # one URL a line
    "ads.txt": "unknown",
    "humans.txt": "unknown",
    "meson_options.txt": "unknown",  # Meson's build options: strings and all
    "meson.options": "unknown",
}

# pip's requirement and constraint files (requirements.txt, requirements-dev.txt,
# dev-requirements.txt, constraints.txt, requirements/base.txt): no prose either.
_REQUIREMENTS = lazy_compile(r"(?:.*requirements.*|constraints.*|requirements/.*)\.(?:txt|in)")


def kind_of(
    path: str, *, binary: bool = False, symlink: bool = False, submodule: bool = False
) -> str:
    """`markdown`, `python`, `json`, ... for text; `binary`, `symlink`, `submodule`;
    `unknown` for text of a type gitreview has no rules for."""
    if submodule:
        return "submodule"
    if symlink:
        return "symlink"
    if binary:
        return "binary"
    name = posixpath.basename(path).lower()
    if name in _BY_NAME:
        return _BY_NAME[name]
    if _REQUIREMENTS.fullmatch(name) or _REQUIREMENTS.fullmatch(path.lower()):
        return "requirements"
    _, extension = posixpath.splitext(name)
    return _BY_EXTENSION.get(extension, "unknown")


def runs_by_name(path: str) -> bool:
    """Whether the file's name says it is run (`.cgi`, `.ps1`, a script's extension)."""
    return posixpath.splitext(posixpath.basename(path))[1].lower() in _RUN_BY_NAME


# Names of files that are run, with or without a #! line (found by an adversarial
# review: the bit on `run.cgi` and `run.command` was `mode-only`).
_RUN_BY_NAME_WORDS = """.cgi .fcgi .command .tool .run .bin .appimage .exe .com .bat .cmd .ps1
.psm1 .jar .py .pyw .pl .pm .rb .php .js .mjs .cjs .lua .tcl .awk .sh .bash .zsh .ksh .fish .csh"""
_RUN_BY_NAME = frozenset(_RUN_BY_NAME_WORDS.split())
