"""`bash`: fresh shells, exit code and streams, big and odd output, timeouts, streaming, no secrets."""

from pathlib import Path

import pytest
from pydantic_ai import ModelRetry, RunContext

from decode.entities.deps import AgentDeps
from decode.entities.events import ToolOutputDelta
from decode.processes.local import LocalExecutor
from decode.tools.bash import bash
from decode.tools.truncate import OUTPUT_DIR


@pytest.fixture
def executor(workspace: Path) -> LocalExecutor:
    """bash uses only `run`, which both executors share: the local one is enough here."""
    return LocalExecutor(workspace)


async def test_exit_code_stdout_and_stderr(ctx: RunContext[AgentDeps]) -> None:
    assert await bash(ctx, "echo hello; echo oops >&2; exit 2") == "exit code: 2\nstdout:\nhello\nstderr:\noops"


async def test_runs_in_the_workspace_and_each_call_is_a_fresh_shell(
    ctx: RunContext[AgentDeps], workspace: Path
) -> None:
    root = str(ctx.deps.executor.workspace)
    assert root in await bash(ctx, "pwd")
    await bash(ctx, "cd /; export MARK=1")
    out = await bash(ctx, 'pwd; echo "mark=${MARK:-unset}"')
    assert root in out
    assert "mark=unset" in out


async def test_output_streams_to_the_front_end(ctx: RunContext[AgentDeps], streamed: list[ToolOutputDelta]) -> None:
    await bash(ctx, "echo one; sleep 0.1; echo two >&2")
    assert "".join(d.text for d in streamed if d.stream == "stdout") == "one\n"
    assert "".join(d.text for d in streamed if d.stream == "stderr") == "two\n"
    assert {d.call_id for d in streamed} == {"call-1"}


async def test_50_mb_of_output_is_cut_to_head_and_tail_and_saved_in_full(
    ctx: RunContext[AgentDeps], workspace: Path
) -> None:
    ctx.deps.on_tool_output = None
    out = await bash(ctx, "seq 1 7000000; echo the-end")  # about 50 MB
    assert out.startswith("exit code: 0\nstdout:\n1\n2\n3\n")
    assert out.rstrip().endswith("the-end\nstderr: (empty)")
    assert len(out) < ctx.deps.settings.tool_output_limit + 500
    saved = out.split("the full output is in ")[1].split(" ")[0]
    full = ctx.deps.harness_home / OUTPUT_DIR / saved.removeprefix("harness:tool-output/")
    assert full.stat().st_size > 50_000_000
    with full.open("rb") as handle:
        handle.seek(-20, 2)
        assert handle.read().endswith(b"7000000\nthe-end\n")


async def test_non_utf8_output_is_shown_with_replacement_characters(ctx: RunContext[AgentDeps]) -> None:
    assert await bash(ctx, r"printf 'caf\xe9\n'") == "exit code: 0\nstdout:\ncaf\ufffd\nstderr: (empty)"


async def test_a_timeout_is_reported(ctx: RunContext[AgentDeps]) -> None:
    out = await bash(ctx, "echo before; sleep 30", timeout=0.5)
    assert out.startswith("killed after 0.5 s (timeout)")
    assert "before" in out


async def test_timeouts_beyond_the_maximum_ask_for_a_retry(ctx: RunContext[AgentDeps]) -> None:
    with pytest.raises(ModelRetry, match="at most 600 seconds"):
        await bash(ctx, "true", timeout=601)
    with pytest.raises(ModelRetry, match="empty"):
        await bash(ctx, "  ")


async def test_commands_never_see_decode_s_secrets(
    ctx: RunContext[AgentDeps], workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "AIza-secret")
    monkeypatch.setenv("DECODE_MODAL_LLM_TOKEN", "tok-secret")
    ctx.deps.executor = LocalExecutor(workspace)  # built after the variables are set
    out = await bash(ctx, "env")
    assert "AIza-secret" not in out
    assert "tok-secret" not in out
    assert "PATH=" in out


async def test_a_command_holding_a_nul_byte_is_refused_with_one_line(ctx: RunContext[AgentDeps]) -> None:
    # A model's JSON can carry "\u0000"; no command line can: the model reads why, the turn goes on.
    answer = await bash(ctx, "echo a\0b")
    assert answer.startswith("Could not run the command:")
    assert "null byte" in answer or "NUL byte" in answer
    assert "\n" not in answer
