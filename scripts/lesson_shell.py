"""Lesson NN's decode where a learner types: a shell, a script, a notebook kernel (`scripts/lesson`).

    scripts/lesson shell NN                 a shell (your $SHELL, or bash) whose `decode` and `python`
                                            are lesson NN's package, in a fresh scratch folder
                                            (an empty git checkout, as a project usually is)
    scripts/lesson shell NN -c 'COMMANDS'   the same, non-interactive: `bash -o pipefail -c COMMANDS`
    scripts/lesson lab [--lesson NN]        JupyterLab whose kernels run each notebook on its own
                                            lesson's package (every notebook on NN's with NN)
    scripts/lesson kernel [NN] -f FILE      that kernel (Jupyter starts it in the notebook's folder)

The snapshot is written under `.lessons/NN/decode` and rewritten only when the sources changed (a
stamp records what it was written from, and what it wrote). Beside it, `bin/decode` runs it:
`python -P -m decode` with the snapshot first on PYTHONPATH, so `decode` means lesson NN's package
in any folder. In the shell, `$LESSON` is the lesson's folder (for the files a README's "try it"
blocks use), PATH starts with that `bin/` then the project's `.venv/bin`, and the prompt names the
lesson. `LESSON_PYTHON` names another interpreter for `bin/decode` (the README test's, forked from
a warm process: ADR-0106); the program it runs is the same.
"""

import argparse
import fcntl
import hashlib
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LESSONS = ROOT / "lessons"
SNAPSHOTS = ROOT / ".lessons"
# The project's interpreter: `scripts/lesson` may run on another (its `#!` is python3).
VENV_BIN = ROOT / ".venv" / "bin" if (ROOT / ".venv" / "bin" / "python").exists() else Path(sys.executable).parent
# What a snapshot is rendered from: when none of it changed, the snapshot on disk is current.
SOURCES = [ROOT / "scripts" / "lesson", ROOT / "scripts" / "lesson_markers.py", ROOT / "pyproject.toml"]

Write = Callable[[int, Path], None]  # scripts/lesson's write_snapshot(lesson, folder)


class ShellError(Exception):
    """A lesson environment that cannot be set up; its message is the one line the user sees."""


def _digest(files: list[Path], base: Path) -> str:
    hashed = hashlib.sha256()
    for path in files:
        hashed.update(path.relative_to(base).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return hashed.hexdigest()


def _package_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts)


def sources_digest() -> str:
    """A digest of everything a snapshot is rendered from: the package, the manifests, the scripts."""
    files = _package_files(ROOT / "decode") + sorted(LESSONS.glob("[0-9][0-9]-*/lesson.toml")) + SOURCES
    return _digest(files, ROOT)


def prepare(lesson: int, folder: Path, write: Write) -> Path:
    """`folder/decode`: lesson `lesson`'s package, written if its sources changed; and `folder/bin/decode`.

    A package changed since it was written, into something no rendering gives, is left alone: the
    learner's edits are theirs. One `make lesson-snapshot` wrote is taken as it is.
    """
    folder.mkdir(parents=True, exist_ok=True)
    package, stamp = folder / "decode", folder / ".stamp"
    with open(folder / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # two shells (or a shell and a test) of one lesson at once
        sources = sources_digest()
        recorded = stamp.read_text().split() if stamp.exists() else []
        written = _digest(_package_files(package), folder) if package.is_dir() else None
        if len(recorded) != 2 or recorded != [sources, written]:
            _refresh(lesson, folder, write, sources, written, recorded[1:2])
        _write_if_changed(folder / "bin" / "decode", _launcher(lesson, folder))
    return folder


def _refresh(lesson: int, folder: Path, write: Write, sources: str, written: str | None, recorded: list[str]) -> None:
    """Render the snapshot afresh; put it in place unless the one there is neither it nor what was written."""
    package, fresh = folder / "decode", Path(tempfile.mkdtemp(prefix=".new-", dir=folder))
    try:
        write(lesson, fresh)
        rendered = _digest(_package_files(fresh / "decode"), fresh)
        if written not in (None, rendered, *recorded) and recorded:
            raise ShellError(f"{package} was changed since it was written: move it away to get lesson {lesson:02}'s")
        if written != rendered:
            shutil.rmtree(package, ignore_errors=True)
            (fresh / "decode").rename(package)
        (folder / ".stamp").write_text(f"{sources} {rendered}\n")
    finally:
        shutil.rmtree(fresh, ignore_errors=True)


def _launcher(lesson: int, folder: Path) -> str:
    return (
        f"#!/bin/sh\n# Lesson {lesson:02}'s decode: {folder / 'decode'}, on the project's libraries"
        " (scripts/lesson shell).\n"
        f'PYTHONPATH={shlex.quote(str(folder))}"${{PYTHONPATH:+:$PYTHONPATH}}" '
        f'exec "${{LESSON_PYTHON:-{VENV_BIN / "python"}}}" -P -m decode "$@"\n'
    )


def _write_if_changed(path: Path, text: str) -> None:
    """Replace `path` in one step (a shell may be starting it), and only when its text changes."""
    if path.is_file() and path.read_text() == text:
        return
    path.parent.mkdir(exist_ok=True)
    new = path.with_name(f".{path.name}.new")
    new.write_text(text)
    new.chmod(0o755)
    new.replace(path)


def lesson_folder(lesson: int) -> Path:
    found = sorted(LESSONS.glob(f"{lesson:02}-*/lesson.toml"))
    if not found:
        raise ShellError(f"lesson {lesson:02} does not exist")
    return found[0].parent


def environment(lesson: int, folder: Path) -> dict[str, str]:
    """This process's environment with lesson `lesson`'s decode and python first, and `$LESSON`."""
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(folder / "bin"), str(VENV_BIN), env.get("PATH", "")])
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(folder), env.get("PYTHONPATH", "")]))
    env["LESSON"] = str(lesson_folder(lesson))
    return env


