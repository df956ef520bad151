"""The Harbor adapter against the real Harbor classes: the commands it builds, and a real run.

Harbor is not a dependency of decode (it pulls in ~320 MB): in the project's environment this file
is skipped, and `make eval-harbor-check` (a CI step) runs it in a throwaway environment that adds
harbor 0.26.0 (`uv run --with`). Harbor itself needs Docker to run tasks, so the run below plays
the container's part: the command the adapter builds runs in a temporary workspace.
"""

import json
import shlex
import subprocess
from pathlib import Path

import pytest

pytest.importorskip("harbor", reason="no harbor here: `make eval-harbor-check` runs this file with it")

from harbor.agents.installed.base import BaseInstalledAgent
from harbor.models.agent.context import AgentContext

from evals.harbor_agent import RESULT_FILE, VENV, DecodeAgent

REPO = Path(__file__).parents[2]
DECODE = REPO / ".venv" / "bin" / "decode"


def agent(tmp_path: Path, **kwargs: object) -> DecodeAgent:
    return DecodeAgent(logs_dir=tmp_path / "logs", model_name="google-gla:gemini-flash-latest", **kwargs)


def test_it_is_a_harbor_installed_agent_named_decode(tmp_path: Path) -> None:
    assert issubclass(DecodeAgent, BaseInstalledAgent)
    assert DecodeAgent.name() == "decode"
    assert agent(tmp_path, source="decode").get_version_command() == f"{VENV}/bin/decode --version"


def test_it_installs_an_uploaded_wheel_or_a_pip_requirement(tmp_path: Path) -> None:
    wheel = tmp_path / "decode-0.1.0-py3-none-any.whl"
    wheel.write_bytes(b"PK")
    uploaded, requirement = agent(tmp_path, wheel=str(wheel)).install_source()
    assert (uploaded, requirement) == (wheel, "/installed-agent/decode-0.1.0-py3-none-any.whl")
    assert agent(tmp_path, source="git+https://example.org/decode.git").install_source() == (
        None,
        "git+https://example.org/decode.git",
    )
    command = agent(tmp_path, source="x").install_command("/installed-agent/decode 1.whl")
    assert command.startswith(
        f"python3 -m venv {VENV} && {VENV}/bin/pip install --quiet '/installed-agent/decode 1.whl'"
    )
    with pytest.raises(FileNotFoundError, match="uv build"):
        agent(tmp_path, wheel=str(tmp_path / "missing.whl")).install_source()
    with pytest.raises(ValueError, match="wheel=PATH"):
        agent(tmp_path).install_source()


def test_unknown_options_are_refused_by_harbor(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="Unknown option 'colour'"):
        agent(tmp_path, colour="blue")


def test_the_run_command_is_decode_headless_in_bypass_mode(tmp_path: Path) -> None:
    command = agent(tmp_path, source="x", max_requests=7).run_command("Fix the 'bug'; then stop.")
    argv = shlex.split(command.split(" > ")[0])
    assert argv == [
        "decode", "run", "--output-format", "json", "--permission-mode", "bypass",
        "--max-requests", "7", "--model", "google-gla:gemini-flash-latest", "Fix the 'bug'; then stop.",
    ]  # fmt: skip
    assert f"> /logs/agent/{RESULT_FILE}" in command


def test_only_the_models_provider_keys_are_passed_through(tmp_path: Path) -> None:
    host = {"GEMINI_API_KEY": "k", "HOME": "/root", "OPENAI_API_KEY": "other", "DECODE_MAX_REQUESTS": "9"}
    decode = DecodeAgent(logs_dir=tmp_path, model_name="google-gla:gemini-flash-latest", source="x")
    assert decode.run_env(host) == {"GEMINI_API_KEY": "k", "DECODE_MAX_REQUESTS": "9"}
    decode = DecodeAgent(logs_dir=tmp_path, model_name="openai-compatible:gpt-x", source="x")
    assert decode.run_env(host) == {"OPENAI_API_KEY": "other", "DECODE_MAX_REQUESTS": "9"}


@pytest.mark.skipif(not DECODE.exists(), reason=f"no decode at {DECODE} (make install)")
def test_a_real_run_of_the_command_fills_harbors_context(tmp_path: Path) -> None:
    script = tmp_path / "script.json"
    write = {"name": "write", "args": {"path": "a.txt", "content": "x\n"}}
    script.write_text(json.dumps([{"tool_calls": [write]}, {"text": "Done."}]))
    logs = tmp_path / "logs"
    logs.mkdir()
    workspace = tmp_path / "app"
    workspace.mkdir()
    # Harbor syncs the container's /logs/agent to logs_dir; here they are the same folder.
    decode = DecodeAgent(logs_dir=logs, model_name=f"script:{script}", source="x", environment_logs_dir=logs)
    env = {"PATH": f"{DECODE.parent}:/usr/bin:/bin", "HOME": str(tmp_path), "LANG": "C.UTF-8"}
    done = subprocess.run(
        ["bash", "-c", decode.run_command("Write a.txt.")], cwd=workspace, env=env, capture_output=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert (workspace / "a.txt").read_text() == "x\n"
    context = AgentContext()
    decode.populate_context_post_run(context)
    result = json.loads((logs / RESULT_FILE).read_text())
    assert context.n_input_tokens == result["usage"]["input_tokens"] > 0
    assert context.n_output_tokens == result["usage"]["output_tokens"] > 0
    assert context.cost_usd is None  # the Scripted Model has no price
    assert context.metadata is not None
    assert context.metadata["exit_code"] == 0
    assert context.metadata["num_requests"] == 2


def test_a_missing_result_leaves_the_context_empty(tmp_path: Path) -> None:
    context = AgentContext()
    agent(tmp_path, source="x").populate_context_post_run(context)
    assert context.is_empty()
