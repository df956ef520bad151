"""The Opik backend: each finished record becomes one item of a batch posted to Opik's REST API.

decode speaks the two calls of Opik's ingestion API itself (`v1/private/traces/batch`,
`v1/private/spans/batch`, the JSON the opik SDK sends) instead of importing the SDK: `import opik`
alone took half of a tiny `decode run` (ADR-0098). Records go out on a background queue
(`sender.py`); the turn never waits for the server. What is sent holds none of decode's own keys:
each becomes a marker here, the one door to the server (`decode.config.redaction`).
"""

import logging
from datetime import datetime
from typing import Any, cast

from decode.config.redaction import redactor_for
from decode.config.settings import Settings
from decode.observability.records import ErrorInfo, SpanRecord, TraceRecord
from decode.observability.sender import ANSWER_WAIT_S, BatchSender

logger = logging.getLogger(__name__)

OPIK_CLOUD = "https://www.comet.com/opik/api"
"""Where traces go without `OPIK_URL_OVERRIDE` (the opik SDK's default)."""
TRACES = "v1/private/traces/batch"
SPANS = "v1/private/spans/batch"


def _time(moment: datetime | None) -> str | None:
    """ISO 8601 in UTC with a `Z`, as Opik stores it."""
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ") if moment is not None else None


class OpikSink:
    """Writes traces and spans to the Opik server in the settings (`OPIK_URL_OVERRIDE`, else Opik's cloud)."""

    def __init__(self, settings: Settings) -> None:
        key = settings.opik_api_key
        self.where = settings.opik_url_override or "Opik's cloud"
        self.project = settings.opik_project_name
        headers = {"Comet-Workspace": settings.opik_workspace or "default"}
        if key is not None:
            headers["Authorization"] = key.get_secret_value()
        base = settings.opik_url_override or OPIK_CLOUD
        self.sender = BatchSender(base, headers, {TRACES: "traces", SPANS: "spans"})
        self.closed = False
        self.redactor = redactor_for(settings)

    def write_trace(self, trace: TraceRecord) -> None:
        item = {
            "id": trace.id,
            "project_name": self.project,
            "name": trace.name,
            "start_time": _time(trace.start),
            "end_time": _time(trace.end),
            "input": self._clean(trace.input),
            "output": self._clean(trace.output),
            "metadata": self._clean(trace.metadata),
            "thread_id": trace.thread_id,
            "error_info": self._error(trace.error),
        }
        self.sender.put(TRACES, _present(item))

    def write_span(self, span: SpanRecord) -> None:
        item = {
            "id": span.id,
            "project_name": self.project,
            "trace_id": span.trace_id,
            "parent_span_id": span.parent_id,
            "name": span.name,
            "type": span.type,
            "start_time": _time(span.start),
            "end_time": _time(span.end),
            "input": self._clean(span.input),
            "output": self._clean(span.output),
            "metadata": self._clean(span.metadata),
            "usage": span.usage,
            "model": span.model,
            "provider": span.provider,
            "total_estimated_cost": span.cost_usd,
            "error_info": self._error(span.error),
        }
        self.sender.put(SPANS, _present(item))

    def _clean(self, data: dict[str, Any] | None) -> dict[str, Any] | None:
        """`data` with decode's keys replaced by markers."""
        return cast("dict[str, Any] | None", self.redactor.data(data))

    def _error(self, error: ErrorInfo | None) -> dict[str, str] | None:
        """Opik's `error_info`; its server requires a traceback, and decode sends none (it may hold secrets)."""
        if error is None:
            return None
        return {"exception_type": error.exception_type, "message": self.redactor.text(error.message), "traceback": ""}

    def close(self, timeout_s: float, answer_wait_s: float = ANSWER_WAIT_S) -> None:
        """Send what is queued, waiting at most `timeout_s` (then drop it, with one warning line)."""
        if self.closed:
            return
        self.closed = True
        delivery = self.sender.close(timeout_s, answer_wait_s)
        if delivery.failures:
            failed = delivery.answered - delivery.accepted
            logger.warning(
                "tracing: the traces could not all be sent to %s: %d of %d item(s) failed (%s)",
                *(self.where, failed, delivery.queued, delivery.failures[0]),
            )
        elif delivery.written < delivery.queued:
            logger.warning("tracing: the traces could not all be sent to %s within %g s", self.where, timeout_s)
        elif delivery.written and not delivery.answered:  # slow is fine; never a word back is worth a line
            logger.warning(
                "tracing: %s has not answered; %d trace item(s) sent unconfirmed", self.where, delivery.written
            )


def _present(item: dict[str, Any]) -> dict[str, Any]:
    """`item` without its empty fields (Opik treats a missing field and a null alike)."""
    return {name: value for name, value in item.items() if value is not None}
