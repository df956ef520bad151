"""What an "always" answer saves: the narrowest rules that cover a call, or a wider prefix first."""

from pathlib import Path

import pytest

from decode.entities.tools import UNDECLARED, ToolKind, ToolTraits
from decode.permissions.rules import parse_rule
from decode.permissions.types import Decision
from decode.tools.bash import BASH
from decode.tools.catalog import default_tools
from decode.tools.edit import EDIT
from tests.unit.permissions.conftest import gate_with

WEB_FETCH = next(spec.traits for spec in default_tools() if spec.name == "web_fetch")


def bash(command: str) -> dict[str, str]:
    return {"command": command}


async def test_the_narrowest_rule_for_a_compound_command_names_each_part(tmp_path: Path) -> None:
    rules = await gate_with(tmp_path).narrowest_rules("bash", bash("git log -1 && echo 'a b' > notes.txt"), BASH.traits)
    assert rules == ["Bash(git log -1)", "Bash(echo 'a b')", "Write(/notes.txt)"]


async def test_a_saved_narrowest_rule_allows_exactly_that_request(tmp_path: Path) -> None:
    command = bash("npm run build --if-present")
    gate = gate_with(tmp_path)
    saved = await gate.narrowest_rules("bash", command, BASH.traits)
    gate.add_rules(parse_rule(rule, Decision.ALLOW) for rule in saved)
    assert (await gate.check("bash", command, BASH.traits)).decision is Decision.ALLOW
    assert (
        await gate.check("bash", bash("npm run build --if-present && touch x"), BASH.traits)
    ).decision is Decision.ASK


async def test_a_file_rule_is_anchored_and_escaped(tmp_path: Path) -> None:
    gate = gate_with(tmp_path)
    assert await gate.narrowest_rules("edit", {"path": "src/../a[1].py"}, EDIT.traits) == ["Edit(/a\\[1\\].py)"]
    gate.add_rules([parse_rule("Edit(/a\\[1\\].py)", Decision.ALLOW)])
    assert (await gate.check("edit", {"path": "a[1].py"}, EDIT.traits)).decision is Decision.ALLOW
    assert (await gate.check("edit", {"path": "sub/a[1].py"}, EDIT.traits)).decision is Decision.ASK


async def test_nothing_is_saved_for_a_script_with_a_hazard(tmp_path: Path) -> None:
    gate = gate_with(tmp_path)
    mcp = ToolTraits(ToolKind.OTHER, rules=("mcp__github__get_issue",))
    assert await gate.narrowest_rules("bash", bash("echo $(date)"), BASH.traits) == []
    assert await gate.narrowest_rules("web_fetch", {"url": "https://x.org/a"}, WEB_FETCH) == ["WebFetch(domain:x.org)"]
    assert await gate.narrowest_rules("mcp__github__get_issue", {}, mcp) == ["mcp__github__get_issue"]
    assert await gate.narrowest_rules("mystery", {}, UNDECLARED) == []


@pytest.mark.parametrize(
    ("command", "choices"),
    [
        # Code given inline names no script: only the exact command (ADR-0085)
        ("python -c 'import calc; print(calc.add(2, 3))'", [("Bash(python -c 'import calc; print(calc.add(2, 3))')",)]),
        ("python calc.py --add 2 3", [("Bash(python calc.py:*)",), ("Bash(python calc.py --add 2 3)",)]),
        (
            "git log -1 && echo 'a b' > notes.txt",
            [
                ("Bash(git log -1)", "Bash(echo:*)", "Write(/notes.txt)"),  # `git log --output=…` writes anywhere
                ("Bash(git log -1)", "Bash(echo 'a b')", "Write(/notes.txt)"),
            ],
        ),
        ("cargo test --release", [("Bash(cargo test:*)",), ("Bash(cargo test --release)",)]),
        # Options of these run a program or write anywhere (`npm test --script-shell=…`, `sed '1e …'`,
        # `git fetch --upload-pack=…`, `tar --checkpoint-action=exec=…`), or another spelling destroys:
        ("timeout 5 npm test", [("Bash(timeout 5 npm test)",)]),
        ("npm run build --if-present", [("Bash(npm run build --if-present)",)]),
        ("sed -n 1,5p a.txt", [("Bash(sed -n 1,5p a.txt)",)]),
        ("awk '{print}' a.txt", [("Bash(awk '{print}' a.txt)",)]),
        ("tar tf x.tar", [("Bash(tar tf x.tar)",)]),
        ("git fetch", [("Bash(git fetch)",)]),
        ("git stash list", [("Bash(git stash list)",)]),
        ("make test", [("Bash(make test)",)]),
        ("uv run pytest -x", [("Bash(uv run pytest:*)",), ("Bash(uv run pytest -x)",)]),
        ("ls | xargs wc -l", [("Bash(ls)", "Bash(xargs wc -l)")]),  # readers: their files could be any (ADR-0085)
        ("pytest -x | xargs echo", [("Bash(pytest:*)", "Bash(echo:*)"), ("Bash(pytest -x)", "Bash(xargs echo)")]),
        # Where a prefix would allow far more than the user saw, only the exact command:
        ("rm -rf build", [("Bash(rm -rf build)",)]),
        ("git push origin main", [("Bash(git push origin main)",)]),
        ("sudo apt install x", [("Bash(sudo apt install x)",)]),
        ("uv run rm x", [("Bash(uv run rm x)",)]),
        ("git -C sub status", [("Bash(git -C sub status)",)]),
        ("docker exec box sh", [("Bash(docker exec box sh)",)]),
        ("echo $(date)", []),  # a hazard: no rule at all (ADR-0021)
        ("bash -c 'ls'", []),
    ],
)
async def test_always_offers_the_commands_first_words_then_the_exact_command(
    tmp_path: Path, command: str, choices: list[tuple[str, ...]]
) -> None:
    assert await gate_with(tmp_path).rule_choices("bash", bash(command), BASH.traits) == choices


async def test_each_choice_allows_the_call_and_the_first_one_covers_its_next_spelling(tmp_path: Path) -> None:
    command = "python calc.py --add 2 3"
    for choice in await gate_with(tmp_path).rule_choices("bash", bash(command), BASH.traits):
        gate = gate_with(tmp_path)
        gate.add_rules(parse_rule(rule, Decision.ALLOW) for rule in choice)
        assert (await gate.check("bash", bash(command), BASH.traits)).decision is Decision.ALLOW
    gate = gate_with(tmp_path)
    gate.add_rules([parse_rule("Bash(python calc.py:*)", Decision.ALLOW)])
    assert (await gate.check("bash", bash("python calc.py --sub 5 1"), BASH.traits)).decision is Decision.ALLOW
    assert (await gate.check("bash", bash("python -c 'print(1)'"), BASH.traits)).decision is Decision.ASK
    assert (await gate.check("bash", bash("python calc.py && rm -rf /"), BASH.traits)).decision is Decision.ASK


async def test_other_tools_are_offered_their_narrowest_rule(tmp_path: Path) -> None:
    gate = gate_with(tmp_path)
    assert await gate.rule_choices("edit", {"path": "src/a.py"}, EDIT.traits) == [("Edit(/src/a.py)",)]
    assert await gate.rule_choices("mystery", {}, UNDECLARED) == []
