"""Commands get the user's environment without decode's secrets, nor any other credential."""

import os

import pytest

import decode.config.settings
from decode.config.settings import Settings
from decode.processes.environment import NON_INTERACTIVE, command_environment, inherited_environment, passed_through


def test_secret_names_come_from_the_settings_secret_fields() -> None:
    assert Settings.secret_env_names() >= {
        "GEMINI_API_KEY",
        "GOOGLE_API_KEY",
        "OPENROUTER_API_KEY",
        "OPENAI_API_KEY",
        "DECODE_MODAL_LLM_TOKEN",
    }
    assert "DECODE_MODEL" not in Settings.secret_env_names()


def test_secrets_are_removed_and_the_rest_kept() -> None:
    base = {"PATH": "/bin", "HOME": "/home/u", "GEMINI_API_KEY": "k1", "openai_api_key": "k2", "DECODE_MODEL": "m"}
    env = command_environment(base, Settings.secret_env_names())
    assert env == {"PATH": "/bin", "HOME": "/home/u", "DECODE_MODEL": "m", **NON_INTERACTIVE}


def test_credentials_are_left_out_and_ordinary_variables_kept() -> None:
    base = {
        "PATH": "/bin",
        "HOME": "/home/u",
        "LANG": "C.UTF-8",
        "GIT_AUTHOR_NAME": "Ada",
        "SSH_AUTH_SOCK": "/tmp/agent.sock",
        "GITHUB_TOKEN": "ghp-1",
        "AWS_SECRET_ACCESS_KEY": "aws-1",
        "db_password": "pw-1",
        "DATABASE_URL": "postgres://app:pw-2@db/app",
    }
    env = command_environment(base, Settings.secret_env_names())
    assert env == {
        "PATH": "/bin",
        "HOME": "/home/u",
        "LANG": "C.UTF-8",
        "GIT_AUTHOR_NAME": "Ada",
        "SSH_AUTH_SOCK": "/tmp/agent.sock",
        **NON_INTERACTIVE,
    }


def test_named_credentials_pass_through_but_decodes_own_keys_never() -> None:
    base = {"GITHUB_TOKEN": "ghp-1", "AWS_SECRET_ACCESS_KEY": "a", "AWS_SESSION_TOKEN": "b", "OPENAI_API_KEY": "k"}
    env = command_environment(
        base, Settings.decode_only_env_names(), ["github_token", "AWS_*", "OPENAI_API_KEY", "*KEY*"]
    )
    assert env == {"GITHUB_TOKEN": "ghp-1", "AWS_SECRET_ACCESS_KEY": "a", "AWS_SESSION_TOKEN": "b", **NON_INTERACTIVE}


def test_the_aws_key_pair_bedrock_reads_is_still_the_users_to_pass_and_kept_out_unless_named() -> None:
    """`bedrock:` models make the AWS key pair one of decode's settings; the user's `aws` commands
    still get it when `DECODE_PASS_ENV` names it, and no command gets it otherwise."""
    base = {"AWS_ACCESS_KEY_ID": "AKIAEXAMPLE", "AWS_SECRET_ACCESS_KEY": "a", "AWS_BEARER_TOKEN_BEDROCK": "t"}
    names = Settings.decode_only_env_names()
    assert "AWS_BEARER_TOKEN_BEDROCK" in names
    assert command_environment(base, names, ["AWS_*"]) == {
        "AWS_ACCESS_KEY_ID": "AKIAEXAMPLE",
        "AWS_SECRET_ACCESS_KEY": "a",
        **NON_INTERACTIVE,
    }
    assert command_environment(base, names) == NON_INTERACTIVE


def test_passed_through_matches_names_and_patterns_in_any_case() -> None:
    assert passed_through("github_token", ["GITHUB_TOKEN"])
    assert passed_through("AWS_SESSION_TOKEN", ["aws_*"])
    assert not passed_through("GITHUB_TOKEN", ["GH_TOKEN", "GITHUB"])
    assert not passed_through("GITHUB_TOKEN", [])


