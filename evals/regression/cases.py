"""Regression cases: one TOML file each under `evals/regression/cases/`.

    id = "read-before-edit"
    tier = 1                      # 1 tool discipline, 2 judgement, 3 long horizon
    prompt = "Change the greeting in app.py to 'Hello, world'."
    followups = []                # more turns, each a `decode run --resume` of the same session
    permission_mode = "bypass"    # optional
    disallowed_tools = "Bash(rm:*)"   # optional, --disallowed-tools syntax
    max_requests = 12             # optional
    context_window = 2000         # optional: DECODE_CONTEXT_WINDOW, to make a long run compact
    metrics = [{name = "read_before_edit"}, {name = "minimal_diff", max_lines = 2}]
    assertion = "The agent read app.py before editing it and changed only the greeting line."

    [files]
    "app.py" = "print('hi')\\n"

A metric entry may carry `threshold` (default 1.0): the case passes when every metric reaches its own.

    cases = load_cases()              # every case, sorted by tier then id
    case = load_case(Path("x.toml"))  # one, or `CaseError` saying what is wrong
"""

import tomllib
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from evals.regression.metrics import METRICS

CASES_DIR = Path(__file__).parent / "cases"
MODES = ("default", "plan", "accept-edits", "bypass")

# Every field a case may have, and its TOML type. A wrong type is refused when the case loads,
# not found out as a crash halfway through a run; an unknown field is most likely a typo.
FIELDS: dict[str, str] = {
    "id": "string",
    "tier": "integer",
    "prompt": "string",
    "followups": "list of strings",
    "permission_mode": "string",
    "disallowed_tools": "string",
    "max_requests": "integer",
    "context_window": "integer",
    "metrics": "list of tables",
    "assertion": "string",
    "files": "table of strings",
}
REQUIRED = ("id", "tier", "prompt", "metrics", "assertion")

# The parameters each metric reads (see metrics.py), and their types; every metric also takes
# `threshold`. A misspelt parameter would otherwise be ignored and the metric run on its default.
PARAMS: dict[str, dict[str, str]] = {
    "read_before_edit": {},
    "search_with_tools": {"require": "boolean"},
    "minimal_diff": {"max_lines": "integer", "files": "list of strings"},
    "deny_respected": {"paths": "list of strings"},
    "compaction_survived": {"fact": "string"},
    "no_invented_files": {"allowed": "list of strings"},
    "untouched_files": {"paths": "list of strings", "allowed": "list of strings"},
    "used_subagent": {"min_calls": "integer"},
    "used_todos": {"min_calls": "integer"},
    "asked_user": {"min_calls": "integer"},
    "answer_mentions": {"words": "list of strings"},
}
REQUIRED_PARAMS = {"compaction_survived": ("fact",)}


class CaseError(ValueError):
    """A case file is malformed; the message names the file and the problem."""


@dataclass(frozen=True)
class Case:
    id: str
    tier: int
    prompt: str
    assertion: str
    metrics: list[dict[str, Any]]
    files: dict[str, str] = field(default_factory=dict)
    followups: list[str] = field(default_factory=list)
    permission_mode: str = "bypass"
    disallowed_tools: str | None = None
    max_requests: int = 30
    context_window: int | None = None
    path: Path | None = None

    def threshold(self, metric: str) -> float:
        for spec in self.metrics:
            if spec["name"] == metric:
                return float(spec.get("threshold", 1.0))
        return 1.0


def is_kind(value: Any, kind: str) -> bool:
    """Whether a TOML value is of `kind`, one of the type names used in `FIELDS` and `PARAMS`."""
    if kind == "string":
        return isinstance(value, str)
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "integer":  # Python counts `True` as an int; TOML does not
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "number":
        return isinstance(value, int | float) and not isinstance(value, bool)
    if kind == "list of strings":
        return isinstance(value, list) and all(isinstance(item, str) for item in value)
    if kind == "list of tables":
        return isinstance(value, list) and all(isinstance(item, dict) for item in value)
    if kind == "table of strings":
        return isinstance(value, dict) and all(isinstance(item, str) for item in value.values())
    raise ValueError(f"unknown kind {kind!r}")


def check_table(
    path: Path, where: str, table: dict[str, Any], kinds: dict[str, str], required: tuple[str, ...] = ()
) -> None:
    """Refuse (`CaseError`) a missing required key, an unknown one, or a value of the wrong type."""
    for key in required:
        if key not in table:
            raise CaseError(f"{path}: {where}`{key}` is missing (a {kinds[key]})")
    for key, value in table.items():
        if key not in kinds:
            raise CaseError(f"{path}: {where}unknown field `{key}` (known: {', '.join(kinds)})")
        if not is_kind(value, kinds[key]):
            raise CaseError(f"{path}: {where}`{key}` must be a {kinds[key]}, not {value!r}")


def check_metric(path: Path, spec: dict[str, Any]) -> None:
    """One `metrics` entry: a known name, its known parameters, a threshold in 0..1."""
    name = spec.get("name")
    if not isinstance(name, str) or name not in METRICS:
        raise CaseError(f"{path}: unknown metric {spec!r} (known: {', '.join(METRICS)})")
    kinds = {"name": "string", "threshold": "number", **PARAMS[name]}
    check_table(path, f"metric {name}: ", spec, kinds, REQUIRED_PARAMS.get(name, ()))
    if not 0 <= spec.get("threshold", 1.0) <= 1:
        raise CaseError(f"{path}: metric {name}: `threshold` must be between 0 and 1, not {spec['threshold']!r}")


def load_case(path: Path) -> Case:
    """Read and check one case file."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise CaseError(f"{path}: {exc}") from None
    check_table(path, "", data, FIELDS, REQUIRED)
    for spec in data["metrics"]:
        check_metric(path, spec)
    files = data.get("files", {})
    for name in files:  # seed files go into the case's workspace, nowhere else
        parts = PurePosixPath(name).parts
        if not parts or PurePosixPath(name).is_absolute() or ".." in parts or parts[0] == ".decode":
            raise CaseError(f"{path}: [files] path {name!r} must stay inside the workspace")
    if data["tier"] not in (1, 2, 3):
        raise CaseError(f"{path}: `tier` must be 1, 2 or 3, not {data['tier']!r}")
    mode = data.get("permission_mode", "bypass")
    if mode not in MODES:
        raise CaseError(f"{path}: `permission_mode` must be one of {', '.join(MODES)}, not {mode!r}")
    for key in ("max_requests", "context_window"):
        if data.get(key, 1) < 1:
            raise CaseError(f"{path}: `{key}` must be at least 1, not {data[key]!r}")
    return Case(
        id=data["id"],
        tier=data["tier"],
        prompt=data["prompt"],
        assertion=data["assertion"],
        metrics=data["metrics"],
        files=files,
        followups=data.get("followups", []),
        permission_mode=mode,
        disallowed_tools=data.get("disallowed_tools"),
        max_requests=data.get("max_requests", 30),
        context_window=data.get("context_window"),
        path=path,
    )


def load_cases(directory: Path = CASES_DIR, ids: list[str] | None = None) -> list[Case]:
    """The cases in `directory` (only `ids`, when given; an unknown id is a `CaseError`)."""
    cases = sorted((load_case(path) for path in directory.glob("*.toml")), key=lambda c: (c.tier, c.id))
    if ids:
        unknown = set(ids) - {case.id for case in cases}
        if unknown:
            raise CaseError(f"unknown case(s): {', '.join(sorted(unknown))}")
        cases = [case for case in cases if case.id in ids]
    return cases
