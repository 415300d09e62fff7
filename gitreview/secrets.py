"""Patterns of credentials precise enough to trust, and their redaction.

Every text gitreview prints goes through `redact`, so a secret's value never
reaches an excerpt, a message or any output format.
"""

from __future__ import annotations

import re

# Each pattern captures the whole secret value; keep them precise (issue #5).
SECRET_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("private-key", re.compile(r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]*")),
    ("aws-access-key-id", re.compile(r"\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b")),
    ("github-token", re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_\w{82})\b")),
    ("gitlab-token", re.compile(r"\bglpat-[A-Za-z0-9_-]{20,}\b")),
    ("slack-token", re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,}\b")),
)

REDACTED = "[REDACTED]"


def redact(text: str) -> str:
    for _, pattern in SECRET_PATTERNS:
        text = pattern.sub(REDACTED, text)
    return text
