"""MCP configuration: the two files, `${VAR}` expansion, and a bad entry that costs only itself."""

import json
import os
from pathlib import Path

import pytest

from decode.mcp.config import (
    MAX_SERVERS,
    HttpServer,
    McpConfig,
    StdioServer,
    expand,
    load_mcp_config,
    parse_server,
)
from tests.conftest import returns_at_once


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("${HOME_DIR}/bin", "/home/me/bin"),
        ("${UNSET}", ""),
        ("${UNSET:-fallback}", "fallback"),
        ("${EMPTY:-fallback}", "fallback"),  # as the shell: empty counts as unset
        ("${HOME_DIR:-fallback}", "/home/me"),
        ("${UNSET:-}", ""),
        ("$HOME_DIR and ${ not a variable}", "$HOME_DIR and ${ not a variable}"),
        ("a${HOME_DIR}b${UNSET:-c}d", "a/home/meb" + "cd"),
    ],
)
def test_variables_are_expanded_like_the_shell(text: str, expected: str) -> None:
    assert expand(text, {"HOME_DIR": "/home/me", "EMPTY": ""}) == expected


def test_a_stdio_entry_is_expanded_everywhere_it_may_be() -> None:
    env = {"TOKEN": "t0k", "BIN": "/opt/bin"}
    entry = {"command": "${BIN}/server", "args": ["--token=${TOKEN}", "${PORT:-8080}"], "env": {"T": "${TOKEN}"}}

    server = parse_server("s", entry, env)

    assert isinstance(server, StdioServer)
    assert (server.command, server.args, server.env) == ("/opt/bin/server", ["--token=t0k", "8080"], {"T": "t0k"})
    # 30 s to start: Claude Code's default, so a slow machine's servers join the first request (ADR-0123)
    assert (server.startup_timeout_sec, server.tool_timeout_sec, server.disabled) == (30.0, 60.0, False)


def test_an_http_entry_has_a_type_or_is_known_by_its_url() -> None:
    env = {"KEY": "k"}
    typed = parse_server("a", {"type": "sse", "url": "http://h/sse", "headers": {"X": "${KEY}"}}, env)
    inferred = parse_server("b", {"url": "http://h/mcp"}, env)
    assert isinstance(typed, HttpServer)
    assert typed.type == "sse"
    assert typed.headers == {"X": "k"}
    assert isinstance(inferred, HttpServer)
    assert inferred.type == "http"


@pytest.mark.parametrize(
    ("entry", "says"),
    [
        ("npx server", "a server is an object"),
        ({"args": ["x"]}, "command: Field required"),
        ({"command": ""}, "command: String should have at least 1 character"),
        ({"type": "websocket", "url": "ws://x"}, "type"),
        ({"command": "x", "startup_timeout_sec": 0}, "startup_timeout_sec"),
        # `Infinity` is JSON to Python: a first request would wait for a hung server for ever.
        ({"command": "x", "startup_timeout_sec": float("inf")}, "startup_timeout_sec: Input should be less than"),
        ({"command": "x", "tool_timeout_sec": float("inf")}, "tool_timeout_sec: Input should be less than"),
    ],
)
def test_a_wrong_entry_says_which_key(entry: object, says: str) -> None:
    with pytest.raises(ValueError, match=says):
        parse_server("s", entry, {})


def test_both_files_load_and_the_projects_entry_replaces_the_users(tmp_path: Path) -> None:
    home, project = tmp_path / "home", tmp_path / "project"
    (home / ".decode").mkdir(parents=True)
    project.mkdir()
    (home / ".decode" / "mcp.json").write_text(
        json.dumps({"mcpServers": {"a": {"command": "a"}, "b": {"command": "b"}}})
    )
    (project / ".mcp.json").write_text(json.dumps({"mcpServers": {"b": {"command": "b2", "disabled": True}}}))

    config = load_mcp_config(project, {}, home)

    assert [(s.name, s.scope, s.source.name) for s in config.servers] == [
        ("a", "user", "mcp.json"),
        ("b", "project", ".mcp.json"),
    ]
    assert config.servers[1].definition.disabled
    assert config.servers[1].raw == {"command": "b2", "disabled": True}
    assert config.problems == []


