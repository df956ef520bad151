"""Custom slash commands: a Markdown file is a prompt the user runs as `/name [arguments]`.

Claude Code's layout, read as it is:

    user       ~/.claude/commands/NAME.md, then ~/.decode/commands/NAME.md
    project    .claude/commands/NAME.md, then .decode/commands/NAME.md   (project over user)

A file in a subfolder is namespaced: `.claude/commands/frontend/component.md` is
`/frontend:component`. Optional front matter says `description` (else the body's first line),
`argument-hint`, `allowed-tools` and `model`. When the command runs (`expand`):

- `$ARGUMENTS` becomes the whole argument text, `$1`…`$9` its words (shell quoting groups words);
  a command using neither gets the arguments appended, so none are lost;
- each `` !`command` `` (or a line `!command`) runs through the front end's `run_shell`, which asks
  the Permission Gate as for a bash call; its output takes the place of the line, before the prompt
  is sent;
- each `@path` names a file whose contents follow the prompt, with the rules of memory imports: a
  project's command reads files inside the project, never a secret (`decode.memory.imports`).

`allowed-tools` allow, for the command's turn only and never past a deny or ask rule, a protected or
secret file (`decode.skills.command_grants`); a repository's command grants only once the project's
settings are trusted. `model` answers the command's turn; the next has the session's (ADR-0147).
"""

import re
import shlex
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from decode.config.harness_home import HARNESS_DIR
from decode.config.safe_read import UnreadableFile, beyond_cap, read_text
from decode.memory.imports import import_targets, refusal, resolve_target
from decode.skills.catalog import SkillSource

CLAUDE_COMMANDS = Path(".claude") / "commands"
DECODE_COMMANDS = HARNESS_DIR / "commands"
MAX_COMMANDS = 200
"""Command files read from one folder."""
FILE_LIMIT = 100_000
"""Characters of one `@file` a command sends; more is cut with a note."""
_NAME = re.compile(r"^[a-z][a-z0-9_-]*$")
"""Each part of a name: what the REPL reads as a `/command` (`/frontend:component`)."""
_SHELL = re.compile(r"!`([^`\n]+)`|^!(?![\[`])(.+)$", re.MULTILINE)
_POSITIONAL = re.compile(r"\$([1-9])")

RunShell = Callable[[str], Awaitable[str]]
"""Runs one `!` command as the front end allows it; returns what the prompt shows in its place."""


class CommandFrontMatter(BaseModel):
    model_config = ConfigDict(extra="allow", populate_by_name=True)

    description: str = ""
    argument_hint: str = Field("", alias="argument-hint")
    allowed_tools: str | list[str] = Field("", alias="allowed-tools")
    model: str = ""


class CommandError(ValueError):
    """A command file that cannot be used; the message names the file and why."""


@dataclass(frozen=True)
class CustomCommand:
    """One command as found: `/name`, where it is, whose it is, and what its front matter says."""

    name: str
    path: Path
    source: SkillSource
    description: str
    argument_hint: str = ""
    allowed_tools: str = ""
    model: str = ""

    def body(self) -> str:
        """The prompt: the file without its front matter (read now: edits apply at once)."""
        import frontmatter

        try:
            return frontmatter.loads(read_text(self.path, what="a command file") or "").content.strip()
        except UnreadableFile as exc:
            raise CommandError(str(exc)) from None


@dataclass
class CommandCatalog:
    commands: dict[str, CustomCommand] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


def command_roots(workspace: Path, home: Path | None = None) -> list[tuple[SkillSource, Path]]:
    """The command folders, least specific first (a later one overrides an earlier one)."""
    home = home or Path.home()
    return [
        (SkillSource.USER, home / CLAUDE_COMMANDS),
        (SkillSource.USER, home / DECODE_COMMANDS),
        (SkillSource.PROJECT, workspace / CLAUDE_COMMANDS),
        (SkillSource.PROJECT, workspace / DECODE_COMMANDS),
    ]


