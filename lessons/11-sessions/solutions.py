"""Reference solutions of lesson 11's exercises, and a plausible mistake for each that its check rejects."""

import json
from dataclasses import replace
from pathlib import Path

from pydantic_ai.messages import ModelMessage, ModelMessagesTypeAdapter, ModelRequest, ToolReturnPart

from decode.context.pruning import placeholder


def replay(path: Path) -> list[ModelMessage]:
    """Every complete line in order; a line that is not valid JSON (a torn last one) is skipped."""
    history: list[ModelMessage] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue
        if record["type"] == "turn":
            history.extend(ModelMessagesTypeAdapter.validate_python(record["messages"]))
        elif record["type"] == "clear":
            history = []
    return history


def wrong_replay(path: Path) -> list[ModelMessage]:
    """Trusts every line: the torn one a crash leaves makes the whole session unreadable."""
    history: list[ModelMessage] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        if record["type"] == "turn":
            history.extend(ModelMessagesTypeAdapter.validate_python(record["messages"]))
        elif record["type"] == "clear":
            history = []
    return history


def prune(messages: list[ModelMessage], keep_last: int) -> list[ModelMessage]:
    """Copies of the old requests, their tool outputs replaced; everything else as it was."""
    recent = len(messages) - keep_last

    def pruned(message: ModelMessage) -> ModelMessage:
        parts = [replace(p, content=placeholder(p)) if isinstance(p, ToolReturnPart) else p for p in message.parts]
        return replace(message, parts=parts)

    return [
        pruned(message) if index < recent and isinstance(message, ModelRequest) else message
        for index, message in enumerate(messages)
    ]


def wrong_prune(messages: list[ModelMessage], keep_last: int) -> list[ModelMessage]:
    """Edits the parts in place: what the model is sent shrinks, and so does the history it came from."""
    for message in messages[: len(messages) - keep_last]:
        for part in message.parts:
            if isinstance(part, ToolReturnPart):
                part.content = placeholder(part)
    return list(messages)
