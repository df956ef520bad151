"""The background queue: items leave in order on their own thread; the exit waits, bounded, for the writes only.

Against the lesson's loopback collector (a real HTTP server on 127.0.0.1), healthy, failing or mute.
"""

import importlib.util
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from decode.observability.sender import WORKERS, BatchSender
from tests.conftest import wait_for

COLLECTOR = Path(__file__).resolve().parents[3] / "lessons" / "22-observability" / "collector.py"
KEYS = {"v1/private/spans/batch": "spans", "v1/private/traces/batch": "traces"}
SPANS, TRACES = "v1/private/spans/batch", "v1/private/traces/batch"


@pytest.fixture(scope="module")
def collectors() -> ModuleType:
    spec = importlib.util.spec_from_file_location("sender_test_collector", COLLECTOR)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def healthy(collectors: ModuleType) -> Iterator[Any]:
    with collectors.Collector() as running:
        yield running


def sender_to(url: str) -> BatchSender:
    return BatchSender(url, {"Authorization": "key"}, KEYS)


def test_items_arrive_in_the_order_they_were_put(healthy: Any) -> None:
    sender = sender_to(healthy.url)
    for n in range(30):
        sender.put(SPANS, {"id": str(n)})
    sender.put(TRACES, {"id": "trace"})

    delivery = sender.close(timeout_s=30, answer_wait_s=30)

    # Each batch is a run of consecutive items, in order (batches ride separate connections, so the
    # server may record two of them in either order; Opik orders spans by their times anyway).
    batches = [r.body["spans"] for r in healthy.requests if r.path.endswith("/spans/batch")]
    batches.sort(key=lambda batch: int(batch[0]["id"]))
    assert [span["id"] for batch in batches for span in batch] == [str(n) for n in range(30)]
    assert [trace["id"] for trace in healthy.traces()] == ["trace"]
    assert (delivery.queued, delivery.written, delivery.accepted, delivery.failures) == (31, 31, 31, [])


def test_the_items_are_gzipped_json_with_the_headers(healthy: Any) -> None:
    sender = sender_to(healthy.url)
    sender.put(SPANS, {"id": "1", "input": {"text": "é"}})

    sender.close(timeout_s=30, answer_wait_s=30)

    (request,) = healthy.requests
    assert (request.method, request.path) == ("POST", "/api/v1/private/spans/batch")
    assert request.body == {"spans": [{"id": "1", "input": {"text": "é"}}]}


def test_a_failing_server_is_a_failure_named_by_its_status(collectors: ModuleType) -> None:
    with collectors.Collector(status=500) as failing:
        sender = sender_to(failing.url)
        sender.put(SPANS, {"id": "1"})
        delivery = sender.close(timeout_s=30, answer_wait_s=30)

    assert delivery.failures == ["HTTP 500"]
    assert delivery.accepted == 0


def test_a_gone_server_is_a_failure_and_nothing_is_written(collectors: ModuleType) -> None:
    sender = sender_to(collectors.closed_url())
    sender.put(SPANS, {"id": "1"})

    delivery = sender.close(timeout_s=30)

    assert delivery.written == 0
    assert delivery.lost == 1
    assert "ConnectError" in delivery.failures[0]


def test_the_exit_does_not_wait_for_a_server_that_never_answers(collectors: ModuleType) -> None:
    with collectors.Collector(delay_s=None) as mute:
        sender = sender_to(mute.url)
        sender.put(SPANS, {"id": "1"})
        sender.put(TRACES, {"id": "trace"})

        delivery = sender.close(timeout_s=30, answer_wait_s=0.1)  # returns: the answers are never coming

        assert (delivery.written, delivery.answered, delivery.failures) == (2, 0, [])
        assert mute.wait_for(traces=1, spans=1, timeout_s=30)  # the server has both


def test_put_never_waits_for_the_server(collectors: ModuleType) -> None:
    with collectors.Collector(delay_s=None) as mute:
        sender = sender_to(mute.url)
        for n in range(200):  # each would wait forever, were the caller the one sending
            sender.put(SPANS, {"id": str(n)})
        assert sender.delivery.queued == 200
        sender.close(timeout_s=30, answer_wait_s=0)


def test_a_server_that_never_answers_cannot_grow_the_queue_without_bound(collectors: ModuleType) -> None:
    with collectors.Collector(delay_s=None) as mute:
        sender = BatchSender(mute.url, {"Authorization": "key"}, KEYS, max_pending=10)
        for n in range(WORKERS):  # one batch each: every worker then awaits an answer that never comes
            sender.put(SPANS, {"id": str(n)})
            wait_for(lambda n=n: sender.delivery.written > n)
            assert sender.delivery.written == n + 1
        for n in range(100):  # nothing more can be written: the first 10 wait, the other 90 are dropped
            sender.put(SPANS, {"id": f"more-{n}"})

        assert (sender.delivery.queued, sender.delivery.dropped, sender.delivery.lost) == (WORKERS + 100, 90, 90)
        sender.close(timeout_s=0.5, answer_wait_s=0)
