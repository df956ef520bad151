"""Slash commands: one registry, so `/help`, autocompletion and dispatch never disagree.

A line that starts with `/name` (a lower-case word) is a command, not a prompt: `/model
openrouter:qwen/qwen3-coder` switches the model, while `/etc/hosts looks wrong` still goes to the
agent. Each command is declared once, with its summary and what it may do while a turn runs;
other parts of decode add their own commands to the same registry:

    registry = builtin_commands()

    @registry.command("hello", "Say hello")
    async def hello(repl: Repl, argument: str) -> None:
        repl.renderer.notice("hello!")
"""

from __future__ import annotations

import asyncio
import difflib
import re
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from rich.table import Table
from rich.text import Text

from decode.tui.footer import format_cost, format_tokens

if TYPE_CHECKING:
    from decode.tui.app import Repl

Handler = Callable[["Repl", str], Awaitable[None]]
Suggestions = Callable[["Repl"], list[str]]
StatusLines = Callable[["Repl"], list[str]]
"""A part's lines in `/status` (e.g. `session:   ID (saved)`), none when it has nothing to say."""
StartCheck = Callable[[Path, str], str | None]
"""Why an option's value cannot start the REPL in this directory (a one-line error), or None/''."""

_COMMAND = re.compile(r"^/([a-z][a-z0-9_:-]*)(?:\s+(.*))?$", re.DOTALL)  # `:`: `/frontend:component`

KEYS = [
    # [lesson 10]
    ("Enter", "send; while the agent works, steer it (it reads your message before its next step)"),
    ("Alt+Enter", "new line; while the agent works, send a follow-up (read when it would stop)"),
    # [before lesson 10]
    # ("Enter", "send; while the agent works, it waits for its turn"),
    # ("Alt+Enter", "new line"),
    # [/lesson 10]
    ("\\ at the end", "new line"),
    ("Esc", "stop the running turn (what it did is kept)"),  # [lesson 10]
    ("Esc Esc", "rewind to before an earlier turn (/rewind); with text on the line, clear it"),  # [lesson 11]
    ("Shift+Tab", "switch the permission mode: default → accept-edits → plan"),  # [lesson 06]
    ("!command", "bash mode: run it here as the rules allow, no model; the model sees it next turn"),  # [lesson 06]
    ("Ctrl-C", "stop the running turn, or clear the line; twice quickly: quit"),
    ("Ctrl-D", "quit (on an empty line)"),
    ("↑ / ↓, Ctrl-R", "history (kept in .decode/history)"),
    ("Tab", "complete a /command"),
    ("@path", "attach a file or folder of the project to the prompt (Tab completes it)"),  # [lesson 04]
    ("Ctrl+O", "browse the tool calls, each whole, in a pager (↑↓ another call, q back)"),
]


@dataclass(frozen=True)
class SlashCommand:
    """One command: `/name [argument]`, what it does, and how it runs."""

    name: str
    summary: str
    handler: Handler
    argument: str = ""
    """How the argument is written in `/help`, e.g. `[name]`; empty when there is none."""
    while_busy: bool = True
    """False for commands that change the conversation: they wait for the turn to end."""
    aliases: tuple[str, ...] = ()
    suggest: Suggestions | None = None
    """Completions for the argument, asked for as the user types it."""

    @property
    def usage(self) -> str:
        return f"/{self.name} {self.argument}".rstrip()


@dataclass(frozen=True)
class Invocation:
    """A parsed command line: the command (None when unknown), the name typed, the argument."""

    command: SlashCommand | None
    name: str
    argument: str


