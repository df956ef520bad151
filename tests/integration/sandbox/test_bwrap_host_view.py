"""What a bwrap command sees of the host besides the Workspace (ADR-0086), with real bwrap.

The user's home is empty inside but for the toolchains and the paths the user adds; `.decode/`
(sessions, saved output, memory) cannot be read; `.git`, `.claude/` and every nested
repository's `.git` cannot be written. The home is a real folder outside `/tmp` (the sandbox's
`/tmp` is its own, so a home under it would be hidden anyway), with real files planted in it.
"""

import asyncio
import shutil
import subprocess
import sys
import tempfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from decode.config.settings import Settings
from decode.sandbox.backends import close_sandboxes, open_sandbox
from decode.sandbox.executor import SandboxExecutor
from decode.sandbox.types import SandboxMode
from tests.integration.sandbox.conftest import run

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed (apt install bubblewrap)"),
]

SECRET = "host-secret-5f1c"
PLANTED = {
    ".gitconfig": f"[user]\n\tname = {SECRET}\n",
    ".opik.config": f"[opik]\napi_key = {SECRET}\n",
    ".bash_history": f"export TOKEN={SECRET}\n",
    ".zsh_history": f"export TOKEN={SECRET}\n",
    ".npmrc": f"//registry.npmjs.org/:_authToken={SECRET}\n",
    ".config/gh/hosts.yml": f"oauth_token: {SECRET}\n",
    ".config/newtool/auth.json": f'{{"token": "{SECRET}"}}\n',  # no deny list names this one
    ".decode/settings.json": f'{{"env": {{"K": "{SECRET}"}}}}\n',
    "notes/build.txt": "notes the build reads\n",
}


