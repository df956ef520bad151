"""The skill catalogue: every usable skill by name, and what was wrong with the others.

Skills come from three places; for the same name the more specific one wins:

    built-in   decode/skills/builtin/<name>/SKILL.md   (shipped with decode)
    user       ~/.claude/skills/<name>/SKILL.md, then ~/.decode/skills/<name>/SKILL.md
    project    .claude/skills/<name>/SKILL.md, then .decode/skills/<name>/SKILL.md (in the launch directory)

Claude Code's folders are read as decode's own, so a project's `.claude/skills` works unchanged;
where both hold a skill of one name, decode's folder (named after it) wins at the same level.

`SKILL.md` starts with YAML front matter (read with `python-frontmatter`) holding the two fields
the Agent Skills format requires (anthropics/skills adds `license`, `allowed-tools`, `metadata`,
accepted and unused): `name` (lowercase letters, digits and single hyphens, at most
64 characters, the same as its directory) and `description` (what it does and when to use it,
at most 1,024 characters). A file that breaks these rules is skipped, and the problem, naming the
file, is kept in `SkillCatalog.problems` for the front end to show.
"""

import json
import os
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from decode.config.harness_home import HARNESS_DIR
from decode.config.safe_read import UnreadableFile, beyond_cap, read_text

SKILL_FILE = "SKILL.md"
BUILTIN_SKILLS = Path(__file__).parent / "builtin"
BUILTIN_INDEX = BUILTIN_SKILLS / "index.json"
"""The built-in skills' names and descriptions, pre-parsed: starting decode parses no YAML unless
the user or the project has skills of their own (a test keeps it equal to the SKILL.md files)."""
USER_SKILLS = HARNESS_DIR / "skills"
"""User skills, relative to the home directory."""
PROJECT_SKILLS = HARNESS_DIR / "skills"
"""Project skills, relative to the launch directory (the Harness Home)."""
CLAUDE_SKILLS = Path(".claude") / "skills"
"""Claude Code's skills folder, relative to the home directory (user) or the launch directory (project)."""
MAX_RESOURCES = 100
"""Files of a skill listed for the model; a skill with more names its folder and the first ones."""
MAX_SKILLS = 200
"""Skills read from one folder; a repository's 30,000 would slow every model request."""


class SkillSource(StrEnum):
    """Where a skill was found, from least to most specific."""

    BUILTIN = "built-in"
    USER = "user"
    PROJECT = "project"


class SkillFrontMatter(BaseModel):
    """The fields decode needs from the front matter; the format's optional ones are allowed."""

    model_config = ConfigDict(extra="allow")

    name: str = Field(max_length=64, pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$")
    description: str = Field(min_length=1, max_length=1024)


class SkillError(ValueError):
    """A `SKILL.md` that cannot be used; the message names the file and the problem."""


@dataclass(frozen=True)
class Skill:
    """One usable skill. The body is read when the skill is used, so edits apply at once."""

    name: str
    description: str
    path: Path
    source: SkillSource

    @property
    def directory(self) -> Path:
        return self.path.parent

    def body(self) -> str:
        """The instructions: `SKILL.md` without its front matter."""
        import frontmatter

        try:
            text = read_text(self.path, what="a skill file") or ""
        except UnreadableFile as exc:
            raise SkillError(str(exc)) from None
        return frontmatter.loads(text).content.strip()

    def resources(self) -> list[Path]:
        """The files beside `SKILL.md` (`scripts/`, `references/`, `forms.md`…), relative to its folder.

        Hidden files and `__pycache__` are left out; at most `MAX_RESOURCES` are listed.
        """
        found: list[Path] = []
        # A walk that stops at the cap: a skill folder holding a `node_modules` is not listed whole.
        for folder, dirs, files in os.walk(self.directory):
            dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "__pycache__")
            here = Path(folder).relative_to(self.directory)
            for name in sorted(files):
                if name.startswith(".") or here / name == Path(SKILL_FILE):
                    continue
                found.append(here / name)
                if len(found) == MAX_RESOURCES:
                    return sorted(found)
        return sorted(found)


