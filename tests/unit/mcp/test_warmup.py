"""The MCP client's result validators imported ahead: on one daemon thread, once per process."""

import sys

import pytest

from decode.mcp import warmup


def test_the_validators_are_imported_on_one_daemon_thread_started_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(warmup, "_warming", None)

    warmup.warm_validators()
    thread = warmup.warming()
    warmup.warm_validators()  # a second ready server: the same thread

    assert thread is not None
    assert warmup.warming() is thread
    assert thread.daemon  # never waited for at exit
    thread.join(timeout=120)  # seconds of imports on a busy machine
    assert not thread.is_alive()
    assert "jsonschema.validators" in sys.modules
