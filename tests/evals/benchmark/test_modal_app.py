"""`python -m evals benchmark --env modal`, offline: the Modal app is defined (no token needed) and
its trial function runs here with `.local()` on a local task, a scripted model as the agent."""

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from modal._utils.async_utils import synchronizer

from decode.remote.definition import loader_arg
from evals.benchmark.commands import benchmark
from evals.benchmark.container_trial import trial_spec
from evals.benchmark.modal_app import build_app, provider_secret
from evals.benchmark.tasks import TASKS_ROOT, load_task
from evals.benchmark.workspace import prepare
from tests.evals.benchmark.conftest import FIX_ADD, copy_task, scripted

REPO = Path(__file__).parents[3]
DECODE = REPO / ".venv" / "bin" / "decode"
DOCKERFILE = "FROM python:3.12-slim-bookworm\nWORKDIR /app\nCOPY seed/ /app/\n"


def closure(function: Any) -> dict[str, Any]:
    """The values a Modal object's loader closes over: what it was defined with (decode.remote.definition)."""
    return dict(zip(function.__code__.co_freevars, (cell.cell_contents for cell in function.__closure__), strict=True))


def image_layers(image: Any) -> list[dict[str, Any]]:
    """Each layer of a Modal image, base first, as `closure`s; a Dockerfile's commands where Modal has them."""
    raw = synchronizer._translate_in(image)
    deps = raw._deps() if callable(raw._deps) else []  # None for an image from a Dockerfile
    layers = [
        layer
        for dep in deps
        if type(dep).__name__ == "_Image"
        for layer in image_layers(synchronizer._translate_out(dep))
    ]
    values = closure(raw._load)
    build = values.get("dockerfile_function")
    return [*layers, {**values, "commands": build("2025.06").commands if build else []}]


def test_the_app_has_a_function_per_task_on_the_tasks_own_image() -> None:
    tasks = [load_task(TASKS_ROOT / name) for name in ("fix-fahrenheit-converter", "write-greeting-script")]
    app, functions = build_app(tasks, "google-gla:gemini-flash-latest", threads=7, environ={"GEMINI_API_KEY": "k"})
    assert app.name == "decode-evals"
    assert sorted(functions) == ["fix-fahrenheit-converter", "write-greeting-script"]
    base, *layers = image_layers(loader_arg(functions["fix-fahrenheit-converter"], "image"))
    assert base["path"] == TASKS_ROOT / "fix-fahrenheit-converter" / "environment" / "Dockerfile"
    assert base["add_python"] is None  # a python: image keeps its own Python
    assert image_layers(loader_arg(functions["write-greeting-script"], "image"))[0]["add_python"] == "3.12"
    commands = [command for layer in layers for command in layer["commands"]]
    assert any("/opt/decode-venv/bin/pip install" in command for command in commands)
    assert loader_arg(functions["write-greeting-script"], "timeout") == 600 + 60 + 300
    assert loader_arg(functions["write-greeting-script"], "max_containers") == 7


def test_only_the_models_provider_keys_go_into_the_secret() -> None:
    environ = {"GEMINI_API_KEY": "g", "OPENAI_API_KEY": "o", "HOME": "/root"}
    secret = provider_secret("google-gla:gemini-flash-latest", environ)
    load = closure(synchronizer._translate_in(secret)._load)["load_env_dict"]
    assert closure(load)["env_dict_filtered"] == {"GEMINI_API_KEY": "g"}


@pytest.mark.integration
@pytest.mark.skipif(not DECODE.exists(), reason=f"no decode at {DECODE} (make install)")
@pytest.mark.parametrize(("script", "reward"), [(FIX_ADD, 1.0), ([{"text": "Nothing to do."}], 0.0)])
def test_the_trial_function_runs_locally_and_grades_the_agents_work(
    tmp_path: Path, script: list, reward: float
) -> None:
    folder = copy_task(tmp_path / "tasks", "fix-add")
    (folder / "environment" / "Dockerfile").write_text(DOCKERFILE)
    task = load_task(folder)
    root = tmp_path / "container"  # what the image holds: the workspace at /app, nothing at /tests
    prepare(task, root / "app")
    model = scripted(tmp_path / "script.json", script)
    _, functions = build_app([task], model)
    spec = trial_spec(task, model, root=str(root), decode=str(DECODE))
    record = functions["fix-add"].local(spec, 3)
    assert (record["task"], record["trial"], record["reward"]) == ("fix-add", 3, reward), record
    assert record["passed"] is (reward == 1.0)
    assert record["requests"] == len(script)
    assert record["exit_code"] == 0
    assert sorted(p.name for p in (root / "tests").iterdir()) == ["test.sh"]  # written in after the agent
    assert (root / "logs" / "verifier" / "reward.txt").read_text().strip() == str(int(reward))


def test_benchmark_on_modal_without_a_token_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MODAL_TOKEN_ID", "")
    monkeypatch.setenv("MODAL_TOKEN_SECRET", "")
    monkeypatch.setenv("MODAL_CONFIG_PATH", str(tmp_path / "none.toml"))
    result = CliRunner().invoke(benchmark, ["--env", "modal", "--tasks", "write-greeting-script", "-m", "script:x"])
    assert result.exit_code == 2, result.output
    assert result.output == (
        "error: Modal: no token (run `modal token new`, or set MODAL_TOKEN_ID and MODAL_TOKEN_SECRET)\n"
    )


def test_a_harbor_layout_task_named_for_a_local_run_is_refused_with_the_way_to_run_it() -> None:
    result = CliRunner().invoke(benchmark, ["--tasks", "write-greeting-script", "-m", "script:x", "--sandbox", "none"])
    assert result.exit_code == 2
    assert "write-greeting-script: Harbor's layout (/app) runs with --env modal or `harbor run`" in result.output
