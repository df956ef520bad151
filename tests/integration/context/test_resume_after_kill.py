"""SIGKILL `decode run` at random points of a multi-turn session; every resume must lose nothing.

The session is a chain of real `decode run --resume ID "turn N …"` processes against a slow
model server. Each one is killed, at random, while it starts up, while the answer streams in,
the moment the session log starts to grow (the line being written, fsynced), or not at all.
Each is forked from the tests' fork server (forked_process.py), so a kill "while it starts up"
lands in decode's own start-up (finding and holding the session), not in importing pydantic-ai,
where nothing is written yet.
After every kill the log must hold exactly the turns that completed before it (a turn whose
answer was printed is always there; a turn killed mid-write is there whole or not at all), and
the next process must send the model a valid conversation: those turns, in order, every tool
call followed by its result, then the new prompt.
"""

import os
import random
import signal
import subprocess
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pydantic_ai.messages import ModelMessage, ModelRequest, ModelResponse, TextPart, UserPromptPart

from decode.context.catalog import find_session
from decode.context.replay import load_session
from tests.integration.context.conftest import without_facts
from tests.integration.forked_process import ForkedProcess, spawn_forked
from tests.integration.forkserver import run_forked

pytestmark = pytest.mark.integration

KILLS = 24
"""Resumes killed, at least; the session goes on until this many kills landed (some modes can miss)."""
SEED = 8
MODES = ("startup", "streaming", "writing", "writing", "none")
STREAM_CHUNKS, CHUNK_PAUSE = 20, 0.02


def answer_for(prompt: str) -> str:
    """The model's whole answer to `prompt`; "big" prompts get a big one, for a long write."""
    filler = "lorem ipsum dolor " * (20_000 if "big" in prompt else 100)
    return f"answer to <{prompt}>: {filler}end."


def prompts_and_answers(history: list[ModelMessage]) -> tuple[list[str], list[str]]:
    prompts = [
        part.content
        for message in history
        if isinstance(message, ModelRequest)
        for part in message.parts
        if isinstance(part, UserPromptPart)
    ]
    answers = [
        part.content
        for message in history
        if isinstance(message, ModelResponse)
        for part in message.parts
        if isinstance(part, TextPart)
    ]
    return prompts, answers


def wait_for(
    condition: Callable[[], bool],
    process: ForkedProcess | subprocess.Popen[bytes],
    also: Callable[[], bool] = lambda: False,
    timeout: float = 60.0,
) -> None:
    """Spin until `condition()` (or `also()`), or the process ends: the kill may come too late, that is allowed."""
    deadline = time.monotonic() + timeout
    while not condition() and not also() and process.poll() is None:
        if time.monotonic() > deadline:
            process.kill()
            _, err = process.communicate()
            raise AssertionError(f"decode never got there: {err.decode()[-3000:]}")
        time.sleep(0.001)


def time_passed(seconds: float) -> Callable[[], bool]:
    until = time.monotonic() + seconds
    return lambda: time.monotonic() >= until


def request_arrived(server: Any, seen: int) -> Callable[[], bool]:
    return lambda: len(server.requests) > seen


def answer_sent(server: Any, seen: int, prompt: str, user_text: Callable[[dict[str, Any]], str]) -> Callable[[], bool]:
    """The server has sent the whole final answer to `prompt` (decode is about to log the turn)."""
    return lambda: any(user_text(body) == prompt and reply.text for body, reply in server.finished[seen:])


def log_grew(path: Path, size: int) -> Callable[[], bool]:
    return lambda: path.stat().st_size != size


