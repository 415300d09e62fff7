"""Patterns of credentials precise enough to trust, and their redaction.

Every text gitreview prints goes through `redact` (or `redact_lines`, for the
lines of a file), so a secret's value never reaches an excerpt, a message or
any output format. Redaction is broad: anything shaped like a credential is
hidden, documented placeholders included. Findings are narrow: a placeholder
(`AKIAIOSFODNN7EXAMPLE`, `ghp_xxxx...`) or a key block with no key material is
not reported (issue #5).

Every pattern is linear on long lines: literal prefixes, character classes, and
repetition that is bounded or cannot backtrack far.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterator, Sequence
from itertools import accumulate
from typing import NamedTuple

from gitreview.patterns import lazy_compile

REDACTED = "[REDACTED]"


class SecretKind(NamedTuple):
    id: str  # stable, for tests and docs
    label: str  # what the finding message calls it
    source: str  # the pattern; the secret is group "value" when there is one, else the match

    @property
    def pattern(self) -> re.Pattern[str]:
        # Compiled on first use (re keeps it): the bounded repetitions make these
        # slow to compile, and most runs never get past the may_hold_token prefilter.
        return re.compile(self.source)


def _kind(id: str, label: str, pattern: str) -> SecretKind:
    if pattern.startswith(r"\b"):
        pattern = _START + pattern[2:]
    return SecretKind(id, label, pattern)


# Where a token may start: at a word's start, or right after an escape whose last
# character is a letter or digit: percent-encoding (`%22ghp_...`, `%3DAKIA...`, twice
# encoded `%2522` too), a string's `\n`, `\t`, `\u0022`, `\x3D`, `\012`, and
# quoted-printable `=3D` (found by an adversarial review, and a review of the fix).
_START = (
    r"(?:\b|(?<=%[0-9A-Fa-f]{2})|(?<=%25[0-9A-Fa-f]{2})|(?<=\\[nrtbfv0e])|(?<=\\u[0-9A-Fa-f]{4})"
    r"|(?<=\\x[0-9A-Fa-f]{2})|(?<==[0-9A-F]{2})|(?<=\\[0-7]{3}))"
)


# The AWS secret access key's names: `aws_secret_access_key`, `SecretAccessKey`,
# `aws.secretKey` (the Java SDK's property), `AWS Secret Access Key [None]:`.
_AWS_SECRET_NAME = (
    r"(?i:aws[._ -]?secret[._ -]?(?:access[._ -]?)?key|secret[._ -]?access[._ -]?key)"
)
_AWS_SECRET_LABEL = "AWS secret access key"

# Single-line tokens. A lookahead instead of a trailing \b keeps a token followed by
# more token characters from matching a prefix of itself.
TOKEN_KINDS: tuple[SecretKind, ...] = (
    _kind("aws-access-key-id", "AWS access key id", r"\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b"),
    _kind(
        "aws-secret-access-key",
        _AWS_SECRET_LABEL,
        # Named, then the value within 30 characters, however they are joined: `= `,
        # `": "`, `>` (XML), `: [` (YAML), ` ` (`aws configure set`), `${KEY:-` (a
        # shell default); found by an adversarial review.
        # Not a commit id or a SHA-1 beside the name (40 hex digits, which no key is):
        # found by a review of the fix.
        _AWS_SECRET_NAME + r".{0,30}?[^A-Za-z0-9/+](?![0-9a-fA-F]{40}(?![A-Za-z0-9/+=]))"
        r"(?P<value>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])",
    ),
    _kind(
        "github-token",
        "GitHub token",
        r"\b(?:gh[pousr]_[A-Za-z0-9]{36,251}|github_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59})"
        r"(?![A-Za-z0-9_])",
    ),
    _kind(
        "gitlab-token",
        "GitLab token",
        r"\bgl(?:pat|dt|ptt|rt|soat|agent)-[A-Za-z0-9_-]{20,64}(?:\.[0-9a-z]{2}\.[0-9a-z]{7,9})?"
        r"(?![A-Za-z0-9_-])",
    ),
    _kind(
        "slack-token",
        "Slack token",
        # Rotating tokens and their refresh tokens too (`xoxe.xoxp-1-...`, `xoxe-1-...`:
        # found by an adversarial review).
        r"\b(?:xox[abposr]-(?:[0-9]{8,13}-){1,3}[A-Za-z0-9]{24,64}"
        r"|xoxe(?:\.xox[abposr])?-[0-9]-[A-Za-z0-9-]{40,400}"
        r"|xapp-[0-9]-[A-Z0-9]{8,12}-[0-9]{10,13}-[a-f0-9]{64})(?![A-Za-z0-9-])",
    ),
    _kind(
        "slack-webhook",
        "Slack webhook URL",
        # With any scheme or none, and percent-encoded as in a query string (found by
        # an adversarial review).
        # JSON's escaped slashes too, and the host in capitals (a review of the fix).
        r"(?:https?(?:://|:\\/\\/|%3[Aa]%2[Ff]%2[Ff]))?[Hh][Oo][Oo][Kk][Ss]\.[Ss][Ll][Aa][Cc][Kk]\.[Cc][Oo][Mm]"
        r"(?:/|\\/|%2[Ff])(?:services|workflows|triggers)(?:/|\\/|%2[Ff])T[A-Z0-9]{8,12}"
        r"(?:/|\\/|%2[Ff])[A-Z0-9]{8,12}(?:/|\\/|%2[Ff])[A-Za-z0-9]{16,40}",
    ),
    _kind("stripe-key", "Stripe live key", r"\b[rs]k_live_[A-Za-z0-9]{24,247}(?![A-Za-z0-9])"),
    _kind("google-api-key", "Google API key", r"\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])"),
    _kind("npm-token", "npm token", r"\bnpm_[A-Za-z0-9]{36}(?![A-Za-z0-9])"),
    _kind("pypi-token", "PyPI token", r"\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,300}"),
    _kind(
        "sendgrid-key",
        "SendGrid API key",
        r"\bSG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])",
    ),
    _kind(
        "openai-key",
        "OpenAI API key",
        r"\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{16,200}T3BlbkFJ[A-Za-z0-9_-]{16,200}",
    ),
    # Found by an adversarial review: an age identity, an Azure storage account's key in
    # its connection string.
    _kind(
        "age-secret-key",
        "age secret key",
        r"\bAGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}(?![A-Z0-9])",
    ),
    _kind(
        "azure-storage-key",
        "Azure storage account key",
        r"AccountKey=(?P<value>[A-Za-z0-9+/]{86}==)(?![A-Za-z0-9+/=])",
    ),
    # A PEM private key base64-encoded, as Kubernetes' Secret `data:` and Helm values
    # hold it (`tls.key: LS0tLS1CRUdJTi...`): a run of base64 holding `PRIVATE KEY-----`
    # encoded at any of its three alignments, wherever the key starts in it (after a
    # certificate, `Bag Attributes`, a line break: a review of the fix). A certificate
    # holds none. A run of 100 characters at least: an armour alone is no key.
    _kind(
        "private-key-base64",
        "base64-encoded private key",
        r"(?<![A-Za-z0-9+/])(?=[A-Za-z0-9+/]{100})[A-Za-z0-9+/]*?"
        r"(?:UFJJVkFURSBLRVktLS0t|SVZBVEUgS0VZLS0t|UklWQVRFIEtFWS0tLS0t)"
        r"[A-Za-z0-9+/]*+={0,2}(?![A-Za-z0-9+/=])",
    ),
    _kind(
        "anthropic-key",
        "Anthropic API key",
        r"\bsk-ant-[a-z]{3,6}[0-9]{2}-[A-Za-z0-9_-]{80,120}(?![A-Za-z0-9_-])",
    ),
)
# A password in a URL's user information (`postgres://app:S3cr3t@db.prod.internal/app`,
# `https://user:token@git.example.org/`, JSON's `https:\/\/user:token@...`): what lies
# between the `:` and the last `@` before the host, or a shell default's value
# (`${DB_PASSWORD:-S3cr3t}`, the user's too). A reference to a value kept elsewhere
# (`${DB_PASSWORD}`, `$PASS`, `$env:PASS`, `%PASS%`, `{{ .Values.pass }}`,
# `%(password)s`, an f-string's `{self.token}`, Ruby's `#{token}`) is no credential and
# stays shown. Nor is what could be code (`;`, `|`, `&`, braces, a backtick, `${`, `$(`):
# hidden as a password, it would hide code from the reviewer (found by a review of the
# rule: `x;curl${IFS}evil|sh;` read as one); brackets and parentheses a password
# generator writes are kept in (a second review). A `/` may be in it (base64), but not
# after a port (`host:443/@scope/pkg` is a path), nor after an `@` in it; never a `?`
# or `#`, which end the user information for every URL parser (a second review:
# `localhost:3000?next=/a&email=j@acme.io` read as one).
_URL_REFERENCE = (
    r"(?:\$+[A-Za-z_][A-Za-z0-9_]{0,100}(?::[A-Za-z_][A-Za-z0-9_]{0,100})?"
    r"|%[A-Za-z_][A-Za-z0-9_]{0,100}%|%\([A-Za-z0-9_]{1,100}\)s|%s)@"
)
_PASSWORD = r"(?:[^\s\"'`<>\\;|&{}@?#$]|\$(?![{(]))"
_NO_SLASH = r"(?:[^\s\"'`<>\\;|&{}@?#$/]|\$(?![{(]))"
_SHELL_DEFAULT = r"\$\{[A-Za-z_][A-Za-z0-9_]{0,100}:?-"
URL_PASSWORD = _kind(
    "url-password",
    "password in a URL",
    r"(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{0,30}:(?://|\\/\\/)"
    r"(?P<user>" + _SHELL_DEFAULT + r"[^\s:/@\"'`<>\\{}]{0,100}\}|[^\s:/@\"'`<>\\{}]{0,100}):"
    r"(?!" + _URL_REFERENCE + r")(?:" + _SHELL_DEFAULT + r")?(?![0-9]{1,5}(?:/|$))"
    r"(?P<value>" + _PASSWORD + r"{1,200}(?:@" + _NO_SLASH + r"{1,100}){0,8})\}?"
    r"@(?P<host>\[[0-9A-Fa-f:.]{2,45}\]|\w[\w.-]{0,252})",
)
# The URL kind's prefilter: an `@` and what follows a scheme (JSON's `:\/\/` too).
_URL_SEPARATORS = ("://", ":\\/\\/")

# Each token kind's literals, of which every match of it holds one, case for case; and
# those named in any case, looked for lower-cased: the AWS secret key's "secret"
# without the s, which re's IGNORECASE also matches as U+017F (long s; e, c, r and t
# have no such twin), and Slack's webhook host, whose letters the pattern spells as
# classes (`[Kk]`, not IGNORECASE, which takes the Kelvin sign for a k). A line
# without any cannot hold a token; one holding some is searched for their kinds only
# (found by an adversarial review: a notebook's base64 image holds `xox` or `AIza` by
# chance, and every kind's pattern then read its whole line, 0.5 s a line). `in`
# searches each in C at a few nanoseconds per character, where one search of an
# alternation of the prefixes costs ~200 (issue 12); tests/test_secrets.py checks
# every kind's matches against them.
_LITERALS_OF: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "aws-access-key-id": (("AKIA", "ASIA", "ABIA", "ACCA"), ()),
    "aws-secret-access-key": ((), ("ecret",)),
    "github-token": (("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"), ()),
    "gitlab-token": (("glpat-", "gldt-", "glptt-", "glrt-", "glsoat-", "glagent-"), ()),
    "slack-token": (("xox", "xapp-"), ()),
    "slack-webhook": ((), ("hooks.slack.com",)),
    "stripe-key": (("k_live_",), ()),
    "google-api-key": (("AIza",), ()),
    "npm-token": (("npm_",), ()),
    "pypi-token": (("pypi-AgEIcHlwaS5vcmc",), ()),
    "sendgrid-key": (("SG.",), ()),
    "openai-key": (("T3BlbkFJ",), ()),
    "age-secret-key": (("AGE-SECRET-KEY-1",), ()),
    "azure-storage-key": (("AccountKey=",), ()),
    "private-key-base64": (
        ("UFJJVkFURSBLRVktLS0t", "SVZBVEUgS0VZLS0t", "UklWQVRFIEtFWS0tLS0t"),
        (),
    ),
    "anthropic-key": (("sk-ant-",), ()),
}
_TOKEN_LITERALS = tuple(dict.fromkeys(lit for found, _ in _LITERALS_OF.values() for lit in found))
_CASELESS_LITERALS = tuple(lit for _, caseless in _LITERALS_OF.values() for lit in caseless)


def may_hold_token(line: str) -> bool:
    """False only for a line in which no token kind can match: a prefilter."""
    return _may_hold_service_token(line) or _may_hold_url_password(line)


def _may_hold_service_token(line: str) -> bool:
    """False only for a line in which no token kind but the URL's password can match."""
    for literal in _TOKEN_LITERALS:
        if literal in line:
            return True
    lowered = line.lower()
    return any(literal in lowered for literal in _CASELESS_LITERALS)


