"""Replay a recorded session through Kitaru.

`decode replay SESSION`: a Baseline Replay of a recorded session, or a what-if (decode/recording/replay.py).
"""

import asyncio
import json
import sys
from pathlib import Path

import click

EXIT_FAILED, EXIT_USAGE = 1, 2


@click.command()
@click.argument("session")
@click.option("--model", help="What if: replay on this model instead of the session's (e.g. script:other.json).")
@click.option("--prompt", help="What if: replay with this prompt instead of the recorded one.")
@click.option(
    "--live-tools", is_flag=True, help="Run the tools again instead of answering with their recorded results."
)
@click.option("--no-wait", is_flag=True, help="Print the replay's id and return; do not wait for a Worker to run it.")
@click.option("--timeout", type=float, default=300.0, show_default=True, help="Seconds to wait for the replay.")
def replay(
    session: str, model: str | None, prompt: str | None, live_tools: bool, no_wait: bool, timeout: float
) -> None:
    """Replay decode session SESSION (its newest recorded turn) through Kitaru.

    With no option it is a Baseline Replay: the same input and model, each tool call answered with
    the result the session recorded. --model or --prompt make it a what-if. A Kitaru Worker runs
    it (`make kitaru-local` starts one); the replay is recorded as a new session. Prints one JSON
    line: replay id, status, baseline and result session ids, the result's output.

    Exit codes: 0 the replay completed, 1 it failed or timed out, 2 bad input or no recording.
    """
    from decode.config.loading import ConfigError, load_settings
    from decode.recording.replay import ReplayError, start_replay, wait_replay

    try:
        settings = load_settings()
    except ConfigError as exc:
        click.echo(f"decode: error: {exc}", err=True)
        sys.exit(EXIT_USAGE)

    async def go() -> int:
        try:
            replay_id = await start_replay(
                settings, Path.cwd(), session, model=model, prompt=prompt, live_tools=live_tools
            )
        except ReplayError as exc:
            click.echo(f"decode: error: {exc}", err=True)
            return EXIT_USAGE
        if no_wait:
            click.echo(json.dumps({"replay_id": str(replay_id), "status": "pending"}))
            return 0
        try:
            outcome = await wait_replay(settings, replay_id, seconds=timeout)
        except ReplayError as exc:
            click.echo(f"decode: error: {exc}", err=True)
            return EXIT_FAILED
        fields = {
            "replay_id": str(outcome.replay_id),
            "status": outcome.status,
            "baseline_session_id": str(outcome.baseline_id),
            "result_session_id": str(outcome.result_session_id) if outcome.result_session_id else None,
            "output": outcome.output,
            "error": outcome.error,
        }
        click.echo(json.dumps(fields))
        return 0 if outcome.status == "completed" else EXIT_FAILED

    sys.exit(asyncio.run(go()))
