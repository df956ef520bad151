"""The `--add-dir` step (lesson 17): folders besides the Workspace that the file tools may use.

Claude Code's "additional working directories". Each folder is given to the executor (`read`,
`write`, `edit`, `grep` and `glob` resolve paths in it as in the Workspace) and to the Permission
Gate (the mode judges a file there as one in the Workspace: reads run, writes ask in `default`
mode). Deny and ask rules, files that hold secrets (`.env`) and protected paths (`.git`,
`.decode`, `.claude`) stay what they are everywhere. Only the user adds a folder (the command
line, the REPL's `/add-dir`): nothing a repository holds can.

In a bwrap sandbox the folders are bound in, writable, as the Workspace is (their protected paths
read-only, their `.env` files hidden). docker and modal cannot take them yet: the run is refused
with one line (exit 2), never run with folders the sandbox cannot see.

`added_dir` checks a folder the user names (`--add-dir DIR`, the REPL's `/add-dir DIR`);
`add_dir_now` gives one to a conversation already built, as the REPL's `/add-dir` does. From
lesson 20 the session keeps its folders with each turn, and a resumed session's come back
(`resumed_dirs`), checked again.
"""

from pathlib import Path
from typing import TYPE_CHECKING

from decode.agent.build import Build
from decode.sandbox.executor import SandboxExecutor
from decode.sandbox.types import SandboxError
from decode.sandbox.workspace import discard_workspace

if TYPE_CHECKING:
    from decode.agent.compose import Conversation


class AddDirError(ValueError):
    """A folder that cannot be added; the message is one line naming it."""


def add_dirs(b: Build) -> None:
    """Give `--add-dir`'s folders to the executor, the sandbox and the gate."""
    folders = b.options.add_dirs
    # [lesson 20]
    # A resumed session's folders too (it keeps them with each turn), each once.
    folders = tuple(dict.fromkeys((*resumed_dirs(b), *folders)))
    b.session.add_dirs = [str(folder) for folder in folders]
    # [/lesson 20]
    if not folders:
        return
    if isinstance(b.executor, SandboxExecutor):
        from decode.sandbox.bwrap import BwrapBackend  # only a sandboxed session loads it

        backend = b.executor.backend
        if not isinstance(backend, BwrapBackend):
            if b.workspace is not None:  # [lesson 19]
                discard_workspace(b.workspace)  # a `--repo` clone made for a run that does not start
            raise SandboxError(
                f"--add-dir cannot be used with --sandbox {b.executor.mode} yet: its sandbox cannot see "
                "folders outside the Workspace (use --sandbox bwrap or none)"
            )
        backend.added = folders
    b.executor.more_roots = folders
    b.gate.more_roots = tuple(str(folder) for folder in folders)


def resumed_dirs(b: Build) -> list[Path]:  # [lesson 20]
    """The folders a resumed session ran with, each checked again as `--add-dir`'s are. One that is no
    longer there (or no longer allowed) is named in one line and skipped; a log the repository
    brought adds none (`b.planted`), and neither does a sandbox that cannot see them."""
    from decode.permissions.settings_files import SettingsProblem

    saved = b.session.add_dirs if b.options.resume is not None and not b.planted else []
    folders: list[Path] = []
    for value in saved:
        problem = ""
        if isinstance(b.executor, SandboxExecutor) and b.executor.mode not in ("none", "bwrap"):
            problem = f"not added: the {b.executor.mode} sandbox cannot see it"
        else:
            try:
                folders.append(added_dir(value, b.options.home, "the resumed session's folder"))
            except AddDirError as exc:
                problem = str(exc).removeprefix(f"the resumed session's folder {value}: ") + "; skipped"
        if problem:
            b.gate.problems.append(SettingsProblem(b.session.log.path, None, f"added folder {value}: {problem}"))
    return folders


def added_dir(value: str, cwd: Path, spelled: str = "--add-dir") -> Path:
    """`value` (relative to `cwd`, `~` expanded) as the real folder it names. `AddDirError` when it is
    none, or one that would open a sandbox (`/`, the home folder, `~/.ssh`, `/tmp`…)."""
    path = cwd / Path(value).expanduser()
    if not path.exists():
        raise AddDirError(f"{spelled} {value}: no such directory")
    if not path.is_dir():
        raise AddDirError(f"{spelled} {value}: not a directory")
    from decode.sandbox.host_view import not_addable

    if why := not_addable(path.resolve(), Path.home().resolve()):
        raise AddDirError(f"{spelled} {value}: refused, {why}")
    return path.resolve()


def add_dir_now(conversation: "Conversation", folder: Path) -> bool:
    """Give `folder` (checked by `added_dir`) to a built conversation's executor and gate; False when
    it has it already. `AddDirError` in a sandbox: its commands could not see a folder bound later."""
    executor = conversation.loop.deps.executor
    if isinstance(executor, SandboxExecutor):
        raise AddDirError(f"/add-dir cannot add a folder to a running {executor.mode} sandbox (start with --add-dir)")
    if folder in executor.more_roots or folder == executor.workspace:
        return False
    executor.more_roots = (*executor.more_roots, folder)
    conversation.gate.more_roots = (*conversation.gate.more_roots, str(folder))
    conversation.session.add_dirs.append(str(folder))  # kept with each turn: `--resume` brings it back  # [lesson 20]
    return True
