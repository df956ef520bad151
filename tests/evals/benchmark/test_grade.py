"""The grader does not take the workspace's word: a verifier cut short, a `.git` redirected, or a
process the verifier started that outlives it, scores 0; the verifier's sandbox holds no host secret."""

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from evals.benchmark.grade import grade
from evals.benchmark.tasks import TASKS_ROOT, load_task
from evals.benchmark.workspace import prepare
from tests.evals.benchmark.conftest import copy_task

pytestmark = pytest.mark.integration


def solved(tmp_path: Path, name: str) -> tuple[Path, Path]:
    """A copy of fixture task `name` and a workspace its solution solved."""
    task_dir = copy_task(tmp_path / "tasks", name)
    workspace = prepare(load_task(task_dir), tmp_path / "work")
    subprocess.run(["bash", str(task_dir / "solution" / "solve.sh")], cwd=workspace, check=True)
    return task_dir, workspace


def test_a_verifier_that_writes_1_and_is_then_killed_scores_0(tmp_path: Path) -> None:
    task_dir, workspace = solved(tmp_path, "fix-add")
    assert grade(load_task(task_dir), workspace).reward == 1.0  # the solved workspace, graded honestly
    # Code the verifier runs writes the reward, then kills the verifier before it can check anything.
    cheat = 'mkdir -p "$REWARD_DIR"; echo 1 > "$REWARD_DIR/reward.txt"; kill -9 $$\n'
    (task_dir / "tests" / "test.sh").write_text(cheat)
    result = grade(load_task(task_dir), workspace)
    assert (result.reward, result.passed) == (0.0, False)
    assert "exited" in (result.error or "")


def test_a_git_dir_pointed_at_another_config_is_not_graded(tmp_path: Path) -> None:
    task_dir, workspace = solved(tmp_path, "write-greeting")
    assert grade(load_task(task_dir), workspace).reward == 1.0
    evil = workspace / ".evilgit"
    evil.mkdir()
    (evil / "config").write_text(f"[core]\n\tfsmonitor = touch {tmp_path / 'ran-on-host'}\n")
    (workspace / ".git" / "commondir").write_text("../.evilgit\n")
    result = grade(load_task(task_dir), workspace)
    assert (result.reward, result.passed) == (0.0, False)
    assert "commondir" in (result.error or "")
    assert not (tmp_path / "ran-on-host").exists()


needs_bwrap = pytest.mark.skipif(
    shutil.which("bwrap") is None, reason="bubblewrap is not installed: the verifier runs unsandboxed"
)

KEEPS_WRITING = """
import os, time
path = os.path.join(os.environ["REWARD_DIR"], "reward.txt")
for _ in range(2000):  # ~10 s, so it cannot outlive a run on a machine without the verifier's sandbox
    with open(path + ".new", "w") as new:
        new.write("1")
    os.replace(path + ".new", path)
    time.sleep(0.005)
"""
"""A daemon that writes 1 over the reward again and again."""

WRITES_ONCE_AFTER = """
import os, sys, time
shell = int(sys.argv[1])
while True:  # until test.sh's shell has ended (and been reaped): its last `echo 0` is done
    try:
        os.kill(shell, 0)
    except ProcessLookupError:
        break
    time.sleep(0.001)
with open(os.path.join(os.environ["REWARD_DIR"], "reward.txt"), "w") as reward:
    reward.write("1")
"""
"""A daemon that writes 1 once, after test.sh has ended, then exits."""

FIND_THE_SHELL = """
shell = 2  # test.sh's shell: the second process of the verifier's pid namespace (verifier_init is 1)
"""
"""Sets `shell` to the pid of test.sh's shell (the sandbox keeps /proc's files closed to look it up)."""


def plant_daemon(workspace: Path, code: str) -> None:
    """Make the unsolved `calc.py` start `code` in a session of its own when the verifier imports it.

    `code` gets the pid of test.sh's shell as its argument.
    """
    daemon = (
        f"import os, subprocess, sys\n{FIND_THE_SHELL}\n"
        f"subprocess.Popen([sys.executable, '-c', {code!r}, str(shell)], start_new_session=True,"
        " stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
    )
    calc = workspace / "calc.py"
    calc.write_text(daemon + calc.read_text())