def _may_hold_url_password(line: str) -> bool:
    return "@" in line and any(separator in line for separator in _URL_SEPARATORS)


def kinds_in(line: str) -> Iterator[SecretKind]:
    """The token kinds that may match in the line: those whose own literals it holds."""
    if _may_hold_service_token(line):
        lowered = line.lower()
        for kind in TOKEN_KINDS:
            literals, caseless = _LITERALS_OF[kind.id]
            if any(literal in line for literal in literals) or any(
                literal in lowered for literal in caseless
            ):
                yield kind
    if _may_hold_url_password(line):
        yield URL_PASSWORD


PRIVATE_KEY_LABEL = "private key"
# The PEM and OpenSSH armour; the block between BEGIN and END is the secret.
_KEY_BEGIN = lazy_compile(r"-----BEGIN (?:[A-Z0-9]{1,20} ){0,4}PRIVATE KEY(?: BLOCK)?-----")
_KEY_END = lazy_compile(r"-----END (?:[A-Z0-9]{1,20} ){0,4}PRIVATE KEY(?: BLOCK)?-----")
_ARMOUR = "PRIVATE KEY"  # in every match of _KEY_BEGIN and _KEY_END: their prefilter
# Key material: a run of base64 that no prose or "..." placeholder has.
_KEY_MATERIAL = lazy_compile(r"[A-Za-z0-9+/]{40}")
# The same, alone on a line of a fragment (which may be a diff: `+`, `-` or ` ` first).
# (a CR at the end too: a file with CRLF line ends; found by a review)
_MATERIAL_LINE = lazy_compile(r"[-+ ]?[ \t]*[A-Za-z0-9+/]{40,}={0,2}[ \t\r]*")
_MATERIAL_LENGTH = 40  # the shortest line _MATERIAL_LINE matches
_END_LITERAL = "-----END "  # in every match of _KEY_END
_BASE64_LINE = lazy_compile(r"[-+ ]?[ \t]*[A-Za-z0-9+/]+={0,2}[ \t\r]*")


