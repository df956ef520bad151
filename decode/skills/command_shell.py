"""A custom command's `!` lines, run as the Permission Gate allows a bash call, and `decode run "/name args"`.

The gate judges each line as it judges the agent's `bash` calls: `allow` runs it, `deny` does not, and
`ask` goes to the front end's `ask` (the REPL's approval question); with no one to ask (`decode run`),
an `ask` is a no, as for the agent's own calls. What the prompt shows in a line's place is its output,
or a bracketed line saying why it did not run.
"""

import re
from collections.abc import Awaitable, Callable
from pathlib import Path

from decode.entities.executor import CommandExecutor, ExecRequest
from decode.permissions.gate import PermissionGate
from decode.permissions.types import Decision, Verdict
from decode.skills.custom_commands import discover_commands, expand
from decode.tools.bash import BASH

OUTPUT_LIMIT = 30_000
"""Characters of a `!` command's output the prompt keeps (its head)."""
_INVOCATION = re.compile(r"^/([a-z][a-z0-9_:-]*)(?:\s+(.*))?$", re.DOTALL)

Ask = Callable[[dict[str, str], Verdict], Awaitable[str | None]]
"""Asks the user about a line the gate asks about: why it may not run, or None to run it."""
Say = Callable[[str], None]
"""Tells the user what happened to a line (`!git status: exit code 0`)."""


async def run_gated(
    line: str, gate: PermissionGate, executor: CommandExecutor, limit_s: float, ask: Ask | None, say: Say
) -> str:
    """Run one `!` line if the gate (and, for an `ask`, the user) allows it; what the prompt shows instead."""
    args = {"command": line}
    verdict = await gate.check("bash", args, BASH.traits)
    if verdict.decision is Decision.ASK:
        refused = await ask(args, verdict) if ask is not None else f"{verdict.reason}; no one to approve it here"
    else:
        refused = verdict.reason if verdict.decision is Decision.DENY else None
    if refused is not None:
        say(f"!{line}: not run ({refused})")
        return f"[`{line}` was not run: {refused}]"
    output = bytearray()

    def keep(chunk: bytes) -> None:  # the head the prompt shows, and no more: the rest is read and dropped
        output.extend(chunk[: max(0, OUTPUT_LIMIT * 4 + 1 - len(output))])

    request = ExecRequest(["bash", "-c", line], timeout=limit_s, on_stdout=keep, on_stderr=keep)
    try:
        result = await executor.run(request)
    except (OSError, ValueError) as exc:  # bash could not start
        return f"[`{line}` could not run: {getattr(exc, 'strerror', None) or exc}]"
    say(f"!{line}: " + ("timed out" if result.timed_out else f"exit code {result.exit_code}"))
    text = output.decode("utf-8", errors="replace")
    return text[:OUTPUT_LIMIT] + ("\n[output cut]" if len(text) > OUTPUT_LIMIT else "")


async def command_task(
    task: str, workspace: Path, gate: PermissionGate, executor: CommandExecutor, limit_s: float, say: Say
) -> str:
    """`decode run "/fix-issue 12"`: the custom command's prompt (its `ask`s refused); other tasks as they are."""
    match = _INVOCATION.match(task.strip())
    command = discover_commands(workspace).commands.get(match.group(1)) if match else None
    if match is None or command is None:
        return task
    say(f"/{command.name}: {command.path}")
    return await expand(
        command, match.group(2) or "", workspace, lambda line: run_gated(line, gate, executor, limit_s, None, say)
    )
