"""When a warm sandbox is replaced: its key, the command line and what each bind is now (ADR-0111)."""

import os
from pathlib import Path
from types import SimpleNamespace

import pytest

from decode.sandbox.types import SandboxError
from decode.sandbox.warm import WarmSandbox
from decode.sandbox.warm_keeper import WarmKeeper, view_key

RACE = 'bwrap: Can\'t bind mount /oldroot/ on /newroot/: Unable to apply mount flags: remount "/newroot/x/merged"'


def test_the_key_changes_when_a_bound_file_is_replaced_or_removed(tmp_path: Path) -> None:
    bound = tmp_path / ".mcp.json"
    bound.write_text("{}")
    args = ["bwrap", "--ro-bind", str(bound), str(bound), "--tmpfs", "/tmp", "--", "true"]
    first = view_key(args)
    assert view_key(args) == first
    replacement = tmp_path / "new.json"
    replacement.write_text("{}")
    os.replace(replacement, bound)  # the same path, a new file
    assert view_key(args) != first
    second = view_key(args)
    bound.unlink()
    assert view_key(args) != second


def test_the_key_changes_with_the_command_line(tmp_path: Path) -> None:
    assert view_key(["bwrap", "--unshare-net"]) != view_key(["bwrap"])


@pytest.mark.parametrize(
    ("failures", "started", "off"),
    [
        ([RACE], 2, None),  # a host mount went away while bwrap copied it: once more, and it is up
        ([RACE, RACE], 2, RACE),  # twice: the warm path is off, commands run cold
        (["bwrap: No permissions to create new namespace"], 1, "namespace"),  # not a race: no retry
    ],
)
async def test_a_start_that_lost_a_mount_race_is_tried_once_more(
    monkeypatch: pytest.MonkeyPatch, failures: list[str], started: int, off: str | None
) -> None:
    calls: list[list[str]] = []
    up = SimpleNamespace(broken=None)  # what the keeper reads of a sandbox that is up

    async def start(argv: list[str], key: tuple[object, ...]) -> object:
        calls.append(argv)
        if len(calls) <= len(failures):
            raise SandboxError(f"the warm sandbox did not start: {failures[len(calls) - 1]}")
        return up

    monkeypatch.setattr(WarmSandbox, "start", start)
    keeper = WarmKeeper()
    cold = ["bwrap", "--ro-bind", "/", "/", "--unshare-pid", "--", "true"]
    sandbox = await keeper.sandbox(cold)
    assert len(calls) == started
    assert (sandbox is up) == (off is None)
    assert (keeper.off is None) if off is None else (off in (keeper.off or ""))
