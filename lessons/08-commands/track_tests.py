"""Lesson 08's build-along track: the files a command writes, `set` options that change what runs,
and the string `xargs -I` replaces, each also seen through the gate.

`make lesson-check N=08` runs these against your copy (`make lesson-start N=08`); each test's first
docstring line is the behaviour it reports.
"""

from pathlib import Path

from decode.permissions.gate import PermissionGate
from decode.permissions.risky_options import replace_string, risky_set
from decode.permissions.rules import parse_rule
from decode.permissions.types import Decision
from decode.permissions.written_files import written_files
from decode.tools.bash import BASH


def test_a_command_names_the_files_it_writes() -> None:
    """`tee a b` writes a and b, `cp x y` writes y, `sed -i` its files; `ls` and plain `sed` write none."""
    assert written_files(("tee", "a", "b")) == ["a", "b"]
    assert "y" in written_files(("cp", "x", "y"))
    assert written_files(("sed", "-i", "s/a/b/", "f")) == ["f"]
    assert written_files(("sed", "s/a/b/", "f")) == []
    assert written_files(("ls", "x")) == []


async def test_a_written_file_is_judged_by_edit_rules(tmp_path: Path) -> None:
    """An Edit deny on `.env` denies `tee .env`, though a rule allows `tee`."""
    rules = [parse_rule("Bash(tee:*)", Decision.ALLOW), parse_rule("Edit(.env)", Decision.DENY)]
    gate = PermissionGate(rules, workspace=tmp_path)
    assert (await gate.check("bash", {"command": "tee notes.txt"}, BASH.traits)).decision is Decision.ALLOW
    assert (await gate.check("bash", {"command": "tee .env"}, BASH.traits)).decision is Decision.DENY


def test_set_options_that_change_what_runs_are_risky() -> None:
    """`set -e` and `set -euo pipefail` are harmless; `set -k` and `set -o keyword` change what runs."""
    assert not risky_set(("set", "-e"))
    assert not risky_set(("set", "-euo", "pipefail"))
    assert risky_set(("set", "-k"))
    assert risky_set(("set", "-o", "keyword"))


def test_xargs_replace_string_is_found() -> None:
    """`xargs -I {}`, `-I%` and `--replace` name the string replaced by what xargs reads; plain xargs none."""
    assert replace_string(("xargs", "-I", "{}", "rm", "{}")) == "{}"
    assert replace_string(("xargs", "-I%", "rm", "%")) == "%"
    assert replace_string(("xargs", "--replace", "rm", "{}")) == "{}"
    assert replace_string(("xargs", "rm")) is None


async def test_a_deny_sees_rm_through_wrappers(tmp_path: Path) -> None:
    """A deny on `rm` denies `sudo /bin/rm`, `timeout 5 rm` and `xargs -I {} rm {}`."""
    gate = PermissionGate([parse_rule("Bash(rm:*)", Decision.DENY)], workspace=tmp_path)
    for command in ["sudo /bin/rm -rf x", "timeout 5 rm x", "ls | xargs -I {} rm {}"]:
        assert (await gate.check("bash", {"command": command}, BASH.traits)).decision is Decision.DENY, command
