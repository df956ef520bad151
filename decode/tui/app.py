# [lesson 07]
"""The REPL: `decode` with no subcommand.

    you type ──▶ prompt_toolkit input ──▶ Harness: Priority Gate ──▶ Turn Runner ──▶ AgentLoop.run_turn()
                      ▲                                                                   │ events
           live area, footer ◀──── Renderer, SessionStatus ◀─────────────────────────────┘
                                         │
                                         └──▶ Rich, printed above the prompt

The prompt stays on screen the whole time. What the user sends goes to the Harness: with nothing
running it starts a turn; while a turn runs, Enter steers it (the model gets the message before
its next request) and Alt+Enter queues a follow-up (when the turn would end). The Turn Runner
feeds each turn's events to the `Renderer` (the answer, above the prompt) and to the
`SessionStatus` (the footer). Esc or Ctrl-C stops the turn. Slash commands run at once.

Start-up is split in two so the prompt appears at once: the REPL needs only prompt_toolkit and
Rich to draw it, and the warm-up thread (`warmup.py`) imports pydantic-ai and builds the Agent
Loop while the user types.
"""
# [before lesson 07]
# """The REPL: `decode` with no subcommand.
#
#     you type ──▶ prompt_toolkit input ──▶ Harness: TurnQueue ──────▶ Turn Runner ──▶ AgentLoop.run_turn()
#                       ▲                                                                   │ events
#            live area, footer ◀──── Renderer, SessionStatus ◀─────────────────────────────┘
#                                          │
#                                          └──▶ Rich, printed above the prompt
#
# The prompt stays on screen the whole time. What the user sends goes to the Harness: with nothing
# running it starts a turn; while a turn runs, it waits for a turn of its own. The Turn Runner
# feeds each turn's events to the `Renderer` (the answer, above the prompt) and to the
# `SessionStatus` (the footer). Ctrl-C stops the turn. Slash commands run at once.
#
# Start-up is split in two so the prompt appears at once: the REPL needs only prompt_toolkit and
# Rich to draw it, and the warm-up thread (`warmup.py`) imports pydantic-ai and builds the Agent
# Loop while the user types.
# """
# [/lesson 07]

from __future__ import annotations

import asyncio
import logging
import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import click
from prompt_toolkit.application import get_app_or_none
from prompt_toolkit.formatted_text import ANSI, AnyFormattedText, FormattedText, to_formatted_text
from prompt_toolkit.patch_stdout import patch_stdout
from rich.console import Console

from decode.agent.options import LoopOptions
from decode.harness.failures import LoopUnavailable, describe_error
from decode.harness.queue import Message, Priority
from decode.harness.runner import TurnEnded, TurnRunner, TurnStarted
from decode.tui.agents import add_agent_commands, check_agent  # [lesson 12]
from decode.tui.approvals import Approvals, cycle_mode  # [lesson 06]
from decode.tui.asking import AgentQuestions  # [lesson 10]
from decode.tui.commands import CommandRegistry, Invocation, builtin_commands
from decode.tui.footer import SPINNER_FPS, SessionStatus, footer
from decode.tui.hangup import ending_on_hang_up
from decode.tui.input import HISTORY_FILE, PROMPT, TurnKeys, build_prompt_session
from decode.tui.mcp_servers import add_mcp_commands  # [lesson 11]
from decode.tui.memory_skills import add_memory_commands, note_session, run_skill, skill_commands  # [lesson 09]
from decode.tui.permission_commands import add_permission_commands  # [lesson 06]
from decode.tui.questions import QuestionLine, answer_keys  # [lesson 06]
from decode.tui.render import Renderer
from decode.tui.sessions import add_session_commands, check_resume, show_resume_line  # [lesson 08]
from decode.tui.ship import add_ship_commands, check_repo, ship  # [lesson 14]
from decode.tui.terminal import notices_from_log, route_logging, terminal_console
from decode.tui.todos import TodoPanel  # [lesson 10]
from decode.tui.turns import pending_lines, show_turn_event
from decode.tui.warmup import Warm, finish_warm_up, start_warm_up

