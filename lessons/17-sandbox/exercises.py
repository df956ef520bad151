"""Lesson 17's exercises: the sandbox environment from nothing, and a bwrap argv with a protected path."""

import socket
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path

from course import Verdict, check

# --- exercise 1: the environment, from nothing ------------------------------------------------------

HOST = {
    "PATH": "/usr/bin:/bin",
    "LANG": "C.UTF-8",
    "LC_ALL": "C.UTF-8",
    "TERM": "xterm-256color",
    "HOME": "/home/you",
    "GEMINI_API_KEY": "AIza-host-key",
    "GITHUB_TOKEN": "ghp_host_token",
    "AWS_SECRET_ACCESS_KEY": "host-aws",
    "DATABASE_URL": "postgres://app:hunter2@db.internal/app",
    "SSH_AUTH_SOCK": "/run/user/1000/ssh-agent",
    "DECODE_PASS_ENV": "DATABASE_URL",
}


def _env_of(env: dict[str, str]) -> dict[str, str]:
    """What a program started with `env` (and nothing else) sees: `env`'s own output."""
    done = subprocess.run(["/usr/bin/env"], env=env, capture_output=True, text=True, check=True)
    return dict(line.split("=", 1) for line in done.stdout.splitlines() if "=" in line)


def check_sandbox_env(sandbox_env: Callable[[dict[str, str], str | None], dict[str, str]]) -> Verdict:
    """`sandbox_env(host, token)`: an allow list (PATH, LANG, LANGUAGE, TERM, TZ, LC_*), HOME=/tmp, and
    GITHUB_TOKEN only for the token the user set for the sandbox."""

    def test() -> None:
        seen = _env_of(sandbox_env(dict(HOST), None))
        expected = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "xterm-256color"}
        expected["HOME"] = "/tmp"
        leaked = sorted(set(seen) - set(expected))
        assert not leaked, f"these came in from the host and must not: {leaked}"
        assert seen == expected, f"expected {expected}, the program saw {seen}"
        given = _env_of(sandbox_env(dict(HOST), "ghp_for_the_sandbox"))
        assert given.get("GITHUB_TOKEN") == "ghp_for_the_sandbox", (
            f"with a token, GITHUB_TOKEN is that token (not the host's): got {given.get('GITHUB_TOKEN')!r}"
        )
        assert set(given) == {*expected, "GITHUB_TOKEN"}, f"only GITHUB_TOKEN is added: got {sorted(given)}"

    return check("the sandbox's environment: an allow list, and the sandbox's own token", test)


# --- exercise 2: a bwrap argv with a protected path -------------------------------------------------


def _attempt(argv: list[str]) -> int:
    return subprocess.run(argv, capture_output=True, text=True, timeout=30, check=False).returncode


def check_bwrap_argv(bwrap_argv: Callable[[str, Path, list[Path]], list[str]]) -> Verdict:
    """`bwrap_argv(command, workspace, protected)` runs `bash -c command` with the host read-only, the
    Workspace writable, the protected paths read-only inside it, and no network."""

    def test() -> None:
        with tempfile.TemporaryDirectory(prefix="decode-exercise14-", dir="/tmp") as folder:  # the /tmp that is hidden
            workspace = Path(folder).resolve() / "workspace"
            (workspace / ".git" / "hooks").mkdir(parents=True)
            (workspace / ".bashrc").write_text("# yours\n")
            protected = [workspace / ".git" / "hooks", workspace / ".bashrc"]
            outside = Path(folder).resolve() / "outside.txt"  # outside the Workspace, on this machine

            def runs(command: str) -> bool:
                return _attempt(bwrap_argv(command, workspace, protected)) == 0

            assert runs(f"echo ok > {workspace}/work.txt"), "a write in the Workspace must work"
            assert (workspace / "work.txt").read_text() == "ok\n", "the write must land in the real Workspace"
            assert not runs(f"echo x > {workspace}/.git/hooks/pre-commit"), (
                "writing into .git/hooks worked: a protected path must stay read-only inside the Workspace "
                "(a mount made later covers an earlier one)"
            )
            assert not runs(f"echo x >> {workspace}/.bashrc"), "appending to the protected .bashrc worked"
            assert (workspace / ".bashrc").read_text() == "# yours\n", ".bashrc changed"
            assert not runs("test -w /usr"), "the host is writable inside: bind / read-only (writing nothing, we asked)"
            runs(f"echo x > {outside}")
            assert not outside.exists(), f"a write outside the Workspace reached this machine ({outside})"
            with socket.create_server(("127.0.0.1", 0)) as server:  # listening on this machine
                port = server.getsockname()[1]
                assert not runs(f"exec 3<>/dev/tcp/127.0.0.1/{port}"), (
                    "a command reached a server on this machine: unshare the network"
                )
            (Path(folder) / "host-only.txt").write_text("this machine's /tmp\n")
            assert not runs(f"test -e {folder}/host-only.txt"), (
                "the host's /tmp is visible inside: give the sandbox a private, empty /tmp"
            )

    return check("bwrap: the Workspace writable, its protected paths and the host not, no network", test)
