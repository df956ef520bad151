"""Lesson 17's build-along track: the sandbox's environment from nothing, the paths protected inside the
Workspace, and the folders `--add-dir` refuses.

`make lesson-check N=17` runs these against your copy (`make lesson-start N=17`); each test's first
docstring line is the behaviour it reports.
"""

from pathlib import Path

from pydantic import SecretStr

from decode.config.settings import Settings
from decode.sandbox.environment import sandbox_environment
from decode.sandbox.host_view import not_addable
from decode.sandbox.protected import protected_paths

HOST = {"PATH": "/opt/bin:/bin", "LANG": "C.UTF-8", "LC_TIME": "C", "HOME": "/home/you"}
HOST |= {"GEMINI_API_KEY": "AIza-host", "GITHUB_TOKEN": "ghp_host", "SSH_AUTH_SOCK": "/run/agent"}


def test_the_sandbox_environment_is_an_allow_list() -> None:
    """Only PATH, the locale and the terminal come in; HOME is /tmp; no key, token or agent socket."""
    env = sandbox_environment(Settings(_env_file=None), HOST)
    assert (env["PATH"], env["LANG"], env["LC_TIME"], env["HOME"], env["USER"]) == (
        "/opt/bin:/bin",
        "C.UTF-8",
        "C",
        "/tmp",
        "decode",
    )
    assert not {"GEMINI_API_KEY", "GITHUB_TOKEN", "SSH_AUTH_SOCK"} & set(env)
    assert sandbox_environment(Settings(_env_file=None), {})["PATH"].startswith("/usr/local/sbin:")


def test_the_sandbox_token_is_the_only_token_inside() -> None:
    """GITHUB_TOKEN inside is SANDBOX_GIT_TOKEN's value, never the host's."""
    settings = Settings(_env_file=None, sandbox_git_token=SecretStr("ghp_for_the_sandbox"))
    assert sandbox_environment(settings, HOST)["GITHUB_TOKEN"] == "ghp_for_the_sandbox"


def test_protected_paths_hold_git_whole_in_your_checkout(tmp_path: Path) -> None:
    """In your own checkout `.git` is protected whole, with `.decode`, `.mcp.json` and `.bashrc`."""
    (tmp_path / ".git").mkdir()
    paths = protected_paths(tmp_path)
    assert {tmp_path / ".git", tmp_path / ".decode", tmp_path / ".mcp.json", tmp_path / ".bashrc"} <= set(paths)
    assert tmp_path / ".git" / "hooks" not in paths


def test_in_a_clone_decode_made_only_git_hooks_and_config_are_protected(tmp_path: Path) -> None:
    """In `.decode/workspaces/<id>/` the agent may commit: `.git/hooks` and `.git/config` stay protected."""
    clone = tmp_path / ".decode" / "workspaces" / "a1b2c3d4"
    (clone / ".git").mkdir(parents=True)
    paths = protected_paths(clone)
    assert {clone / ".git" / "hooks", clone / ".git" / "config", clone / ".decode"} <= set(paths)
    assert clone / ".git" not in paths


def test_add_dir_refuses_folders_that_would_open_the_sandbox(tmp_path: Path) -> None:
    """`/`, /tmp, /proc, the home, a folder above it and ~/.ssh are refused; a project folder is not."""
    home = tmp_path / "home" / "you"
    for folder in (Path("/"), Path("/tmp"), Path("/proc/1"), home, tmp_path, home / ".ssh" / "keys"):
        assert not_addable(folder, home), f"{folder} was accepted"
    assert not_addable(home / "projects" / "shared", home) is None
