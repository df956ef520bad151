"""The skills catalogue in the agent's instructions: names and descriptions, never bodies.

Only the one-line descriptions are always in context (a few tokens per skill); a body is
loaded by the `skill` tool when a task needs it. This is the Agent Skills idea of progressive
disclosure. The catalogue is rebuilt on every model request, so a skill added or edited during
a session is there at the next turn.
"""

import logging

from pydantic_ai import RunContext

from decode.entities.deps import AgentDeps
from decode.skills.catalog import SkillCatalog, discover_skills

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
    catalog = discover_skills(ctx.deps.harness_home)
    report_problems(catalog)
    return render_catalog(catalog)
