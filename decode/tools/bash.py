"""The `bash` tool: run a shell command in the Workspace.

Every call is a fresh `bash -c` (a `cd` or `export` does not carry over to the next call; files
do), started through the executor in its own process group, with stdin closed and an environment
free of decode's secrets. It is killed, with everything it started, when its timeout passes
(120 s unless the model asks for up to 600 s) or the turn is aborted; and what it leaves running
in the background (`server &`, even `setsid`, `nohup` or a double fork) is ended when it exits
(`process.py`, ADR-0043), so a command is over when its result comes back.

The model gets the exit code, then stdout and stderr, each shortened to head and tail past the
output limit with the full text saved to a file. While it runs, the output streams to the front
end as `ToolOutputDelta` events (`deps.on_tool_output`).
"""

import codecs
from typing import Literal

from pydantic_ai import ModelRetry, RunContext

from decode.config.redaction import redactor_for
from decode.entities.deps import AgentDeps
from decode.entities.events import ToolOutputDelta
from decode.entities.executor import ExecRequest
from decode.entities.tools import ToolKind, ToolSpec, ToolTraits
from decode.tools.capture import OutputCapture


def _streamer(ctx: RunContext[AgentDeps], capture: OutputCapture, stream: Literal["stdout", "stderr"]):
    """A callback that captures a chunk and, if a front end listens, shows it."""
    sink = ctx.deps.on_tool_output
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    call_id = ctx.tool_call_id or ""

    def on_chunk(chunk: bytes) -> None:
        capture.feed(chunk)
        if sink is not None and (text := decoder.decode(chunk)):
            sink(ToolOutputDelta(call_id=call_id, stream=stream, text=text))

    return on_chunk


def _section(name: str, capture: OutputCapture) -> str:
    text = capture.render()
    if not text:
        return f"{name}: (empty)"
    return f"{name}:\n{text.rstrip(chr(10))}"


async def bash(
    ctx: RunContext[AgentDeps],
    command: str,
    timeout: float | None = None,  # noqa: ASYNC109
    network: bool = False,  # [lesson 17]
) -> str:
    # [lesson 17]
    """Run a command with `bash -c` in the working directory; returns exit code, stdout and stderr.

    Each call is a new shell: cd and export do not persist. stdin is closed (no interactive
    programs). Processes left in the background are stopped when the command ends. Long output
    is cut to its head and tail; the full text is saved to a file.

    Args:
        command: The command line, e.g. `pytest -x tests/test_parser.py`.
        timeout: Seconds before it is killed (default 120, at most 600).
        network: Set only when the command needs the network (installing packages, fetching);
            in a sandbox the user is asked. Without it, the network may be unreachable.
    """
    # [before lesson 17]
    # """Run a command with `bash -c` in the working directory; returns exit code, stdout and stderr.
    #
    # Each call is a new shell: cd and export do not persist. stdin is closed (no interactive
    # programs). Processes left in the background are stopped when the command ends. Long output
    # is cut to its head and tail; the full text is saved to a file.
    #
    # Args:
    #     command: The command line, e.g. `pytest -x tests/test_parser.py`.
    #     timeout: Seconds before it is killed (default 120, at most 600).
    # """
    # [/lesson 17]
    settings = ctx.deps.settings
    if not command.strip():
        raise ModelRetry("The command is empty.")
    limit = settings.bash_timeout if timeout is None else timeout
    if not 0 < limit <= settings.bash_max_timeout:
        raise ModelRetry(f"timeout must be more than 0 and at most {settings.bash_max_timeout:g} seconds.")
    redactor = redactor_for(settings)  # decode's keys never reach a saved output
    captures = {
        stream: OutputCapture(
            settings.tool_output_limit, harness_home=ctx.deps.harness_home, label=f"bash-{stream}", redactor=redactor
        )
        for stream in ("stdout", "stderr")
    }
    try:
        result = await ctx.deps.executor.run(
            ExecRequest(
                ["bash", "-c", command],
                timeout=limit,
                on_stdout=_streamer(ctx, captures["stdout"], "stdout"),
                on_stderr=_streamer(ctx, captures["stderr"], "stderr"),
                network=network,  # [lesson 17]
            )
        )
    except (OSError, ValueError) as exc:  # bash could not start (a NUL byte: ValueError): the model reads why
        return f"Could not run the command: {getattr(exc, 'strerror', None) or exc}."
    finally:
        for capture in captures.values():
            capture.close()
    if result.timed_out:
        status = f"killed after {limit:g} s (timeout), with every process it started"
    else:
        status = f"exit code: {result.exit_code}"
    if result.stopped_leftovers:
        status += " (processes it left running in the background were stopped when it ended)"
    return "\n".join([status, _section("stdout", captures["stdout"]), _section("stderr", captures["stderr"])])


BASH = ToolSpec(
    "bash",
    bash,
    ToolTraits(
        ToolKind.OTHER,
        rules=("Bash",),
        command="command",
        network="network",  # [lesson 17]
    ),
)
