"""The Opik backend: the only module that imports opik (imported only when tracing is configured).

Each finished record becomes one `client.trace(...)` or `client.span(...)` call with its start and
end, never a create followed by an update. opik sends them in the background, in batches. What is
sent holds none of decode's own keys: each becomes a marker here, the one door to the server
(`decode.config.redaction`), whether the user typed it, a tool printed it or the model wrote it.
"""

import logging
import os
from typing import Any, cast

from decode.config.redaction import Redactor, redactor_for
from decode.config.settings import Settings
from decode.observability.records import ErrorInfo, SpanRecord, TraceRecord


def _quiet_opik() -> None:
    """opik reports its own errors to Sentry and usage to Comet unless told not to: decode sends a
    conversation nowhere but the server the user named (the user may still opt in, in the environment)."""
    os.environ.setdefault("OPIK_SENTRY_ENABLE", "false")
    os.environ.setdefault("OPIK_ANALYTICS_ENABLE", "false")
    os.environ.setdefault("OPIK_CONSOLE_LOGGING_LEVEL", "CRITICAL")  # decode logs one line itself (close())


_quiet_opik()  # before the import: opik reads them when imported, and again for each client

import opik  # noqa: E402  (after the switches above)
from opik.types import ErrorInfoDict  # noqa: E402

logger = logging.getLogger(__name__)


def _error(error: ErrorInfo | None, redactor: Redactor) -> ErrorInfoDict | None:
    """opik's `ErrorInfoDict`; its server requires a traceback, and decode sends none (it may hold secrets)."""
    if error is None:
        return None
    return ErrorInfoDict(exception_type=error.exception_type, message=redactor.text(error.message), traceback="")


class OpikSink:
    """Writes traces and spans to the Opik server in the settings (`OPIK_URL_OVERRIDE`, else Opik's cloud)."""

    def __init__(self, settings: Settings) -> None:
        _quiet_opik()
        key = settings.opik_api_key
        self.where = settings.opik_url_override or "Opik's cloud"
        self.client = opik.Opik(
            project_name=settings.opik_project_name,
            workspace=settings.opik_workspace,
            host=settings.opik_url_override,
            api_key=key.get_secret_value() if key is not None else None,
            _show_misconfiguration_message=False,
        )
        self.closed = False
        self.redactor = redactor_for(settings)

    def write_trace(self, trace: TraceRecord) -> None:
        self.client.trace(
            id=trace.id,
            name=trace.name,
            start_time=trace.start,
            end_time=trace.end,
            input=self._clean(trace.input),
            output=self._clean(trace.output),
            metadata=self._clean(trace.metadata),
            thread_id=trace.thread_id,
            error_info=_error(trace.error, self.redactor),
        )

    def write_span(self, span: SpanRecord) -> None:
        self.client.span(
            trace_id=span.trace_id,
            id=span.id,
            parent_span_id=span.parent_id,
            name=span.name,
            type=span.type,
            start_time=span.start,
            end_time=span.end,
            input=self._clean(span.input),
            output=self._clean(span.output),
            metadata=self._clean(span.metadata),
            usage=span.usage,
            model=span.model,
            provider=span.provider,
            total_cost=span.cost_usd,
            error_info=_error(span.error, self.redactor),
        )

    def _clean(self, data: dict[str, Any] | None) -> dict[str, Any] | None:
        """`data` with decode's keys replaced by markers."""
        return cast("dict[str, Any] | None", self.redactor.data(data))

    def close(self, timeout_s: int) -> None:
        """Send what is queued, waiting at most `timeout_s` (then drop it, with one warning line)."""
        if self.closed:
            return
        self.closed = True
        try:
            sent = self.client.flush(timeout=timeout_s)
            parked = _parked(self.client)
            self.client.end(flush=False)  # what flush() could not send within the timeout is dropped
        except Exception as exc:  # tracing never breaks the run it traces
            logger.warning("tracing: could not send the traces to %s: %s", self.where, exc)
            return
        if parked:
            logger.warning("tracing: %s failed its health check; %d trace message(s) not sent", self.where, parked)
        elif not sent:
            logger.warning("tracing: the traces could not all be sent to %s within %d s", self.where, timeout_s)


def _parked(client: opik.Opik) -> int:
    """How many messages opik parked instead of sending, because the server failed its health check.

    opik keeps them for a replay once the server answers again, which never comes in a process about
    to exit, and its flush result counts them as delivered. opik has no public call for this count.
    """
    try:
        replay = client._streamer._fallback_replay_manager
        return max(replay.database_manager.failed_messages_count(), 0)
    except Exception:  # an opik without these internals: report what its flush result says
        return 0
