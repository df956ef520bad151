"""Allow rules for one turn (a custom command's `allowed-tools`), weaker than a settings file's.

While a command's turn runs, `PermissionGate.turn_allows` holds the rules its front matter grants.
They answer only the question the mode would ask (`Verdict.mode_default`: no rule allows the call,
and nothing else stands in its way), as a PreToolUse hook's allow does. A deny or ask rule, a
protected or secret file (an allow naming `.env` would let it through), a hazard the parser cannot
read: each was decided before the allow rules were reached, so the turn's rules never see them.
"""

import copy
import dataclasses
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from decode.entities.tools import ToolTraits
from decode.permissions.types import Decision, Verdict

if TYPE_CHECKING:
    from decode.permissions.gate import PermissionGate


async def granted(
    gate: "PermissionGate", verdict: Verdict, tool: str, args: Mapping[str, Any], traits: ToolTraits
) -> Verdict:
    """`verdict`, or an allow when the turn's rules allow what only the mode asked about."""
    if not (gate.turn_allows and verdict.decision is Decision.ASK and verdict.mode_default):
        return verdict
    widened = copy.copy(gate)  # the same workspace, protected folders, secrets and mode…
    widened._rules = {action: list(rules) for action, rules in gate._rules.items()}  # …its own rules
    widened._governing, widened._screens, widened.turn_allows = {}, {}, ()
    widened.add_rules(gate.turn_allows)
    again = await widened.own_verdict(tool, args, traits)
    if again.decision is not Decision.ALLOW:
        return verdict  # still asks: a part no rule of either kind allows
    # Only the allow rules differ from the first verdict: the turn's rules made the difference.
    return dataclasses.replace(again, reason=f"{again.reason} (with the command's allowed-tools)")
