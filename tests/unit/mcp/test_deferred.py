"""pydantic-ai imported without its MCP client, which loads whole when something asks for it.

Each check runs in a fresh interpreter: what it is about is the first import of pydantic_ai.
"""

import json
import subprocess
import sys
import textwrap

MCP_STACK = {"mcp", "mcp_types", "fastmcp"}


def _run(code: str) -> dict:
    """Run `code` in a new Python; it prints one JSON object, returned here."""
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, check=False, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def test_pydantic_ai_loads_without_the_mcp_stack_until_it_is_asked_for() -> None:
    found = _run(
        """
        import json, sys
        from decode.mcp.deferred import DeferredMcpClient, defer_mcp_client

        defer_mcp_client()
        import pydantic_ai
        from pydantic_ai import Agent
        before = sorted({name.split(".")[0] for name in sys.modules} & {"mcp", "mcp_types", "fastmcp"})
        from pydantic_ai.mcp import MCPToolset
        from pydantic_ai.capabilities import mcp as capability
        print(json.dumps({
            "before": before,
            "after": "fastmcp" in sys.modules and "mcp" in sys.modules,
            "restored": capability.MCPToolset is MCPToolset,
            "finder_left": any(isinstance(f, DeferredMcpClient) for f in sys.meta_path),
        }))
        """
    )
    assert found == {"before": [], "after": True, "restored": True, "finder_left": False}


def test_the_mcp_capability_works_on_a_fastmcp_transport_once_the_client_is_imported() -> None:
    found = _run(
        """
        import json, sys
        from decode.mcp.deferred import defer_mcp_client

        defer_mcp_client()
        from pydantic_ai.capabilities import MCP
        from fastmcp.client.transports import StdioTransport
        from pydantic_ai.mcp import MCPToolset

        capability = MCP(local=StdioTransport(sys.executable, ["-c", "pass"]), id="x")
        local = capability.local
        print(json.dumps({"local": type(local).__name__, "is_toolset": isinstance(local, MCPToolset)}))
        """
    )
    assert found == {"local": "MCPToolset", "is_toolset": True}


def test_deferring_after_pydantic_ai_is_imported_changes_nothing() -> None:
    found = _run(
        """
        import json, sys
        import pydantic_ai
        from decode.mcp.deferred import DeferredMcpClient, defer_mcp_client

        defer_mcp_client()
        defer_mcp_client()
        print(json.dumps({
            "finders": sum(isinstance(f, DeferredMcpClient) for f in sys.meta_path),
            "loaded": "fastmcp" in sys.modules,
        }))
        """
    )
    assert found == {"finders": 0, "loaded": True}


def test_one_finder_however_often_it_is_asked() -> None:
    found = _run(
        """
        import json, sys
        from decode.mcp.deferred import DeferredMcpClient, defer_mcp_client, uninstall

        defer_mcp_client()
        defer_mcp_client()
        count = sum(isinstance(f, DeferredMcpClient) for f in sys.meta_path)
        uninstall()
        import pydantic_ai
        print(json.dumps({"count": count, "loaded": "fastmcp" in sys.modules}))
        """
    )
    assert found == {"count": 1, "loaded": True}
