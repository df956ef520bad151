"""List the MCP servers, their state and their tools.

`decode mcp list`: every configured MCP server, its state and tools, and the file it came from.

Trusted, enabled servers are started to list their tools (each waited for until its start-up
timeout), then stopped; project servers not trusted yet are listed, not started. `decode mcp
trust` trusts the project's servers as they are now. Exit code 0, or 1 with a one-line error.
"""

import asyncio
from pathlib import Path

import click


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def mcp() -> None:
    """The MCP servers of ~/.decode/mcp.json and this project's .mcp.json."""


@mcp.command("list")
@click.option("--no-tools", is_flag=True, help="Only the servers, not their tools.")
def list_servers(no_tools: bool) -> None:
    """Show each server: starting, ready, failed (and why), disabled or untrusted; its tools; its file."""
    from decode.config.loading import ConfigError, load_settings
    from decode.logging import init_logger
    from decode.mcp.loading import load_servers
    from decode.mcp.status import describe_servers

    try:
        settings = load_settings()
    except ConfigError as exc:
        raise click.ClickException(str(exc)) from None
    init_logger(settings.log_level)  # a bad file, a failing server: one warning each, on stderr
    home = Path.cwd()
    servers = load_servers(home, settings)

    async def probe() -> None:
        if servers is None:
            return
        from decode.mcp import toolset  # noqa: F401  (pydantic-ai's MCP client, imported before the clocks start)

        try:
            await servers.wait_for_starting()
        finally:
            await servers.close()

    asyncio.run(probe())
    for line in describe_servers(servers, home, tools=not no_tools):
        click.echo(line)


@mcp.command("trust")
def trust_project() -> None:
    """Trust this project's .mcp.json servers as they are now (a changed file asks again)."""
    from decode.mcp.config import PROJECT_FILE, load_mcp_config
    from decode.mcp.trust import trust

    home = Path.cwd()
    project = load_mcp_config(home, {}).project_servers()
    if not project:
        raise click.ClickException(f"{home / PROJECT_FILE} names no MCP server to trust")
    path = trust(home, project)
    click.echo(f"trusted {', '.join(server.name for server in project)} for {home} (remembered in {path})")
