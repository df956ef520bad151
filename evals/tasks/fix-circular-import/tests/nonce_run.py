"""Run graders that import workspace code, and prove a real pass with a nonce their exit code cannot fake.

    python3 nonce_run.py PROOF test_a.py [pkg/test_b.py ...] <<<"$nonce"   # unittest files, as modules
    python3 nonce_run.py PROOF --script check.py [ARGS ...] <<<"$nonce"    # a script that must run to its end

The code under test is imported from the working directory, into this very process, so it could end
the process with status 0 (`os._exit(0)`, `sys.exit(0)` from an atexit hook) or patch unittest. The
nonce comes on stdin (not the environment: /proc/self/environ would still show a removed variable) and
is written to PROOF only when every test counted in the files (read, not imported) passed, or the
script returned normally; test.sh trusts nothing else. An identical copy is in each task that needs it:
Harbor copies only one task's tests/.
"""

import ast
import os
import runpy
import sys
import unittest
from pathlib import Path


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
    """A result that also keeps the ids of the tests that passed (outcomes the runner saw itself)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.passed: set[str] = set()

    def addSuccess(self, test: unittest.TestCase) -> None:
        super().addSuccess(test)
        self.passed.add(test.id())


def run_tests(files: list[str]) -> bool:
    """Run the unittest `files` (paths under the cwd); True when every expected test ran and passed."""
    expected = sum(count_tests(Path(f)) for f in files)  # before any workspace code is imported
    names = [f.removesuffix(".py").replace("/", ".") for f in files]
    suite = unittest.defaultTestLoader.loadTestsFromNames(names)
    result = unittest.TextTestRunner(stream=sys.stderr, verbosity=0, resultclass=Tally).run(suite)
    clean = result.wasSuccessful() and not result.skipped and not result.expectedFailures
    print(f"nonce_run: {len(result.passed)} of {expected} expected tests passed", file=sys.stderr)
    return clean and expected > 0 and len(result.passed) == result.testsRun == expected


def run_script(script: str, args: list[str]) -> bool:
    """Run `script` as __main__ with `args`; True when it returned (a SystemExit, even 0, is no pass)."""
    sys.argv = [script, *args]
    runpy.run_path(script, run_name="__main__")
    return True


def main() -> None:
    nonce = sys.stdin.readline().strip()
    sys.stdin.close()
    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)  # the tests get an empty stdin, not the nonce
    if len(nonce) < 32:
        sys.exit("nonce_run: no nonce on stdin")
    proof, *rest = sys.argv[1:]
    sys.path.insert(0, os.getcwd())
    passed = run_script(rest[1], rest[2:]) if rest[0] == "--script" else run_tests(rest)
    if passed:
        Path(proof).write_text(nonce + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
