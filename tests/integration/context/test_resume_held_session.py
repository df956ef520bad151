"""Two `decode run --resume ID` at once: the second forks the session instead of interleaving.

The first resume is a real `decode run` whose model answer is held back (the loopback model
server waits until the test lets it answer), so it holds the session for as long as the test
needs. A second `decode run --resume ID` meanwhile must say so, go on in a new session copied
from it, and leave the original log to the first. A first decode killed mid-turn must not keep
the next resume out.
"""

import re
import signal
import subprocess
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from decode.context.catalog import find_session
from decode.context.replay import load_session

pytestmark = pytest.mark.integration

TIMEOUT = 120  # seconds: decode starting on a busy machine


def _held_back_server(model_server: Callable[..., Any], user_text: Callable[[dict[str, Any]], str]) -> tuple:
    """A model that answers at once, except a prompt saying "wait", answered when `release` is set."""
    release = threading.Event()

    def respond(request: dict[str, Any]) -> dict[str, Any]:
        prompt = user_text(request)
        if "wait" in prompt:
            release.wait(TIMEOUT)
        return {"text": f"answer to <{prompt}>"}

    server, env = model_server(respond)
    return server, env, release


def _first_turn(decode: str, project: Path, env: dict[str, str]) -> str:
    done = subprocess.run([decode, "run", "turn one"], cwd=project, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return load_session(find_session(project)).session_id


def _holding(decode: str, project: Path, env: dict[str, str], session_id: str, server: Any) -> subprocess.Popen:
    """`decode run --resume ID` waiting for its answer (it holds the session until it ends)."""
    server.arrived.clear()
    first = subprocess.Popen(
        [decode, "run", "--resume", session_id, "wait for me"],
        cwd=project,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert server.arrived.wait(TIMEOUT), "the first resume never asked the model"
    return first


def test_a_second_resume_of_an_open_session_forks_it(
    project: Path, model_server: Callable[..., Any], user_text: Callable[[dict[str, Any]], str], decode: str
) -> None:
    server, env, release = _held_back_server(model_server, user_text)
    session_id = _first_turn(decode, project, env)
    original = find_session(project, session_id)
    first = _holding(decode, project, env, session_id, server)
    before = original.read_bytes()
    try:
        second = subprocess.run(
            [decode, "run", "--resume", session_id, "turn two"], cwd=project, env=env, capture_output=True, text=True
        )
        assert original.read_bytes() == before  # nothing written to the session the first decode holds
    finally:
        release.set()
        _, err = first.communicate(timeout=TIMEOUT)
    assert second.returncode == 0, second.stderr
    found = re.search(
        rf"session {session_id} is open in another decode \(pid {first.pid}\); "
        r"continuing in a new session ([0-9a-f]{8}) forked from it",
        second.stderr,
    )
    assert found, second.stderr
    forked = load_session(find_session(project, found.group(1)))
    assert forked.header.forked_from == session_id
    assert forked.turns == 2  # turn one, copied, and its own
    assert "answer to <turn one>" in str(forked.history)
    assert f"--resume {forked.session_id}" in second.stderr  # the id to continue, as after any run
    assert first.returncode == 0, err
    kept = load_session(original)
    assert kept.turns == 2  # turn one and the first resume's own turn, nothing of the second's
    assert "turn two" not in original.read_text()


def test_a_killed_first_decode_does_not_keep_the_session_held(
    project: Path, model_server: Callable[..., Any], user_text: Callable[[dict[str, Any]], str], decode: str
) -> None:
    server, env, release = _held_back_server(model_server, user_text)
    session_id = _first_turn(decode, project, env)
    first = _holding(decode, project, env, session_id, server)
    first.send_signal(signal.SIGKILL)
    first.communicate(timeout=TIMEOUT)
    release.set()

    again = subprocess.run(
        [decode, "run", "--resume", session_id, "turn two"], cwd=project, env=env, capture_output=True, text=True
    )

    assert again.returncode == 0, again.stderr
    assert "open in another decode" not in again.stderr
    assert load_session(find_session(project, session_id)).turns == 2  # resumed itself
