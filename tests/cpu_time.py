"""A pytest plugin that records the CPU each test costs: `pytest -p tests.cpu_time …`.

The suite is CPU-bound on a shared 2-core machine, so wall time says more about the neighbours
than about a test. Around each test (setup, call and teardown) this takes `getrusage` of the
process itself and of its reaped children (a `decode run`, a server the test waited for), and at
the end writes one JSON line per test to `$DECODE_TESTS_CPU_FILE` (default `.cache/test-cpu.jsonl`)
and prints the modules that cost the most. Under xdist each worker appends its own lines.

What it cannot see: processes nobody waits for (tmux's server and what it runs, a daemon), and a
fork server's children until the fork server itself is reaped (at its module's or session's end).
"""

import json
import os
import resource
from collections import defaultdict
from collections.abc import Generator
from pathlib import Path

import pytest

RECORDS: list[dict[str, object]] = []


def _cpu(who: int) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Generator[None]:
    own, children = _cpu(resource.RUSAGE_SELF), _cpu(resource.RUSAGE_CHILDREN)
    yield
    RECORDS.append(
        {
            "test": item.nodeid,
            "module": item.nodeid.split("::")[0],
            "self": round(_cpu(resource.RUSAGE_SELF) - own, 3),
            "children": round(_cpu(resource.RUSAGE_CHILDREN) - children, 3),
        }
    )


def pytest_sessionfinish(session: pytest.Session) -> None:
    path = Path(os.environ.get("DECODE_TESTS_CPU_FILE", ".cache/test-cpu.jsonl"))
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as file:
        for record in RECORDS:
            file.write(json.dumps(record) + "\n")


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if not RECORDS:  # the xdist controller: its workers wrote the file
        return
    by_module: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
    for record in RECORDS:
        totals = by_module[str(record["module"])]
        totals[0] += float(record["self"])  # type: ignore[arg-type]
        totals[1] += float(record["children"])  # type: ignore[arg-type]
    terminalreporter.write_sep("=", "CPU by module (self + reaped children, seconds)")
    for module, (own, children) in sorted(by_module.items(), key=lambda kv: -sum(kv[1]))[:15]:
        terminalreporter.write_line(f"{own + children:8.1f} {own:8.1f} {children:8.1f}  {module}")