class TokenMatch(NamedTuple):
    kind: SecretKind
    value: str
    user: str = ""  # a URL's password: the user and the host it is for
    host: str = ""


def find_tokens(line: str) -> Iterator[TokenMatch]:
    """The single-line credentials in a line, placeholders included. A URL's password
    that another kind matches too (`x-access-token:ghs_...@github.com`) is that one."""
    masked = _masked(line)
    taken: list[tuple[int, int]] = []  # the other kinds' spans (URL_PASSWORD comes last)
    ends: list[int] = []  # the most any of the first n spans (by start) reaches
    for kind in kinds_in(line):
        group = "value" if "value" in kind.pattern.groupindex else 0
        if kind is URL_PASSWORD and taken:
            taken.sort()
            ends = list(accumulate((end for _, end in taken), max))
        for match in kind.pattern.finditer(masked):
            start, end = match.span(group)
            if kind is not URL_PASSWORD:
                taken.append((start, end))
                yield TokenMatch(kind, line[start:end])
            elif not _overlaps(taken, ends, start, end):
                yield TokenMatch(kind, line[start:end], match["user"], match["host"])


def _overlaps(spans: list[tuple[int, int]], ends: list[int], start: int, end: int) -> bool:
    """Whether a span of `spans` (sorted, `ends` their running furthest ends) overlaps
    start..end: one search, not one comparison per span (a review of the rule: a line
    of placeholders and passwords was quadratic)."""
    before = bisect_left(spans, (end, -1))  # the spans that start before `end`
    return before > 0 and ends[before - 1] > start


