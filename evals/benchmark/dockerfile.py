"""What a task's `environment/Dockerfile` puts in its working directory, read without Docker.

    build = read_dockerfile(task.path / "environment")
    build.workdir        # "/app": where the agent starts, and what the verifier calls /app
    build.copies         # [Copy(source="src", target="/app/src")]: build-context files copied there

Terminal-Bench 2 and Harbor tasks have no `seed/` folder: their Dockerfile copies files from the
build context (`environment/`) into the image. Only `WORKDIR` and `COPY`/`ADD` of local files are
read; `RUN` lines (installing tools) are not run on this machine, which must already have what
the task's scripts use. A copy from another stage or a URL cannot be made here: it is refused.
"""

import json
import posixpath
import shlex
from dataclasses import dataclass, field
from pathlib import Path

DEFAULT_WORKDIR = "/app"
"""Terminal-Bench 2's working directory, used when the Dockerfile sets none."""


class DockerfileError(ValueError):
    """A Dockerfile line this reader cannot honour; the message names the file and the line."""


@dataclass(frozen=True)
class Copy:
    """One local `COPY`/`ADD`: a source inside the build context, its absolute target in the image."""

    source: str
    target: str
    into_folder: bool  # the target ends with "/" (or has several sources): sources go inside it


@dataclass(frozen=True)
class Build:
    """The working directory and the local copies of a Dockerfile, in order."""

    workdir: str = DEFAULT_WORKDIR
    copies: list[Copy] = field(default_factory=list)


def read_dockerfile(context: Path) -> Build:
    """The `Build` of `context/Dockerfile`; an empty one at `/app` when there is none."""
    path = context / "Dockerfile"
    if not path.is_file():
        return Build()
    workdir, copies = "/", []
    for number, line in _instructions(path.read_text(encoding="utf-8")):
        keyword, _, rest = line.partition(" ")
        keyword = keyword.upper()
        if keyword == "FROM":
            workdir = "/"  # a new stage starts at the root again
        elif keyword == "WORKDIR":
            workdir = posixpath.normpath(posixpath.join(workdir, rest.strip()))
        elif keyword in ("COPY", "ADD"):
            copies += _copies(rest, workdir, f"{path}:{number}")
    return Build(workdir=workdir if workdir != "/" else DEFAULT_WORKDIR, copies=copies)


def _instructions(text: str) -> list[tuple[int, str]]:
    """Each instruction with its first line number: comments dropped, `\\` continuations joined."""
    instructions, pending, start = [], "", 0
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not pending and (not line or line.startswith("#")):
            continue
        if not pending:
            start = number
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        instructions.append((start, pending + line))
        pending = ""
    if pending:
        instructions.append((start, pending))
    return instructions


def _copies(rest: str, workdir: str, where: str) -> list[Copy]:
    rest = rest.strip()
    words = json.loads(rest) if rest.startswith("[") else shlex.split(rest)
    flags = [word for word in words if word.startswith("--")]
    if any(flag.startswith("--from") for flag in flags):
        raise DockerfileError(f"{where}: a copy from another stage or image needs Docker")
    paths = [word for word in words if not word.startswith("--")]
    if len(paths) < 2:
        raise DockerfileError(f"{where}: COPY needs a source and a target")
    *sources, target = paths
    if any("://" in source for source in sources):
        raise DockerfileError(f"{where}: a copy from a URL needs the network")
    absolute = posixpath.normpath(posixpath.join(workdir, target))
    # Docker copies into a folder when the target says so or already is one (the working directory).
    into = target.endswith("/") or len(sources) > 1 or absolute == workdir
    return [Copy(source=source, target=absolute, into_folder=into) for source in sources]
