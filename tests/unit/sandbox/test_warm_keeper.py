"""When a warm sandbox is replaced: its key, the command line and what each bind is now (ADR-0111)."""

import os
from pathlib import Path

from decode.sandbox.warm_keeper import view_key


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