def _start_files(lesson: int, folder: Path, env: dict[str, str]) -> list[str]:
    """The shell to start, its start-up file written to put the lesson first again after the user's own
    (a `~/.bashrc` may put pyenv or conda ahead of it), with pipefail as the READMEs' `(exit N)` assume."""
    shell = env.get("SHELL") or "bash"
    prompt = f"(lesson {lesson:02}) "
    first = f"{shlex.quote(str(folder / 'bin'))}:{shlex.quote(str(VENV_BIN))}"
    again = f'export PATH={first}:"$PATH" PYTHONPATH={shlex.quote(str(folder))}"${{PYTHONPATH:+:$PYTHONPATH}}"\n'
    name = Path(shell).name
    if name == "bash":
        rc = folder / "bashrc"
        rc.write_text(f'[ -f ~/.bashrc ] && . ~/.bashrc\n{again}PS1="{prompt}$PS1"\nset -o pipefail\n')
        return [shell, "--rcfile", str(rc), "-i"]
    if name == "zsh":
        zdot = folder / "zsh"
        zdot.mkdir(exist_ok=True)
        (zdot / ".zshenv").write_text("[ -f ~/.zshenv ] && . ~/.zshenv\n")
        (zdot / ".zshrc").write_text(
            f'ZDOTDIR="$HOME"\n[ -f ~/.zshrc ] && . ~/.zshrc\n{again}PROMPT="{prompt}$PROMPT"\nsetopt pipefail\n'
        )
        env["ZDOTDIR"] = str(zdot)
        return [shell, "-i"]
    env["PS1"] = prompt + env.get("PS1", "$ ")  # sh, dash, ksh read it; other shells keep their prompt
    return [shell, "-i"]


def _scratch_checkout(lesson: int) -> Path:
    """A new empty folder, a git checkout as a project usually is: an untracked local settings file
    there is the learner's own (in a folder git does not know, it is an archive's until trusted)."""
    scratch = Path(tempfile.mkdtemp(prefix=f"decode-lesson{lesson:02}-"))
    if shutil.which("git"):
        subprocess.run(["git", "init", "-q"], cwd=scratch, check=False)
    return scratch


def shell(lesson: int, write: Write, *, command: str | None, directory: Path | None, snapshots: Path) -> int:
    """Run `command` (or an interactive shell) with lesson `lesson`'s decode; its exit code."""
    folder = prepare(lesson, snapshots / f"{lesson:02}", write)
    env = environment(lesson, folder)
    scratch = None if directory else _scratch_checkout(lesson)
    where = directory or scratch
    assert where is not None
    try:
        if command is not None:
            return subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=where, env=env).returncode
        argv = _start_files(lesson, folder, env)
        settings = sorted(name for name in env if name.startswith("DECODE_"))
        print(
            f"Lesson {lesson:02}'s decode and python ({folder / 'decode'}); $LESSON is {env['LESSON']}.\n"
            + (f"A scratch folder, removed when you leave: {where}" if scratch else f"In {where}")
            + " (`exit` to leave)."
            + (f"\nYour {', '.join(settings)} apply here too; the READMEs assume none is set." if settings else ""),
            file=sys.stderr,
        )
        return subprocess.run(argv, cwd=where, env=env).returncode
    finally:
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)


def notebook_lesson(folder: Path) -> int | None:
    """The lesson whose notebook lives in `folder` (`lessons/NN-topic`), or None."""
    if folder.parent == LESSONS and folder.name[:2].isdigit() and (folder / "lesson.toml").is_file():
        return int(folder.name[:2])
    return None


