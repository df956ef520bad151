"""The clocks of tool calls that wait for the user (lesson 06).

A call the Permission Gate asks about is running, but its time is the user's, not the tool's:
while the question is open its clock stands still, the live area says it waits for an answer,
and the time its line shows at the end leaves the wait out.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from decode.entities.tool_calls import ToolResult


class HeldClocks:
    """Since when each held call waits, and how long each waited before."""

    def __init__(self) -> None:
        self._held: dict[str, float] = {}  # call id -> since when it waits for the user
        self._waited: dict[str, float] = {}  # call id -> how long it waited before

    def hold(self, call_ids: set[str], now: float | None = None) -> None:
        """The running calls in `call_ids` wait for the user (an approval): their clocks stop until they leave it."""
        now = time.monotonic() if now is None else now
        for call_id in [held for held in self._held if held not in call_ids]:
            self._waited[call_id] = self._waited.get(call_id, 0.0) + now - self._held.pop(call_id)
        for call_id in call_ids:
            self._held.setdefault(call_id, now)

    def held(self, call_id: str) -> bool:
        """Whether this call waits for the user now."""
        return call_id in self._held

    def wait(self, call_id: str, now: float) -> float:
        """How long this call has waited for the user so far (its time shown leaves it out)."""
        held = self._held.get(call_id)
        return self._waited.get(call_id, 0.0) + (now - held if held is not None else 0.0)

    def without_wait(self, result: ToolResult) -> ToolResult:
        """`result` with the time its call waited for the user taken off; its clock is forgotten."""
        waited = self.wait(result.call_id, time.monotonic())
        self._held.pop(result.call_id, None)
        self._waited.pop(result.call_id, None)
        return result.model_copy(update={"duration_s": max(result.duration_s - waited, 0.0)}) if waited else result

    def clear(self) -> None:
        self._held.clear()
        self._waited.clear()
