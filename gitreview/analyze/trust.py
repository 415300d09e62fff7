"""The files that decide a review, changed by the range under review (issue 11).

A pull request may come from anyone, so it must not loosen its own review: the
configuration, the .gitattributes files, and the frontmatter schemas and role
instructions the configuration names are read from the base commit (the trusted
side), and a change the range makes to one of them is reported here and never
trivial.
"""

from __future__ import annotations

import posixpath
from typing import Literal, NamedTuple

from gitreview import globs
from gitreview.analyze.base import Rule
from gitreview.config import CONFIG_FILE, Config
from gitreview.generated_header import is_generated_header
from gitreview.model import FileChange, Finding

CONFIG_CHANGED = Rule(
    "trust/config-changed",
    "warning",
    "the range changes .gitreview.yml (the range is reviewed with the base commit's)",
)
CONFIG_INVALID = Rule(
    "trust/config-invalid",
    "error",
    "the .gitreview.yml the range brings is not a valid configuration",
)
ATTRIBUTES_CHANGED = Rule(
    "trust/attributes-changed",
    "warning",
    "the range changes a .gitattributes file (the base commit's attributes apply)",
)
SCHEMA_CHANGED = Rule(
    "trust/schema-changed",
    "warning",
    "the range changes a frontmatter schema file the configuration names",
)
INSTRUCTIONS_CHANGED = Rule(
    "trust/instructions-changed",
    "warning",
    "the range changes a reviewer role's instructions file the configuration names",
)
GENERATED_HEADER = Rule(
    "trust/generated-header",
    "warning",
    "the range gives a file it did not add a header saying it is generated: once merged,"
    " changes to it are classified generated and skipped by reviewers",
)
LINK_TO_UNREAD = Rule(
    "trust/link-to-unread",
    "warning",
    "a symbolic link the range adds or changes points into a path the configuration keeps"
    " from reviewers (generated, ignore): what runs through it no reviewer reads",
)
RULES: tuple[Rule, ...] = (
    CONFIG_CHANGED,
    CONFIG_INVALID,
    ATTRIBUTES_CHANGED,
    SCHEMA_CHANGED,
    INSTRUCTIONS_CHANGED,
    GENERATED_HEADER,
    LINK_TO_UNREAD,
)

# The significant reason of a hunk in one of these files.
REASON = "review-config"
WHY = "it changes what decides this review (configuration, attributes, a schema, instructions)"


class Origin(NamedTuple):
    """Where this run's configuration, attributes and schema files come from."""

    config: Literal["base", "head", "file", "default"]
    tree: Literal["base", "head"] | None  # attributes and schema files; None: a patch
    file: str | None = None  # the configuration file given with --config


def schema_paths(config: Config) -> frozenset[str]:
    """The repository paths of the frontmatter schema files the configuration names."""
    return frozenset(
        entry.schema for entry in config.frontmatter_schemas if isinstance(entry.schema, str)
    )


def instructions_paths(config: Config) -> frozenset[str]:
    """The repository paths of the role instructions files the configuration names."""
    return frozenset(role.instructions for role in config.roles if role.instructions is not None)


def rule_of(change: FileChange, config: Config) -> Rule | None:
    """The trust rule a change falls under, or None for an ordinary file."""
    paths = {change.path, change.old_path or change.path}
    if CONFIG_FILE in paths:
        return CONFIG_CHANGED
    if any(path == ".gitattributes" or path.endswith("/.gitattributes") for path in paths):
        return ATTRIBUTES_CHANGED
    if config.frontmatter_schemas and paths & schema_paths(config):
        return SCHEMA_CHANGED
    if config.roles and paths & instructions_paths(config):
        return INSTRUCTIONS_CHANGED
    return None


