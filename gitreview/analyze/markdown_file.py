"""The Markdown analysis of one changed file: its Report (see markdown.py for the rules).

Both sides are parsed; the head side gives the sections, their scopes and the
findings, the comparison with the base gives what the range changed, and what
the change took away (a file, a heading, an anchor) is looked for in links
elsewhere at head.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from gitreview.analyze import frontmatter, links, markdown_doc
from gitreview.analyze.base import Lost, Report, Scope, Subject
from gitreview.analyze.links import HeadIndex
from gitreview.analyze.markdown import HEADING_SKIP
from gitreview.analyze.markdown_doc import Document, parse
from gitreview.analyze.sections import Change, Comparison, Section, compare, sections
from gitreview.model import FileChange, Finding


def analyze(subject: Subject) -> Report:
    index = None if subject.head is None else links.head_index(subject.head)
    path = subject.change.path
    new = _head_document(subject, index)
    old = _base_document(subject, new)
    head_sections = () if new is None else sections(new)
    comparison = None if old is None else compare(sections(old), head_sections)
    lost = () if index is None else _lost(subject.change, old, new, comparison, index)
    if new is None:
        return Report(lost=lost)
    metadata = frontmatter.Metadata({})  # no block: checked as an empty mapping
    if new.frontmatter is not None:
        metadata = frontmatter.read(new.frontmatter, path)
    findings = [
        *links.check_links(new, path, index),
        *_heading_skips(new, path),
        *([metadata.problem] if metadata.problem else []),
        *frontmatter.check_schemas(
            metadata, new.frontmatter, path, subject.config.frontmatter_schemas, index
        ),
    ]
    scopes = tuple(
        Scope(section.first, section.last, section.name, "section")
        for section in head_sections
        if section.heading is not None
    )
    structure = _structure(new, head_sections, comparison, metadata.data)
    return Report(tuple(findings), scopes, structure or None, lost)


def _head_document(subject: Subject, index: HeadIndex | None) -> Document | None:
    if subject.new_text is None:
        return None
    if index is None:
        return parse(subject.new_text)
    # Through the index, so a link from another changed file to this one reuses it.
    return index.document(subject.change.path, subject.new_text)


def _base_document(subject: Subject, new: Document | None) -> Document | None:
    """The base side, as far as the sections and lost anchors need it: nothing when the
    file is gone at head, and a parse only when the change may have touched its
    headings or anchors (issue 12)."""
    if subject.old_text is None or new is None:
        return None
    assert subject.new_text is not None
    outline = markdown_doc.base_from_head(subject.old_text, new, subject.new_text)
    return parse(subject.old_text) if outline is None else outline


def _heading_skips(document: Document, path: str) -> Iterator[Finding]:
    for before, heading in zip(document.headings, document.headings[1:], strict=False):
        if heading.level > before.level + 1:
            message = (
                f"heading '{heading.text}' skips a level: h{heading.level} after h{before.level}"
            )
            yield Finding(HEADING_SKIP.id, HEADING_SKIP.severity, path, heading.line, message)


# --- Structure ------------------------------------------------------------------------


def _structure(
    document: Document,
    head_sections: Sequence[Section],
    comparison: Comparison | None,
    metadata: Mapping[str, Any] | None,
) -> dict[str, Any]:
    """The file's `structure` in the manifest; empty things are left out."""
    structure: dict[str, Any] = {}
    if metadata:
        structure["frontmatter"] = list(metadata)
    changes = comparison.changes if comparison else (Change(),) * len(head_sections)
    for section, change in zip(head_sections, changes, strict=True):
        if section.heading is None:
            if section.words:
                structure["preamble"] = _span(section, change)
        else:
            structure.setdefault("sections", []).append(_section_entry(section, change))
    removed = comparison.removed if comparison else ()
    if any(section.heading for section in removed):
        structure["removed"] = [section.name for section in removed if section.heading]
    if document.external_links:
        structure["external_links"] = document.external_links
    return structure


def _section_entry(section: Section, change: Change) -> dict[str, Any]:
    assert section.heading is not None
    heading = section.heading
    entry = {"level": heading.level, "text": heading.text, "slug": heading.slug}
    return entry | _span(section, change)


def _span(section: Section, change: Change) -> dict[str, Any]:
    entry: dict[str, Any] = {"lines": [section.first, section.last], "words": section.words}
    if change.added:
        entry["added"] = True
    if change.was is not None:
        entry["was"] = change.was
    if change.words:
        entry["changed"] = change.words
    return entry


# --- Links elsewhere -------------------------------------------------------------------


def _lost(
    change: FileChange,
    old: Document | None,
    new: Document | None,
    comparison: Comparison | None,
    index: HeadIndex,
) -> tuple[Lost, ...]:
    """What links in other files may have pointed at, and the change took away (they
    are looked for once per range: links.check_elsewhere)."""
    path = change.path
    if change.status == "deleted" and not index.exists(path):
        return (Lost(path, "was deleted", {}, path),)
    if change.status == "renamed" and change.old_path and not index.exists(change.old_path):
        return (Lost(change.old_path, f"was renamed to {path}", {}, path),)
    if old is None or new is None or comparison is None:
        return ()
    gone = old.anchor_names() - new.anchor_names()
    if not gone:
        return ()
    return (Lost(None, "", {name: _why_gone(name, path, old, comparison) for name in gone}, path),)


def _why_gone(name: str, path: str, old: Document, comparison: Comparison) -> str:
    heading = next((h for h in old.headings if h.slug.lower() == name), None)
    if heading is None:
        return f"anchor '{name}' of {path} was removed"
    successor = comparison.successors.get(heading.slug)
    if successor is None:
        return f"heading '{heading.text}' of {path} was removed"
    if successor.text != heading.text:
        return (
            f"heading '{heading.text}' of {path} was renamed to "
            f"'{successor.text}' (#{successor.slug})"
        )
    return f"heading '{heading.text}' of {path} is now #{successor.slug}"
