"""Markdown tier-1 analysis (issue 4): structure, sections, links, anchors and frontmatter.

For a changed Markdown file this gives the manifest its sections at head (the
heading tree with GitHub's anchors, line spans, word counts and what the
range changed), the section each hunk falls in, and findings: broken links
and anchors, frontmatter that is invalid or fails its configured schema,
heading levels that skip, and links in files the range did not touch that it
broke by deleting or renaming a file or a heading.

This module is what the registry imports at start-up: the rules, and an entry
point that loads the analysis itself (markdown_file.py and the modules it uses)
only when a range has a Markdown file to analyze.
"""

from __future__ import annotations

from gitreview.analyze.base import Report, Rule, Subject

BROKEN_LINK = Rule(
    "markdown/broken-link",
    "error",
    "a relative link or image whose target does not exist in the head commit",
)
BROKEN_ANCHOR = Rule(
    "markdown/broken-anchor",
    "warning",
    "a #fragment that names no heading or explicit anchor in its Markdown file",
)
BROKEN_ELSEWHERE = Rule(
    "markdown/broken-elsewhere",
    "error",
    "a link in a file the range did not touch, to a Markdown file or heading the range "
    "deleted, renamed or removed",
)
INVALID_FRONTMATTER = Rule(
    "markdown/invalid-frontmatter",
    "error",
    "a frontmatter block that is not valid YAML or not a mapping",
)
FRONTMATTER_SCHEMA = Rule(
    "markdown/frontmatter-schema",
    "error",
    "frontmatter that fails a JSON Schema configured for its path (one finding per key)",
)
HEADING_SKIP = Rule(
    "markdown/heading-skip",
    "warning",
    "a heading more than one level deeper than the heading before it",
)
RULES: tuple[Rule, ...] = (
    BROKEN_LINK,
    BROKEN_ANCHOR,
    BROKEN_ELSEWHERE,
    INVALID_FRONTMATTER,
    FRONTMATTER_SCHEMA,
    HEADING_SKIP,
)


def analyze(subject: Subject) -> Report:
    from gitreview.analyze import markdown_file

    return markdown_file.analyze(subject)
