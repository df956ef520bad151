"""A cloned repository's files planted as something else: `decode run` and the REPL go on at once.

`.mcp.json`, an agent, a skill and AGENTS.md each linked to `/dev/zero` (endless), `/dev/stdin`
or made a FIFO (a blocking open waits for ever), a `.mcp.json` nested deeply or holding 30,000
servers: each costs one line naming the file, never a traceback, a wait or all the memory. A
hung child is killed by the subprocess timeout (SIGKILL: a process blocked in `open` outlives
SIGTERM), and every run is under an address-space limit so a regression cannot eat the machine.
"""

import json
import os
import resource
import subprocess
from pathlib import Path

import pytest

from tests.integration.conftest import DECODE, Terminal

pytestmark = pytest.mark.integration

HELLO = Path(__file__).parents[3] / "examples" / "hello.json"
PLANTED = [".mcp.json", ".claude/agents/x.md", ".decode/agents/y.md", ".decode/skills/x/SKILL.md", "AGENTS.md"]
TIMEOUT_S = 90  # generous on a busy machine; a run that finishes takes a few seconds


def _limit_memory() -> None:
    limit = 4 << 30  # far above a run's needs; reading /dev/zero without end hits it within seconds
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def run(project: Path, *args: str, stdin: int | None = subprocess.DEVNULL) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [DECODE, "run", "--model", f"script:{HELLO}", *args, "hi"],
        cwd=project,
        capture_output=True,
        text=True,
        stdin=stdin,
        # stdin may be a pipe nobody writes (what a planted `/dev/stdin` link would wait on): decode
        # itself takes only what is there at once, instead of waiting for it (`DECODE_STDIN_WAIT`).
        env={**os.environ, "DECODE_STDIN_WAIT": "0"},
        timeout=TIMEOUT_S,
        preexec_fn=_limit_memory,
    )


def plant(project: Path, name: str, kind: str) -> Path:
    path = project / name
    path.parent.mkdir(parents=True, exist_ok=True)
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "directory":
        path.mkdir()
    else:
        path.symlink_to(f"/dev/{kind}")
    return path


def lines_naming(stderr: str, path: Path) -> list[str]:
    return [line for line in stderr.splitlines() if str(path) in line]


@pytest.mark.parametrize("kind", ["zero", "stdin", "fifo", "directory"])
def test_planted_files_are_one_line_each_and_the_run_goes_on(project: Path, kind: str) -> None:
    paths = [plant(project, name, kind) for name in PLANTED]
    reading, writing = os.pipe()  # stdin a pipe nobody writes: `/dev/stdin` would wait on it
    try:
        done = run(project, stdin=reading)
    finally:
        os.close(reading)
        os.close(writing)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Hello! I am decode")
    assert "Traceback" not in done.stderr
    for path in paths:
        if kind == "directory" and path.name == "AGENTS.md":
            continue  # a folder called AGENTS.md is no memory file: nothing to say
        (line,) = lines_naming(done.stderr, path)
        assert any(why in line for why in ("not a regular file", "not a Markdown file", "is a directory")), line


@pytest.mark.parametrize("text", ['{"mcpServers": ' + "[" * 100_000, '{"mcpServers": ' * 50_000])
def test_a_deeply_nested_mcp_json_is_one_line(project: Path, text: str) -> None:
    (project / ".mcp.json").write_text(text)
    done = run(project)
    assert done.returncode == 0, done.stderr
    assert "RecursionError" not in done.stderr
    (line,) = lines_naming(done.stderr, project / ".mcp.json")
    assert f"{project / '.mcp.json'}:1: nested more than 64 levels deep; its servers are not started" in line


def test_a_huge_or_binary_mcp_json_is_one_line(project: Path) -> None:
    (project / ".mcp.json").write_bytes(b'{"mcpServers": {}, "x": "' + b"a" * (2 << 20) + b'"}')
    done = run(project)
    assert done.returncode == 0, done.stderr
    (line,) = lines_naming(done.stderr, project / ".mcp.json")
    assert "is larger than 1 MiB" in line
    (project / ".mcp.json").write_bytes(b'{"mcpServers": {"caf\xe9": {}}}')
    done = run(project)
    (line,) = lines_naming(done.stderr, project / ".mcp.json")
    assert "is not UTF-8 text" in line


