"""pydantic-ai and the SDKs imported without what decode does not use, which loads whole when asked for.

Each check runs in a fresh interpreter: what it is about is the first import of a library.
"""

import json
import subprocess
import sys
import textwrap


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
        from decode.models.deferred_imports import defer_imports

        defer_imports()
        import pydantic_ai
        from pydantic_ai import Agent
        before = sorted({name.split(".")[0] for name in sys.modules} & {"mcp", "mcp_types", "fastmcp"})
        from pydantic_ai.mcp import MCPToolset
        from pydantic_ai.capabilities import mcp as capability
        print(json.dumps({
            "before": before,
            "after": "fastmcp" in sys.modules and "mcp" in sys.modules,
            "restored": capability.MCPToolset is MCPToolset,
        }))
        """
    )
    assert found == {"before": [], "after": True, "restored": True}


def test_the_mcp_capability_works_on_a_fastmcp_transport_once_the_client_is_imported() -> None:
    found = _run(
        """
        import json, sys
        from decode.models.deferred_imports import defer_imports

        defer_imports()
        from pydantic_ai.capabilities import MCP
        from fastmcp.client.transports import StdioTransport
        from pydantic_ai.mcp import MCPToolset

        capability = MCP(local=StdioTransport(sys.executable, ["-c", "pass"]), id="x")
        local = capability.local
        print(json.dumps({"local": type(local).__name__, "is_toolset": isinstance(local, MCPToolset)}))
        """
    )
    assert found == {"local": "MCPToolset", "is_toolset": True}


def test_the_openai_client_works_without_aiohttp_and_httpx_without_its_command_line() -> None:
    found = _run(
        """
        import json, sys
        from decode.models.deferred_imports import defer_imports

        defer_imports()
        import httpx
        from openai import AsyncOpenAI

        client = AsyncOpenAI(base_url="http://127.0.0.1:9/v1", api_key="x", max_retries=0)
        skipped = sorted({"aiohttp", "httpx._main", "rich"} & set(sys.modules))
        stub = httpx.main
        from httpx._main import main
        print(json.dumps({
            "client": type(client).__name__,
            "skipped": skipped,
            "restored": httpx.main is main and stub is not main,
        }))
        """
    )
    assert found == {"client": "AsyncOpenAI", "skipped": [], "restored": True}


def test_installing_twice_or_after_the_imports_changes_nothing() -> None:
    found = _run(
        """
        import json, sys
        import pydantic_ai
        from decode.models.deferred_imports import DeferredImports, defer_imports
        from pydantic_ai.capabilities import mcp as capability
        from pydantic_ai.mcp import MCPToolset

        defer_imports()
        defer_imports()
        print(json.dumps({
            "finders": sum(isinstance(f, DeferredImports) for f in sys.meta_path),
            "untouched": capability.MCPToolset is MCPToolset,
        }))
        """
    )
    assert found == {"finders": 1, "untouched": True}


def test_another_thread_imports_the_deferred_module_while_its_importer_is_half_imported(tmp_path) -> None:
    # The REPL imports pydantic-ai on its warm-up thread; a second thread that imports the MCP client
    # meanwhile gets the real module, not the "deferred" ImportError meant for the importer alone.
    (tmp_path / "slow_importer.py").write_text(
        textwrap.dedent(
            """
            import gate
            try:
                import deferred_part
            except ImportError:
                deferred_part = None
            gate.importing.set()
            gate.go_on.wait(60)
            LAST = True
            """
        )
    )
    (tmp_path / "deferred_part.py").write_text("VALUE = 42\n")
    found = _run(
        f"""
        import json, sys, threading, types
        sys.path.insert(0, {str(tmp_path)!r})
        from decode.models import deferred_imports

        deferred_imports.DEFERRED["deferred_part"] = deferred_imports.Deferral("slow_importer", "LAST")
        gate = sys.modules["gate"] = types.ModuleType("gate")
        gate.importing, gate.go_on = threading.Event(), threading.Event()
        deferred_imports.defer_imports()
        warm_up = threading.Thread(target=__import__, args=("slow_importer",))
        warm_up.start()
        assert gate.importing.wait(60)
        try:
            import deferred_part
            other = deferred_part.VALUE
        except ImportError as error:
            other = str(error)
        gate.go_on.set()
        warm_up.join(60)
        print(json.dumps({{"other": other, "importer_saw": sys.modules["slow_importer"].deferred_part}}))
        """
    )
    assert found == {"other": 42, "importer_saw": None}
