"""Project Trust: remembered per project for exactly the servers trusted; a change asks again."""

import json
from pathlib import Path

from decode.mcp.config import load_mcp_config
from decode.mcp.trust import TRUST_FILE, fingerprint, is_trusted, trust


def servers(project: Path, entries: dict) -> list:
    (project / ".mcp.json").write_text(json.dumps({"mcpServers": entries}))
    return load_mcp_config(project, {}, project / "nohome").project_servers()


def test_trust_is_remembered_until_the_servers_change(tmp_path: Path) -> None:
    home, project = tmp_path / "home", tmp_path / "project"
    project.mkdir()
    first = servers(project, {"a": {"command": "a"}})
    assert not is_trusted(project, first, home)

    path = trust(project, first, home)

    assert path == home / TRUST_FILE
    assert is_trusted(project, first, home)
    assert is_trusted(project, servers(project, {"a": {"command": "a"}}), home)
    assert not is_trusted(project, servers(project, {"a": {"command": "a", "args": ["--evil"]}}), home)
    assert not is_trusted(project, servers(project, {"a": {"command": "a"}, "b": {"command": "b"}}), home)


def test_trust_is_per_project(tmp_path: Path) -> None:
    home, one, two = tmp_path / "home", tmp_path / "one", tmp_path / "two"
    one.mkdir()
    two.mkdir()
    trust(one, servers(one, {"a": {"command": "a"}}), home)
    assert not is_trusted(two, servers(two, {"a": {"command": "a"}}), home)


def test_a_broken_trust_file_trusts_nothing_and_is_replaced_by_the_next_trust(tmp_path: Path) -> None:
    home, project = tmp_path / "home", tmp_path / "project"
    project.mkdir()
    (home / TRUST_FILE).parent.mkdir(parents=True)
    (home / TRUST_FILE).write_text("{not json")
    configured = servers(project, {"a": {"command": "a"}})
    assert not is_trusted(project, configured, home)
    trust(project, configured, home)
    assert is_trusted(project, configured, home)


def test_no_project_servers_need_no_trust(tmp_path: Path) -> None:
    assert is_trusted(tmp_path, [], tmp_path / "home")


def test_every_field_that_decides_what_runs_asks_again(tmp_path: Path) -> None:
    home, project = tmp_path / "home", tmp_path / "project"
    project.mkdir()
    stdio = {"command": "a", "args": ["x"], "env": {"A": "1"}, "cwd": "sub"}
    http = {"type": "http", "url": "https://a.example/mcp", "headers": {"H": "1"}}
    trust(project, servers(project, {"s": stdio, "h": http, "off": {"command": "b", "disabled": True}}), home)
    changes = [
        {"s": {**stdio, "command": "b"}},
        {"s": {**stdio, "args": ["y"]}},
        {"s": {**stdio, "env": {"A": "2"}}},
        {"s": {**stdio, "cwd": "/"}},
        {"h": {**http, "url": "https://b.example/mcp"}},
        {"h": {**http, "headers": {"H": "2"}}},
        {"h": {**http, "type": "sse"}},
        {"off": {"command": "b", "disabled": False}},  # a disabled server switched on
    ]
    for change in changes:
        entries = {"s": stdio, "h": http, "off": {"command": "b", "disabled": True}, **change}
        assert not is_trusted(project, servers(project, entries), home), change


def test_trust_follows_the_real_path_and_a_file_the_project_plants_trusts_nothing(tmp_path: Path) -> None:
    home, project, link = tmp_path / "home", tmp_path / "project", tmp_path / "link"
    project.mkdir()
    link.symlink_to(project)
    configured = servers(project, {"a": {"command": "a"}})
    # The project cannot vouch for itself: a trust file of its own (or in a folder above it) is not the user's.
    vouching = json.dumps({str(project.resolve()): fingerprint(configured)})
    for planted in (project / TRUST_FILE, tmp_path / TRUST_FILE):
        planted.parent.mkdir(parents=True, exist_ok=True)
        planted.write_text(vouching)
    assert not is_trusted(project, configured, home)

    trust(link, configured, home)

    assert is_trusted(project, configured, home)  # one project, whichever path leads to it
    assert list(json.loads((home / TRUST_FILE).read_text())) == [str(project.resolve())]
