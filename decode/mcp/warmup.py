"""The MCP client's result validators, imported ahead on a thread of their own.

The MCP client checks a tool's result against the tool's output schema with jsonschema, imported
at the first such result: seconds of imports (`rfc3987_syntax` builds a grammar), which in the REPL
would freeze the screen. Once a server is ready, the REPL imports them on a daemon thread, started
once and never waited for. A headless run (`decode run`) does not: it has no screen to keep
responsive, and a thread still importing when its answer is out slows its exit (ADR-0102).
"""

import logging
import threading

logger = logging.getLogger(__name__)

_warming: threading.Thread | None = None


def warm_validators() -> None:
    """Start importing the validators on a daemon thread (once per process)."""
    global _warming
    if _warming is None:
        _warming = threading.Thread(target=_import_validators, name="mcp-validators", daemon=True)
        _warming.start()


def warming() -> threading.Thread | None:
    """The warm-up's thread, once started."""
    return _warming


def _import_validators() -> None:
    try:
        import jsonschema.validators  # noqa: F401
        import referencing  # noqa: F401
    except ImportError:  # an MCP client without them validates nothing: nothing to warm
        logger.debug("no jsonschema to import ahead", exc_info=True)
