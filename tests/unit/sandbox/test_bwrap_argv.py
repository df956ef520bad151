"""The bwrap command line (ADR-0063): what is bound how, in which order."""

import itertools
from pathlib import Path

from decode.sandbox.bwrap import hidden_paths, sandbox_argv


def pairs(argv: list[str], option: str) -> list[tuple[str, str]]:
    return [(argv[i + 1], argv[i + 2]) for i, word in enumerate(argv) if word == option]


def test_the_host_read_only_the_workspace_writable_no_network(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    argv = sandbox_argv("/usr/bin/bwrap", ["bash", "-c", "ls"], workspace=tmp_path, cwd=tmp_path, network=False)
    assert argv[:10] == ["/usr/bin/bwrap", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"]
    assert ("/", "/") in pairs(argv, "--ro-bind")
    binds = pairs(argv, "--bind")
    assert binds == [(str(tmp_path), str(tmp_path)), (str(tmp_path / ".git"), str(tmp_path / ".git"))]
    for flag in ("--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts", "--die-with-parent"):
        assert flag in argv
    assert "--new-session" in argv
    assert argv[argv.index("--cap-drop") + 1] == "ALL"
    assert argv[-4:] == ["--", "bash", "-c", "ls"]
    assert argv[argv.index("--chdir") + 1] == str(tmp_path)
    assert "--setenv" not in argv  # values would show in the process list


def test_network_for_one_command(tmp_path: Path) -> None:
    argv = sandbox_argv("bwrap", ["true"], workspace=tmp_path, cwd=tmp_path, network=True)
    assert "--unshare-net" not in argv
    assert "--unshare-pid" in argv


def test_protected_paths_are_bound_read_only_after_the_workspace(tmp_path: Path) -> None:
    clone = tmp_path / ".decode" / "workspaces" / "s1"  # a Workspace decode cloned: its .git is writable
    (clone / ".git" / "hooks").mkdir(parents=True)
    (clone / ".git" / "config").write_text("[core]\n")
    missing = clone / ".mcp.json"
    argv = sandbox_argv("bwrap", ["true"], workspace=clone, cwd=clone, network=False, placeholders=[missing])
    read_only = pairs(argv, "--ro-bind")
    assert (str(clone / ".git" / "hooks"),) * 2 in read_only
    assert (str(clone / ".git" / "config"),) * 2 in read_only
    assert (str(clone / ".git"),) * 2 not in read_only
    assert ("/dev/null", str(missing)) in read_only
    workspace_bind = argv.index(str(clone))
    assert argv.index(str(clone / ".git" / "config")) > workspace_bind  # on top of it, not under it


def test_the_launch_directorys_git_is_bound_read_only_whole(tmp_path: Path) -> None:
    (tmp_path / ".git" / "hooks").mkdir(parents=True)
    argv = sandbox_argv("bwrap", ["true"], workspace=tmp_path, cwd=tmp_path, network=False)
    assert (str(tmp_path / ".git"),) * 2 in pairs(argv, "--ro-bind")
    assert argv.index(str(tmp_path / ".git")) > argv.index(str(tmp_path))


def test_env_files_and_home_credentials_are_hidden(tmp_path: Path) -> None:
    workspace, home = tmp_path / "ws", tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".git-credentials").parent.mkdir(exist_ok=True)
    (home / ".git-credentials").write_text("https://user:token@example.com\n")
    workspace.mkdir()
    for name in (".env", ".env.local", ".env.example", ".envrc"):
        (workspace / name).write_text("x")
    hidden = hidden_paths(workspace, workspace / ".env", home)
    assert set(hidden) == {workspace / ".env", workspace / ".env.local", home / ".ssh", home / ".git-credentials"}
    argv = sandbox_argv("bwrap", ["true"], workspace=workspace, cwd=workspace, network=False, hidden=hidden)
    assert ("--tmpfs", str(home / ".ssh")) in itertools.pairwise(argv)
    assert ("/dev/null", str(workspace / ".env")) in pairs(argv, "--ro-bind")


def test_an_added_dir_is_bound_writable_before_the_workspace_its_secrets_hidden(tmp_path: Path) -> None:
    workspace, other = tmp_path / "ws", tmp_path / "other"
    (other / ".git" / "hooks").mkdir(parents=True)
    (other / ".env").write_text("KEY=x")
    workspace.mkdir()
    argv = sandbox_argv("bwrap", ["true"], workspace=workspace, cwd=workspace, network=False, added=[other])
    assert (str(other), str(other)) in pairs(argv, "--bind")
    assert (str(other / ".git"),) * 2 in pairs(argv, "--ro-bind")
    assert ("/dev/null", str(other / ".env")) in pairs(argv, "--ro-bind")
    # `--add-dir ..` must never cover the Workspace's own read-only paths: it comes first.
    assert argv.index(str(other)) < argv.index(str(workspace))


def test_a_folder_around_the_workspace_goes_under_its_protections(tmp_path: Path) -> None:
    (tmp_path / "ws" / ".git").mkdir(parents=True)
    argv = sandbox_argv("bwrap", ["true"], workspace=tmp_path / "ws", cwd=tmp_path, network=False, added=[tmp_path])
    assert argv.index(str(tmp_path)) < argv.index(str(tmp_path / "ws" / ".git"))
