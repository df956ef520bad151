"""One headless run: the conversation built, the task driven as one turn, and the exit code.

    HeadlessRun.drive(task) ──▶ build_loop() ──▶ TurnRunner.run_turn(task) ──▶ TurnEnded ──▶ exit code
                                                        │ events
                                                        ▼
                                                 TurnView (stderr, stdout)

The turn goes through the Harness's Turn Runner, as a REPL turn does: the same events, the same
failure lines, the same way an aborted turn is kept. Everything this run knows (what it shows,
how it stopped, whether it is over) is held here, not in module globals.
"""

import signal
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from decode.harness.hook_turns import session_end
from decode.harness.queue import Message
from decode.harness.runner import TurnEnded, TurnRunner
from decode.logging import init_logger
from decode.runtime.exits import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK, EXIT_REQUEST_LIMIT, RunError
from decode.runtime.progress import Progress
from decode.runtime.view import TurnView

if TYPE_CHECKING:
    from decode.agent.compose import Conversation
    from decode.agent.loop import AgentLoop
    from decode.processes.signals import SignalStop
    from decode.sandbox.handback import HandBack


class HeadlessRun:
    """`decode run`'s one task, from the command line's options to the exit code."""

    def __init__(self) -> None:
        self.progress = Progress()
        self.view = TurnView(self.progress)
        self.stop: SignalStop | None = None  # [lesson 05]
        self.handed_back: HandBack | None = None  # `--repo`: what went back  # [lesson 19]

    def finish(self, code: int) -> int:
        """The run ended with `code`, which it exits with (a run for programs also prints its result)."""
        return code

    async def drive(self, task: str, options: dict[str, Any]) -> int:
        """Run `task` as one turn of a freshly built conversation; the exit code. `options` are
        `LoopOptions` fields. Raises `RunError` when the conversation cannot be built."""
        # [lesson 05]
        import asyncio

        from decode.processes.signals import end_all_on

        # SIGTERM, SIGHUP: every process the agent started ends at once, then the turn stops as
        # Ctrl-C stops it; the run exits with 128 + the signal's number.
        self.stop = end_all_on((signal.SIGTERM, signal.SIGHUP), asyncio.current_task())
        options["on_tool_output"] = self.view.echo
        # [/lesson 05]
        options["on_subagent"] = self.view.subagent  # each subagent's progress, one line per step  # [lesson 15]
        conversation = self.build(options)
        await self.start(conversation)
        task = await self.command_task(conversation, task)  # `decode run "/fix-issue 12"`  # [lesson 12]
        runner = TurnRunner(_ready(conversation.loop), self.view.event)
        # [lesson 11]
        runner.keep_failed = True  # a run that stopped early is saved, so `--resume ID` continues it
        runner.abort_note = self.stop_note
        # [/lesson 11]
        ended = await runner.run_turn(Message(task))
        await session_end(conversation.loop, "other")  # the SessionEnd hooks: the run is over  # [lesson 12]
        from decode.agent.compose import close_conversation

        await close_conversation(conversation)  # its language servers stop with the run  # [lesson 16]
        self.say_saved(conversation)  # [lesson 11]
        code = self.stopped() if ended.outcome == "aborted" else exit_code(ended)  # Ctrl-C, SIGTERM, SIGHUP
        code = await self.hand_back(conversation, code)  # `--repo`: the work goes back, stopped or not  # [lesson 19]
        return await self.end(conversation, code)

    def build(self, options: dict[str, Any]) -> "Conversation":
        """The Agent Loop of this run, from the composition root; `RunError` if it cannot be built."""
        from decode.agent.compose import build_loop
        from decode.agent.options import LoopOptions
        from decode.config.loading import ConfigError, load_settings
        from decode.context.session_log import SessionError
        from decode.models.errors import ModelConfigError
        from decode.sandbox.types import SandboxError

        try:
            settings = load_settings()
            init_logger(settings.log_level)
            # The Harness Home is the launch directory. Headless: nothing here asks the user anything.
            options.setdefault("trace_name", "decode_run")  # each turn's trace, when tracing is on  # [lesson 22]
            conversation = build_loop(LoopOptions(home=Path.cwd(), on_retry=self.retried, **options), settings)
        except (
            ConfigError,
            ModelConfigError,
            SessionError,  # [lesson 11]
            SandboxError,  # [lesson 17]
        ) as exc:
            raise RunError(str(exc)) from None
        self.say_built(conversation, options)
        return conversation

    def retried(self, error: BaseException, attempt: int, delay: float) -> None:
        """A failed model request is retried (`RetryingModel`'s `on_retry`): say so on stderr."""
        from decode.agent.failures import describe_error

        self.progress.retry(describe_error(error), attempt, delay)

    def say_built(self, conversation: "Conversation", options: dict[str, Any]) -> None:
        """What the user should know before the turn: broken settings, the mode and agent a session resumes."""
        # [lesson 06]
        from decode.permissions.settings_files import repository_grants

        gate = conversation.gate  # once per run: broken files, ignored modes, what the repository grants itself
        for problem in [*gate.problems, *repository_grants(gate.settings)]:
            self.progress(f"decode: {problem.level}: {problem}")
        # [/lesson 06]
        # [lesson 11]
        from decode.permissions.types import Mode

        if conversation.resumed_mode and gate.mode is not Mode.DEFAULT:
            self.progress(f"decode: resuming in permission mode {gate.mode}")
        # [/lesson 11]
        # [lesson 15]
        agent = conversation.agent.definition.name if conversation.agent is not None else "build"
        if options.get("resume") is not None and options.get("agent") is None and agent != "build":
            self.progress(f"decode: resuming as agent {agent}")  # the agent the session was, as its mode
        # [/lesson 15]

    async def start(self, conversation: "Conversation") -> None:
        """What must be up before the turn: the sandbox, the MCP servers; stream-json's `init`."""
        # [lesson 17]
        from decode.sandbox.backends import start_sandbox

        if (problem := await start_sandbox(conversation.loop.deps.executor)) is not None:
            raise RunError(problem)  # the sandbox is closed on the way out (`run`)
        # [/lesson 17]
        if conversation.mcp is not None:  # a server's progress on a call: a line on stderr  # [lesson 14]
            conversation.mcp.features.on_progress = self.view.mcp_progress
            await conversation.mcp.wait_for_starting()  # the first request would wait too; each failure is named

    async def command_task(self, conversation: "Conversation", task: str) -> str:  # [lesson 12]
        """A task naming a custom command (`/fix-issue 12`) becomes its prompt; others stay as they are."""
        from decode.skills.command_shell import command_task

        deps = conversation.loop.deps
        limit = conversation.settings.bash_timeout
        say = lambda line: self.progress(f"decode: {line}")  # noqa: E731
        return await command_task(task, deps.harness_home, conversation.gate, deps.executor, limit, say)

    def stopped(self) -> int:
        """The turn was stopped by Ctrl-C (130) or a signal (128 + its number)."""
        if self.stop is not None and self.stop.signum is not None:  # [lesson 05]
            self.progress(f"decode: stopped by {signal.Signals(self.stop.signum).name}")
            return 128 + self.stop.signum
        self.progress("decode: interrupted")
        return EXIT_INTERRUPTED

    async def end(self, conversation: "Conversation", code: int) -> int:
        """The answer and the result are out; then what may take a while (MCP servers stopping)."""
        code = self.finish(code)
        # [lesson 14]
        if conversation.mcp is not None:  # the answer and the result are out first: a slow server delays only the exit
            await conversation.mcp.close(leaving=True)  # a signal now still exits 128 + it (`run`)
        # [/lesson 14]
        return code

    # [lesson 11]
    def stop_note(self) -> str | None:
        """What the kept turn tells the model when a signal stopped it (None: the user's Ctrl-C)."""
        signum = self.stop.signum if self.stop is not None else None
        return f"[decode was stopped ({signal.Signals(signum).name}) before this turn finished.]" if signum else None

    def say_saved(self, conversation: "Conversation") -> None:
        """How to continue the session, when it recorded the turn (finished, or kept when it stopped)."""
        if conversation.loop.saved:
            session_id = conversation.session.session_id
            self.progress(f"decode: session {session_id} saved (continue it with --resume {session_id})")

    # [/lesson 11]
    async def hand_back(self, conversation: "Conversation", code: int) -> int:  # [lesson 19]
        """`--repo`: hand the Workspace back as a branch (`decode.sandbox.handback`) and say what was
        shipped; a push that failed turns a successful run's exit code into 1 (the branch is kept,
        and the report says where). Without a Workspace, `code` as it is."""
        from decode.sandbox.handback import Outcome, hand_back

        if conversation.workspace is None:
            return code
        result = await hand_back(
            conversation.workspace, conversation.loop.deps.executor
        )  # still open: a remote one answers
        self.handed_back = result
        lines = result.report()
        self.progress(f"decode: {lines[0]}")
        for line in lines[1:]:
            self.progress(line)
        failed = result.outcome in (Outcome.KEPT, Outcome.FAILED)
        return EXIT_FAILED if failed and code == EXIT_OK else code


def exit_code(ended: TurnEnded) -> int:
    """A finished or failed turn's exit code: 0, 3 at the request ceiling, else 1."""
    if ended.outcome == "finished":
        return EXIT_OK
    return EXIT_REQUEST_LIMIT if ended.failure is not None and ended.failure.at_ceiling else EXIT_FAILED


def _ready(loop: "AgentLoop") -> "Callable[[], Awaitable[AgentLoop]]":
    """The Turn Runner asks for the loop at each turn; a headless run's is built before the turn."""

    async def agent_loop() -> "AgentLoop":
        return loop

    return agent_loop
