"""Judge unittest files against workspace modules this process never imports: they run in a child.

    verdict=$(python3 -I -B judge.py --remote pager --in WORK test_hidden.py test_pager.py <<<"$nonce")

This process (the judge) holds the proof: the nonce, read from stdin, and its stdout, where it prints
the nonce only when every test counted in the files (read, not imported) ran and passed. It runs the
test files itself, from the tests' own folder; each module named by `--remote` is a stand-in whose
attributes and calls are asked of a child (`judge.py --serve`), a fresh interpreter in WORK that
imports the workspace's code. Only plain values cross (None, bool, int, float, str, bytes, list,
tuple, dict, set) and exceptions by their built-in class: the child can answer what it likes, but every
assertion is made here, on values; it cannot reach the nonce, this process's result or stdout.

The child gets no secret: not the nonce, not the environment (only PATH, HOME, LANG), no file of ours
but its pipes; before it imports anything it closes the files of `/proc`, the tests' folder and the
reward folder to itself with Landlock, and this process makes itself undumpable, so even without
Landlock its memory is not readable through `/proc`. An identical copy is in each task that needs it:
Harbor copies only one task's tests/.
"""

import ast
import builtins
import ctypes
import importlib
import importlib.util
import json
import os
import struct
import subprocess
import sys
import types
import unittest
from pathlib import Path

LINE_LIMIT = 64 * 1024 * 1024
"""The longest answer the child may send (bytes); a longer one fails the run."""


# --- values on the wire: only plain data, rebuilt from JSON, never code ---


def encode(value: object) -> object:
    """`value` as JSON data, tagged so that it is rebuilt with its exact built-in type."""
    kind = type(value)
    if value is None or kind in (bool, int, str):
        return value
    if kind is float:
        return {"float": value.hex()}
    if kind is list:
        return [encode(item) for item in value]
    if kind in (tuple, set, frozenset):
        return {kind.__name__: [encode(item) for item in value]}
    if kind is dict:
        return {"dict": [[encode(k), encode(v)] for k, v in value.items()]}
    if kind is bytes:
        return {"bytes": value.hex()}
    raise TypeError(f"not a plain value: {kind.__name__}")


def decode(data: object) -> object:
    """The value `encode` wrote."""
    if isinstance(data, list):
        return [decode(item) for item in data]
    if not isinstance(data, dict):
        return data
    ((tag, inner),) = data.items()
    if tag == "float":
        return float.fromhex(inner)
    if tag == "bytes":
        return bytes.fromhex(inner)
    if tag == "dict":
        return {decode(k): decode(v) for k, v in inner}
    return {"tuple": tuple, "set": set, "frozenset": frozenset}[tag](decode(item) for item in inner)


# --- the judge: runs the tests, asks the child, prints the proof ---


class RemoteError(Exception):
    """The child raised an exception that is no built-in one (or a BaseException such as SystemExit)."""


