"""The MCP step (lesson 14): the servers of the config files, whose tools the agent gets."""

from decode.agent.build import Build
from decode.mcp.loading import load_servers, mcp_capabilities


def load_mcp(b: Build) -> None:
    """The servers, built here and started by the front end on its event loop (or by the first request)."""
    if b.options.mcp:
        b.mcp = load_servers(
            b.options.home,
            b.settings,
            trust_project=b.options.trust_project_mcp,
            headless=b.options.approve is None,
            executor=b.executor,  # [lesson 17]
            files=b.options.mcp_config,  # [lesson 20]
            strict=b.options.strict_mcp_config,  # [lesson 20]
        )
    if b.mcp is not None:  # a server may ask decode's model (gated) and the user (None: headless, declined)
        b.mcp.features.sampling_model, b.mcp.features.sampling = b.model, b.settings.mcp_sampling
        b.mcp.features.ask = b.options.ask_user
    b.capabilities += mcp_capabilities(b.mcp)  # the servers' tools, read again at every request
