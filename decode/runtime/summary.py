"""The Run Summary: what one headless run did, as the one JSON object scripts read.

`--output-format json` prints it, `stream-json` ends with it (`"type": "result"`), and
`--summary-json PATH` writes it. Every key is always present (null when unknown), so a script can
index it without checks; `docs/schemas/stream-json.schema.json` describes it. It carries the keys a
script written for `claude -p` reads (`subtype`, `num_turns`, `duration_ms`, `total_cost_usd`,
`permission_denials`…) beside decode's own, so such a script runs unchanged (ADR-0125).
"""

import json
import os
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from decode.runtime.exits import EXIT_OK, EXIT_REQUEST_LIMIT

if TYPE_CHECKING:
    from decode.entities.usage import Usage
    from decode.sandbox.handback import HandBack


@dataclass
class RunSummary:
    """Filled in as the run goes; `to_json()` when it is over."""

    started: float = field(default_factory=time.monotonic)
    result: str = ""
    session_id: str = ""
    usage: "Usage | None" = None
    error: str | None = None
    handback: "HandBack | None" = None
    api_s: float = 0.0
    """Seconds spent waiting on the model (`duration_api_ms`)."""
    structured: dict[str, Any] | None = None
    """With `--json-schema`: the answer as the object it is."""
    denials: list[dict[str, Any]] = field(default_factory=list)
    """Each call the Permission Gate refused: `{tool_name, tool_use_id, tool_input}`, as Claude Code's."""

    def to_json(self, exit_code: int) -> dict[str, Any]:
        """The result object of a run that ended with `exit_code`."""
        usage = self.usage
        requests = usage.requests if usage else 0
        error = None if exit_code == 0 else self.error
        if exit_code != 0 and error is None:  # a failure no error line named: a hand-back push, say
            handback = self.handback
            error = f"hand-back: {handback.error}" if handback and handback.error else f"exit code {exit_code}"
        elapsed = time.monotonic() - self.started
        return {
            "type": "result",
            "subtype": subtype(exit_code),
            "result": self.result,
            "session_id": self.session_id,
            "usage": {
                "requests": requests,
                "input_tokens": usage.input_tokens if usage else 0,
                "output_tokens": usage.output_tokens if usage else 0,
                "total_tokens": usage.total_tokens if usage else 0,
                "cache_creation_input_tokens": usage.cache_write_tokens if usage else 0,
                "cache_read_input_tokens": usage.cache_read_tokens if usage else 0,
            },
            "cost_usd": usage.cost_usd if usage else None,
            "total_cost_usd": usage.cost_usd if usage else None,
            "num_requests": requests,
            "num_turns": requests,
            "duration_s": round(elapsed, 3),
            "duration_ms": round(elapsed * 1000),
            "duration_api_ms": round(self.api_s * 1000),
            "is_error": exit_code != 0,
            "exit_code": exit_code,
            "error": error,
            "permission_denials": self.denials,
            "structured_output": self.structured if exit_code == 0 else None,
            "handback": handback_json(self.handback),
        }


def subtype(exit_code: int) -> str:
    """Claude Code's name for how the run ended: `success`, `error_max_turns` (the request ceiling),
    `error_during_execution` (anything else)."""
    if exit_code == EXIT_OK:
        return "success"
    return "error_max_turns" if exit_code == EXIT_REQUEST_LIMIT else "error_during_execution"


def handback_json(handback: "HandBack | None") -> dict[str, Any] | None:
    """The hand-back of a `--repo` run: its branch, outcome, commits and files changed."""
    if handback is None:
        return None
    return {
        "branch": handback.workspace.branch,
        "outcome": str(handback.outcome),
        "commits": handback.commit_count,
        "files": len(handback.files),
    }


def write_summary(path: Path, summary: dict[str, Any]) -> str | None:
    """Write `summary` to `path` (its folder made if needed); the reason it could not be, else None."""
    return write_text(path, json.dumps(summary, ensure_ascii=False, indent=2) + "\n")


def write_text(path: Path, text: str) -> str | None:
    """Write `text` to `path` as UTF-8 (its folder made if needed); the reason it could not be, else None."""
    data = text.encode("utf-8", "surrogatepass").decode("utf-8", "replace").encode("utf-8")  # no lone surrogate
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        # A temp file beside it, then os.replace: that replaces a symlink at `path` itself, so a committed
        # `summary.json -> ~/.bashrc` is not written through.
        fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as file:
                file.write(data)
            os.chmod(temp, 0o644)
            os.replace(temp, path)
        except BaseException:
            Path(temp).unlink(missing_ok=True)
            raise
    except OSError as exc:
        return f"{exc.strerror or exc} ({path})"
    return None
