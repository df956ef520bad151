"""The REPL: `decode` with no subcommand.

    you type ──▶ prompt_toolkit input ──prompt──▶ queue ──▶ turn worker ──▶ AgentLoop.run_turn()
                      ▲                                                          │ events
           live area, footer ◀──── Renderer, SessionStatus ◀──────────────────────┘
                                         │
                                         └──▶ Rich, printed above the prompt

The prompt stays on screen the whole time. A prompt the user sends goes into a queue; the turn
worker takes prompts one at a time and feeds each turn's events to the `Renderer` (the answer,
above the prompt) and to the `SessionStatus` (the footer). A prompt sent while a turn runs waits
its turn (the footer counts it); Ctrl-C on an empty line stops the running turn. Slash commands
run at once, from the input side.

Start-up is split in two so the prompt appears at once: the REPL needs only prompt_toolkit and
Rich to draw it, and the warm-up thread (`warmup.py`) imports pydantic-ai and builds the Agent
Loop while the user types.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click
from prompt_toolkit.application import get_app_or_none
from prompt_toolkit.formatted_text import ANSI, AnyFormattedText, FormattedText, to_formatted_text
from prompt_toolkit.patch_stdout import patch_stdout
from rich.console import Console

from decode.tui.approvals import Approvals, cycle_mode, start_permissions
from decode.tui.commands import CommandRegistry, Invocation, builtin_commands
from decode.tui.footer import SPINNER_FPS, SessionStatus, footer
from decode.tui.input import HISTORY_FILE, PROMPT, build_prompt_session
from decode.tui.memory_skills import add_memory_commands, note_session, run_skill
from decode.tui.render import Renderer
from decode.tui.sessions import add_session_commands, carry_session, resumed_notice, show_fill
from decode.tui.terminal import route_logging, terminal_console
from decode.tui.warmup import LoopFactory, Warm, start_warm_up

if TYPE_CHECKING:
    from prompt_toolkit.input import Input
    from prompt_toolkit.output import Output

    from decode.agent.loop import AgentLoop
    from decode.config.settings import Settings
    from decode.entities.events import ToolOutputDelta

logger = logging.getLogger(__name__)

EXIT_OK = 0
EXIT_USAGE = 2


def describe_error(error: BaseException) -> str:
    """A one-line description of a model error, without dumping a whole response body."""
    from pydantic_ai.exceptions import ModelHTTPError

    if isinstance(error, ModelHTTPError):
        return f"HTTP {error.status_code} from {error.model_name}"
    text = " ".join(str(error).split()) or type(error).__name__
    return text if len(text) <= 300 else text[:299] + "…"


class Repl:
    """One interactive session: the input, the turn worker, the renderer and the footer's status.

    `model` None means the settings' model, `settings` None decode's settings (read by the
    warm-up). `input`/`output` default to the terminal; tests pass prompt_toolkit's pipe input,
    a `DummyOutput` and a Rich console that records.
    """

    def __init__(
        self,
        *,
        console: Console,
        workspace: Path,
        model: str | None = None,
        max_requests: int | None = None,
        resume: str | None = None,
        permission_mode: str | None = None,
        settings: Settings | None = None,
        commands: CommandRegistry | None = None,
        history_file: Path | None = None,
        input: Input | None = None,
        output: Output | None = None,
    ) -> None:
        self.workspace = workspace
        self.renderer = Renderer(console)
        self.commands = commands or add_session_commands(add_memory_commands(builtin_commands()))
        self.status = SessionStatus(workspace=workspace, model=model or "")
        self.settings: Settings | None = settings
        self.loop: AgentLoop | None = None
        self._model_option = model
        self.approvals = Approvals(self.renderer, self._invalidate)  # the gate's questions (lesson 06)
        self._factory = LoopFactory(
            workspace,
            max_requests=max_requests,
            on_retry=self._on_retry,
            on_tool_output=self._on_tool_output,
            resume=resume,
            permission_mode=permission_mode,
            approve=self.approvals.ask,
        )
        self.warm: Warm | None = None
        self._event_loop: asyncio.AbstractEventLoop | None = None
        self._unavailable = ""  # why there is no Agent Loop, when there is none
        self._model_choices: list[str] = []
        self._prompts: asyncio.Queue[tuple[str, str]] = asyncio.Queue()  # (prompt, what the transcript shows)
        self._turn: asyncio.Task[None] | None = None
        self._warm: asyncio.Future[None] | None = None
        self._exit = False
        self.session = build_prompt_session(
            commands=self.commands,
            arguments=self._suggest,
            message=self._message,
            footer=self._footer,
            on_interrupt=self.interrupt,
            on_cycle_mode=lambda: cycle_mode(self),
            history_file=history_file or workspace / HISTORY_FILE,
            input=input,
            output=output,
        )

    # -- the session --------------------------------------------------------------------------

    async def run(self) -> int:
        """Read prompts until /quit or Ctrl-D; returns the exit code."""
        self._event_loop = asyncio.get_running_loop()
        warm_up = start_warm_up(self._model_option, self._factory, self.settings)
        self._warm = asyncio.ensure_future(self._finish_warm_up(asyncio.wrap_future(warm_up)))
        background = [asyncio.create_task(self._work()), asyncio.create_task(self._tick())]
        try:
            while not self._exit:
                try:
                    line = await self.session.prompt_async()
                except EOFError:
                    break
                await self.submit(line)
            await note_session(self)  # one line about this session in .decode/MEMORY.md (lesson 09)
        finally:
            for task in [*background, self._turn, self._warm]:
                if task is not None:
                    task.cancel()
            await asyncio.gather(*background, return_exceptions=True)
        return EXIT_OK

    async def submit(self, line: str) -> None:
        """Handle one line from the input: a slash command runs now, a prompt joins the queue."""
        if self.approvals.answer(line):  # a tool call is waiting for the user's yes / no / always
            return
        text = line.strip()
        if not text:
            return
        invocation = self.commands.parse(text)
        if invocation is not None:
            await self.run_command(invocation)
            return
        self.queue_prompt(text)

    def queue_prompt(self, prompt: str, *, shown: str | None = None) -> None:
        """Queue `prompt` for the agent; the transcript shows `shown` instead, if given (a /command)."""
        self._prompts.put_nowait((prompt, shown or prompt))
        self.status.queued = self._prompts.qsize() if self.busy else 0

    async def run_command(self, invocation: Invocation) -> None:
        command = invocation.command
        if command is None:
            if await run_skill(self, invocation.name, invocation.argument):  # `/name [text]` runs a skill
                return
            closest = self.commands.closest(invocation.name)
            hint = f"did you mean /{closest}?" if closest else "/help lists the commands"
            self.renderer.error(f"unknown command /{invocation.name}: {hint}")
            return
        if self.busy and not command.while_busy:
            self.renderer.error(f"/{command.name} waits until the turn is over (Ctrl-C stops it)")
            return
        try:
            await command.handler(self, invocation.argument)
        except Exception as exc:
            logger.debug("/%s failed", command.name, exc_info=True)
            self.renderer.error(f"/{command.name} failed: {exc}")

    @property
    def busy(self) -> bool:
        """True while a turn runs."""
        return self._turn is not None and not self._turn.done()

    def interrupt(self) -> None:
        """Ctrl-C on an empty line: stop the running turn and drop the queued prompts."""
        if not self.busy:
            self.renderer.notice("to leave decode, press Ctrl-D or type /quit")
            return
        while not self._prompts.empty():
            self._prompts.get_nowait()
        self.status.queued = 0
        assert self._turn is not None
        self._turn.cancel()

    def request_exit(self) -> None:
        """Leave the REPL after the current input (what /quit does)."""
        self._exit = True

    # -- what the slash commands act on -------------------------------------------------------

    async def switch_model(self, model: str) -> None:
        """Use `model` from the next turn on; the conversation and its cost carry over."""
        await self.warmed_up()
        if self.settings is None:
            self.renderer.error(self._unavailable)
            return
        from decode.models.errors import ModelConfigError

        try:
            # Resolving may import a provider SDK (a second or more): keep the prompt responsive.
            loop = await asyncio.to_thread(self._factory.build, model, self.settings)
        except ModelConfigError as exc:
            self.renderer.error(str(exc))
            return
        if self.loop is not None:
            loop.history, loop.usage = self.loop.history, self.loop.usage
            loop.deps.permissions = self.loop.deps.permissions  # the mode and "always" rules carry over
        carry_session(self.loop, loop, self.warm, model)  # the same saved session, now with `model`
        self.loop = loop
        self.status.model = model
        self.status.phase = "ready"
        show_fill(self)
        self.renderer.notice(f"model: {model}")

    def clear_conversation(self) -> None:
        """Forget the conversation (what /clear does); the session's usage stays."""
        if self.loop is not None:
            self.loop.clear()
        self.status.context_tokens = 0
        self.renderer.notice("conversation cleared: the next prompt starts a new one")

    def model_suggestions(self) -> list[str]:
        """Model strings to offer after `/model ` (known once the warm-up is done)."""
        return self._model_choices

    # -- turns --------------------------------------------------------------------------------

    async def _work(self) -> None:
        """The turn worker: run the queued prompts one after the other."""
        while True:
            prompt, shown = await self._prompts.get()
            self.status.queued = self._prompts.qsize()
            self._turn = asyncio.create_task(self._run_turn(prompt, shown))
            await asyncio.wait([self._turn])

    async def _run_turn(self, prompt: str, shown: str | None = None) -> None:
        self.renderer.user(shown or prompt)
        await self.warmed_up()
        if self.loop is None:
            self.renderer.error(self._unavailable)
            return
        from pydantic_ai.exceptions import ModelAPIError, UnexpectedModelBehavior, UsageLimitExceeded

        from decode.models.script import ScriptExhaustedError

        self.status.start_turn()
        interrupted = False
        try:
            async for event in self.loop.run_turn(prompt):
                self.renderer.event(event)
                if event.kind == "usage":
                    self.status.record_usage(
                        requests=event.total.requests,
                        input_tokens=event.total.input_tokens,
                        output_tokens=event.total.output_tokens,
                        cost_usd=event.total.cost_usd,
                        context_tokens=event.request.total_tokens,
                    )
        except asyncio.CancelledError:
            # Ctrl-C (or leaving): the loop keeps its history as it was before this prompt.
            interrupted = True
        except UsageLimitExceeded:
            self.renderer.error(
                f"stopped at the request ceiling ({self.loop.max_requests} per turn; raise it with --max-requests)"
            )
        except ModelAPIError as exc:
            self.renderer.error(f"model request failed: {describe_error(exc)}")
        except UnexpectedModelBehavior as exc:
            self.renderer.error(f"the model's response could not be used: {describe_error(exc)}")
        except ScriptExhaustedError as exc:
            self.renderer.error(str(exc))
        except Exception as exc:  # a bug must not take the session (and its history) down with it
            logger.debug("turn failed", exc_info=True)
            self.renderer.error(f"the turn failed: {type(exc).__name__}: {describe_error(exc)}")
        finally:
            self.renderer.end_turn(interrupted=interrupted)
            self.status.end_turn()
            show_fill(self)
            self._invalidate()

    def _on_tool_output(self, delta: ToolOutputDelta) -> None:
        # Tools may report from a worker thread; the Renderer belongs to the event loop.
        if self._event_loop is not None:
            self._event_loop.call_soon_threadsafe(self.renderer.event, delta)

    def _on_retry(self, error: BaseException, attempt: int, delay: float) -> None:
        self.renderer.notice(f"model error ({describe_error(error)}); retry {attempt} in {delay:.1f}s", "warning")

    # -- warm-up ------------------------------------------------------------------------------

    async def _finish_warm_up(self, warm_up: asyncio.Future[Warm]) -> None:
        try:
            warm = await warm_up
        except Exception as exc:
            logger.debug("warm-up failed", exc_info=True)
            warm = Warm(model=self._model_option or "", error=f"the agent could not start: {exc}")
        self.settings, self.loop, self.warm = warm.settings, warm.loop, warm
        self.status.model = warm.model
        if warm.settings is not None:
            from decode.models.gateway import PROVIDERS

            self.status.context_window = warm.settings.context_window
            self._model_choices = [warm.settings.model, *(f"{p}:" if p != "test" else p for p in PROVIDERS)]
        if warm.error is None:
            self.status.phase = "ready"
            show_fill(self)
            if self._factory.resume is not None:
                self.renderer.notice(resumed_notice(warm))
            start_permissions(self, explicit_mode=self._factory.permission_mode is not None)
        else:
            self.status.phase = "unavailable"
            hint = "; pick another model with /model provider:name" if warm.settings is not None else ""
            self._unavailable = warm.error + hint
            self.renderer.error(self._unavailable)
        self._invalidate()

    async def warmed_up(self) -> None:
        """Wait for the warm-up (shielded: stopping a turn must not stop the warm-up)."""
        if self._warm is not None and not self._warm.done():
            await asyncio.shield(self._warm)

    # -- what prompt_toolkit draws ------------------------------------------------------------

    def _message(self) -> AnyFormattedText:
        """The live area (what is still streaming) above the `❯` of the input line."""
        prompt = FormattedText([("class:prompt", PROMPT)])
        if self.approvals.pending:  # the question the next line answers
            prompt = FormattedText([("class:approval", self.approvals.question), ("", "\n"), *prompt])
        app = get_app_or_none()
        live = self.renderer.live() if app is None or not app.is_done else ""
        if not live:
            return prompt
        return FormattedText([*to_formatted_text(ANSI(live)), ("", "\n"), *prompt])

    def _footer(self) -> AnyFormattedText:
        return footer(self.status, width=self.session.app.output.get_size().columns)

    def _suggest(self, name: str) -> list[str]:
        command = self.commands.get(name)
        return command.suggest(self) if command is not None and command.suggest is not None else []

    async def _tick(self) -> None:
        """Redraw while something moves (the spinner, the live area)."""
        while True:
            await asyncio.sleep(1 / SPINNER_FPS)
            if self.status.phase in ("starting", "busy"):
                self._invalidate()

    def _invalidate(self) -> None:
        self.session.app.invalidate()


def run_repl(
    *,
    model: str | None = None,
    max_requests: int | None = None,
    resume: str | None = None,
    permission_mode: str | None = None,
) -> int:
    """Run the REPL in this terminal (what `decode` does); returns the exit code."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        click.echo('decode: error: the REPL needs a terminal; without one, use decode run "TASK"', err=True)
        return EXIT_USAGE
    console = terminal_console(sys.stdout)

    async def main() -> int:
        # Inside the event loop: patch_stdout schedules its writes on the loop that is running.
        with patch_stdout(raw=True), route_logging(sys.stderr):
            repl = Repl(
                console=console,
                workspace=Path.cwd(),
                model=model,
                max_requests=max_requests,
                resume=resume,
                permission_mode=permission_mode,
            )
            return await repl.run()

    try:
        return asyncio.run(main())
    except KeyboardInterrupt:
        return 130
