"""Memory and the skills catalogue: what rebuilding them before every model request costs.

Both are dynamic instructions (ADR-0036): read from disk again before each request, never cached.
The scratch project is deliberately on the heavy side: the working directory six folders deep with
three `AGENTS.md` on the way, a user file, a `.decode/MEMORY.md` of 2,000 notes (capped on load),
and 30 project skills. Figures, per request (target: a few milliseconds, next to a model request
of a second or more):

- the memory text (`load_memory` + `render_memory`, what `memory_instructions` returns);
- the skills catalogue (`discover_skills` + `render_catalog`, what `skills_instructions` returns).
"""

import statistics
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from perf import Context, Figure

INNER = 50  # builds per sample
SAMPLES = 5
SKILLS = 30


def _per_call(call: Callable[[], object]) -> float:
    """Median seconds of one call, over SAMPLES samples of INNER calls."""
    samples = []
    for _ in range(SAMPLES):
        started = time.perf_counter()
        for _ in range(INNER):
            call()
        samples.append((time.perf_counter() - started) / INNER)
    return statistics.median(samples)


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def benchmarks(ctx: Context) -> Iterator[Figure]:
    home = ctx.tmp / "home"  # the user's files come from a scratch home, not yours
    from decode.memory.files import load_memory
    from decode.memory.instructions import render_memory
    from decode.skills.catalog import discover_skills
    from decode.skills.instructions import render_catalog

    project = ctx.tmp / "repo"
    workspace = project / "a" / "b" / "c" / "d" / "e"
    _write(home / ".decode" / "AGENTS.md", "Answer briefly.\n" * 20)
    for folder in (project, project / "a" / "b", workspace):
        _write(folder / "AGENTS.md", "A project rule.\n" * 40)
    _write(workspace / ".decode" / "MEMORY.md", "".join(f"- 2025-01-01 10:00 UTC: note {i}.\n" for i in range(2000)))
    for i in range(SKILLS):
        _write(
            workspace / ".decode" / "skills" / f"skill-{i}" / "SKILL.md",
            f"---\nname: skill-{i}\ndescription: Does task {i}. Use when asked for task {i}.\n---\n" + "Step.\n" * 50,
        )

    def memory_text() -> str:
        return render_memory(load_memory(workspace, home=home), home=home)

    def skills_text() -> str:
        return render_catalog(discover_skills(workspace, home=home))

    loaded = load_memory(workspace, home=home)
    catalogue = discover_skills(workspace, home=home)
    assert len(loaded) == 5, "the user file, three AGENTS.md and the notes"
    assert len(catalogue.skills) == SKILLS + 1, "the project's skills and the built-in `commit`"

    memory = _per_call(memory_text)
    skills = _per_call(skills_text)
    yield Figure(
        "memory instructions, per request", memory * 1e3, "ms", 5, note=f"5 files, {len(memory_text()):,} chars"
    )
    yield Figure("skills catalogue, per request", skills * 1e3, "ms", 10, note=f"{SKILLS + 1} skills")
