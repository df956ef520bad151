"""Reference solutions of lesson 01's exercises, and for each a plausible mistake its check catches.

`check_NAME` of exercises.py is tried on `NAME` here (it must pass) and on `wrong_NAME` (it must fail).
"""

from typing import Literal

from pydantic import BaseModel, Field

from decode.config.settings import Settings


class BudgetSettings(Settings):
    """Settings with a spending budget per run."""

    max_cost_usd: float | None = Field(None, gt=0, validation_alias="DECODE_MAX_COST_USD")
    """Stop a run once it has cost this many dollars (None: no budget)."""


class BudgetSettingsUnchecked(Settings):
    """The mistake: no `gt=0`, so a budget of 0 or -1 is accepted."""

    max_cost_usd: float | None = Field(None, validation_alias="DECODE_MAX_COST_USD")


class TurnCancelled(BaseModel):
    """The user cancelled the turn before it finished."""

    kind: Literal["turn_cancelled"] = "turn_cancelled"
    reason: str


class TurnCancelledPlainKind(BaseModel):
    """The mistake: `kind: str` is not a Literal, so pydantic cannot pick the class by it."""

    kind: str = "turn_cancelled"
    reason: str


budget_settings, wrong_budget_settings = BudgetSettings, BudgetSettingsUnchecked
turn_cancelled, wrong_turn_cancelled = TurnCancelled, TurnCancelledPlainKind
