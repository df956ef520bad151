"""The footer: one line under the prompt saying what decode is doing and what the session cost.

    ⠹ working 4s │ google-gla:gemini-flash-latest │ ~/src/app │ 12.4k tokens │ $0.0031 │ ctx ▰▰▱▱▱▱▱▱▱▱ 18%

From lesson 06 the permission mode ends it (`│ ⏵⏵ default (shift+tab)`). The cost shows only
when a price is known; on a narrow terminal the least useful parts give way first (`SHRINK`).

The REPL keeps a `SessionStatus` up to date as events arrive; prompt_toolkit calls `footer()`
on every redraw (ten times a second while busy, which animates the spinner). `footer()` is a
pure function of the status and the clock, so it is tested without a terminal.
"""

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

# prompt_toolkit's formatted text: (style, text) pairs. Styles are class names resolved by the
# REPL's prompt_toolkit Style (see `input.py`).
Fragments = list[tuple[str, str]]

SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
SPINNER_FPS = 10
GAUGE_CELLS = 10
SEPARATOR = " │ "
MIN_PATH = 12  # characters of the working directory kept while it is shortened (before it goes)

Phase = Literal["starting", "ready", "busy", "unavailable"]


@dataclass
class SessionStatus:
    """What the footer shows. The REPL owns one and updates it; nothing here does I/O."""

    workspace: Path
    model: str = ""
    phase: Phase = "starting"
    busy_since: float | None = None
    queued: int = 0
    requests: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float | None = None
    context_tokens: int = 0
    """Tokens the last request sent and received: how full the context window is now."""
    context_window: int = 0
    """Tokens the model can hold; 0 while unknown (the gauge is hidden)."""
    home: Path = field(default_factory=Path.home)
    unavailable: str = ""
    """Why there is no model, when there is none (`GEMINI_API_KEY is not set: …`)."""
    permission_mode: str = "default"  # [lesson 06]
    """The Permission Mode; shown in every mode, `default` too."""
    sandbox: str = "none"  # [lesson 17]
    """Where the agent's commands run (`bwrap`, `docker`, `modal`); `none` is not shown."""

    def start_turn(self, now: float | None = None) -> None:
        self.phase = "busy"
        self.busy_since = time.monotonic() if now is None else now

    def end_turn(self) -> None:
        self.phase = "unavailable" if self.unavailable else "ready"
        self.busy_since = None

    def record_usage(
        self,
        *,
        requests: int,
        input_tokens: int,
        output_tokens: int,
        cost_usd: float | None,
        context_tokens: int,
    ) -> None:
        """Take the session totals and the size of the last request (from a `UsageUpdated` event)."""
        self.requests = requests
        self.input_tokens = input_tokens
        self.output_tokens = output_tokens
        self.cost_usd = cost_usd
        self.context_tokens = context_tokens

    @property
    def context_fraction(self) -> float | None:
        """How full the context window is (0..1), or None when the window is unknown."""
        if self.context_window <= 0:
            return None
        return min(self.context_tokens / self.context_window, 1.0)


def format_tokens(count: int) -> str:
    """`842`, `12.4k`, `1.2M`: token counts at a glance."""
    if count < 1_000:
        return str(count)
    if count < 1_000_000:
        return f"{count / 1_000:.1f}k"
    return f"{count / 1_000_000:.1f}M"


def format_cost(cost_usd: float | None) -> str:
    """Dollars with enough digits to see small sessions move; `unknown` when no price is known.

    The footer leaves an unknown cost out; `/cost` says it is unknown.
    """
    if cost_usd is None:
        return "unknown"
    return f"${cost_usd:.4f}" if cost_usd < 1 else f"${cost_usd:.2f}"


def gauge(fraction: float, cells: int = GAUGE_CELLS) -> str:
    """A bar of `cells` blocks, filled in proportion: `▰▰▰▱▱▱▱▱▱▱`."""
    filled = round(max(0.0, min(fraction, 1.0)) * cells)
    return "▰" * filled + "▱" * (cells - filled)


def short_path(path: Path, home: Path) -> str:
    """The path with the home directory written `~`, as a shell prompt shows it."""
    try:
        return "~/" + str(path.relative_to(home)) if path != home else "~"
    except ValueError:
        return str(path)


def short_model(model: str) -> str:
    """The model string, with a scripted model's path cut to its file name (the footer is one line)."""
    provider, _, name = model.partition(":")
    return f"script:{Path(name).name}" if provider == "script" and name else model


def missing(why: str, width: int = 40) -> str:
    """`: ` and the first clause of why there is no model (`: GEMINI_API_KEY is not set`), or ``."""
    clause = why.split(":", 1)[0].strip()
    if not clause:
        return ""
    return ": " + (clause if len(clause) <= width else clause[: width - 1] + "…")


