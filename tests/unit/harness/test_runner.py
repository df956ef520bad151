"""The Turn Runner with a slow model: steer, follow up, abort (process group, history), fail."""

import asyncio
import subprocess
from pathlib import Path
from typing import Any

from pydantic_ai.messages import ModelRequest, ModelResponse, TextPart, ToolReturnPart

from decode.agent.failures import LoopUnavailable
from decode.harness.abort import INTERRUPTED_NOTE, INTERRUPTED_RESULT
from decode.harness.decisions import DecisionChannel, Option, Question
from decode.harness.priority import Message, Priority
from decode.harness.runner import TurnRunner
from decode.permissions.gate import PermissionGate
from decode.permissions.hook import Answer, Approval
from decode.permissions.types import Verdict
from tests.conftest import has_pid
from tests.unit.harness.conftest import Step, user_texts

PAUSE = [("pause", {})]


def results(harness: Any) -> list[str]:
    return [event.result.content for event in harness.events if event.kind == "tool_result"]


async def test_a_steer_reaches_the_model_at_its_next_request(harness) -> None:
    h = harness([Step("Looking.", PAUSE), Step("Done, with pnpm.")])
    h.runner.send(Message("install the deps"))
    await h.wait_until(lambda: "tool_call" in h.kinds())

    steer = h.runner.send(Message("use pnpm, not npm", Priority.STEER))
    assert steer.priority is Priority.STEER
    assert steer.enqueue_id is not None
    assert h.runner.pending() == [steer]  # in flight: sent, not yet given to the model
    h.released.set()

    assert (await h.ended()).outcome == "finished"
    first, second = h.model.requests
    assert "use pnpm, not npm" not in user_texts(first)
    assert user_texts(second)[-1] == "use pnpm, not npm"  # after the tool's result, before the answer
    assert h.kinds().index("tool_result") < h.kinds().index("message_delivered") < h.kinds().index("turn_finished")
    delivered = next(event for event in h.events if event.kind == "message_delivered")
    assert (delivered.message_id, delivered.text) == (steer.enqueue_id, "use pnpm, not npm")
    assert h.runner.pending() == []
    assert user_texts(h.loop.history) == ["install the deps", "use pnpm, not npm"]


async def test_a_steer_sent_during_the_last_answer_gets_one_more_request(harness) -> None:
    answering = asyncio.Event()
    h = harness([Step("The answer.", wait=answering), Step("Noted: in French.")])
    h.runner.send(Message("explain"))
    await h.wait_until(lambda: len(h.model.requests) == 1)

    h.runner.send(Message("in French", Priority.STEER))
    answering.set()

    assert (await h.ended()).outcome == "finished"
    assert len(h.model.requests) == 2
    assert user_texts(h.model.requests[1])[-1] == "in French"
    assert h.kinds().count("turn_started") == 1  # the same turn went on


async def test_a_follow_up_waits_until_the_turn_would_end(harness) -> None:
    h = harness([Step("Working.", PAUSE), Step("Tests written."), Step("And they pass.")])
    h.runner.send(Message("write the tests"))
    await h.wait_until(lambda: "tool_call" in h.kinds())

    h.runner.send(Message("then run them", Priority.FOLLOW_UP))
    h.released.set()

    assert (await h.ended()).outcome == "finished"
    _, second, third = h.model.requests
    assert "then run them" not in user_texts(second)  # the tool's result went first, alone
    assert user_texts(third)[-1] == "then run them"
    answer = third[-2]
    assert isinstance(answer, ModelResponse)
    assert answer.parts == [TextPart("Tests written.")]


async def test_messages_sent_while_idle_or_from_commands_are_turns_of_their_own(harness) -> None:
    h = harness([Step("One.", PAUSE), Step("Two."), Step("Three.")])
    first = h.runner.send(Message("one", Priority.STEER))  # nothing runs: a steer becomes a turn
    assert first.priority is Priority.TURN
    await h.wait_until(lambda: "tool_call" in h.kinds())

    queued = h.runner.send(Message("the /init prompt", shown="/init"))  # a command's prompt: after this turn
    assert h.runner.pending() == [queued]
    h.released.set()

    await h.ended(2)
    started = [event.message.display for event in h.events if event.kind == "turn_started"]
    assert started == ["one", "/init"]
    assert user_texts(h.model.requests[2])[-1] == "the /init prompt"


def living_members(pgid: int) -> list[str]:
    """The processes of group `pgid` still running, per `ps` (a killed, unreaped zombie is not running)."""
    listed = subprocess.run(["ps", "-eo", "pgid=,stat=,args="], capture_output=True, text=True, check=True).stdout
    rows = [line.split(None, 2) for line in listed.splitlines()]
    return [row[2] for row in rows if len(row) == 3 and row[0] == str(pgid) and not row[1].startswith("Z")]


