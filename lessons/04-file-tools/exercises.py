"""The check of lesson 04's exercise: a `head` tool of your own, through the executor.

    from exercises import check_head
    check_head(HEAD)

The check gives the tool a Workspace that is not where the local disk says: its executor reads
the files of another folder (as a container's executor would), while the local disk holds other
files at the Workspace's path. A tool that goes through `ctx.deps.executor` sees the Workspace; one
that opens files itself sees the wrong ones.
"""

import asyncio
import concurrent.futures
import inspect
import json
import tempfile
from collections.abc import Callable, Coroutine, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from course import Verdict, check

from decode.entities.executor import DirEntry, EntryKind, ExecRequest, ExecResult, FileStat, OutputCallback
from decode.processes.local import LocalExecutor


def _run(coroutine: Coroutine[Any, Any, Any]) -> Any:
    """Run `coroutine` on an event loop of its own (a notebook's kernel already runs one)."""
    with concurrent.futures.ThreadPoolExecutor(1) as worker:
        return worker.submit(asyncio.run, coroutine).result()


class ElsewhereExecutor(LocalExecutor):
    """An executor whose Workspace `seen` is really the folder `actual`, as in a container.

    Every file operation and command maps paths under `seen` to `actual` and back, so the tools
    see `seen`; what the local disk holds at `seen` is something else.
    """

    def __init__(self, seen: Path, actual: Path) -> None:
        super().__init__(actual)
        self.actual = self.workspace
        self.workspace = seen

    def _there(self, path: Path) -> Path:
        path = Path(path)
        return self.actual / path.relative_to(self.workspace) if path.is_relative_to(self.workspace) else path

    def _back(self, path: Path) -> Path:
        return self.workspace / path.relative_to(self.actual) if path.is_relative_to(self.actual) else path

    async def realpath(self, path: Path) -> Path:
        return self._back(await super().realpath(self._there(path)))

    async def stat(self, path: Path) -> FileStat | None:
        return await super().stat(self._there(path))

    async def stat_many(self, paths: Sequence[Path]) -> list[FileStat | None]:
        return await super().stat_many([self._there(path) for path in paths])

    async def list_dir(self, path: Path) -> list[DirEntry]:
        return await super().list_dir(self._there(path))

    async def list_tree(self, root: Path) -> list[tuple[str, EntryKind]]:
        return await super().list_tree(self._there(root))

    async def read_bytes(self, path: Path, start: int = 0, size: int | None = None) -> bytes:
        return await super().read_bytes(self._there(path), start, size)

    async def read_many(self, paths: Sequence[Path]) -> dict[Path, bytes]:
        found = await super().read_many([self._there(path) for path in paths])
        return {self._back(path): data for path, data in found.items()}

    async def write_atomic(self, path: Path, data: bytes) -> None:
        await super().write_atomic(self._there(path), data)

    async def run(self, request: ExecRequest) -> ExecResult:
        seen, actual = str(self.workspace), str(self.actual)

        def back(callback: OutputCallback) -> OutputCallback:
            return lambda data: callback(data.replace(actual.encode(), seen.encode()))

        stdin = request.stdin
        return await super().run(
            replace(
                request,
                argv=[argument.replace(seen, actual) for argument in request.argv],
                on_stdout=back(request.on_stdout),
                on_stderr=back(request.on_stderr),
                cwd=self._there(request.cwd or self.workspace),
                stdin=stdin.replace(seen.encode(), actual.encode()) if stdin is not None else None,
            )
        )


TWELVE = "".join(f"line {n}\n" for n in range(1, 13))

FILES = {  # the Workspace, as the executor sees it
    "three.txt": "one\ntwo\nthree\n",
    "src/two.py": "x = 1\ny = 2",  # no newline after the last line
    "twelve.txt": TWELVE,
}

DECOYS = {  # what the local disk holds at the same paths: a tool that reads it reads these
    "three.txt": "not\nthe\nworkspace\n",
    "src/two.py": "# the local disk, not the executor\n",
    "twelve.txt": "wrong\n" * 12,
}


