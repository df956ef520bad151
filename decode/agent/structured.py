"""Structured output: the final answer as a JSON object that validates against a schema the user gave
(`decode run --json-schema SCHEMA`, Codex's `--output-schema FILE`).

pydantic-ai does the asking: `StructuredDict` offers the schema to the model as its output tool, and
the type below checks what comes back against the whole schema (`jsonschema`, Draft 2020-12), not
only "an object". A mismatch goes back to the model as a retry with the errors; after the agent's
retries the turn fails, and `decode run` exits 4 (`EXIT_SCHEMA`). The answer is the object as JSON
text, so every front end that shows a `str` shows it.
"""

import json
from collections.abc import AsyncGenerator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from pydantic import GetCoreSchemaHandler
from pydantic_ai import StructuredDict
from pydantic_ai.agent import AbstractAgent, AgentRun, WrapperAgent
from pydantic_core import core_schema


class SchemaError(ValueError):
    """The schema itself cannot be used: not JSON, not a JSON Schema, not an object schema."""


class JsonObject(dict[str, Any]):
    """The validated answer: a dict whose text is its JSON."""

    def __str__(self) -> str:
        return json.dumps(self, ensure_ascii=False)


def read_schema(value: str) -> dict[str, Any]:
    """`value` as a schema: inline JSON (it starts with `{`), else the path of a JSON file. Raises
    `SchemaError` saying what is wrong."""
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import SchemaError as InvalidSchema

    text = value
    if not value.lstrip().startswith("{"):
        try:
            text = Path(value).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise SchemaError(f"cannot read the schema file {value}: {getattr(exc, 'strerror', None) or exc}") from None
    try:
        schema = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SchemaError(f"the schema is not JSON: {exc}") from None
    if not isinstance(schema, dict) or schema.get("type") != "object":
        raise SchemaError('the schema must describe an object ("type": "object")')
    try:
        Draft202012Validator.check_schema(schema)
    except InvalidSchema as exc:
        raise SchemaError(f"not a JSON Schema: {exc.message}") from None
    return schema


def schema_output(schema: dict[str, Any]) -> type[dict[str, Any]]:
    """The pydantic-ai output type for `schema`: offered to the model as `StructuredDict` offers it,
    validated against all of it, returned as a `JsonObject`."""
    from jsonschema import Draft202012Validator

    validator = Draft202012Validator(schema)

    def check(value: dict[str, Any]) -> JsonObject:
        errors = sorted(validator.iter_errors(value), key=lambda error: list(error.absolute_path))
        if errors:  # pydantic-ai sends this back to the model as a retry
            raise ValueError(
                "; ".join(f"{'/'.join(map(str, e.absolute_path)) or '(root)'}: {e.message}" for e in errors)
            )
        return JsonObject(value)

    class SchemaOutput(StructuredDict(schema)):  # ty: ignore[unsupported-base]
        @classmethod
        def __get_pydantic_core_schema__(cls, source: Any, handler: GetCoreSchemaHandler) -> core_schema.CoreSchema:
            plain = core_schema.dict_schema(
                keys_schema=core_schema.str_schema(), values_schema=core_schema.any_schema()
            )
            return core_schema.no_info_after_validator_function(check, plain)

    return SchemaOutput


class SchemaAgent(WrapperAgent[Any, Any]):
    """The agent, with every run's output type the schema's (the loop's calls stay as they are)."""

    def __init__(self, wrapped: AbstractAgent[Any, Any], schema: dict[str, Any]) -> None:
        super().__init__(wrapped)
        self.schema = schema
        self.output = schema_output(schema)

    @asynccontextmanager
    async def iter(
        self, user_prompt: str | Sequence[Any] | None = None, **options: Any
    ) -> AsyncGenerator[AgentRun[Any, Any]]:
        options["output_type"] = options.get("output_type") or self.output
        async with self.wrapped.iter(user_prompt, **options) as run:
            yield run
