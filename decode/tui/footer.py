"""The footer: one line under the prompt saying what decode is doing and what the session cost.

    ⠹ working 4s │ google-gla:gemini-flash-latest │ ~/src/app │ 12.4k tokens · $0.0031 │ ctx ▰▰▱▱▱▱▱▱▱▱ 18%

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
MIN_PATH = 12  # characters of the working directory kept when the footer must shrink

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
    # [lesson 06]
    permission_mode: str = "default"
    """The Permission Mode; shown unless it is `default`."""
    # [/lesson 06]

    def start_turn(self, now: float | None = None) -> None:
        self.phase = "busy"
        self.busy_since = time.monotonic() if now is None else now

    def end_turn(self) -> None:
        self.phase = "ready"
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
    """Dollars with enough digits to see small sessions move; `$ n/a` when no price is known."""
    if cost_usd is None:
        return "$ n/a"
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


def spinner_frame(now: float) -> str:
    return SPINNER[int(now * SPINNER_FPS) % len(SPINNER)]


def _phase(status: SessionStatus, now: float) -> Fragments:
    if status.phase == "starting":
        return [("class:footer.busy", f"{spinner_frame(now)} starting")]
    if status.phase == "unavailable":
        return [("class:footer.error", "✗ no model")]
    if status.phase == "busy":
        elapsed = int(now - status.busy_since) if status.busy_since is not None else 0
        text = f"{spinner_frame(now)} working {elapsed}s"
        if status.queued:
            text += f" · {status.queued} queued"
        return [("class:footer.busy", text)]
    return [("class:footer.ready", "● ready")]


def footer(status: SessionStatus, now: float | None = None, width: int | None = None) -> Fragments:
    """The footer line for `status` at time `now` (monotonic seconds; it drives the spinner).

    Given the terminal's `width`, the working directory is shortened from the left so the line
    fits: it is the part the user knows best.
    """
    now = time.monotonic() if now is None else now
    path = short_path(status.workspace, status.home)
    parts: list[Fragments] = [
        _phase(status, now),
        [("class:footer.model", short_model(status.model) or "…")],
        [("class:footer", path)],
        [("class:footer", f"{format_tokens(status.input_tokens + status.output_tokens)} tokens")],
        [("class:footer", format_cost(status.cost_usd))],
    ]
    fraction = status.context_fraction
    if fraction is not None:
        style = "class:footer.gauge.full" if fraction >= 0.8 else "class:footer.gauge"
        parts.append([(style, f"ctx {gauge(fraction)} {fraction:.0%}")])
    # [lesson 06]
    if status.permission_mode != "default":
        parts.append([("class:footer.mode", f"⏵⏵ {status.permission_mode} (shift+tab)")])
    # [/lesson 06]
    if width is not None:
        excess = sum(len(plain(part)) for part in parts) + len(SEPARATOR) * (len(parts) - 1) - width
        if excess > 0:
            keep = max(len(path) - excess - 1, MIN_PATH)
            parts[2] = [("class:footer", "…" + path[-keep:] if keep < len(path) else path)]
    line: Fragments = []
    for index, part in enumerate(parts):
        if index:
            line.append(("class:footer.separator", SEPARATOR))
        line.extend(part)
    return line


def plain(fragments: Fragments) -> str:
    """The text of formatted fragments without their styles (for tests and logs)."""
    return "".join(text for _, text in fragments)
