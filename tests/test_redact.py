"""Secrets never leave leafexplain: each kind, in messages, frames, user code and URLs, in every format and on stderr.

The secrets here are made up, and built from pieces at run time, so that no scanner takes this
file for a leak.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from leafexplain.redact import KIND_NAMES, MARK, Redactor, merge, redact
from leafexplain.render import FORMATS
from tests.conftest import Isolated, leafexplain_command

# kind: (the secret as it appears in text, the part that must never be shown, what stays before the marker)
PASSWORD = "Tr0ub4dor" + "&3xQ"
SECRETS: dict[str, tuple[str, str, str]] = {
    "url-credentials": (
        "https://deploy-bot:" + PASSWORD + "@registry.example.com/simple/",
        PASSWORD,
        "https://deploy-bot:…[redacted]@registry.example.com",
    ),
    "url-secret-parameter": (
        "https://api.example.com/v1/files?page=2&access_token=" + "q7Rk2" * 4,
        "q7Rk2" * 4,
        "&access_token=…[redacted]",
    ),
    "authorization-header": (
        "Authorization: Bearer " + "mF_9.B5f-4.1JqM" * 2,
        "mF_9.B5f-4.1JqM" * 2,
        "Bearer …[redacted]",
    ),
    "github-pat": ("github_pat_" + "11AbCdEfG0" * 6, "11AbCdEfG0" * 6, "github_pat_…[redacted]"),
    "github-token": ("ghp_" + "x9Y8w7V6u5" * 4, "x9Y8w7V6u5" * 4, "ghp_…[redacted]"),
    "aws-access-key": ("AKIA" + "Q3EXAMPLE7KEYZZZ", "Q3EXAMPLE7KEYZZZ", "AKIA…[redacted]"),
    "huggingface-token": ("hf_" + "AbCdEfGhIj" * 4, "AbCdEfGhIj" * 4, "hf_…[redacted]"),
    "sk-api-key": ("sk-proj-" + "Ab3dEf6hIj9kLm" * 3, "Ab3dEf6hIj9kLm" * 3, "sk-…[redacted]"),
    "slack-token": ("xoxb-" + "1234567890-" * 2 + "AbCdEfGhIjKl", "AbCdEfGhIjKl", "xoxb-…[redacted]"),
    "jwt": (
        "eyJ" + "hbGciOiJIUzI1NiJ9" + ".eyJ" + "zdWIiOiIxMjM0NTY3ODkwIn0" + "." + "dozjgNryP4J3jVmNHl0w5N",
        "zdWIiOiIxMjM0NTY3ODkwIn0",
        "eyJ…[redacted]",
    ),
    "private-key": (
        "-----BEGIN "
        + "RSA PRIVATE KEY-----\\n"
        + "MIIEpAIBAAKCAQEA"
        + "q8Zt3Lw0" * 6
        + "\\n-----END RSA PRIVATE KEY-----",
        "q8Zt3Lw0" * 6,
        "PRIVATE KEY-----…[redacted]",
    ),
    "slack-webhook": (
        "https://hooks.slack.com/services/" + "T0ABCDEF1/B0ABCDEF2/" + "x7Yq2Lm9Pz4Kd8Rt" * 2,
        "x7Yq2Lm9Pz4Kd8Rt" * 2,
        "hooks.slack.com/services/…[redacted]",
    ),
    "discord-webhook": (
        "https://discord.com/api/webhooks/" + "123456789012345678/" + "Zx8Kq2Lm9Pz4Kd8RtVb3" * 3,
        "Zx8Kq2Lm9Pz4Kd8RtVb3" * 3,
        "/api/webhooks/…[redacted]",
    ),
    "gitlab-token": ("glpat-" + "Xy7Kq2Lm9Pz4Kd8RtVb3", "Xy7Kq2Lm9Pz4Kd8RtVb3", "glpat-…[redacted]"),
    "google-api-key": ("AIza" + "SyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q", "SyA1b2C3d4E5f6G7h8I9j0K1l2", "AIza…[redacted]"),
    "stripe-key": ("sk_" + "live_" + "4eC39HqLyjWDarjtT1zdp7dc", "4eC39HqLyjWDarjtT1zdp7dc", "sk_live_…[redacted]"),
    "npm-token": ("npm_" + "Ab1Cd2Ef3Gh4" * 3, "Ab1Cd2Ef3Gh4" * 3, "npm_…[redacted]"),
    "pypi-token": ("pypi-" + "AgEIcHlwaS5vcmc" + "Qx7Lm2Kd9Pz4" * 5, "Qx7Lm2Kd9Pz4" * 5, "pypi-…[redacted]"),
    "sendgrid-key": (
        "SG." + "Ab1Cd2Ef3Gh4Ij5Kl6Mn7O." + "Pq8Rs9Tu0Vw1Xy2Za3Bc4" + "De5Fg6Hi7Jk8Lm9No0Pq1Rs",
        "De5Fg6Hi7Jk8Lm9No0Pq1Rs",
        "SG.…[redacted]",
    ),
    "shopify-token": ("shpat_" + "0f1e2d3c4b5a" * 2 + "69788796", "0f1e2d3c4b5a" * 2, "shpat_…[redacted]"),
    "databricks-token": ("dapi" + "a1b2c3d4e5f6" * 2 + "0718293a", "a1b2c3d4e5f6" * 2, "dapi…[redacted]"),
    "twilio-key": ("SK" + "9f8e7d6c5b4a" * 2 + "31425364", "9f8e7d6c5b4a" * 2, "SK…[redacted]"),
    "bearer-token": ("Bearer " + "mF9B5f41JqMzQ8xW2" * 2, "mF9B5f41JqMzQ8xW2" * 2, "Bearer …[redacted]"),
    "credential-field": ("password=" + "Qm9zY2gx7Kd2Lp0a", "Qm9zY2gx7Kd2Lp0a", "password=…[redacted]"),
}
OUTPUTS = {
    "terminal": ["--format", "terminal", "--color", "never"],
    "terminal-color": ["--format", "terminal", "--color", "always"],
    "plain": ["--format", "plain"],
    "markdown": ["--format", "markdown"],
    "json": ["--format", "json"],
    "github": ["--format", "github"],
    "sarif": ["--format", "sarif"],
    "concise": ["--format", "concise"],
    "jsonl": ["--format", "jsonl"],
}


def traceback_with(secret: str) -> str:
    """A real-looking traceback whose message, frame path and code line each hold the secret."""
    return textwrap.dedent(
        f"""\
        Traceback (most recent call last):
          File "/srv/app/fetch.py", line 12, in <module>
            download("{secret}")
          File "/srv/app/lib/{secret}/client.py", line 40, in download
            raise FetchFailed(f"cannot reach {{url}}")
        FetchFailed: cannot reach {secret} (after 3 tries)
        """
    )


def test_every_format_is_checked_here() -> None:
    assert {name.split("-")[0] for name in OUTPUTS} == set(FORMATS)


def test_every_kind_in_the_table_is_tested() -> None:
    assert set(SECRETS) == set(KIND_NAMES)


@pytest.mark.parametrize("kind", sorted(SECRETS))
def test_the_redactor_replaces_each_kind_with_a_marker_that_keeps_it(kind: str) -> None:
    text, hidden, kept = SECRETS[kind]
    redactor = Redactor()
    out = redactor(f"before {text} after")
    assert hidden not in out
    assert kept in out
    assert out.startswith("before ") and out.endswith(" after")
    assert redactor.counts() == ((kind, 1),)
    assert redact(out) == out, "a marker is never redacted again"


@pytest.mark.parametrize("kind", sorted(SECRETS))
@pytest.mark.parametrize("output", sorted(OUTPUTS))
def test_no_secret_in_any_format_or_on_stderr(kind: str, output: str, cli) -> None:
    text, hidden, kept = SECRETS[kind]
    result = cli(*OUTPUTS[output], "--no-source", input=traceback_with(text))
    assert result.returncode == 1, result.stderr  # the program's own FetchFailed: no record explains it
    assert result.stdout.strip(), "something was written"
    assert hidden not in result.stdout
    assert hidden not in result.stderr
    found = {kind: traceback_with(text).count(hidden)}  # in the message, the code line, a frame's path
    if output == "json":
        document = json.loads(result.stdout)
        assert document["redacted"] == found
        assert MARK in document["events"][0]["message"]
    if output == "sarif":
        assert json.loads(result.stdout)["runs"][0]["properties"]["redacted"] == found
    if output in ("plain", "markdown", "github"):
        assert kept.split("…")[0] + "…[redacted]" in result.stdout.replace("\\_", "_")


def test_no_redact_shows_them_as_they_came_and_json_says_redaction_was_off(cli) -> None:
    text, hidden, _ = SECRETS["github-token"]
    result = cli("--format", "json", "--no-redact", "--no-source", input=traceback_with(text))
    document = json.loads(result.stdout)
    assert document["redacted"] is None
    assert hidden in document["events"][0]["message"]
    plain = cli("--format", "plain", "--no-redact", "--no-source", input=traceback_with(text))
    assert hidden in plain.stdout


def test_counts_by_kind_and_never_a_value(cli) -> None:
    pieces = [SECRETS[k][0] for k in ("github-token", "aws-access-key", "github-token", "url-credentials")]
    message = "ValueError: " + " ".join(pieces)
    result = cli("--format", "json", "--no-source", input=message)
    document = json.loads(result.stdout)
    assert document["redacted"] == {"url-credentials": 1, "github-token": 2, "aws-access-key": 1}
    for kind in ("github-token", "aws-access-key", "url-credentials"):
        assert SECRETS[kind][1] not in result.stdout


def test_the_users_code_read_from_disk_is_redacted(cli, tmp_path: Path) -> None:
    """The lines around the user's frame come from the file: a token in them is replaced there too,
    and the traceback's own (redacted) code line is still recognised as the file's."""
    token = SECRETS["huggingface-token"][0]
    script = tmp_path / "train.py"
    script.write_text(f'import json\nHF_TOKEN = "{token}"\nconfig = json.loads("")\nprint(config)\n')
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, cwd=tmp_path)
    for fmt in ("plain", "markdown", "json", "sarif", "github"):
        result = cli("--format", fmt, input=done.stderr, cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        assert SECRETS["huggingface-token"][1] not in result.stdout
    document = json.loads(cli("--format", "json", input=done.stderr, cwd=tmp_path).stdout)
    snippet = document["events"][0]["user_snippet"]
    assert snippet is not None and any("hf_…[redacted]" in line for line in snippet["lines"])
    assert snippet["note"] is None
    assert document["redacted"] == {"huggingface-token": 1}


def test_a_token_in_the_traceback_code_line_still_finds_the_users_line(cli, tmp_path: Path) -> None:
    token = SECRETS["github-token"][0]
    script = tmp_path / "push.py"
    script.write_text(f'import json\n\njson.loads("{token}")\n')
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, cwd=tmp_path)
    document = json.loads(cli("--format", "json", input=done.stderr, cwd=tmp_path).stdout)
    snippet = document["events"][0]["user_snippet"]
    assert snippet["line"] == 3 and snippet["note"] is None, "the file did not change since the run"
    assert SECRETS["github-token"][1] not in json.dumps(document)


def test_run_redacts_its_explanation_on_stderr_but_passes_the_commands_output_as_it_is(tmp_path: Path) -> None:
    text, hidden, kept = SECRETS["url-credentials"]
    # A class of the program's own: no record explains it, not even one for its class.
    program = f"print({text!r})\nclass FetchFailed(Exception): pass\nraise FetchFailed('fetching {text} failed')\n"
    done = subprocess.run(
        [*leafexplain_command(), "run", "--", sys.executable, "-c", program],
        capture_output=True,
        text=True,
        env=Isolated(tmp_path).environ,
        timeout=120,
    )
    assert done.returncode == 1
    assert done.stdout == text + "\n", "the command's own output is its own"
    ours = done.stderr.split("FetchFailed: fetching", 1)[1].split("\n", 1)[1]  # after the command's traceback
    assert "no record" in ours
    assert hidden not in ours
    assert kept in ours


def test_diagnostics_of_our_own_are_redacted(environment) -> None:
    from leafexplain.render import internal_error, usage_error

    env = environment()
    text, hidden, _ = SECRETS["github-token"]
    internal_error(env, ValueError(f"while reading {text}"))
    usage_error(env, f"Error: Invalid value for '--records': {text}")
    assert hidden not in env.said
    assert "ghp_…[redacted]" in env.said


TOKEN = SECRETS["github-token"][0]
HIDDEN = SECRETS["github-token"][1]


@pytest.mark.parametrize(
    ("args", "environ"),
    [
        (["--file", f"/nonexistent/{TOKEN}/log.txt"], {}),  # cannot read …
        (["--records", f"/nonexistent/{TOKEN}", "ValueError: x"], {}),  # skipped record: …
        (["ValueError: x"], {"LEAFEXPLAIN_RECORDS": f"/nonexistent/{TOKEN}"}),
        (["--root", f"/nonexistent/{TOKEN}", "ValueError: x"], {}),  # --root …: not a folder
        (["run", "--", f"./{TOKEN}"], {}),  # … command not found
        (["search", TOKEN], {}),  # no record is relevant to …
        (["show", TOKEN], {}),  # no record with id or slug …, and the search command to copy
        (["--format", "json", "--file", f"/nonexistent/{TOKEN}/log.txt"], {}),
    ],
    ids=["file", "records", "records-variable", "root", "run", "search", "show", "json-file"],
)
def test_every_diagnostic_on_stderr_is_redacted(args: list[str], environ: dict[str, str], cli) -> None:
    """The paths, commands and queries leafexplain repeats on stderr pass through the same redaction
    (render.warn), whatever the message."""
    result = cli(*args, extra_env=environ)
    assert result.stderr.strip(), "a diagnostic was written"
    assert HIDDEN not in result.stderr and HIDDEN not in result.stdout
    assert "ghp_…[redacted]" in result.stderr


@pytest.mark.parametrize(
    "args",
    [["--no-redact", "--file", f"/nonexistent/{TOKEN}/log.txt"], ["run", "--no-redact", "--", f"./{TOKEN}"]],
    ids=["explain", "run"],
)
def test_no_redact_shows_the_diagnostics_as_they_came(args: list[str], cli) -> None:
    assert HIDDEN in cli(*args).stderr


def test_a_warning_is_redacted_unless_the_environment_says_not(environment) -> None:
    from leafexplain.render import warn

    env = environment()
    warn(env, f"cannot read /tmp/{TOKEN}/x: no such file")
    warn(env.replace(redact=False), f"cannot read /tmp/{TOKEN}/x: no such file")
    first, second = env.said.splitlines()
    assert first == "leafexplain: cannot read /tmp/ghp_…[redacted]/x: no such file"
    assert HIDDEN in second


@pytest.mark.parametrize(
    "text",
    [
        "/home/me/sk-learn-experiments-2024/train.py",  # a path, not a key
        "from huggingface_hub import hf_hub_download_with_a_very_long_name_here",
        "Authorization: failed for user alice",
        "https://user@github.com/org/repo.git",  # a user name alone is no secret
        "http://localhost:8080/health?ready=1",
        "KeyError: 'AKIA'",
        "thread 'main' panicked at src/main.rs:1:5:\nghp_ is a prefix",
        # Not a credential's name, or not a secret's value (issue 15's audit, B3).
        "invalid url http://localhost:8080/api?key=value&page=2",
        "GET https://api.example.com/items?sort_key=name&primary_key=id failed",
        "failed to fetch https://pypi.org/simple/torch/?pass=1",
        "AssertionError: assert flags&key==1",
        "cannot open /opt/models/sk-Model2024_Final_v3_ABCdef/weights.bin",
        "https://example.com/path?next=/login?token_type=bearer",
        "pass=ok&secret_santa=false",
        "KeyError: 'api_key'",
        "token 'class' unexpected at line 3",
        'password authentication failed for user "app"',
        "TypeError: f() got an unexpected keyword argument 'token'",
        "max_tokens=4096 exceeds the limit",
        "token_count: 51200 > 32768",
        "password = os.environ['DB_PASSWORD']",
        'token: "${{ secrets.GITHUB_TOKEN }}"',
        "auth=oauth failed",
        "Bearer authentication required",
        "expected a Bearer token in the header",
        "author=JohnSmith1984",
        "-----BEGIN PRIVATE KEY----- is missing from the file",
        # Hashes, ids, shapes, addresses, paths.
        "commit 3bcdbdd4f2a1c9e0b7d6a5f4e3d2c1b0a9f8e7d6 not found",
        "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08 mismatch",
        "run 123e4567-e89b-12d3-a456-426614174000 failed",
        "mat1 and mat2 shapes cannot be multiplied (64x512 and 256x10)",
        "error at 0x7ffd5e8c9a40 in ghost_process",
        "mongodb://localhost:27017/db: timeout",
        "http://localhost:8080/@scope/pkg not found",
        "ssh://git@github.com:22/org/repo.git: connection refused",
        "file:///C:/Users/x/a.py:3: warning",
        "http://[::1]:8000/ refused by admin@example.com",
        "C:\\Users\\bob\\ghp_tools\\main.py not found",
        "DISK_FULL: SK01 TASKS",
        "npm_config_cache is not set",
        "module 'xoxo-lib' has no attribute 'run'",
    ],
)
def test_ordinary_text_is_left_alone(text: str) -> None:
    redactor = Redactor()
    assert redactor(text) == text
    assert redactor.counts() == ()


def test_counts_merge_by_kind_in_table_order() -> None:
    assert merge((("jwt", 1),), (("github-token", 2), ("jwt", 2))) == (("github-token", 2), ("jwt", 3))


def test_a_token_inside_a_url_is_one_secret() -> None:
    token = SECRETS["github-token"][0]
    redactor = Redactor()
    out = redactor(f"fatal: could not read from https://x-access-token:{token}@github.com/o/r.git")
    assert out == "fatal: could not read from https://x-access-token:…[redacted]@github.com/o/r.git"
    assert redactor.counts() == (("url-credentials", 1),)


def test_hostile_runs_of_prefixes_are_read_whole() -> None:
    """Each regex is pinned by a literal or a lookbehind: runs of trigger text end, and redact nothing."""
    for piece in ("sk-", "eyJ", "ghp_", "://", "?token=", "Authorization: ", "AKIA", "xoxb-"):
        text = piece * 20_000
        assert len(redact(text)) <= len(text)


def test_the_api_redacts_unless_told_not_to() -> None:
    from leafexplain import api

    text, hidden, _ = SECRETS["jwt"]
    message = f"ValueError: bad session {text}"
    redacted = api.explain(message, bundled=False)
    assert hidden not in redacted.findings[0].event.message and redacted.redacted == (("jwt", 1),)
    raw = api.explain(message, bundled=False, redact=False)
    assert hidden in raw.findings[0].event.message and raw.redacted is None
    assert hidden not in api.render(redacted, fmt="sarif")


NOISE = st.sampled_from([" ", "\n", "/", ":", "@", "?", "&", "=", "'", '"', "x", "Error: ", "https://", "_", "-"])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(NOISE, st.sampled_from(sorted(SECRETS)), st.text(max_size=8)), max_size=12))
def test_any_mix_of_secrets_and_noise_hides_every_secret_and_redacts_stably(parts: list[str]) -> None:
    """Secrets next to any text: each is gone, a second pass changes nothing, and counts never exceed
    the secrets put in (a neighbour may join a secret to a longer word, which then is no token)."""
    text = "".join(f" {SECRETS[p][0]} " if p in SECRETS else p for p in parts)
    redactor = Redactor()
    once = redactor(text)
    assert redact(once) == once
    for part in parts:
        if part in SECRETS:
            assert SECRETS[part][1] not in once, (part, once)
    assert sum(n for _, n in redactor.counts()) <= sum(p in SECRETS for p in parts) + text.count("://")


# Every shape issue 15's audit tried (B1), beyond the one example a kind has above: (id, text, the parts that
# must never be shown, the kind counted).
R40 = "Qz7Kp2Lm9Wx4Rt8Yu3Vb" * 2
HEX32 = "d1bff7cf" * 4
SHAPES: list[tuple[str, str, tuple[str, ...], str]] = [
    ("sk-lower-hex", "sk-" + HEX32, (HEX32,), "sk-api-key"),
    ("sk-ant", "sk-ant-api03-" + R40 + "-AbCdEfAA", (R40,), "sk-api-key"),
    ("xapp", "xapp-1-A" + "BCDEFG1234" + "-1234567890123-" + HEX32 * 2, (HEX32,), "slack-token"),
    ("xoxe", "xoxe.xoxp-1-" + R40, (R40,), "slack-token"),
    ("header-escaped-json", '{\\"Authorization\\": \\"Bearer ' + R40 + '\\"}', (R40,), "authorization-header"),
    ("proxy-authorization", "Proxy-Authorization: Basic " + R40, (R40,), "authorization-header"),
    ("bearer-lower", "sent bearer " + R40, (R40,), "bearer-token"),
    (
        "url-password-at",
        "https://bot:Qz7Kp2Lm@Wx4Rt8Yu@registry.example.com/",
        ("Qz7Kp2Lm", "Wx4Rt8Yu"),
        "url-credentials",
    ),
    (
        "url-password-slash",
        "https://bot:Qz7Kp2Lm/Wx4Rt8Yu@registry.example.com/",
        ("Qz7Kp2Lm", "Wx4Rt8Yu"),
        "url-credentials",
    ),
    (
        "url-password-hash",
        "https://bot:Qz7Kp2Lm#Wx4Rt8Yu@registry.example.com/",
        ("Qz7Kp2Lm", "Wx4Rt8Yu"),
        "url-credentials",
    ),
    ("url-password-space", "redis://:Qz7Kp2Lm Wx4Rt8Yu@cache:6379", ("Qz7Kp2Lm", "Wx4Rt8Yu"), "url-credentials"),
    ("url-quoted", "'https://bot:" + R40 + "@registry.example.com/'", (R40,), "url-credentials"),
    ("url-token-as-user", "https://ghp_" + R40 + "@github.com/o/r.git", (R40,), "github-token"),
    (
        "url-amz-signature",
        "https://s3.amazonaws.com/b/k?X-Amz-Signature=" + HEX32 * 2,
        (HEX32,),
        "url-secret-parameter",
    ),
    (
        "url-sas-sig",
        "https://acct.blob.core.windows.net/c/b?sv=2022&sig=" + R40 + "%3D",
        (R40,),
        "url-secret-parameter",
    ),
    ("url-api-key", "https://maps.example.com/q?api_key=" + R40 + "&z=1", (R40,), "url-secret-parameter"),
    ("aws-secret-kv", "aws_secret_access_key=" + R40[:30] + "/" + R40[:9], (R40[:30],), "credential-field"),
    ("aws-secret-env", "AWS_SECRET_ACCESS_KEY=" + R40, (R40,), "credential-field"),
    (
        "aws-secret-in-a-rust-path",
        "at /ci/AWS_SECRET_ACCESS_KEY=" + R40 + "/src/main.rs:3:5:",
        (R40,),
        "credential-field",
    ),
    ("aws-secret-code", 'aws_secret_access_key = "' + R40 + '"', (R40,), "credential-field"),
    ("x-api-key", "X-Api-Key: " + R40, (R40,), "credential-field"),
    ("x-api-key-in-a-string", 'TOKEN = "X-Api-Key: ' + R40 + '"', (R40,), "credential-field"),
    ("cookie", "Cookie: sessionid=" + R40, (R40,), "credential-field"),
    (
        "azure",
        "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=" + R40 + "==;EndpointSuffix=x",
        (R40,),
        "credential-field",
    ),
    ("dsn", "host=db user=app password=" + R40[:20] + " dbname=prod", (R40[:20],), "credential-field"),
    ("json-password", '{"password": "' + R40[:20] + '"}', (R40[:20],), "credential-field"),
    ("escaped-json-password", '{\\"password\\": \\"' + R40[:20] + '\\"}', (R40[:20],), "credential-field"),
    (
        "docker-auth",
        '{"auths":{"ghcr.io":{"auth":"' + "Ym90OlF6N0twMkxtOVd4NFJ0OFl1M1Zi" + '"}}}',
        ("Ym90OlF6N0twMkxt",),
        "credential-field",
    ),
    ("yaml-client-secret", "client_secret: " + R40, (R40,), "credential-field"),
    ("discordapp", "https://discordapp.com/api/webhooks/123456789012345678/" + R40, (R40,), "discord-webhook"),
    ("stripe-restricted", "rk_" + "live_" + R40[:24], (R40[:24],), "stripe-key"),
    ("stripe-test", "sk_" + "test_" + R40[:24], (R40[:24],), "stripe-key"),
    (
        "private-key-lines",
        "-----BEGIN "
        + "OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA"
        + R40
        + "\n"
        + R40
        + "\n-----END OPENSSH PRIVATE KEY-----",
        (R40,),
        "private-key",
    ),
    ("gitlab-deploy", "gldt-" + R40[:20], (R40[:20],), "gitlab-token"),
    (
        "pgp-private-key-block",
        "-----BEGIN "
        + "PGP PRIVATE KEY BLOCK-----\\n\\nlQOYBF"
        + R40
        + "\\n=Ab1c\\n-----END PGP PRIVATE KEY BLOCK-----",
        (R40,),
        "private-key",
    ),
]


@pytest.mark.parametrize(("text", "hidden", "kind"), [s[1:] for s in SHAPES], ids=[s[0] for s in SHAPES])
def test_each_shape_of_each_kind_is_redacted(text: str, hidden: tuple[str, ...], kind: str) -> None:
    redactor = Redactor()
    out = redactor(f"before {text} after")
    for part in hidden:
        assert part not in out, out
    assert MARK in out and out.startswith("before ") and out.endswith(" after")
    assert redactor.counts() == ((kind, 1),)
    assert redact(out) == out


ONE_LINE = sorted(kind for kind, (text, _, _) in SECRETS.items() if " " not in text)


@pytest.mark.parametrize("kind", sorted(SECRETS))
def test_each_kind_in_the_users_code_read_from_disk_is_redacted(kind: str, cli, tmp_path: Path) -> None:
    """The secret on the user's line and the lines either side, read from the file: never shown."""
    text, hidden, _ = SECRETS[kind]
    literal = text.replace("\\", "\\\\").replace('"', '\\"')
    code = tmp_path / "app.py"
    code.write_text(f'import os\nTOKEN = "{literal}"\nconnect("{literal}")\nOTHER = "{literal}"\nprint(1)\n')
    pasted = f'Traceback (most recent call last):\n  File "{code}", line 3, in <module>\n    connect("{literal}")\n'
    pasted += "KeyError: 'x'\n"
    for output in ("plain", "markdown", "json", "terminal-color"):
        result = cli(*OUTPUTS[output], input=pasted, cwd=tmp_path)
        assert result.returncode == 0, result.stderr  # a KeyError: its class's record explains it
        assert hidden not in result.stdout and hidden not in result.stderr, output
    document = json.loads(cli("--format", "json", input=pasted, cwd=tmp_path).stdout)
    snippet = document["events"][0]["user_snippet"]
    assert snippet is not None and sum(MARK in line for line in snippet["lines"]) == 3