def test_thirty_thousand_servers_are_capped_and_the_excess_named_once(project: Path) -> None:
    servers = {f"s{number}": {"command": "t"} for number in range(30_000)}
    (project / ".mcp.json").write_text(json.dumps({"mcpServers": servers}, separators=(",", ":")))
    done = run(project)  # not trusted: nothing starts, and the warning names the servers held back
    assert done.returncode == 0, done.stderr
    problem, untrusted = lines_naming(done.stderr, project / ".mcp.json")
    assert problem.endswith(".mcp.json: 29,900 more servers than the 100 read; they are left out")
    assert "s99)" in untrusted
    assert "s100," not in untrusted
    assert max(map(len, done.stderr.splitlines())) < 1_000, done.stderr  # never every name


def test_thousands_of_agents_and_skills_are_capped(project: Path) -> None:
    for number in range(1_000):
        (project / ".decode" / "skills" / f"s{number}").mkdir(parents=True)
        (project / ".decode" / "skills" / f"s{number}" / "SKILL.md").write_text(
            f"---\nname: s{number}\ndescription: skill {number}\n---\nbody"
        )
    agents = project / ".claude" / "agents"
    agents.mkdir(parents=True)
    for number in range(1_000):
        (agents / f"a{number}.md").write_text(f"---\nname: a{number}\ndescription: agent {number}\n---\nbody")
    done = run(project)
    assert done.returncode == 0, done.stderr
    assert "800 more skills than the 200 read" in done.stderr
    assert "800 more agent files than the 200 read" in done.stderr


def test_the_repl_starts_past_planted_files(terminal: Terminal, project: Path, decode: str) -> None:
    for name in PLANTED:
        plant(project, name, "stdin" if name.endswith(".json") else "fifo")
    terminal.start(f"{decode} --model script:{HELLO}; echo decode-exited-$?; sleep 60", project, size=(160, 40))
    terminal.wait_for_text("❯")
    terminal.submit("hi")
    terminal.wait_for_text("Hello! I am decode")
    terminal.submit("/quit")
    screen = terminal.wait_for_text("decode-exited-0")
    assert "Traceback" not in screen
    assert "not a regular file" in screen


@pytest.mark.parametrize("kind", ["stdin", "fifo", "huge"])
def test_a_planted_dotenv_is_one_line_and_the_run_goes_on(project: Path, kind: str) -> None:
    # The project's `.env` is read by decode's settings and, on import, by fastmcp's own settings
    # (both through pydantic-settings, which opens a FIFO on purpose): neither may wait or read for ever.
    if kind == "huge":
        path = project / ".env"
        path.write_bytes(b"X=" + b"a" * (2 << 20) + b"\n")
    else:
        path = plant(project, ".env", kind)
    reading, writing = os.pipe()
    try:
        done = run(project, stdin=reading)
    finally:
        os.close(reading)
        os.close(writing)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Hello! I am decode")
    assert "Traceback" not in done.stderr
    (line,) = lines_naming(done.stderr, path)
    assert ("is larger than 1 MiB" if kind == "huge" else "not a regular file") in line, line


@pytest.mark.parametrize("link", [".decode", ".decode/sessions"])
def test_a_decode_folder_linked_out_of_the_project_gets_nothing(project: Path, tmp_path: Path, link: str) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (project / link).parent.mkdir(parents=True, exist_ok=True)
    (project / link).symlink_to(outside)
    done = run(project)
    assert done.returncode == 0, done.stderr
    assert "Hello!" in done.stdout
    [line] = [line for line in done.stderr.splitlines() if "outside the project" in line]
    assert "could not save the session" in line
    assert list(outside.iterdir()) == []  # no session, no .gitignore: nothing written where the link points


def test_a_stdin_pipe_nobody_writes_is_waited_on_only_as_long_as_decode_stdin_wait_says(project: Path) -> None:
    """A CI runner may leave stdin an open pipe: `decode run "TASK"` goes on without it, and says so."""
    reading, writing = os.pipe()
    try:
        done = run(project, stdin=reading)  # DECODE_STDIN_WAIT=0: what is there at once
    finally:
        os.close(reading)
        os.close(writing)
    assert done.returncode == 0, done.stderr
    assert "nothing came on stdin in 0s; running without it" in done.stderr
