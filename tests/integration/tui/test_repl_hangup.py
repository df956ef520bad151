"""The REPL's terminal goes away at each step of a turn: decode ends, its programs end, the session stays.

Each case starts `decode` in a tmux pane, brings the turn to one state (idle at the prompt, a model
request in flight, a command running, a permission question open, just after an Esc abort, a
compaction in flight), then kills the tmux server: the pane's terminal is gone. Two ways:

- `sighup`: decode is the pane's process, so the kernel's SIGHUP reaches it;
- `no-signal`: decode runs under a shell that ignores SIGHUP, so no signal comes at all, and only
  the terminal itself (EOF, EIO, `isatty()` false) tells decode it is gone.

Either way decode must exit within the test's wait, leaving no process of its own behind, with the
session log holding everything said before.
"""

import json
import sys
from pathlib import Path

import pytest

from tests.conftest import gone, wait_for
from tests.integration.conftest import Terminal

pytestmark = pytest.mark.integration

SERVERS = Path(__file__).parents[1] / "mcp" / "servers"
FIRST = [{"text": "First answer."}]
HOLD = [{"tool_calls": [{"name": "bash", "args": {"command": "echo asked > asked.txt"}}]}]
RUN = "echo $$ > tool.pid; sleep 1000 & echo $! > child.pid; wait"
SCRIPTS = {  # what the model says after the first turn, for each state
    "idle": [],
    "model": [*HOLD, {"text": "never", "delay_s": 3600}],
    "tool": [{"tool_calls": [{"name": "bash", "args": {"command": RUN}}]}, {"text": "x"}],
    "question": [{"tool_calls": [{"name": "bash", "args": {"command": "touch asked.txt"}}]}, {"text": "x"}],
    "aborted": [{"tool_calls": [{"name": "bash", "args": {"command": RUN}}]}, {"text": "x"}],
    "compaction": [{"text": "never", "delay_s": 3600}],
}


def children(pid: int) -> list[int]:
    """The processes whose parent is `pid` (from /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            raw = stat.read_bytes()
        except OSError:
            continue
        if int(raw[raw.rfind(b")") + 2 :].split()[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def descendants(pid: int) -> list[int]:
    """Every process below `pid` (decode is a subreaper: what its programs leave behind stays below it)."""
    below = children(pid)
    return [*below, *(grandchild for child in below for grandchild in descendants(child))]


def reach(state: str, terminal: Terminal, project: Path) -> None:
    """Bring the REPL's second turn to `state` (waiting for it on screen or in files, never a delay)."""
    if state == "idle":
        return
    if state == "compaction":
        terminal.submit("/compact")
        terminal.wait_for_text("compacting: asking the model for a summary")
        return
    terminal.submit("hold on")
    if state == "model":
        terminal.wait_for(lambda _: (project / "asked.txt").exists(), "the command before the request")
        terminal.wait_for_text("✓ bash(echo asked > asked.txt)")  # its result is in: the request is next
    elif state == "question":
        terminal.wait_for_text("allow bash(touch asked.txt)?")
    else:
        terminal.wait_for(lambda _: written(project / "child.pid"), "the command's pid files")
    if state == "aborted":
        terminal.keys("Escape")
        terminal.wait_for_text("interrupted")


def start(terminal: Terminal, project: Path, decode: str, state: str, how: str) -> int:
    """Start decode in a pane, its first turn answered; returns decode's pid."""
    script = project.parent / "turns.json"
    script.write_text(json.dumps([*FIRST, *SCRIPTS[state]]))
    mcp = {
        "command": "sh",
        "args": [
            "-c",
            f'echo $$ > "{project}/mcp.pid"; exec "{sys.executable}" "{SERVERS}/marker_server.py" "{project}/started"',
        ],
    }
    home = Path.home() / ".decode"
    home.mkdir(parents=True, exist_ok=True)
    (home / "mcp.json").write_text(json.dumps({"mcpServers": {"marker": mcp}}))
    mode = "default" if state == "question" else "bypass"
    command = f"{decode} --permission-mode {mode} --model script:{script}"
    # sighup: decode is the pane's process (the session leader), which the kernel signals.
    # no-signal: a shell that ignores SIGHUP leads the session, so no signal reaches decode.
    terminal.start(f"exec {command}" if how == "sighup" else f"trap '' HUP; {command}; echo $? > decode.rc", project)
    terminal.wait_for(lambda _: "● ready" in terminal.footer(), "the ready footer")
    terminal.submit("first")
    terminal.wait_for_text("First answer.")
    # the answer prints before the turn is over; a slash command typed before then waits its turn
    terminal.wait_for(
        lambda _: "● ready" in terminal.footer() and " 0 tokens" not in terminal.footer(), "the first turn's end"
    )
    terminal.wait_for(lambda _: (project / "mcp.pid").exists() and (project / "started").exists(), "the MCP server")
    pane = int(terminal.tmux("display", "-p", "-t", "t", "#{pane_pid}"))
    if how == "sighup":
        return pane
    (decode_pid,) = children(pane)
    return decode_pid


@pytest.mark.parametrize("how", ["sighup", "no-signal"])
@pytest.mark.parametrize("state", list(SCRIPTS))
def test_decode_ends_when_its_terminal_is_gone(
    terminal: Terminal, project: Path, decode: str, state: str, how: str
) -> None:
    pid = start(terminal, project, decode, state, how)
    reach(state, terminal, project)
    below = descendants(pid)
    assert int((project / "mcp.pid").read_text()) in below

    terminal.tmux("kill-server")

    assert gone(pid), f"decode ({state}, {how}) is still running after its terminal went away"
    assert [child for child in below if not gone(child)] == []
    if how == "no-signal":  # its shell outlives the terminal, and says how decode ended
        assert exit_code(project) == "129"  # 128 + SIGHUP: a hang-up
    session = next((project / ".decode" / "sessions").glob("*.jsonl")).read_text()
    assert "First answer." in session  # nothing said before is lost
    if state in ("model", "tool", "aborted"):
        assert "hold on" in session  # the turn the terminal cut short is kept


def written(path: Path) -> bool:
    return path.exists() and path.read_text().strip() != ""


def exit_code(project: Path) -> str:
    """The exit code the pane's shell wrote once decode had ended."""
    assert wait_for(lambda: written(project / "decode.rc")), "the shell never saw decode end"
    return (project / "decode.rc").read_text().strip()
