"""One trial: a real `decode run` on the scripted model in bubblewrap, graded by the task's verifier."""

import json
import os
import shutil
from pathlib import Path

import pytest

from evals.benchmark.tasks import load_task
from evals.benchmark.trial import agent_environment, resolve_model, run_trial
from tests.conftest import wait_for
from tests.evals.benchmark.conftest import FIX_ADD, FIXTURE_TASKS, copy_task, scripted

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed (apt install bubblewrap)"),
]

RECORD_KEYS = {
    "task", "trial", "difficulty", "category", "model", "reward", "passed", "exit_code", "requests",
    "input_tokens", "output_tokens", "cost_usd", "wall_s", "error", "session_id",
}  # fmt: skip
SECRET = "hunter2-XYZ"
KEY = "AIza-fake-123"


def test_a_trial_that_fixes_the_bug_scores_1(tmp_path: Path) -> None:
    task = load_task(FIXTURE_TASKS / "fix-add")

    record = run_trial(
        task, model=scripted(tmp_path / "fix.json", FIX_ADD), trial=1, sandbox="bwrap", results_dir=tmp_path
    )

    assert set(record) == RECORD_KEYS
    assert (record["reward"], record["passed"], record["exit_code"], record["error"]) == (1.0, True, 0, None)
    assert record["requests"] == 3  # read, edit, the answer
    assert record["input_tokens"] > 0
    assert record["output_tokens"] > 0
    trial_dir = tmp_path / "fix-add-1"
    assert "return a + b" in (trial_dir / "workspace" / "calc.py").read_text()
    assert not (trial_dir / "workspace" / ".decode").exists()  # the harness's files are moved out before grading
    assert list((trial_dir / "harness" / "sessions").glob(f"*{record['session_id']}*"))
    assert json.loads((trial_dir / "stdout.json").read_text())["session_id"] == record["session_id"]
    assert "PASS" in (trial_dir / "verifier.log").read_text()


def test_a_trial_that_changes_nothing_scores_0(tmp_path: Path) -> None:
    task = load_task(FIXTURE_TASKS / "fix-add")
    model = scripted(tmp_path / "idle.json", [{"text": "Looks fine to me."}])

    record = run_trial(task, model=model, trial=2, sandbox="bwrap", results_dir=tmp_path)

    assert (record["reward"], record["passed"], record["exit_code"], record["requests"]) == (0.0, False, 0, 1)
    assert "FAIL: calc.add does not add" in (tmp_path / "fix-add-2" / "verifier.log").read_text()


def test_an_agent_past_its_timeout_is_killed_with_all_it_started(tmp_path: Path) -> None:
    # 20 s, not 3: decode must reach the command before the timeout even on a loaded CI machine.
    task = load_task(copy_task(tmp_path / "tasks", "fix-add", "slow", agent_timeout_s=20))
    marker = "1000.4242"  # an argument no other process here has
    command = f"touch started && sleep {marker}"
    model = scripted(tmp_path / "slow.json", [{"tool_calls": [{"name": "bash", "args": {"command": command}}]}])
    results = tmp_path / "results"

    record = run_trial(task, model=model, trial=1, sandbox="bwrap", results_dir=results)

    assert (record["reward"], record["passed"]) == (0.0, False)
    assert record["error"] == "agent timed out after 20s"
    assert (results / "slow-1" / "workspace" / "started").exists()  # the sleep had begun when it was killed
    assert wait_for(lambda: not _processes_with(marker, results)), "processes of the trial are still running"


