"""Mining: a real session log becomes a new regression case.

    text = mine_case(Path(".decode/sessions/20261202T033251Z_80fdc312.jsonl"))

The case gets the log's first user prompt, the files the run read whole (their text as the `read`
results showed it, line numbers taken off), the metrics that held in that run as its expectations,
and an assertion drafted from the final answer, marked TODO for a human to sharpen.
"""

import json
import re
from pathlib import Path
from typing import Any

from evals.regression.metrics import Evidence, LogError, Score, read_log, score

_NUMBERED = re.compile(r"^ *\d+\t(.*)$")


def check_shapes(log: Path, records: list[dict[str, Any]]) -> None:
    """Refuse (`LogError`) a log whose turns are not the shapes decode writes: the metrics read
    them as plain JSON, so a string where a list belongs would otherwise end in a traceback."""
    for number, record in enumerate(records, 1):
        if record.get("type") != "turn":
            continue
        messages = record.get("messages", [])
        if not isinstance(messages, list) or not all(isinstance(m, dict) for m in messages):
            raise LogError(f"{log}: record {number}: `messages` must be a list of objects")
        for message in messages:
            parts = message.get("parts", [])
            if not isinstance(parts, list) or not all(isinstance(p, dict) for p in parts):
                raise LogError(f"{log}: record {number}: `parts` must be a list of objects")
            for part in parts:
                _check_part(log, number, part)


def _check_part(log: Path, number: int, part: dict[str, Any]) -> None:
    kind = part.get("part_kind")
    if kind == "tool-call" and not isinstance(part.get("tool_name"), str):
        raise LogError(f"{log}: record {number}: a tool call's `tool_name` must be a string")
    args = part.get("args")
    if kind == "tool-call" and isinstance(args, str):
        try:
            args = json.loads(args)
        except json.JSONDecodeError:
            args = {}  # unreadable arguments count as none, as the metrics read them
    if kind == "tool-call" and args is not None and not isinstance(args, dict):
        raise LogError(f"{log}: record {number}: a tool call's `args` must be an object")
    if "tool_call_id" in part and not isinstance(part["tool_call_id"], str):
        raise LogError(f"{log}: record {number}: `tool_call_id` must be a string")
    if kind == "text" and not isinstance(part.get("content", ""), str):
        raise LogError(f"{log}: record {number}: a text part's `content` must be a string")


def first_prompt(records: list[dict[str, Any]]) -> str:
    for record in records:
        for message in record.get("messages", []) if record.get("type") == "turn" else []:
            for part in message.get("parts", []):
                if part.get("part_kind") == "user-prompt" and isinstance(part.get("content"), str):
                    return part["content"]
    return ""


def files_read(evidence: Evidence) -> dict[str, str]:
    """Each file a successful `read` showed whole: from line 1, nothing cut, nothing left to read."""
    files: dict[str, str] = {}
    for call in evidence.calls:
        if call.name != "read" or call.outcome != "success" or call.args.get("offset", 1) != 1:
            continue
        path = str(call.args.get("path", "")).removeprefix("./")
        outside = path.startswith("/") or ".." in path.split("/") or path.split("/")[0] == ".decode"
        if not path or outside or "more follow" in call.content or "[line cut at" in call.content:
            continue
        if call.content.endswith(" is empty."):
            files[path] = ""
            continue
        lines = [_NUMBERED.match(line) for line in call.content.split("\n")]
        if all(lines):
            files[path] = "\n".join(match.group(1) for match in lines if match) + "\n"
    return files


def held_metrics(evidence: Evidence, written: list[str]) -> list[tuple[dict[str, Any], Score]]:
    """The metrics that say something about this run and held in it (value 1)."""
    names = {call.name for call in evidence.calls}
    candidates: list[dict[str, Any]] = []
    if names & {"edit", "write"}:
        candidates.append({"name": "read_before_edit"})
    if names & {"grep", "glob"}:
        candidates.append({"name": "search_with_tools"})
    if any(call.outcome == "denied" for call in evidence.calls):
        candidates.append({"name": "deny_respected"})
    if "agent" in names:
        candidates.append({"name": "used_subagent"})
    if "todo_write" in names:
        candidates.append({"name": "used_todos"})
    if "ask_user" in names:
        candidates.append({"name": "asked_user"})
    candidates.append({"name": "no_invented_files", "allowed": written})
    return [(spec, s) for spec, s in zip(candidates, score(evidence, candidates), strict=True) if s.value >= 1.0]


def _toml(value: Any) -> str:
    """A TOML value: JSON's strings, numbers, booleans and arrays are TOML's too."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{key} = {_toml(item)}" for key, item in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_toml(item) for item in value) + "]"
    return json.dumps(value, ensure_ascii=False)


def mine_case(log: Path, case_id: str | None = None) -> str:
    """The text of a new case TOML drawn from `log` (`LogError` when it is not a session log)."""
    records = read_log(log)
    check_shapes(log, records)
    header = records[0]
    files = files_read(Evidence(records))
    evidence = Evidence(records, before=_bytes(files), after=_bytes(files))
    written = sorted(
        {str(c.args.get("path", "")).removeprefix("./") for c in evidence.calls if c.name == "write"} - set(files)
    )
    held = held_metrics(evidence, written)
    answer = " ".join(evidence.final_answer().split())[:200]
    lines = [
        f"# Mined from {log.name} (session {header['session_id']}, model {header.get('model')}).",
        f"id = {_toml(case_id or 'mined-' + str(header['session_id']))}",
        "tier = 2",
        f"prompt = {_toml(first_prompt(records))}",
        f"permission_mode = {_toml(header.get('mode') or 'bypass')}",
        "metrics = [",
        *(f"  {_toml(spec)},  # held: {s.detail[:70]}" for spec, s in held),
        "]",
        f"assertion = {_toml('TODO (edit me): the agent did what its final answer says: ' + answer)}",
        "",
        "[files]",
        *(f"{_toml(path)} = {_toml(text)}" for path, text in sorted(files.items())),
    ]
    return "\n".join(lines) + "\n"


def _bytes(files: dict[str, str]) -> dict[str, bytes]:
    return {path: text.encode() for path, text in files.items()}
