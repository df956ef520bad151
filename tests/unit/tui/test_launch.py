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
    assert set(checks) == {"agent", "sandbox", "repo", "resume", "session_id"}  # each added by its option's part
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


def test_a_used_session_id_is_refused_before_the_terminal_is_needed(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    named = "2e4d6c8b-1a3f-4e5d-9c7b-0a1b2c3d4e5f"
    sessions = project / ".decode" / "sessions"
    sessions.mkdir(parents=True)
    (sessions / f"20261207T120000Z_{named}.jsonl").write_text("{}\n")

    assert run_repl(LoopOptions(project, session_id=named.upper())) == EXIT_USAGE
    assert (
        capsys.readouterr().err
        == f"decode: error: session id {named} is already used (`decode --resume {named}` continues it)\n"
    )


def test_without_a_terminal_the_repl_points_to_decode_run(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_repl(LoopOptions(project, sandbox="none", max_requests=3)) == EXIT_USAGE  # good options, no terminal
    assert "the REPL needs a terminal" in capsys.readouterr().err
