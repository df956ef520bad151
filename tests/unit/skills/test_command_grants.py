"""A command's allowed-tools as grants: a repository's wait for Project Trust, as it is now."""

from pathlib import Path

from decode.permissions.settings_files import load_permission_settings
from decode.skills.command_grants import command_rules, project_command_grants, split_rules
from decode.skills.custom_commands import discover_commands

COMMAND = "---\nallowed-tools: Bash(git add:*), Bash(git status:*) Read\nmodel: haiku\n---\nCommit.\n"


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_rules_split_as_claude_code_writes_them() -> None:
    assert split_rules("Bash(git add:*), Bash(git status:*) Read,Edit") == [
        "Bash(git add:*)",
        "Bash(git status:*)",
        "Read",
        "Edit",
    ]


def test_a_repositorys_command_is_a_grant_of_project_trust(tmp_path: Path) -> None:
    path = _write(tmp_path / ".claude" / "commands" / "commit.md", COMMAND)
    _write(tmp_path / ".claude" / "commands" / "plain.md", "Nothing granted.\n")
    (grant,) = project_command_grants(tmp_path)
    assert (grant.path, grant.line) == (path, 2)
    assert grant.text == "command /commit: allowed-tools Bash(git add:*), Bash(git status:*) Read"
    loaded = load_permission_settings(tmp_path, tmp_path / "home")
    assert grant in loaded.grants.others
    assert not loaded.trusted


def test_an_untrusted_or_changed_repository_command_grants_nothing(tmp_path: Path) -> None:
    path = _write(tmp_path / ".claude" / "commands" / "commit.md", COMMAND)
    command = discover_commands(tmp_path, tmp_path / "home").commands["commit"]
    rules, why = command_rules(command, None)
    assert rules == []
    assert "not trusted" in why
    trusted = project_command_grants(tmp_path)
    rules, why = command_rules(command, trusted)
    assert [rule.text for rule in rules] == ["Bash(git add:*)", "Bash(git status:*)", "Read"]
    assert why == ""
    assert rules[0].source is not None
    assert rules[0].source.path == path
    path.write_text(COMMAND.replace("git add:*", "curl:*"))  # changed after the trust was given
    changed = discover_commands(tmp_path, tmp_path / "home").commands["commit"]
    rules, why = command_rules(changed, trusted)
    assert rules == []
    assert "changed since" in why


def test_the_users_own_command_grants_without_trust_and_a_bad_rule_is_named(tmp_path: Path) -> None:
    home = tmp_path / "home"
    _write(home / ".claude" / "commands" / "mine.md", "---\nallowed-tools: Bash(ls:*), Bash(oops\n---\nGo.\n")
    command = discover_commands(tmp_path / "project", home).commands["mine"]
    rules, why = command_rules(command, None)
    assert [rule.text for rule in rules] == ["Bash(ls:*)"]
    assert why.startswith("/mine: allowed-tools skipped: ")
    assert "Bash(oops" in why