async def test_abort_during_a_long_bash_kills_its_process_group_and_the_next_turn_works(
    harness, tmp_path: Path
) -> None:
    command = "echo $$ > group.pid; sleep 600 & sleep 600"
    h = harness([Step("Starting the server.", [("bash", {"command": command}), ("pause", {})]), Step("Fresh start.")])
    h.runner.send(Message("start the server"))
    await h.wait_until(lambda: has_pid(tmp_path / "group.pid"))
    pgid = int((tmp_path / "group.pid").read_text())
    assert len(living_members(pgid)) == 3  # bash and its two sleeps
    steer = h.runner.send(Message("on port 8080", Priority.STEER))
    queued = h.runner.send(Message("the /init prompt", shown="/init"))

    assert h.runner.abort()
    ended = await h.ended()

    assert ended.outcome == "aborted"
    assert [message.display for message in ended.returned] == [steer.text, queued.display]  # handed back
    assert not h.runner.busy
    await h.wait_until(lambda: living_members(pgid) == [])  # the whole group dies: bash and both sleeps

    # The partial turn is kept, every call answered, and the user's note closes it.
    _, said, closing = h.loop.history
    assert isinstance(said, ModelResponse)
    assert [call.tool_name for call in said.tool_calls] == ["bash", "pause"]
    assert isinstance(closing, ModelRequest)
    returns = [part for part in closing.parts if isinstance(part, ToolReturnPart)]
    assert {(part.tool_name, part.content, part.outcome) for part in returns} == {
        ("bash", INTERRUPTED_RESULT, "interrupted"),
        ("pause", INTERRUPTED_RESULT, "interrupted"),
    }
    assert user_texts(h.loop.history) == ["start the server", INTERRUPTED_NOTE]

    h.runner.send(Message("let's try again"))
    assert (await h.ended(2)).outcome == "finished"  # the strict model found no orphan call
    assert user_texts(h.model.requests[-1])[-2:] == [INTERRUPTED_NOTE, "let's try again"]


async def test_abort_while_the_model_streams_keeps_what_it_said(harness) -> None:
    never = asyncio.Event()
    h = harness([Step("Thinking hard", wait=never), Step("Okay.")])
    h.runner.send(Message("plan it"))
    await h.wait_until(lambda: len(h.model.requests) == 1)

    h.runner.abort()
    assert (await h.ended()).outcome == "aborted"
    assert user_texts(h.loop.history) == ["plan it", INTERRUPTED_NOTE]
    h.runner.send(Message("again"))
    assert (await h.ended(2)).outcome == "finished"


async def test_abort_before_the_agent_is_ready_keeps_nothing(settings) -> None:
    ready = asyncio.Event()
    events: list[Any] = []

    async def agent_loop() -> Any:
        await ready.wait()  # the REPL's warm-up, still importing
        raise AssertionError("never reached")

    runner = TurnRunner(agent_loop, events.append)
    worker = asyncio.create_task(runner.work())
    runner.send(Message("hello"))
    async with asyncio.timeout(20):
        while True:
            if runner.busy:
                break
            await asyncio.sleep(0.01)
    await runner.stop()
    assert [event.kind for event in events] == ["turn_started", "turn_ended"]
    assert events[-1].outcome == "aborted"
    worker.cancel()
    await asyncio.gather(worker, return_exceptions=True)


async def test_a_failed_turn_reports_one_line_and_hands_back_what_the_model_did_not_get(settings) -> None:
    events: list[Any] = []

    async def agent_loop() -> Any:
        raise LoopUnavailable("GEMINI_API_KEY is not set")

    runner = TurnRunner(agent_loop, events.append)
    ended = await runner.run_turn(Message("hello"))
    assert (ended.outcome, ended.error) == ("failed", "GEMINI_API_KEY is not set")


async def test_a_failed_turn_hands_back_the_steer_the_model_did_not_get(harness) -> None:
    h = harness([Step("Reading.", PAUSE), Step("never")])
    h.loop.max_requests = 1  # the request after the tool is over the ceiling: the turn fails before it
    h.runner.send(Message("read it"))
    await h.wait_until(lambda: "tool_call" in h.kinds())
    steer = h.runner.send(Message("and summarise", Priority.STEER))
    h.released.set()

    ended = await h.ended()
    assert ended.outcome == "failed"
    assert ended.error.startswith("stopped at the request ceiling (1 per turn")
    assert ended.returned == (steer,)
    assert "message_delivered" not in h.kinds()
    assert h.loop.history == []  # a failed turn leaves the conversation as it was


