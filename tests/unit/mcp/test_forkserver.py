"""The fork server the unit MCP tests start their servers from: the server it forks is what
`python SCRIPT ARGS…` would have been (argv, folder, environment, pipes, exit status), and it ends
with the command decode started (a signal goes on; a killed client takes its server along)."""

import os
import signal
import subprocess
import time
from pathlib import Path

from tests.conftest import gone
from tests.unit.mcp.conftest import ServerEntry

SCRIPT = """
import os, sys
print(sys.argv[1:], os.getcwd(), os.environ.get("GIVEN"), flush=True)
print(sys.stdin.read().upper(), end="", flush=True)
print("on stderr", file=sys.stderr, flush=True)
sys.exit(int(sys.argv[1]))
"""

SLEEPER = """
import os, sys, time
open(sys.argv[1], "w").write(str(os.getpid()))
time.sleep(600)
"""


def _argv(server_entry: ServerEntry, script: Path, *args: str) -> list[str]:
    entry = server_entry(str(script), *args)
    return [entry["command"], *entry["args"]]


def test_the_forked_server_runs_as_its_own_command_would(server_entry: ServerEntry, tmp_path: Path) -> None:
    script = tmp_path / "script.py"
    script.write_text(SCRIPT)
    env = {"PATH": os.environ["PATH"], "GIVEN": "yes"}

    done = subprocess.run(
        _argv(server_entry, script, "3", "x y"), input="hello\n", capture_output=True, text=True, cwd=tmp_path, env=env
    )

    assert done.returncode == 3
    assert done.stdout == f"['3', 'x y'] {tmp_path} yes\nHELLO\n"
    assert done.stderr == "on stderr\n"


def _start_sleeper(server_entry: ServerEntry, tmp_path: Path) -> tuple[subprocess.Popen[bytes], int]:
    script, pid_file = tmp_path / "sleeper.py", tmp_path / "pid"
    script.write_text(SLEEPER)
    client = subprocess.Popen(_argv(server_entry, script, str(pid_file)), stdin=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while not (pid_file.exists() and pid_file.read_text()):  # polling a condition, with a deadline
        assert time.monotonic() < deadline, "the forked server did not start"
        time.sleep(0.02)
    return client, int(pid_file.read_text())


def test_a_signal_to_the_command_goes_on_to_the_server(server_entry: ServerEntry, tmp_path: Path) -> None:
    client, server = _start_sleeper(server_entry, tmp_path)

    client.send_signal(signal.SIGTERM)

    assert client.wait(timeout=60) == -signal.SIGTERM
    assert gone(server)


def test_a_killed_command_takes_its_server_along(server_entry: ServerEntry, tmp_path: Path) -> None:
    client, server = _start_sleeper(server_entry, tmp_path)

    client.kill()
    client.wait(timeout=60)

    assert gone(server)
