"""Lesson 09's build-along track: the trust store's fingerprint and memory, and Project Trust on a
repository's own settings file.

`make lesson-check N=09` runs these against your copy (`make lesson-start N=09`); each test's first
docstring line is the behaviour it reports.
"""

import json
from pathlib import Path

from decode.config import trust_store
from decode.permissions.project_trust import is_trusted, trust
from decode.permissions.settings_files import load_permission_settings


def _repository(tmp_path: Path, allow: list[str]) -> tuple[Path, Path]:
    project, home = tmp_path / "project", tmp_path / "home"
    (project / ".decode").mkdir(parents=True, exist_ok=True)
    home.mkdir(exist_ok=True)
    settings = {"permissions": {"allow": allow, "deny": ["Bash(rm:*)"]}}
    (project / ".decode" / "settings.json").write_text(json.dumps(settings), encoding="utf-8")
    return project, home


def test_a_fingerprint_is_the_content_not_its_order() -> None:
    """A fingerprint: the same content in any key order hashes alike; a changed rule does not."""
    one = trust_store.fingerprint({"a": {"allow": ["Bash(ls)"]}, "b": {"defaultMode": "acceptEdits"}})
    assert one == trust_store.fingerprint({"b": {"defaultMode": "acceptEdits"}, "a": {"allow": ["Bash(ls)"]}})
    assert one != trust_store.fingerprint({"a": {"allow": ["Bash(ls:*)"]}, "b": {"defaultMode": "acceptEdits"}})


def test_the_store_remembers_a_project_and_keeps_the_others(tmp_path: Path) -> None:
    """The trust store remembers a digest per project, and a second project's does not erase the first's."""
    store = tmp_path / "home" / ".decode" / "trusted.json"
    assert trust_store.remember(store, tmp_path / "a", "digest-a") == store
    trust_store.remember(store, tmp_path / "b", "digest-b")
    assert trust_store.is_trusted(store, tmp_path / "a", "digest-a")
    assert trust_store.is_trusted(store, tmp_path / "b", "digest-b")
    assert not trust_store.is_trusted(store, tmp_path / "a", "digest-b")


def test_a_repository_s_allow_waits_for_trust_and_a_changed_one_asks_again(tmp_path: Path) -> None:
    """A repository's allow rules are in force once trusted, and held again when a grant changes."""
    project, home = _repository(tmp_path, ["Bash(npm test)"])
    loaded = load_permission_settings(project, home)
    assert "Bash(npm test)" not in [rule.text for rule in loaded.rules]
    assert "Bash(rm:*)" in [rule.text for rule in loaded.rules]  # a deny needs no trust
    assert not is_trusted(project, loaded.grants, home)
    trust(project, loaded.grants, home)
    assert "Bash(npm test)" in [rule.text for rule in load_permission_settings(project, home).rules]
    project, home = _repository(tmp_path, ["Bash(npm test)", "Bash(curl:*)"])
    again = load_permission_settings(project, home)
    assert not again.trusted
    assert "Bash(npm test)" not in [rule.text for rule in again.rules]