async def test_abort_while_an_approval_waits_withdraws_the_question_and_runs_nothing(harness, tmp_path: Path) -> None:
    channel = DecisionChannel()

    async def approve(tool: str, args: dict[str, Any], verdict: Verdict) -> Approval:
        reply = await channel.ask(Question(f"allow {tool}?", (Option("y", "yes"), Option("n", "no"))))
        return Approval(Answer.YES if reply.choice == "y" else Answer.NO)

    h = harness(
        [Step("Creating it.", [("bash", {"command": "touch made.txt"})]), Step("Okay.")],
        gate=PermissionGate(workspace=tmp_path),  # default mode: bash asks
        approve=approve,
    )
    h.runner.send(Message("make the file"))
    await h.wait_until(lambda: channel.current is not None)

    h.runner.abort()
    assert (await h.ended()).outcome == "aborted"
    assert channel.current is None
    assert channel.answer("y") is None  # too late: nothing is asked any more
    assert not (tmp_path / "made.txt").exists()
    closing = h.loop.history[-1]
    assert isinstance(closing, ModelRequest)
    assert [part.content for part in closing.parts if isinstance(part, ToolReturnPart)] == [INTERRUPTED_RESULT]


async def test_an_aborted_turn_is_logged_and_a_resumed_session_continues_from_it(
    harness, tmp_path: Path, settings
) -> None:
    from decode.context.session import Session

    h = harness([Step("Working.", PAUSE), Step("Picking up.")])
    h.loop.session = Session.start(tmp_path, model="strict", settings=settings)
    h.runner.send(Message("do the thing"))
    await h.wait_until(lambda: "tool_call" in h.kinds())
    h.runner.abort()
    assert (await h.ended()).outcome == "aborted"

    _, loaded = Session.resume(tmp_path)
    assert user_texts(loaded.history) == ["do the thing", INTERRUPTED_NOTE]
    h.loop.history = loaded.history  # as `decode --resume` would start
    h.runner.send(Message("go on"))
    assert (await h.ended(2)).outcome == "finished"  # the strict model found every call answered


async def test_a_cancellation_the_run_attached_nothing_to_still_keeps_the_turn(
    harness, tmp_path: Path, settings
) -> None:
    # A cancellation can reach the turn where pydantic-ai attached no state to it (outside its run's
    # scope): the loop's own record of the unfinished turn is kept instead, never nothing.
    from decode.agent.loop import UnfinishedTurn
    from decode.context.session import Session
    from decode.entities.usage import Usage

    h = harness([])
    h.loop.session = Session.start(tmp_path, model="strict", settings=settings)
    prompt = ModelRequest.user_text_prompt("hold on")
    h.loop.unfinished = UnfinishedTurn([prompt], [prompt], Usage())

    h.runner._keep_partial_turn(h.loop, Usage(), None, asyncio.CancelledError())

    _, loaded = Session.resume(tmp_path)
    assert user_texts(loaded.history) == ["hold on", INTERRUPTED_NOTE]


async def test_a_failed_turn_is_kept_with_its_cause_when_the_front_end_asks_and_says_it_was_saved(
    harness, tmp_path: Path, settings
) -> None:
    from decode.context.session import Session

    h = harness([Step("Reading.", PAUSE), Step("never")])
    h.loop.max_requests = 1
    h.loop.session = Session.start(tmp_path, model="strict", settings=settings)
    h.runner.keep_failed = True  # as `decode run` asks: a failed run can be resumed
    h.runner.send(Message("read it"))
    await h.wait_until(lambda: "tool_call" in h.kinds())
    h.released.set()

    ended = await h.ended()
    assert (ended.outcome, h.loop.saved) == ("failed", True)
    assert ended.failure is not None
    assert ended.failure.at_ceiling
    _, loaded = Session.resume(tmp_path)
    note = "[This turn stopped before it finished: the request ceiling (1 per turn) was reached.]"
    assert user_texts(loaded.history) == ["read it", note]


async def test_saved_is_a_value_of_the_loop_after_the_turn_not_a_notice_to_parse(
    harness, tmp_path: Path, settings
) -> None:
    from decode.context.session import Session

    h = harness([Step("Hello."), Step("Again.")])
    h.runner.send(Message("hi"))
    await h.ended()
    assert h.loop.saved is False  # no session: nothing is saved
    h.loop.session = Session.start(tmp_path, model="strict", settings=settings)
    h.runner.send(Message("hi again"))
    await h.ended(2)
    assert h.loop.saved is True
