"""The background queue a tracing backend sends through: the turn never waits for the server.

`put()` only queues. One thread hands what is queued, in order, to a few workers that post it; it
waits for a batch to be *written* before the next, never for the server's answer (a slow server
answers on the side). At exit, `close()` waits a bounded time: until everything is written
(at most `timeout_s`), then a short while for the answers, so a healthy server's "no" is reported.
Bytes written reach the server even after the process exits (the kernel delivers them).
"""

import gzip
import json
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx

WORKERS = 8
"""Requests that may await their answers at once (threads started up front: none can start at exit)."""
MAX_PENDING = 10_000
"""Items queued and not yet written: past it, new items are dropped and counted lost, so a server that
takes requests and never answers cannot grow decode's memory without bound."""
ANSWER_WAIT_S = 0.25
"""How long the exit waits for answers once everything is written (a server slower than this has
the data; only its verdict is not waited for)."""

Batch = tuple[str, list[dict[str, Any]]]
"""A request: the path it is posted to, and the items of its JSON array."""


@dataclass
class Delivery:
    """What the sender knows at the end, in items: queued, written, answered (well or not), lost unwritten."""

    queued: int = 0
    written: int = 0
    answered: int = 0
    accepted: int = 0
    lost: int = 0
    dropped: int = 0
    """Of `lost`, the items dropped unqueued because `MAX_PENDING` were already waiting."""
    failures: list[str] = field(default_factory=list)
    """Why requests failed (`HTTP 500`, `ConnectError: …`), one entry per failed request."""


class BatchSender:
    """Posts `{key: [items]}` JSON batches to `base_url` + path on one background thread."""

    def __init__(
        self, base_url: str, headers: dict[str, str], keys: dict[str, str], max_pending: int = MAX_PENDING
    ) -> None:
        self.client = httpx.Client(base_url=base_url.rstrip("/") + "/", headers=headers, timeout=30.0)
        self.keys = keys  # path → the JSON key its items go under (`v1/private/spans/batch` → `spans`)
        self.delivery = Delivery()
        self.max_pending = max_pending
        self._queue: queue.SimpleQueue[tuple[str, dict[str, Any]] | None] = queue.SimpleQueue()
        self._jobs: queue.SimpleQueue[tuple[Batch, threading.Event]] = queue.SimpleQueue()
        self._changed = threading.Condition()
        for n in range(WORKERS):
            threading.Thread(target=self._work, name=f"decode-trace-post-{n}", daemon=True).start()
        threading.Thread(target=self._run, name="decode-trace-sender", daemon=True).start()

    def put(self, path: str, item: dict[str, Any]) -> None:
        with self._changed:
            delivery = self.delivery
            delivery.queued += 1
            if delivery.queued - delivery.written - delivery.lost > self.max_pending:
                delivery.lost += 1
                delivery.dropped += 1
                return
        self._queue.put((path, item))

    def _run(self) -> None:
        while (first := self._queue.get()) is not None:
            batches, stop = self._drain(first)
            for batch in batches:
                self._post(batch)
            if stop:
                return

    def _drain(self, first: tuple[str, dict[str, Any]]) -> tuple[list[Batch], bool]:
        """`first` and whatever else is queued now, as batches in order (one per run of a path)."""
        batches: list[Batch] = [(first[0], [first[1]])]
        while True:
            try:
                item = self._queue.get_nowait()
            except queue.Empty:
                return batches, False
            if item is None:
                return batches, True
            if item[0] == batches[-1][0]:
                batches[-1][1].append(item[1])
            else:
                batches.append((item[0], [item[1]]))

    def _post(self, batch: Batch) -> None:
        """Hand the request to a free worker; return once its body is written (or it failed)."""
        written = threading.Event()
        self._jobs.put((batch, written))
        written.wait()

    def _work(self) -> None:
        while True:
            batch, written = self._jobs.get()
            self._send(batch, written)

    def _send(self, batch: Batch, written: threading.Event) -> None:
        path, items = batch

        def trace(event: str, info: dict[str, Any]) -> None:  # httpcore's progress of the request
            if event == "http11.send_request_body.complete":
                self._count(written=len(items))
                written.set()

        body = gzip.compress(json.dumps({self.keys[path]: items}, default=str).encode())
        headers = {"Content-Type": "application/json", "Content-Encoding": "gzip"}
        failure = ""
        try:
            answer = self.client.post(path, content=body, headers=headers, extensions={"trace": trace})
            if not answer.is_success:
                failure = f"HTTP {answer.status_code}"
        except Exception as exc:  # tracing never breaks the run it traces: any failure is reported at exit
            failure = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
        self._count(answered=len(items), failure=failure, lost=0 if written.is_set() else len(items))
        written.set()

    def _count(self, written: int = 0, answered: int = 0, failure: str = "", lost: int = 0) -> None:
        with self._changed:
            delivery = self.delivery
            delivery.written += written
            delivery.answered += answered
            delivery.accepted += answered if answered and not failure else 0
            delivery.lost += lost
            if failure:
                delivery.failures.append(failure)
            self._changed.notify_all()

    def close(self, timeout_s: float, answer_wait_s: float = ANSWER_WAIT_S) -> Delivery:
        """Stop taking items; wait until all are written (≤ `timeout_s`), then ≤ `answer_wait_s` for answers."""
        self._queue.put(None)
        deadline = time.monotonic() + timeout_s
        delivery = self.delivery
        self._wait(lambda: delivery.written + delivery.lost >= delivery.queued, deadline)
        answers = min(deadline, time.monotonic() + answer_wait_s)
        self._wait(lambda: delivery.answered >= delivery.written + delivery.lost - delivery.dropped, answers)
        return delivery

    def _wait(self, done: Callable[[], bool], deadline: float) -> None:
        with self._changed:
            while not done() and (left := deadline - time.monotonic()) > 0:
                self._changed.wait(left)
