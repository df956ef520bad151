"""The environment host-side git runs in: nothing that points it at another repository or config,
none of decode's own keys, no terminal prompt; and in the private phase, no user or system config.
And git, in a session of its own, is decode's: a command that ends beside it does not take it for
its orphan."""

import asyncio
import os
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from decode.processes.spawn import spawn_process
from decode.processes.tracking import become_subreaper
from decode.sandbox.host_git import OVERRIDES, GitResult, git, git_environment, git_sync, scrub, without_credential

HOST = {
    "PATH": "/usr/bin",
    "HOME": "/home/u",
    "SSH_AUTH_SOCK": "/run/agent",
    "GIT_DIR": "/elsewhere/.git",
    "GIT_WORK_TREE": "/elsewhere",
    "GIT_CONFIG_PARAMETERS": "'core.fsmonitor'='evil'",
    "GIT_CONFIG_COUNT": "1",
    "GIT_CONFIG_KEY_0": "core.fsmonitor",
    "GIT_CONFIG_VALUE_0": "evil",
    "GIT_SSH_COMMAND": "ssh -i ~/.ssh/deploy",
    "GEMINI_API_KEY": "secret",
}


def test_the_push_keeps_the_hosts_credentials_but_not_what_locates_another_repository() -> None:
    env = git_environment(HOST, private=False, drop=frozenset({"GEMINI_API_KEY"}))

    assert env["SSH_AUTH_SOCK"] == "/run/agent"
    assert env["GIT_SSH_COMMAND"] == "ssh -i ~/.ssh/deploy"
    assert env["HOME"] == "/home/u"  # the global config, with its credential helper
    for name in ("GIT_DIR", "GIT_WORK_TREE", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT", "GIT_CONFIG_KEY_0"):
        assert name not in env
    assert "GEMINI_API_KEY" not in env
    assert env["GIT_TERMINAL_PROMPT"] == "0"
    assert "GIT_CONFIG_GLOBAL" not in env
    assert "GIT_CONFIG_NOSYSTEM" not in env


def test_the_private_phase_reads_no_config_but_decodes_own_repository() -> None:
    env = git_environment(HOST, private=True, git_dir=os.sep + "h.git", work_tree=os.sep + "ws")

    assert env["GIT_CONFIG_NOSYSTEM"] == "1"
    assert env["GIT_CONFIG_GLOBAL"] == os.devnull
    assert env["GIT_DIR"] == "/h.git"
    assert env["GIT_WORK_TREE"] == "/ws"


def test_every_command_line_turns_hooks_and_fsmonitor_off() -> None:
    assert "core.hooksPath=/dev/null" in OVERRIDES
    assert "core.fsmonitor=false" in OVERRIDES


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("https://x-access-token:TOKEN@github.com/o/r.git", "https://github.com/o/r.git"),
        ("https://TOKEN@github.com/o/r.git", "https://github.com/o/r.git"),
        ("http://u:p@127.0.0.1:8080/r.git", "http://127.0.0.1:8080/r.git"),
        ("ssh://git:pw@host/r.git", "ssh://git@host/r.git"),
        ("ssh://git@host/r.git", "ssh://git@host/r.git"),
        ("git@github.com:o/r.git", "git@github.com:o/r.git"),
        ("https://github.com/o/r.git", "https://github.com/o/r.git"),
        ("/home/u/repo", "/home/u/repo"),
    ],
)
def test_a_url_is_written_down_without_its_credential(url: str, shown: str) -> None:
    assert without_credential(url) == shown


def test_gits_words_lose_a_urls_credential() -> None:
    assert (
        scrub("fatal: unable to access 'https://x:TOKEN@h/r.git/': 403")
        == "fatal: unable to access 'https://h/r.git/': 403"
    )


async def _git_outlives_a_command(tmp_path: Path, start: Callable[..., Awaitable[GitResult]]) -> GitResult:
    """Start git (a push, say) that holds until told, end a command beside it, then let git finish."""
    become_subreaper()
    command = await spawn_process(["sleep", "1000"], cwd=tmp_path, env=dict(os.environ))
    up, go = tmp_path / "up", tmp_path / "go"
    hold = f"alias.hold=!touch {up}; until [ -e {go} ]; do sleep 0.01; done; echo done"
    running = asyncio.ensure_future(start("-c", hold, "hold", cwd=tmp_path))
    deadline = time.monotonic() + 20
    while not up.exists():
        assert not running.done(), running.result()
        assert time.monotonic() < deadline, "git did not start"
        await asyncio.sleep(0.01)
    command.kill()  # the command ends: what it left is ended
    await command.wait()
    go.touch()
    return await asyncio.wait_for(running, 20)


async def test_git_is_no_orphan_of_a_command_that_ends_beside_it(tmp_path: Path) -> None:
    result = await _git_outlives_a_command(tmp_path, git)
    assert (result.code, result.stdout) == (0, "done\n")  # killed and reaped by decode: 255, nothing


async def test_git_sync_in_a_thread_is_no_orphan_either(tmp_path: Path) -> None:
    result = await _git_outlives_a_command(tmp_path, lambda *args, **kw: asyncio.to_thread(git_sync, *args, **kw))
    assert (result.code, result.stdout) == (0, "done\n")  # killed: -9, or 0 when decode reaped it first
