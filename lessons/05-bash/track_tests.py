"""Lesson 05's build-along track: the bash tool, its output kept within bounds, its environment clean.

`make lesson-check N=05` runs these against your copy (`make lesson-start N=05`); each test's first
docstring line is the behaviour it reports.
"""

from pathlib import Path

import pytest
from pydantic_ai import ModelRetry, RunContext
from pydantic_ai.models.test import TestModel
from pydantic_ai.usage import RunUsage

from decode.config.settings import Settings
from decode.entities.deps import AgentDeps
from decode.processes.environment import command_environment
from decode.processes.local import LocalExecutor
from decode.tools.bash import bash
from decode.tools.capture import OutputCapture


@pytest.fixture
def ctx(tmp_path: Path) -> RunContext[AgentDeps]:
    settings = Settings(_env_file=None)
    deps = AgentDeps(executor=LocalExecutor(tmp_path), settings=settings, harness_home=tmp_path)
    return RunContext(deps=deps, model=TestModel(), usage=RunUsage())


async def test_bash_reports_the_exit_code_and_both_streams(ctx: RunContext[AgentDeps]) -> None:
    """bash runs the command and reports its exit code, its stdout and its stderr."""
    said = await bash(ctx, "echo out; echo err >&2; exit 3")
    assert said == "exit code: 3\nstdout:\nout\nstderr:\nerr"


async def test_bash_refuses_an_empty_command_or_a_bad_timeout(ctx: RunContext[AgentDeps]) -> None:
    """An empty command, or a timeout out of range, goes back to the model as a retry."""
    for command, timeout in (("  ", None), ("true", 0), ("true", 10_000)):
        with pytest.raises(ModelRetry):
            await bash(ctx, command, timeout)


async def test_a_command_past_its_timeout_is_killed_whole(ctx: RunContext[AgentDeps]) -> None:
    """A command past its timeout is killed, with every process it started."""
    said = await bash(ctx, "sleep 60 & sleep 60", timeout=1)
    assert said.startswith("killed after 1 s (timeout), with every process it started")


def test_long_output_keeps_head_and_tail_and_saves_the_rest(tmp_path: Path) -> None:
    """Output over the limit keeps its head and tail, and the whole of it is saved to a file."""
    capture = OutputCapture(100, harness_home=tmp_path, label="bash-stdout")
    lines = [f"line {n:04}\n".encode() for n in range(200)]
    for line in lines:
        capture.feed(line)
    capture.close()
    shown = capture.render()
    assert shown.startswith("line 0000\n")
    assert shown.endswith("line 0199\n")
    assert "harness:tool-output/" in shown
    assert capture.path is not None
    assert capture.path.read_bytes() == b"".join(lines)


def test_short_output_is_shown_whole_even_cut_mid_character(tmp_path: Path) -> None:
    """Short output is shown whole, even when a chunk ends inside a UTF-8 character."""
    capture = OutputCapture(100, harness_home=tmp_path, label="bash-stdout")
    data = "café ✓\n".encode()
    capture.feed(data[:4])
    capture.feed(data[4:])
    capture.close()
    assert capture.render() == "café ✓\n"


def test_the_commands_environment_holds_no_secrets() -> None:
    """Commands get no decode key nor credential-looking variable, unless passed through; never a pager."""
    base = {"PATH": "/bin", "openrouter_api_key": "sk-1", "GITHUB_TOKEN": "ghp-2", "AWS_SECRET_ACCESS_KEY": "x"}
    env = command_environment(base, ["OPENROUTER_API_KEY"], pass_through=["GITHUB_TOKEN"])
    assert env["PATH"] == "/bin"
    assert env["GITHUB_TOKEN"] == "ghp-2"
    assert "openrouter_api_key" not in env
    assert "AWS_SECRET_ACCESS_KEY" not in env
    assert env["PAGER"] == "cat"
