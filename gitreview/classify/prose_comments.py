"""Where a changed word sits in code: inside a comment, or anywhere else.

The `typo` rule accepts a fix in code only inside comments. Which characters are
comment comes from the lexer run over the whole file (a line inside a block comment
is comment even though lexing it alone would call it code), and the lines the
lexical rules call literal or doubtful (multi-line strings, a JavaScript slash that
may open a regular expression) are refused outright. Strings are never prose here:
a docstring or a message is data the program uses.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from typing import TYPE_CHECKING, NamedTuple

from gitreview.analyze import lexers
from gitreview.analyze.lexical import TOOL_COMMENT
from gitreview.patterns import lazy_compile

if TYPE_CHECKING:
    from gitreview.classify.base import FileFacts
    from gitreview.model import Hunk

KINDS = lexers.SCANNED

# Comments that tools read: pragmas, linters', coverage tools' and type checkers'
# switches, compilers' fall-through markers, editors' modelines, encodings, build
# constraints, shebangs, doc tags (`@param name` names a parameter), owners of a
# `TODO(name)`, and any comment that opens with a `keyword:` (`fmt:`, `isort:`,
# `deploy-hook:`...). Deliberately broad: such comments are short, and a typo missed
# there costs little, while a "typo fix" that breaks a directive is a real change.
_DIRECTIVE = lazy_compile(
    r"noqa|nolint|nosec|pragma|type:|pylint|pyright|mypy|ruff|isort|fmt:|coverage|"
    r"lint|eslint|jshint|jslint|tslint|prettier|istanbul|\bc8\b|ignor|noinspection|"
    r"suppress|clang-|cppcheck|sourcemappingurl|__pure__|-\*-|@|\+build|"
    r"fall(?:s|ing)?[\s_-]*(?:thr|tho)|\b(?:vim?|ex):|coding|"
    r"\b(?:todo|fixme|xxx|hack|note|bug)\s*\(|"
    r"^\W*[A-Za-z][\w.]*(?:-[\w.]+)*:|^\W*(?:go:|line |export |extern |global )|^#!",
    re.IGNORECASE,
)
# Comments that apply to the line after them: a blank line put in between leaves that
# line uncovered (ESLint, pylint, clang-tidy, TypeScript, Prettier, coverage tools,
# Semgrep, ShellCheck, hadolint, tfsec...).
_NEXT_LINE = lazy_compile(
    r"(?i)disable-next|NOLINTNEXTLINE|@ts-(?:ignore|expect-error)|prettier-ignore"
    r"|(?:istanbul|c8|v8)\s+ignore\s+next|biome-ignore|deno-lint-ignore|noinspection"
    r"|nosemgrep|shellcheck\s+disable|hadolint\s+ignore|(?:tfsec|trivy):ignore"
    r"|\$Flow(?:FixMe|Issue|ExpectedError)|cppcheck-suppress|coverity\[|ReSharper\s+disable\s+once"
    # Found by a tenth adversarial review: CodeQL's and LGTM's suppressions, yamllint's
    # (on a line of its own), detect-secrets', KICS', Snyk Code's, Bearer's, Rome's.
    r"|codeql\[|lgtm\[|yamllint\s+disable-line|allowlist\s+nextline|kics-scan\s+ignore-line"
    r"|deepcode\s+ignore|bearer:disable|rome-ignore"
    # Renovate's regex managers read the version on the line after `# renovate:`
    # (found by an eleventh review).
    r"|renovate:"
)


def about_next_line(comment: str) -> bool:
    """Whether a comment is a directive for the line after it (`_NEXT_LINE`)."""
    return _NEXT_LINE.search(comment) is not None


# The comment a Go example's output is checked against, to the end of its function:
# in any case, as go/doc reads it (`(?i)^[[:space:]]*(unordered )?output:`; found by
# an adversarial review).
_GO_OUTPUT = lazy_compile(r"^[ \t]*//[ \t]*(?:unordered output|output):", re.M | re.I)


def example_output(facts: FileFacts, hunk: Hunk) -> bool:
    """Whether the hunk changes a comment line of a Go test file with an example's
    `// Output:`: that comment is the expected output, word for word, blank lines and
    spaces included (`go test` compares them)."""
    if facts.kind != "go" or not facts.change.path.endswith("_test.go"):
        return False
    texts = (facts.analysis.old_text or "", facts.analysis.new_text or "")
    if not any(_GO_OUTPUT.search(text) for text in texts):
        return False
    changed = (*hunk.removed, *hunk.added)
    return any(line.text.lstrip().startswith("//") or not line.text.strip() for line in changed)


# Characters prose hardly uses and code does: commented-out code, doctests, examples.
CODE_LIKE = lazy_compile(r"[=;{}<>$\\`]|::|->")


class Comments(NamedTuple):
    """Where the comments of one side of a file are."""

    text: str
    line_starts: tuple[int, ...]  # offset of each line's first character
    starts: tuple[int, ...]  # comment spans, sorted
    ends: tuple[int, ...]


# What reads a Rust file's doc comments as data at run time, by its derives and
# attributes (not by a word: `syn::parse::Parser` reads none): clap's, argh's and
# bpaf's make them `--help`, pyo3's `__doc__`, schemars', utoipa's and GraphQL
# servers' a schema's descriptions, displaydoc's an error's Display text (found
# by adversarial reviews).
_RUST_DOC_READERS = lazy_compile(
    r"#\[derive\([^)]*\b(?:Parser|Args|Subcommand|ValueEnum|StructOpt|FromArgs|Bpaf"
    r"|JsonSchema|ToSchema|IntoParams|Display|SimpleObject|InputObject|Enum|Union|Interface"
    r"|GraphQLObject|GraphQLEnum|GraphQLInputObject|GraphQLUnion)\b"
    r"|#\[(?:pyclass|pyfunction|pymethods|pymodule|command|arg|clap|structopt|bpaf|graphql"
    r"|Object|Subscription)\b"
)


def comments_read_as_data(kind: str, text: str, lines: list[str]) -> bool:
    """Whether the comments on these lines are read by a program as data: a Rust doc
    comment (`///`, `//!`) in a file that derives what reads them, a Go comment after
    a constant in a package that `stringer -linecomment` names its values by (its
    `go:generate` in this file)."""
    if kind == "rust":
        docs = any(line.lstrip().startswith(("///", "//!", "/**", "/*!")) for line in lines)
        return docs and _RUST_DOC_READERS.search(text) is not None
    if kind == "go" and "-linecomment" in text:
        return any(line.partition("//")[0].strip() for line in lines)
    return False


def comments(kind: str, text: str) -> Comments | None:
    """The comment spans of a whole file; None when the lexer is unsure of it."""
    found = lexers.scan(kind, text)
    if found.give_up or found.rest_from is not None:
        return None
    line_starts = [0] + [match.end() for match in re.finditer("\n", text)]
    spans = sorted(found.comments)
    starts, ends = tuple(s for s, _ in spans), tuple(e for _, e in spans)
    return Comments(text, tuple(line_starts), starts, ends)


def in_prose_comment(comments: Comments, line: int, start: int, end: int) -> bool:
    """Whether characters `start:end` of line `line` are inside one comment, and that
    comment (on this line) is prose: not one that tools read, nor one that reads like code."""
    text = comments.text
    if line > len(comments.line_starts):
        return False
    base = comments.line_starts[line - 1]
    index = bisect_right(comments.starts, base + start) - 1
    if index < 0 or comments.ends[index] < base + end:
        return False
    eol = text.find("\n", base)
    eol = len(text) if eol < 0 else eol
    piece = text[max(base, comments.starts[index]) : min(eol, comments.ends[index])]
    whole = text[comments.starts[index] : comments.ends[index]]
    return not (_DIRECTIVE.search(piece) or CODE_LIKE.search(piece) or TOOL_COMMENT.search(whole))
