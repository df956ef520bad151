"""The sessions list of `decode sessions` and `/resume`: id and date first, the prompt cut to the width."""

from datetime import UTC, datetime, timedelta
from pathlib import Path

from decode.context.catalog import SessionInfo
from decode.tui.session_list import preview, session_rows

NOW = datetime(2026, 12, 8, 12, 0, tzinfo=UTC)
LONG_ID = "0b1c2d3e-1111-2222-3333-444455556666"  # `--session-id UUID`


def info(session_id: str, prompt: str, turns: int = 2) -> SessionInfo:
    moment = NOW - timedelta(days=3)
    return SessionInfo(session_id, Path(f"{session_id}.jsonl"), moment, moment, "m", prompt, turns, 1234)


def test_each_row_starts_with_the_whole_id_and_the_date() -> None:
    found = [info("147c50a3", "fix the flaky test " * 20), info(LONG_ID, "hello")]
    rows = [row.plain for row in session_rows(found, 100, now=NOW, current="147c50a3")]
    assert rows[0].split()[:4] == ["id", "when", "turns", "tokens"]
    assert rows[1].startswith("147c50a3  ")
    assert rows[1].split()[1:4] == ["2026-12-05", "12:00", "UTC"]
    assert "2 (this one)" in rows[1]
    assert len(rows[1]) == 100  # the prompt fills what is left…
    assert rows[1].endswith("…")  # …cut
    assert rows[2].startswith(LONG_ID + "  2026-12-05 12:00 UTC")
    assert rows[2].endswith("hello")


def test_a_narrow_terminal_drops_the_prompt_not_the_id() -> None:
    rows = [row.plain for row in session_rows([info(LONG_ID, "a prompt")], 30, now=NOW)]
    assert rows[1].startswith(LONG_ID)
    assert "a prompt" not in rows[1]


def test_a_preview_is_one_line_and_a_bang_command_reads_as_typed() -> None:
    assert preview("two\nlines", 20) == "two lines"
    assert preview("<bash-input>ls -la</bash-input>\n<bash-output>\nx\n</bash-output>", 20) == "!ls -la"
    assert preview("abcdef", 4) == "abc…"
