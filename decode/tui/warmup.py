"""The warm-up: build the agent in a background thread while the user types their first prompt.

Importing pydantic-ai and a provider SDK takes seconds; a prompt that waits for them feels
broken. So the REPL draws its prompt with only prompt_toolkit and Rich loaded, and this thread
does the slow part at the same time: read the settings, import the agent, resolve the model,
build the Agent Loop. The first prompt the user sends waits for it, if it is not done yet.

A missing key is not fatal here: the warm-up then ends with settings but no Agent Loop, and the
error message, and `/model` can pick a model that works. `finish_warm_up()` hands the result to
the REPL: a first line names decode, the model and the directory (and points to `/help`), and
the footer turns `ready` (or says there is no model), with the notices that go with it.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import threading
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from decode.logging import init_logger

if TYPE_CHECKING:
    from decode.agent.loop import AgentLoop
    from decode.agent.options import Conversation, LoopOptions
    from decode.config.settings import Settings
    from decode.tui.app import Repl

logger = logging.getLogger(__name__)


@dataclass
class Warm:
    """What the warm-up produced: the settings, the model string, and the conversation or the error."""

    model: str
    settings: Settings | None = None
    conversation: Conversation | None = None
    error: str | None = None
    timings: dict[str, float] = field(default_factory=dict)
    """Seconds spent on each step (settings, imports, model), for the log and the benchmark."""

    @property
    def loop(self) -> AgentLoop | None:
        return self.conversation.loop if self.conversation is not None else None


def warm_up(options: LoopOptions, settings: Settings | None = None) -> Warm:
    """Do the slow start-up work: build the conversation `options` ask for; never raises (problems
    end up in `Warm.error`). `settings` None means decode's settings object."""
    from decode.config.loading import ConfigError, load_settings

    timings: dict[str, float] = {}
    started = time.perf_counter()
    try:
        settings = settings or load_settings()
    except ConfigError as exc:
        return Warm(model=options.model or "", error=str(exc))
    init_logger(settings.log_level)  # DECODE_LOG_LEVEL, as `decode run` applies it
    timings["settings"] = time.perf_counter() - started
    warm = Warm(model=options.model or settings.model, settings=settings, timings=timings)

    mark = time.perf_counter()
    import rich.markdown  # noqa: F401  (the first answer block renders without waiting for it)

    from decode.agent import compose  # pydantic-ai: the bulk of the wait

    timings["imports"] = time.perf_counter() - mark

    mark = time.perf_counter()
    try:
        warm.conversation = compose.build_loop(options, settings)
        warm.model = warm.conversation.session.model  # a resumed session's own, unless --model says  # [lesson 11]
    except start_errors() as exc:
        warm.error = str(exc)
    timings["model"] = time.perf_counter() - mark
    timings["total"] = time.perf_counter() - started
    logger.info("warm-up: %s", ", ".join(f"{step} {seconds:.2f}s" for step, seconds in timings.items()))
    return warm


def start_errors() -> tuple[type[Exception], ...]:
    """What building the conversation raises when it cannot start: shown to the user, never fatal."""
    from decode.models.errors import ModelConfigError  # an unknown provider, a missing key

    errors: tuple[type[Exception], ...] = (ModelConfigError,)
    from decode.context.session_log import SessionError  # a session to resume that cannot be read

    errors += (SessionError,)  # [lesson 11]
    from decode.sandbox.types import SandboxError  # a sandbox that cannot run here: no agent, no fall back

    errors += (SandboxError,)  # [lesson 17]
    return errors


def start_warm_up(options: LoopOptions, settings: Settings | None = None) -> concurrent.futures.Future[Warm]:
    """Run `warm_up` in a daemon thread; the future resolves when it is done."""
    future: concurrent.futures.Future[Warm] = concurrent.futures.Future()

    def run() -> None:
        if not future.set_running_or_notify_cancel():  # the REPL ended before the thread started
            return
        try:
            warm = warm_up(options, settings)
        except BaseException as exc:  # an import that fails: hand it to the REPL, not to stderr
            future.set_exception(exc)
        else:
            future.set_result(warm)

    threading.Thread(target=run, name="decode-warm-up", daemon=True).start()
    return future


async def finish_warm_up(repl: Repl, warm_up: asyncio.Future[Warm]) -> None:
    """Wait for the warm-up and give the REPL what it built (or the reason it could not)."""
    from decode.collector import resume as resume_collections
    from decode.tui.footer import short_model, short_path
    from decode.tui.todos import show_todos

    try:
        warm = await warm_up
    except Exception as exc:
        logger.debug("warm-up failed", exc_info=True)
        warm = Warm(model=repl.model_option or "", error=f"the agent could not start: {exc}")
    resume_collections()  # start-up is over: what it built is frozen, collections go on (decode/collector.py)
    repl.settings, repl.conversation, repl.warm = warm.settings, warm.conversation, warm
    repl.status.model = warm.model
    repl.renderer.welcome(short_model(warm.model), short_path(repl.workspace, repl.status.home))
    if warm.settings is not None:
        from decode.models.gateway import PROVIDERS

        repl.status.context_window = warm.settings.context_window
        repl.renderer.ring = warm.settings.bell  # DECODE_BELL=false: no bell when decode waits
        repl.model_choices = [warm.settings.model, *(f"{p}:" if p != "test" else p for p in PROVIDERS)]
    if warm.error is None:
        repl.status.phase = "ready"
        for ready in repl.commands.on_ready:  # what the parts that added commands do now
            ready(repl)
        show_todos(repl)  # a resumed session's To-do List  # [lesson 13]
    else:
        repl.status.phase = "unavailable"
        hint = "; pick another model with /model provider:name" if warm.settings is not None else ""
        repl.unavailable = warm.error + hint
        repl.renderer.error(repl.unavailable)
    show_early_notices(repl, warm)
    repl.invalidate()


def show_early_notices(repl: Repl, warm: Warm) -> None:
    """The warnings logged while warming up, as notices after its outcome, never before its error.

    When the warm-up failed, those about its model are left out: that model is not used.
    """
    notices, repl.early_notices = repl.early_notices, []
    for message, level in notices:
        if warm.error is None or not warm.model or warm.model not in message:
            repl.renderer.notice(message, level)
