"""Start-up: how long until decode is useful, against what it cannot avoid.

- `decode --version` and `decode --help` against the venv's bare `python -c pass`: they must
  import nothing heavy (target 5x; Codex CLI's `--version` takes 7.5x, Claude Code's 8.5x).
- `decode run` on a one-line scripted model against `python -c "import pydantic_ai"`: the agent
  library's import is the floor, decode's own start-up on top of it should be nearly free (1.15x).

Commands run in a scratch directory, so a `.env` in the project does not change what is measured.
"""

import json
from collections.abc import Iterator

from perf import Comparison, Context, command


def benchmarks(ctx: Context) -> Iterator[Comparison]:
    python, decode = ctx.bin("python"), ctx.bin("decode")
    bare = command([python, "-c", "pass"], label="python -c pass", cwd=ctx.tmp)
    yield Comparison(
        "decode --version",
        command([decode, "--version"], label="decode --version", cwd=ctx.tmp),
        bare,
        target=5.0,
        runs=30,
    )
    yield Comparison(
        "decode --help",
        command([decode, "--help"], label="decode --help", cwd=ctx.tmp),
        bare,
        target=5.0,
        runs=30,
    )

    script = ctx.tmp / "hello.json"
    script.write_text(json.dumps([{"text": "Hello from the scripted model."}]), encoding="utf-8")
    yield Comparison(
        "decode run (scripted model)",
        command(
            [decode, "run", "--model", f"script:{script}", "say hello"],
            label="decode run --model script:…",
            cwd=ctx.tmp,
        ),
        command([python, "-c", "import pydantic_ai"], label='python -c "import pydantic_ai"', cwd=ctx.tmp),
        target=1.15,
        runs=10,
    )
