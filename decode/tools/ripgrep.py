"""Running ripgrep (`rg`) through the executor, with the flags that make its rules decode's.

ripgrep is a dependency (the `ripgrep` package puts `rg` in the virtual environment), so it is
almost always there; `walk.py` is the fallback with the same rules when it is not. The flags pin
ripgrep's behaviour to what that fallback does: hidden files in, `.git` out, `.gitignore` files
only (not `.ignore`, global or `.git/info/exclude` rules), no user config file.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from decode.entities.executor import CommandExecutor, ExecRequest

RULE_FLAGS = (
    "--no-config",
    "--hidden",
    "--glob=!.git",
    "--no-ignore-dot",
    "--no-ignore-global",
    "--no-ignore-exclude",
    "--no-messages",  # unreadable files are skipped quietly, as the fallback does
)
SEARCH_TIMEOUT_S = 60.0
MAX_OUTPUT_BYTES = 64 * 1024 * 1024  # past this the search is cut short (the model is told)


@dataclass(frozen=True)
class RgOutput:
    exit_code: int | None
    stdout: bytes
    stderr: str
    cut_short: bool


async def run_rg(
    executor: CommandExecutor,
    rg: str,
    args: Sequence[str],
    cwd: Path,
    *,
    max_seconds: float = SEARCH_TIMEOUT_S,
    max_bytes: int = MAX_OUTPUT_BYTES,
) -> RgOutput:
    """Run `rg RULE_FLAGS args` in `cwd`, collecting at most `max_bytes` of its output, for at most `max_seconds`."""
    out = bytearray()
    err = bytearray()
    cut_short = False

    def on_stdout(chunk: bytes) -> None:
        nonlocal cut_short
        if len(out) + len(chunk) > max_bytes:
            cut_short = True
            return
        out.extend(chunk)

    argv = [rg, *RULE_FLAGS, *args]
    result = await executor.run(
        ExecRequest(argv, timeout=max_seconds, on_stdout=on_stdout, on_stderr=err.extend, cwd=cwd)
    )
    stdout = bytes(out)
    if cut_short:  # keep whole lines only
        stdout = stdout[: stdout.rfind(b"\n") + 1]
    return RgOutput(
        result.exit_code, stdout, err.decode("utf-8", errors="replace").strip(), cut_short or result.timed_out
    )


def relative(raw: bytes) -> str:
    """A path as rg printed it (`./src/a.py`), as a relative posix path (`src/a.py`)."""
    return raw.decode("utf-8", errors="surrogateescape").removeprefix("./")
