"""Using a skill: the model calls the `skill` tool, or the user types `/name [text]` in the REPL.

Both hand the model the same thing: the body of `SKILL.md`, where the skill lives, and the files
beside it (`scripts/`, `references/`, `forms.md`…: read or run with the usual tools when needed).
"""

from pathlib import Path

from pydantic_ai import ModelRetry, RunContext

from decode.entities.deps import AgentDeps
from decode.entities.tools import ToolKind, ToolSpec, ToolTraits
from decode.skills.catalog import Skill, SkillError, discover_skills
from decode.tools.harness_files import PREFIX, ROOTS


def skill_text(skill: Skill) -> str:
    """A skill's instructions, as the model receives them."""
    parts = [f'<skill name="{skill.name}" directory="{skill.directory}">', skill.body()]
    if resources := skill.resources():
        parts.append(
            f"Files of this skill (relative to its directory; the read tool also reaches them as "
            f"{PREFIX}skills/{skill.name}/PATH):"
        )
        parts += [f"- {path}" for path in resources]
    parts.append("</skill>")
    return "\n".join(parts)


async def skill(ctx: RunContext[AgentDeps], name: str) -> str:
    """Load the instructions of a skill from the skills catalogue, then follow them.

    Args:
        name: The skill's name, exactly as the catalogue lists it.
    """
    catalog = discover_skills(ctx.deps.harness_home)
    found = catalog.get(name)
    if found is None:
        available = ", ".join(catalog.names()) or "none"
        raise ModelRetry(f"There is no skill named {name!r}. Available skills: {available}.")
    try:
        return skill_text(found)
    except SkillError as exc:  # its file changed since the catalogue was read (now a FIFO, too big…)
        raise ModelRetry(f"The skill {name!r} cannot be loaded: {exc}") from None


# Loading a skill reads decode's own files, not the Workspace: nothing a rule needs to name.
def skill_folder(deps: AgentDeps, rest: str) -> tuple[Path, str]:
    """`harness:skills/NAME/PATH`: a file of skill NAME, wherever the catalogue found it."""
    name, _, inside = rest.partition("/")
    found = discover_skills(deps.harness_home).get(name)
    if found is None:
        raise ModelRetry(f"There is no skill named {name!r}.")
    return found.directory, inside


ROOTS["skills"] = skill_folder

SKILL_TOOL = ToolSpec("skill", skill, ToolTraits(ToolKind.SIDE_EFFECT_FREE))


def skill_prompt(skill: Skill, request: str = "") -> str:
    """The prompt `/name [text]` sends: the skill's instructions, then what the user asked."""
    prompt = f"Use the skill `{skill.name}`: follow its instructions below.\n\n{skill_text(skill)}"
    if request.strip():
        prompt += f"\n\nThe user's request: {request.strip()}"
    return prompt
