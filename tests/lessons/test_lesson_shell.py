"""`scripts/lesson shell` and `lab` (scripts/lesson_shell.py): lesson NN's decode where a learner types.

Real processes throughout: the verb as a subprocess, bash, `make`, a Jupyter kernel. Each test
writes its snapshots in its own folder, never the repository's `.lessons/`.
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import KernelManager

from tests.lessons.conftest import ROOT, lesson_script

LESSON = [sys.executable, str(ROOT / "scripts" / "lesson")]
shell_module = sys.modules["lesson_shell"]  # imported by scripts/lesson, beside it


def quiet(tmp_path: Path) -> dict[str, str]:
    """An environment with an empty HOME (no ~/.bashrc) and no PYTHONPATH of the caller's."""
    (tmp_path / "home").mkdir(exist_ok=True)
    environment = {**os.environ, "HOME": str(tmp_path / "home"), "SHELL": "/bin/bash"}
    environment.pop("PYTHONPATH", None)
    return environment


def test_the_shell_runs_commands_on_the_lessons_decode_and_python(tmp_path: Path) -> None:
    commands = 'command -v decode; python -c "import decode; print(decode.__file__)"; echo "$LESSON"; decode --help'
    done = subprocess.run(
        [*LESSON, "shell", "02", "--snapshots", str(tmp_path / "s"), "--dir", str(tmp_path), "-c", commands],
        env=quiet(tmp_path),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    which, module, lesson, *usage = done.stdout.splitlines()
    assert (which, module) == (f"{tmp_path}/s/02/bin/decode", f"{tmp_path}/s/02/decode/__init__.py")
    assert lesson == str(ROOT / "lessons" / "02-agent-loop")
    assert any(line.split()[:1] == ["run"] for line in usage)  # lesson 02's command
    assert not any("permissions" in line for line in usage)  # lesson 06's


def test_the_snapshot_is_written_once_and_a_changed_one_is_left_alone(tmp_path: Path) -> None:
    written: list[int] = []

    def write(lesson: int, folder: Path) -> None:
        written.append(lesson)
        lesson_script.write_snapshot(lesson, folder)

    folder = shell_module.prepare(1, tmp_path / "01", write)
    assert shell_module.prepare(1, tmp_path / "01", write) == folder
    assert written == [1]  # the second time, the stamp said the sources had not changed
    (folder / "decode" / "cli.py").write_text("# the learner's own\n")
    with pytest.raises(shell_module.ShellError, match="was changed since it was written"):
        shell_module.prepare(1, tmp_path / "01", write)
    assert (folder / "decode" / "cli.py").read_text() == "# the learner's own\n"
    (folder / ".stamp").write_text("older-sources older-snapshot\n")  # as if the sources had changed since
    with pytest.raises(shell_module.ShellError, match="was changed since it was written"):
        shell_module.prepare(1, tmp_path / "01", write)
    shutil.rmtree(folder / "decode")
    lesson_script.write_snapshot(1, folder)  # as `make lesson-snapshot N=01` writes it: taken as it is
    assert shell_module.prepare(1, tmp_path / "01", write) == folder
    assert (folder / "decode" / "cli.py").read_text() != "# the learner's own\n"


def test_the_interactive_shell_names_the_lesson_and_removes_its_scratch_folder(tmp_path: Path) -> None:
    environment = quiet(tmp_path)
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "python").symlink_to("/bin/false")  # what a ~/.bashrc (pyenv…) puts first
    (tmp_path / "elsewhere" / "mine").symlink_to("/bin/true")  # and a program of the user's own, kept
    (tmp_path / "home" / ".bashrc").write_text(f"export PATH={tmp_path}/elsewhere:$PATH\n")
    done = subprocess.run(
        [*LESSON, "shell", "01", "--snapshots", str(tmp_path / "s")],
        env=environment,
        input='python -c "import decode; print(decode.__file__)"\nmine && echo kept\n'
        'decode --version\necho "in $PWD"\nexit 3\n',
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 3, done.stderr
    assert "(lesson 01) " in done.stderr  # the prompt, which an interactive bash writes on stderr
    module, kept, version, where = done.stdout.splitlines()
    assert kept == "kept"
    assert module == f"{tmp_path}/s/01/decode/__init__.py"  # the lesson's python, after the user's start-up file
    assert version.startswith("decode ")
    assert "decode-lesson01-" in where
    assert not Path(where.removeprefix("in ")).exists()


def test_make_lesson_shell_hands_cmd_to_bash_as_written(tmp_path: Path) -> None:
    done = subprocess.run(
        ["make", "-s", "lesson-shell", "N=01", f"SNAPSHOTS={tmp_path}", 'CMD=echo "it\'s $LESSON" $(echo 1)'],
        cwd=ROOT,
        env=quiet(tmp_path),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"it's {ROOT / 'lessons' / '01-foundations'} 1\n"


@pytest.mark.parametrize(
    ("argv", "message"), [(["77"], "lesson 77 does not exist"), (["01", "--dir", "nowhere"], "--dir")]
)
def test_a_bad_lesson_or_folder_is_one_line(argv: list[str], message: str, tmp_path: Path) -> None:
    done = subprocess.run(
        [*LESSON, "shell", *argv, "--snapshots", str(tmp_path), "-c", "true"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1
    assert message in done.stderr
    assert len(done.stderr.splitlines()) == 1, done.stderr


def test_the_lab_kernel_runs_each_notebook_on_its_own_lessons_package(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What `make lab` starts: Jupyter's default kernel, ours by JUPYTER_PATH, in the notebook's folder."""
    folder = shell_module.kernel_spec(tmp_path / "jupyter", None, tmp_path / "snapshots")
    monkeypatch.setenv("JUPYTER_PATH", str(folder))  # as `scripts/lesson lab` starts JupyterLab
    specs = KernelSpecManager()
    assert specs.get_kernel_spec("python3").resource_dir == str(folder / "kernels" / "python3")
    manager = KernelManager(kernel_name="python3", kernel_spec_manager=specs)
    manager.start_kernel(cwd=str(ROOT / "lessons" / "02-agent-loop"), env=quiet(tmp_path))
    client = manager.client()
    client.start_channels()
    printed: list[str] = []
    try:
        client.wait_for_ready(timeout=120)
        code = "import course, decode, exercises; print(decode.__file__, course.LESSON, course.wrong_package())"
        reply = client.execute_interactive(
            code,
            timeout=120,
            output_hook=lambda message: printed.append(message["content"].get("text", "")),
        )
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)
    assert reply["content"]["status"] == "ok", reply["content"]
    assert "".join(printed) == f"{tmp_path}/snapshots/02/decode/__init__.py 2 None\n"


HELP = """
import asyncio, io, pathlib, tempfile
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from rich.console import Console
from decode.agent.options import LoopOptions
from decode.tui.app import Repl, repl_commands

async def main():
    screen, workspace = io.StringIO(), pathlib.Path(tempfile.mkdtemp())
    with create_pipe_input() as keyboard:
        console = Console(file=screen, width=200, force_terminal=False)
        repl = Repl(console=console, options=LoopOptions(workspace, model="test"), commands=repl_commands(),
                    history_file=workspace / "history", input=keyboard, output=DummyOutput())
        await repl.submit("/help")
    print(*(command.name for command in repl.commands))
    print(screen.getvalue())

asyncio.run(main())
"""
# What lessons after 03 bring to the REPL: none of it may be named in lesson 03's /help.
LATER = ("permission", "session", "sandbox", "skill", "mcp", "resume", "plan mode", "todo", "trust")


def test_lesson_03s_help_names_nothing_a_later_lesson_adds(tmp_path: Path) -> None:
    """`/help` as the lesson 03 REPL prints it (its registry, its keys), against the finished one's commands."""
    from decode.tui.app import repl_commands

    done = subprocess.run(
        [*LESSON, "shell", "03", "--snapshots", str(tmp_path / "s"), "--dir", str(tmp_path), "-c", "python -"],
        env=quiet(tmp_path),
        input=HELP,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    registered, shown = done.stdout.split("\n", 1)
    assert "/model [name]" in shown
    later = {command.name for command in repl_commands()} - set(registered.split())
    assert {"permissions", "resume"} <= later  # lessons 06 and 11
    named = [word for word in (*LATER, *(f"/{name}" for name in later)) if word in shown.lower()]
    assert not named, f"lesson 03's /help names what later lessons add: {named}\n{shown}"


def test_jupyterlabs_virtual_documents_are_ignored_by_git_and_ruff() -> None:
    """`make lab` leaves `lessons/.virtual_documents/` behind: `make lint-check` and `git status` skip it."""
    copy = "lessons/.virtual_documents/01-foundations/01-foundations.ipynb"
    assert subprocess.run(["git", "check-ignore", "-q", copy], cwd=ROOT).returncode == 0
    ruff = [
        str(Path(sys.executable).parent / "ruff"),
        "check",
        "--force-exclude",
        "--stdin-filename",
        copy[:-6] + ".py",
    ]
    done = subprocess.run([*ruff, "-"], cwd=ROOT, input="import os\n", capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout.strip()) == (0, "All checks passed!"), done.stdout
    elsewhere = subprocess.run([*ruff[:-1], "lessons/x.py", "-"], cwd=ROOT, input=b"import os\n", capture_output=True)
    assert elsewhere.returncode == 1  # the same unused import, outside the folder: reported
