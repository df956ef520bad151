"""Reference solutions of lesson 17's exercises, and a plausible mistake for each that its check rejects."""

import re
from pathlib import Path

ALLOWED = ("PATH", "LANG", "LANGUAGE", "TERM", "TZ")


def sandbox_env(host: dict[str, str], token: str | None) -> dict[str, str]:
    """An allow list: what is known to be harmless, and nothing else."""
    env = {name: value for name, value in host.items() if name in ALLOWED or name.startswith("LC_")}
    env["HOME"] = "/tmp"
    if token is not None:
        env["GITHUB_TOKEN"] = token
    return env


def wrong_sandbox_env(host: dict[str, str], token: str | None) -> dict[str, str]:
    """A deny list: drops what looks like a secret, and lets a password in a URL, the ssh agent and HOME through."""
    env = {name: value for name, value in host.items() if not re.search(r"KEY|TOKEN|SECRET", name)}
    if token is not None:
        env["GITHUB_TOKEN"] = token
    return env


def bwrap_argv(command: str, workspace: Path, protected: list[Path]) -> list[str]:
    """The host read-only, then the Workspace writable, then the protected paths read-only on top of it."""
    argv = ["bwrap", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"]
    argv += ["--bind", str(workspace), str(workspace)]
    for path in protected:  # after the Workspace's bind: a later mount covers an earlier one
        argv += ["--ro-bind", str(path), str(path)]
    argv += ["--unshare-all", "--die-with-parent", "--new-session", "--chdir", str(workspace)]
    return [*argv, "bash", "-c", command]


def wrong_bwrap_argv(command: str, workspace: Path, protected: list[Path]) -> list[str]:
    """The protected paths bound *before* the Workspace: its writable bind covers them again."""
    argv = ["bwrap", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"]
    for path in protected:
        argv += ["--ro-bind", str(path), str(path)]
    argv += ["--bind", str(workspace), str(workspace)]
    argv += ["--unshare-all", "--die-with-parent", "--new-session", "--chdir", str(workspace)]
    return [*argv, "bash", "-c", command]
