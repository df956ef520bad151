"""Which language server handles which file.

A file's suffix picks a server command: `ty server` for Python unless the settings say otherwise.
`DECODE_LSP_SERVERS` (JSON) maps suffixes to commands: `{".py": ["pylsp"]}` uses pylsp for Python,
`{".rs": ["rust-analyzer"]}` adds Rust, `{".py": []}` turns Python's off. One server process per
command: `.py` and `.pyi` share theirs.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

DEFAULT_SERVERS: dict[str, tuple[str, ...]] = {".py": ("ty", "server"), ".pyi": ("ty", "server")}
LANGUAGE_IDS = {".py": "python", ".pyi": "python", ".rs": "rust", ".ts": "typescript", ".js": "javascript"}
# `ty server` answers `workspace/diagnostic` only in workspace mode (measured with ty 0.0.108).
INITIALIZATION_OPTIONS: dict[str, dict[str, Any]] = {"ty": {"diagnosticMode": "workspace"}}


@dataclass(frozen=True)
class ServerSpec:
    """A server command and what to tell it when it starts."""

    argv: tuple[str, ...]
    language_id: str
    initialization_options: Mapping[str, Any] = field(default_factory=dict)

    @property
    def name(self) -> str:
        """How messages name it: the program's name (`ty`, `pylsp`; a script's, run by Python)."""
        program = Path(self.argv[0]).name
        if program.startswith("python") and len(self.argv) > 1 and not self.argv[1].startswith("-"):
            return Path(self.argv[1]).name
        return program


def server_table(configured: Mapping[str, Sequence[str]]) -> dict[str, tuple[str, ...]]:
    """Suffix → command: the defaults, then the settings' (an empty command removes a suffix)."""
    table = dict(DEFAULT_SERVERS)
    for suffix, argv in configured.items():
        key = suffix if suffix.startswith(".") else f".{suffix}"
        if argv:
            table[key] = tuple(argv)
        else:
            table.pop(key, None)
    return table


def server_for(path: Path, configured: Mapping[str, Sequence[str]]) -> ServerSpec | None:
    """The server that handles `path`, or None when no server does."""
    argv = server_table(configured).get(path.suffix)
    if not argv:
        return None
    language = LANGUAGE_IDS.get(path.suffix, path.suffix.lstrip("."))
    return ServerSpec(argv, language, INITIALIZATION_OPTIONS.get(Path(argv[0]).name, {}))
