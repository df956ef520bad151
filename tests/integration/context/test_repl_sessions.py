"""The REPL's sessions in a real terminal: `/compact`, then `decode --resume` picks the conversation up.

tmux runs `decode`; the test types with send-keys and reads the pane.
"""

import json
from pathlib import Path

import pytest

from decode.context.catalog import find_session
from decode.context.replay import load_session
from decode.context.windows import SUMMARY_MARK
from tests.integration.conftest import Terminal

pytestmark = pytest.mark.integration


def test_compact_then_resume_in_the_repl(terminal: Terminal, project: Path, decode: str) -> None:
    turns = project / "turns.json"
    answers = ["The answer is forty-two.", "## Goal\nFind the answer.\n## Progress\nIt is 42.", "Still forty-two."]
    turns.write_text(json.dumps([{"text": answer} for answer in answers]))
    terminal.start(f"{decode} --model script:{turns}; echo decode-exited-$?; sleep 60", project)
    terminal.wait_for_text("● ready")
    # Long enough to be worth summarising (a short history is left alone: a summary would only grow it).
    terminal.submit("what is the answer? " + "Think it through step by step. " * 30)
    terminal.wait_for_text("The answer is forty-two.")
    terminal.submit("/compact the number")
    terminal.wait_for_text("compacted 1 earlier message into a summary; the last one is kept verbatim")
    terminal.submit("/cost")
    terminal.wait_for_text("requests: 2")  # the turn and the summary
    terminal.submit("/quit")
    terminal.wait_for_text("decode-exited-0")

    saved = load_session(find_session(project))
    assert saved.turns == 1
    assert SUMMARY_MARK in saved.history[0].metadata

    # The script starts over in a new process: its first answer comes again, after the summary.
    terminal.start(f"{decode} --resume; echo decode-exited-$?; sleep 60", project)
    terminal.wait_for_text(f"resumed session {saved.session_id}: 2 messages, model")
    terminal.submit("and again?")
    terminal.wait_for_text("The answer is forty-two.")
    terminal.submit("/quit")
    terminal.wait_for_text("decode-exited-0")
    resumed = load_session(find_session(project))
    assert (resumed.session_id, resumed.turns, len(resumed.history)) == (saved.session_id, 2, 4)
    assert resumed.history[:2] == saved.history


def test_the_repl_forks_a_session_and_refuses_a_used_id(terminal: Terminal, project: Path, decode: str) -> None:
    named = "1d2c3b4a-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
    turns = project / "turns.json"
    turns.write_text(json.dumps([{"text": "The answer is forty-two."}]))
    terminal.start(f"{decode} --model script:{turns} --session-id {named}; echo decode-exited-$?; sleep 60", project)
    terminal.wait_for_text("● ready")
    terminal.submit("what is the answer?")
    terminal.wait_for_text("The answer is forty-two.")
    terminal.submit("/quit")
    terminal.wait_for_text(f"session {named} saved")
    terminal.wait_for_text("decode-exited-0")
    original = find_session(project, named)
    before = original.read_bytes()

    terminal.start(f"{decode} --resume {named[:6]} --fork-session; echo decode-exited-$?; sleep 60", project)
    screen = terminal.wait_for_text(": 2 messages, model")  # `resumed session <the fork's id>: 2 messages, …`
    assert f"resumed session {named}" not in screen
    terminal.submit("and again?")
    terminal.wait_for(lambda screen: screen.count("The answer is forty-two.") == 2, "the fork's answer")
    terminal.submit("/quit")
    terminal.wait_for_text("decode-exited-0")

    assert original.read_bytes() == before
    [fork] = [path for path in project.glob(".decode/sessions/*.jsonl") if path != original]
    forked = load_session(fork)
    assert (forked.turns, forked.header.forked_from) == (2, named)

    terminal.start(f"{decode} --session-id {named.upper()}; echo decode-exited-$?; sleep 60", project)
    screen = terminal.wait_for_text("decode-exited-2")
    assert f"decode: error: session id {named} is already used" in screen
