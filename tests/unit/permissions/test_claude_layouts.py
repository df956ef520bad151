"""Claude Code settings layouts (claude_layouts.toml): six real files, one call, Claude Code's verdict."""

import json
import tomllib
from pathlib import Path

import pytest

from decode.permissions.gate import PermissionGate
from decode.permissions.settings_files import load_permission_settings
from decode.permissions.types import Decision, Mode
from decode.tools.catalog import default_tools
from tests.conftest import own_settings

LAYOUTS = tomllib.loads((Path(__file__).parent / "claude_layouts.toml").read_text(encoding="utf-8"))["layout"]
FILES = {
    "user": (True, ".claude/settings.json"),
    "decode_user": (True, ".decode/settings.json"),
    "project": (False, ".claude/settings.json"),
    "decode_project": (False, ".decode/settings.json"),
    "local": (False, ".claude/settings.local.json"),
    "decode_local": (False, ".decode/settings.local.json"),
}


@pytest.mark.parametrize("layout", LAYOUTS, ids=lambda layout: layout["name"])
async def test_claude_code_layout(layout: dict, project: Path) -> None:
    for key, (in_home, name) in FILES.items():
        if key in layout:
            path = (Path.home() if in_home else project) / name
            text = json.dumps({"permissions": layout[key]}, indent=2)
            if key.endswith("local"):  # the user's own, as an "always" answer writes it
                own_settings(path, text)
            else:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text, encoding="utf-8")
    (project / "src").mkdir()
    (project / "src" / "app.py").write_text("x = 1\n")
    gate = PermissionGate.from_settings(project, secret_files=(), trust_project=layout.get("trusted", False))
    spec = next(spec for spec in default_tools() if spec.name == layout["tool"])
    key = spec.traits.command or spec.traits.url or spec.traits.path or "path"
    verdict = await gate.check(spec.name, {key: layout["arg"]}, spec.traits)
    assert verdict.decision is Decision(layout["expect"]), verdict.reason
    problems = [str(problem) for problem in gate.problems]
    if "problem" in layout:
        (problem,) = problems
        assert layout["problem"] in problem
        assert ".json:3: " in problem  # the file and the line of `defaultMode`
    else:
        assert problems == []


def test_the_unused_keys_of_a_claude_code_file_are_named_once(project: Path) -> None:
    path = project / ".claude" / "settings.local.json"
    path.parent.mkdir()
    claude = {"permissions": {"allow": ["Bash(ls)"], "additionalDirectories": ["../x"]}, "hooks": {}, "env": {}}
    path.write_text(json.dumps(claude | {"statusLine": {}, "model": "opus", "$schema": "x"}), encoding="utf-8")
    loaded = load_permission_settings(project)
    (note,) = loaded.notes
    assert str(note) == (
        f"{path}: holds keys decode does not use: env, statusLine, model, permissions.additionalDirectories"
    )
    assert (note.level, loaded.problems) == ("notice", [])


@pytest.mark.parametrize("spelling", ["acceptEdits", "plan", "default", "bypassPermissions", "manual"])
def test_claude_codes_mode_spellings_are_decodes_modes(spelling: str) -> None:
    expected = {"acceptEdits": "accept-edits", "bypassPermissions": "bypass", "manual": "default"}
    assert Mode.parse(spelling) is Mode(expected.get(spelling, spelling))
