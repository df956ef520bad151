"""The skills catalogue in the agent's instructions: names and descriptions, never bodies.

Only the one-line descriptions are always in context (a few tokens per skill); a body is
loaded by the `skill` tool when a task needs it. This is the Agent Skills idea of progressive
disclosure. Before every model request the skill folders are looked at (a `stat` of each folder
and `SKILL.md`) and the catalogue is rebuilt when one changed, so a skill added or edited during a
session is there at the next request.
"""

import functools
import logging
import os
from pathlib import Path

from pydantic_ai import RunContext

from decode.config.stamps import Stamp, settled, stamp
from decode.entities.deps import AgentDeps
from decode.skills.catalog import SKILL_FILE, SkillCatalog, SkillSource, discover_skills, skill_roots

logger = logging.getLogger(__name__)

PREAMBLE = """\
# Skills
A skill holds instructions for one kind of task. When the task at hand matches a skill's
description, call the `skill` tool with its name first, then follow what it says."""

# A malformed skill is reported once per process, not on every request that reads the catalogue.
_reported: set[str] = set()


def report_problems(catalog: SkillCatalog) -> list[str]:
    """Log a warning for each malformed skill not reported yet; return those new messages."""
    fresh = [problem for problem in catalog.problems if problem not in _reported]
    for problem in fresh:
        _reported.add(problem)
        logger.warning("skill skipped: %s", problem)
    return fresh


def render_catalog(catalog: SkillCatalog) -> str:
    """The catalogue as instructions text; empty when there are no skills."""
    if not catalog.skills:
        return ""
    lines = [f"- {skill.name}: {skill.description}" for skill in sorted(catalog.skills.values(), key=lambda s: s.name)]
    return "\n".join([PREAMBLE, *lines])


def skills_instructions(ctx: RunContext[AgentDeps]) -> str:
    """Dynamic instructions: the catalogue of the skills usable from the launch directory."""
    return skills_text(ctx.deps.harness_home)


_built: dict[tuple[Path, Path], tuple[tuple[Stamp, ...] | None, str]] = {}


def skills_text(workspace: Path, *, home: Path | None = None) -> str:
    """The catalogue's text, built again only when a skill folder or file changed (`decode.config.stamps`)."""
    home = home or Path.home()
    stamps = tuple(part for root in _changing_roots(workspace, home) for part in _folder_stamps(root))
    built = _built.get((workspace, home))
    if built is not None and built[0] == stamps:
        return built[1]
    catalog = discover_skills(workspace, home=home)
    report_problems(catalog)
    text = render_catalog(catalog)
    _built[(workspace, home)] = (stamps if settled(stamps) else None, text)
    return text


@functools.lru_cache(maxsize=16)
def _changing_roots(workspace: Path, home: Path) -> tuple[Path, ...]:
    """The skill folders that can change (the built-in ones ship with decode), made once per place."""
    return tuple(root for source, root in skill_roots(workspace, home=home) if source is not SkillSource.BUILTIN)


def _folder_stamps(root: Path) -> list[Stamp]:
    """The stamps of a skills folder, of each folder in it and of each one's `SKILL.md`."""
    stamps = [stamp(root)]
    if stamps[0] is None:  # nothing there: nothing in it either
        return stamps
    try:
        entries = sorted(entry.name for entry in os.scandir(root))
    except OSError:  # none, or not a folder: its stamp says which
        return stamps
    for name in entries:
        stamps += [stamp(root / name), stamp(root / name / SKILL_FILE)]
    return stamps
