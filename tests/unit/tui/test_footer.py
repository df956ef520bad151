"""The footer line: what decode is doing, the model, where, the session's tokens and cost, context fill."""

from pathlib import Path

import pytest

from decode.tui.footer import (
    SPINNER,
    SessionStatus,
    footer,
    format_cost,
    format_tokens,
    gauge,
    plain,
    short_model,
    short_path,
    spinner_frame,
)

HOME = Path("/home/ada")


def status(**fields: object) -> SessionStatus:
    return SessionStatus(workspace=HOME / "src" / "app", home=HOME, model="google-gla:gemini-flash-latest", **fields)


def test_a_ready_session_shows_model_directory_tokens_cost_and_context() -> None:
    ready = status(phase="ready", context_window=100_000)
    ready.record_usage(requests=3, input_tokens=11_000, output_tokens=1_400, cost_usd=0.0031, context_tokens=18_000)
    assert plain(footer(ready)) == (
        "● ready │ google-gla:gemini-flash-latest │ ~/src/app │ 12.4k tokens │ $0.0031 │ ctx ▰▰▱▱▱▱▱▱▱▱ 18%"
    )


def test_while_busy_a_spinner_turns_and_the_elapsed_time_and_queue_show() -> None:
    busy = status()
    busy.start_turn(now=100.0)
    busy.queued = 2
    first, later = plain(footer(busy, now=104.0)), plain(footer(busy, now=104.1))
    assert first.startswith(f"{spinner_frame(104.0)} working 4s · 2 queued │ ")
    assert first[0] != later[0]
    assert first[0] in SPINNER

    busy.end_turn()
    assert plain(footer(busy)).startswith("● ready")


def test_starting_and_unavailable_phases() -> None:
    assert " starting │ " in plain(footer(status()))
    assert plain(footer(status(phase="unavailable"))).startswith("✗ no model │ ")


def test_the_gauge_is_hidden_while_the_context_window_is_unknown() -> None:
    assert "ctx" not in plain(footer(status(phase="ready")))


def test_a_nearly_full_context_is_styled_as_a_warning() -> None:
    full = status(phase="ready", context_window=1_000, context_tokens=900)
    styles = [style for style, text in footer(full) if text.startswith("ctx")]
    assert styles == ["class:footer.gauge.full"]


def test_context_fraction_is_capped_at_one() -> None:
    assert status(context_window=10, context_tokens=25).context_fraction == 1.0


@pytest.mark.parametrize(("count", "text"), [(0, "0"), (842, "842"), (12_400, "12.4k"), (1_250_000, "1.2M")])
def test_format_tokens(count: int, text: str) -> None:
    assert format_tokens(count) == text


def test_format_cost() -> None:
    assert [format_cost(c) for c in (None, 0.0, 0.00314, 12.5)] == ["$ n/a", "$0.0000", "$0.0031", "$12.50"]


def test_gauge() -> None:
    assert [gauge(f) for f in (0.0, 0.18, 1.0, 7.0)] == ["▱" * 10, "▰▰" + "▱" * 8, "▰" * 10, "▰" * 10]


def test_short_path() -> None:
    assert short_path(HOME / "src", HOME) == "~/src"
    assert short_path(HOME, HOME) == "~"
    assert short_path(Path("/srv/app"), HOME) == "/srv/app"


def test_short_model_cuts_a_script_path_to_its_file_name() -> None:
    assert short_model("script:/tmp/x/turns.json") == "script:turns.json"
    assert short_model("openrouter:qwen/qwen3-coder") == "openrouter:qwen/qwen3-coder"
    assert short_model("test") == "test"


def test_a_narrow_terminal_shortens_the_working_directory_first() -> None:
    deep = SessionStatus(workspace=Path("/srv/projects/clients/acme/backend"), home=HOME, model="test", phase="ready")
    wide = plain(footer(deep, width=200))
    assert "│ /srv/projects/clients/acme/backend │" in wide
    narrow = plain(footer(deep, width=len(wide) - 10))
    assert len(narrow) == len(wide) - 10
    directory = narrow.split(" │ ")[2]
    assert directory.startswith("…")
    assert directory.endswith("/acme/backend")
