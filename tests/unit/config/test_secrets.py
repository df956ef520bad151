"""Which variables are credentials, and hiding them from the processes decode starts."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from decode.config.secrets import credential_names, looks_like_credential
from decode.config.settings import Settings

CREDENTIAL_NAMES = [
    # the issue's examples, and the names of the big providers' keys
    "GITHUB_TOKEN",
    "GH_TOKEN",
    "AWS_SECRET_ACCESS_KEY",
    "AWS_ACCESS_KEY_ID",
    "AWS_SESSION_TOKEN",
    "DB_PASSWORD",
    "OPENAI_API_KEY",
    "ANTHROPIC_API_KEY",
    "GEMINI_API_KEY",
    "HF_TOKEN",
    "HUGGING_FACE_HUB_TOKEN",
    "NPM_TOKEN",
    "PYPI_API_TOKEN",
    "TWINE_PASSWORD",
    "CARGO_REGISTRY_TOKEN",
    "SLACK_BOT_TOKEN",
    "STRIPE_SECRET_KEY",
    "AZURE_CLIENT_SECRET",
    "GOOGLE_APPLICATION_CREDENTIALS",
    "DOCKER_AUTH_CONFIG",
    "CI_JOB_JWT",
    "VAULT_TOKEN",
    "DECODE_MODAL_LLM_TOKEN",
    # spellings
    "APIKEY",
    "api_key",
    "github_token",
    "Db_Password",
    "MYSQL_PWD",
    "DB_PASS",
    "SMTP_PASS",
    "REDIS_PASSWD",
    "GPG_PASSPHRASE",
    "AWS_CREDS",
    "SSH_PRIVATE_KEY",
    "SIGNING_KEY",
    "SESSION_COOKIE",
    "PHPSESSID",
    "OAUTH_CLIENT_ID",
    "BASIC_AUTH",
    "HTTP_AUTHORIZATION",
    "PROXY_AUTHORISATION",
    "GITHUB_PAT",
    "SENTRY_DSN",
    "SLACK_WEBHOOK_URL",
    "BEARER",
    "my-secret",
    "x.token",
    # issue 25: PASS anywhere, webhooks, salts and seeds, whatever surrounds them
    "DBPASS",
    "MYSQLPASSWORD",
    "PASSCODE",
    "GIT_ASKPASS",
    "SSH_ASKPASS",
    "SLACK_WEBHOOK",
    "DISCORD_HOOK_URL",
    "TEAMS_HOOK",
    "HOOKURL",
    "PASSWORD_SALT",
    "HASHSALT",
    "WALLET_SEED",
    "SEED_PHRASE",
    "BIP39_MNEMONIC",
]

ORDINARY_NAMES = [
    "PATH",
    "HOME",
    "LANG",
    "LC_ALL",
    "TERM",
    "SHELL",
    "USER",
    "PWD",
    "OLDPWD",
    "TMPDIR",
    "EDITOR",
    "VIRTUAL_ENV",
    "PYTHONPATH",
    "GIT_AUTHOR_NAME",
    "GIT_AUTHOR_EMAIL",
    "GIT_COMMITTER_NAME",
    "XAUTHORITY",
    "SSH_AUTH_SOCK",
    "SSH_CONNECTION",
    "DISPLAY",
    "DBUS_SESSION_BUS_ADDRESS",
    "XDG_SESSION_TYPE",
    "SSL_CERT_FILE",
    "REQUESTS_CA_BUNDLE",
    "PW_TEST_HTML_REPORT_OPEN",
    "COMPASS_HOME",
    "PATHEXT",
    "DECODE_MODEL",
    "OPENAI_BASE_URL",
    "PYTHONHASHSEED",
    "PASSENGER_APP_ENV",
    "PROXY_BYPASS",
]


@pytest.mark.parametrize("name", CREDENTIAL_NAMES)
def test_names_that_say_credential_are_credentials(name: str) -> None:
    assert looks_like_credential(name, "x")


@pytest.mark.parametrize("name", ORDINARY_NAMES)
def test_ordinary_names_are_not(name: str) -> None:
    assert not looks_like_credential(name, "/usr/bin:/bin")


@pytest.mark.parametrize(
    "value",
    [
        "postgres://app:hunter2@db.internal:5432/app",
        "redis://:hunter2@localhost:6379/0",
        "http://user:pa55@proxy.corp:3128",
        "sk-proj-abcdefghijklmnopqrstuvwx",
        "ghp_abcdefghijklmnopqrstuvwxyz0123456789",
        "github_pat_11ABCDEFG0123456789abcdef",
        "glpat-abcdefghijklmnopqrst",
        "xoxb-1234567890-abcdefghijkl",
        "hf_abcdefghijklmnopqrstuvwxyz",
        "AIzaSyA-abcdefghijklmnopqrstuvwxyz01234",
        "AKIAIOSFODNN7EXAMPLE",
        "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----",
        # issue 25: URLs with userinfo, connection strings, webhook URLs, more key shapes
        "https://ghp_abcdefghijklmnopqrstuvwxyz0123456789@github.com/me/repo.git",
        "https://oauth2:glpat-abcdefghijklmnopqrst@gitlab.com/me/repo.git",
        "mongodb+srv://admin:s3cret@cluster0.example.mongodb.net/app",
        "amqp://guest:guest@localhost:5672/",
        "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=bXlrZXk=;EndpointSuffix=core.windows.net",
        "Server=db.internal;Database=app;User Id=app;Password=hunter2;",
        "Driver={ODBC Driver 18};Server=db;Uid=app;Pwd=hunter2",
        "Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=Root;SharedAccessKey=abc123=",
        "BlobEndpoint=https://a.blob.core.windows.net/;SharedAccessSignature=sv=2022-11-02&sig=abc",
        "https://hooks.slack.com/services/T0000/B0000/XXXXXXXXXXXXXXXXXXXXXXXX",
        "https://discord.com/api/webhooks/123456789/abcdefABCDEF",
        "https://contoso.webhook.office.com/webhookb2/abc@def/IncomingWebhook/123/456",
        "https://chat.googleapis.com/v1/spaces/AAAA/messages?key=abc&token=def",
        "sk-ant-api03-abcdefghijklmnopqrstuvwx",
        "sk_live_abcdefghijklmnopqrstuvwx",
        "xapp-1-A0000-1234567890-abcdef",
        "npm_abcdefghijklmnopqrstuvwxyz0123456789",
        "pypi-AgEIcHlwaS5vcmcCJGFiY2RlZmdoaWprbG1ub3A",
        "SG.abcdefghijklmnopqrstuv.abcdefghijklmnopqrstuvwxyz0123456789abcdefg",
        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA\n-----END RSA PRIVATE KEY-----",
    ],
)
def test_values_shaped_like_credentials_are_credentials_under_any_name(value: str) -> None:
    assert looks_like_credential("DATABASE_URL", value)
    assert looks_like_credential("SOMETHING", value)


@pytest.mark.parametrize(
    "value",
    [
        "http://localhost:8080/v1",
        "ssh://git@github.com/me/repo.git",
        "git@github.com:me/repo.git",
        "postgres://app@db.internal/app",
        "https://registry.npmjs.org/@scope/pkg",
        "/usr/local/bin:/usr/bin",
        "en_US.UTF-8",
        "sk-1",
        "ada@example.com",
        "https://hooks.example.com/deploy",
        "sg.mycompany-internal.example.com",
        "--password-file=/run/secrets/db",
        "eyJhbGciOi",
    ],
)
def test_ordinary_values_are_not(value: str) -> None:
    assert not looks_like_credential("SOMETHING", value)


GHP = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"

ATTACK_REVIEW_VALUES = [
    # URLs with a password: a `/` in it, a long one; a token as the user of a `scheme+https` URL
    "postgres://app:pa/ssw0rd@db/app",
    "https://u:" + "p" * 300 + "@h",
    f"git+https://{GHP}@github.com/me/repo.git",
    "git+http://TOKEN@example.com/me/repo.git",
    "hg+https://user@hg.example.com/repo",
    # a credential in a URL's query or in key=value words
    "jdbc:mysql://db/app?user=root&password=hunter2",
    "postgresql://db/app?password=hunter2",
    "host=db user=app password=hunter2 dbname=app",
    "mysql://db/app?passwd=hunter2",
    "mysql://db/app?user=root&pwd=hunter2",
    "Server=db;User=sa;Pass=hunter2",
    "https://acct.blob.core.windows.net/c/b?sv=2022-11-02&se=2030-01-01&sig=abcDEF%2B123",
    "https://bucket.s3.amazonaws.com/k?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Signature=abcdef0123",
    "https://storage.googleapis.com/b/o?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Signature=abcdef",
    "https://api.example.com/feed?token=abcdef",
    "https://api.example.com/feed?access_token=abcdef",
    "https://api.example.com/feed?api_key=abcdef",
    "https://api.example.com/feed?apikey=abcdef",
    "https://api.example.com/feed?secret=abcdef",
    # webhooks with a port or a versioned path
    "https://hooks.slack.com:443/services/T0000/B0000/XXXXXXXXXXXXXXXXXXXXXXXX",
    "https://discord.com/api/v10/webhooks/123456789/abcdefABCDEF",
    "https://discordapp.com/api/v6/webhooks/123456789/abcdefABCDEF",
    "https://prod-12.westus.logic.azure.com:443/workflows/abc/triggers/manual/paths/invoke?api-version=1&sp=x&sv=1.0&sig=abc",
    # a key's prefix anywhere, as a word of its own
    f'"{GHP}"',
    f" {GHP}",
    f"token {GHP}",
    f"Authorization: Bearer {GHP}",
    "AKIAIOSFODNN7EXAMPLE ",
    "AKIAIOSFODNN7EXAMPLE wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    "key=AKIAIOSFODNN7EXAMPLE",
    # shapes the table did not know
    "ya29.a0AfH6SMBabcdefghijklmnopqrstuvwxyz",
    "whsec_abcdefghijklmnopqrstuvwxyz012345",
    "dop_v1_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
    "shpat_0123456789abcdef0123456789abcdef",
    "AGE-SECRET-KEY-1QQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQ",
    "//registry.npmjs.org/:_authToken=npm-0123456789",
    "machine github.com login me password hunter2",
    "machine api.example.com\n  login me\n  password hunter2\n",
    '{"auths": {"ghcr.io": {"auth": "dXNlcjpodW50ZXIyaHVudGVyMg=="}}}',
    '{"db": {"user": "app", "password": "hunter2"}}',
]
"""The attack review of issue 25: each of these got through `looks_like_credential`."""


@pytest.mark.parametrize("value", ATTACK_REVIEW_VALUES)
def test_credentials_the_attack_review_found_are_caught(value: str) -> None:
    assert looks_like_credential("SOMETHING", value)


ORDINARY_VALUES_AFTER_REVIEW = [
    "/home/me/.local/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
    "https://example.com/path/to/page?q=search&page=2",
    "https://registry.npmjs.org:443/@scope/pkg",
    "http://localhost:8080/v1/chat@latest",
    "ssh://git@github.com/me/repo.git",
    "git+ssh://git@github.com/me/repo.git",
    "git@github.com:me/repo.git",
    "postgres://app@db.internal/app",
    "en_US.UTF-8",
    "/data/hf_datasets_cache_directory_for_models",
    "/home/me/projects/sk-learn-experiments-and-notes/build",
    "/srv/apps/my-app/releases/20240101-abcdef/shared/node_modules/.bin",
    "C:\\Users\\me\\AppData\\Local\\npm_cache_directory_x",
    '{"theme": "dark", "editor": {"tabSize": 4}, "token_url": "https://auth.example.com/token"}',
    '{"auth": "none"}',
    "--password-file=/run/secrets/db",
    "host=db user=app dbname=app sslmode=require",
    "https://hooks.slack.com/",
    "https://discord.com/api/v10/users/@me",
    "machine-learning notebooks",
    "asia-southeast1",
    "ASIA PACIFIC REGION",
]


@pytest.mark.parametrize("value", ORDINARY_VALUES_AFTER_REVIEW)
def test_ordinary_values_still_pass_after_the_review(value: str) -> None:
    assert not looks_like_credential("SOMETHING", value)


def test_every_key_decode_reads_looks_like_a_credential() -> None:
    # hide_credentials runs before the settings are imported (a fast start), so it finds decode's
    # own keys by their look: a new secret setting must keep looking like one.
    for name in Settings.secret_env_names():
        assert looks_like_credential(name), name


def test_credential_names_picks_them_out() -> None:
    environ = {"PATH": "/bin", "GITHUB_TOKEN": "t", "DATABASE_URL": "mysql://u:p@h/db", "MY_KEYLESS": "x"}
    assert credential_names(environ) == {"GITHUB_TOKEN", "DATABASE_URL", "MY_KEYLESS"}


PROBE = """
import ctypes, json, os, subprocess, sys
from decode.config.secrets import hide_credentials

