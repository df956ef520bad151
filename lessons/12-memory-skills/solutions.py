"""Reference solutions of lesson 12's exercises, and a plausible mistake for each that its check rejects."""

import re
from pathlib import Path

import yaml

NAME = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


def find_agents_files(workspace: Path) -> list[Path]:
    """Every directory from the root down (`parents` runs upwards, so reversed), then the workspace."""
    workspace = workspace.resolve()
    directories = [*reversed(workspace.parents), workspace]
    return [directory / "AGENTS.md" for directory in directories if (directory / "AGENTS.md").is_file()]


def wrong_find_agents_files(workspace: Path) -> list[Path]:
    """Walks up from the workspace: the nearest file comes first, and the root's rules get the last word."""
    workspace = workspace.resolve()
    return [
        directory / "AGENTS.md" for directory in [workspace, *workspace.parents] if (directory / "AGENTS.md").is_file()
    ]


def parse_skill(path: Path) -> tuple[str, str, str]:
    """Front matter between two `---` lines, then the body; `name` and `description` checked."""
    text = path.read_text(encoding="utf-8")
    match = re.match(r"^---\n(.*?)\n---\n?(.*)$", text, re.DOTALL)
    if match is None:
        raise ValueError(f"{path}: no front matter")
    meta = yaml.safe_load(match.group(1)) or {}
    name, description = meta.get("name"), meta.get("description")
    if not isinstance(name, str) or not NAME.fullmatch(name) or len(name) > 64:
        raise ValueError(f"{path}: name must be lowercase letters, digits and hyphens")
    if name != path.parent.name:
        raise ValueError(f"{path}: name {name!r} differs from its folder {path.parent.name!r}")
    if not isinstance(description, str) or not description.strip():
        raise ValueError(f"{path}: description is missing")
    return name, description.strip(), match.group(2).strip()


def wrong_parse_skill(path: Path) -> tuple[str, str, str]:
    """Reads the fields but checks none of them: a broken skill slips into the catalogue."""
    _, front, body = path.read_text(encoding="utf-8").split("---", 2)
    meta = yaml.safe_load(front)
    return meta["name"], meta.get("description", "").strip(), body.strip()
