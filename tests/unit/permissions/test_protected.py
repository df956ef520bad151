"""Protected paths: `.git` at any depth, `.decode` and `.claude` ask before any write, whatever
an allow rule covers, in every mode but bypass — by file tool, redirection or a command naming them."""

from pathlib import Path

import pytest

from decode.permissions.gate import PermissionGate
from decode.permissions.protected import git_dir_of, is_protected, spells_protected
from decode.permissions.rules import parse_rule
from decode.permissions.shell import Glob
from decode.permissions.types import Decision, Mode
from decode.tools.bash import BASH
from decode.tools.edit import EDIT
from decode.tools.write import WRITE

WS = "/w/project"


@pytest.mark.parametrize(
    "path",
    [
        "/w/project/.git",
        "/w/project/.git/hooks/pre-commit",
        "/w/project/vendor/lib/.git/hooks/pre-commit",
        "/w/project/sub/.git",  # a submodule's `.git` file
        "/w/project/.claude/settings.json",
        "/w/project/.decode/settings.local.json",
        "/w/project/a/b/.claude/agents/x.md",
        "/w/project/.GIT/config",  # macOS and Windows read it as `.git`
        "/home/u/.claude/settings.json",
        "/elsewhere/repo/.git/config",
    ],
)
def test_a_path_in_a_protected_folder_is_protected(path: str) -> None:
    assert is_protected(path, WS)


@pytest.mark.parametrize(
    "path", ["/w/project/src/a.py", "/w/project", "/w/project/.github/ci.yml", "/w/project/git/x", "/tmp/x.gitx"]
)
def test_other_paths_are_not(path: str) -> None:
    assert not is_protected(path, WS)


def test_a_workspace_inside_a_decode_folder_is_judged_from_its_own_root() -> None:
    clone = "/w/.decode/workspaces/s1"
    assert not is_protected(f"{clone}/src/a.py", clone)
    assert is_protected(f"{clone}/.git/hooks/x", clone)
    assert is_protected("/w/.decode/workspaces/s1.git/config", clone)  # beside it: the Hand-back Repository


def test_a_pattern_word_is_protected_when_it_could_name_a_protected_folder() -> None:
    assert is_protected(Glob("/w/project/.gi?/config"), WS)
    assert is_protected(Glob("/w/project/.[c]laude/x"), WS)
    assert not is_protected(Glob("/w/project/*/config"), WS)  # bash's `*` never matches a leading dot


def test_a_rule_spells_a_protected_folder_only_by_its_name() -> None:
    assert spells_protected(".claude/skills/**")
    assert spells_protected("cp a vendor/.git/config")
    assert not spells_protected("**")
    assert not spells_protected("**/*.json")
    assert not spells_protected("cp:*")


def test_a_git_file_points_at_a_protected_git_directory(tmp_path: Path) -> None:
    (tmp_path / "sep").mkdir()
    (tmp_path / "ws").mkdir()
    (tmp_path / "ws" / ".git").write_text("gitdir: ../sep\n")
    assert git_dir_of(str(tmp_path / "ws")) == str((tmp_path / "sep").resolve())
    assert git_dir_of(str(tmp_path)) is None


def gate(workspace: Path, *allow: str, mode: Mode = Mode.DEFAULT) -> PermissionGate:
    rules = [parse_rule(text, Decision.ALLOW) for text in allow]
    return PermissionGate(rules, mode, workspace=workspace)


async def decide(gate: PermissionGate, tool: str, argument: str) -> Decision:
    traits = {"edit": EDIT.traits, "write": WRITE.traits, "bash": BASH.traits}[tool]
    key = "command" if tool == "bash" else "path"
    return (await gate.check(tool, {key: argument}, traits)).decision