class CommandRegistry:
    """The slash commands of the REPL, in the order they were added, and what else the parts of
    decode that add commands plug into the REPL: their `/status` lines, their start checks and
    what they do once the conversation is built."""

    def __init__(self) -> None:
        self._commands: dict[str, SlashCommand] = {}
        self._aliases: dict[str, str] = {}
        self.status_lines: list[StatusLines] = []
        """Lines `/status` shows after the model and the directory, in the order they were added."""
        self.start_checks: dict[str, StartCheck] = {}
        """Options checked before the REPL starts (`launch.run_repl`), each by its `LoopOptions` field."""
        self.on_ready: list[Callable[[Repl], None]] = []
        """What runs once the warm-up has built the conversation (a notice, servers started)."""
        self.more_commands: list[Callable[[Repl], list[tuple[str, str]]]] = []
        """`/name`s the registry does not hold (skills), each with a summary: the completer and /help list them."""
        self.run_more: list[Callable[[Repl, str, str], Awaitable[bool]]] = []
        """Tried on an unknown `/name [argument]`, in order; True when one ran it."""
        self.on_leave: list[Callable[[Repl], object]] = []
        """What each part says or starts on the way out, once no turn runs (`prompt_loop.leave`)."""
        self.on_clear: list[Callable[[Repl], object]] = []
        """What each part does with the conversation before `/clear` forgets it."""

    def add(self, command: SlashCommand) -> None:
        for name in (command.name, *command.aliases):
            if name in self._commands or name in self._aliases:
                raise ValueError(f"slash command /{name} is already registered")
        self._commands[command.name] = command
        self._aliases.update({alias: command.name for alias in command.aliases})

    def command(
        self,
        name: str,
        summary: str,
        *,
        argument: str = "",
        while_busy: bool = True,
        aliases: tuple[str, ...] = (),
        suggest: Suggestions | None = None,
    ) -> Callable[[Handler], Handler]:
        """Register the decorated coroutine function as `/name`."""

        def register(handler: Handler) -> Handler:
            self.add(SlashCommand(name, summary, handler, argument, while_busy, aliases, suggest))
            return handler

        return register

    def get(self, name: str) -> SlashCommand | None:
        return self._commands.get(self._aliases.get(name, name))

    def __iter__(self) -> Iterator[SlashCommand]:
        return iter(self._commands.values())

    def __len__(self) -> int:
        return len(self._commands)

    def parse(self, line: str) -> Invocation | None:
        """The command `line` invokes, or None when the line is a prompt for the agent."""
        match = _COMMAND.match(line.strip())
        if match is None:
            return None
        name, argument = match.group(1), (match.group(2) or "").strip()
        return Invocation(self.get(name), name, argument)

    def closest(self, name: str) -> str | None:
        """The registered name nearest to a mistyped one (`/hlep` → `help`), if any is close."""
        names = [*self._commands, *self._aliases]
        prefixed = [known for known in names if known.startswith(name)]
        if len(prefixed) == 1:
            return prefixed[0]
        matches = difflib.get_close_matches(name, names, n=1)
        return matches[0] if matches else None


# -- the built-in commands ----------------------------------------------------------------------


async def _help(repl: Repl, argument: str) -> None:
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold cyan")
    table.add_column()
    for command in repl.commands:
        aliases = "".join(f", /{alias}" for alias in command.aliases)
        table.add_row(Text(command.usage + aliases), Text(command.summary))
    keys = Table.grid(padding=(0, 2))
    keys.add_column(style="bold")
    keys.add_column()
    for key, action in KEYS:
        keys.add_row(Text(key), Text(action))
    repl.renderer.info(Text("Commands", style="bold underline"))
    repl.renderer.info(table)
    if skills := repl.extra_commands():
        listed = Table.grid(padding=(0, 2))
        listed.add_column(style="bold cyan")
        listed.add_column()
        for name, summary in skills:
            listed.add_row(Text(f"/{name} [text]"), Text(summary))
        repl.renderer.info(Text("Skills and custom commands", style="bold underline"))
        repl.renderer.info(listed)
    repl.renderer.info(Text("Keys", style="bold underline"))
    repl.renderer.info(keys)


async def _model(repl: Repl, argument: str) -> None:
    if not argument:
        current = repl.status.model or "(loading)"
        repl.renderer.notice(f"model: {current} — switch with /model provider:name", "info")
        return
    await switch_model(repl, argument)