if TYPE_CHECKING:
    from collections.abc import Coroutine

    from prompt_toolkit.input import Input
    from prompt_toolkit.output import Output

    from decode.agent.loop import AgentLoop
    from decode.agent.options import Conversation
    from decode.config.settings import Settings
    from decode.entities import events
    from decode.entities.events import ToolOutputDelta  # [lesson 05]

logger = logging.getLogger(__name__)

EXIT_OK = 0
# [lesson 07]
ENTER_SENDS = Priority.STEER
"""What Enter sends while a turn runs: a steer (Alt+Enter sends a follow-up)."""
# [before lesson 07]
# ENTER_SENDS = Priority.TURN
# """What Enter sends while a turn runs: a prompt that waits for its own turn."""
# [/lesson 07]
EXIT_USAGE = 2
LEAVE_WAIT_S = 15.0
"""The longest the REPL waits, when leaving, for work left in the background (a session note)."""
__all__ = ["Repl", "describe_error", "run_repl"]


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
        self.status.sandbox = options.sandbox or "none"  # until the warm-up knows (SANDBOX_MODE)  # [lesson 14]
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
        # [lesson 10]
        self.agent_questions = AgentQuestions(self)  # ask_user and exit_plan_mode, through the same channel
        # The To-do List above the prompt: the session's own list, which todo_write changes in place.
        self.todos = TodoPanel(lambda: self.conversation.session.todos if self.conversation is not None else ())
        # [/lesson 10]
        self.turns = TurnRunner(self._agent_loop, self._on_turn_event)
        self.options = replace(  # what the command line asks, and the REPL's callbacks
            options,
            on_retry=self._on_retry,
            on_tool_output=self._on_tool_output,  # [lesson 05]
            approve=self.approvals.ask,  # [lesson 06]
            on_subagent=self._on_subagent,  # [lesson 12]
            # [lesson 10]
            ask_user=self.agent_questions.ask_user,
            review_plan=self.agent_questions.review_plan,
            # [/lesson 10]
            trace_name="chat_turn",  # each turn's trace, when tracing is on  # [lesson 16]
        )
        self.warm: Warm | None = None
        self._event_loop: asyncio.AbstractEventLoop | None = None
        self.early_notices: list[tuple[str, str]] = []
        """Warnings logged during the warm-up: shown after its outcome (`finish_warm_up`)."""
        self.background: set[asyncio.Future[None]] = set()
        """Work that outlives the command that started it; leaving gives it `LEAVE_WAIT_S`."""
        self._turn_message: Message | None = None  # the prompt of the running turn
        self.model_choices: list[str] = []  # offered after `/model ` (known once the warm-up is done)
        self._warming: asyncio.Future[None] | None = None  # the task that finishes the warm-up
        self._exit = False
        self._kept = ""  # kept while no prompt runs: the next prompt starts with it
        self._follow_ups: set[asyncio.Future[None]] = set()
        self.session = build_prompt_session(
            commands=self.commands,
            arguments=self._suggest,
            message=self._message,
            footer=self._footer,
            on_interrupt=self.interrupt,
            on_show_last=self.renderer.show_last,
            on_cycle_mode=lambda: cycle_mode(self),  # [lesson 06]
            extra_keys=answer_keys(self.questions),  # y / a / n answer without Enter  # [lesson 06]
            # [lesson 07]
            turn_keys=TurnKeys(busy=lambda: self.busy, abort=self.abort, follow_up=self.follow_up),
            # [before lesson 07]
            # turn_keys=TurnKeys(busy=lambda: self.busy, abort=self.abort),
            # [/lesson 07]
            history_file=history_file or workspace / HISTORY_FILE,
            extra_commands=self.extra_commands,
            input=input,
            output=output,
        )

    # -- the session --------------------------------------------------------------------------

    async def run(self) -> int:
        """Read prompts until /quit or Ctrl-D; returns the exit code."""
        self._event_loop = asyncio.get_running_loop()
        stop_notices = notices_from_log(self.logged)  # a warning: a notice, not a raw log line
        warm_up = start_warm_up(self.options, self.settings)
        self._warming = asyncio.ensure_future(finish_warm_up(self, asyncio.wrap_future(warm_up)))
        background = [asyncio.create_task(self.turns.work()), asyncio.create_task(self._tick())]
        try:
            while not self._exit:
                try:
                    line = await self.session.prompt_async(default=self._take_kept(), set_exception_handler=False)
                except EOFError:
                    break
                await self.submit(line)
            await self.turns.stop()  # a running turn is aborted first
            await ship(self)  # `--repo`: the work goes back as a branch before decode leaves  # [lesson 14]
            show_resume_line(self)  # the session's id, and how to continue it  # [lesson 08]
            note_session(self)  # if notes are on: one line about this session in .decode/MEMORY.md  # [lesson 09]
            if self.background:  # never longer than LEAVE_WAIT_S; Ctrl-C skips it
                await asyncio.wait(self.background, timeout=LEAVE_WAIT_S)
        finally:
            stop_notices()
            await self.turns.stop()  # a hang-up or a signal too: the turn is aborted and kept before anything else
            for task in [*background, self._warming]:
                if task is not None:
                    task.cancel()
            await asyncio.gather(*background, return_exceptions=True)
            # [lesson 13]
            if self.conversation is not None:  # its language servers stop with the REPL
                from decode.agent.compose import close_conversation

                await close_conversation(self.conversation)
            # [/lesson 13]
        return EXIT_OK

    async def submit(self, line: str, priority: Priority = ENTER_SENDS) -> None:
        """Handle one line from the input: an answer, a slash command (runs now), or a message for the agent.

        A message starts a turn when nothing runs; while a turn runs, `priority` says what it is
        for that turn (Enter sends `ENTER_SENDS`).
        """
        # [lesson 06]
        if self.questions.answer(line):  # a question is open: this line is its answer
            return
        # [/lesson 06]
        text = line.strip()
        if not text:
            return
        invocation = self.commands.parse(text)
        if invocation is not None:
            self.renderer.command(text)  # echoed like a prompt
            await self.run_command(invocation)
            return
        if self.status.phase == "unavailable" and not self.busy:  # no model: the prompt would be lost
            self.keep_in_input(line)
            self.renderer.error(f"not sent (kept in the input line): {self.unavailable}")
            return
        self.turns.send(Message(text, priority))
        self.invalidate()

    def logged(self, message: str, level: str) -> None:
        """A warning decode logged (from any thread): a notice; during the warm-up, kept for its end."""
        loop = self._event_loop
        if loop is None or loop.is_closed():
            return
        loop.call_soon_threadsafe(self._show_logged, message, level)

    def _show_logged(self, message: str, level: str) -> None:
        if self.status.phase == "starting":
            self.early_notices.append((message, level))  # `finish_warm_up` shows them, after its outcome
        else:
            self.renderer.notice(message, level)

    def keep_in_input(self, text: str) -> None:
        """Put `text` back into the input line, ahead of anything typed since."""
        if not self.session.app.is_running:  # between two prompts: the next one would reset the line
            self._kept = "\n".join([text, *([self._kept] if self._kept else [])])
            return
        buffer = self.session.default_buffer
        buffer.text = "\n".join([text, *([buffer.text] if buffer.text else [])])
        buffer.cursor_position = len(buffer.text)

    def _take_kept(self) -> str:
        kept, self._kept = self._kept, ""
        return kept

    def in_background(self, work: Coroutine[object, object, None]) -> asyncio.Future[None]:
        """Run `work` without waiting for it; leaving the REPL gives it `LEAVE_WAIT_S` to finish."""
        task = asyncio.ensure_future(work)
        self.background.add(task)
        task.add_done_callback(self.background.discard)
        return task

    # [lesson 07]
    def follow_up(self, line: str) -> None:
        """Alt+Enter while a turn runs: `line` goes to the agent when the turn would end."""
        task = asyncio.ensure_future(self.submit(line, Priority.FOLLOW_UP))
        self._follow_ups.add(task)  # a slash command may still be running when the key handler returns
        task.add_done_callback(self._follow_ups.discard)

    # [/lesson 07]
    def queue_prompt(self, prompt: str, *, shown: str | None = None) -> None:
        """Queue `prompt` as a turn of its own; the transcript shows `shown` instead, if given (a /command)."""
        self.turns.send(Message(prompt, Priority.TURN, shown=shown or ""))
        self.invalidate()

    async def run_command(self, invocation: Invocation) -> None:
        command = invocation.command
        if command is None:
            # [lesson 09]
            if await run_skill(self, invocation.name, invocation.argument):  # `/name [text]` runs a skill
                return
            # [/lesson 09]
            closest = self.commands.closest(invocation.name)
            hint = f"did you mean /{closest}?" if closest else "/help lists the commands"
            self.renderer.error(f"unknown command /{invocation.name}: {hint}")
            return
        if self.busy and not command.while_busy:
            # [lesson 07]
            self.renderer.error(f"/{command.name} waits until the turn is over (Esc stops it)")
            # [before lesson 07]
            # self.renderer.error(f"/{command.name} waits until the turn is over (Ctrl-C stops it)")
            # [/lesson 07]
            return
        try:
            await command.handler(self, invocation.argument)
        except Exception as exc:
            logger.debug("/%s failed", command.name, exc_info=True)
            self.renderer.error(f"/{command.name} failed: {exc}")

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
        self._exit = True

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

    # -- turns ------------------------------------------------------------------------------

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

    # [lesson 05]
    def _on_tool_output(self, delta: ToolOutputDelta) -> None:
        # Tools may report from a worker thread; the Renderer belongs to the event loop.
        if self._event_loop is not None:
            self._event_loop.call_soon_threadsafe(self.renderer.event, delta)

    # [/lesson 05]
    # [lesson 12]
    def _on_subagent(self, progress: events.SubagentProgress) -> None:
        # A subagent's progress: the live line under the `agent` call that runs it.
        if self._event_loop is not None:
            self._event_loop.call_soon_threadsafe(self._on_turn_event, progress)

    # [/lesson 12]
    def _on_retry(self, error: BaseException, attempt: int, delay: float) -> None:
        self.renderer.notice(f"model error ({describe_error(error)}); retry {attempt} in {delay:.1f}s", "warning")

    # -- warm-up ------------------------------------------------------------------------------

    async def warmed_up(self) -> None:
        """Wait for the warm-up (shielded: stopping a turn must not stop the warm-up)."""
        if self._warming is not None and not self._warming.done():
            await asyncio.shield(self._warming)

    # -- what prompt_toolkit draws ------------------------------------------------------------

    def _message(self) -> AnyFormattedText:
        """The live area (what is still streaming) above the `❯` of the input line."""
        prompt = FormattedText([*pending_lines(self.turns.pending()), ("class:prompt", PROMPT)])
        # [lesson 06]
        if question := self.questions.lines(self.session.app.output.get_size().columns):  # what the next line answers
            prompt = FormattedText([("class:approval", question), ("", "\n"), *prompt])
        # [/lesson 06]
        # [lesson 10]
        if todos := self.todos.lines(self.session.app.output.get_size().columns):  # the checklist, in place
            prompt = FormattedText([("class:todos", todos), ("", "\n"), *prompt])
        # [/lesson 10]
        app = get_app_or_none()
        live = self.renderer.live() if app is None or not app.is_done else ""
        if not live:
            return prompt
        return FormattedText([*to_formatted_text(ANSI(live)), ("", "\n"), *prompt])

    def _footer(self) -> AnyFormattedText:
        return FormattedText(footer(self.status, width=self.session.app.output.get_size().columns))

    def extra_commands(self) -> list[tuple[str, str]]:
        """`/name`s the registry does not hold, with a summary each (the completer and /help show them)."""
        # [lesson 09]
        return skill_commands(self)
        # [before lesson 09]
        # return []
        # [/lesson 09]

    def _suggest(self, name: str) -> list[str]:
        command = self.commands.get(name)
        return command.suggest(self) if command is not None and command.suggest is not None else []

    async def _tick(self) -> None:
        """Redraw while something moves (the spinner, the live area)."""
        while True:
            await asyncio.sleep(1 / SPINNER_FPS)
            if self.status.phase in ("starting", "busy"):
                self.invalidate()

    def invalidate(self) -> None:
        """Redraw the prompt's lines (the live area, the waiting messages, the footer)."""
        self.status.queued = len(self.turns.pending())
        self.session.app.invalidate()


