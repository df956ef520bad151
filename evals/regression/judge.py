"""The LLM judge: does a run satisfy its case's one-sentence assertion?

    verdict = judge_run(case, result, evidence, "google-gla:gemini-flash-latest")
    verdict.passed, verdict.reason

The judge is a pydantic-ai `Agent` whose output is a structured `Verdict`; it sees the assertion
and a compact transcript (the tool calls with a line of each result, the final answer, the diff).
pydantic-ai asks for structured output through an output tool named `final_result`, so a scripted
judge (`script:PATH`) answers with
`{"tool_calls": [{"name": "final_result", "args": {"passed": true, "reason": "…"}}]}`.
"""

from typing import TYPE_CHECKING

from pydantic import BaseModel

from evals.regression.cases import Case
from evals.regression.metrics import Evidence

if TYPE_CHECKING:
    from decode.config.settings import Settings

PASS_BAR = 0.8
"""The judge suite passes when at least this share of the verdicts pass."""

RESULT_CHARS = 160
DIFF_CHARS = 4000

INSTRUCTIONS = """\
You grade a coding agent's run against one assertion about its behaviour. You get the task, the
assertion, the agent's tool calls (with the start of each result), its final answer and the diff
of the workspace. Decide whether the assertion holds for this run; be strict and literal. Give a
one-sentence reason that cites the tool call or diff line that decided it."""


class Verdict(BaseModel):
    """The judge's answer: whether the assertion holds, and why in one sentence."""

    passed: bool
    reason: str


def transcript(case: Case, evidence: Evidence, diff: str) -> str:
    """The run as the judge reads it: short enough for any model, complete in what it decides on."""
    lines = [f"Task: {case.prompt}", *(f"Follow-up: {f}" for f in case.followups), "", "Tool calls:"]
    for number, call in enumerate(evidence.calls, 1):
        args = ", ".join(f"{k}={str(v)[:80]!r}" for k, v in call.args.items())
        first = (call.content.strip().splitlines() or [""])[0][:RESULT_CHARS]
        lines.append(f"{number}. {call.name}({args}) -> {call.outcome}: {first}")
    if not evidence.calls:
        lines.append("(none)")
    lines += ["", f"Final answer: {evidence.final_answer() or '(none)'}", "", "Diff:", diff[:DIFF_CHARS] or "(none)"]
    return "\n".join(lines)


def judge(assertion: str, text: str, model: str, settings: "Settings") -> Verdict:
    """Ask `model` whether `assertion` holds for the run in `text` (outside any running event loop)."""
    import asyncio

    from pydantic_ai import Agent

    from decode.models.gateway import resolve_model

    agent = Agent(resolve_model(model, settings), output_type=Verdict, instructions=INSTRUCTIONS)
    # asyncio.run, not run_sync: run_sync asks for "the current event loop", deprecated with none
    return asyncio.run(agent.run(f"Assertion: {assertion}\n\n{text}")).output