def reportable(match: TokenMatch) -> bool:
    """Whether a token is a finding: not a documented placeholder (`is_placeholder`),
    and a URL's password not one of an example, a local service or a default."""
    if match.kind is URL_PASSWORD:
        return not _url_placeholder(match)
    return not is_placeholder(match.value)


# A URL's password that tells of no secret: an example's or a default's, or a service's
# on this machine, a container's beside it (a name with no dot: `db`, `redis`), or a
# reserved name (RFC 2606, RFC 6761).
_PLACEHOLDER_WORDS: tuple[str, ...] = (
    *("passw", "p@ss", "changeme", "change_me", "change-me", "placeholder", "example"),
    *("dummy", "redacted", "secret", "xxx", "***", "...", "sesame"),
)
# A password's words (its letters, parted by digits and signs) that a default or a
# docs' example starts with (`admin123`, `testpass`, `yourtoken`), or is, whole.
_PLACEHOLDER_STARTS: tuple[str, ...] = ("test", "pass", "admin", "guest", "user", "token")
_PLACEHOLDER_STARTS += (
    "letmein",
    "qwerty",
    "hunter",
    "postgres",
    "mysql",
    "redis",
    "your",
    "foobar",
)
_PLACEHOLDERS = frozenset({"pwd", "foo", "bar", "root"})
# A name standing for the value (`MY_GITHUB_TOKEN`, `x-oauth-basic`, `my-access-token`):
# an environment variable's, or words joined as a name is.
_NAME_FOR_VALUE = lazy_compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[a-z]+(?:[-_][a-z]+)+")
_LOCAL_HOSTS: tuple[str, ...] = ("localhost", "0.0.0.0", "::1", "host.docker.internal")
_LOCAL_HOSTS += ("example.com", "example.org", "example.net")
_LOCAL_SUFFIXES: tuple[str, ...] = (".localhost", ".local", ".test", ".example", ".invalid")
_LOCAL_SUFFIXES += (".example.com", ".example.org", ".example.net")
_SHORTEST_PASSWORD = 6
_LEET = str.maketrans("013457@$", "oieastas")
_NOT_LETTERS = lazy_compile(r"[^a-z]+")
_LOOPBACK = lazy_compile(r"127(?:\.[0-9]{1,3}){3}")