def test_a_bad_entry_is_one_problem_and_the_other_servers_load(tmp_path: Path) -> None:
    (tmp_path / ".mcp.json").write_text(json.dumps({"mcpServers": {"bad": {"args": []}, "good": {"command": "ok"}}}))

    config = load_mcp_config(tmp_path, {}, tmp_path / "home")

    assert [server.name for server in config.servers] == ["good"]
    [problem] = config.problems
    assert str(problem).startswith(f"{tmp_path / '.mcp.json'}: mcpServers.bad: command: Field required")
    assert "this server is not started" in str(problem)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ('{"mcpServers": {', "not valid JSON"),
        ('{"servers": {}}', 'has no "mcpServers" object'),
        ("[1, 2]", 'has no "mcpServers" object'),
    ],
)
def test_a_broken_file_is_one_problem_naming_it(tmp_path: Path, text: str, says: str) -> None:
    (tmp_path / ".mcp.json").write_text(text)
    config = load_mcp_config(tmp_path, {}, tmp_path / "home")
    assert config.servers == []
    [problem] = config.problems
    assert problem.path == tmp_path / ".mcp.json"
    assert says in problem.message


def test_no_files_no_servers_no_problems(tmp_path: Path) -> None:
    config = load_mcp_config(tmp_path, {}, tmp_path / "home")
    assert (config.servers, config.problems) == ([], [])


def test_only_the_projects_own_file_is_read_not_a_parents_or_a_lookalike(tmp_path: Path) -> None:
    parent, home = tmp_path / "parent", tmp_path / "home"
    project = parent / "project"
    (project / ".decode").mkdir(parents=True)
    entry = {"mcpServers": {"x": {"command": "x"}}}
    (parent / ".mcp.json").write_text(json.dumps(entry))  # a folder above: another project's file
    (project / ".decode" / "mcp.json").write_text(json.dumps(entry))  # `~/.decode/mcp.json` only in a home
    (project / ".mcp.json").symlink_to(project / "elsewhere.json")  # a dangling link: no file

    config = load_mcp_config(project, {}, home)

    assert (config.servers, config.problems) == ([], [])


def test_a_fifo_or_a_device_in_place_of_the_file_is_one_problemreturns_at_once(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / ".mcp.json")
    found: list[McpConfig] = []
    returns_at_once(lambda: found.append(load_mcp_config(tmp_path, {}, tmp_path / "home")), tmp_path / ".mcp.json")
    [problem] = found[0].problems
    assert str(problem) == f"{tmp_path / '.mcp.json'}: is not a regular file; its servers are not started"


def test_deep_nesting_is_one_problem_not_a_recursion_error(tmp_path: Path) -> None:
    (tmp_path / ".mcp.json").write_text('{"mcpServers": ' + "[" * 100_000)
    config = load_mcp_config(tmp_path, {}, tmp_path / "home")
    [problem] = config.problems
    assert (problem.line, problem.message) == (1, "nested more than 64 levels deep; its servers are not started")


def test_servers_beyond_the_cap_are_left_out_and_named_once(tmp_path: Path) -> None:
    servers = {f"s{number}": {"command": "x"} for number in range(MAX_SERVERS + 900)}
    servers["y" * 5_000] = {"args": []}  # past the cap: neither read nor named
    (tmp_path / ".mcp.json").write_text(json.dumps({"mcpServers": servers}))
    config = load_mcp_config(tmp_path, {}, tmp_path / "home")
    assert [server.name for server in config.servers] == [f"s{number}" for number in range(MAX_SERVERS)]
    [problem] = config.problems
    assert problem.message == f"901 more servers than the {MAX_SERVERS} read; they are left out"


def test_a_long_server_name_is_clipped_in_its_problem(tmp_path: Path) -> None:
    (tmp_path / ".mcp.json").write_text(json.dumps({"mcpServers": {"y" * 5_000: {"args": []}}}))
    [problem] = load_mcp_config(tmp_path, {}, tmp_path / "home").problems
    assert problem.message.startswith(f"mcpServers.{'y' * 59}…: command: Field required")
