"""The list of saved sessions, as `decode sessions` and `/resume` show it: id and date first.

    id        when          turns  tokens  first prompt
    147c50a3  5 min ago         3  12,034  fix the flaky test in tests/test_calc.py and then…

Each row starts with what the user needs to continue a session, whole: its id (what
`decode --resume ID` and `/resume ID` take) and when it was last active. The first prompt fills
what is left of the terminal's width and is cut there with `…`, never the id: a long prompt, or a
narrow terminal, cannot push the id off the line.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING

from rich.text import Text

from decode.visible import visible

if TYPE_CHECKING:
    from decode.context.catalog import SessionInfo

GAP = "  "
HEADER_STYLE = "bold"
ID_STYLE = "bold cyan"
DETAIL_STYLE = "dim"


def when(moment: datetime, now: datetime) -> str:
    """`just now`, `5 min ago`, `3 h ago`, then the UTC date: readable at a glance."""
    seconds = (now - moment).total_seconds()
    if seconds < 60:
        return "just now"
    if seconds < 3600:
        return f"{int(seconds // 60)} min ago"
    if seconds < 86_400:
        return f"{int(seconds // 3600)} h ago"
    return f"{moment.astimezone(UTC):%Y-%m-%d %H:%M} UTC"


def preview(prompt: str, width: int) -> str:
    """A first prompt on one line of at most `width` characters (a `!command` as typed)."""
    from decode.harness.bash_mode import shown_as

    flat = " ".join(visible(shown_as(prompt) or prompt).split())
    if width <= 0:
        return ""
    return flat if len(flat) <= width else flat[: max(width - 1, 0)] + "…"


def session_rows(found: list[SessionInfo], width: int, *, now: datetime | None = None, current: str = "") -> list[Text]:
    """The header and one row per session, each at most `width` columns; `current` is marked `(this one)`."""
    now = now or datetime.now(UTC)
    cells = [
        (
            info.session_id,
            when(info.updated_at, now),
            str(info.turns) + (" (this one)" if info.session_id == current else ""),
            f"{info.tokens:,}",
        )
        for info in found
    ]
    header = ("id", "when", "turns", "tokens")
    widths = [max(len(row[column]) for row in [header, *cells]) for column in range(4)]
    room = width - sum(widths) - len(GAP) * 4
    rows = [_row(header, widths, "first prompt"[: max(room, 0)], HEADER_STYLE)]
    for info, row in zip(found, cells, strict=True):
        rows.append(_row(row, widths, preview(info.first_prompt, room), ""))
    return rows


def _row(cells: tuple[str, str, str, str], widths: list[int], prompt: str, style: str) -> Text:
    session_id, moment, turns, tokens = cells
    text = Text(session_id.ljust(widths[0]), style=style or ID_STYLE)
    text.append(GAP + moment.ljust(widths[1]), style=style)
    text.append(GAP + turns.rjust(widths[2]) + GAP + tokens.rjust(widths[3]), style=style or DETAIL_STYLE)
    if prompt:
        text.append(GAP + prompt, style=style)
    text.no_wrap = True
    return text