@pytest.fixture
def home(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A home outside `/tmp`, full of secrets, made the test's HOME."""
    root = Path(tempfile.mkdtemp(prefix="decode-home-", dir="/var/tmp"))
    for name, text in PLANTED.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    tool = root / ".local" / "bin" / "buildtool"
    tool.parent.mkdir(parents=True)
    tool.write_text("#!/bin/sh\necho tool-ran\n")
    tool.chmod(0o755)
    monkeypatch.setenv("HOME", str(root))
    yield root
    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def workspace(home: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The user's repository, under their home, with decode's records, a nested repository and a submodule."""
    root = home / "proj"
    (root / "src").mkdir(parents=True)
    (root / "src" / "app.py").write_text("print('hi')\n")
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    records = root / ".decode"
    (records / "sessions").mkdir(parents=True)
    (records / "sessions" / "s1.jsonl").write_text(f'{{"said": "{SECRET}"}}\n')
    (records / "MEMORY.md").write_text(f"- the key is {SECRET}\n")
    (records / "skills" / "check").mkdir(parents=True)
    (records / "skills" / "check" / "SKILL.md").write_text("run the checks\n")
    (root / ".claude").mkdir()
    (root / ".claude" / "settings.json").write_text("{}\n")
    subprocess.run(["git", "init", "-q", str(root / "sub")], check=True)
    (root / "submodule").mkdir()
    (root / "submodule" / ".git").write_text("gitdir: ../.git/modules/submodule\n")
    monkeypatch.chdir(root)
    return root


@pytest.fixture
async def sandbox(workspace: Path) -> AsyncIterator[SandboxExecutor]:
    executor = open_sandbox(SandboxMode.BWRAP, workspace, Settings(_env_file=None))  # type: ignore[call-arg]
    await executor.start()
    yield executor
    await close_sandboxes()


def contents(root: Path) -> dict[Path, bytes]:
    return {path: path.read_bytes() for path in root.rglob("*") if path.is_file()}


@pytest.mark.parametrize(
    "script",
    [
        "cat {home}/.gitconfig",
        "ls {home}/.config",
        "cat {home}/.config/newtool/auth.json",
        "cat {home}/.opik.config",
        "cat {home}/.bash_history",
        "cat {home}/.npmrc",
        "cat {home}/.decode/settings.json",
        "ls .decode/sessions",
        "cat .decode/MEMORY.md",
    ],
)
async def test_the_home_and_decodes_records_cannot_be_read(sandbox: SandboxExecutor, home: Path, script: str) -> None:
    result, out, _ = await run(sandbox, script.format(home=home))
    assert result.exit_code != 0
    assert SECRET not in out


async def test_the_home_is_empty_but_for_what_a_build_needs(sandbox: SandboxExecutor, home: Path) -> None:
    result, out, err = await run(sandbox, f"ls -A {home}; {home}/.local/bin/buildtool; touch {home}/new")
    assert "Read-only file system" in err  # and nothing can be left there either
    assert set(out.split()) == {".local", "proj", "tool-ran"}, out
    assert result.exit_code != 0


@pytest.mark.parametrize(
    "script",
    [
        "touch .git/hooks/x",
        "echo > .git/config",
        "echo > .claude/settings.json",
        "touch .claude/agents",
        "touch sub/.git/x",
        "echo evil >> sub/.git/config",
        "echo > submodule/.git",
        "rm submodule/.git",
        "touch .decode/x",
    ],
)
async def test_git_claude_and_nested_repositories_are_read_only(
    sandbox: SandboxExecutor, workspace: Path, script: str
) -> None:
    before = await asyncio.to_thread(contents, workspace)
    result, _, err = await run(sandbox, script)
    assert result.exit_code != 0, err
    assert await asyncio.to_thread(contents, workspace) == before


async def test_a_normal_build_still_works(sandbox: SandboxExecutor, workspace: Path) -> None:
    script = (
        f"{sys.executable} -c 'print(6 * 7)' && echo made > src/new.py && git status --short "
        "&& cat .decode/skills/check/SKILL.md && git -C sub status --short"
    )
    result, out, err = await run(sandbox, script)
    assert result.exit_code == 0, err
    assert "42\n" in out
    assert "src/" in out  # git reads the repository
    assert "run the checks" in out  # what the team shares for the agent stays readable
    assert (workspace / "src" / "new.py").read_text() == "made\n"


async def test_a_repository_made_in_the_session_is_read_only_from_the_next_command(
    sandbox: SandboxExecutor, workspace: Path
) -> None:
    result, _, err = await run(sandbox, "git init -q made")
    assert result.exit_code == 0, err
    result, _, _ = await run(sandbox, "echo evil >> made/.git/config")
    assert result.exit_code != 0
    assert "evil" not in (workspace / "made" / ".git" / "config").read_text()


async def test_an_added_home_path_is_readable_and_read_only(workspace: Path, home: Path) -> None:
    settings = Settings(_env_file=None, DECODE_SANDBOX_HOME_PATHS="notes:~/.config")  # type: ignore[call-arg]
    executor = open_sandbox(SandboxMode.BWRAP, workspace, settings)
    try:
        result, out, err = await run(
            executor, f"cat {home}/notes/build.txt; ls -A {home}/.config/gh; touch {home}/notes/x"
        )
    finally:
        await close_sandboxes()
    assert "notes the build reads" in out
    assert SECRET not in out  # a credential folder decode knows stays hidden under an added one
    assert "Read-only file system" in err
    assert result.exit_code != 0


async def test_a_workspace_outside_the_home_hides_it_too(project: Path, home: Path) -> None:
    executor = open_sandbox(SandboxMode.BWRAP, project, Settings(_env_file=None))  # type: ignore[call-arg]
    try:
        _, out, _ = await run(executor, f"cat {home}/.gitconfig {home}/.opik.config; ls -A {home}")
    finally:
        await close_sandboxes()
    assert SECRET not in out
    assert ".gitconfig" not in out


async def test_in_a_clone_the_launch_directorys_records_are_masked_too(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    launch = home / "launch"
    clone = launch / ".decode" / "workspaces" / "s1"
    clone.mkdir(parents=True)
    await asyncio.to_thread(subprocess.run, ["git", "init", "-q", str(clone)], check=True)
    (launch / ".decode" / "MEMORY.md").write_text(f"- {SECRET}\n")
    monkeypatch.chdir(launch)  # the launch directory: where decode was started
    executor = open_sandbox(SandboxMode.BWRAP, clone, Settings(_env_file=None))  # type: ignore[call-arg]
    try:
        _, out, err = await run(executor, f"cat {launch}/.decode/MEMORY.md; echo work > a.txt && cat a.txt")
    finally:
        await close_sandboxes()
    assert SECRET not in out
    assert "work\n" in out, err  # the clone itself is still the Workspace
