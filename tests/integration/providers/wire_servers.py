"""Fake native providers on 127.0.0.1: Anthropic's Messages API and OpenAI's Responses API.

Planned like the servers of `fake_servers.py` (`server.plan(Turn(...), Fail(529))`), each answer
rendered in the real wire format, streamed (server-sent events, as decode always asks) or not:

- `AnthropicServer`: `POST /v1/messages`; a stream of `message_start`, a `content_block_*` trio per
  block (thinking, text, tool use with `input_json_delta`s), `message_delta` (stop reason, output
  tokens), `message_stop`; errors as `{"type": "error", "error": {"type": "overloaded_error", …}}`.
- `ResponsesServer`: `POST /v1/responses`; `response.created`, output items (reasoning with its
  summary, a message's text deltas, function calls with argument deltas), `response.completed`
  with the usage.
"""

import json
from typing import Any

from tests.integration.providers.fake_servers import Fail, FakeProvider, Recorded, Turn, halves, words

ANTHROPIC_ERRORS = {
    400: "invalid_request_error",
    401: "authentication_error",
    429: "rate_limit_error",
    500: "api_error",
    529: "overloaded_error",
}


def _event(name: str, data: dict[str, Any]) -> str:
    return f"event: {name}\ndata: {json.dumps(data)}"


class AnthropicServer(FakeProvider):
    """Anthropic's Messages API. Point `ANTHROPIC_BASE_URL` at `server.url`."""

    cache_read_tokens = 0
    """Input tokens each answer reports as read from the prompt cache."""

    def serves(self, path: str) -> bool:
        return path.split("?")[0].endswith("/v1/messages")

    def is_stream(self, request: Recorded) -> bool:
        return bool(request.json().get("stream"))

    def answer(self, turn: Turn, request: Recorded) -> dict[str, Any]:
        return {**self._message(turn, request), "content": self._blocks(turn), "stop_reason": self._stop(turn)}

    def stream_events(self, turn: Turn, request: Recorded) -> list[str]:
        start = {**self._message(turn, request), "content": [], "stop_reason": None}
        start["usage"] = {**start["usage"], "output_tokens": 1}
        events = [_event("message_start", {"type": "message_start", "message": start})]
        for index, block in enumerate(self._blocks(turn)):
            events += self._block_events(index, block)
        delta = {"stop_reason": self._stop(turn), "stop_sequence": None}
        events.append(
            _event(
                "message_delta",
                {"type": "message_delta", "delta": delta, "usage": {"output_tokens": turn.output_tokens}},
            )
        )
        return [*events, _event("message_stop", {"type": "message_stop"})]

    def error_body(self, fail: Fail) -> dict[str, Any]:
        kind = ANTHROPIC_ERRORS.get(fail.status, "api_error")
        return {"type": "error", "error": {"type": kind, "message": fail.message}}

    def malformed_event(self, body: str) -> str:
        return f"event: message_start\ndata: {body}"  # the SDK skips an event without a name it knows

    def tool_results(self, request: Recorded) -> list[tuple[str, Any]]:
        blocks = [b for m in request.json()["messages"] if isinstance(m["content"], list) for b in m["content"]]
        names = {b["id"]: b["name"] for b in blocks if b["type"] == "tool_use"}
        return [(names[b["tool_use_id"]], b["content"]) for b in blocks if b["type"] == "tool_result"]

    def _message(self, turn: Turn, request: Recorded) -> dict[str, Any]:
        usage = {
            "input_tokens": turn.input_tokens,
            "output_tokens": turn.output_tokens,
            "cache_creation_input_tokens": 0,
            "cache_read_input_tokens": self.cache_read_tokens,
        }
        model = request.json().get("model")
        return {
            "id": "msg_fake",
            "type": "message",
            "role": "assistant",
            "model": model,
            "stop_sequence": None,
            "usage": usage,
        }

    @staticmethod
    def _stop(turn: Turn) -> str:
        return "tool_use" if turn.calls else "end_turn"

    @staticmethod
    def _blocks(turn: Turn) -> list[dict[str, Any]]:
        blocks: list[dict[str, Any]] = []
        if turn.thinking:
            blocks.append({"type": "thinking", "thinking": turn.thinking, "signature": "fake-signature"})
        if turn.text:
            blocks.append({"type": "text", "text": turn.text})
        blocks += [
            {"type": "tool_use", "id": f"toolu_{i}", "name": call.name, "input": call.args}
            for i, call in enumerate(turn.calls)
        ]
        return blocks

    @staticmethod
    def _block_events(index: int, block: dict[str, Any]) -> list[str]:
        """`content_block_start`, the deltas, `content_block_stop`: how a block arrives in a stream."""
        kind = block["type"]
        if kind == "thinking":
            empty: dict[str, Any] = {"type": "thinking", "thinking": "", "signature": ""}
            deltas = [{"type": "thinking_delta", "thinking": piece} for piece in words(block["thinking"])]
            deltas.append({"type": "signature_delta", "signature": block["signature"]})
        elif kind == "text":
            empty = {"type": "text", "text": ""}
            deltas = [{"type": "text_delta", "text": piece} for piece in words(block["text"])]
        else:
            empty = {**block, "input": {}}
            deltas = [{"type": "input_json_delta", "partial_json": p} for p in halves(json.dumps(block["input"]))]
        return [
            _event("content_block_start", {"type": "content_block_start", "index": index, "content_block": empty}),
            *(
                _event("content_block_delta", {"type": "content_block_delta", "index": index, "delta": delta})
                for delta in deltas
            ),
            _event("content_block_stop", {"type": "content_block_stop", "index": index}),
        ]


