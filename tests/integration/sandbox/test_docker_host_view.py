"""What a Docker sandbox's commands see besides the Workspace (ADR-0086), with a private dockerd.

`.decode/` (sessions, memory) cannot be read; `.git`, `.claude/` and every nested repository's
`.git` cannot be written; nothing of the home is there but what the user adds, read-only.
"""

import shutil
import subprocess
import tempfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from decode.config.settings import Settings
from decode.entities.executor import ExecRequest, ExecResult
from decode.sandbox.backends import close_sandboxes, open_sandbox
from decode.sandbox.executor import SandboxExecutor
from decode.sandbox.types import SandboxMode

pytestmark = pytest.mark.integration

SECRET = "host-secret-5f1c"


@pytest.fixture
def home(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A home outside `/tmp` with a secret, a note a build reads, and a credential under `.config`."""
    root = Path(tempfile.mkdtemp(prefix="decode-home-", dir="/var/tmp"))
    for name, text in {".gitconfig": SECRET, "notes/build.txt": "notes\n", ".config/gh/hosts.yml": SECRET}.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    monkeypatch.setenv("HOME", str(root))
    yield root
    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    root = (tmp_path / "ws").resolve()
    root.mkdir()
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    (root / ".decode" / "sessions").mkdir(parents=True)
    (root / ".decode" / "sessions" / "s1.jsonl").write_text(SECRET)
    (root / ".decode" / "MEMORY.md").write_text(SECRET)
    (root / ".decode" / "skills" / "check").mkdir(parents=True)
    (root / ".decode" / "skills" / "check" / "SKILL.md").write_text("run the checks\n")
    (root / ".claude").mkdir()
    (root / ".claude" / "settings.json").write_text("{}\n")
    subprocess.run(["git", "init", "-q", str(root / "sub")], check=True)
    (root / "submodule").mkdir()
    (root / "submodule" / ".git").write_text("gitdir: ../.git/modules/submodule\n")
    return root


@pytest.fixture
async def sandbox(docker_host, workspace: Path, home: Path) -> AsyncIterator[SandboxExecutor]:
    values = {"sandbox_image": docker_host.image, "DECODE_SANDBOX_HOME_PATHS": "notes:.config"}
    executor = open_sandbox(SandboxMode.DOCKER, workspace, Settings(_env_file=None, **values))  # type: ignore[call-arg]
    await executor.start()
    yield executor
    await close_sandboxes()


async def run(executor: SandboxExecutor, script: str) -> tuple[ExecResult, str, str]:
    out, err = bytearray(), bytearray()
    result = await executor.run(
        ExecRequest(["sh", "-c", script], timeout=30, on_stdout=out.extend, on_stderr=err.extend)
    )
    return result, out.decode(), err.decode()


@pytest.mark.parametrize("script", ["ls .decode/sessions", "cat .decode/MEMORY.md", "cat {home}/.gitconfig"])
async def test_decodes_records_and_the_home_cannot_be_read(sandbox: SandboxExecutor, home: Path, script: str) -> None:
    result, out, _ = await run(sandbox, script.format(home=home))
    assert result.exit_code != 0
    assert SECRET not in out


@pytest.mark.parametrize(
    "script",
    [
        "touch .git/hooks/x",
        "echo > .claude/settings.json",
        "touch sub/.git/x",
        "echo evil >> sub/.git/config",
        "echo > submodule/.git",
        "touch .decode/x",
    ],
)
async def test_git_claude_and_nested_repositories_are_read_only(
    sandbox: SandboxExecutor, workspace: Path, script: str
) -> None:
    config = (workspace / "sub" / ".git" / "config").read_bytes()
    result, _, err = await run(sandbox, script)
    assert result.exit_code != 0, err
    assert (workspace / "sub" / ".git" / "config").read_bytes() == config
    assert (workspace / "submodule" / ".git").read_text() == "gitdir: ../.git/modules/submodule\n"
    assert not (workspace / "sub" / ".git" / "x").exists()


async def test_added_home_paths_are_read_only_and_known_credentials_stay_hidden(
    sandbox: SandboxExecutor, workspace: Path, home: Path
) -> None:
    script = f"cat {home}/notes/build.txt .decode/skills/check/SKILL.md; ls -A {home}/.config/gh; echo ok > made.txt"
    _, out, _ = await run(sandbox, script)
    assert "notes\n" in out
    assert "run the checks" in out  # what a team shares in .decode/ for the agent stays readable
    assert SECRET not in out
    assert (workspace / "made.txt").read_text() == "ok\n"  # and the Workspace is still writable
    result, _, _ = await run(sandbox, f"touch {home}/notes/x")
    assert result.exit_code != 0
