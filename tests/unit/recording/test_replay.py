"""What `decode replay` asks Kitaru to run, and its errors before any server is asked (decode/recording/replay.py)."""

import shlex
import sys
from pathlib import Path

import pytest

from decode.config.settings import Settings
from decode.context.session_log import SessionLog
from decode.recording.replay import ReplayError, run_command, session_model, start_replay


def test_the_session_model_comes_from_its_session_log(project: Path) -> None:
    log = SessionLog.new(project, model="script:turns.json")
    log.path.parent.mkdir(parents=True)
    log.path.write_text(log.header.model_dump_json() + "\n")  # the header line a first turn writes

    assert session_model(project, log.session_id) == "script:turns.json"
    with pytest.raises(ReplayError, match="no decode session 'nope'"):
        session_model(project, "nope")


def test_the_workers_command_is_this_decode_run_on_the_model() -> None:
    argv = shlex.split(run_command("script:/tmp/a b.json"))
    assert argv[:4] == [str(Path(sys.executable).with_name("decode")), "run", "--model", "script:/tmp/a b.json"]


async def test_a_replay_without_recording_configured_says_what_to_set(project: Path) -> None:
    with pytest.raises(ReplayError, match="set KITARU_API_URL and KITARU_AGENT_ID"):
        await start_replay(Settings(_env_file=None), project, "abc")  # type: ignore[call-arg]
