"""The permission check: what the Permission Gate adds to every tool call.

Builds the world of the bypass corpus (`tests/unit/permissions/bypass_corpus.toml`: its settings
files, files and symlinks) in the scratch folder, then times `await gate.check()` on every case of
the corpus, with the traits the case's tool declares (as `test_gate.py` gives them), each case
repeated so the clock's resolution does not matter. Figures:

- the median case and the slowest case, CPU time per check (target: well under a millisecond),
  and the slowest case of the `deep-input` class (hundreds of nested `$(…)`, where tree-sitter's
  own parse dominates; target: a few milliseconds, it asks). CPU time, not wall: on a machine
  shared with other work a check's wall time is mostly waiting for a core (the note gives it);
- the ten slowest cases, CPU per check, on stderr (where to look next);
- `decode permissions check bash "…"` as a process, start to answer (target: 0.5 s, issue 25);
- loading the settings files and building a gate (done once per session, and again after an
  "always" answer), and the first check of a process, which loads the bash grammar (the tool
  modules, whose traits the gate reads, are imported before its clock starts).
"""

import asyncio
import os
import statistics
import subprocess
import sys
import time
import tomllib
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from perf import Context, Figure

if TYPE_CHECKING:
    from decode.entities.tools import ToolTraits

INNER = 200  # checks per sample
SAMPLES = 5


def _traits(tool: str) -> "ToolTraits":
    """The traits the corpus case's tool declares: the catalog's, a web fetch's, an MCP tool's, or none."""
    from decode.entities.tools import UNDECLARED, ToolKind, ToolTraits
    from decode.tools.catalog import default_tools

    catalog = {spec.name: spec.traits for spec in default_tools()}
    if tool in catalog:
        return catalog[tool]
    if tool == "web_fetch":
        return ToolTraits(ToolKind.OTHER, rules=("WebFetch",), url="url")
    if tool.lower().startswith("mcp__"):
        return ToolTraits(ToolKind.OTHER, rules=(tool,))
    return UNDECLARED


def _arguments(traits: "ToolTraits", argument: str) -> dict[str, str]:
    key = traits.command or traits.url or traits.pattern or traits.path or "path"
    return {key: argument} if argument else {}


def _fill(text: str, places: dict[str, Path]) -> str:
    """The corpus's placeholders, as `test_gate.fill` replaces them."""
    import re

    for name, place in places.items():
        text = text.replace("{" + name + "}", str(place))
    text = re.sub(r"\{deep:(\d+)\}", lambda m: "$(echo " * int(m.group(1)) + "x" + ")" * int(m.group(1)), text)
    return re.sub(r"\{parens:(\d+)\}", lambda m: "(" * int(m.group(1)) + "ls" + ")" * int(m.group(1)), text)


def _build_world(corpus: dict[str, Any], tmp: Path) -> dict[str, Path]:
    import json

    project, home = tmp / "project", tmp / "home"
    places = {"workspace": project, "home": home, "outside": tmp / "outside"}
    for folder, layer in ((home, "user"), (project, "project")):
        (folder / ".decode").mkdir(parents=True)
        (folder / ".decode" / "settings.json").write_text(json.dumps(corpus["settings"][layer]), encoding="utf-8")
    for name in corpus["tree"]["files"]:
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text("x\n", encoding="utf-8")
    for name in corpus["tree"]["folders"]:
        Path(_fill(name, places)).mkdir(parents=True, exist_ok=True)
    for link, target in corpus["tree"]["symlinks"].items():
        (project / link).symlink_to(_fill(target, places))
    return places


def _per_call(call: Callable[[], Any], inner: int) -> float:
    """Median seconds of one call, over SAMPLES samples of `inner` calls."""
    samples = []
    for _ in range(SAMPLES):
        started = time.perf_counter()
        for _ in range(inner):
            call()
        samples.append((time.perf_counter() - started) / inner)
    return statistics.median(samples)


async def _per_await(call: Callable[[], Awaitable[Any]], inner: int) -> tuple[float, float]:
    """Median CPU and wall seconds of one awaited call, over SAMPLES samples of `inner` calls."""
    cpu, wall = [], []
    for _ in range(SAMPLES):
        started, used = time.perf_counter(), time.process_time()
        for _ in range(inner):
            await call()
        cpu.append((time.process_time() - used) / inner)
        wall.append((time.perf_counter() - started) / inner)
    return statistics.median(cpu), statistics.median(wall)


