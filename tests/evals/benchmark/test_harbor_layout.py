"""Tasks in Terminal-Bench 2 / Harbor's own layout: no `seed/`, no category, scripts that name `/app`,
`/tests` and `/logs/verifier`. They load, their workspace is what the Dockerfile copies, their
oracle scores 1 and an untouched workspace 0."""

import json
import shutil
from pathlib import Path

import pytest

from evals.benchmark.dockerfile import DockerfileError, read_dockerfile
from evals.benchmark.grade import grade, read_rewards
from evals.benchmark.tasks import TASKS_ROOT, TaskError, load_task, load_tasks
from evals.benchmark.verify import verify
from evals.benchmark.workspace import prepare

HARBOR_TASKS = ["fix-fahrenheit-converter", "word-frequency-top5", "write-greeting-script"]
needs_bwrap = pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap maps /app, /tests: not installed")


def write_task(root: Path, toml: str, dockerfile: str | None = None) -> Path:
    """A minimal Harbor-layout task folder: task.toml, instruction.md, tests/test.sh, a Dockerfile."""
    (root / "tests").mkdir(parents=True)
    (root / "environment").mkdir()
    (root / "task.toml").write_text(toml)
    (root / "instruction.md").write_text("Do it.\n")
    (root / "tests" / "test.sh").write_text("echo 1 > /logs/verifier/reward.txt\n")
    if dockerfile is not None:
        (root / "environment" / "Dockerfile").write_text(dockerfile)
    return root


def test_the_harbor_tasks_here_have_no_seed_and_no_category() -> None:
    for name in HARBOR_TASKS:
        folder = TASKS_ROOT / name
        assert not (folder / "environment" / "seed").exists()
        assert "category" not in (folder / "task.toml").read_text()
        for part in ("instruction.md", "environment/Dockerfile", "tests/test.sh", "solution/solve.sh"):
            assert (folder / part).is_file(), f"{name}/{part}"
        task = load_task(folder)
        assert task.harbor_layout
        assert (task.category, task.workdir) == ("unknown", "/app")


def test_a_task_toml_with_only_a_verifier_timeout_takes_harbors_defaults(tmp_path: Path) -> None:
    task = load_task(write_task(tmp_path / "t", "[verifier]\ntimeout_sec = 30\n"))
    assert (task.difficulty, task.category, task.tags) == ("unknown", "unknown", ())
    assert (task.agent_timeout_s, task.verifier_timeout_s) == (600.0, 30.0)
    assert task.workdir == "/app"  # no Dockerfile: Terminal-Bench's working directory
    assert load_task(write_task(tmp_path / "u", "")).verifier_timeout_s == 600.0


def test_a_difficulty_filter_leaves_out_tasks_of_unknown_difficulty() -> None:
    easy = {task.name for task in load_tasks(difficulties=["easy"])}
    assert "word-frequency-top5" in easy
    assert "write-greeting-script" not in easy


def test_the_workdir_comes_from_the_dockerfile_or_harbors_override(tmp_path: Path) -> None:
    dockerfile = "FROM python:3.12-slim\nWORKDIR /srv\nWORKDIR work\n"
    assert load_task(write_task(tmp_path / "a", "", dockerfile)).workdir == "/srv/work"
    toml = '[environment]\nworkdir = "/code"\n'
    assert load_task(write_task(tmp_path / "b", toml, dockerfile)).workdir == "/code"
    with pytest.raises(TaskError, match=r"task\.toml: \[environment\] workdir must be an absolute folder"):
        load_task(write_task(tmp_path / "c", '[environment]\nworkdir = "rel"\n'))


def test_a_copy_the_dockerfile_cannot_make_here_is_refused_by_line(tmp_path: Path) -> None:
    folder = write_task(tmp_path / "t", "", "FROM x\n# a comment\nCOPY --from=build /out \\\n  /app/\n")
    with pytest.raises(TaskError, match=r"Dockerfile: .*Dockerfile:3: a copy from another stage"):
        load_task(folder)
    (folder / "environment" / "Dockerfile").write_text("FROM x\nADD https://example.org/a.tgz /app/\n")
    with pytest.raises(TaskError, match="a copy from a URL needs the network"):
        load_task(folder)
    (folder / "environment" / "Dockerfile").write_text("FROM x\nCOPY onlyone\n")
    with pytest.raises(DockerfileError, match="needs a source and a target"):
        read_dockerfile(folder / "environment")


