"""Lesson 13's build-along track: web_fetch's SSRF guard, and the to-do list.

`make lesson-check N=13` runs these against your copy (`make lesson-start N=13`); each test's first
docstring line is the behaviour it reports.
"""

import ipaddress
from pathlib import Path

import pytest
from pydantic_ai import ModelRetry, RunContext
from pydantic_ai.models.test import TestModel
from pydantic_ai.usage import RunUsage

from decode.config.settings import Settings
from decode.entities.deps import AgentDeps
from decode.entities.todos import Todo
from decode.processes.local import LocalExecutor
from decode.tools.todo import todo_write
from decode.tools.web.addresses import Blocked, screen, why_blocked


def test_loopback_private_and_metadata_addresses_are_blocked() -> None:
    """Loopback, private and cloud-metadata addresses are blocked, IPv4 inside IPv6 too; public ones are not."""
    said = {text: why_blocked(ipaddress.ip_address(text)) for text in ("127.0.0.1", "10.1.2.3", "::1", "8.8.8.8")}
    assert said == {"127.0.0.1": "a loopback address", "10.1.2.3": "a private address", "::1": "a loopback address"} | {
        "8.8.8.8": None
    }
    assert why_blocked(ipaddress.ip_address("169.254.169.254")) == "a cloud metadata endpoint"
    assert why_blocked(ipaddress.ip_address("::ffff:127.0.0.1")) == "a loopback address inside an IPv6 one"


async def resolves_to_loopback(host: str, port: int) -> list[str]:
    """A resolver (the DNS step `screen` takes as an argument) that answers 127.0.0.1 for every host."""
    return ["127.0.0.1"]


async def resolves_to_public(host: str, port: int) -> list[str]:
    return ["93.184.215.14"]


async def test_a_name_that_resolves_to_loopback_is_blocked_unless_a_rule_allows_it() -> None:
    """A host that resolves to a loopback address is blocked, unless a rule allows that host."""
    with pytest.raises(Blocked, match=r"resolves to 127\.0\.0\.1, a loopback address"):
        await screen("evil.example", 80, allowed=False, resolve=resolves_to_loopback)
    screened = await screen("dev.local", 80, allowed=True, resolve=resolves_to_loopback)
    assert screened.private
    public = await screen("example.com", 443, allowed=False, resolve=resolves_to_public)
    assert (public.host, public.private) == ("example.com", False)


async def test_metadata_and_disguised_addresses_are_always_blocked() -> None:
    """A metadata endpoint is blocked even when allowed; '2130706433' is 127.0.0.1 and says so."""
    with pytest.raises(Blocked, match="metadata"):
        await screen("169.254.169.254", 80, allowed=True, resolve=resolves_to_public)
    with pytest.raises(Blocked, match=r"127\.0\.0\.1 written another way"):
        await screen("2130706433", 80, allowed=False, resolve=resolves_to_public)


@pytest.fixture
def ctx(tmp_path: Path) -> RunContext[AgentDeps]:
    deps = AgentDeps(executor=LocalExecutor(tmp_path), settings=Settings(_env_file=None), harness_home=tmp_path)
    return RunContext(deps=deps, model=TestModel(), usage=RunUsage())


async def test_the_todo_list_is_replaced_whole_and_shown(ctx: RunContext[AgentDeps]) -> None:
    """todo_write replaces the whole list, keeps it in the session, and shows the checklist."""
    todos = [Todo(content="read", status="completed"), Todo(content="fix", status="in_progress")]
    said = await todo_write(ctx, todos)
    assert ctx.deps.todos == todos
    assert said.startswith("To-do list updated (")
    assert "fix" in said
    assert await todo_write(ctx, []) == "The to-do list is empty."
    assert ctx.deps.todos == []


async def test_two_steps_in_progress_are_refused(ctx: RunContext[AgentDeps]) -> None:
    """Two steps in progress at once go back to the model as a retry."""
    with pytest.raises(ModelRetry, match="keep exactly one in_progress"):
        await todo_write(ctx, [Todo(content="a", status="in_progress"), Todo(content="b", status="in_progress")])