def benchmarks(ctx: Context) -> Iterator[Figure]:
    corpus = tomllib.loads((ctx.root / "tests/unit/permissions/bypass_corpus.toml").read_text(encoding="utf-8"))
    places = _build_world(corpus, ctx.tmp)
    os.environ["HOME"] = str(places["home"])  # the corpus's user settings file

    # The tools declare the traits the gate judges by; a session imports them anyway, so the
    # first check's clock starts after them.
    bash_traits = _traits("bash")
    started = time.perf_counter()
    from decode.permissions.gate import PermissionGate
    from decode.permissions.types import Mode

    secret_files = corpus["settings"]["secret_files"]
    first_gate = PermissionGate.from_settings(places["workspace"], secret_files=secret_files, trust_project=True)
    asyncio.run(first_gate.check("bash", {"command": "git status && ls"}, bash_traits))
    first = time.perf_counter() - started

    gates = {
        mode: PermissionGate.from_settings(
            places["workspace"], mode=mode, secret_files=secret_files, trust_project=True
        )
        for mode in Mode
    }
    load = _per_call(
        lambda: PermissionGate.from_settings(places["workspace"], secret_files=secret_files, trust_project=True), 20
    )
    rules = len(first_gate.rules)

    async def time_cases() -> list[tuple[float, float, str, str]]:
        timings: list[tuple[float, float, str, str]] = []
        for case in corpus["case"]:
            gate = gates[Mode.parse(case.get("mode", "default"))]
            argument = _fill(case["arg"], places)
            tool, traits = case["tool"], _traits(case["tool"])
            args = _arguments(traits, argument)

            def check(gate: PermissionGate = gate, tool: str = tool, args: dict = args, traits: Any = traits) -> Any:
                return gate.check(tool, args, traits)

            timings.append((*await _per_await(check, INNER), argument, case["class"]))
        return timings

    timings = asyncio.run(time_cases())

    median = statistics.median(cpu for cpu, _, _, _ in timings)
    median_wall = statistics.median(wall for _, wall, _, _ in timings)
    ranked = sorted((t for t in timings if t[3] != "deep-input"), reverse=True)
    for cpu, wall_time, case, kind in ranked[:10]:
        print(f"    {cpu * 1e6:7.0f} µs CPU {wall_time * 1e6:7.0f} µs wall  {kind:15} {case[:60]!r}", file=sys.stderr)
    slowest, slowest_wall, slowest_case, _ = ranked[0]
    deepest, _, deepest_case, _ = max(t for t in timings if t[3] == "deep-input")
    median_note = f"{len(timings)} cases; wall {median_wall * 1e6:.0f} µs"
    yield Figure("check, median corpus case (CPU)", median * 1e6, "µs", 250, note=median_note, issue=27)
    shown = slowest_case.replace("\n", "\\n")[:32]
    slowest_note = f"{shown}; wall {slowest_wall * 1e6:.0f} µs"
    yield Figure("check, slowest corpus case (CPU)", slowest * 1e6, "µs", 1000, note=slowest_note, issue=27)
    yield Figure("check, slowest deep input (CPU)", deepest * 1e3, "ms", 10, note=deepest_case[:40])
    yield Figure("load settings + build gate", load * 1e3, "ms", 5, note=f"3 layers, {rules} rules")
    yield Figure("first check in a process", first * 1e3, "ms", 300, note="imports, bash grammar, settings")
    yield Figure("decode permissions check (a process)", _cli_check(ctx, places["workspace"]), "s", 0.5)


def _cli_check(ctx: Context, workspace: Path) -> float:
    """The median wall time of `decode permissions check` answering about one command, in seconds."""
    argv = [str(ctx.bin("decode")), "permissions", "check", "bash", "git status && rm -rf build"]
    walls = []
    for _ in range(SAMPLES * 2):
        started = time.perf_counter()
        subprocess.run(argv, cwd=workspace, capture_output=True, check=False)
        walls.append(time.perf_counter() - started)
    return statistics.median(walls)
