"""Lesson 01's exercises: a setting with validation, and an event that round-trips.

Each `check_NAME(candidate)` runs the candidate for real and shows ✓ or ✗ with the reason
(`course.check`). The reference solutions are in `solutions.py`.
"""

import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated, Any, Union, get_args

from course import Verdict, check
from pydantic import BaseModel, Field, TypeAdapter, ValidationError

from decode.config.settings import Settings
from decode.entities.events import AgentEvent, TextDelta, TurnFinished
from decode.entities.usage import Usage


@contextmanager
def environment(**variables: str) -> Iterator[None]:
    """Run with exactly these `DECODE_*` variables set (and the others removed), then restore."""
    saved = {name: value for name, value in os.environ.items() if name.startswith("DECODE_")}
    for name in saved:
        del os.environ[name]
    os.environ.update(variables)
    try:
        yield
    finally:
        for name in [name for name in os.environ if name.startswith("DECODE_")]:
            del os.environ[name]
        os.environ.update(saved)


def check_budget_settings(candidate: type[Settings]) -> Verdict:
    """`candidate` is a `Settings` subclass with `max_cost_usd`: None by default, read from
    `DECODE_MAX_COST_USD`, and only ever a positive number."""

    def test() -> None:
        assert isinstance(candidate, type), "it must be a class"
        assert issubclass(candidate, Settings), "it must be a subclass of Settings"
        if "max_cost_usd" not in candidate.model_fields:
            raise NotImplementedError  # the stub as it was handed out
        with environment():
            default = candidate(_env_file=None).max_cost_usd
            assert default is None, f"with nothing set, max_cost_usd should be None (no budget), not {default!r}"
            others = candidate(_env_file=None).model_dump(exclude={"max_cost_usd"})
            changed = sorted(
                name for name, value in Settings(_env_file=None).model_dump().items() if others.get(name) != value
            )
            assert not changed, f"only max_cost_usd should be new, but these settings changed: {', '.join(changed)}"
        with environment(DECODE_MAX_COST_USD="0.5"):
            read = candidate(_env_file=None).max_cost_usd
            assert read == 0.5, f"DECODE_MAX_COST_USD=0.5 should give 0.5, got {read!r}: check the environment alias"
            assert candidate(_env_file=None, max_cost_usd=2).max_cost_usd == 2, (
                "an argument should beat the environment"
            )
        for bad in ("0", "-1", "lots"):
            with environment(DECODE_MAX_COST_USD=bad):
                try:
                    value = candidate(_env_file=None).max_cost_usd
                except ValidationError:
                    continue
                raise AssertionError(f"DECODE_MAX_COST_USD={bad} was accepted as {value!r}; a budget must be > 0")

    return check("a budget setting, validated", test)


def members(union: Any) -> tuple[type[BaseModel], ...]:
    """The event classes of an `Annotated[A | B | …, Field(discriminator="kind")]` union."""
    return get_args(get_args(union)[0])


def with_event(event: type[BaseModel]) -> Any:
    """`AgentEvent` with one more member, the way events.py spells the union."""
    return Annotated[Union[*members(AgentEvent), event], Field(discriminator="kind")]


def check_turn_cancelled(candidate: type[BaseModel]) -> Verdict:
    """`candidate` is a `TurnCancelled` event with a `reason`, whose `kind` is `"turn_cancelled"`,
    that joins the `AgentEvent` union and round-trips through JSON with `TypeAdapter`."""

    def test() -> None:
        assert isinstance(candidate, type), "it must be a class"
        assert issubclass(candidate, BaseModel), "it must be a pydantic BaseModel"
        if not candidate.model_fields:
            raise NotImplementedError  # the stub as it was handed out
        event = candidate(reason="the user pressed Esc")
        assert getattr(event, "kind", None) == "turn_cancelled", "its `kind` should default to 'turn_cancelled'"
        taken = [member.__name__ for member in members(AgentEvent) if member.model_fields["kind"].default == event.kind]
        assert not taken, f"kind {event.kind!r} is already used by {taken}"
        try:
            adapter = TypeAdapter(with_event(candidate))
        except Exception as exc:  # pydantic refuses a discriminator that is not a Literal
            raise AssertionError(f"it cannot join the union: {str(exc).splitlines()[0]}") from None
        line = adapter.dump_json(event)
        back = adapter.validate_json(line)
        assert type(back) is candidate, f"{line.decode()} read back as a {type(back).__name__}"
        assert back == event, f"{line.decode()} read back as {back!r}"
        assert b'"reason"' in line, f"the reason is not in the JSON: {line.decode()}"
        others = [TextDelta(text="hi"), TurnFinished(output="hi", usage=Usage(requests=1))]
        assert [adapter.validate_json(adapter.dump_json(e)) for e in others] == others, "the old events broke"

    return check("a TurnCancelled event that round-trips", test)
