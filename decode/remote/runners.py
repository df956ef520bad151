"""Where `run_task` runs: on Modal (the deployed app's function) or here (the same code, locally).

A Runner is the one boundary between `decode remote` and Modal's cloud. `ModalRunner` calls the
deployed `run_task`; `LocalRunner` calls `decode.remote.task.run_remote_task`, what `run_task` is
made of, in threads, so a fan-out of N attempts is real here: N `decode run` processes at once.
"""

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict
from typing import Any, Protocol

from decode.remote.task import RunOptions, run_remote_task


class Runner(Protocol):
    def run(self, task: str, repo: str, options: RunOptions) -> dict[str, Any]:
        """One run; its result object."""
        ...

    def fan_out(self, n: int, task: str, repo: str, options: RunOptions) -> Sequence[dict[str, Any]]:
        """N runs of the same task at once; their result objects, in attempt order."""
        ...


class LocalRunner:
    """`run_task`'s body on this machine, N at a time in threads (each one a `decode run` process)."""

    def run(self, task: str, repo: str, options: RunOptions) -> dict[str, Any]:
        return run_remote_task(task, repo, options)

    def fan_out(self, n: int, task: str, repo: str, options: RunOptions) -> Sequence[dict[str, Any]]:
        with ThreadPoolExecutor(max_workers=n) as pool:
            return list(pool.map(lambda _: self.run(task, repo, options), range(n)))


class ModalRunner:
    """The deployed app's `run_task`, looked up by name (`decode remote deploy` first)."""

    def __init__(self, app_name: str) -> None:
        self.app_name = app_name
        self.call_ids: list[str] = []
        """The calls `fan_out` spawned: `decode remote logs CALL_ID` shows one's logs."""

    def _function(self) -> Any:
        import modal

        return modal.Function.from_name(self.app_name, "run_task")

    def run(self, task: str, repo: str, options: RunOptions) -> dict[str, Any]:
        return self._function().remote(task, repo, **asdict(options))

    def fan_out(self, n: int, task: str, repo: str, options: RunOptions) -> Sequence[dict[str, Any]]:
        import modal

        function = self._function()
        calls = [function.spawn(task, repo, **asdict(options)) for _ in range(n)]
        self.call_ids = [call.object_id for call in calls]
        return modal.FunctionCall.gather(*calls)
