"""decode's capabilities as one: each hook reaches only the capabilities that define it.

pydantic-ai calls every hook of every capability of a run, around thirty of them (before, after and
around each model request, each tool's validation and execution, each node), copying the run
context for each call, and passes every event of every node's stream through each capability's
`wrap_run_event_stream`. decode's own capabilities define one or two hooks each, so in a turn of
200 tool calls most of those calls did nothing, and cost about 2 % of a bare agent's time per
capability (issue 27, `evals/perf/bench_loop.py`).

`capability_set()` puts the plain ones (no ordering constraint, no toolset, no id: nothing
pydantic-ai places or loads by itself) in one `CapabilitySet`, a pydantic-ai `WrapperCapability`
around their `CombinedCapability`. pydantic-ai sees one capability; each hook of it calls the
combination of just the capabilities whose class overrides that hook, in their order, combined by
pydantic-ai's own code (`wrap_*` nested, `before_*` and `after_*` chained). What is not a hook
(instructions, toolsets, `for_run`, the leaves pydantic-ai visits) is the wrapper's own delegation.
"""

from collections.abc import AsyncIterable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic_ai import RunContext
from pydantic_ai.capabilities import AbstractCapability, CombinedCapability
from pydantic_ai.capabilities.wrapper import WrapperCapability
from pydantic_ai.messages import AgentStreamEvent

HOOKS = (
    *(
        name
        for name, value in vars(AbstractCapability).items()
        if callable(value)
        and not name.startswith("_")
        and (name.startswith(("before_", "after_", "wrap_", "prepare_")) or name.endswith("_error"))
        and name != "wrap_run_event_stream"  # not awaited: it returns a stream (below)
    ),
    "handle_deferred_tool_calls",
)
"""The hooks pydantic-ai calls on a capability during a run."""


def overrides(capability: AbstractCapability[Any], hook: str) -> bool:
    """Whether `capability` does something in `hook` (its class defines it, not only pydantic-ai's default)."""
    if hook == "wrap_run_event_stream":
        return capability.has_wrap_run_event_stream
    if hook == "on_event":  # a method of its own, or methods marked `@on_event`
        return capability.has_on_event
    return getattr(type(capability), hook) is not getattr(AbstractCapability, hook)


def is_plain(capability: AbstractCapability[Any]) -> bool:
    """Whether `capability` only has hooks and instructions: nothing pydantic-ai places, finds or loads."""
    special = ("get_ordering", "get_toolset", "get_wrapper_toolset", "get_native_tools", "get_model")
    return (
        capability.id is None
        and not capability.defer_loading
        and not isinstance(capability, CombinedCapability | WrapperCapability)
        and all(getattr(type(capability), name) is getattr(AbstractCapability, name) for name in special)
    )


@dataclass
class CapabilitySet(WrapperCapability[Any]):
    """Plain capabilities as one: each hook calls only those that define it (see the module docstring)."""

    _subsets: dict[str, tuple[AbstractCapability[Any], CombinedCapability[Any]]] = field(
        default_factory=dict, init=False, repr=False
    )

    def subset(self, hook: str) -> CombinedCapability[Any]:
        """The capabilities that define `hook`, combined (remembered for the capabilities wrapped now)."""
        known = self._subsets.get(hook)
        if known is None or known[0] is not self.wrapped:  # `for_run` may have rebound the wrapped ones
            members = self.wrapped.capabilities if isinstance(self.wrapped, CombinedCapability) else [self.wrapped]
            known = self._subsets[hook] = (self.wrapped, CombinedCapability([c for c in members if overrides(c, hook)]))
        return known[1]

    # pydantic-ai asks these before it wraps a node or a request, or catches its error: a set whose
    # members do none of it costs no coroutine, no copied run context, per node and per request.
    @property
    def _has_wrap_node_run(self) -> bool:
        return bool(self.subset("wrap_node_run").capabilities)

    @property
    def _has_on_node_run_error(self) -> bool:
        return bool(self.subset("on_node_run_error").capabilities)

    @property
    def _has_wrap_model_request(self) -> bool:
        return bool(self.subset("wrap_model_request").capabilities)

    @property
    def _has_on_model_request_error(self) -> bool:
        return bool(self.subset("on_model_request_error").capabilities)

    @property
    def has_on_event(self) -> bool:
        """Whether a capability in the set listens to the run's events (decode's do not)."""
        return bool(self.subset("on_event").capabilities)

    def listens_to(self, event: AgentStreamEvent) -> bool:
        # Asked for every event of the run: a set with no listener answers without asking its members.
        return self.has_on_event and super().listens_to(event)

    @property
    def has_wrap_run_event_stream(self) -> bool:
        """Whether a capability in the set wraps the events (pydantic-ai streams a run for it if so)."""
        return bool(self.subset("wrap_run_event_stream").capabilities)

    def wrap_run_event_stream(
        self, ctx: RunContext[Any], *, stream: AsyncIterable[AgentStreamEvent]
    ) -> AsyncIterable[AgentStreamEvent]:
        subset = self.subset("wrap_run_event_stream")
        if not subset.capabilities:
            return stream  # no capability wraps the events: they pass as they are, through no generator
        return subset.wrap_run_event_stream(ctx, stream=stream)


def _hook(name: str) -> Callable[..., Any]:
    default = getattr(AbstractCapability, name)  # what a hook no member defines does: pass its value on

    async def hook(self: CapabilitySet, ctx: RunContext[Any], *args: Any, **kwargs: Any) -> Any:
        subset = self.subset(name)
        if not subset.capabilities:
            return await default(self, ctx, *args, **kwargs)
        return await getattr(subset, name)(ctx, *args, **kwargs)

    hook.__name__ = hook.__qualname__ = name
    return hook


for _name in HOOKS:
    setattr(CapabilitySet, _name, _hook(_name))


def capability_set(capabilities: Sequence[AbstractCapability[Any]]) -> list[AbstractCapability[Any]]:
    """`capabilities` with the plain ones as one `CapabilitySet` (first), the others after it as they were."""
    plain = [c for c in capabilities if is_plain(c)]
    if len(plain) < 2:
        return list(capabilities)
    return [CapabilitySet(CombinedCapability(plain)), *(c for c in capabilities if not is_plain(c))]
