"""`decode run`'s answer on a pipe carries no terminal control sequence unless `--raw` asks for it.

A scripted model answers with an OSC 52 clipboard write, an OSC 0 window title, CSI colours and a
screen clear, 8-bit C1 forms, stray controls and Unicode bidi overrides; stdout is a pipe, as for
a script or `> file`.
"""

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from tests.conftest import script
from tests.integration.runtime.conftest import Headless, events

pytestmark = pytest.mark.integration

ANSWER = (
    "Done\x1b]52;c;cm0gLXJmIH4=\x07 \x1b[31mred\x1b[0m\x1b[2J"
    " title\x1b]0;owned\x1b\\ c1\x9b1m\x9d0;t\x9c back\x08\x08 cr\r\nline two\ttab"
    " file\u202egnp.exe \u2067iso\u2069 z\u200bw \U0001f469\u200d\U0001f4bb"
)
PLAIN = "Done red title c1 back cr\nline two\ttab filegnp.exe iso zw \U0001f469\u200d\U0001f4bb"
BIDI = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
CONTROLS = [chr(code) for code in (*range(0x00, 0x09), *range(0x0B, 0x20), *range(0x7F, 0xA0))]


def run(headless: Headless, project: Path, *args: str) -> str:
    model = script(project.parent / "turns.json", [{"text": ANSWER}])
    done = headless(*args, "--model", model, "answer", cwd=project)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_text_answer_on_a_pipe_has_no_control_sequence(project: Path, headless: Headless) -> None:
    stdout = run(headless, project)
    assert stdout == PLAIN + "\n"
    assert not any(control in stdout for control in [*CONTROLS, *BIDI])


def test_raw_gives_the_answer_as_the_model_wrote_it(project: Path, headless: Headless) -> None:
    assert run(headless, project, "--raw") == ANSWER + "\n"


def test_json_escapes_the_controls_and_keeps_the_answer(project: Path, headless: Headless) -> None:
    stdout = run(headless, project, "--output-format", "json")
    assert not any(control in stdout for control in CONTROLS if control != "\n")
    assert "\\u001b]52;c;" in stdout
    assert json.loads(stdout)["result"] == ANSWER


def test_stream_json_escapes_the_controls_on_every_line(
    project: Path, headless: Headless, validator: Draft202012Validator
) -> None:
    stdout = run(headless, project, "--output-format", "stream-json")
    assert not any(control in stdout for control in CONTROLS if control != "\n")
    lines = events(stdout, validator)
    assert [line["text"] for line in lines if line["type"] == "text"] == [ANSWER]
    assert lines[-1]["result"] == ANSWER