def _url_placeholder(match: TokenMatch) -> bool:
    from urllib.parse import unquote

    password = unquote(match.value).lower()
    host = match.host.strip("[]").lower().rstrip(".")
    # Its words as written, and as a doc's example writes them (`s3cret`, `p@ssw0rd`).
    plain = _NOT_LETTERS.sub(" ", password).split()
    leet = _NOT_LETTERS.sub(" ", password.translate(_LEET)).split()
    return (
        is_placeholder(password)
        or len(password) < _SHORTEST_PASSWORD
        or password == unquote(match.user).lower()
        or any(w in _PLACEHOLDERS or w.startswith(_PLACEHOLDER_STARTS) for w in plain + leet)
        or any(
            word in text
            for word in _PLACEHOLDER_WORDS
            for text in (password, "".join(plain), "".join(leet))
        )
        or _NAME_FOR_VALUE.fullmatch(unquote(match.value)) is not None
        or host in _LOCAL_HOSTS
        or host.endswith(_LOCAL_SUFFIXES)
        or _LOOPBACK.fullmatch(host) is not None
        or ("." not in host and ":" not in host)
    )


def _masked(line: str) -> str:
    """The line with each escaped byte that is no UTF-8 (`\\xa0`, as hunks and `show`
    decode them) made spaces of its length: the byte parts words as a no-break space
    does, where its escape's last digit would join the token after it (found by an
    adversarial review: `\\xa0AKIA...` was neither redacted nor reported). Spans
    found in it are the line's own."""
    return (
        _BYTE_ESCAPE.sub(lambda escape: " " * len(escape.group()), line) if "\\x" in line else line
    )


_BYTE_ESCAPE = lazy_compile(r"\\x[0-9a-f]{2}")


def is_placeholder(value: str) -> bool:
    """A documented example (AWS's keys end in EXAMPLE) or a run of one character
    (`ghp_xxxxxxxx...`, `AKIA0000...`): shaped like a credential, but not one."""
    return "example" in value.lower() or len(set(value[-16:])) <= 2


class KeyBlock(NamedTuple):
    """A private key block over lines[first..last] (0-based, inclusive), or (`label`
    another credential's) the line holding a value named on a line above it."""

    first: int
    last: int
    label: str = PRIVATE_KEY_LABEL


# The AWS secret access key named at the end of a line and given alone on the next
# line that is not blank (found by an adversarial review): a YAML block scalar
# (`aws_secret_access_key: >-`), a value a formatter wrapped, an element's text.
# After the name, up to 24 characters with no run of its value's characters: YAML's
# `: |+`, `: >2-`, an anchor or a tag, `<<~KEY`, `by lazy {` (a review of the fix).
_NAMED_AT_END = lazy_compile(_AWS_SECRET_NAME + r"(?P<rest>[^\n]{0,24})$")
_VALUE_RUN = lazy_compile(r"[A-Za-z0-9/+]{16}")
_VALUE_WITHIN = 6  # lines after the name where its value is looked for
# Lines skipped between the name and its value: comments.
_COMMENT_LINE = lazy_compile(r"[ \t]*(?:#|//|;|--)")
_VALUE_ALONE = lazy_compile(
    r"[-+ ]?[ \t]*(?:-[ \t]+)?[\"'`]?(?![0-9a-fA-F]{40}(?![A-Za-z0-9/+=]))"
    r"(?P<value>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])"
)


