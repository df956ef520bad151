"""Safe git: the options that switch off every program a repository's own config names, checked
by planting each kind in a real repository and running git the way decode does."""

import subprocess
from pathlib import Path

import pytest

from decode.config.safe_git import LIST_CONFIG, SAFE_OPTIONS, UnsafeConfig, neutralising, safe_git
from tests.conftest import PLANTED_KINDS, planted_repository


def listing(*entries: tuple[str, str]) -> str:
    return "".join(f"{scope}\0{item}\0" for scope, item in entries)


def test_the_repositorys_program_keys_are_overridden_with_values_that_run_nothing() -> None:
    options = neutralising(
        listing(
            ("local", "filter.lfs2.clean\ntouch x"),
            ("local", "filter.lfs2.required\ntrue"),
            ("worktree", "diff.Tex.textconv\nx"),
            ("local", "merge.m.driver\nx"),
            ("local", "core.sshcommand\nx"),
            ("local", "credential.https://h.helper\nx"),
            ("local", "user.name\nme"),
        )
    )
    assert options == (
        *("-c", "filter.lfs2.clean="),
        *("-c", "filter.lfs2.required=false"),
        *("-c", "diff.Tex.textconv="),  # a subsection keeps its case
        *("-c", "merge.m.driver="),
        *("-c", "core.sshcommand=ssh"),
        *("-c", "credential.https://h.helper="),
    )


def test_the_users_own_config_is_left_as_it_is() -> None:
    assert neutralising(listing(("global", "filter.lfs.clean\ngit-lfs clean"), ("system", "core.pager\nless"))) == ()


def test_a_key_dash_c_cannot_name_is_refused() -> None:
    with pytest.raises(UnsafeConfig, match="'='"):
        neutralising(listing(("local", "filter.a=b.clean\nx")))


def test_every_command_line_carries_the_safe_options() -> None:
    argv = safe_git("status", listing="")
    assert argv[: len(SAFE_OPTIONS) + 1] == ["git", *SAFE_OPTIONS]
    assert argv[-1] == "status"
    assert {"core.hooksPath=/dev/null", "core.fsmonitor=false", "protocol.ext.allow=never"} <= set(SAFE_OPTIONS)


def run(repo: Path, argv: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, cwd=repo, capture_output=True, text=True, check=False)


@pytest.mark.parametrize("kind", PLANTED_KINDS)
def test_no_planted_program_runs_under_safe_git(tmp_path: Path, kind: str) -> None:
    markers = tmp_path / "markers"
    repo = planted_repository(tmp_path, kind, markers)
    (repo / "a.txt").write_text("changed\n", encoding="utf-8")  # a diff to show, through a driver if any
    listed = run(repo, ["git", *SAFE_OPTIONS, *LIST_CONFIG])
    assert listed.returncode == 0, listed.stderr

    for args in (
        ("--no-optional-locks", "status", "--porcelain=v2", "--ignore-submodules=dirty"),
        ("diff", "--no-ext-diff", "--no-textconv", "--ignore-submodules=dirty", "HEAD"),
        ("log", "-p", "--no-ext-diff", "--no-textconv", "-1"),
        ("ls-files", "--error-unmatch", "a.txt"),
        ("fetch", "planted"),
    ):
        run(repo, safe_git(*args, listing=listed.stdout))

    assert sorted(p.name for p in markers.iterdir()) == []
