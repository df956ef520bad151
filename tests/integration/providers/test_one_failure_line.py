"""The REPL and `decode run` say the same line for the same failure (`decode.agent.failures`).

The same provider errors, from a fake provider on 127.0.0.1 speaking OpenAI's wire format, reach
the real `decode run` (a subprocess: `decode: error: …` on stderr) and the real REPL (in a tmux
terminal: `error: …` on the screen). What follows each front end's prefix is the same line, and it
carries the provider's own reason.
"""

import shlex
from pathlib import Path

import pytest

from tests.integration.conftest import Terminal
from tests.integration.providers.conftest import SECRET
from tests.integration.providers.fake_servers import Fail, Malformed, OpenAIServer, Reply
from tests.integration.providers.test_cli_run import RunDecode, openai_env

pytestmark = pytest.mark.integration

MODEL = "openai-compatible:local-coder"
FAILURES: list[Reply] = [
    Fail(400, message="context_length_exceeded: the prompt is too long"),
    Fail(401, message="invalid api key"),
    Malformed("{this is not json"),
]


def run_lines(run_decode: RunDecode, server: OpenAIServer) -> list[str]:
    """Each failure through `decode run`, one run each: its error line without `decode: error: `."""
    lines = []
    for failure in FAILURES:
        server.plan(failure)
        result = run_decode("run", "--model", MODEL, "hi", env=openai_env(server))
        assert result.returncode == 1, result.stderr
        [line] = [line for line in result.stderr.splitlines() if line.startswith("decode: error: ")]
        lines.append(line.removeprefix("decode: error: "))
    return lines


def repl_lines(terminal: Terminal, project: Path, decode: str, server: OpenAIServer) -> list[str]:
    """Each failure through one REPL session, one prompt each: its error line without `error: `."""
    server.plan(*FAILURES)
    env = " ".join(f"{name}={shlex.quote(value)}" for name, value in openai_env(server).items())
    terminal.start(f"env {env} {decode} --model {MODEL}; sleep 60", project, size=(220, 50))
    terminal.wait_for(lambda _: "● ready" in terminal.footer(), "the ready footer")
    screen = ""
    for number in range(1, len(FAILURES) + 1):
        terminal.submit(f"prompt {number}")
        screen = terminal.wait_for(lambda screen, count=number: len(errors(screen)) == count, f"error line {number}")
    return errors(screen)


def errors(screen: str) -> list[str]:
    """The `error: …` lines on the screen, each with the lines the renderer wrapped it onto."""
    found: list[list[str]] = []
    for line in screen.splitlines():
        if line.startswith("error: "):
            found.append([line.removeprefix("error: ").strip()])
        elif found and found[-1][-1] and line.strip() and not line.startswith(("❯", "─")) and " │ " not in line:
            found[-1].append(line.strip())
        elif found:
            found[-1].append("")  # the error is over: nothing after this joins it
    return [" ".join(part for part in parts if part) for parts in found]


def test_the_repl_and_decode_run_print_the_same_line_for_each_failure(
    run_decode: RunDecode, terminal: Terminal, project: Path, decode: str, openai_server: OpenAIServer
) -> None:
    headless = run_lines(run_decode, openai_server)
    interactive = repl_lines(terminal, project, decode, openai_server)

    assert interactive == headless
    reason = "context_length_exceeded: the prompt is too long"
    assert headless[0] == f"model request failed: HTTP 400 from local-coder: {reason}"
    assert headless[1] == "model request failed: HTTP 401 from local-coder: invalid api key"
    assert "unreadable response from local-coder" in headless[2]
    assert all(SECRET not in line for line in headless)
