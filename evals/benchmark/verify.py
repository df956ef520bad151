"""The verifier proof: every task's reference solution scores 1 and its untouched seed scores 0.

    result = verify(load_tasks())        # solve.sh inside bubblewrap, then the verifier
    print("\\n".join(result.lines()))     # solutions: 12/12 score 1 / seeds: 12/12 score 0 / …

A verifier that passes the seed measures nothing; one that fails the solution measures a bug in
the task. `solution/solve.sh` runs inside the benchmark's sandbox (decode's bubblewrap backend, as
the agent's commands do), fed on stdin to `bash -s` so no copy of it lands in the graded
workspace. `sandbox="none"` runs it as a plain subprocess. A task in Harbor's own layout gets
what Harbor's oracle gives it: `solution/` at `/solution`, run in the workspace mapped at the
task's working directory (`/app`), in a bubblewrap sandbox without network.
"""

import asyncio
import contextlib
import logging
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from evals.benchmark.grade import SYSTEM_FOLDERS, Grade, grade, run_verifier
from evals.benchmark.tasks import Task
from evals.benchmark.workspace import WorkspaceError, clean_environment, prepare, workspace_path

logger = logging.getLogger(__name__)

WORKERS = 2
"""Tasks checked at once: each is mostly waiting on subprocesses."""


@dataclass(frozen=True)
class Check:
    """One task's solution or seed, graded; `ok` when it scored what it must."""

    task: str
    kind: str  # "solution" | "seed"
    grade: Grade

    @property
    def ok(self) -> bool:
        return self.grade.passed if self.kind == "solution" else self.grade.reward == 0.0 and not self.broken

    @property
    def broken(self) -> bool:
        """The verifier itself failed on the seed (no reward written, a crash): the task is broken,
        whatever it would score; a seed scores 0 only when the verifier says so."""
        return self.kind == "seed" and self.grade.error is not None


@dataclass
class VerifyResult:
    """Every check of a `verify` run, and how long it took."""

    solutions: list[Check] = field(default_factory=list)
    seeds: list[Check] = field(default_factory=list)
    wall_s: float = 0.0

    @property
    def failures(self) -> list[Check]:
        return [check for check in (*self.solutions, *self.seeds) if not check.ok]

    @property
    def ok(self) -> bool:
        return not self.failures

    def lines(self, tail: int = 15) -> list[str]:
        """The report: the two counts, each failure with the grader's output tail, the wall time."""
        passed = sum(check.ok for check in self.solutions)
        zeroed = sum(check.ok for check in self.seeds)
        lines = [f"solutions: {passed}/{len(self.solutions)} score 1", f"seeds: {zeroed}/{len(self.seeds)} score 0"]
        for check in self.failures:
            if check.broken:
                lines.append(f"BROKEN {check.task} (the verifier failed on the seed: {check.grade.error})")
                lines += ["    " + line for line in check.grade.output.splitlines()[-tail:]]
                continue
            wanted = 1 if check.kind == "solution" else 0
            why = f": {check.grade.error}" if check.grade.error else ""
            lines.append(f"FAIL {check.task} ({check.kind} scored {check.grade.reward:g}, not {wanted}){why}")
            lines += ["    " + line for line in check.grade.output.splitlines()[-tail:]]
        lines.append(f"wall time: {self.wall_s:.1f}s")
        return lines


def verify(tasks: list[Task], sandbox: str = "bwrap") -> VerifyResult:
    """Check every task's solution (run in `sandbox`: bwrap or none) and its seed; see the module docstring."""
    started = time.monotonic()
    checks = asyncio.run(_check_all(tasks, sandbox))
    result = VerifyResult(wall_s=time.monotonic() - started)
    for solution, seed in checks:
        result.solutions.append(solution)
        result.seeds.append(seed)
    return result


async def _check_all(tasks: list[Task], sandbox: str) -> list[tuple[Check, Check]]:
    # One event loop for every sandboxed command, not a loop per thread: decode's process
    # tracking (decode.processes.tracking) is per process, and ends what it takes for a command's
    # leftovers; it stays exact only when one loop starts them all.
    slots = asyncio.Semaphore(WORKERS)

    async def check(task: Task) -> tuple[Check, Check]:
        async with slots:
            return await _check_task(task, sandbox)

    return list(await asyncio.gather(*(check(task) for task in tasks)))


