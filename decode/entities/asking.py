"""What a tool may ask the user, and the shape of the answers, so tools never import a front end.

The REPL answers through its Decision Channel; `decode run` has no one to ask and passes None.
A subagent passes its parent's callbacks, or None.
"""

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

AskUser = Callable[[str, Sequence[str]], Awaitable[str]]
"""`await ask(question, options)`: the user's answer, an option's text or their own words."""


@dataclass(frozen=True)
class PlanReview:
    """What the user said to a plan: approved (and the Permission Mode now in force), or not and why."""

    approved: bool
    mode: str = ""
    """The mode the user switched to on approving (`accept-edits`, `default`)."""
    feedback: str = ""
    """What the user wants changed, when they did not approve (may be empty)."""


ReviewPlan = Callable[[str], Awaitable[PlanReview | None]]
"""`await review(plan)`: show the plan and ask whether to carry it out; None when not in plan mode."""
