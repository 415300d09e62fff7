"""The one user-facing error type and the exit statuses it maps to.

Library errors (pygit2, unidiff, yaml, jsonschema) are translated into
`UserError` where they happen, so the handler in cli.py can print one line
and exit with a documented status instead of a traceback.
"""

from __future__ import annotations

import enum


class Exit(enum.IntEnum):
    """Exit statuses, documented in the README."""

    OK = 0
    FINDINGS = 1  # findings at or above the fail-on severity
    USAGE = 2  # bad command-line arguments (argparse uses 2 as well)
    RANGE = 3  # not a repository, unknown revision, no upstream, shallow history
    CONFIG = 4  # bad .gitreview.yml
    PATCH = 5  # unreadable or malformed patch
    HANDLE = 6  # malformed or unknown handle
    INTERNAL = 70  # a bug in gitreview (EX_SOFTWARE)
    INTERRUPTED = 130


class UserError(Exception):
    """A mistake the user can fix: printed as one line, plus an optional hint."""

    def __init__(self, message: str, *, status: Exit, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.hint = hint


class NotFetched(UserError):
    """The head an earlier review covered is not in this repository (--since): the
    Actions step then reviews the whole range, as a force push often leaves it."""

    def __init__(self, message: str) -> None:
        super().__init__(
            message,
            status=Exit.RANGE,
            hint="the head reviewed last must be in this repository: fetch it",
        )

    @classmethod
    def revision(cls, since: str) -> NotFetched:
        return cls(f"unknown revision {since!r} (--since)")


class ProofTimedOut(BaseException):
    """A file's proof in the command's own process went past `proof_seconds`.

    Raised from a timer's signal handler, anywhere inside the proof: a
    BaseException, so no `except Exception` on the way (an analyzer's, which
    would call it a failed analyzer) takes it for the proof's own failure. What
    the proof was doing cannot be trusted afterwards, so the run stops."""

    def __init__(self, path: str, seconds: float) -> None:
        super().__init__(path, seconds)
        self.error = UserError(
            f"proving {path} took longer than {seconds:g} s (proof_seconds): stopped",
            status=Exit.INTERNAL,
            hint="proved in worker processes (a range of 256 files or more, or --jobs 2 with "
            "16 or more to prove), such a file is reported, timed out, and the rest reviewed",
        )
