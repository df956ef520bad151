"""The REPL: `decode` with no subcommand.

    you type ──▶ prompt_toolkit input ──▶ Harness ──▶ Turn Runner ──▶ AgentLoop.run_turn()
                      ▲                                                    │ events
           live area, footer ◀──── Renderer, SessionStatus ◀───────────────┘
                                         │
                                         └──▶ Rich, printed above the prompt

The prompt stays on screen the whole time. `Repl` holds one session's state (the input line,
the Turn Runner, the renderer, the footer's status, the conversation once it is built) and
hands the work to a module per concept:

- `dispatch.py`: what a line typed becomes (an answer, a slash command, a message for the agent);
- `prompt_loop.py`: reading prompts until the user leaves, and what leaving does;
- `screen.py`: what prompt_toolkit draws (the live area above the input line, the footer);
- `launch.py`: `run_repl()`, the REPL in a real terminal, with its start checks and signals.

Start-up is split in two so the prompt appears at once: the REPL needs only prompt_toolkit and
Rich to draw it, and the warm-up thread (`warmup.py`) imports pydantic-ai and builds the Agent
Loop while the user types.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from typing import TYPE_CHECKING

from decode.agent.failures import LoopUnavailable, describe_error
from decode.agent.options import LoopOptions
from decode.harness.queue import Message, Priority
from decode.harness.runner import TurnEnded, TurnRunner, TurnStarted
from decode.tui import dispatch, prompt_loop, screen
from decode.tui.add_dir import add_add_dir_command
from decode.tui.agents import add_agent_commands
from decode.tui.approvals import Approvals, cycle_mode
from decode.tui.asking import AgentQuestions
from decode.tui.commands import CommandRegistry, Invocation, builtin_commands
from decode.tui.footer import SessionStatus
from decode.tui.input import HISTORY_FILE, TurnKeys, build_prompt_session
from decode.tui.mcp_servers import add_mcp_commands
from decode.tui.memory_skills import add_memory_commands
from decode.tui.mentions import mention_completer
from decode.tui.permission_commands import add_permission_commands
from decode.tui.questions import QuestionLine, answer_keys
from decode.tui.render import Renderer
from decode.tui.rewind import add_rewind_commands, add_rewind_keys
from decode.tui.sessions import add_session_commands
from decode.tui.ship import add_ship_commands
from decode.tui.todos import TodoPanel
from decode.tui.turns import show_turn_event
from decode.tui.warmup import Warm

if TYPE_CHECKING:
    from collections.abc import Callable, Coroutine
    from pathlib import Path

    from prompt_toolkit.formatted_text import AnyFormattedText
    from prompt_toolkit.input import Input
    from prompt_toolkit.output import Output
    from rich.console import Console

    from decode.agent.compose import Conversation
    from decode.agent.loop import AgentLoop
    from decode.config.settings import Settings
    from decode.entities import events

logger = logging.getLogger(__name__)

__all__ = ["Repl", "describe_error", "repl_commands"]


class Repl:
    """One interactive session: the input, the Harness, the renderer and the footer's status.

    `options` are what the command line asks of the conversation (the REPL adds its callbacks);
    `settings` None means decode's settings (read by the warm-up). `input`/`output` default to the
    terminal; tests pass prompt_toolkit's pipe input, a `DummyOutput` and a Rich console that records.
    """

    def __init__(
        self,
        *,
        console: Console,
        options: LoopOptions,
        settings: Settings | None = None,
        commands: CommandRegistry | None = None,
        history_file: Path | None = None,
        input: Input | None = None,
        output: Output | None = None,
    ) -> None:
        self.workspace = workspace = options.home
        model = options.model
        self.renderer = Renderer(console)
        self.commands = commands or repl_commands()
        self.status = SessionStatus(workspace=workspace, model=model or "")
        self.settings: Settings | None = settings
        self.conversation: Conversation | None = None
        """The Agent Loop and what it was built with, once the warm-up has built it."""
        self.model_option = model
        # [lesson 06]
        # Approvals and other questions come through one Decision Channel, answered on the input line.
        self.questions = QuestionLine(self.renderer, self.invalidate)  # the Decision Channel
        self.approvals = Approvals(  # the Permission Gate's questions; an edit's diff shown as it asks
            self.questions.channel, self.renderer.notice, workspace, self.questions.attach
        )
        # [/lesson 06]
        # [lesson 13]
        self.agent_questions = AgentQuestions(self)  # ask_user and exit_plan_mode, through the same channel
        # The To-do List above the prompt: the session's own list, which todo_write changes in place.
        self.todos = TodoPanel(lambda: self.conversation.session.todos if self.conversation is not None else ())
        # [/lesson 13]
        self.turns = TurnRunner(self._agent_loop, self._on_turn_event)
        # What the REPL asks the composition root for: the front end's options and the REPL's callbacks.
        self.options = replace(
            options,
            on_retry=self._on_retry,
            on_tool_output=lambda delta: self.soon(self.renderer.event, delta),  # [lesson 05]
            approve=self.approvals.ask,  # [lesson 06]
            ask_user=self.agent_questions.ask_user,  # [lesson 13]
            review_plan=self.agent_questions.review_plan,  # [lesson 13]
            on_subagent=lambda progress: self.soon(self._on_turn_event, progress),  # [lesson 15]
            trace_name="chat_turn",  # each turn's trace, when tracing is on  # [lesson 22]
        )
        self.status.sandbox = self.options.sandbox or "none"  # until the warm-up knows (SANDBOX_MODE)  # [lesson 17]
        self.warm: Warm | None = None
        self.event_loop: asyncio.AbstractEventLoop | None = None
        self.early_notices: list[tuple[str, str]] = []
        """Warnings logged during the warm-up: shown after its outcome (`finish_warm_up`)."""
        self.background: set[asyncio.Future[None]] = set()
        """Work that outlives the command that started it; leaving gives it `LEAVE_WAIT_S`."""
        self.model_choices: list[str] = []  # offered after `/model ` (known once the warm-up is done)
        self.warming: asyncio.Future[None] | None = None  # the task that finishes the warm-up
        self.leaving = False  # set by /quit: the prompt loop ends after the current input
        self.kept = ""  # kept while no prompt runs: the next prompt starts with it
        self._turn_message: Message | None = None  # the prompt of the running turn
        self.unawaited: set[asyncio.Future[None]] = set()
        """Work nobody waits for and leaving does not wait for either (`alongside`)."""
        self.session = build_prompt_session(
            commands=self.commands,
            arguments=self._suggest,
            message=self._message,
            footer=lambda: screen.footer_line(self),
            on_interrupt=self.interrupt,
            on_show_last=self.renderer.show_last,
            on_cycle_mode=lambda: cycle_mode(self),  # [lesson 06]
            extra_keys=answer_keys(self.questions),  # y / a / n answer without Enter  # [lesson 06]
            completers=[mention_completer(self)],  # `@path`: the Workspace's files and folders  # [lesson 04]
            turn_keys=TurnKeys(
                busy=lambda: self.busy,
                abort=self.abort,
                follow_up=self.follow_up,  # [lesson 10]
            ),
            history_file=history_file or workspace / HISTORY_FILE,
            extra_commands=self.extra_commands,
            input=input,
            output=output,
        )
        add_rewind_keys(self)  # Esc Esc on an empty line: /rewind  # [lesson 11]

    # -- the session: each a module of its own ------------------------------------------------

    async def run(self) -> int:
        """Read prompts until /quit or Ctrl-D; returns the exit code (`prompt_loop.py`)."""
        return await prompt_loop.run(self)

    async def submit(self, line: str, priority: Priority = dispatch.ENTER_SENDS) -> None:
        """Handle one line from the input (`dispatch.py`)."""
        await dispatch.submit(self, line, priority)

    async def run_command(self, invocation: Invocation) -> None:
        """Run a parsed slash command (`dispatch.py`)."""
        await dispatch.run_command(self, invocation)

    def follow_up(self, line: str) -> None:  # [lesson 10]
        """Alt+Enter while a turn runs: `line` goes to the agent when the turn would end."""
        self.alongside(self.submit(line, Priority.FOLLOW_UP))  # the key handler returns at once

    def queue_prompt(self, prompt: str, *, shown: str | None = None) -> None:
        """Queue `prompt` as a turn of its own; the transcript shows `shown` instead, if given (a /command)."""
        self.turns.send(Message(prompt, Priority.TURN, shown=shown or ""))
        self.invalidate()

    def keep_in_input(self, text: str) -> None:
        """Put `text` back into the input line, ahead of anything typed since."""
        if not self.session.app.is_running:  # between two prompts: the next one would reset the line
            self.kept = "\n".join([text, *([self.kept] if self.kept else [])])
            return
        buffer = self.session.default_buffer
        buffer.text = "\n".join([text, *([buffer.text] if buffer.text else [])])
        buffer.cursor_position = len(buffer.text)

    def in_background(self, work: Coroutine[object, object, None]) -> asyncio.Future[None]:
        """Run `work` without waiting for it; leaving the REPL gives it `LEAVE_WAIT_S` to finish."""
        task = asyncio.ensure_future(work)
        self.background.add(task)
        task.add_done_callback(self.background.discard)
        return task

    def alongside(self, work: Coroutine[object, object, None]) -> None:
        """Run `work` without waiting for it, nor for it when leaving (a question may never be answered)."""
        task = asyncio.ensure_future(work)
        self.unawaited.add(task)  # referenced until done: the event loop keeps only a weak one
        task.add_done_callback(self.unawaited.discard)

    def soon(self, callback: Callable[..., object], *args: object) -> None:
        """Call `callback(*args)` on the REPL's event loop, from any thread (tools report from workers)."""
        loop = self.event_loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(callback, *args)

    def logged(self, message: str, level: str) -> None:
        """A warning decode logged (from any thread): a notice; during the warm-up, kept for its end."""
        self.soon(self._show_logged, message, level)

    def _show_logged(self, message: str, level: str) -> None:
        if self.status.phase == "starting":
            self.early_notices.append((message, level))  # `finish_warm_up` shows them, after its outcome
        else:
            self.renderer.notice(message, level)

    @property
    def busy(self) -> bool:
        """True while a turn runs."""
        return self.turns.busy

    def abort(self) -> None:
        """The stop key while a turn runs: stop it now (the Turn Runner's `TurnEnded` reports it)."""
        self.turns.abort()

    def interrupt(self) -> None:
        """Ctrl-C on an empty line with nothing running: say how to leave."""
        self.renderer.notice("to leave decode, press Ctrl-C again, Ctrl-D or type /quit")

    def request_exit(self) -> None:
        """Leave the REPL after the current input (what /quit does)."""
        self.leaving = True

    # -- what the slash commands act on -------------------------------------------------------

    @property
    def loop(self) -> AgentLoop | None:
        """The Agent Loop, once the warm-up has built it."""
        return self.conversation.loop if self.conversation is not None else None

    def clear_conversation(self) -> None:
        """Forget the conversation (what /clear does); the session's usage stays."""
        if self.loop is not None:
            self.loop.clear()
        self.status.context_tokens = 0
        self.renderer.notice("conversation cleared: the next prompt starts a new one")

    @property
    def unavailable(self) -> str:
        """Why there is no Agent Loop, when there is none (a missing key, a bad setting); the footer shows it."""
        return self.status.unavailable

    @unavailable.setter
    def unavailable(self, why: str) -> None:
        self.status.unavailable = why

    def extra_commands(self) -> list[tuple[str, str]]:
        """`/name`s the registry does not hold, with a summary each (the completer and /help show them)."""
        return [entry for more in self.commands.more_commands for entry in more(self)]

    # -- turns and the warm-up ----------------------------------------------------------------

    def _on_turn_event(self, event: events.AgentEvent | TurnStarted | TurnEnded) -> None:
        show_turn_event(self, event)
        if isinstance(event, TurnStarted):
            self._turn_message = event.message
        elif isinstance(event, TurnEnded):
            message, self._turn_message = self._turn_message, None
            if event.outcome == "failed" and self.loop is None and message is not None:
                # It waited for a warm-up that found no model: the prompt goes back, not lost.
                self.keep_in_input(message.display)

    async def _agent_loop(self) -> AgentLoop:
        """The Agent Loop a turn runs on, once the warm-up is done (the Turn Runner asks at each turn)."""
        await self.warmed_up()
        if self.loop is None:
            raise LoopUnavailable(self.unavailable)
        return self.loop

    def _on_retry(self, error: BaseException, attempt: int, delay: float) -> None:
        self.renderer.notice(f"model error ({describe_error(error)}); retry {attempt} in {delay:.1f}s", "warning")

    async def warmed_up(self) -> None:
        """Wait for the warm-up (shielded: stopping a turn must not stop the warm-up)."""
        if self.warming is not None and not self.warming.done():
            await asyncio.shield(self.warming)

    # -- what prompt_toolkit draws (`screen.py`) ----------------------------------------------

    def _message(self) -> AnyFormattedText:
        return screen.above_input(self)

    def _suggest(self, name: str) -> list[str]:
        command = self.commands.get(name)
        return command.suggest(self) if command is not None and command.suggest is not None else []

    def invalidate(self) -> None:
        """Redraw the prompt's lines (the live area, the waiting messages, the footer)."""
        self.status.queued = len(self.turns.pending())
        self.session.app.invalidate()


def repl_commands() -> CommandRegistry:
    """The REPL's slash commands: the built-in ones and those of later parts of decode."""
    registry = builtin_commands()
    add_permission_commands(registry)  # /permissions  # [lesson 06]
    add_session_commands(registry)  # /compact, /resume  # [lesson 11]
    add_rewind_commands(registry)  # /undo, /rewind  # [lesson 11]
    add_memory_commands(registry)  # /memory, /init  # [lesson 12]
    add_mcp_commands(registry)  # /mcp  # [lesson 14]
    add_agent_commands(registry)  # /agent  # [lesson 15]
    add_ship_commands(registry)  # /ship  # [lesson 17]
    add_add_dir_command(registry)  # /add-dir  # [lesson 17]
    return registry