def test_the_inherited_environment_is_this_process_without_credentials(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GITHUB_TOKEN", "ghp-from-the-shell")
    monkeypatch.setenv("GEMINI_API_KEY", "AIza-decodes-own")
    monkeypatch.setenv("SOME_SETTING", "visible")
    # decode's settings object is made once and kept: made here, it would hand this test's key to
    # later tests (a run that expects no GEMINI_API_KEY). Ours is undone after the test.
    # (setitem on the module's dict: getattr would build the object for monkeypatch to restore)
    monkeypatch.setitem(vars(decode.config.settings), "settings", Settings())
    env = inherited_environment()
    assert env["SOME_SETTING"] == "visible"
    assert env["PATH"] == os.environ["PATH"]
    assert "GITHUB_TOKEN" not in env
    assert "GEMINI_API_KEY" not in env


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("UPSTREAM", "https://deploy:hunter2@git.example.com/repo.git"),
        ("GIT_REMOTE", "https://ghp_abcdefghijklmnopqrstuvwxyz0123456789@github.com/me/repo.git"),
        ("STORAGE", "DefaultEndpointsProtocol=https;AccountName=a;AccountKey=bXlrZXk=;EndpointSuffix=x"),
        ("SQL", "Server=db;Database=app;User Id=app;Password=hunter2;"),
        ("NOTIFY_URL", "https://hooks.slack.com/services/T0000/B0000/XXXXXXXXXXXXXXXXXXXXXXXX"),
        ("ALERTS", "https://discord.com/api/webhooks/123456789/abcdefABCDEF"),
        ("SESSION", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"),
        ("DBPASS", "hunter2"),
        ("SLACK_HOOK", "anything"),
        ("PASSWORD_SALT", "pepper"),
        ("WALLET_SEED", "abandon abandon abandon"),
        # the attack review of issue 25: shapes that got through
        ("DATABASE_URL", "postgres://app:pa/ssw0rd@db/app"),
        ("PIP_REQUIREMENT", "git+https://ghp_abcdefghijklmnopqrstuvwxyz0123456789@github.com/me/repo.git"),
        ("JDBC_URL", "jdbc:mysql://db/app?user=root&password=hunter2"),
        ("PGCONN", "host=db user=app password=hunter2"),
        ("UPLOAD_URL", "https://bucket.s3.amazonaws.com/k?X-Amz-Signature=abcdef0123"),
        ("NOTIFY", "https://discord.com/api/v10/webhooks/123456789/abcdefABCDEF"),
        ("GH", "token ghp_abcdefghijklmnopqrstuvwxyz0123456789"),
        ("NPMRC", "//registry.npmjs.org/:_authToken=npm-0123456789"),
        ("DOCKER_CONFIG_JSON", '{"auths": {"ghcr.io": {"auth": "dXNlcjpodW50ZXIyaHVudGVyMg=="}}}'),
    ],
)
def test_credentials_are_dropped_whatever_their_name_unless_passed_through(name: str, value: str) -> None:
    base = {"PATH": "/bin", name: value}
    assert command_environment(base, Settings.secret_env_names()) == {"PATH": "/bin", **NON_INTERACTIVE}
    passed = command_environment(base, Settings.secret_env_names(), [name.lower()])  # DECODE_PASS_ENV names it
    assert passed[name] == value


def test_ordinary_values_the_review_kept_in_mind_still_reach_commands() -> None:
    base = {
        "PATH": "/home/me/.local/bin:/usr/bin:/bin",
        "LANG": "en_US.UTF-8",
        "UPSTREAM": "ssh://git@github.com/me/repo.git",
        "ORIGIN": "git@github.com:me/repo.git",
        "DATABASE_URL": "postgres://app@db.internal/app",
        "DOCS_URL": "https://example.com/path/to/page?q=search&page=2",
        "CACHE": "/data/hf_datasets_cache_directory_for_models",
        "APP_CONFIG": '{"theme": "dark", "editor": {"tabSize": 4}}',
    }
    assert command_environment(base, Settings.secret_env_names()) == {**base, **NON_INTERACTIVE}
