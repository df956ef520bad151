"""Reference solutions of lesson 15's exercises, and a plausible mistake for each that its check rejects."""

import yaml

CLAUDE = {
    "Read": "read",
    "Write": "write",
    "Edit": "edit",
    "Grep": "grep",
    "Glob": "glob",
    "Bash": "bash",
    "Task": "agent",
}
MODES = ("plan", "default", "accept-edits", "bypass")  # strictest first


def parse_agent_file(text: str) -> tuple[str, str, tuple[str, ...] | None, str]:
    """Front matter between two `---` lines, then the body; tools mapped, in order, each once."""
    if not text.startswith("---\n"):
        raise ValueError("no front matter")
    front, separator, body = text[4:].partition("\n---")
    if not separator:
        raise ValueError("the front matter is never closed")
    meta = yaml.safe_load(front) or {}
    name, description = meta.get("name"), meta.get("description")
    if not isinstance(name, str) or not name.strip():
        raise ValueError("name is missing")
    if not isinstance(description, str) or not description.strip():
        raise ValueError("description is missing")
    listed = meta.get("tools")
    tools = None
    if listed is not None:
        items = listed.split(",") if isinstance(listed, str) else listed
        tools = tuple(dict.fromkeys(CLAUDE.get(item.strip(), item.strip()) for item in items if item.strip()))
    return name, description.strip(), tools, body.lstrip("-").strip()


def wrong_parse_agent_file(text: str) -> tuple[str, str, tuple[str, ...] | None, str]:
    """Splits `tools` but keeps Claude Code's names: `Read` matches none of decode's tools."""
    _, front, body = text.split("---", 2)
    meta = yaml.safe_load(front)
    tools = tuple(item.strip() for item in meta["tools"].split(",")) if "tools" in meta else None
    return meta["name"], meta["description"], tools, body.strip()


def child_mode(parent: str, own: str | None) -> str:
    """The stricter of the two: the child's own mode may tighten its parent's, never loosen it."""
    if own is None:
        return parent
    return min(parent, own, key=MODES.index)


def wrong_child_mode(parent: str, own: str | None) -> str:
    """Lets the agent file decide: an `accept-edits` agent under a `plan` parent would edit files."""
    return own or parent