def repl_commands() -> CommandRegistry:
    """The REPL's slash commands: the built-in ones and those of later parts of decode."""
    registry = builtin_commands()
    add_permission_commands(registry)  # /permissions  # [lesson 06]
    add_session_commands(registry)  # /compact, /resume  # [lesson 08]
    add_memory_commands(registry)  # /memory, /init  # [lesson 09]
    add_mcp_commands(registry)  # /mcp  # [lesson 11]
    add_agent_commands(registry)  # /agent  # [lesson 12]
    add_ship_commands(registry)  # /ship  # [lesson 14]
    return registry


def run_repl(options: LoopOptions) -> int:
    """Run the REPL in this terminal (what `decode` does) on what the command line asks; returns the exit code."""
    # [lesson 12]
    if isinstance(options.agent, str) and (problem := check_agent(Path.cwd(), options.agent)):
        click.echo(f"decode: error: {problem}", err=True)
        return EXIT_USAGE
    # [/lesson 12]
    # [lesson 14]
    sandbox = options.sandbox
    if sandbox not in (None, "none"):  # refused now, not after the prompt is drawn; never unsandboxed
        from decode.sandbox.backends import check_sandbox

        if problem := check_sandbox(sandbox, Path.cwd()):
            click.echo(f"decode: error: {problem}", err=True)
            return EXIT_USAGE
    if options.repo is not None and (problem := check_repo(Path.cwd(), options.repo)):  # no such directory: refused now
        click.echo(f"decode: error: {problem}", err=True)
        return EXIT_USAGE
    # [/lesson 14]
    # [lesson 08]
    if options.resume is not None and (problem := check_resume(Path.cwd(), options.resume)):
        click.echo(f"decode: error: {problem}", err=True)
        return EXIT_USAGE
    # [/lesson 08]
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        click.echo('decode: error: the REPL needs a terminal; without one, use decode run "TASK"', err=True)
        return EXIT_USAGE
    console = terminal_console(sys.stdout)

    async def main() -> int:
        # [lesson 05]
        import signal

        from decode.processes.signals import end_all, end_all_on

        # SIGTERM, a hang-up: the agent's programs end at once; the REPL leaves with 128 + the signal.
        stop = end_all_on((signal.SIGTERM,), asyncio.current_task())
        # [/lesson 05]
        # Inside the event loop: patch_stdout schedules its writes on the loop that is running.
        with patch_stdout(raw=True), route_logging(sys.stderr):
            repl = Repl(console=console, options=options)
            with ending_on_hang_up(asyncio.current_task(), repl.session.input) as hang_up:  # the terminal gone
                hang_up.before.append(end_all)  # [lesson 05]
                try:
                    return await repl.run()
                except asyncio.CancelledError:
                    signum = hang_up.signum
                    signum = stop.signum or signum  # SIGTERM  # [lesson 05]
                    if signum is None:
                        raise
                    if (task := asyncio.current_task()) is not None:
                        task.uncancel()  # the cancellation was the signal's: this task lives on to close the turn
                    await repl.turns.stop()  # the running turn is aborted, and what it did is kept
                    return 128 + signum
                # [lesson 14]
                finally:
                    from decode.sandbox.backends import close_sandboxes

                    await close_sandboxes()  # what still runs in the sandbox stops; its container goes
                # [/lesson 14]

    try:
        return asyncio.run(main())
    except KeyboardInterrupt:
        return 130