@pytest.mark.parametrize(
    ("tool", "argument", "rules"),
    [
        ("edit", ".git/hooks/pre-commit", ("Edit(**)",)),
        ("write", ".claude/settings.json", ("Edit(**)",)),
        ("write", ".claude/settings.json", ("Edit(**/*.json)",)),
        ("edit", ".decode/settings.local.json", ("Edit(**)",)),
        ("edit", "vendor/lib/.git/hooks/pre-commit", ("Edit(**)",)),
        ("write", "sub/.git", ("Edit(**)",)),
        ("write", "{outside}/repo/.git/config", ("Edit(//**)",)),
        ("write", "~/.claude/settings.json", ("Edit(~/**)",)),
        ("bash", "echo x > .claude/settings.json", ("Bash(echo:*)", "Edit(**)")),
        ("bash", "echo x >> vendor/lib/.git/config", ("Bash(echo:*)", "Edit(**)")),
        ("bash", "cp evil .claude/", ("Bash(cp:*)",)),
        ("bash", "mv evil vendor/lib/.git/hooks/post-checkout", ("Bash(mv:*)",)),
        ("bash", "echo x | tee .claude/settings.json", ("Bash(echo:*)", "Bash(tee:*)")),
        ("bash", "sed -i s/a/b/ sub/.git", ("Bash(sed:*)",)),
        ("bash", "ln -s /tmp/evil lib/.git/hooks/pre-commit", ("Bash(ln:*)",)),
        ("bash", "cp evil .cl?ude/settings.json", ("Bash(cp:*)",)),
    ],
)
@pytest.mark.parametrize("mode", [Mode.DEFAULT, Mode.ACCEPT_EDITS])
async def test_a_write_to_a_protected_path_asks_even_when_an_allow_rule_covers_it(
    tmp_path: Path, tool: str, argument: str, rules: tuple[str, ...], mode: Mode
) -> None:
    workspace = tmp_path / "project"
    workspace.mkdir()
    argument = argument.replace("{outside}", str(tmp_path / "outside"))
    assert await decide(gate(workspace, *rules, mode=mode), tool, argument) is Decision.ASK


@pytest.mark.parametrize("target", [".git/hooks", "vendor/lib/.git"])
async def test_a_symlink_to_a_protected_folder_is_that_folder(tmp_path: Path, target: str) -> None:
    (tmp_path / target).mkdir(parents=True)
    (tmp_path / "x").symlink_to(tmp_path / target)
    assert await decide(gate(tmp_path, "Edit(**)"), "write", "x/pre-commit") is Decision.ASK
    assert await decide(gate(tmp_path, "Bash(cp:*)"), "bash", "cp evil x/pre-commit") is Decision.ASK


async def test_the_git_directory_a_git_file_points_at_is_protected(tmp_path: Path) -> None:
    (tmp_path / "elsewhere" / "hooks").mkdir(parents=True)
    (tmp_path / "ws").mkdir()
    (tmp_path / "ws" / ".git").write_text(f"gitdir: {tmp_path / 'elsewhere'}\n")
    hook = str(tmp_path / "elsewhere" / "hooks" / "pre-commit")
    assert await decide(gate(tmp_path / "ws", "Edit(//**)"), "write", hook) is Decision.ASK


async def test_a_rule_that_spells_the_protected_folder_lets_the_write_through(tmp_path: Path) -> None:
    assert await decide(gate(tmp_path, "Edit(.claude/skills/**)"), "write", ".claude/skills/a/SKILL.md") is (
        Decision.ALLOW
    )
    assert await decide(gate(tmp_path, "Bash(cp a .claude/agents/)"), "bash", "cp a .claude/agents/") is (
        Decision.ALLOW
    )


async def test_bypass_writes_protected_paths(tmp_path: Path) -> None:
    bypass = gate(tmp_path, mode=Mode.BYPASS)
    assert await decide(bypass, "edit", "vendor/lib/.git/hooks/pre-commit") is Decision.ALLOW
    assert await decide(bypass, "bash", "cp evil .claude/") is Decision.ALLOW


async def test_reading_a_protected_path_with_a_file_tool_does_not_ask(tmp_path: Path) -> None:
    from decode.tools.read import READ

    verdict = await gate(tmp_path).check("read", {"path": "vendor/.git/config"}, READ.traits)
    assert verdict.decision is Decision.ALLOW
