"""Slash commands: the registry (parse, complete, suggest) and the built-ins as a user runs them."""

import pytest

from decode.tui.commands import CommandRegistry, SlashCommand, builtin_commands


async def nothing(repl, argument: str) -> None:
    return None


# -- the registry ---------------------------------------------------------------------------------


def test_a_line_starting_with_a_command_word_is_a_command_and_carries_its_argument() -> None:
    registry = builtin_commands()
    invocation = registry.parse("  /model openrouter:qwen/qwen3-coder ")
    assert invocation is not None
    assert invocation.command is registry.get("model")
    assert invocation.argument == "openrouter:qwen/qwen3-coder"


@pytest.mark.parametrize("line", ["fix the bug", "/etc/hosts looks wrong", "/ lone slash", "//comment", "/Help"])
def test_other_lines_are_prompts_for_the_agent(line: str) -> None:
    assert builtin_commands().parse(line) is None


def test_an_unknown_command_parses_with_no_command_and_a_suggestion() -> None:
    registry = builtin_commands()
    invocation = registry.parse("/hlep")
    assert invocation is not None
    assert invocation.command is None
    assert invocation.name == "hlep"
    assert registry.closest("hlep") == "help"
    assert registry.closest("co") == "cost"  # a unique prefix
    assert registry.closest("zzzz") is None


def test_aliases_reach_the_same_command() -> None:
    registry = builtin_commands()
    assert registry.get("exit") is registry.get("quit")


def test_the_builtins_of_lesson_03() -> None:
    registry = builtin_commands()
    names = [command.name for command in registry]
    assert names[:5] == ["help", "status", "model", "clear", "cost"]
    assert names[-1] == "quit"
    assert registry.get("model").usage == "/model [name]"
    # Commands that change the conversation wait for a running turn to end.
    assert [command.name for command in registry if not command.while_busy] == ["model", "clear"]


def test_later_lessons_add_commands_through_the_decorator() -> None:
    registry = builtin_commands()

    @registry.command("compact", "Summarise the conversation", argument="[focus]")
    async def compact(repl, argument: str) -> None:
        return None

    assert registry.get("compact").handler is compact
    assert len(registry) == len(builtin_commands()) + 1


def test_a_name_cannot_be_registered_twice() -> None:
    registry = CommandRegistry()
    registry.add(SlashCommand("quit", "Leave", nothing, aliases=("exit",)))
    with pytest.raises(ValueError, match="/exit"):
        registry.add(SlashCommand("exit", "Leave too", nothing))


# -- the built-ins, in a running REPL -------------------------------------------------------------


async def test_help_lists_every_command_with_its_argument_and_the_keys(start_repl, script) -> None:
    session = await start_repl(script([]))
    session.send("/help")
    output = await session.wait_for("Ctrl-D")
    for command in session.repl.commands:
        assert command.usage in output
        assert command.summary in output
    assert "/quit, /exit" in output
    assert "Alt+Enter" in output


async def test_cost_shows_the_sessions_tokens_and_that_no_price_is_known(start_repl, script) -> None:
    session = await start_repl(script([{"text": "hello there"}]))
    session.send("hi")
    await session.wait_for("hello there")
    await session.wait_until(lambda: session.repl.status.phase == "ready")
    session.send("/cost")
    output = await session.wait_for("cost:")
    status = session.repl.status
    assert "requests: 1" in output
    assert f"({status.input_tokens:,} in, {status.output_tokens:,} out)" in output
    assert "no price is known" in output
    assert "context:" in output


async def test_model_without_an_argument_shows_the_current_model(start_repl, script) -> None:
    model = script([])
    session = await start_repl(model)
    await session.warm()
    session.send("/model")
    await session.wait_for(f"model: {model}")


async def test_clear_forgets_the_conversation_but_not_its_cost(start_repl, script) -> None:
    session = await start_repl(script([{"text": "first"}, {"text": "second"}]))
    session.send("remember this")
    await session.wait_for("first")
    await session.wait_until(lambda: session.repl.status.phase == "ready")
    assert session.repl.loop.history

    session.send("/clear")
    await session.wait_for("conversation cleared")
    assert session.repl.loop.history == []
    assert session.repl.status.requests == 1
    assert session.repl.status.context_tokens == 0


async def test_a_command_that_fails_is_an_error_line(start_repl, script) -> None:
    async def broken(repl, argument: str) -> None:
        raise RuntimeError("disk on fire")

    commands = builtin_commands()
    commands.add(SlashCommand("broken", "Always fails", broken))
    session = await start_repl(script([]), commands=commands)
    session.send("/broken")
    await session.wait_for("error: /broken failed: disk on fire")
    session.send("/quit")
    assert await session.exit_code() == 0


def test_the_parts_that_add_commands_plug_their_status_lines_start_checks_and_ready_steps_in_the_registry() -> None:
    from decode.tui.app import repl_commands

    registry = repl_commands()
    assert builtin_commands().status_lines == builtin_commands().on_ready == []  # lesson 03's REPL: none
    assert list(registry.start_checks) == ["resume", "session_id", "agent", "sandbox", "repo"]  # lessons 11, 20, 15, 17
    assert [ready.__name__ for ready in registry.on_ready] == [
        "show_session",  # a resumed conversation first, then what is said about it
        "start_permissions",
        "start_mcp",
        "show_agent",
        "show_sandbox",
    ]
    assert len(registry.status_lines) == 3  # the mode, the session, the sandbox and its Workspace
    assert [leave.__name__ for leave in registry.on_leave] == ["show_resume_line", "note_session", "end_on_leave"]
    assert [clear.__name__ for clear in registry.on_clear] == ["note_session", "end_on_clear"]
    # lesson 12: a skill is /name, and so is a custom command
    assert [more.__name__ for more in registry.more_commands] == ["skill_commands", "custom_command_list"]
    assert [run.__name__ for run in registry.run_more] == ["run_skill", "run_custom_command"]
