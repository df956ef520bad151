"""Import every module of a lesson snapshot in a process forked from one that imported its libraries.

`scripts/lesson verify` imports each snapshot's modules in a fresh interpreter, so a module that
names a later lesson's code fails. Most of that run is importing the same libraries (pydantic-ai,
openai, modal…) for each of the 18 snapshots. This server imports them once, never any `decode`
code, then forks one child per snapshot: the child puts only that snapshot on the path and runs
the same import-every-module program, so every `decode` module is read from the snapshot, anew.

Run as a script (`python -P warm_importer.py`) it is the server: one snapshot folder per stdin
line, one exit code per stdout line; each child's output goes to the file named beside the folder.
"""

import ast
import contextlib
import importlib
import os
import subprocess
import sys
import threading
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def libraries(package: Path) -> list[str]:
    """Every absolute module name `package`'s files import, but its own (lazy imports too)."""
    names: set[str] = set()
    for path in package.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_bytes())):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module)
    return sorted(name for name in names if name.split(".")[0] != package.name)


def _child(folder: str, output: str, program: str) -> None:
    descriptor = os.open(output, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    for stream in (1, 2):
        os.dup2(descriptor, stream)
    sys.path.insert(0, folder)  # as PYTHONPATH puts it: ahead of the installed package
    sys.argv = ["-c", folder]
    code = 0
    try:
        exec(compile(program, "<import every module>", "exec"), {"__name__": "__main__"})
    except BaseException:
        traceback.print_exc()
        code = 1
    with contextlib.suppress(OSError, ValueError):
        sys.stdout.flush()
        sys.stderr.flush()
    os._exit(code)


def serve(program: str) -> None:
    for name in libraries(ROOT / "decode"):
        with contextlib.suppress(Exception):  # warming only: a child imports what it needs itself
            importlib.import_module(name)
    assert not any(name.split(".")[0] == "decode" for name in sys.modules), "a library imported decode"
    assert threading.active_count() == 1, "the warm importer must be single-threaded to fork"
    print("ready", flush=True)
    for line in sys.stdin:
        folder, output = line.rstrip("\n").split("\t")
        pid = os.fork()
        if pid == 0:
            _child(folder, output, program)
        _, status = os.waitpid(pid, 0)
        print(os.waitstatus_to_exitcode(status), flush=True)


class WarmImporter:
    """The client: `check(folder)` is `(exit code, output)` of importing every module of `folder`."""

    def __init__(self, program: str) -> None:
        environment = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
        environment.pop("PYTHONPATH", None)
        self.process = subprocess.Popen(
            [sys.executable, "-P", __file__, program],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=environment,
            text=True,
        )
        assert self.process.stdout is not None
        assert self.process.stdout.readline().strip() == "ready", "the warm importer did not start"

    def check(self, folder: Path) -> tuple[int, str]:
        assert self.process.stdin is not None
        assert self.process.stdout is not None
        output = folder.parent / f"{folder.name}.imports.log"
        self.process.stdin.write(f"{folder}\t{output}\n")
        self.process.stdin.flush()
        code = int(self.process.stdout.readline())
        return code, output.read_text().strip()

    def close(self) -> None:
        """End the server (stdin EOF), wait for it, and close its pipes."""
        with self.process:
            if self.process.stdin is not None:
                self.process.stdin.close()
            self.process.wait(timeout=60)


if __name__ == "__main__":
    serve(sys.argv[1])
