"""Where a turn's records go: the backend, opened once per process and closed, bounded, at exit."""

import atexit
from typing import Protocol

from decode.config.settings import Settings
from decode.observability.config import tracing_configured
from decode.observability.records import SpanRecord, TraceRecord

CLOSE_TIMEOUT_S = 2
"""The longest the exit waits to hand unsent traces to the server (a server that is gone fails at once)."""


class TraceSink(Protocol):
    """A tracing backend: receives finished traces and spans; sending may happen later, in the background."""

    def write_trace(self, trace: TraceRecord) -> None: ...

    def write_span(self, span: SpanRecord) -> None: ...

    def close(self, timeout_s: int) -> None:
        """Send what is queued, waiting at most `timeout_s`, and stop."""
        ...


_opened: dict[str, TraceSink | None] = {}  # the one sink of this process, by where it sends


def open_sink(settings: Settings) -> TraceSink | None:
    """The process's sink for these settings; None when tracing is not configured."""
    if not tracing_configured(settings):
        return None
    where = settings.opik_url_override or "opik cloud"
    if where in _opened:
        return _opened[where]
    from decode.observability.opik_tracer import OpikSink

    sink = OpikSink(settings)
    _opened[where] = sink
    atexit.register(sink.close, CLOSE_TIMEOUT_S)
    return sink