def parse_skill(path: Path, source: SkillSource) -> Skill:
    """Read and check one `SKILL.md`; raise `SkillError` naming the file when it is malformed."""
    import frontmatter
    import yaml

    try:
        text = read_text(path, what="a skill file")  # a FIFO, a device, a huge file: refused, never a wait
    except UnreadableFile as exc:
        raise SkillError(str(exc)) from None
    if text is None:
        raise SkillError(f"{path}: no such file (a link to nothing?)")
    try:
        post = frontmatter.loads(text)
    except RecursionError:  # the pure-Python YAML parser on deep nesting (libyaml's stops at 1,000)
        raise SkillError(f"{path}: the front matter is nested too deeply") from None
    except yaml.YAMLError as exc:
        where = getattr(exc, "problem_mark", None)
        line = f" (line {where.line + 1})" if where is not None else ""  # the mark counts from 0
        raise SkillError(f"{path}: the front matter is not valid YAML{line}") from None
    try:
        meta = SkillFrontMatter.model_validate(post.metadata)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'front matter'}: {e['msg']}" for e in exc.errors())
        raise SkillError(f"{path}: {problems}") from None
    if meta.name != path.parent.name:
        raise SkillError(f"{path}: name {meta.name!r} differs from its directory {path.parent.name!r}")
    return Skill(name=meta.name, description=meta.description.strip(), path=path, source=source)


@dataclass
class SkillCatalog:
    """The usable skills by name, and one message per skipped file."""

    skills: dict[str, Skill] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    def get(self, name: str) -> Skill | None:
        return self.skills.get(name)

    def names(self) -> list[str]:
        return sorted(self.skills)


def skill_roots(workspace: Path, *, home: Path | None = None) -> list[tuple[SkillSource, Path]]:
    """The skill directories, least specific first (a later one overrides an earlier one)."""
    home = home or Path.home()
    return [
        (SkillSource.BUILTIN, BUILTIN_SKILLS),
        (SkillSource.USER, home / CLAUDE_SKILLS),
        (SkillSource.USER, home / USER_SKILLS),
        (SkillSource.PROJECT, workspace / CLAUDE_SKILLS),
        (SkillSource.PROJECT, workspace / PROJECT_SKILLS),
    ]


# The catalogue is rebuilt before every model request; parsing YAML each time would cost more
# than the request's own bookkeeping. A file is parsed again only when it changes on disk.
_parsed: dict[tuple[Path, SkillSource], tuple[tuple[int, int], Skill | SkillError]] = {}


def _parse_if_changed(path: Path, source: SkillSource) -> Skill:
    """`parse_skill`, remembered until the file's size or modification time changes."""
    try:
        stat = path.stat()
    except OSError as exc:  # a link to nothing, a loop
        raise SkillError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    version = (stat.st_mtime_ns, stat.st_size)
    cached = _parsed.get((path, source))
    if cached is None or cached[0] != version:
        try:
            outcome: Skill | SkillError = parse_skill(path, source)
        except SkillError as exc:
            outcome = exc
        cached = _parsed[(path, source)] = (version, outcome)
    if isinstance(cached[1], SkillError):
        raise cached[1]
    return cached[1]


def discover_skills(workspace: Path, *, home: Path | None = None) -> SkillCatalog:
    """Every skill under the three roots; project over user over built-in for the same name."""
    catalog = SkillCatalog()
    for source, root in skill_roots(workspace, home=home):
        if source is SkillSource.BUILTIN:
            catalog.skills.update((skill.name, skill) for skill in builtin_skills())
            continue
        if not root.is_dir():
            continue
        paths, excess = beyond_cap(sorted(root.glob(f"*/{SKILL_FILE}")), MAX_SKILLS, root, "skills")
        if excess is not None:
            catalog.problems.append(excess)
        for path in paths:
            try:
                skill = _parse_if_changed(path, source)
            except SkillError as exc:
                catalog.problems.append(str(exc))
                continue
            catalog.skills[skill.name] = skill
    return catalog


@cache
def builtin_skills() -> tuple[Skill, ...]:
    """The skills shipped with decode, from `BUILTIN_INDEX` (read once: they ship with the package)."""
    entries = json.loads(BUILTIN_INDEX.read_text(encoding="utf-8"))
    return tuple(
        Skill(entry["name"], entry["description"], BUILTIN_SKILLS / entry["name"] / SKILL_FILE, SkillSource.BUILTIN)
        for entry in entries
    )


def builtin_index_text() -> str:
    """What `BUILTIN_INDEX` must hold: every built-in `SKILL.md`, parsed (`python -m decode.skills.catalog`)."""
    skills = [parse_skill(path, SkillSource.BUILTIN) for path in sorted(BUILTIN_SKILLS.glob(f"*/{SKILL_FILE}"))]
    return json.dumps([{"name": s.name, "description": s.description} for s in skills], indent=2) + "\n"


if __name__ == "__main__":
    BUILTIN_INDEX.write_text(builtin_index_text(), encoding="utf-8")
