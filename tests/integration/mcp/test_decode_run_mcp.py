"""MCP through the real CLI: `decode run` with the published `mcp-server-time`, Project Trust,
rules that name servers, and `decode mcp list` / `decode mcp trust`."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import own_settings, wait_for
from tests.integration.forkserver import as_text, run_forked

pytestmark = pytest.mark.integration

DECODE = Path(sys.executable).parent / "decode"
TIME_SERVER = Path(sys.executable).parent / "mcp-server-time"
SERVERS = Path(__file__).parent / "servers"


def decode(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    # HOME is this test's empty folder (tests/conftest.py); a process forked with the CLI imported.
    return as_text(run_forked([str(DECODE), *args], cwd=project, env=dict(os.environ)))


def decode_run(project: Path, calls: list[dict], *options: str) -> subprocess.CompletedProcess[str]:
    script = project.parent / "script.json"
    script.write_text(json.dumps([{"tool_calls": calls}, {"text": "done"}]))
    return decode(project, "run", "--model", f"script:{script}", *options, "what time is it?")


def configure(project: Path, servers: dict, rules: dict | None = None) -> None:
    (project / ".mcp.json").write_text(json.dumps({"mcpServers": servers}))
    if rules is not None:
        (project / ".decode").mkdir(exist_ok=True)
        own_settings(project / ".decode" / "settings.local.json", json.dumps({"permissions": rules}))


def time_server() -> dict:
    return {"command": str(TIME_SERVER), "args": ["--local-timezone", "${TZ_FOR_TEST:-UTC}"]}


def marker_server(marker: Path) -> dict:
    return {"command": sys.executable, "args": [str(SERVERS / "marker_server.py"), str(marker)]}


def sent_back(project: Path) -> str:
    return "".join(path.read_text() for path in (project / ".decode" / "sessions").glob("*.jsonl"))


def test_the_published_time_server_answers_a_call_a_rule_allows(project: Path) -> None:
    configure(project, {"time": time_server()}, {"allow": ["mcp__time"]})
    call = {"name": "mcp__time__get_current_time", "args": {"timezone": "Europe/Paris"}}

    done = decode_run(project, [call], "--trust-project-mcp")

    assert done.returncode == 0, done.stderr
    assert done.stdout == "done\n"
    assert "✓ mcp__time__get_current_time(Europe/Paris)" in done.stderr
    assert "is_dst" in sent_back(project)  # the server's own answer went back to the model
    log = project / ".decode" / "logs" / "mcp" / "time.log"
    assert log.exists()  # its stderr went to its log, not to ours


def test_an_untrusted_project_server_never_starts_headless(project: Path) -> None:
    marker = project.parent / "started.txt"
    configure(project, {"marker": marker_server(marker)}, {"allow": ["mcp__marker"]})

    done = decode_run(project, [{"name": "mcp__marker__ping", "args": {}}])

    assert done.returncode == 0, done.stderr
    assert not marker.exists()  # no process ran
    lines = [line for line in done.stderr.splitlines() if "were not started" in line]
    assert len(lines) == 1
    assert "(marker)" in lines[0]
    assert "--trust-project-mcp" in lines[0]
    assert "Unknown tool name: 'mcp__marker__ping'" in done.stderr


def test_trusting_once_starts_it_until_the_file_changes(project: Path) -> None:
    marker = project.parent / "started.txt"
    configure(project, {"marker": marker_server(marker)}, {"allow": ["mcp__marker"]})

    trusted = decode(project, "mcp", "trust")
    assert trusted.returncode == 0, trusted.stderr
    assert trusted.stdout.startswith(f"trusted marker for {project}")
    done = decode_run(project, [{"name": "mcp__marker__ping", "args": {}}])
    assert done.returncode == 0, done.stderr
    assert marker.exists()
    assert "✓ mcp__marker__ping" in done.stderr

    marker.unlink()
    changed = marker_server(marker) | {"env": {"NEW": "1"}}
    configure(project, {"marker": changed})
    again = decode_run(project, [{"name": "mcp__marker__ping", "args": {}}])
    assert not marker.exists()  # a changed .mcp.json is a stranger again
    assert "were not started" in again.stderr


def test_a_deny_rule_naming_the_server_holds_in_bypass_mode(project: Path) -> None:
    configure(project, {"time": time_server()}, {"deny": ["mcp__time"]})
    call = {"name": "mcp__time__get_current_time", "args": {"timezone": "UTC"}}

    done = decode_run(project, [call], "--trust-project-mcp", "--permission-mode", "bypass")

    assert done.returncode == 0, done.stderr
    assert "✗ mcp__time__get_current_time(UTC)" in done.stderr
    assert "Permission denied: " in done.stderr


def test_mcp_list_shows_each_servers_state_tools_and_file(project: Path) -> None:
    home = Path(os.environ["HOME"])
    (home / ".decode").mkdir(parents=True, exist_ok=True)
    user = {"time": time_server(), "off": {"command": "nothing", "disabled": True}, "bad": {"args": []}}
    (home / ".decode" / "mcp.json").write_text(json.dumps({"mcpServers": user}))
    configure(project, {"theirs": marker_server(project.parent / "started.txt")})

    done = decode(project, "mcp", "list")

    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == f"time · ready · 2 tools · {home / '.decode' / 'mcp.json'} (user)"
    assert lines[1].startswith("  mcp__time__get_current_time  Get current time")
    assert lines[3] == f"off · disabled · {home / '.decode' / 'mcp.json'} (user)"
    assert lines[4].startswith("theirs · untrusted: not started until you trust")
    assert lines[4].endswith("· .mcp.json (project)")
    assert "mcpServers.bad: command: Field required; this server is not started" in done.stderr
    assert not (project.parent / "started.txt").exists()


def test_a_failing_server_is_reported_once_and_the_run_goes_on(project: Path) -> None:
    broken = {"command": "sh", "args": ["-c", "echo 'no database at db.sqlite' >&2; exit 3"]}
    configure(project, {"broken": broken, "time": time_server()}, {"allow": ["mcp__time"]})
    call = {"name": "mcp__time__get_current_time", "args": {"timezone": "UTC"}}

    done = decode_run(project, [call], "--trust-project-mcp")

    assert done.returncode == 0, done.stderr
    assert done.stdout == "done\n"
    assert done.stderr.count("MCP server broken failed") == 1
    assert "no database at db.sqlite" in done.stderr  # the tail of its stderr, from its log
    assert "✓ mcp__time__get_current_time(UTC)" in done.stderr  # the other server's tools still work


def test_a_server_that_will_not_exit_is_killed_when_the_run_ends(project: Path) -> None:

    pid_file = project.parent / "server.pid"
    stubborn = {
        "command": sys.executable,
        "args": [str(SERVERS / "hostile_server.py")],
        "env": {"HOSTILE_PID_FILE": str(pid_file), "HOSTILE_STUBBORN": "1"},  # ignores SIGTERM and stdin's end
    }
    configure(project, {"hostile": stubborn}, {"allow": ["mcp__hostile"]})

    done = decode_run(project, [{"name": "mcp__hostile__ping", "args": {}}], "--trust-project-mcp")

    assert done.returncode == 0, done.stderr
    assert "✓ mcp__hostile__ping()" in done.stderr
    pid = int(pid_file.read_text())
    assert wait_for(lambda: not Path(f"/proc/{pid}").exists() or "Z" in _state(pid)), "the server outlived decode"


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "Z"