hidden = hide_credentials()
libc = ctypes.CDLL(None)
libc.getenv.restype = ctypes.c_char_p
child = subprocess.run(
    ["sh", "-c", "tr '\\\\0' '\\\\n' < /proc/$PPID/environ; echo '-- inherited'; env"],
    capture_output=True, text=True, env=None,
)
print(json.dumps({
    "hidden": sorted(hidden),
    "os_environ": os.environ.get("OPENAI_API_KEY"),
    "c_getenv": libc.getenv(b"OPENAI_API_KEY") and libc.getenv(b"OPENAI_API_KEY").decode(),
    "child": child.stdout + child.stderr,
    "dumpable": libc.prctl(3, 0, 0, 0, 0) if sys.platform == "linux" else None,
}))
"""


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs Linux's /proc")
def test_hide_credentials_blanks_the_environment_block_and_keeps_os_environ(tmp_path: Path) -> None:
    env = {
        "PATH": os.environ["PATH"],
        "OPENAI_API_KEY": "sk-test-secret-value",
        "github_token": "ghp-lowercase-name",
        "DATABASE_URL": "postgres://app:hunter2@db/app",
        "VISIBLE": "plain-value",
    }
    done = subprocess.run(
        [sys.executable, "-c", PROBE], env=env, cwd=tmp_path, capture_output=True, text=True, check=True, timeout=60
    )
    seen = json.loads(done.stdout)

    assert seen["hidden"] == ["DATABASE_URL", "OPENAI_API_KEY", "github_token"]
    assert seen["os_environ"] == "sk-test-secret-value"  # the settings, read later, still find it
    assert seen["c_getenv"] is None  # a child started without an explicit environment does not get it
    for secret in ("sk-test-secret-value", "ghp-lowercase-name", "hunter2"):
        assert secret not in seen["child"]
    assert "OPENAI_API_KEY=********************" in seen["child"]  # what /proc/PID/environ shows now
    assert "VISIBLE=plain-value" in seen["child"]
    assert seen["dumpable"] == 0


def test_a_huge_value_is_read_in_linear_time() -> None:
    # Every repeat in CREDENTIAL_VALUE is bounded: unbounded ones took minutes on a value like this.
    assert not looks_like_credential("BLOB", "a" * 200_000)
    assert not looks_like_credential("BLOB", "a://" + "b" * 200_000)
    assert looks_like_credential("BLOB", "a" * 200_000 + " postgres://u:p@h")
    for huge in ("a://b:" + "c" * 200_000, "machine " * 50_000, "x ghp_" * 50_000, "?token" * 50_000):
        assert isinstance(looks_like_credential("BLOB", huge), bool)
