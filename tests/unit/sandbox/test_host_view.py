"""What a bind-mounting sandbox shows of the host (ADR-0086): homes masked, toolchains bound back,
`.decode/` masked, nested `.git` found; and where bwrap and docker put each mount."""

import itertools
import logging
import os
import pwd
import sys
from pathlib import Path

import pytest

from decode.config.settings import Settings
from decode.sandbox.bwrap import sandbox_argv
from decode.sandbox.docker import DockerBackend
from decode.sandbox.host_view import (
    HostView,
    host_view,
    masked_homes,
    nested_git,
    records_folders,
    within,
    workspace_view,
)


def pairs(argv: list[str], option: str) -> list[tuple[str, str]]:
    return [(argv[i + 1], argv[i + 2]) for i, word in enumerate(argv) if word == option]


def test_the_home_is_masked_but_never_when_it_is_the_workspace_or_a_system_folder(tmp_path: Path) -> None:
    home, workspace = tmp_path / "home", tmp_path / "home" / "proj"
    workspace.mkdir(parents=True)
    account = Path(os.path.realpath(pwd.getpwuid(os.getuid()).pw_dir))
    homes = masked_homes(workspace, home)
    assert homes[0] == home
    assert (account in homes) is account.is_dir()  # and the account's own, where HOME differs (sudo, tests)
    assert home not in masked_homes(home, home)  # the user chose to work in it
    assert home not in masked_homes(tmp_path, home)  # inside the Workspace
    assert Path("/usr") not in masked_homes(workspace, Path("/usr"))


def test_toolchains_and_added_paths_are_bound_back_and_nothing_else(tmp_path: Path) -> None:
    home, workspace = tmp_path / "home", tmp_path / "ws"
    for name in (".local/bin", ".pyenv/shims", ".config/gh", "notes", ".cache/uv"):
        (home / name).mkdir(parents=True)
    (home / ".gitconfig").write_text("[user]\n")
    workspace.mkdir()
    view = host_view(workspace, workspace, home, (Path("notes"), tmp_path / "elsewhere"))
    assert home in view.masked
    mine = [path for path in view.revealed if path.is_relative_to(home)]
    assert mine == [home / ".local/bin", home / ".pyenv", home / "notes"]  # no caches, no config, no missing path


def test_a_symlinked_toolchain_is_bound_where_it_points_too(tmp_path: Path) -> None:
    home, real = tmp_path / "home", tmp_path / "home" / "tools" / "pyenv"
    real.mkdir(parents=True)
    (home / ".pyenv").symlink_to(real)
    view = host_view(tmp_path / "ws", tmp_path / "ws", home)
    assert {home / ".pyenv", real} <= set(view.revealed)


def test_decodes_own_python_is_bound_back_when_a_home_holds_it(tmp_path: Path) -> None:
    prefix = Path(os.path.realpath(sys.base_prefix))
    view = host_view(tmp_path / "ws", tmp_path / "ws", prefix.parent)
    assert prefix in view.revealed


def test_decodes_records_are_masked_but_what_a_team_shares(tmp_path: Path) -> None:
    (tmp_path / ".decode" / "skills").mkdir(parents=True)
    (tmp_path / ".decode" / "sessions").mkdir()
    view = workspace_view(tmp_path, tmp_path)
    assert view.masked == (tmp_path / ".decode",)
    assert view.revealed == (tmp_path / ".decode" / "skills",)


def test_in_a_clone_the_launch_directorys_records_are_masked_around_it(tmp_path: Path) -> None:
    clone = tmp_path / ".decode" / "workspaces" / "s1"
    assert records_folders(clone, tmp_path) == [tmp_path / ".decode", clone / ".decode"]
    assert records_folders(tmp_path, tmp_path) == [tmp_path / ".decode"]


