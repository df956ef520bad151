"""The Permission Modes: how much decode may do without asking, when no rule decides.

Apart from the rest of the vocabulary (`types.py`, which re-exports `Mode`) so that `decode --help`
lists the choices of `--permission-mode` from this enum at little cost.
"""

from enum import StrEnum


class Mode(StrEnum):
    """How much decode may do without asking, when no rule decides.

    `default`: read-only tools run, everything else asks. `plan`: read-only tools run, changes are
    refused (the model should present a plan instead). `accept-edits`: file edits inside the
    workspace run too, bash still asks. `bypass`: everything runs, except what a deny rule forbids or an
    ask rule asks about.
    """

    DEFAULT = "default"
    PLAN = "plan"
    ACCEPT_EDITS = "accept-edits"
    BYPASS = "bypass"

    @classmethod
    def parse(cls, text: str) -> "Mode":
        """A mode from its name, also accepting Claude Code's spellings (`acceptEdits`, `bypassPermissions`,
        `manual`); Claude Code's modes decode does not have (`dontAsk`, `auto`) are a `ValueError` saying so."""
        mode = _MODE_ALIASES.get(text.strip().lower())
        if mode is None and (meaning := _CLAUDE_ONLY.get(text.strip().lower())) is not None:
            raise ValueError(f"permission mode {text!r} is Claude Code's ({meaning}); decode has no such mode")
        if mode is None:
            names = ", ".join(m.value for m in cls)
            raise ValueError(f"unknown permission mode {text!r} (expected one of: {names})")
        return mode

    def next(self) -> "Mode":
        """The mode Shift+Tab switches to: default → accept-edits → plan → default.

        `bypass` is never reached by cycling: it has to be chosen on purpose.
        """
        return _CYCLE[(_CYCLE.index(self) + 1) % len(_CYCLE)] if self in _CYCLE else Mode.DEFAULT


_MODE_ALIASES: dict[str, Mode] = {
    "default": Mode.DEFAULT,
    "plan": Mode.PLAN,
    "accept-edits": Mode.ACCEPT_EDITS,
    "acceptedits": Mode.ACCEPT_EDITS,
    "accept_edits": Mode.ACCEPT_EDITS,
    "bypass": Mode.BYPASS,
    "bypasspermissions": Mode.BYPASS,
    "manual": Mode.DEFAULT,  # Claude Code's alias of `default`
}
_CLAUDE_ONLY = {
    "dontask": "what would ask is refused",
    "auto": "a classifier model approves calls",
}
"""Claude Code's modes with no decode equivalent: never guessed at (a near mode could allow more)."""
_CYCLE = (Mode.DEFAULT, Mode.ACCEPT_EDITS, Mode.PLAN)