async def _check_task(task: Task, sandbox: str) -> tuple[Check, Check]:
    with tempfile.TemporaryDirectory(prefix=f"decode-verify-{task.name}-") as scratch:
        try:
            solved = await asyncio.to_thread(prepare, task, workspace_path(Path(scratch), "solution"))
            output, error = await solve(task, solved, sandbox)
            graded = await asyncio.to_thread(grade, task, solved) if error is None else Grade(0.0, False, output, error)
            seed_workspace = await asyncio.to_thread(prepare, task, workspace_path(Path(scratch), "seed"))
            seed = await asyncio.to_thread(grade, task, seed_workspace)
        except WorkspaceError as exc:
            failed = Grade(0.0, False, "", str(exc))
            return Check(task.name, "solution", failed), Check(task.name, "seed", Grade(1.0, False, "", str(exc)))
    logger.info("%s: solution %s, seed %s", task.name, graded.reward, seed.reward)
    return Check(task.name, "solution", graded), Check(task.name, "seed", seed)


async def solve(task: Task, workspace: Path, sandbox: str) -> tuple[str, str | None]:
    """Run `task`'s solve.sh in `workspace` (in `sandbox`, or none); its output, and an error if it failed."""
    if task.harbor_layout:
        return await asyncio.to_thread(_solve_at_harbors_paths, task, workspace)
    script = task.solution_script.read_bytes()
    if sandbox == "none":
        return await asyncio.to_thread(_solve_here, script, workspace, task.agent_timeout_s)
    return await _solve_in_sandbox(script, workspace, sandbox, task.agent_timeout_s)


CONTAINER_SOLUTION = "/solution"
"""Where Harbor's oracle agent puts a task's `solution/`."""


def _solve_at_harbors_paths(task: Task, workspace: Path) -> tuple[str, str | None]:
    if (bwrap := shutil.which("bwrap")) is None:
        return "", f"{task.name} names Harbor's paths ({task.workdir}, /solution): its oracle needs bwrap"
    args = [bwrap]
    for system in SYSTEM_FOLDERS:
        args += ["--ro-bind-try", system, system]
    args += ["--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp", "--tmpfs", "/run"]
    args += ["--ro-bind", str(task.solution_script.parent), CONTAINER_SOLUTION, "--bind", str(workspace), task.workdir]
    args += ["--unshare-all", "--die-with-parent", "--new-session", "--chdir", task.workdir]
    with tempfile.TemporaryDirectory(prefix="decode-solve-home-") as home:
        args += ["--bind", home, home, "--", "bash", f"{CONTAINER_SOLUTION}/{task.solution_script.name}"]
        code, output = run_verifier(
            args, cwd=workspace, env=clean_environment(Path(home)), timeout=task.agent_timeout_s
        )
    if code is None:
        return output, f"solve.sh timed out after {task.agent_timeout_s:g}s"
    return output, None if code == 0 else f"solve.sh exited {code}"


def _solve_here(script: bytes, workspace: Path, timeout_s: float) -> tuple[str, str | None]:
    with tempfile.TemporaryDirectory(prefix="decode-solve-home-") as home:
        try:
            done = subprocess.run(
                ["bash", "-s"],
                input=script,
                cwd=workspace,
                env=clean_environment(Path(home)),
                capture_output=True,
                timeout=timeout_s,
                check=False,
            )
        except subprocess.TimeoutExpired:
            return "", f"solve.sh timed out after {timeout_s:g}s"
    output = (done.stdout + done.stderr).decode("utf-8", "replace")
    return output, None if done.returncode == 0 else f"solve.sh exited {done.returncode}"


async def _solve_in_sandbox(script: bytes, workspace: Path, sandbox: str, timeout_s: float) -> tuple[str, str | None]:
    from decode.config.settings import Settings
    from decode.entities.executor import ExecRequest
    from decode.sandbox.backends import checked_backend
    from decode.sandbox.environment import sandbox_environment
    from decode.sandbox.executor import SandboxExecutor
    from decode.sandbox.types import SandboxMode

    # What `open_sandbox` builds, without its process-wide registry (meant for a front end closing
    # every sandbox at exit): here each worker thread opens and closes its own.
    settings = Settings(_env_file=None, sandbox_git_token=None, sandbox_network=False)  # type: ignore[call-arg]
    backend = checked_backend(SandboxMode(sandbox), workspace, settings)
    executor = SandboxExecutor(backend, env=sandbox_environment(settings), network=False)
    output = bytearray()
    made_harness = not (workspace / ".decode").exists()
    try:
        result = await executor.run(
            ExecRequest(
                ["bash", "-s"], timeout=timeout_s, on_stdout=output.extend, on_stderr=output.extend, stdin=script
            )
        )
    finally:
        await executor.close()
        if made_harness:  # the backend makes an empty .decode/ for decode's own files: not the solution's
            with contextlib.suppress(OSError):
                (workspace / ".decode").rmdir()
    text = output.decode("utf-8", "replace")
    if result.timed_out:
        return text, f"solve.sh timed out after {timeout_s:g}s"
    return text, None if result.exit_code == 0 else f"solve.sh exited {result.exit_code}"