def test_nested_repositories_are_found_folders_and_files_not_through_links(tmp_path: Path) -> None:
    for name in ("a/.git", "b/c/.git", ".git", "node_modules/x/.git", ".decode/workspaces/s/.git"):
        (tmp_path / name).mkdir(parents=True)
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / ".git").write_text("gitdir: ../.git/modules/sub\n")
    (tmp_path / "link").symlink_to(tmp_path / "a")
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / ".git").symlink_to(tmp_path / "a" / ".git")
    assert nested_git(tmp_path) == [tmp_path / "a" / ".git", tmp_path / "sub" / ".git", tmp_path / "b" / "c" / ".git"]


def test_the_walk_stops_at_its_limit_nearest_first_and_says_so(tmp_path: Path, caplog) -> None:
    (tmp_path / "a" / ".git").mkdir(parents=True)
    (tmp_path / "z" / "y" / "x" / ".git").mkdir(parents=True)
    with caplog.at_level(logging.WARNING):
        assert nested_git(tmp_path, limit=3) == [tmp_path / "a" / ".git"]
    assert "stopped looking for nested repositories" in caplog.text


def test_bwrap_masks_around_the_workspace_before_it_and_inside_after(tmp_path: Path) -> None:
    home, workspace = tmp_path / "home", tmp_path / "home" / "proj"
    (workspace / ".git").mkdir(parents=True)
    (workspace / ".decode" / "skills").mkdir(parents=True)
    nested = workspace / "sub" / ".git"
    view = HostView(
        masked=(home, workspace / ".decode"),
        revealed=(home / ".local/bin", workspace / ".decode" / "skills"),
        read_only=(nested,),
    )
    argv = sandbox_argv("bwrap", ["true"], workspace=workspace, cwd=workspace, network=False, view=view)
    steps = list(itertools.pairwise(argv))
    at = steps.index
    bind = at(("--bind", str(workspace)))
    assert at(("--tmpfs", str(home))) < at(("--ro-bind", str(home / ".local/bin"))) < bind
    assert bind < at(("--tmpfs", str(workspace / ".decode"))) < at(("--ro-bind", str(workspace / ".decode/skills")))
    assert bind < at(("--ro-bind", str(nested)))
    assert at(("--remount-ro", str(home))) > at(("--ro-bind", str(workspace / ".decode/skills")))
    assert ("--remount-ro", str(workspace / ".decode")) in steps
    assert (str(workspace / ".decode"),) * 2 not in pairs(argv, "--ro-bind")  # masked, not merely read-only


def test_docker_mounts_added_paths_masks_records_and_hides_known_credentials(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home, workspace = tmp_path / "home", tmp_path / "ws"
    (home / ".config" / "gh").mkdir(parents=True)
    (home / ".pyenv").mkdir()
    (workspace / ".decode").mkdir(parents=True)
    (workspace / "sub" / ".git").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(workspace)
    settings = Settings(_env_file=None, DECODE_SANDBOX_HOME_PATHS=".config")  # type: ignore[call-arg]
    joined = " ".join(DockerBackend(workspace, settings)._container("c", network=False))
    assert f"-v {home}/.config:{home}/.config:ro" in joined
    assert f"--tmpfs {home}/.config/gh:ro" in joined
    assert ".pyenv" not in joined  # the image brings its own programs: no toolchain of the host's
    assert f"--tmpfs {workspace}/.decode:ro" in joined
    assert f"-v {workspace}/.decode:" not in joined  # one mount there, or docker refuses a duplicate
    assert f"-v {workspace}/sub/.git:{workspace}/sub/.git:ro" in joined


@pytest.mark.parametrize(
    ("path", "folder"),
    [
        ("/a/b", "/a"),
        ("/a", "/a"),
        ("/ab", "/a"),
        ("/a", "/a/b"),
        ("/a/b", "/"),
        ("/", "/"),
        ("/a/../a/b", "/a"),
        ("/home/me/.ssh", "/home/me/.s"),
    ],
)
def test_within_is_pathlibs_is_relative_to(path: str, folder: str) -> None:
    assert within(Path(path), Path(folder)) == Path(path).is_relative_to(Path(folder))
