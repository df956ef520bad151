"""List the agents decode can be, and their files.

`decode agents`: every agent (`decode run --agent NAME`, `/agent NAME`) and the file it comes from.

    explore      built-in           read, glob, grep, bash (read-only)
        Fast, read-only search of the code base. …
    reviewer     project (.claude)  .claude/agents/reviewer.md · read, grep
        Reviews the diff. …

A file that could not be read is named on stderr, with what is wrong with it; the others are
listed. Exit codes: 0, or 2 for a bad option.
"""

import os
from pathlib import Path

import click

from decode.visible import visible


def shown_path(path: Path | None, cwd: Path) -> str:
    """A file as the user would type it: relative inside the project, `~/…` in the home folder."""
    if path is None:
        return ""
    if path.is_relative_to(cwd):
        return os.path.relpath(path, cwd)
    home = Path.home()
    return f"~/{path.relative_to(home)}" if path.is_relative_to(home) else str(path)


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
def agents() -> None:
    """List the agents: decode's own, yours (~/.decode/agents/) and the project's (.decode/agents/,
    .claude/agents/), with the file each comes from.

    `decode run --agent NAME` runs one; `/agent NAME` switches to one in the REPL; the `agent` tool
    hands a task to one as a subagent.
    """
    from decode.agents.catalog import DEFAULT_AGENT, discover_agents
    from decode.agents.definition import AgentSource

    cwd = Path.cwd()
    catalog = discover_agents(cwd)
    for problem in catalog.problems:
        click.echo(f"decode: warning: agent skipped: {visible(problem)}", err=True)
    for reason in catalog.held.values():  # the project is not trusted: what of its agents waits
        click.echo(f"decode: warning: {visible(reason)}", err=True)
    width = max(len(name) for name in catalog.names())
    for name in catalog.names():
        agent = catalog.agents[name]
        where = "" if agent.source is AgentSource.BUILTIN else f"{shown_path(agent.path, cwd)} · "
        default = " (default)" if name == DEFAULT_AGENT else ""
        details = where + agent.tools_text()
        if agent.permission_mode is not None:
            details += f" · {agent.permission_mode} mode"
        if not agent.inherits_model:
            details += f" · {agent.model}"
        click.echo(f"{name:<{width}}  {agent.source!s:<17}  {visible(details)}{default}")
        click.echo(f"    {visible(agent.description)}")