def _lay_out(root: Path, files: Mapping[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)


async def _exercise(spec: Any, scratch: Path) -> None:
    from pydantic_ai import ModelRetry, RunContext
    from pydantic_ai.models.test import TestModel
    from pydantic_ai.usage import RunUsage

    from decode.agent.factory import build_agent
    from decode.agent.loop import AgentLoop
    from decode.config.settings import Settings
    from decode.entities.deps import AgentDeps
    from decode.entities.events import ToolCallFinished
    from decode.models.gateway import resolve_model

    workspace, actual = scratch / "project", scratch / "container"
    _lay_out(workspace, DECOYS)
    _lay_out(actual, FILES)
    (scratch / "outside.txt").write_text("a\nb\nc\nd\n")
    (actual / "escape").symlink_to("..")  # a folder inside that leads out

    settings = Settings(_env_file=None, tool_output_limit=30_000)
    deps = AgentDeps(executor=ElsewhereExecutor(workspace, actual), settings=settings, harness_home=scratch)
    ctx = RunContext(deps=deps, model=TestModel(), usage=RunUsage())

    async def head(path: str, *n: int) -> Any:
        result = spec.function(ctx, path, *n)
        return await result if inspect.isawaitable(result) else result

    def shown(path: str) -> str:
        return path.replace(str(scratch), "<scratch>")

    cases: list[tuple[str, tuple[int, ...], str]] = [
        ("three.txt", (2,), "one\ntwo\n"),
        ("three.txt", (10,), FILES["three.txt"]),  # fewer lines than asked for: all of them
        ("src/two.py", (1,), "x = 1\n"),
        ("src/two.py", (5,), FILES["src/two.py"]),  # the last line has no newline, and none is added
        ("twelve.txt", (), "".join(TWELVE.splitlines(keepends=True)[:10])),  # n defaults to 10
        (str(workspace / "three.txt"), (1,), "one\n"),  # an absolute path inside the Workspace is fine
    ]
    for path, n, expected in cases:
        call = f"head({shown(path)!r}{''.join(f', {value}' for value in n)})"
        got = await head(path, *n)
        decoy = DECOYS.get(path.removeprefix(f"{workspace}/"), "")
        assert got != "".join(decoy.splitlines(keepends=True)[: n[0] if n else 10]), (
            f"{call} gave {got!r}: that is what the local disk holds at that path, not the Workspace the "
            "executor reaches. Read through ctx.deps.executor (resolve_path, then executor.read_bytes)"
        )
        assert got == expected, f"{call} gave {got!r}, not {expected!r} (the lines as they are, newlines kept)"
    for path in ["../outside.txt", str(scratch / "outside.txt"), "escape/outside.txt"]:
        try:
            got = await head(path, 2)
        except ModelRetry:
            continue
        raise AssertionError(f"head({shown(path)!r}, 2) is outside the Workspace and gave {got!r}: refuse it")

    # As a tool: the model calls it by name, and reads what it returns.
    script = scratch / "turns.json"
    calls = [{"name": "head", "args": {"path": "three.txt", "n": 1}}]
    script.write_text(json.dumps([{"tool_calls": calls}, {"text": "three.txt starts with 'one'."}]))
    loop = AgentLoop(build_agent(resolve_model(f"script:{script}", settings), tools=[spec]), deps)
    results = [event.result async for event in loop.run_turn("head") if isinstance(event, ToolCallFinished)]
    assert len(results) == 1, "the scripted model called head once, but no result came back"
    answered = f"called by the agent, head(three.txt, n=1) answered {results[0].content!r}"
    assert not results[0].is_error, answered
    assert results[0].content.strip() == "one", answered


def check_head(spec: Any) -> Verdict:
    """`spec` is the ToolSpec of a read-only `head(ctx, path, n=10)` confined to the Workspace."""

    def test() -> None:
        from decode.entities.tools import ToolKind, ToolSpec

        assert isinstance(spec, ToolSpec), f"HEAD should be a ToolSpec, not {type(spec).__name__}"
        assert spec.name == "head", f"the tool is called head, not {spec.name!r}"
        function: Callable[..., Any] = spec.function
        with tempfile.TemporaryDirectory() as scratch:
            _run(_exercise(spec, Path(scratch).resolve()))
        schema = spec.to_tool().tool_def.parameters_json_schema
        assert list(schema.get("properties", {})) == ["path", "n"], (
            f"the model should see two arguments, `path` and `n`: {schema}"
        )
        assert schema.get("required") == ["path"], f"`n` has a default (10), so only `path` is required: {schema}"
        assert inspect.iscoroutinefunction(function), "the executor is async, so the tool is too: `async def head`"
        kind = spec.traits.kind
        assert kind is ToolKind.READ_ONLY, f"head only reads: its kind is ToolKind.READ_ONLY, not {kind}"
        assert spec.traits.rules == ("Read",), f"`Read` rules, and only they, govern it, not {spec.traits.rules}"
        assert spec.traits.path == "path", "the traits name the argument that holds the path (path='path')"

    return check("head shows the first lines of Workspace files, through the executor, and nothing else", test)
