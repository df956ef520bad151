"""A Harbor environment on this machine, for tests: the container's paths mapped by bubblewrap.

`LocalEnvironment` implements Harbor's `BaseEnvironment` without Docker: a folder plays the
container's writable paths (`/app` or the task's workdir, `/tests`, `/solution`, `/logs`,
`/installed-agent`), every `exec` runs `bash -c` in a bubblewrap sandbox that binds them there
over the host's system folders (read-only). Its workspace is what the task's Dockerfile copies
(`evals.benchmark.workspace`). Imported only where harbor is installed.
"""

import asyncio
import shutil
from pathlib import Path

from harbor.environments.base import BaseEnvironment, ExecResult
from harbor.environments.capabilities import EnvironmentCapabilities

from evals.benchmark.grade import SYSTEM_FOLDERS
from evals.benchmark.tasks import load_task
from evals.benchmark.workspace import copy_build_context

WRITABLE = ("tests", "solution", "logs", "installed-agent")
LOG_FOLDERS = ("logs/agent", "logs/verifier", "logs/artifacts")
"""Made at start, as the folders Harbor mounts there in a container."""


class LocalEnvironment(BaseEnvironment):
    """Harbor's environment API on this machine; `root` holds what the container would."""

    @staticmethod
    def type() -> str:
        return "decode-local"

    @property
    def capabilities(self) -> EnvironmentCapabilities:
        return EnvironmentCapabilities()

    def _validate_definition(self) -> None:
        if not (self.environment_dir / "Dockerfile").is_file():
            raise FileNotFoundError(f"{self.environment_dir / 'Dockerfile'} not found")

    @property
    def root(self) -> Path:
        return self.trial_paths.trial_dir / "container"

    @property
    def workdir(self) -> str:
        return load_task(self.environment_dir.parent).workdir

    def host(self, path: str) -> Path:
        """Where container path `path` lives on this machine."""
        return self.root / path.lstrip("/")

    async def start(self, force_build: bool) -> None:
        for name in (self.workdir.lstrip("/"), *WRITABLE, *LOG_FOLDERS):
            (self.root / name).mkdir(parents=True, exist_ok=True)
        copy_build_context(load_task(self.environment_dir.parent), self.host(self.workdir))

    async def stop(self, delete: bool) -> None:
        if delete:
            shutil.rmtree(self.root, ignore_errors=True)

    async def upload_file(self, source_path: Path | str, target_path: str) -> None:
        self.host(target_path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source_path, self.host(target_path))

    async def upload_dir(self, source_dir: Path | str, target_dir: str) -> None:
        shutil.copytree(source_dir, self.host(target_dir), dirs_exist_ok=True)

    async def download_file(self, source_path: str, target_path: Path | str) -> None:
        Path(target_path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(self.host(source_path), target_path)

    async def download_dir(self, source_dir: str, target_dir: Path | str) -> None:
        shutil.copytree(self.host(source_dir), target_dir, dirs_exist_ok=True)

    async def exec(
        self,
        command: str,
        cwd: str | None = None,
        env: dict[str, str] | None = None,
        timeout_sec: int | None = None,
        user: str | int | None = None,
    ) -> ExecResult:
        args = ["bwrap"]
        for system in SYSTEM_FOLDERS:
            args += ["--ro-bind-try", system, system]
        args += [
            "--dev",
            "/dev",
            "--proc",
            "/proc",
            "--tmpfs",
            "/tmp",
            "--bind",
            str(self.host(self.workdir)),
            self.workdir,
        ]
        for extra in getattr(self, "read_only", ()):  # host folders a test exposes (decode's venv)
            args += ["--ro-bind", str(extra), str(extra)]
        for name in WRITABLE:
            args += ["--bind", str(self.root / name), f"/{name}"]
        args += ["--unshare-all", "--die-with-parent", "--chdir", cwd or self.workdir, "--", "bash", "-c", command]
        path = ":".join([*getattr(self, "path_first", ()), "/usr/local/bin:/usr/bin:/bin"])
        environment = {"PATH": path, "HOME": "/tmp", "LANG": "C.UTF-8", **(env or {})}
        process = await asyncio.create_subprocess_exec(
            *args, env=environment, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
        )
        stdout, stderr = await asyncio.wait_for(process.communicate(), timeout_sec)
        return ExecResult(stdout=stdout.decode(), stderr=stderr.decode(), return_code=process.returncode or 0)
