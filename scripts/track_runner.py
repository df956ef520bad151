"""Running a lesson's track tests against a package folder, and saying what they found (ADR-0121).

`run_tests()` runs one test file with the folder first on `sys.path` and no module of its packages
(`decode`, `evals`) or of the lessons kept from a run before, so one interpreter runs many packages;
a plugin keeps each test's docstring, outcome and, when a stub's NotImplementedError failed it, the
stub's message. `python scripts/track_runner.py run TESTS DIR [TESTS DIR …]` prints the results of
many runs as one JSON line; `report()` words them for the learner.
"""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LESSONS = ROOT / "lessons"
PACKAGE = "decode"


class RunnerError(Exception):
    """The tests could not run: the folder holds no package, or the interpreter failed."""


class _Outcomes:
    """A pytest plugin keeping each test's docstring, outcome and, when it failed, why."""

    def __init__(self) -> None:
        self.results: list[dict[str, object]] = []

    def pytest_collectreport(self, report: object) -> None:
        import pytest

        assert isinstance(report, pytest.CollectReport)
        if report.failed:
            why = _import_problem(str(report.longrepr))
            self.results.append(
                {"test": "collect", "doc": "your package imports", "passed": False, "why": why, "stub": ""}
            )

    def pytest_runtest_makereport(self, item: object, call: object) -> None:
        import pytest

        assert isinstance(item, pytest.Function)
        assert isinstance(call, pytest.CallInfo)
        if call.when == "teardown" and not call.excinfo:
            return
        if call.when != "call" and not call.excinfo:
            return
        doc = (item.obj.__doc__ or item.name).strip().splitlines()[0]
        if call.excinfo is not None and call.excinfo.errisinstance(pytest.skip.Exception):
            why = str(call.excinfo.value).strip()
            self.results.append(
                {"test": item.name, "doc": doc, "passed": True, "why": why, "stub": "", "skipped": True}
            )
            return
        why, stub_message = "", ""
        error: BaseException | None = call.excinfo.value if call.excinfo else None
        if error is not None:
            why = f"{type(error).__name__}: {str(error).strip().splitlines()[0] if str(error).strip() else ''}"
            seen: set[int] = set()
            while error is not None and id(error) not in seen:
                seen.add(id(error))
                if isinstance(error, NotImplementedError):
                    stub_message = " ".join(str(error).split())
                    break
                error = error.__cause__ or error.__context__
        self.results.append(
            {"test": item.name, "doc": doc, "passed": call.excinfo is None, "why": why, "stub": stub_message}
        )


def _import_problem(text: str) -> str:
    """The error that stopped the track tests importing, and where, from pytest's report of it."""
    lines = text.strip().splitlines()
    error = lines[-1].removeprefix("E").strip() if lines else "an error"
    places = re.findall(r'File "([^"]+)", line (\d+)', text) or re.findall(r"^(\S+\.py):(\d+)", text, re.MULTILINE)
    return f"{error} at {places[-1][0]}:{places[-1][1]}" if places else error


def _forget(folders: list[Path], packages: set[str]) -> None:
    """Drop the modules imported from the packages and the lessons, so the next run imports afresh."""
    for name, module in list(sys.modules.items()):
        file = getattr(module, "__file__", None) or ""
        if name.partition(".")[0] in packages or any(str(f) in file for f in folders):
            del sys.modules[name]


def run_tests(tests: Path, package_root: Path, basetemp: Path | None = None) -> list[dict[str, object]]:
    """The track tests in `tests` run against the packages in `package_root` (`decode/`…), in this process.

    `basetemp`: the run's own folder for `tmp_path` (emptied first). Without it pytest numbers a
    new folder in the machine's shared `pytest-of-USER` and prunes the older ones, every run.
    """
    import gc

    import pytest

    root = package_root.resolve()
    packages = {PACKAGE} | {path.name for path in root.iterdir() if (path / "__init__.py").is_file()}
    _forget([root, LESSONS], packages)
    sys.path.insert(0, str(root))
    outcomes = _Outcomes()
    arguments = ["-q", "-p", "asyncio", "--no-header", "-o", "console_output_style=classic", str(tests)]
    arguments += ["--rootdir", str(ROOT), "-c", str(ROOT / "pyproject.toml")]
    arguments += [f"--basetemp={basetemp}"] if basetemp else []
    try:
        import decode

        if not Path(decode.__file__ or "").resolve().is_relative_to(root):
            raise RunnerError(f"{root} holds no decode/ package (imported {decode.__file__})")
        # pytest collects garbage harder at its end (five full collections, for unraisable
        # exceptions): frozen, the libraries and the packages already imported are not walked again
        # each time (half of a run's CPU); they are unfrozen after, so a dropped package is freed.
        gc.freeze()
        pytest.main(arguments, plugins=[outcomes])
    finally:
        gc.unfreeze()
        sys.path.remove(str(root))
        _forget([root, LESSONS], packages)
    return outcomes.results


def run_elsewhere(pairs: list[tuple[Path, Path]]) -> list[list[dict[str, object]]]:
    """`run_tests` for each (tests, package folder), in one fresh interpreter, quietly."""
    command = [sys.executable, __file__, "run", *(str(part) for pair in pairs for part in pair)]
    # Only the plugins the track tests use (`-p asyncio` in `run_tests`): a fifth of each run's cost.
    environment = {**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, env=environment)
    if done.returncode:
        raise RunnerError(f"the track tests could not run:\n{done.stderr.strip() or done.stdout.strip()}")
    return json.loads(done.stdout.splitlines()[-1])


def report(results: list[dict[str, object]]) -> list[str]:
    """One plain line per behaviour, what works and what is still missing, then each stub's hint once."""
    lines, hints = [], {}
    for result in results:
        if result.get("skipped"):
            lines.append(f"  skipped  {result['doc']} ({result['why']})")
        elif result["passed"]:
            lines.append(f"  ok       {result['doc']}")
        elif result["stub"]:
            function, _, hint = str(result["stub"]).partition(": ")
            hints[function] = hint
            lines.append(f"  missing  {result['doc']} ({function} is still a stub)")
        else:
            lines.append(f"  missing  {result['doc']} ({result['why']})")
    lines += [f"hint for {function}: {hint}" for function, hint in hints.items()]
    return lines


def main(argv: list[str]) -> int:
    """`run TESTS DIR [TESTS DIR …]`: each test file against its package folder, as one JSON line."""
    import contextlib
    import io

    if len(argv) < 3 or argv[0] != "run" or len(argv) % 2 == 0:
        print("usage: track_runner.py run TESTS DIR [TESTS DIR ...]", file=sys.stderr)
        return 2
    import tempfile

    everything = []
    with tempfile.TemporaryDirectory(prefix="track-") as temporary:
        for index, (tests, folder) in enumerate(zip(argv[1::2], argv[2::2], strict=True)):
            with contextlib.redirect_stdout(io.StringIO()):  # pytest's own report: the caller words its own
                everything.append(run_tests(Path(tests), Path(folder), Path(temporary) / str(index)))
    print(json.dumps(everything))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
