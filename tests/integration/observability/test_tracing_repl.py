"""The REPL's turns are `chat_turn` traces: built from the REPL's own `LoopOptions`, as its warm-up builds them."""

import io
import json
from pathlib import Path
from typing import Any

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from rich.console import Console

from decode.agent.compose import build_loop
from decode.agent.options import LoopOptions
from decode.agent.traced_loop import TracedLoop
from decode.config.settings import Settings
from decode.entities.events import TurnFinished
from decode.observability.sink import open_sink
from decode.tui.app import Repl

pytestmark = [
    pytest.mark.integration,
    pytest.mark.filterwarnings("ignore:`verify=<str>` is deprecated:DeprecationWarning"),  # opik's own httpx call
]


async def test_each_repl_turn_is_a_chat_turn_trace_in_the_sessions_thread(project: Path, collector: Any) -> None:
    turns = project.parent / "turns.json"
    responses = [{"tool_calls": [{"name": "glob", "args": {"pattern": "*.md"}}]}, {"text": "No docs."}, {"text": "Hi."}]
    turns.write_text(json.dumps(responses))
    settings = Settings(opik_url_override=collector.url, _env_file=None)  # type: ignore[call-arg]

    with create_pipe_input() as keyboard:
        options = LoopOptions(project, model=f"script:{turns}")
        repl = Repl(console=Console(file=io.StringIO()), options=options, input=keyboard, output=DummyOutput())
    conversation = build_loop(repl.options, settings)
    assert isinstance(conversation.loop, TracedLoop)
    answers = []
    for prompt in ("any docs?", "hello"):
        async for event in conversation.loop.run_turn(prompt):
            if isinstance(event, TurnFinished):
                answers.append(event.output)
    sink = open_sink(settings)
    assert sink is not None
    sink.close(5)  # what happens at exit, bounded

    assert answers == ["No docs.", "Hi."]
    assert collector.wait_for(traces=2, spans=4), collector.paths()
    traces = sorted(collector.traces(), key=lambda trace: trace["start_time"])
    assert [trace["name"] for trace in traces] == ["chat_turn", "chat_turn"]
    assert {trace["thread_id"] for trace in traces} == {conversation.session.session_id}
    assert [trace["input"]["prompt"] for trace in traces] == ["any docs?", "hello"]
    first, second = (trace["id"] for trace in traces)
    assert sorted(span["type"] for span in collector.spans() if span["trace_id"] == first) == ["llm", "llm", "tool"]
    assert [span["type"] for span in collector.spans() if span["trace_id"] == second] == ["llm"]