def test_no_secret_of_the_runner_reaches_the_agent_or_the_grader(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOST_SECRET", SECRET)
    monkeypatch.setenv("GEMINI_API_KEY", KEY)
    home = Path(os.environ["HOME"])
    (home / ".bash_history").write_text(f"export HOST_SECRET={SECRET}\n")
    task_dir = copy_task(tmp_path / "tasks", "fix-add", "probe")
    test_sh = task_dir / "tests" / "test.sh"
    test_sh.write_text("env | sed 's/^/GRADER-ENV /'\n" + test_sh.read_text())  # into verifier.log
    probe = "env; cat ~/.bash_history; cat /proc/1/environ | tr '\\0' '\\n'; echo \"[$HOST_SECRET][$GEMINI_API_KEY]\""
    model = scripted(
        tmp_path / "probe.json", [{"tool_calls": [{"name": "bash", "args": {"command": probe}}]}, {"text": "Done."}]
    )

    record = run_trial(load_task(task_dir), model=model, trial=1, sandbox="bwrap", results_dir=tmp_path / "results")

    trial_dir = tmp_path / "results" / "probe-1"
    session = "".join(path.read_text() for path in (trial_dir / "harness" / "sessions").glob("*.jsonl"))
    assert "PATH=/usr/local/bin:/usr/bin:/bin" in session  # the probe ran…
    assert "[][]" in session  # …and saw neither variable
    result = (trial_dir / "stdout.json").read_text() + (trial_dir / "stderr.log").read_text()
    verifier_log = (trial_dir / "verifier.log").read_text()
    for text in (session, result, json.dumps(record), verifier_log):
        assert SECRET not in text
        assert KEY not in text
    grader_env = [line.removeprefix("GRADER-ENV ") for line in verifier_log.splitlines() if "GRADER-ENV " in line]
    assert any(line.startswith("REWARD_DIR=") for line in grader_env)  # the grader's environment was dumped
    assert {line.split("=", 1)[0] for line in grader_env} <= {
        "PATH", "HOME", "LANG", "APP_DIR", "TESTS_DIR", "REWARD_DIR", "PWD", "SHLVL", "_", "OLDPWD",
    }  # fmt: skip


def test_only_the_models_provider_variables_reach_the_run(tmp_path: Path) -> None:
    host = {"GEMINI_API_KEY": KEY, "OPENROUTER_API_KEY": "sk-or", "HOST_SECRET": SECRET, "PATH": "/opt/x"}

    gemini = agent_environment("google-gla:gemini-flash-latest", tmp_path, host)
    scripted_env = agent_environment("script:x.json", tmp_path, host)

    assert gemini == {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": str(tmp_path), "LANG": "C.UTF-8",
                      "TERM": "dumb", "GEMINI_API_KEY": KEY}  # fmt: skip
    assert "GEMINI_API_KEY" not in scripted_env
    assert "HOST_SECRET" not in scripted_env


def test_the_model_string_names_each_tasks_script(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    task = load_task(FIXTURE_TASKS / "fix-add")

    assert resolve_model("script:smoke/{task}.json", task) == f"script:{tmp_path}/smoke/fix-add.json"
    assert resolve_model("google-gla:gemini-flash-latest", task) == "google-gla:gemini-flash-latest"


def _processes_with(marker: str, folder: Path) -> list[int]:
    """Live processes whose command line holds `marker` or whose working directory is under `folder`."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            if (entry / "stat").read_text().rsplit(")", 1)[1].split()[0] == "Z":
                continue  # dead, waiting to be reaped
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            cwd = os.readlink(entry / "cwd")
        except OSError:
            continue  # gone meanwhile, or not ours to look at
        if marker in cmdline or cwd.startswith(str(folder)):
            found.append(int(entry.name))
    return found


REPOSITORY = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize(
    "command",
    [
        "bash {task}/solution/solve.sh",  # the task's own solution, on the host's read-only disk
        "git --git-dir={repo}/.git show HEAD:evals/tasks/{name}/solution/solve.sh | bash",  # its history
        "ln -s {task}/solution s && bash s/solve.sh",  # a link into the tasks folder
    ],
)
def test_in_bwrap_the_agent_cannot_read_the_answer_key(tmp_path: Path, command: str) -> None:
    task = load_task(REPOSITORY / "evals" / "tasks" / "csv-sales-summary")
    command = command.format(task=task.path, repo=REPOSITORY, name=task.name)
    model = scripted(
        tmp_path / "cheat.json", [{"tool_calls": [{"name": "bash", "args": {"command": command}}]}, {"text": "Done."}]
    )

    record = run_trial(task, model=model, trial=1, sandbox="bwrap", results_dir=tmp_path / "job")

    assert (record["reward"], record["exit_code"]) == (0.0, 0), record
    assert not (tmp_path / "job" / "csv-sales-summary-1" / "workspace" / "summary.json").exists()