@needs_bwrap
@pytest.mark.parametrize("code", [KEEPS_WRITING, WRITES_ONCE_AFTER], ids=["keeps-writing", "writes-once-after"])
def test_a_process_the_verifier_started_that_writes_the_reward_after_it_scores_0(tmp_path: Path, code: str) -> None:
    task_dir = copy_task(tmp_path / "tasks", "fix-add")
    workspace = prepare(load_task(task_dir), tmp_path / "work")  # the seed: calc.add still subtracts
    plant_daemon(workspace, code)
    result = grade(load_task(task_dir), workspace)
    assert (result.reward, result.passed) == (0.0, False)
    assert result.error == "a process the verifier started outlived it or wrote after it"


LOCKS_THE_FILE = "os.chmod(reward, 0o444)"
LOCKS_THE_FOLDER = "os.chmod(reward, 0o444); os.chmod(folder, 0o555)"
LINKS_TO_A_LOCKED_ONE = (
    "one = os.path.abspath('one.txt'); open(one, 'w').write('1'); os.chmod(one, 0o444);"
    " os.unlink(reward); os.symlink(one, reward)"
)


@pytest.mark.parametrize(
    "lock", [LOCKS_THE_FILE, LOCKS_THE_FOLDER, LINKS_TO_A_LOCKED_ONE], ids=["file", "folder", "link"]
)
def test_a_reward_locked_so_that_test_sh_cannot_write_it_last_scores_0(tmp_path: Path, lock: str) -> None:
    task_dir = copy_task(tmp_path / "tasks", "fix-add")
    workspace = prepare(load_task(task_dir), tmp_path / "work")  # the seed: calc.add still subtracts
    cheat = (  # run by the tests' own python when it imports calc.py: no process outlives anything
        "import os\nfolder = os.environ['REWARD_DIR']; reward = os.path.join(folder, 'reward.txt')\n"
        f"open(reward, 'w').write('1')\n{lock}\n"
    )
    calc = workspace / "calc.py"
    calc.write_text(cheat + calc.read_text())
    result = grade(load_task(task_dir), workspace)
    assert (result.reward, result.passed) == (0.0, False)
    assert "reward.txt" in (result.error or "")


LOWERS_THE_SHELLS_LIMITS = (
    "import os, resource\n"
    + FIND_THE_SHELL
    + """
open(os.path.join(os.environ["REWARD_DIR"], "reward.txt"), "w").write("1")
resource.prlimit(shell, resource.RLIMIT_NOFILE, (3, 3))  # its final `echo 0` cannot open the file
"""
)


def plant_in_process(workspace: Path, code: str) -> None:
    """Make the unsolved `calc.py` run `code` in the tests' own python when it is imported."""
    calc = workspace / "calc.py"
    calc.write_text(code + "\n" + calc.read_text())


@needs_bwrap
def test_workspace_code_that_lowers_the_verifier_shells_limits_scores_0(tmp_path: Path) -> None:
    task_dir = copy_task(tmp_path / "tasks", "fix-add")
    workspace = prepare(load_task(task_dir), tmp_path / "work")
    plant_in_process(workspace, LOWERS_THE_SHELLS_LIMITS)
    result = grade(load_task(task_dir), workspace)
    assert (result.reward, result.passed) == (0.0, False)
    assert "Too many open files" not in result.output


REACHES_INTO_THE_SHELL = """
import ctypes, os, resource, sys
libc = ctypes.CDLL(None, use_errno=True)
numbers = {"x86_64": (101, 311, 438), "aarch64": (117, 271, 438)}[os.uname().machine]
calls = {"ptrace": (16, 2, 0, 0), "process_vm_writev": (2, 0, 0, 0), "pidfd_getfd": (0, 0, 0, 0)}  # attach to pid 2
for (name, args), number in zip(calls.items(), numbers):
    result = libc.syscall(number, *[ctypes.c_long(a) for a in args])
    print(name, "refused" if result == -1 and ctypes.get_errno() == 1 else f"allowed {result}", file=sys.stderr)
resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))  # its own limits stay its own to set
print("own limit", resource.getrlimit(resource.RLIMIT_NOFILE), file=sys.stderr)
for name, mode in (("mem", "r+b"), ("mem", "rb"), ("environ", "rb")):  # test.sh's shell is pid 2
    try:
        open(f"/proc/2/{name}", mode)
        print(name, mode, "opened", file=sys.stderr)
    except OSError as exc:
        print(name, mode, exc.strerror, file=sys.stderr)
"""