def findings(
    change: FileChange, config: Config, origin: Origin, problem: str | None = None
) -> list[Finding]:
    """The findings of a change to a file that decides the review; `problem`: why the
    configuration the range brings is invalid."""
    rule = rule_of(change, config)
    if rule is None:
        return []
    span = next((hunk.new_span for hunk in change.hunks if hunk.new_span), None)
    line = span[0] if span else None
    found = [Finding(rule.id, rule.severity, change.path, line, _message(rule, change, origin))]
    if problem is not None:
        rule = CONFIG_INVALID
        found.append(Finding(rule.id, rule.severity, change.path, None, problem))
    return found


def generated_header(change: FileChange) -> list[Finding]:
    """A file the range did not add that gains a header saying it is generated (found
    by an adversarial review): this range's review reads the line as any other, but
    from its merge on, every change to the file is `generated` and no reviewer reads
    it, as a `linguist-generated` the range set would make it."""
    if change.status in ("added", "copied") or change.old_data is None or change.new_data is None:
        return []
    # Read from the bytes, whatever their encoding (a review of the fix: a Latin-1
    # file, which has no text here, gained its header unseen).
    old, new = (
        data[:_HEAD_BYTES].decode("utf-8", "replace") for data in (change.old_data, change.new_data)
    )
    if not is_generated_header(new) or is_generated_header(old):
        return []
    rule = GENERATED_HEADER
    message = (
        f"{change.path} now starts with a header saying it is generated: once this range "
        "is merged, changes to it are classified generated and reach no reviewer"
    )
    return [Finding(rule.id, rule.severity, change.path, 1, message)]


_HEAD_BYTES = 4096  # enough for a header's first lines


def link_to_unread(change: FileChange, config: Config) -> list[Finding]:
    """A link the range points into a `generated` or `ignore` glob from a path outside
    it (found by an adversarial review: `src/auth.py` made a link to a new
    `dist/auth.py` holding the code, which was `generated`: the code ran as
    `src/auth.py` and no reviewer read it)."""
    if not change.is_symlink or change.new_data is None or change.status == "deleted":
        return []
    folder = posixpath.dirname(change.path)
    target = posixpath.normpath(
        posixpath.join(folder, change.new_data.decode("utf-8", "surrogateescape"))
    )
    for patterns, key in ((config.generated, "generated"), (config.ignore, "ignore")):
        # The target, or a file in it when it is a folder (a review of the fix:
        # `src/core -> ../dist`, and `from core.auth import check`).
        inside = posixpath.join(target, "x")
        hidden = globs.match_any(patterns, target) or globs.match_any(patterns, inside)
        if hidden and not globs.match_any(patterns, change.path):
            rule = LINK_TO_UNREAD
            message = (
                f"{change.path} links to {target}, which matches a configured {key} glob: "
                "what runs through the link no reviewer reads there"
            )
            return [Finding(rule.id, rule.severity, change.path, None, message)]
    return []


def _message(rule: Rule, change: FileChange, origin: Origin) -> str:
    what = f"{change.path} {'deleted' if change.status == 'deleted' else 'changed'}"
    if rule is CONFIG_CHANGED:
        how = {
            "base": "this range is reviewed with the base commit's configuration, not its own",
            "head": "with no base commit, the configuration it brings applies to this range",
            "file": f"this run's configuration comes from {origin.file}",
            "default": "this run uses the default configuration",
        }[origin.config]
    elif rule is ATTRIBUTES_CHANGED:
        how = (
            "this range is classified with the base commit's attributes, not its own"
            if origin.tree == "base"
            else "without a base commit no attribute marks a file generated"
        )
    elif rule is SCHEMA_CHANGED:
        how = {
            "base": "this range is checked with the base commit's version",
            "head": "with no base commit, the version it brings checks this range",
            None: "a patch has no tree to read schemas from",
        }[origin.tree]
    else:
        how = {
            "base": "this range's briefs give the base commit's version",
            "head": "with no base commit, this range's briefs give the version it brings",
            None: "a patch has no tree to read instructions from",
        }[origin.tree]
    return f"{what}: {how}"
