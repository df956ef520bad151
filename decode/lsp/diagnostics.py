"""The errors an edit introduced: the server's diagnostics after it, less those from before.

Positions move when lines are added above an error, so an error is not known by where it is but
by what it is: (file, severity, message). The errors before and after form two multisets; what
the second holds more of than the first is new (ADR-0061). An error whose message names a line
number, or one fixed while an identical one appears elsewhere in the file, can be miscounted; the
model is shown where each new one is, so it can look.

`EditCheck` does it for `write` and `edit`: `start()` before the file changes pulls the
diagnostics of the file and of the other documents the server has open (re-read from disk, so
a change made by `bash` counts as before); `finish()` after pulls them again.
"""

import asyncio
import logging
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from decode.entities.executor import CommandExecutor
from decode.lsp.client import LspClient
from decode.lsp.manager import LspManager, LspUnavailable
from decode.lsp.positions import from_lsp, line_at

logger = logging.getLogger(__name__)

ERROR = 1
SEVERITIES = {1: "error", 2: "warning", 3: "info", 4: "hint"}
MAX_SHOWN = 10
"""New errors of the edited file listed in the tool result; the rest are counted."""
MAX_OTHER_DOCUMENTS = 20
"""Other open documents checked after an edit (the most recently opened)."""


@dataclass(frozen=True)
class Problem:
    """One diagnostic, at a 1-based line and code-point column."""

    path: Path
    line: int
    column: int
    severity: int
    message: str
    code: str | None = None

    @property
    def key(self) -> tuple[Path, int, str]:
        return self.path, self.severity, self.message


def problems(path: Path, text: str, items: Iterable[dict[str, Any]]) -> list[Problem]:
    """The server's diagnostics of `path` (whose content is `text`) as `Problem`s."""
    found = []
    for item in items:
        start = item.get("range", {}).get("start", {"line": 0, "character": 0})
        line, column = from_lsp(line_at(text, start["line"] + 1), start)
        code = item.get("code")
        found.append(
            Problem(
                path,
                line,
                column,
                int(item.get("severity") or ERROR),  # no severity: the client decides, and an error is safest
                " ".join(str(item.get("message", "")).split()),
                str(code) if code is not None else None,
            )
        )
    return found


def new_problems(before: Iterable[Problem], after: Sequence[Problem]) -> list[Problem]:
    """The problems of `after` that `before` did not have (as a multiset of `Problem.key`)."""
    left = Counter(problem.key for problem in before)
    fresh = []
    for problem in after:
        if left[problem.key] > 0:
            left[problem.key] -= 1
        else:
            fresh.append(problem)
    return fresh


def describe(problem: Problem, shown: str) -> str:
    code = f" [{problem.code}]" if problem.code else ""
    return (
        f"{shown}:{problem.line}:{problem.column}: {SEVERITIES.get(problem.severity, 'error')}: {problem.message}{code}"
    )


def relative(executor: CommandExecutor, path: Path) -> str:
    try:
        return path.relative_to(executor.workspace).as_posix()
    except ValueError:
        return str(path)


class EditCheck:
    """The diagnostics of a file (and of the other open documents) before an edit, to compare after it."""

    def __init__(self, manager: LspManager, executor: CommandExecutor, path: Path, timeout: float) -> None:
        self.manager, self.executor, self.path, self.timeout = manager, executor, path, timeout
        self.before: list[Problem] = []
        self.others: dict[Path, str] = {}
        self.failed: str | None = None

    @classmethod
    async def start(
        cls,
        manager: LspManager,
        executor: CommandExecutor,
        path: Path,
        text: str | None,
        *,
        timeout: float,  # noqa: ASYNC109
    ) -> "EditCheck | None":
        """Take the before picture; None when no server handles `path` (nothing will be said)."""
        if not manager.handles(path):
            return None
        check = cls(manager, executor, path, timeout)
        try:
            if text is None:
                text = await _read_text(executor, path)  # None: the file does not exist yet
            await manager.run(path, lambda client: check._before(client, text), timeout=timeout)
        except (LspUnavailable, OSError, ValueError) as exc:
            check.failed = str(exc).split(". ")[0]
        except Exception as exc:  # a server's error answer, a bug: the edit goes ahead all the same
            logger.debug("diagnostics before the edit failed", exc_info=True)
            check.failed = f"{type(exc).__name__}: {exc}"
        return check

    async def _before(self, client: LspClient, text: str | None) -> None:
        others = [path for path in client.documents if path != self.path][-MAX_OTHER_DOCUMENTS:]
        contents = await self.executor.read_many(others) if others else {}
        for path, data in contents.items():
            self.others[path] = data.decode("utf-8", errors="replace")
            await client.sync(path, self.others[path])
        if text is not None:
            await client.sync(self.path, text)
        pulls = [self._pull(client, self.path, text)] if text is not None else []
        pulls += [self._pull(client, path, other) for path, other in self.others.items()]
        for found in await asyncio.gather(*pulls):
            self.before.extend(found)

    async def _pull(self, client: LspClient, path: Path, text: str) -> list[Problem]:
        return problems(path, text, await client.diagnostics(path, timeout=self.timeout))

    async def finish(self, text: str) -> str:
        """What to append to the edit's result: the new errors, or a short note why there are none."""
        if self.failed is None:
            try:
                after = await self.manager.run(
                    self.path, lambda client: self._after(client, text), timeout=self.timeout
                )
                return self._report(new_problems(self.before, after))
            except (LspUnavailable, OSError, ValueError) as exc:
                self.failed = str(exc).split(". ")[0]
            except Exception as exc:
                logger.debug("diagnostics after the edit failed", exc_info=True)
                self.failed = f"{type(exc).__name__}: {exc}"
        why = self.failed[:1].lower() + self.failed[1:]
        return f"\n(No diagnostics after this edit: {why}.)"

    async def _after(self, client: LspClient, text: str) -> list[Problem]:
        await client.sync(self.path, text)
        pulls = [self._pull(client, self.path, text)]
        pulls += [self._pull(client, path, other) for path, other in self.others.items() if path in client.documents]
        return [problem for found in await asyncio.gather(*pulls) for problem in found]

    def _report(self, fresh: list[Problem]) -> str:
        errors = [problem for problem in fresh if problem.severity == ERROR]
        here = [problem for problem in errors if problem.path == self.path]
        elsewhere = Counter(relative(self.executor, problem.path) for problem in errors if problem.path != self.path)
        if not here and not elsewhere:
            return ""
        spec = self.manager.spec_for(self.path)
        name = spec.name if spec is not None else "the language server"
        lines = [f"\n\nNew errors after this edit ({name}):"] if here else ["\n"]
        shown = relative(self.executor, self.path)
        lines += [describe(problem, shown) for problem in here[:MAX_SHOWN]]
        if len(here) > MAX_SHOWN:
            lines.append(f"… and {len(here) - MAX_SHOWN} more in {shown}")
        if elsewhere:
            total = sum(elsewhere.values())
            files = ", ".join(f"{name} ({count})" for name, count in elsewhere.most_common(5))
            lines.append(f"{total} new error{'s' if total != 1 else ''} in other files: {files}")
        return "\n".join(lines)


async def _read_text(executor: CommandExecutor, path: Path) -> str | None:
    stat = await executor.stat(path)
    if stat is None or not stat.is_file:
        return None
    return (await executor.read_bytes(path)).decode("utf-8", errors="replace")
