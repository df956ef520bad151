"""The Modal app `decode-headless-<env>`, defined offline: no token, no cloud."""

import subprocess
import sys

import pytest

from decode.config.settings import Settings
from decode.remote.definition import functions, image_commands, loader_arg, secret_names

NIGHTLY = {"remote_nightly_schedule": "0 3 * * *", "remote_nightly_task": "fix lint", "remote_nightly_repo": "u"}


def test_the_module_imports_and_defines_its_app_without_a_token(tmp_path) -> None:
    code = "from decode.remote.app import app; print(app.name)"
    env = {"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert done.stdout.strip() == "decode-headless-dev"


def test_the_environment_name_is_baked_into_the_app_name() -> None:
    from decode.remote.app import build_app

    assert build_app(Settings(env="prod")).name == "decode-headless-prod"


def test_without_nightly_settings_there_is_no_nightly() -> None:
    from decode.remote.app import build_app

    assert sorted(functions(build_app(Settings()))) == ["run_task", "webhook"]


@pytest.mark.parametrize("missing", sorted(NIGHTLY))
def test_a_half_configured_nightly_is_no_nightly(missing: str) -> None:
    from decode.remote.app import build_app

    assert "nightly" not in functions(build_app(Settings(**{**NIGHTLY, missing: None})))


def test_the_nightly_schedule_comes_from_the_settings() -> None:
    from decode.remote.app import build_app

    app = functions(build_app(Settings(**NIGHTLY)))
    assert sorted(app) == ["nightly", "run_task", "webhook"]
    cron = loader_arg(app["nightly"], "schedule").proto_message.cron
    assert (cron.cron_string, cron.timezone) == ("0 3 * * *", "UTC")
    assert loader_arg(app["run_task"], "schedule") is None


def test_the_webhook_requires_proxy_auth_and_takes_a_post() -> None:
    from decode.remote.app import app

    config = functions(app)["webhook"]._webhook_config
    assert config.requires_proxy_auth is True
    assert config.method == "POST"


def test_secrets_come_from_one_named_secret() -> None:
    from decode.remote.app import build_app

    app = functions(build_app(Settings(remote_secret="team-keys", **NIGHTLY)))
    assert secret_names(app["run_task"]) == ["team-keys"]
    assert secret_names(app["nightly"]) == ["team-keys"]
    assert secret_names(app["webhook"]) == []  # it only spawns run_task: it needs no key
    assert secret_names(functions(build_app(Settings()))["run_task"]) == ["decode-secrets"]


def test_the_image_has_git_and_installs_decode_with_the_settings_baked_in() -> None:
    from decode.remote.app import INSTALL_DIR, build_image

    commands = image_commands(build_image(Settings(env="test", **NIGHTLY)))
    assert commands[0].startswith("FROM python:3.12")
    assert "RUN apt-get install -y git" in commands
    assert f"RUN python -m pip install --no-cache-dir {INSTALL_DIR}" in commands
    assert any("fastapi[standard]" in c for c in commands)  # the webhook is served through FastAPI
    assert "ENV DECODE_ENV=test" in commands
    assert any(c.startswith("ENV DECODE_REMOTE_NIGHTLY_SCHEDULE=") and "0 3" in c for c in commands)


def test_no_env_file_and_no_local_state_is_copied_into_the_image() -> None:
    from decode.remote.app import LEFT_OUT

    for pattern in ("**/.env", "**/.env.*", ".decode", ".git", ".venv"):
        assert pattern in LEFT_OUT


def test_the_webhook_refuses_a_body_without_a_task() -> None:
    from decode.remote.app import webhook

    assert "error" in webhook({"repo": "https://example.invalid/r.git"})
    assert "error" in webhook({"task": "  ", "repo": "r"})


def test_describe_lists_what_deploy_would_create() -> None:
    from decode.remote.app import build_app
    from decode.remote.definition import describe

    rows = {row["function"]: row for row in describe(build_app(Settings(**NIGHTLY)))}
    assert rows["nightly"]["schedule"] == "0 3 * * *"
    assert rows["webhook"]["web"] == "POST endpoint, proxy auth"
    assert rows["run_task"] == {
        "function": "run_task",
        "schedule": None,
        "secrets": ["decode-secrets"],
        "gpu": None,
        "web": None,
    }