# A line a key's body may be: base64 alone, or as a program, a comment or a list
# writes it (`"...\\n" +`, `+ "...",`, `'...' .`, `# ...`, ` * ...`, `- ...`), after a
# diff's first column; PGP's checksum line starts with `=`. Its run of base64 is
# possessive: a `+` ending it is punctuation's too, and a long run of `+` was tried
# split every way.
_BODY_LINE = lazy_compile(
    r"[-+ ]?[ \t]*(?:(?:#|//|\*|;|--|%|>(?:[ \t]*>)*|[-*][ \t])[ \t]*)?(?:[+.][ \t]*)?"
    r"(?:(?:[bBrRuU]{1,2}|@)?[\"'`])?"
    r"=?[A-Za-z0-9+/]*+={0,2}[\"'`]?[ \t\r,;+.\\)\]\"']*+"
)
# JSON in a JSON string escapes its `\n` again; from a run's first backslash only: a
# long run was tried from each of them (a review of the fix).
_ESCAPES = lazy_compile(r"(?<!\\)\\++[nr]")
_BASE64_CHARACTER = lazy_compile(r"[A-Za-z0-9+/]")
# A PEM or PGP armour header (`Proc-Type: 4,ENCRYPTED`, `Version: GnuPG v2`), written
# as a body line is.
_PEM_HEADER = lazy_compile(
    r"[-+ ]?[ \t]*(?:(?:#|//|\*|;|--|%|>(?:[ \t]*>)*)[ \t]*)?(?:[+.][ \t]*)?[\"'`]?"
    r"[A-Za-z][A-Za-z0-9-]*: "
)


def is_key_body(line: str) -> bool:
    """A line a private key's body may be: nothing but base64 (a key's last line is
    short), as it is or as a program, a comment or a list writes it. A line of
    code is none, whatever base64 it holds (`os.system(cmd)  # AAAA...`)."""
    return _BODY_LINE.fullmatch(_ESCAPES.sub("", line) if "\\" in line else line) is not None


def _one_line_body(text: str) -> bool:
    """Whether the text between a BEGIN and an END armour on one line is a key's body
    whose lines were joined with spaces (a `.env` value: found by an adversarial
    review), or with none."""
    words = text.split()
    return bool(words) and all(is_key_body(word) for word in words)


def key_blocks(lines: Sequence[str]) -> list[KeyBlock]:
    """Private key blocks: from a BEGIN line to its END line; with no END, through
    the lines after it that a key's body may be (and armour headers) to the last of
    them before a line no key's body is (a BEGIN line quoted in a comment is then a
    block of one line). Only a block whose body lines hold key material (40 base64
    characters in a row) is one: the armour around "..." hides nothing and is no
    finding. Only a block's body lines are its key: a line of code between the
    armour lines is shown (`redact_lines`)."""
    joined = "\n".join(lines)
    blocks = _values_named_above(lines, joined.lower())
    if _ARMOUR not in joined:
        return blocks  # the common case, at the cost of two searches in C
    index = 0
    while index < len(lines):
        begin = _KEY_BEGIN.search(lines[index]) if _ARMOUR in lines[index] else None
        if begin is None:
            index += 1
            continue
        first, last = index, _block_end(lines, index, begin.end())
        parts = [lines[first][begin.end() :], *lines[first + 1 : last + 1]]
        parts = [_KEY_END.split(part, maxsplit=1)[0] for part in parts]
        one_line = first == last and _one_line_body(parts[0])
        if any(_KEY_MATERIAL.search(part) and (one_line or is_key_body(part)) for part in parts):
            blocks.append(KeyBlock(first, last))
        index = last + 1
    return sorted(blocks)


def _values_named_above(lines: Sequence[str], lowered: str) -> list[KeyBlock]:
    """The lines holding a value named at the end of a line above (`_NAMED_AT_END`).
    `lowered`: the lines joined, in lower case (only its line breaks are counted: a
    letter may lower to two); only the lines holding "ecret" are read, found in C."""
    blocks: list[KeyBlock] = []
    index, start = 0, 0  # the line `start` is in: counted forward, never again
    at = lowered.find("ecret")
    while at >= 0:
        index += lowered.count("\n", start, at)
        start = at
        line = lines[index]
        end = lowered.find("\n", at)  # the next line's, if any, is looked for next
        at = -1 if end < 0 else lowered.find("ecret", end)
        named = _NAMED_AT_END.search(line.rstrip("\r")[-64:])  # a name ends it, or none
        if named is None or _VALUE_RUN.search(named["rest"]):
            continue
        # The next line that is a value, or not blank nor a comment, within a few (a
        # file of such names is read once, not once per name: a review of the fix).
        below = next(
            (
                i
                for i in range(index + 1, min(len(lines), index + 1 + _VALUE_WITHIN))
                if _VALUE_ALONE.match(lines[i])
                or (lines[i].strip() and not _COMMENT_LINE.match(lines[i]))
            ),
            None,
        )
        if below is not None and _VALUE_ALONE.match(lines[below]):
            blocks.append(KeyBlock(below, below, _AWS_SECRET_LABEL))
    return blocks


