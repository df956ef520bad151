"""The lesson tests' warm server forks a `python -P -m decode` that behaves as a fresh one would."""

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.lessons.warm_libraries import WarmLibraries

FAKE_MAIN = """\
import os, signal, sys
import decode
print(decode.__file__, os.getcwd(), os.environ.get("MARK"), sys.stdin.read().strip(), sys.argv[1:])
if sys.argv[1] == "die":
    os.kill(os.getpid(), signal.SIGTERM)
raise SystemExit(int(sys.argv[1]))
"""


@pytest.fixture(scope="module")
def warm(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WarmLibraries]:
    server = WarmLibraries(tmp_path_factory.mktemp("warm"))
    yield server
    server.close()


def fake_package(folder: Path) -> Path:
    """A `decode` package of its own, as a snapshot is: only the PYTHONPATH chooses it."""
    (folder / "decode").mkdir(parents=True)
    (folder / "decode" / "__init__.py").write_text("")
    (folder / "decode" / "__main__.py").write_text(FAKE_MAIN)
    return folder


def run(command: str, args: str, package: Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(package), "MARK": "marked"}
    line = f"echo from-stdin | sh -c '{command}' decode {args}"
    return subprocess.run(["bash", "-c", line], cwd=cwd, env=env, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("args", ["0", "3", "die"])
def test_a_forked_decode_is_what_python_m_decode_gives(tmp_path: Path, warm: WarmLibraries, args: str) -> None:
    package = fake_package(tmp_path / "snapshot")
    plain = run(f'exec {sys.executable} -P -m decode "$@"', args, package, tmp_path)
    forked = run(warm.command(), args, package, tmp_path)
    assert (forked.returncode, forked.stdout, forked.stderr) == (plain.returncode, plain.stdout, plain.stderr)
    assert forked.stdout.split()[:4] == [str(package / "decode" / "__init__.py"), str(tmp_path), "marked", "from-stdin"]
    expected = 128 + signal.SIGTERM if args == "die" else int(args)
    assert forked.returncode == expected


def test_without_a_server_the_client_runs_python_m_decode_itself(tmp_path: Path) -> None:
    package = fake_package(tmp_path / "snapshot")
    client = Path(__file__).with_name("warm_libraries.py")
    done = run(f'exec {sys.executable} -P {client} client {tmp_path}/none.sock "$@"', "3", package, tmp_path)
    assert done.returncode == 3
    assert done.stdout.startswith(str(package / "decode" / "__init__.py"))
