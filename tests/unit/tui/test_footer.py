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
        " │ ⏵⏵ default (shift+tab)"
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
    assert plain(footer(status(phase="unavailable"))).startswith("✗ no model · /model provider:name │ ")


def test_without_a_model_the_footer_says_what_is_missing_and_how_to_fix_it() -> None:
    why = "GEMINI_API_KEY is not set: google-gla: models need it (export it or add it to /p/.env)"
    line = plain(footer(status(phase="unavailable", unavailable=why)))
    assert line.startswith("✗ no model: GEMINI_API_KEY is not set · /model provider:name │ ")


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
    assert [format_cost(c) for c in (None, 0.0, 0.00314, 12.5)] == ["unknown", "$0.0000", "$0.0031", "$12.50"]


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


def test_an_unknown_cost_is_left_out() -> None:
    ready = status(phase="ready")
    ready.record_usage(requests=1, input_tokens=10, output_tokens=2, cost_usd=None, context_tokens=12)
    line = plain(footer(ready))
    assert line == "● ready │ google-gla:gemini-flash-latest │ ~/src/app │ 12 tokens │ ⏵⏵ default (shift+tab)"
    assert "$" not in line
    assert "n/a" not in line


def test_every_mode_shows_default_too() -> None:
    for mode in ("default", "accept-edits", "plan", "bypass"):
        assert plain(footer(status(phase="ready", permission_mode=mode))).endswith(f" │ ⏵⏵ {mode} (shift+tab)")


def full_status(mode: str = "accept-edits") -> SessionStatus:
    ready = status(phase="ready", context_window=100_000, permission_mode=mode)
    ready.record_usage(requests=3, input_tokens=11_000, output_tokens=1_400, cost_usd=0.0031, context_tokens=18_000)
    return ready


def test_at_70_columns_the_mode_stays_and_the_least_useful_parts_go_first() -> None:
    line = plain(footer(full_status(), width=70))
    assert len(line) <= 70
    assert line.startswith("● ready │ google-gla:gemini-flash-latest │ ")
    assert line.endswith(" │ ⏵⏵ accept-edits")  # the hint went, the mode stayed
    assert "$0.0031" not in line
    assert "ctx" in line  # the gauge gives way last among the numbers


def test_the_footer_gives_way_in_order_as_the_terminal_narrows() -> None:
    widths = range(140, 29, -1)
    lines = [plain(footer(full_status(), width=width)) for width in widths]
    assert lines[0] == plain(footer(full_status()))  # wide enough: everything
    for width, line in zip(widths, lines, strict=True):
        assert "⏵⏵ accept-edits" in line
        assert line.startswith("● ready")
        assert len(line) <= width or width < len("● ready │ ⏵⏵ accept-edits")
    gone = ["(shift+tab)", "$0.0031", "12.4k tokens", "~/src/app", "▰"]
    first_missing = [next(i for i, line in enumerate(lines) if part not in line) for part in gone]
    assert first_missing == sorted(first_missing)  # the hint, then the cost, the tokens, the directory, the bar
    assert "ctx 18%" in lines[-1] or "ctx" not in lines[-1]


def test_without_a_model_at_70_columns_the_reason_is_cut_and_the_mode_stays() -> None:
    why = "OPENAI_BASE_URL is not set: openai-compatible: models need it (export it)"
    line = plain(footer(status(phase="unavailable", unavailable=why), width=70))
    assert len(line) <= 70
    assert line.startswith("✗ no model: OPENAI_BASE")
    assert "· /model provider:name │ ⏵⏵ default" in line
