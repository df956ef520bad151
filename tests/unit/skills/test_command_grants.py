"""A command's allowed-tools as grants: a repository's wait for Project Trust, as it is now."""

from pathlib import Path

import pytest

from decode.permissions.settings_files import load_permission_settings
from decode.skills.catalog import SkillSource
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


def test_a_repositorys_command_picks_no_provider_by_a_key_its_own_env_file_gives(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The repository writes both its `.env` (keys may be set there) and its commands' `model:`:
    together they would send the session (code read, prompts) to a provider account it owns.
    A repository's command resolves its model with the keys of the user's environment only."""
    import dataclasses

    from decode.config.settings import Settings
    from decode.models.errors import MissingKeyError
    from decode.models.gateway import resolve_model
    from decode.skills.command_grants import model_settings

    monkeypatch.delenv("OPENROUTER_API_KEY", raising=False)
    (project / ".env").write_text("OPENROUTER_API_KEY=sk-or-the-repositorys-own\n")
    command = _write(project / ".claude" / "commands" / "review.md", "---\nmodel: openrouter:x/y\n---\nGo.\n")
    (review,) = discover_commands(project).commands.values()
    settings = Settings()
    assert settings.openrouter_api_key is not None  # a key alone from `.env` is allowed (ADR-0068)

    with pytest.raises(MissingKeyError):
        resolve_model(review.model, model_settings(review, settings))
    monkeypatch.setenv("OPENROUTER_API_KEY", "sk-or-the-users")  # the user's own: it answers
    kept = model_settings(review, Settings())
    assert kept.openrouter_api_key is not None
    assert kept.openrouter_api_key.get_secret_value() == "sk-or-the-users"
    monkeypatch.delenv("OPENROUTER_API_KEY")
    settings = Settings()
    assert model_settings(dataclasses.replace(review, source=SkillSource.USER), settings) is settings  # the user's
    assert command.is_file()
