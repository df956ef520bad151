"""A finished command as the user reads it: its exit code, its line count, its last lines.

    ✗ bash(pytest -q) · exit 1 · 34 lines · 2.1s
      │ … 29 more lines (ctrl+o or /last shows all)
      │ FAILED tests/test_calc.py::test_add - assert 3 == 4
      │ 1 failed, 2 passed in 0.03s

The mark is the command's: a non-zero exit (or a timeout) is ✗ even though the `bash` tool
itself did its job. The lines are the command's own output as it streamed (stdout and stderr in
the order they came), counted whole, not the result's `exit code:` / `stdout:` wrapper the model
reads; without a stream (a test, a notebook) they are read back from that result.
"""

from __future__ import annotations

import re

from rich.text import Text

from decode.tui.tool_views import BODY_LINES, BODY_PREFIX, ToolRun, ToolView, capped
from decode.visible import visible

_EXIT = re.compile(r"exit code: (-?\d+)")
_SECTION = re.compile(r"^(stdout|stderr):(?: \(empty\))?$")


def command_lines(content: str) -> list[str]:
    """The command's output lines in a `bash` result (stdout, then stderr), without the wrapper."""
    lines: list[str] = []
    for line in content.splitlines()[1:]:  # the first line is the exit status
        if _SECTION.match(line):
            continue
        lines.append(line)
    return lines


def _shown(line: str) -> Text:
    # A progress bar rewrites its line with \r: show what it shows last. Colours stay, escapes go.
    text = Text.from_ansi(line.rsplit("\r", 1)[-1])
    text.plain = visible(text.plain)
    return text


def bash_view(run: ToolRun, limit: int | None) -> ToolView | None:
    """`exit 3 · 34 lines`, ✗ when the exit code is not 0, and the last lines of the output."""
    result = run.result
    if result.is_error:
        return None  # refused or malformed: the error's own view
    status_line = result.content.split("\n", 1)[0]
    if (exit_code := _EXIT.match(status_line)) is not None:
        code = int(exit_code.group(1))
        status, failed = f"exit {code}", code != 0
    elif status_line.startswith("killed after"):
        status, failed = "timed out", True
    else:
        return None  # bash could not start: the plain line says why
    if run.streamed and limit is not None:
        lines, count = run.output.splitlines(), run.output_lines
    else:
        lines = command_lines(result.content)
        count = run.output_lines if run.streamed else len(lines)
    if count == 0:
        return ToolView(outcome=f"{status} · no output", failed=failed)
    outcome = f"{status} · {count:,} line{'s' if count != 1 else ''}"
    shown = [_shown(line) for line in lines]
    cap = None if limit is None else min(limit, BODY_LINES)
    body = capped(shown, cap, prefix=BODY_PREFIX, keep="tail", total=max(count, len(lines)))
    return ToolView(outcome=outcome, failed=failed, body=body)