@needs_bwrap
def test_workspace_code_cannot_reach_into_the_verifiers_processes(tmp_path: Path) -> None:
    task_dir = copy_task(tmp_path / "tasks", "fix-add")
    workspace = prepare(load_task(task_dir), tmp_path / "work")
    plant_in_process(workspace, REACHES_INTO_THE_SHELL)
    output = grade(load_task(task_dir), workspace).output
    for name in ("ptrace", "process_vm_writev", "pidfd_getfd"):
        assert f"{name} refused" in output, output
    assert "own limit (64, 64)" in output
    for name, mode in (("mem", "r+b"), ("mem", "rb"), ("environ", "rb")):  # the files of /proc are closed
        assert f"{name} {mode} Permission denied" in output, output


def writable_outside_tmp() -> Path | None:
    """A folder for a fake home that the sandbox's own `/tmp` does not already cover, if any."""
    for folder in (Path("/var/tmp"), Path.cwd()):
        if os.access(folder, os.W_OK):
            return folder
    return None


@needs_bwrap
def test_the_verifier_reads_no_host_secret_and_writes_nothing_outside_the_workspace(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    place = writable_outside_tmp()
    if place is None:
        pytest.skip("no writable folder outside /tmp for a fake home")
    home = Path(tempfile.mkdtemp(prefix="decode-test-home-", dir=place))
    try:
        secrets = {".bashrc": "export GEMINI_API_KEY=sk-runner-bashrc", ".config/anthropic/api_key": "sk-runner-config"}
        secrets["projects/app/.env"] = "OPENAI_API_KEY=sk-runner-nested-env"
        for name, text in secrets.items():
            (home / name).parent.mkdir(parents=True, exist_ok=True)
            (home / name).write_text(text + "\n")
        monkeypatch.setenv("HOME", str(home))
        task_dir, workspace = solved(tmp_path, "fix-add")
        outside = home / "written-by-the-verifier"
        reads = " ".join(f"cat {home / name};" for name in secrets)
        test_sh = task_dir / "tests" / "test.sh"
        test_sh.write_text(f"{reads} touch {outside}\n" + test_sh.read_text())
        result = grade(load_task(task_dir), workspace)
        assert result.reward == 1.0  # the solution still passes: only what it must not see is gone
        assert "sk-runner" not in result.output
        assert not outside.exists()
    finally:
        shutil.rmtree(home)


DEEP_TREE = """
import os
os.chdir(os.environ["HOME"])  # the verifier's own home, in the grader's scratch folder
for _ in range(3000):
    os.mkdir("d")
    os.chdir("d")
"""


def test_a_verifier_that_leaves_a_tree_too_deep_to_recurse_is_graded_and_cleaned_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    scratch_parent = tmp_path / "scratch"
    scratch_parent.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch_parent))
    task_dir = copy_task(tmp_path / "tasks", "fix-add")
    workspace = prepare(load_task(task_dir), tmp_path / "work")
    plant_in_process(workspace, DEEP_TREE)
    result = grade(load_task(task_dir), workspace)  # shutil.rmtree raised RecursionError here
    assert (result.reward, result.passed) == (0.0, False)
    assert list(scratch_parent.iterdir()) == []


# Issue 25, section 8: workspace code the tests import runs in a child that holds no proof (ADR-0088).
# Each attack is planted at the top of the unsolved seed's own module (pagination's pager.py).
FRAME_WALK = """
import os, re, sys
def _forge():  # find the proof's secret and its destination in any frame of this interpreter
    nonces, paths = set(), set()
    frame = sys._getframe()
    while frame is not None:
        for value in list(frame.f_locals.values()) + list(frame.f_globals.values()):
            if isinstance(value, str) and re.fullmatch(r"[0-9a-f]{32}", value.strip()):
                nonces.add(value.strip())
            elif isinstance(value, (str, os.PathLike)) and os.path.isfile(value) and not str(value).endswith(".py"):
                paths.add(os.fspath(value))
        frame = frame.f_back
    for nonce in nonces:
        print(nonce, flush=True)  # a proof read from stdout, too
        for path in paths:
            try:
                with open(path, "w") as file:
                    file.write(nonce + "\\n")
            except OSError:
                pass
    if nonces:
        os._exit(0)
_forge()
"""
PATCHES_THE_OUTCOME = """
import unittest
def _passes(self, result=None):  # every test reports success without running
    result.startTest(self); result.addSuccess(self); result.stopTest(self)
unittest.TestCase.run = unittest.TestCase.__call__ = _passes
"""
EXITS_0_AT_IMPORT = "import os\nos._exit(0)\n"
ATEXIT_WRITES_THE_REWARD = """
import atexit, os
def _reward():
    for folder in (os.environ.get("REWARD_DIR"), "/logs/verifier"):
        if folder:
            try:
                open(os.path.join(folder, "reward.txt"), "w").write("1")
            except OSError:
                pass
atexit.register(_reward)
"""
READS_PROC_SELF = """
import os
found = []
for name in ("cmdline", "environ"):
    try:
        found += open(f"/proc/self/{name}", "rb").read().split(b"\\0")
    except OSError:
        pass
found += [value.encode() for value in os.environ.values()]
for raw in found:  # every file named there that the workspace does not own: a proof to forge
    path = raw.decode(errors="replace").split("=")[-1]
    if os.path.isfile(path) and not path.endswith(".py") and not path.startswith(os.getcwd()):
        try:
            open(path, "w").write("1\\n")
        except OSError:
            pass
"""


