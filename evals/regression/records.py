"""What a run left behind, read back: a session log's records, its tool calls, the workspace.

    evidence = Evidence.from_log(Path(".decode/sessions/…jsonl"), before, after)
    [(call.name, call.outcome) for call in evidence.calls], evidence.final_answer()

The log is decode's Session Log (decode/context/session_log.py): JSONL records; the tool calls and
their results are read from the `turn` records, in order (a `compaction` record rewrites the
history and would repeat them, so it only marks *when* the compaction happened). The records are
read as plain JSON, not through decode's models: a log from an older decode still scores.
"""

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

Snapshot = dict[str, bytes]
"""A workspace's files, `relative/path -> bytes` (decode's own `.decode/` left out)."""


class LogError(ValueError):
    """The file is not a decode session log."""


@dataclass(frozen=True)
class ToolCall:
    """One tool call of the main agent and what came back: `outcome` is success, denied, failed…"""

    name: str
    args: dict[str, Any]
    outcome: str
    content: str
    after_compaction: bool


@dataclass
class Evidence:
    """What a run left behind: the log's records and the workspace before and after."""

    records: list[dict[str, Any]]
    before: Snapshot = field(default_factory=dict)
    after: Snapshot = field(default_factory=dict)

    @classmethod
    def from_log(cls, path: Path, before: Snapshot | None = None, after: Snapshot | None = None) -> "Evidence":
        return cls(read_log(path), before or {}, after or {})

    @property
    def calls(self) -> list[ToolCall]:
        return tool_calls(self.records)

    @property
    def compacted(self) -> bool:
        return any(record.get("type") == "compaction" for record in self.records)

    def final_answer(self) -> str:
        """The text of the last model response that wrote any."""
        written = [text for _, text in texts(self.records)]
        return written[-1] if written else ""


def read_log(path: Path) -> list[dict[str, Any]]:
    """The records of a session log, or `LogError` when `path` is not one."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise LogError(f"{path}: cannot be read ({exc})") from None
    records = []
    for line in lines:
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue  # a torn last line: decode's own reader skips it too
        if isinstance(record, dict):
            records.append(record)
    if not records or records[0].get("type") != "header" or "session_id" not in records[0]:
        raise LogError(f"{path}: not a decode session log (no header line)")
    return records


def _parts(records: list[dict[str, Any]]) -> list[tuple[bool, str, dict[str, Any]]]:
    """(after a compaction?, message kind, part) for every part of every turn, in order."""
    out, compacted = [], False
    for record in records:
        if record.get("type") == "compaction":
            compacted = True
        if record.get("type") != "turn":
            continue
        for message in record.get("messages", []):
            out.extend((compacted, message.get("kind", ""), part) for part in message.get("parts", []))
    return out


def texts(records: list[dict[str, Any]]) -> list[tuple[bool, str]]:
    return [
        (compacted, part["content"])
        for compacted, kind, part in _parts(records)
        if kind == "response" and part.get("part_kind") == "text" and part.get("content")
    ]


def tool_calls(records: list[dict[str, Any]]) -> list[ToolCall]:
    """The main agent's tool calls, each with its result (a subagent's calls are in its own log)."""
    results: dict[str, dict[str, Any]] = {}
    calls: list[tuple[bool, dict[str, Any]]] = []
    for compacted, _, part in _parts(records):
        kind = part.get("part_kind")
        if kind == "tool-call":
            calls.append((compacted, part))
        elif kind in ("tool-return", "retry-prompt") and part.get("tool_call_id"):
            results[part["tool_call_id"]] = part
    out = []
    for compacted, part in calls:
        args = part.get("args") or {}
        if isinstance(args, str):
            try:
                args = json.loads(args)
            except json.JSONDecodeError:
                args = {}
        result = results.get(part.get("tool_call_id", ""), {})
        outcome = result.get("outcome") or ("failed" if result.get("part_kind") == "retry-prompt" else "missing")
        content = result.get("content")
        out.append(ToolCall(part["tool_name"], args, outcome, content if isinstance(content, str) else "", compacted))
    return out
