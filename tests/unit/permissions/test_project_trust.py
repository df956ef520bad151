"""Project Trust for settings: the repository's allow rules and accept-edits mode wait for a yes."""

import json
import subprocess
from pathlib import Path

import pytest

from decode.permissions.gate import PermissionGate
from decode.permissions.project_trust import TRUST_FILE, trust
from decode.permissions.settings_files import load_permission_settings, repository_grants
from decode.permissions.types import Decision, Layer, Mode
from decode.tools.bash import BASH


def write(path: Path, content: dict) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(content, indent=2), encoding="utf-8")
    return path


def actions(project: Path, **kwargs: bool) -> set[tuple[str, str]]:
    return {(rule.action.value, rule.text) for rule in load_permission_settings(project, **kwargs).rules}


@pytest.mark.parametrize("folder", [".decode", ".claude"])
def test_an_untrusted_projects_allows_and_mode_are_not_in_force_its_denies_and_asks_are(
    project: Path, folder: str
) -> None:
    rules = {"allow": ["Bash(curl:*)"], "ask": ["Bash(git push:*)"], "deny": ["Bash(rm:*)"]}
    write(project / folder / "settings.json", {"permissions": rules | {"defaultMode": "acceptEdits"}})
    loaded = load_permission_settings(project)
    assert not loaded.trusted
    assert {(r.action.value, r.text) for r in loaded.rules} == {("ask", "Bash(git push:*)"), ("deny", "Bash(rm:*)")}
    assert loaded.default_mode is None
    assert [rule.text for rule in loaded.grants.rules] == ["Bash(curl:*)"]
    assert loaded.grants.mode is Mode.ACCEPT_EDITS
    # --trust-project-settings: in force for this load, remembered nowhere.
    assert ("allow", "Bash(curl:*)") in actions(project, trust_project=True)
    assert not (Path.home() / TRUST_FILE).exists()


def test_trusting_puts_them_in_force_until_a_grant_changes(project: Path) -> None:
    settings = write(project / ".claude" / "settings.json", {"permissions": {"allow": ["Bash(npm test)"]}})
    trust(project, load_permission_settings(project).grants)
    assert ("allow", "Bash(npm test)") in actions(project)
    # A deny added needs no new trust: the grants are the same.
    write(settings, {"permissions": {"allow": ["Bash(npm test)"], "deny": ["Bash(rm:*)"]}})
    assert ("allow", "Bash(npm test)") in actions(project)
    # Another allow is another grant: nothing of the file's allows holds until trusted again.
    write(settings, {"permissions": {"allow": ["Bash(npm test)", "Bash(curl:*)"]}})
    assert actions(project) == set()


def test_a_plan_or_default_mode_needs_no_trust(project: Path) -> None:
    write(project / ".decode" / "settings.json", {"permissions": {"defaultMode": "plan"}})
    loaded = load_permission_settings(project)
    assert (loaded.default_mode, loaded.trusted, bool(loaded.grants)) == (Mode.PLAN, True, False)


def test_an_untrusted_allow_cannot_outvote_a_users_ask(project: Path) -> None:
    write(Path.home() / ".claude" / "settings.json", {"permissions": {"ask": ["Bash(git push:*)"]}})
    write(project / ".decode" / "settings.json", {"permissions": {"allow": ["Bash(git push:*)"]}})
    assert actions(project) == {("ask", "Bash(git push:*)")}
    assert actions(project, trust_project=True) == {("ask", "Bash(git push:*)")}  # trusted: an ask still stands


def test_the_users_and_the_local_files_need_no_trust(project: Path) -> None:
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)  # a checkout: an untracked local file is the user's
    write(Path.home() / ".claude" / "settings.json", {"permissions": {"allow": ["Bash(make:*)"]}})
    write(project / ".claude" / "settings.local.json", {"permissions": {"allow": ["Bash(npm test)"]}})
    write(project / ".decode" / "settings.local.json", {"permissions": {"defaultMode": "acceptEdits"}})
    loaded = load_permission_settings(project)
    assert {rule.text for rule in loaded.rules} == {"Bash(make:*)", "Bash(npm test)"}
    assert loaded.default_mode is Mode.ACCEPT_EDITS
    assert (loaded.trusted, repository_grants(loaded)) == (True, [])


@pytest.fixture
def tracked_local(project: Path) -> Path:
    """A `.claude/settings.local.json` allowing curl, added to git (it came with the repository)."""
    local = write(project / ".claude" / "settings.local.json", {"permissions": {"allow": ["Bash(curl:*)"]}})
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com"]
    subprocess.run([*git, "init", "-q"], cwd=project, check=True)
    subprocess.run([*git, "add", "-f", str(local)], cwd=project, check=True)
    return local


async def test_a_local_file_git_tracks_needs_trust_like_the_projects(project: Path, tracked_local: Path) -> None:
    local = tracked_local
    gate = PermissionGate.from_settings(project, secret_files=())
    verdict = await gate.check("bash", {"command": "curl https://example.com"}, BASH.traits)
    assert verdict.decision is Decision.ASK
    (notice,) = repository_grants(gate.settings)
    assert (notice.path, notice.level) == (local, "notice")
    assert "not in force until you trust them" in notice.message
    trusted = PermissionGate.from_settings(project, secret_files=(), trust_project=True)
    verdict = await trusted.check("bash", {"command": "curl https://example.com"}, BASH.traits)
    assert (verdict.decision, verdict.source.layer if verdict.source else None) == (Decision.ALLOW, Layer.LOCAL)


def test_other_grants_are_trusted_with_the_settings_and_shown_in_the_question(project: Path) -> None:
    from decode.permissions.project_trust import OtherGrant
    from decode.tui.settings_trust import trust_question

    agent = project / ".claude" / "agents" / "fixer.md"
    other = [OtherGrant(agent, 5, "agent fixer: permissionMode accept-edits")]
    loaded = load_permission_settings(project, other_grants=other)  # no settings file: the agent alone
    assert not loaded.trusted
    question = trust_question(loaded.grants)
    assert question.title == str(agent)
    assert question.body == f"agent fixer: permissionMode accept-edits  ({agent}:5)"
    assert "agent fixer: permissionMode accept-edits" in repository_grants(loaded)[0].message

    trust(project, loaded.grants)
    assert load_permission_settings(project, other_grants=other).trusted
    changed = [OtherGrant(agent, 5, "agent fixer: replaces the built-in")]
    assert not load_permission_settings(project, other_grants=changed).trusted  # a changed grant asks again
    assert load_permission_settings(project).trusted  # nothing granted: nothing to trust