def kernel(lesson: int | None, connection: str, write: Write, snapshots: Path) -> int:
    """Become an IPython kernel on a lesson's package: `lesson`'s, else that of the notebook's folder."""
    here = Path.cwd().resolve()
    number = lesson if lesson is not None else notebook_lesson(here)
    path = [str(LESSONS)] + ([str(here)] if notebook_lesson(here) is not None else [])
    env = {name: value for name, value in os.environ.items() if name != "COURSE_LESSON"}
    if number is not None:
        path.insert(0, str(prepare(number, snapshots / f"{number:02}", write)))
        env["COURSE_LESSON"] = f"{number:02}"  # lessons/course.py checks the kernel imports that snapshot
    env["PYTHONPATH"] = os.pathsep.join(path)
    python = str(VENV_BIN / "python")
    os.execve(python, [python, "-m", "ipykernel_launcher", "-f", connection], env)
    return 1  # not reached


def kernel_spec(folder: Path, lesson: int | None, snapshots: Path) -> Path:
    """A `python3` kernelspec under `folder/kernels/`, which JupyterLab picks over the default one."""
    spec = folder / "kernels" / "python3"
    spec.mkdir(parents=True, exist_ok=True)
    argv = [str(VENV_BIN / "python"), str(ROOT / "scripts" / "lesson"), "kernel", "--snapshots", str(snapshots)]
    argv += [f"{lesson:02}"] if lesson is not None else []
    display = f"lesson {lesson:02}'s decode" if lesson is not None else "each notebook on its lesson's decode"
    data = {"argv": [*argv, "-f", "{connection_file}"], "display_name": f"Python 3 ({display})", "language": "python"}
    (spec / "kernel.json").write_text(json.dumps(data, indent=1) + "\n")
    return folder


def lab(lesson: int | None, arguments: list[str]) -> int:
    """JupyterLab on `lessons/`, its default kernel ours (JUPYTER_PATH comes first)."""
    jupyter = kernel_spec(SNAPSHOTS / "jupyter", lesson, SNAPSHOTS)
    env = dict(os.environ)
    env["JUPYTER_PATH"] = os.pathsep.join(filter(None, [str(jupyter), env.get("JUPYTER_PATH", "")]))
    command = [str(VENV_BIN / "jupyter"), "lab", f"--ServerApp.root_dir={LESSONS}", *arguments]
    return subprocess.run(command, env=env).returncode


def add_commands(commands: "argparse._SubParsersAction[argparse.ArgumentParser]", number: type) -> None:
    """The verbs of this module, on `scripts/lesson`'s parser (`number` parses a lesson number)."""
    verb = commands.add_parser("shell", help="a shell (or -c COMMANDS) whose decode and python are lesson NN's")
    verb.add_argument("lesson", type=number)
    verb.add_argument("-c", dest="shell_command", metavar="COMMANDS", help="run COMMANDS with bash instead")
    verb.add_argument("--dir", type=Path, help="start in DIR (default: a new scratch folder, removed after)")
    verb.add_argument("--snapshots", type=Path, default=SNAPSHOTS, help="where snapshots go (default .lessons)")
    verb = commands.add_parser("lab", help="JupyterLab, each notebook on its lesson's package (all on NN's with NN)")
    verb.add_argument("--lesson", type=number, help="every notebook on lesson NN's package")
    verb.add_argument("lab_arguments", nargs=argparse.REMAINDER, help="for jupyter lab, after --")
    verb = commands.add_parser("kernel", help="the kernel `lab` starts, in the notebook's folder")
    verb.add_argument("lesson", type=number, nargs="?")
    verb.add_argument("-f", dest="connection", required=True, help="the connection file Jupyter gives")
    verb.add_argument("--snapshots", type=Path, default=SNAPSHOTS)


def run(arguments: argparse.Namespace, write: Write) -> int | None:
    """Run this module's verb, if `arguments` names one: its exit code; None for another verb."""
    try:
        if arguments.command == "shell":
            directory = arguments.dir.resolve() if arguments.dir else None
            if directory is not None and not directory.is_dir():
                raise ShellError(f"--dir {arguments.dir}: no such folder")
            lesson_folder(arguments.lesson)  # an unknown lesson: one line, before any snapshot
            options = {"command": arguments.shell_command, "directory": directory}
            return shell(arguments.lesson, write, **options, snapshots=arguments.snapshots.resolve())
        if arguments.command == "lab":
            return lab(arguments.lesson, [a for a in arguments.lab_arguments if a != "--"])
        if arguments.command == "kernel":
            return kernel(arguments.lesson, arguments.connection, write, arguments.snapshots.resolve())
    except ShellError as exc:
        print(f"scripts/lesson: {exc}", file=sys.stderr)
        return 1
    return None