@pytest.mark.parametrize("kind", ONE_LINE)
@pytest.mark.parametrize("output", ["plain", "json", "github", "sarif"])
def test_each_kind_in_a_url_is_redacted(kind: str, output: str, cli) -> None:
    text, hidden, _ = SECRETS[kind]
    pasted = (
        'Traceback (most recent call last):\n  File "/srv/app/get.py", line 3, in <module>\n    get()\n'
        "requests.exceptions.ConnectionError: HTTPSConnectionPool(host='registry.example.com', port=443): "
        f"Max retries exceeded with url: /simple/{text}/ (https://bot:{text}@registry.example.com/x?t=1)\n"
    )
    result = cli(*OUTPUTS[output], "--no-source", input=pasted)
    assert result.returncode == 0, result.stderr  # requests' ConnectionError: its class's record explains it
    assert result.stdout.strip()
    assert hidden not in result.stdout and hidden not in result.stderr


@pytest.mark.parametrize("kind", ["github-token", "aws-access-key", "url-credentials", "authorization-header"])
def test_a_long_logs_errors_are_redacted_too(kind: str, cli, tmp_path: Path) -> None:
    # Over a megabyte, a log is read in windows and only its errors' texts are redacted: they are what is shown.
    full, secret, _ = SECRETS[kind]
    noise = "2026-11-30T10:15:00Z step 1234 loss 0.1234 nothing to see here at all\n" * 20_000
    log = tmp_path / "big.log"
    log.write_text(noise + traceback_with(full) + noise + traceback_with(full))
    result = cli("--format", "json", "--file", str(log))
    assert secret not in result.stdout + result.stderr
    document = json.loads(result.stdout)
    assert document["events"][0]["count"] == 2 and document["redacted"]