ATTACKS = {
    "frame-walk": FRAME_WALK,
    "patched-outcome": PATCHES_THE_OUTCOME,
    "os-exit-0": EXITS_0_AT_IMPORT,
    "atexit-reward": ATEXIT_WRITES_THE_REWARD,
    "proc-self": READS_PROC_SELF,
}
CASES = [("fix-off-by-one-pagination", "pager.py", name) for name in ATTACKS]
CASES += [("fix-circular-import", "shop/__init__.py", name) for name in ("frame-walk", "patched-outcome")]


@pytest.mark.parametrize(("task", "module", "attack"), CASES, ids=[f"{t}-{a}" for t, _, a in CASES])
def test_workspace_code_the_tests_import_cannot_forge_a_pass(
    tmp_path: Path, task: str, module: str, attack: str
) -> None:
    task_dir = tmp_path / "tasks" / task
    shutil.copytree(TASKS_ROOT / task, task_dir)
    workspace = prepare(load_task(task_dir), tmp_path / "work")
    seed_module = workspace / module
    seed_module.write_text(ATTACKS[attack] + "\n" + seed_module.read_text())
    result = grade(load_task(task_dir), workspace)
    assert (result.reward, result.passed) == (0.0, False), result.output


def test_without_the_verifiers_sandbox_the_judge_still_holds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The judge's split does not rest on bwrap: where it is missing, test.sh runs on the host.
    monkeypatch.setattr("evals.benchmark.grade.shutil.which", lambda name: None)
    for attack in ("frame-walk", "patched-outcome", "proc-self"):
        test_workspace_code_the_tests_import_cannot_forge_a_pass(
            tmp_path / attack, "fix-off-by-one-pagination", "pager.py", attack
        )


LOOKS_AROUND = """
import os, sys
print("environment:", sorted(os.environ), file=sys.stderr)
for path in [{tests!r} + "/test_hidden.py", "/proc/self/environ", "/proc/1/cmdline"]:
    try:
        open(path, "rb").read(1)
        print("read", path, file=sys.stderr)
    except OSError as exc:
        print("refused", path, exc.strerror, file=sys.stderr)
"""


def test_the_child_that_imports_workspace_code_sees_no_test_and_no_secret(tmp_path: Path) -> None:
    task_dir = tmp_path / "tasks" / "fix-off-by-one-pagination"
    shutil.copytree(TASKS_ROOT / task_dir.name, task_dir)
    workspace = prepare(load_task(task_dir), tmp_path / "work")
    subprocess.run(["bash", str(task_dir / "solution" / "solve.sh")], cwd=workspace, check=True, capture_output=True)
    pager = workspace / "pager.py"
    tests = "/tests" if shutil.which("bwrap") else str(task_dir / "tests")  # where the verifier sees them
    pager.write_text(LOOKS_AROUND.format(tests=tests) + pager.read_text())
    result = grade(load_task(task_dir), workspace)
    assert result.reward == 1.0, result.output  # the solution still passes: its values are right
    assert "environment: ['HOME', 'LANG', 'PATH']" in result.output
    for path in (f"{tests}/test_hidden.py", "/proc/self/environ", "/proc/1/cmdline"):
        assert f"refused {path} Permission denied" in result.output, result.output