async def switch_model(repl: Repl, model: str) -> None:
    """Use `model` from the next turn on, in the same loop: history, cost, mode and files read carry over."""
    from decode.agent.compose import build_loop
    from decode.agent.compose import switch_model as swap
    from decode.tui.sessions import show_fill
    from decode.tui.warmup import start_errors

    await repl.warmed_up()
    if repl.settings is None:
        repl.renderer.error(repl.unavailable)
        return
    try:
        # Resolving may import a provider SDK (a second or more): keep the prompt responsive.
        if repl.conversation is not None:
            await asyncio.to_thread(swap, repl.conversation, model)
        else:  # the warm-up found no usable model: build the conversation now
            options = replace(repl.options, model=model)
            repl.conversation = await asyncio.to_thread(build_loop, options, repl.settings)
            from decode.tui.approvals import start_permissions

            start_permissions(repl)  # [lesson 06]
    except start_errors() as exc:
        repl.renderer.error(str(exc))
        return
    repl.status.model = model
    repl.status.phase = "ready"
    repl.unavailable = ""
    show_fill(repl)  # [lesson 11]
    repl.renderer.notice(f"model: {model}")


def _model_suggestions(repl: Repl) -> list[str]:
    return repl.model_choices  # known once the warm-up is done


async def _clear(repl: Repl, argument: str) -> None:
    for part in repl.commands.on_clear:  # the conversation's last word, before it goes
        part(repl)
    repl.clear_conversation()


async def _cost(repl: Repl, argument: str) -> None:
    status = repl.status
    total = status.input_tokens + status.output_tokens
    lines = [
        f"requests: {status.requests}",
        f"tokens:   {format_tokens(total)} ({status.input_tokens:,} in, {status.output_tokens:,} out)",
        f"cost:     {format_cost(status.cost_usd)}"
        + (" (no price is known for this model)" if status.cost_usd is None else ""),
    ]
    if status.context_fraction is not None:
        lines.append(
            f"context:  {format_tokens(status.context_tokens)} of {format_tokens(status.context_window)} tokens"
            f" ({status.context_fraction:.0%})"
        )
    repl.renderer.info(Text("\n".join(lines)))


async def _status(repl: Repl, argument: str) -> None:
    status = repl.status
    model = status.model or "(loading)"
    if status.phase == "unavailable":
        model += f" — unusable: {repl.unavailable}"
    lines = [f"model:     {model}", f"directory: {repl.workspace}"]
    for part in repl.commands.status_lines:
        lines.extend(part(repl))
    if status.context_fraction is not None:
        lines.append(
            f"context:   {format_tokens(status.context_tokens)} of {format_tokens(status.context_window)} tokens"
            f" ({status.context_fraction:.0%})"
        )
    else:
        lines.append(f"context:   {format_tokens(status.context_tokens)} tokens (window unknown)")
    lines.append(f"usage:     {status.requests} requests, cost {format_cost(status.cost_usd)} (/cost for more)")
    repl.renderer.info(Text("\n".join(lines)))


async def _last(repl: Repl, argument: str) -> None:
    repl.renderer.show_last()


async def _quit(repl: Repl, argument: str) -> None:
    repl.request_exit()


def builtin_commands() -> CommandRegistry:
    """A registry holding the built-in commands: /help, /status, /model, /clear, /cost, /last, /quit."""
    registry = CommandRegistry()
    registry.add(SlashCommand("help", "Show the commands and keys", _help))
    registry.add(
        SlashCommand("status", "Show the model, directory, context and usage, and what each part adds", _status)
    )
    registry.add(
        SlashCommand(
            "model",
            "Show the model, or switch to another one (the conversation is kept)",
            _model,
            argument="[name]",
            while_busy=False,
            suggest=_model_suggestions,
        )
    )
    registry.add(SlashCommand("clear", "Start a new conversation (the cost so far is kept)", _clear, while_busy=False))
    registry.add(SlashCommand("cost", "Show the tokens and cost so far", _cost))
    registry.add(SlashCommand("last", "Show the last tool call whole: its input and all its output (Ctrl+O)", _last))
    registry.add(SlashCommand("quit", "Leave decode", _quit, aliases=("exit",)))
    return registry
