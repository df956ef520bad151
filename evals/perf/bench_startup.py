"""Start-up: how long until decode is useful, against what it cannot avoid.

- `decode --version` and `decode --help` against the venv's bare `python -c pass`: they must
  import nothing heavy (target 5x; Codex CLI's `--version` takes 7.5x, Claude Code's 8.5x).
- `decode run` on a one-line scripted model against `python -c "import pydantic_ai"`: the whole
  run, answer and saved session included, in 0.6x of that import. decode imports pydantic-ai
  without its MCP client stack (ADR-0102), so the library's full import is no longer its floor.
- The same `decode run` against a bare pydantic-ai agent answering the same line (`Agent(FunctionModel(…))`,
  one run): what decode adds to pydantic-ai's own run, apart from the import both pay (1.15x).

Commands run in a scratch directory, so a `.env` in the project does not change what is measured.
"""

import json
import textwrap
from collections.abc import Iterator

from perf import Comparison, Context, command

# A pydantic-ai program that answers like the scripted model: one agent, one run, no decode.
BARE_AGENT = textwrap.dedent(
    """\
    from pydantic_ai import Agent
    from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart
    from pydantic_ai.models.function import AgentInfo, FunctionModel


    def answer(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        return ModelResponse(parts=[TextPart({answer!r})])


    print(Agent(FunctionModel(answer)).run_sync("say hello").output)
    """
)


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

    answer = "Hello from the scripted model."
    script = ctx.tmp / "hello.json"
    script.write_text(json.dumps([{"text": answer}]), encoding="utf-8")
    decode_run = command(
        [decode, "run", "--model", f"script:{script}", "say hello"],
        label="decode run --model script:…",
        cwd=ctx.tmp,
    )
    yield Comparison(
        "decode run (scripted model)",
        decode_run,
        command([python, "-c", "import pydantic_ai"], label='python -c "import pydantic_ai"', cwd=ctx.tmp),
        target=0.6,
        runs=10,
        issue=27,  # the floor the issue starts from: `run` 0.97x `import pydantic_ai`
    )

    # The same answer from pydantic-ai alone: the row separates decode's own cost from the library's.
    bare_agent = ctx.tmp / "bare_agent.py"
    bare_agent.write_text(BARE_AGENT.format(answer=answer), encoding="utf-8")
    yield Comparison(
        "decode run vs a bare agent run",
        decode_run,
        command([python, bare_agent], label="python bare_agent.py", cwd=ctx.tmp),
        target=1.15,
        runs=10,
    )
