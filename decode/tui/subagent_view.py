"""A subagent's call as the transcript shows it: what it was for, and its own tool calls folded under.

    ✓ agent(Find where the tests live) · explore · the tests · 3 tool calls · 4 requests · 6.2s
      ⎿ glob(tests/**/*.py)
      ⎿ grep(def test_)
      ⎿ read(tests/test_calc.py)

The line names the agent and the short description the model gave it; under it, the child's
tool calls in the order it made them (the last `BODY_LINES`, with a count of the rest), as its
progress reported them while it ran (`SubagentProgress.tools`). Its answer is what the model read:
Ctrl+O shows it whole. A child that stopped early (its time cap, its request limit) is ✗.
"""

from __future__ import annotations

import re

from rich.text import Text

from decode.tui.tool_views import BODY_LINES, ToolRun, ToolView, capped

_HEADING = re.compile(r"^\[subagent (?P<agent>[\w.-]+?)-[0-9a-f]{8}: (?P<requests>\d+ requests?)(?P<rest>[^\]\n]*)\]")
FOLD_PREFIX = "  ⎿ "


def agent_view(run: ToolRun, limit: int | None) -> ToolView | None:
    """`explore · the tests · 3 tool calls · 4 requests`, ✗ when it stopped early, its calls under it."""
    if run.result.is_error or (heading := _HEADING.match(run.result.content)) is None:
        return None  # refused, or not a report: the plain line
    description = str(run.call.args.get("description", "")) if run.call is not None else ""
    count = len(run.folded)
    calls = f"{count} tool call{'s' if count != 1 else ''}" if count else ""
    said = [heading["agent"], " ".join(description.split()), calls, heading["requests"]]
    stopped = "stopped" in heading["rest"] or "before it finished" in heading["rest"]
    outcome = " · ".join(part for part in said if part) + (" · stopped early" if stopped else "")
    if not run.folded:
        return ToolView(outcome=outcome, failed=stopped)
    cap = None if limit is None else min(limit, BODY_LINES)
    body = capped([Text(line) for line in run.folded], cap, prefix=FOLD_PREFIX, keep="tail")
    return ToolView(outcome=outcome, failed=stopped, body=body, in_full=True)