def test_the_workspace_is_what_the_dockerfile_copies_into_the_workdir(tmp_path: Path) -> None:
    dockerfile = (
        "FROM python:3.12-slim\nWORKDIR /app\nCOPY a.txt /app/renamed.txt\nCOPY src/ ./\n"
        'COPY ["b.txt", "c.txt", "sub/"]\nCOPY tool /usr/local/bin/tool\nRUN apt-get install -y jq\n'
    )
    folder = write_task(tmp_path / "t", "", dockerfile)
    context = folder / "environment"
    for name in ("a.txt", "b.txt", "c.txt", "tool", "src/pkg/m.py"):
        (context / name).parent.mkdir(parents=True, exist_ok=True)
        (context / name).write_text(name)
    workspace = prepare(load_task(folder), tmp_path / "ws")
    files = sorted(str(path.relative_to(workspace)) for path in workspace.rglob("*") if path.is_file())
    assert files == ["pkg/m.py", "renamed.txt", "sub/b.txt", "sub/c.txt"]  # the tool went outside /app
    assert (workspace / "pkg" / "m.py").read_text() == "src/pkg/m.py"


def test_reward_json_is_read_before_reward_txt_as_harbor_does(tmp_path: Path) -> None:
    (tmp_path / "reward.txt").write_text("0\n")
    (tmp_path / "reward.json").write_text(json.dumps({"reward": 1.0, "tests_passed": 7}))
    assert read_rewards(tmp_path) == (1.0, None)
    (tmp_path / "reward.json").write_text(json.dumps({"accuracy": 0.5}))
    assert read_rewards(tmp_path) == (0.5, None)
    for bad, why in [({"a": 1, "b": 0}, 'no "reward" key'), ({"reward": "1"}, "not a number"), ([1], "no")]:
        (tmp_path / "reward.json").write_text(json.dumps(bad))
        reward, error = read_rewards(tmp_path)
        assert reward == 0.0
        assert error is not None
        assert why in error
    (tmp_path / "reward.json").write_text('{"reward": 2}')
    assert read_rewards(tmp_path)[1] == "reward.json is out of range 0..1: 2.0"


@needs_bwrap
def test_the_oracles_of_the_harbor_tasks_score_1_and_their_untouched_workspaces_0() -> None:
    result = verify(load_tasks(names=HARBOR_TASKS))
    assert result.ok, "\n".join(result.lines())
    assert [check.grade.reward for check in result.solutions] == [1.0, 1.0, 1.0]
    assert [check.grade.reward for check in result.seeds] == [0.0, 0.0, 0.0]


@needs_bwrap
def test_the_verifier_sees_harbors_paths_and_no_host_path(tmp_path: Path) -> None:
    folder = write_task(tmp_path / "t", "", "FROM x\nWORKDIR /app\nCOPY a.txt ./\n")
    (folder / "environment" / "a.txt").write_text("hello\n")
    (folder / "tests" / "test.sh").write_text(
        'echo "cwd=$PWD app=$APP_DIR tests=$TESTS_DIR reward=$REWARD_DIR"; cat /app/a.txt\n'
        "ls /tests; [ -e " + str(folder) + " ] && echo HOST-VISIBLE\necho 1 > /logs/verifier/reward.txt\n"
    )
    task = load_task(folder)
    result = grade(task, prepare(task, tmp_path / "ws"))
    assert result.reward == 1.0, result.output
    assert "cwd=/app app=/app tests=/tests reward=/logs/verifier\nhello\ntest.sh\n" in result.output
    assert "HOST-VISIBLE" not in result.output


def test_without_bwrap_a_harbor_task_is_not_graded_and_says_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    task = load_task(TASKS_ROOT / "write-greeting-script")
    workspace = prepare(task, tmp_path / "ws")
    monkeypatch.setenv("PATH", str(tmp_path))  # no bwrap on it
    result = grade(task, workspace)
    assert result.reward == 0.0
    assert result.error == "write-greeting-script names Harbor's paths (/app, /tests): grading needs bwrap"