class ResponsesServer(FakeProvider):
    """OpenAI's Responses API. Point `OPENAI_BASE_URL` at `server.url + "/v1"`."""

    def serves(self, path: str) -> bool:
        return path.split("?")[0].endswith("/v1/responses")

    def is_stream(self, request: Recorded) -> bool:
        return bool(request.json().get("stream"))

    def answer(self, turn: Turn, request: Recorded) -> dict[str, Any]:
        return self._response(turn, request, "completed", self._items(turn))

    def stream_events(self, turn: Turn, request: Recorded) -> list[str]:
        events: list[dict[str, Any]] = [
            {"type": "response.created", "response": self._response(turn, request, "in_progress", [])}
        ]
        for index, item in enumerate(self._items(turn)):
            events += self._item_events(index, item)
        events.append(
            {"type": "response.completed", "response": self._response(turn, request, "completed", self._items(turn))}
        )
        return [_event(e["type"], {**e, "sequence_number": n}) for n, e in enumerate(events)]

    def error_body(self, fail: Fail) -> dict[str, Any]:
        return {"error": {"message": fail.message, "type": "fake_error", "code": str(fail.status)}}

    def tool_results(self, request: Recorded) -> list[tuple[str, Any]]:
        items = [i for i in request.json()["input"] if isinstance(i, dict)]
        names = {i["call_id"]: i["name"] for i in items if i.get("type") == "function_call"}
        return [(names[i["call_id"]], i["output"]) for i in items if i.get("type") == "function_call_output"]

    @staticmethod
    def _items(turn: Turn) -> list[dict[str, Any]]:
        items: list[dict[str, Any]] = []
        if turn.thinking:
            summary = [{"type": "summary_text", "text": turn.thinking}]
            items.append({"type": "reasoning", "id": "rs_0", "summary": summary, "encrypted_content": "fake-reasoning"})
        if turn.text:
            content = [{"type": "output_text", "text": turn.text, "annotations": []}]
            items.append(
                {"type": "message", "id": "msg_0", "role": "assistant", "status": "completed", "content": content}
            )
        items += [
            {"type": "function_call", "id": f"fc_{i}", "call_id": f"call_{i}", "name": c.name,
             "arguments": json.dumps(c.args), "status": "completed"}
            for i, c in enumerate(turn.calls)
        ]  # fmt: skip
        return items

    @staticmethod
    def _item_events(index: int, item: dict[str, Any]) -> list[dict[str, Any]]:
        """An output item as a stream gives it: added, its deltas, done."""
        at = {"output_index": index, "item_id": item["id"]}
        if item["type"] == "reasoning":
            text = item["summary"][0]["text"]
            added = {**item, "summary": [], "encrypted_content": None}
            deltas = [
                {"type": "response.reasoning_summary_text.delta", **at, "summary_index": 0, "delta": piece}
                for piece in words(text)
            ]
        elif item["type"] == "message":
            added = {**item, "content": [], "status": "in_progress"}
            deltas = [
                {"type": "response.output_text.delta", **at, "content_index": 0, "delta": piece, "logprobs": []}
                for piece in words(item["content"][0]["text"])
            ]
        else:
            added = {**item, "arguments": "", "status": "in_progress"}
            deltas = [
                {"type": "response.function_call_arguments.delta", **at, "delta": piece}
                for piece in halves(item["arguments"])
            ]
        return [
            {"type": "response.output_item.added", "output_index": index, "item": added},
            *deltas,
            {"type": "response.output_item.done", "output_index": index, "item": item},
        ]

    @staticmethod
    def _response(turn: Turn, request: Recorded, status: str, output: list[dict[str, Any]]) -> dict[str, Any]:
        usage = {
            "input_tokens": turn.input_tokens,
            "input_tokens_details": {"cached_tokens": 0},
            "output_tokens": turn.output_tokens,
            "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": turn.input_tokens + turn.output_tokens,
        }
        return {
            "id": "resp_fake", "object": "response", "created_at": 1700000000, "status": status,
            "model": request.json().get("model"), "output": output, "parallel_tool_calls": True,
            "tool_choice": "auto", "tools": [], "usage": usage if status == "completed" else None,
        }  # fmt: skip