def reported(lines: Sequence[str], block: KeyBlock) -> bool:
    """Whether a block is a finding: a key block always (its body holds key
    material), a value named above unless it is a placeholder (AWS's `...EXAMPLEKEY`)."""
    if block.label == PRIVATE_KEY_LABEL:
        return True
    value = _VALUE_ALONE.match(lines[block.first])
    return value is not None and not is_placeholder(value.group("value"))


def may_hold_blocks(text: str | bytes) -> bool:
    """False only for a file in which `key_blocks` finds nothing: a prefilter."""
    if isinstance(text, bytes):
        return b"PRIVATE KEY" in text or b"ecret" in text.lower()
    return _ARMOUR in text or "ecret" in text.lower()


def _block_end(lines: Sequence[str], first: int, after_begin: int) -> int:
    """The last line of the key block whose BEGIN line is `first`."""
    if _KEY_END.search(lines[first], after_begin):
        return first
    for index in range(first + 1, len(lines)):
        if _END_LITERAL in lines[index] and _KEY_END.search(lines[index]):
            return index
    last = first
    for index in range(first + 1, len(lines)):
        line = lines[index]
        if not line.strip():
            continue
        if not is_key_body(line) and _PEM_HEADER.match(line) is None:
            break
        last = index
    return last


def redact(text: str) -> str:
    """A fragment (an excerpt, a message) or a whole file with every credential's value
    replaced by REDACTED. A fragment may hold a few lines of a private key without its
    BEGIN line, so key-shaped base64 is hidden too: a line of nothing but base64 at
    least 40 long, and the base64 lines right before an END line. In an excerpt such a
    line is noise at best."""
    return "\n".join(_hide_loose_material(redact_lines(text.split("\n"))))


def redact_diff(text: str) -> str:
    """`redact` of a unified diff's hunks, each line's `+`, `-` or ` ` kept: a line
    redacted whole lost it, and with it whether the secret came or went (found by an
    adversarial review)."""
    lines = text.split("\n")
    marks = [line[:1] if line[:1] in (" ", "+", "-") else "" for line in lines]
    bodies = [line[len(mark) :] for line, mark in zip(lines, marks, strict=True)]
    hidden = _hide_loose_material(redact_lines(bodies))
    return "\n".join(mark + body for mark, body in zip(marks, hidden, strict=True))


def redact_fragment(lines: Sequence[str]) -> list[str]:
    """`redact` of a fragment's lines whose tokens are already redacted (by
    `redact_line`, as a diff's rows are): only the key blocks and the key-shaped
    base64 are left to hide, and the token patterns are not run twice."""
    hidden = list(lines)
    joined = "\n".join(hidden)
    # Nothing below matches without a key's armour (BEGIN and END lines both say
    # PRIVATE KEY) or a run of base64: most fragments pass in two C searches.
    if _ARMOUR not in joined and _KEY_MATERIAL.search(joined) is None:
        return hidden
    for block in key_blocks(hidden):
        for index in range(block.first, block.last + 1):
            hidden[index] = _redact_block_line(hidden[index], index, block)
    return _hide_loose_material(hidden)


def _hide_loose_material(lines: list[str]) -> list[str]:
    """A line of nothing but base64 at least 40 long, or of key material written as a
    program writes a key's body (`"MIIE...\\n"`: found by an adversarial review, a
    fragment of a quoted key without its BEGIN line was printed), and the base64 lines
    right before an END line, hidden in place."""
    for index, line in enumerate(lines):
        # The literal checks first: both patterns are rare, and these are cheap.
        if len(line) >= _MATERIAL_LENGTH and (
            _MATERIAL_LINE.fullmatch(line) or _written_material(line)
        ):
            lines[index] = REDACTED
        elif _END_LITERAL in line and _KEY_END.search(line):
            before = index - 1
            while before >= 0 and (
                lines[before] == REDACTED or _BASE64_LINE.fullmatch(lines[before])
            ):
                lines[before] = REDACTED
                before -= 1
    return lines


def _written_material(line: str) -> bool:
    """Whether a line is a key's body as a program writes it, its run of base64 mixing
    capitals, small letters and digits or `+/` as key material does: a long name
    (`AbstractSingletonProxyFactoryBean,`) is none."""
    material = _WRITTEN_MATERIAL.search(line)
    if material is None or not is_key_body(line):
        return False
    run = material.group()
    kinds = (run.upper() != run, run.lower() != run, any(c in _DIGITS_SLASH for c in run))
    return all(kinds)


