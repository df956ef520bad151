"""Run hooks: each a shell command with the event's JSON on stdin, all of an event's at once.

A hook runs as decode's commands run (`decode.processes.run.run_process`): in its own process
group, tracked, and past its `timeout` killed with everything it started. Its environment is the
commands' (`inherited_environment`: none of decode's keys nor the user's other credentials,
unless `DECODE_PASS_ENV` names them) plus `CLAUDE_PROJECT_DIR`, the project's folder, so a
script written for Claude Code finds its files. Hooks run on this machine, in the project's folder.
"""

import asyncio
import json
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from decode.entities.executor import ExecRequest
from decode.hooks.config import HookCommand
from decode.processes.run import run_process

logger = logging.getLogger(__name__)

OUTPUT_CAP = 64 * 1024
"""Bytes kept of each of a hook's stdout and stderr (the rest is dropped, and the text says so)."""
SHELL = ("/bin/sh", "-c")


@dataclass(frozen=True)
class HookRun:
    """How one hook ended: its exit code (None: killed at its timeout), stdout and stderr as text."""

    hook: HookCommand
    exit_code: int | None
    stdout: str
    stderr: str

    @property
    def timed_out(self) -> bool:
        return self.exit_code is None


class _Capped:
    def __init__(self) -> None:
        self.data = bytearray()
        self.dropped = 0

    def __call__(self, chunk: bytes) -> None:
        room = OUTPUT_CAP - len(self.data)
        self.data += chunk[:room]
        self.dropped += max(len(chunk) - room, 0)

    def text(self) -> str:
        text = self.data.decode("utf-8", errors="replace")
        return f"{text}\n[{self.dropped} more bytes dropped]" if self.dropped else text


def hook_input(payload: Mapping[str, Any]) -> bytes:
    """`payload` as the JSON a hook reads: UTF-8, or all ASCII when a file name that is not UTF-8
    left a lone surrogate in it (`\\udcff`, still valid JSON); an image or other value JSON has no
    word for is named, never sent."""
    text = json.dumps(payload, ensure_ascii=False, default=_named)
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(payload, default=_named).encode("ascii")


def _named(value: object) -> str:
    """What JSON cannot spell: bytes and images by their size (`[image/png, 8 bytes]`), the rest as text."""
    data, media = getattr(value, "data", value), getattr(value, "media_type", None)
    if not isinstance(data, bytes | bytearray):
        return str(value)
    return f"[{media}, {len(data)} bytes]" if isinstance(media, str) else f"[{len(data)} bytes]"


async def run_hook(hook: HookCommand, payload: Mapping[str, Any], cwd: Path, env: Mapping[str, str]) -> HookRun:
    """Run one hook with `payload` as JSON on stdin; a program that cannot start exits 127, as in a shell."""
    out, err = _Capped(), _Capped()
    request = ExecRequest(
        [*SHELL, hook.command],
        timeout=hook.timeout_s,
        on_stdout=out,
        on_stderr=err,
        cwd=cwd,
        env={**env, "CLAUDE_PROJECT_DIR": str(cwd)},
        stdin=hook_input(payload),
    )
    try:
        result = await run_process(request)
    except OSError as exc:  # the folder is gone, no /bin/sh: the hook could not run
        return HookRun(hook, 127, "", f"could not run the hook: {exc}")
    if result.timed_out:
        logger.warning("hook %r ran past its %.0fs and was stopped", hook.command, hook.timeout_s)
    return HookRun(hook, result.exit_code, out.text(), err.text())


async def run_hooks(
    hooks: Sequence[HookCommand], payload: Mapping[str, Any], cwd: Path, env: Mapping[str, str]
) -> list[HookRun]:
    """Run `hooks` side by side, as Claude Code does (the same command once), in their order."""
    unique: dict[str, HookCommand] = {}
    for hook in hooks:
        unique.setdefault(hook.command, hook)
    return list(await asyncio.gather(*(run_hook(hook, payload, cwd, env) for hook in unique.values())))