def test_sigkill_at_random_points_never_loses_a_completed_turn(
    project: Path, model_server, user_text, conversation, decode
) -> None:
    (project / "notes.txt").write_text("the notes say: ship it\n")

    def respond(request: dict[str, Any]) -> dict[str, Any]:
        """Tool turns read notes.txt first; then (or at once) the whole answer, streamed slowly."""
        prompt = user_text(request)
        if "with a tool" in prompt and without_facts(request["messages"])[-1]["role"] == "user":
            return {"tool": ("read", {"path": "notes.txt"})}
        return {"text": answer_for(prompt), "chunks": STREAM_CHUNKS, "pause": CHUNK_PAUSE}

    def spawn(*args: str) -> ForkedProcess | subprocess.Popen[bytes]:
        return spawn_forked([decode, "run", *args], cwd=project, env=env)

    server, env = model_server(respond)
    # This test is about kills, not compaction: a dozen big answers must never trigger a summary.
    env["DECODE_CONTEXT_WINDOW"] = str(10**9)
    first = run_forked([decode, "run", "turn 0"], cwd=project, env=env)
    assert first.returncode == 0, first.stderr.decode()
    path = find_session(project)
    rng = random.Random(SEED)
    outcomes: Counter[str] = Counter()

    number = 0
    while outcomes["killed"] < KILLS:
        number += 1
        assert number <= 3 * KILLS, f"too few kills landed: {dict(outcomes)}"
        before = load_session(path)
        logged_prompts, logged_answers = prompts_and_answers(before.history)
        mode = rng.choice(MODES)
        prompt = f"turn {number}" + (" big" if mode == "writing" else "") + (" with a tool" if number % 3 == 0 else "")
        seen_requests, seen_answers = len(server.requests), len(server.finished)
        size_before = path.stat().st_size
        process = spawn("--resume", before.session_id, prompt)

        if mode == "startup":  # at a random moment before the model is asked
            wait_for(time_passed(rng.uniform(0.05, 2.0)), process, also=request_arrived(server, seen_requests))
        elif mode == "streaming":
            wait_for(request_arrived(server, seen_requests), process)
            time.sleep(rng.uniform(0.0, STREAM_CHUNKS * CHUNK_PAUSE))
        elif mode == "writing":
            wait_for(answer_sent(server, seen_answers, prompt, user_text), process)
            wait_for(log_grew(path, size_before), process)
        if mode != "none" and process.poll() is None:
            os.kill(process.pid, signal.SIGKILL)
        stdout, stderr = process.communicate(timeout=120)
        killed = process.returncode == -signal.SIGKILL
        outcomes[f"{mode}:{'killed' if killed else 'finished'}"] += 1
        outcomes["killed"] += killed
        if not killed:
            assert process.returncode == 0, stderr.decode()

        # Every request this process sent was the logged conversation so far, then the new prompt.
        for request in server.requests[seen_requests:]:
            sent_prompts, sent_answers = conversation(request)
            assert sent_prompts == [*logged_prompts, prompt]
            assert sent_answers[: len(logged_answers)] == logged_answers

        if not path.read_bytes().endswith(b"\n"):
            outcomes["torn line left"] += 1  # the next resume must skip it, then cut it off
        after = load_session(path)
        prompts, answers = prompts_and_answers(after.history)
        assert prompts[: len(logged_prompts)] == logged_prompts, "a completed turn was lost"
        assert prompts in (logged_prompts, [*logged_prompts, prompt])
        if answer_for(prompt).encode() in stdout:
            assert prompts[-1] == prompt, "the answer was shown but the turn is not in the log"
        assert answers == [answer_for(p) for p in prompts], "a turn in the log is incomplete"
        if prompts[-1] == prompt:
            outcomes["turn saved"] += 1

    # The session goes on: one more resume, not killed, sees everything.
    final = run_forked([decode, "run", "--resume", load_session(path).session_id, "last turn"], cwd=project, env=env)
    assert final.returncode == 0, final.stderr.decode()
    assert answer_for("last turn") in final.stdout.decode()
    print(f"\nkill outcomes over {number} resumes: {dict(sorted(outcomes.items()))}")
    assert outcomes["turn saved"] >= 3  # the session did move on between kills
