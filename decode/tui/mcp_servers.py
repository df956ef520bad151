"""The MCP servers in the REPL: started in the background once the agent is built, `/mcp`, and
the Project Trust question (asked once through the Decision Channel, remembered in the user's home).

The prompt never waits for a server: `start_mcp` only starts their tasks. A project's
`.mcp.json` servers not trusted yet wait for a yes; a no leaves them off for this session (and asks
again next time). A line that is neither is the user's first prompt, typed before they noticed the
question: it is sent as a prompt, and the servers wait (`/mcp trust` starts them).
"""

from __future__ import annotations

import logging
import shlex
from typing import TYPE_CHECKING

from rich.text import Text

from decode.harness.decisions import Option, Question
from decode.tui.commands import CommandRegistry, SlashCommand
from decode.tui.questions import answered_yes

if TYPE_CHECKING:
    from decode.mcp.servers import McpServers
    from decode.tui.app import Repl

logger = logging.getLogger(__name__)


def add_mcp_commands(registry: CommandRegistry) -> CommandRegistry:
    """Add `/mcp` to `registry` (and return it)."""
    registry.add(
        SlashCommand(
            "mcp",
            "Show the MCP servers: their state, their tools, their config file (/mcp trust: start the project's)",
            _mcp,
            suggest=lambda repl: ["trust"],
        )
    )
    registry.on_ready.append(start_mcp)  # in the background: the prompt does not wait
    return registry


async def _mcp(repl: Repl, argument: str) -> None:
    await repl.warmed_up()
    if repl.conversation is None:
        repl.renderer.error(f"no MCP servers yet: the agent has not started ({repl.unavailable or 'loading'})")
        return
    from decode.mcp.status import describe_servers

    servers = repl.conversation.mcp
    if argument.strip() == "trust":
        if servers is None or not servers.untrusted:
            repl.renderer.notice("no MCP server of this project waits for your trust")
            return
        start_trusted(repl, servers)
        return
    repl.renderer.info(Text("\n".join(describe_servers(servers, repl.workspace))))


def start_mcp(repl: Repl) -> None:
    """After the warm-up: start the trusted servers, and ask about the project's others."""
    servers = repl.conversation.mcp if repl.conversation is not None else None
    if servers is None:
        return
    # A server's progress on a call: a line under the running call (the live area redraws on its tick).
    servers.features.on_progress = lambda update: repl.renderer.under(update.call_id, "⋯", update.line())
    servers.start()
    if servers.untrusted:
        repl.alongside(ask_trust(repl, servers))


def trust_question(servers: McpServers) -> Question:
    """Do you trust the project's servers (each shown with its command or URL)?"""
    from decode.mcp.config import StdioServer

    shown = []
    for config in servers.untrusted:
        definition = config.definition
        # Quoted as a shell would take it: an argument's spaces or newlines cannot pass for another's.
        what = (
            shlex.join([definition.command, *definition.args])
            if isinstance(definition, StdioServer)
            else definition.url
        )
        handed = sorted({*getattr(definition, "env", {}), *getattr(definition, "headers", {})})
        where = f" in {definition.cwd}" if isinstance(definition, StdioServer) and definition.cwd else ""
        shown.append(f"{shlex.quote(config.name)}: {what}{where}" + (f" (given {', '.join(handed)})" if handed else ""))
    source = servers.untrusted[0].source
    return Question(
        f"{source.name} asks to start {len(shown)} MCP server(s); they run as programs on this machine. Trust them?",
        # Whole words: a prompt the user starts typing before noticing the question must not trust
        # a cloned repository's programs with its first letter (single keys answer at once).
        (Option("yes", "trust", " (remembered until the file changes)"), Option("no", "not now")),
        free_text="type a prompt to decide later (/mcp trust)",
        body="\n".join(shown),
        title=str(source),
    )


async def ask_trust(repl: Repl, servers: McpServers) -> None:
    names = ", ".join(config.name for config in servers.untrusted)
    declined = f"MCP servers not started: {names} (decode asks again next time)"
    if await answered_yes(
        repl, trust_question(servers), waiting="the MCP servers wait: /mcp trust starts them", declined=declined
    ):
        start_trusted(repl, servers)


def start_trusted(repl: Repl, servers: McpServers) -> None:
    """The user trusts the project's servers: remember it, and start them."""
    from decode.mcp.trust import trust

    try:
        trust(repl.workspace, servers.untrusted)
    except OSError as exc:
        logger.warning("could not remember the trust (%s): decode will ask again next time", exc)
    servers.start_untrusted()
    repl.invalidate()