def spinner_frame(now: float) -> str:
    return SPINNER[int(now * SPINNER_FPS) % len(SPINNER)]


def _phase(status: SessionStatus, now: float, why_width: int = 40) -> Fragments:
    if status.phase == "starting":
        return [("class:footer.busy", f"{spinner_frame(now)} starting")]
    if status.phase == "unavailable":
        return [("class:footer.error", f"✗ no model{missing(status.unavailable, why_width)} · /model provider:name")]
    if status.phase == "busy":
        elapsed = int(now - status.busy_since) if status.busy_since is not None else 0
        text = f"{spinner_frame(now)} working {elapsed}s"
        if status.queued:
            text += f" · {status.queued} queued"
        return [("class:footer.busy", text)]
    return [("class:footer.ready", "● ready")]


def footer(status: SessionStatus, now: float | None = None, width: int | None = None) -> Fragments:
    """The footer line for `status` at time `now` (monotonic seconds; it drives the spinner).

    Given the terminal's `width`, the line is made to fit, least useful parts first: the working
    directory is shortened from the left (it is the part the user knows best), then `SHRINK` takes
    its steps (hints dropped, the tokens, the directory, the gauge's bar) until the line fits. What
    decode is doing and the permission mode stay.
    """
    now = time.monotonic() if now is None else now
    path = short_path(status.workspace, status.home)
    parts: dict[str, Fragments] = {
        "phase": _phase(status, now),
        "model": [("class:footer.model", short_model(status.model) or "…")],
        "path": [("class:footer", path)],
        "tokens": [("class:footer", f"{format_tokens(status.input_tokens + status.output_tokens)} tokens")],
    }
    if status.cost_usd is not None:  # no price known: nothing to show
        parts["cost"] = [("class:footer", format_cost(status.cost_usd))]
    fraction = status.context_fraction
    if fraction is not None:
        style = "class:footer.gauge.full" if fraction >= 0.8 else "class:footer.gauge"
        parts["ctx"] = [(style, f"ctx {gauge(fraction)} {fraction:.0%}")]
    if status.sandbox != "none":  # unsandboxed is how decode always ran: nothing to say  # [lesson 17]
        parts["sandbox"] = [("class:footer.mode", f"sandbox {status.sandbox}")]
    parts["mode"] = [("class:footer.mode", f"⏵⏵ {status.permission_mode} (shift+tab)")]  # [lesson 06]
    if width is not None:
        _fit(parts, width, path, fraction)
        if (excess := _length(parts) - width) > 0 and status.phase == "unavailable":  # the reason, cut
            why = len(missing(status.unavailable)) - 2
            parts["phase"] = _phase(status, now, max(why - excess, MIN_WHY))
    line: Fragments = []
    for index, part in enumerate(parts.values()):
        if index:
            line.append(("class:footer.separator", SEPARATOR))
        line.extend(part)
    return line


SHRINK = ("mode", "cost", "tokens", "path", "ctx", "model")
"""The order in which parts give way on a narrow terminal: `mode` only loses its hint, `ctx` its
bar (and, if nothing else is left to give, its percentage), `model` is cut before it goes."""
MIN_MODEL = 8  # characters of the model string kept, or it goes


MIN_WHY = 12  # characters of why there is no model kept on a narrow terminal


def _length(parts: dict[str, Fragments]) -> int:
    return sum(len(plain(part)) for part in parts.values()) + len(SEPARATOR) * (len(parts) - 1)


def _fit(parts: dict[str, Fragments], width: int, path: str, fraction: float | None) -> None:
    def excess() -> int:
        return _length(parts) - width

    if excess() > 0:  # first the directory, from the left
        keep = max(len(path) - excess() - 1, MIN_PATH)
        if keep < len(path):
            parts["path"] = _retext(parts["path"], "…" + path[-keep:])
    for key in SHRINK:
        if excess() <= 0 or key not in parts:
            continue
        text = plain(parts[key])
        if key == "mode":
            parts[key] = _retext(parts[key], text.removesuffix(" (shift+tab)"))
        elif key == "ctx" and fraction is not None:
            parts[key] = _retext(parts[key], f"ctx {fraction:.0%}")
        elif key == "model" and len(text) - excess() >= MIN_MODEL:
            parts[key] = _retext(parts[key], text[: len(text) - excess() - 1] + "…")
        else:
            del parts[key]
    if excess() > 0:
        parts.pop("ctx", None)  # last: the gauge's percentage too


def _retext(part: Fragments, text: str) -> Fragments:
    return [(part[0][0] if part else "class:footer", text)]


def plain(fragments: Fragments) -> str:
    """The text of formatted fragments without their styles (for tests and logs)."""
    return "".join(text for _, text in fragments)
