"""`exit_plan_mode`: in plan mode, the model hands its plan to the user, who approves it or says why not.

Plan mode offers only the tools that change nothing (`decode.permissions.situation`), and this
one, only there (`ToolTraits.plan_only`). The front end shows the plan and asks through
`deps.review_plan`: approved, the user has switched the Permission Mode (accept-edits or default)
and the model carries the plan out; not approved, the user's feedback is the result and the mode
stays plan. Headless there is no one to approve: the plan is the answer.
"""

from pydantic_ai import ModelRetry, RunContext

from decode.entities.deps import AgentDeps
from decode.entities.tools import ToolKind, ToolSpec, ToolTraits

HEADLESS_PLAN = (
    "No one can approve the plan: this run is headless and stays in plan mode. Stop here and give the "
    "plan, in full, as your final answer."
)
NOT_IN_PLAN = "You are not in plan mode: there is nothing to approve. Carry on with the task."


async def exit_plan_mode(ctx: RunContext[AgentDeps], plan: str) -> str:
    """Present your plan to the user for approval, when you are in plan mode and ready to make changes.
    Call it once your investigation is done; the user approves it (and you then carry it out) or tells
    you what to change.

    Args:
        plan: The plan in Markdown: what you will change, in which files, and how you will check it.
    """
    if not plan.strip():
        raise ModelRetry("The plan is empty: write the plan (what, where, how you will check it) in Markdown.")
    if ctx.deps.review_plan is None:
        return HEADLESS_PLAN
    review = await ctx.deps.review_plan(plan.strip())
    if review is None:
        return NOT_IN_PLAN
    if review.approved:
        return (
            f"The user approved the plan. The permission mode is now {review.mode}: carry the plan out, "
            "step by step (keep the to-do list with todo_write)."
        )
    feedback = review.feedback or "(no reason given)"
    return f"The user did not approve the plan; you are still in plan mode. Their feedback: {feedback}"


EXIT_PLAN_MODE = ToolSpec("exit_plan_mode", exit_plan_mode, ToolTraits(ToolKind.SIDE_EFFECT_FREE, plan_only=True))