class Child:
    """The interpreter that imports the workspace's code, spoken to over its stdin and stdout."""

    def __init__(self, work: str, hidden: list[str]) -> None:
        env = {name: os.environ[name] for name in ("PATH", "HOME", "LANG") if name in os.environ}
        command = [sys.executable, "-I", "-B", __file__, "--serve", *hidden]
        self.process = subprocess.Popen(command, cwd=work, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def ask(self, **request: object) -> object:
        """Send one request; its answer, or the exception it raised here."""
        assert self.process.stdin is not None and self.process.stdout is not None
        try:
            self.process.stdin.write(json.dumps(request).encode() + b"\n")
            self.process.stdin.flush()
        except BrokenPipeError:
            raise RemoteError("the child is gone") from None
        line = self.process.stdout.readline(LINE_LIMIT)
        if not line.endswith(b"\n"):
            raise RemoteError("the child ended or sent an answer too long")
        try:
            answer = json.loads(line)
            if "raise" in answer:
                cls = getattr(builtins, str(answer["raise"]), None)
                error = f"{answer.get('message')} (a {answer.get('type')} in the workspace's code)"
            elif "callable" in answer:
                return Function(self, str(request["module"]), str(request["name"]))
            elif "object" in answer:
                return Opaque(str(answer["object"]))
            else:
                return decode(answer["value"])
        except (ValueError, TypeError, KeyError, AttributeError, RecursionError) as exc:
            raise RemoteError(f"a malformed answer from the child: {exc}") from None
        raise (cls if isinstance(cls, type) and issubclass(cls, Exception) else RemoteError)(error)

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


class Opaque:
    """A value the child could not send as plain data: equal to nothing, shown by its repr."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return f"<not plain data: {self.text}>"


class Function:
    """A function of a remote module: calling it calls it in the child."""

    def __init__(self, child: Child, module: str, name: str) -> None:
        self.child, self.module, self.name = child, module, name

    def __call__(self, *args: object, **kwargs: object) -> object:
        request = {"args": encode(list(args)), "kwargs": encode(kwargs)}
        return self.child.ask(op="call", module=self.module, name=self.name, **request)


class RemoteModule(types.ModuleType):
    """The stand-in for a workspace module: each attribute is asked of the child."""

    def __init__(self, child: Child, name: str) -> None:
        super().__init__(name)
        self.__child = child

    def __getattr__(self, name: str) -> object:
        if name.startswith("__"):
            raise AttributeError(name)
        return self.__child.ask(op="get", module=self.__name__, name=name)


def count_tests(path: Path) -> int:
    """How many tests unittest will find in `path`: test methods of its TestCase classes, inherited too."""
    classes = {node.name: node for node in ast.parse(path.read_bytes()).body if isinstance(node, ast.ClassDef)}

    def tests_of(name: str, seen: frozenset[str]) -> set[str] | None:
        """The test names of class `name`, or None when it is not a TestCase."""
        if name == "TestCase":
            return set()
        if name not in classes or name in seen:
            return None
        node, found = classes[name], None
        for base in node.bases:
            base_name = base.attr if isinstance(base, ast.Attribute) else getattr(base, "id", "")
            inherited = tests_of(base_name, seen | {name})
            if inherited is not None:
                found = (found or set()) | inherited
        if found is None:
            return None
        functions = (ast.FunctionDef, ast.AsyncFunctionDef)
        return found | {f.name for f in node.body if isinstance(f, functions) and f.name.startswith("test")}

    return sum(len(tests) for name in classes if (tests := tests_of(name, frozenset())) is not None)


class Tally(unittest.TextTestResult):
    """A result that also keeps the ids of the tests that passed."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.passed: set[str] = set()

    def addSuccess(self, test: unittest.TestCase) -> None:
        super().addSuccess(test)
        self.passed.add(test.id())


def run_tests(files: list[Path]) -> bool:
    """Run the unittest `files` here; True when every expected test ran and passed."""
    expected = sum(count_tests(path) for path in files)
    suite = unittest.TestSuite()
    for path in files:
        spec = importlib.util.spec_from_file_location(path.stem, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        suite.addTests(unittest.defaultTestLoader.loadTestsFromModule(module))
    result = unittest.TextTestRunner(stream=sys.stderr, verbosity=0, resultclass=Tally).run(suite)
    clean = result.wasSuccessful() and not result.skipped and not result.expectedFailures
    print(f"judge: {len(result.passed)} of {expected} expected tests passed", file=sys.stderr)
    return clean and expected > 0 and len(result.passed) == result.testsRun == expected


def judge(argv: list[str]) -> int:
    nonce = sys.stdin.readline().strip()
    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
    if len(nonce) < 32:
        print("judge: no nonce on stdin", file=sys.stderr)
        return 2
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(4, ctypes.c_ulong(0), ctypes.c_ulong(0), ctypes.c_ulong(0), ctypes.c_ulong(0))  # PR_SET_DUMPABLE 0
    remote, work, files = [], ".", []
    while argv:
        arg = argv.pop(0)
        if arg == "--remote":
            remote += argv.pop(0).split(",")
        elif arg == "--in":
            work = argv.pop(0)
        else:
            files.append(Path(arg).resolve())
    hidden = [str(Path(__file__).resolve().parent), "/proc"]
    hidden += [os.environ[name] for name in ("REWARD_DIR", "TESTS_DIR") if os.environ.get(name)]
    child = Child(work, hidden)
    try:
        for name in remote:
            sys.modules[name] = RemoteModule(child, name)
        passed = run_tests(files)
    finally:
        child.close()
    if passed:
        print(nonce, flush=True)
    return 0


# --- the child: imports the workspace's code and answers ---


def serve(hidden: list[str]) -> None:
    """Answer requests on stdin, one JSON line each; stdout carries only the answers."""
    requests, answers = os.fdopen(os.dup(0), "rb"), os.fdopen(os.dup(1), "wb")
    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
    os.dup2(2, 1)  # what the workspace's code prints goes to the log, not into an answer
    if (why := close_to_self(hidden)) is not None:
        print(f"judge: the child keeps {', '.join(hidden)} open ({why})", file=sys.stderr)
    sys.path.insert(0, os.getcwd())
    for line in requests:
        answers.write(json.dumps(answer(json.loads(line))).encode() + b"\n")
        answers.flush()


def answer(request: dict) -> dict:
    """Do what `request` asks of a module of the workspace; its answer as JSON data."""
    try:
        value = getattr(importlib.import_module(request["module"]), request["name"])
        if request["op"] == "call":
            value = value(*decode(request["args"]), **decode(request["kwargs"]))
        elif callable(value) and not isinstance(value, type):
            return {"callable": True}
    except BaseException as exc:
        base = next(c.__name__ for c in type(exc).__mro__ if getattr(builtins, c.__name__, None) is c)
        return {"raise": base, "type": type(exc).__qualname__, "message": str(exc)[:500]}
    try:
        return {"value": encode(value)}
    except TypeError:
        return {"object": f"{type(value).__qualname__} {object.__repr__(value)}"}


LANDLOCK_CREATE_RULESET, LANDLOCK_ADD_RULE, LANDLOCK_RESTRICT_SELF = 444, 445, 446
READ_AND_WRITE_FILE = 1 << 1 | 1 << 2  # LANDLOCK_ACCESS_FS_WRITE_FILE, _READ_FILE


def close_to_self(hidden: list[str]) -> str | None:
    """Read and write files everywhere but beneath `hidden`, from now on; None, or why not."""
    libc = ctypes.CDLL(None, use_errno=True)

    def call(*args: int | bytes) -> int:  # every argument a full machine word
        return libc.syscall(*(arg if isinstance(arg, bytes) else ctypes.c_long(arg) for arg in args))

    ruleset = call(LANDLOCK_CREATE_RULESET, struct.pack("<Q", READ_AND_WRITE_FILE), 8, 0)
    if ruleset < 0:
        return f"no Landlock: {os.strerror(ctypes.get_errno())}"
    try:
        for path in granted(["/" + os.path.realpath(p).strip("/") for p in hidden]):
            try:
                beneath = os.open(path, os.O_PATH | os.O_CLOEXEC)
            except OSError:
                continue
            added = call(LANDLOCK_ADD_RULE, ruleset, 1, struct.pack("<Qi", READ_AND_WRITE_FILE, beneath), 0)
            os.close(beneath)
            if added != 0:
                return f"a Landlock rule for {path}: {os.strerror(ctypes.get_errno())}"
        if libc.prctl(38, *(ctypes.c_ulong(a) for a in (1, 0, 0, 0))) != 0 or call(LANDLOCK_RESTRICT_SELF, ruleset, 0):
            return f"Landlock refused: {os.strerror(ctypes.get_errno())}"
    finally:
        os.close(ruleset)
    return None


def granted(hidden: list[str], folder: str = "/") -> list[str]:
    """The paths to grant beneath so that all of `folder` but `hidden` is reachable."""
    paths = []
    try:
        entries = os.listdir(folder)
    except OSError:
        return paths
    for entry in entries:
        path = os.path.join(folder, entry)
        if path in hidden:
            continue
        if any(h.startswith(path + "/") for h in hidden) and os.path.isdir(path) and not os.path.islink(path):
            paths += granted(hidden, path)
        else:
            paths.append(path)
    return paths


if __name__ == "__main__":
    if sys.argv[1:2] == ["--serve"]:
        libc = ctypes.CDLL(None)
        libc.prctl(1, ctypes.c_ulong(9), *(ctypes.c_ulong(0) for _ in range(3)))  # PR_SET_PDEATHSIG SIGKILL
        serve(sys.argv[2:])
    else:
        sys.exit(judge(sys.argv[1:]))