_DIGITS_SLASH = frozenset("0123456789+/")
# A key's body line is 64 characters of base64 (PEM), 70 (OpenSSH) or 76: a shorter
# run is a name or a path (a review of the fix: a plugin's 44-character name was hidden).
_WRITTEN_MATERIAL = lazy_compile(r"[A-Za-z0-9+/]{60,}")


def name_may_change(text: str) -> bool:
    """False only for a text (or several names joined) that `redact_name` leaves as it
    is: no token kind can match in it, and no private key's armour is in it."""
    return may_hold_token(text) or _ARMOUR in text


def fragment_may_change(text: str) -> bool:
    """False only for a fragment's text (lines joined) that redacting its lines one by
    one and then as a fragment (`redact_line`, `redact_fragment`) leaves as it is: no
    token kind, no key armour, no run of base64 in it. None of them spans a line
    break: a text holding more lines than the fragment (its unchanged lines too)
    answers for it."""
    return name_may_change(text) or _KEY_MATERIAL.search(text) is not None


def redact_name(text: str) -> str:
    """A name (a path, a branch or range spec, a handle, a symbol) with every credential
    replaced by REDACTED (issue 11). Unlike `redact`, a name made of nothing but base64
    characters stays as it is: `docs/architecture/overview/introduction` is a path,
    not key material. Most names: a few searches in C (`name_may_change`), then the
    name itself."""
    if not name_may_change(text):
        return text
    return "\n".join(redact_lines(text.split("\n")))


def redact_lines(lines: Sequence[str], start: int = 0, stop: int | None = None) -> list[str]:
    """`lines[start:stop]`, each redacted. Lines of a private key block keep only the
    armour: the blocks are found in all of `lines`, so a key's body stays hidden when
    a few lines of it are shown without its BEGIN line."""
    stop = len(lines) if stop is None else stop
    redacted = [_redact_tokens(line) for line in lines[start:stop]]
    for block in key_blocks(lines):
        for index in range(max(block.first, start), min(block.last + 1, stop)):
            redacted[index - start] = _redact_block_line(redacted[index - start], index, block)
    return redacted


def redact_line(line: str, index: int, blocks: Sequence[KeyBlock]) -> str:
    """Line `index` (0-based) of a text whose private key blocks are known: a hunk's
    line is redacted with the whole file in view, as `redact_lines` does."""
    line = _redact_tokens(line)
    for block in blocks:
        if block.first <= index <= block.last:
            return _redact_block_line(line, index, block)
    return line


def _redact_tokens(line: str) -> str:
    for kind in kinds_in(line):
        group = "value" if "value" in kind.pattern.groupindex else 0
        spans = [match.span(group) for match in kind.pattern.finditer(_masked(line))]
        if spans:
            # Joined once: the line made again for each token was quadratic (a line of
            # 100,000 placeholder keys took a minute: found by an adversarial review).
            pieces, kept = [], 0
            for start, end in spans:
                pieces += [line[kept:start], REDACTED]
                kept = end
            line = "".join([*pieces, line[kept:]])
    return line


def _redact_block_line(line: str, index: int, block: KeyBlock) -> str:
    if block.label == PRIVATE_KEY_LABEL:
        return _redact_key_line(line, index == block.first)
    value = _VALUE_ALONE.match(line)
    return line if value is None else line[: value.start("value")] + REDACTED + line[value.end() :]


def _redact_key_line(line: str, first: bool) -> str:
    """Keep the BEGIN and END armour, what lies outside the block, and a diff's `+`,
    `-` or ` ` at the start of a line (one character of a key is no secret); and a
    line that cannot be a key's body whole (code between the armour lines is shown,
    or the armour would hide what a reviewer must read)."""
    start = 0
    prefix = ""
    if first:
        begin = _KEY_BEGIN.search(line)
        assert begin is not None
        prefix, start = line[: begin.end()], begin.end()
    end = _KEY_END.search(line, start)
    if not first and line[:1] in ("+", "-", " ") and (end is None or end.start() > 0):
        prefix, start = line[:1], 1
    suffix = line[end.start() :] if end is not None else ""
    middle = line[start : end.start() if end is not None else len(line)]
    body = is_key_body(middle) or (first and end is not None and _one_line_body(middle))
    if not _BASE64_CHARACTER.search(_ESCAPES.sub("", middle)) or not body:
        return line  # nothing of a key (`    "`), or code within the armour: shown
    return prefix + REDACTED + suffix
