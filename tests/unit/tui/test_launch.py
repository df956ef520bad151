"""`run_repl`: an option that cannot work is one line and exit code 2, before any prompt is drawn."""

from pathlib import Path

import pytest

from decode.agent.options import LoopOptions
from decode.cli import cli
from decode.tui.app import repl_commands
from decode.tui.launch import EXIT_USAGE, run_repl


def test_every_start_check_is_named_after_an_option_of_decode() -> None:
    options = {parameter.name for parameter in cli.params}
    checks = repl_commands().start_checks
    assert set(checks) == {"agent", "sandbox", "repo", "resume"}  # each added by the part whose option it is
    assert set(checks) <= options
    assert set(checks) <= set(LoopOptions.__dataclass_fields__)


@pytest.mark.parametrize(
    ("option", "said"),
    [
        ({"agent": "no-such-agent"}, "no-such-agent"),
        ({"resume": ""}, "nothing to resume"),
        ({"resume": "0123abcd"}, "nothing to resume"),
        ({"repo": "no/such/dir"}, "no/such/dir"),
    ],
)
def test_a_bad_option_is_refused_before_the_terminal_is_needed(
    project: Path, capsys: pytest.CaptureFixture[str], option: dict[str, str], said: str
) -> None:
    # No terminal here (pytest captures stdin/stdout): the option is refused first, in one line.
    assert run_repl(LoopOptions(project, **option)) == EXIT_USAGE
    err = capsys.readouterr().err
    assert err.startswith("decode: error: ")
    assert said in err
    assert err.count("\n") == 1


def test_without_a_terminal_the_repl_points_to_decode_run(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_repl(LoopOptions(project, sandbox="none", max_requests=3)) == EXIT_USAGE  # good options, no terminal
    assert "the REPL needs a terminal" in capsys.readouterr().err
