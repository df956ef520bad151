"""The sandbox environment is built from nothing (ADR-0062)."""

from pydantic import SecretStr

from decode.config.settings import Settings
from decode.processes.environment import NON_INTERACTIVE
from decode.sandbox.environment import SANDBOX_HOME, sandbox_environment

HOST = {
    "PATH": "/usr/bin:/bin",
    "LANG": "C.UTF-8",
    "LC_ALL": "C.UTF-8",
    "TERM": "xterm-256color",
    "TZ": "UTC",
    "HOME": "/home/user",
    "GEMINI_API_KEY": "sk-gemini",
    "GITHUB_TOKEN": "ghp_host",
    "AWS_SECRET_ACCESS_KEY": "aws",
    "DECODE_PASS_ENV": "GITHUB_TOKEN",
    "SSH_AUTH_SOCK": "/run/agent.sock",
    "MY_SETTING": "harmless-but-not-listed",
}


def settings(**values: object) -> Settings:
    return Settings(_env_file=None, **values)  # type: ignore[call-arg]


def test_only_the_allow_list_passes_from_the_host() -> None:
    env = sandbox_environment(settings(pass_env=["GITHUB_TOKEN", "AWS_*"]), HOST)
    assert env == {
        "PATH": "/usr/bin:/bin",
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "TERM": "xterm-256color",
        "TZ": "UTC",
        "HOME": SANDBOX_HOME,
        "USER": "decode",
        "LOGNAME": "decode",
        **NON_INTERACTIVE,
    }


def test_the_sandbox_git_token_passes_as_github_token_only_when_set() -> None:
    env = sandbox_environment(settings(sandbox_git_token=SecretStr("ghp_for_the_sandbox")), HOST)
    assert env["GITHUB_TOKEN"] == "ghp_for_the_sandbox"
    assert "ghp_host" not in env.values()
    assert "GITHUB_TOKEN" not in sandbox_environment(settings(), HOST)


def test_a_host_without_path_gets_a_usual_one() -> None:
    assert sandbox_environment(settings(), {})["PATH"].endswith("/usr/bin:/sbin:/bin")


def test_the_git_token_is_a_secret_kept_out_of_unsandboxed_commands() -> None:
    assert {"SANDBOX_GIT_TOKEN", "DECODE_SANDBOX_GIT_TOKEN"} <= Settings.secret_env_names()


def test_the_sandbox_settings_and_their_variables(monkeypatch) -> None:
    monkeypatch.setenv("SANDBOX_MODE", "bwrap")
    monkeypatch.setenv("SANDBOX_REPO", "https://example.com/repo.git")
    monkeypatch.setenv("SANDBOX_GIT_TOKEN", "ghp_x")
    loaded = Settings(_env_file=None)  # type: ignore[call-arg]
    assert (loaded.sandbox_mode, loaded.sandbox_repo) == ("bwrap", "https://example.com/repo.git")
    assert loaded.sandbox_git_token is not None
    assert loaded.sandbox_git_token.get_secret_value() == "ghp_x"
    assert (loaded.sandbox_image, loaded.sandbox_network) == ("decode-sandbox:latest", False)
