"""The language-server step (lesson 16): code intelligence, the servers started when first asked."""

from decode.agent.build import Build
from decode.lsp.manager import LspManager


def language_servers(b: Build) -> None:
    """The conversation's language servers. A subagent goes without: its servers would be its own
    processes, started again for each one."""
    if b.settings.lsp and b.options.parent is None:
        b.deps.lsp = LspManager(b.executor, b.settings.lsp_servers, timeout=b.settings.lsp_timeout)