def discover_commands(workspace: Path, home: Path | None = None) -> CommandCatalog:
    """Every command under the four folders; for one name the project's wins, decode's at one level."""
    catalog = CommandCatalog()
    for source, root in command_roots(workspace, home):
        if not root.is_dir():
            continue
        paths, excess = beyond_cap(sorted(root.rglob("*.md")), MAX_COMMANDS, root, "commands")
        if excess:
            catalog.problems.append(excess)
        for path in paths:
            try:
                command = parse_command(path, root, source)
            except CommandError as exc:
                catalog.problems.append(str(exc))
                continue
            catalog.commands[command.name] = command
    return catalog


def parse_command(path: Path, root: Path, source: SkillSource) -> CustomCommand:
    """Read one command file; `CommandError` naming it when its name or front matter is unusable."""
    import frontmatter
    import yaml

    parts = path.relative_to(root).with_suffix("").parts
    if not all(_NAME.match(part) for part in parts):
        raise CommandError(f"{path}: not a command name (a lower-case letter, then letters, digits, - and _)")
    try:
        post = frontmatter.loads(read_text(path, what="a command file") or "")
        meta = CommandFrontMatter.model_validate(post.metadata)
    except UnreadableFile as exc:
        raise CommandError(str(exc)) from None
    except (yaml.YAMLError, RecursionError):
        raise CommandError(f"{path}: the front matter is not valid YAML") from None
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
        raise CommandError(f"{path}: {problems}") from None
    first = next((line.strip("# ").strip() for line in post.content.splitlines() if line.strip()), "")
    tools = meta.allowed_tools if isinstance(meta.allowed_tools, str) else ", ".join(meta.allowed_tools)
    return CustomCommand(
        ":".join(parts), path, source, meta.description.strip() or first[:100], meta.argument_hint, tools, meta.model
    )


def with_arguments(body: str, arguments: str) -> str:
    """`body` with `$ARGUMENTS` and `$1`…`$9` filled in (or the arguments appended when it uses neither)."""
    try:
        words = shlex.split(arguments)
    except ValueError:  # an unclosed quote: plain words then
        words = arguments.split()
    uses = "$ARGUMENTS" in body or _POSITIONAL.search(body) is not None
    text = _POSITIONAL.sub(lambda m: words[int(m.group(1)) - 1] if int(m.group(1)) <= len(words) else "", body)
    text = text.replace("$ARGUMENTS", arguments)
    if not uses and arguments.strip():
        text += f"\n\nARGUMENTS: {arguments}"
    return text


async def expand(command: CustomCommand, arguments: str, workspace: Path, run_shell: RunShell) -> str:
    """The prompt `/name arguments` sends: arguments filled in, `!` commands run, `@` files after it."""
    text = with_arguments(command.body(), arguments)
    files = _attached(text, command, workspace)  # what the command names, not what its commands print
    pieces, last = [], 0
    for match in _SHELL.finditer(text):
        pieces += [text[last : match.start()], (await run_shell((match.group(1) or match.group(2)).strip())).rstrip()]
        last = match.end()
    return "".join([*pieces, text[last:], *files])


def _attached(text: str, command: CustomCommand, workspace: Path) -> list[str]:
    """A `<file>` block for each `@path` the prompt names that may be read, a note for one that may not."""
    blocks = []
    for target in import_targets(text):
        path = resolve_target(target, workspace / "x", Path.home())  # relative to the project, as Claude Code
        if not path.is_file():
            continue  # `@someone`, an e-mail handle: not a file, nothing to say
        why = refusal(path.resolve(), root=workspace, home=Path.home(), users=command.source is SkillSource.USER)
        try:
            content = None if why else read_text(path, what="a file")
        except UnreadableFile as exc:
            why, content = exc.message, None
        if why or content is None:
            blocks.append(f"\n\n[@{target} not attached: {why or 'not found'}]")
            continue
        if len(content) > FILE_LIMIT:
            content = content[:FILE_LIMIT] + f"\n[cut at {FILE_LIMIT:,} characters]"
        blocks.append(f'\n\n<file path="{target}">\n{content.rstrip()}\n</file>')
    return blocks
