"""What a bind-mounting sandbox (bwrap, docker) shows of the host besides the Workspace (ADR-0086).

A list of secret places to hide is never complete: a new tool's token file is readable the day
it appears. So the user's home is turned round into an allow list. Inside, it is an empty,
read-only folder, into which only what a build needs is bound back read-only: the toolchains
that live there (`HOME_TOOLCHAINS`: pyenv's and uv's Pythons, `~/.local/bin`…), decode's own
Python when it lives there, and what the user adds with `DECODE_SANDBOX_HOME_PATHS`. Commands
get `HOME=/tmp` (`decode/sandbox/environment.py`), so nothing looks there by itself.

Two more views of the Workspace itself:

- decode's records (`.decode/`: sessions, saved output, memory, logs) are not readable: the
  folder is an empty one inside, but for what a team shares there for the agent to use
  (`skills/`, `agents/`, read-only). In a clone (`--repo`), the launch directory's `.decode/`
  around it too.
- every nested repository's `.git` (a folder, or a submodule's `.git` file) is read-only, found by
  a bounded walk (`nested_git`): the user's `git status` in the parent runs git in submodules,
  with their config.
"""

import contextlib
import functools
import logging
import os
import pwd
import stat
from collections import deque
from dataclasses import dataclass
from pathlib import Path

logger = logging.getLogger(__name__)

HOME_TOOLCHAINS = (
    ".local/bin",  # pipx, `uv tool install`, `pip install --user`: programs on PATH
    ".local/share/uv/python",  # uv's Pythons: a uv venv's `python` links here
    ".local/share/uv/tools",  # what `uv tool install` links into .local/bin
    ".pyenv",  # pyenv's shims (they name this folder) and Pythons
    ".nvm/versions",
    ".cargo/bin",  # `cargo install`ed programs (credentials live beside it, not in it)
    ".bun/bin",
    ".deno/bin",
    "go/bin",
)
"""Folders of the home bound back read-only by default: programs, never credentials or caches."""

HOME_CREDENTIALS = (
    ".ssh",
    ".gnupg",
    ".aws",
    ".azure",
    ".docker",
    ".kube",
    ".config/gh",
    ".config/gcloud",
    ".config/hub",
    ".git-credentials",
    ".config/git/credentials",  # git's second place for them
    ".netrc",
    ".pypirc",
    ".npmrc",
    ".modal.toml",
    ".decode",  # the user's mcp.json hands servers their tokens in `env`
    ".claude",
    ".codex",
    ".cache/huggingface",
    ".huggingface",
    ".kaggle",
    ".vault-token",
    ".terraform.d",
    ".cargo/credentials",
    ".cargo/credentials.toml",
    ".gem/credentials",
    ".pgpass",
    ".my.cnf",
    ".s3cfg",
    ".password-store",
    ".local/share/keyrings",
    ".config/op",
    ".config/rclone",
    ".gemini",
    ".config/opencode",
    ".local/share/opencode",
    ".config/github-copilot",
    # Start-up files, where keys are exported (`bash -c` reads none of them).
    ".profile",
    ".bashrc",
    ".bash_profile",
    ".zshrc",
    ".zshenv",
    ".zprofile",
    ".config/fish",
    ".bash_history",  # `export TOKEN=…` typed once stays here
    ".zsh_history",
    ".python_history",
)
"""Credential files of the home, hidden wherever the home shows: in a Workspace that is the home (or
holds it), and under what is bound back (`~/.config/gh` in an added `~/.config`)."""


RECORDS = ".decode"
SHARED_RECORDS = ("skills", "agents")
"""Entries of `.decode/` a team commits for the agent to use (skill scripts run inside): readable."""

NOT_HOMES = frozenset(map(Path, ("/", "/bin", "/boot", "/dev", "/etc", "/lib", "/lib64", "/opt", "/proc")))
NOT_HOMES |= frozenset(map(Path, ("/run", "/sbin", "/srv", "/sys", "/tmp", "/usr", "/var")))
"""A `HOME` set to a system folder is never masked: the sandbox could not run a program."""

NESTED_GIT_LIMIT = 2_000
"""Folders the walk for nested repositories visits, at most, per look (nearest the root first)."""
NESTED_GIT_SKIP = frozenset({".git", RECORDS, "node_modules", ".venv", "venv", "__pycache__", ".tox", ".nox"})
NESTED_GIT_SKIP |= frozenset({".mypy_cache", ".pytest_cache", ".ruff_cache"})


@dataclass(frozen=True)
class HostView:
    """Mounts beside the Workspace's: `masked` become empty and read-only, `revealed` are bound
    back read-only under them, `read_only` (nested `.git`) are bound read-only in the Workspace."""

    masked: tuple[Path, ...] = ()
    revealed: tuple[Path, ...] = ()
    read_only: tuple[Path, ...] = ()


NO_VIEW = HostView()
"""Nothing masked, bound back or made read-only: the host as it is (bwrap's preflight, tests)."""


def within(path: Path, folder: Path) -> bool:
    """`path.is_relative_to(folder)` (lexical, as pathlib's), at a fraction of its cost: the view is
    worked out before every command."""
    inner, outer = str(path), str(folder)
    return inner == outer or inner.startswith(outer if outer.endswith("/") else outer + "/")


SYSTEM_FOLDERS = tuple(map(Path, ("/proc", "/dev", "/sys", "/run", "/var/run")))
"""Folders of the machine's processes, devices and services' sockets: never `--add-dir` folders."""


def not_addable(folder: Path, home: Path | None) -> str | None:
    """Why `folder` (a real path) cannot be an `--add-dir` folder, or None. Bound writable into a
    sandbox, `/`, the home (or a folder above it) or `/tmp` would bring back what the sandbox hides:
    credentials, host services' sockets (a tmux server runs commands on the host), devices."""
    if folder == Path("/"):
        return "the whole machine"
    if folder in (Path("/tmp"), Path("/var/tmp")) or any(within(folder, system) for system in SYSTEM_FOLDERS):
        return "a system folder: its sockets and devices would reach the host's services"
    if home is not None and within(home, folder):
        return "it holds your home folder, and its credentials (~/.ssh, ~/.aws, …)"
    if home is not None and any(within(folder, home / name) for name in HOME_CREDENTIALS):
        return "it holds credentials"
    return None


def host_view(workspace: Path, launch: Path, home: Path | None, added: tuple[Path, ...] = ()) -> HostView:
    """bwrap's view for `workspace` (resolved), started from `launch`, whose user's home is `home`:
    the homes masked and their toolchains (and `added`) bound back, and `workspace_view`."""
    homes = masked_homes(workspace, home)
    inside = workspace_view(workspace, launch)
    revealed = [*home_revealed(homes, added), *own_python(homes), *inside.revealed]
    return HostView((*homes, *inside.masked), tuple(dict.fromkeys(revealed)), inside.read_only)


def workspace_view(workspace: Path, launch: Path) -> HostView:
    """`.decode/` masked but for what a team shares in it, and every nested `.git` read-only."""
    records = [folder for folder in records_folders(workspace, launch) if folder.is_dir()]
    shared = [folder / name for folder in records for name in SHARED_RECORDS if (folder / name).is_dir()]
    return HostView(tuple(records), tuple(shared), tuple(nested_git(workspace)))


def masked_homes(workspace: Path, home: Path | None) -> list[Path]:
    """The homes to show empty: `HOME` and the account's own (they differ under `sudo`, in tests),
    but never one the Workspace is, or is inside of (the user chose to work there), nor `/usr`…"""
    candidates = [home] if home is not None else []
    with contextlib.suppress(KeyError):  # a uid with no account (a container's --user) has none
        candidates.append(Path(pwd.getpwuid(os.getuid()).pw_dir))
    homes: list[Path] = []
    for candidate in candidates:
        real = Path(os.path.realpath(candidate))
        if real not in NOT_HOMES and not within(real, workspace) and real.is_dir() and real not in homes:
            homes.append(real)
    return homes


def home_revealed(homes: list[Path], added: tuple[Path, ...]) -> list[Path]:
    """What is bound back: each home's toolchains, and the added paths."""
    return [
        path for home in homes for place in under(home, HOME_TOOLCHAINS) for path in _existing(place)
    ] + added_paths(homes, added)


def added_paths(homes: list[Path], added: tuple[Path, ...]) -> list[Path]:
    """The existing `DECODE_SANDBOX_HOME_PATHS` (a relative one is under each home)."""
    paths = [path for path in added if path.is_absolute()]
    paths += [home / path for path in added if not path.is_absolute() for home in homes]
    return [found for path in paths for found in _existing(path)]


def own_python(homes: list[Path]) -> list[Path]:
    """decode's own Python (its venv, its interpreter) where a mask would cover it: the tools decode
    starts from there (`rg`, `ty`, an MCP server in the venv) must still run inside."""
    import sys

    places = {Path(sys.prefix), Path(sys.base_prefix), Path(os.path.realpath(sys.executable)).parent.parent}
    found = [Path(os.path.realpath(place)) for place in places]
    return sorted(place for place in found if any(within(place, home) for home in homes))


def records_folders(workspace: Path, launch: Path) -> list[Path]:
    """The `.decode/` folders a command could reach: the Workspace's, and the launch directory's
    when the Workspace is a clone inside it (`.decode/workspaces/<id>`)."""
    folders = [workspace / RECORDS]
    around = Path(os.path.realpath(launch)) / RECORDS
    if around != folders[0] and within(workspace, around):
        folders.insert(0, around)
    return folders


def private_records(workspace: Path) -> list[Path]:
    """The entries of the Workspace's `.decode/` a sandbox never gets (all but `SHARED_RECORDS`)."""
    try:
        return sorted(entry for entry in (workspace / RECORDS).iterdir() if entry.name not in SHARED_RECORDS)
    except OSError:
        return []


def nested_git(workspace: Path, limit: int = NESTED_GIT_LIMIT) -> list[Path]:
    """Every `.git` (folder or file) below the Workspace's root, breadth first; never through a
    symlink, never into `.git`, `.decode/`, `node_modules`, virtualenvs or caches. Past `limit`
    folders it stops, logs it, and returns what it found (the nearest ones)."""
    found: list[Path] = []
    queue, visited = deque([workspace]), 0
    while queue:
        if visited >= limit:
            logger.warning("stopped looking for nested repositories in %s after %d folders", workspace, limit)
            break
        folder = queue.popleft()
        visited += 1
        try:
            entries = sorted(os.scandir(folder), key=lambda entry: entry.name)
        except OSError:
            continue
        for entry in entries:
            if entry.name == ".git" and folder != workspace and not entry.is_symlink():
                found.append(Path(entry.path))
            elif entry.name not in NESTED_GIT_SKIP and entry.is_dir(follow_symlinks=False):
                queue.append(Path(entry.path))
    return found


def hidden_paths(workspace: Path, env_file: Path, home: Path | None) -> list[Path]:
    """Existing host paths a sandboxed command must not read: `.env` files and home credentials."""
    candidates: list[Path] = []
    for folder in {workspace, env_file.parent}:
        with contextlib.suppress(OSError):
            candidates += [entry for entry in folder.iterdir() if _env_file(entry.name)]
    if home is not None:
        candidates += under(home, HOME_CREDENTIALS)
    return [hidden for path in candidates if (hidden := _to_hide(path, workspace)) is not None]


def _to_hide(path: Path, workspace: Path) -> Path | None:
    """`path`, or for a symlink (`.env -> config/prod.env`) the file it leads to, which is what a
    read gets; None when nothing is there or the link leads to the Workspace or above it."""
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return None  # nothing there
    if not stat.S_ISLNK(mode):
        return path
    target = Path(os.path.realpath(path))
    if not target.exists() or within(workspace, target):
        return None
    return target


@functools.lru_cache(maxsize=8)
def under(home: Path, names: tuple[str, ...]) -> tuple[Path, ...]:
    """`home / name` for each of `names`, made once per home: the view is worked out per command."""
    return tuple(home / name for name in names)


def _env_file(name: str) -> bool:
    """`.env`, `.env.local`…, but not a template (`.env.example`) the project keeps in git."""
    if name != ".env" and not name.startswith(".env."):
        return False
    return name.rpartition(".")[2] not in {"example", "sample", "template", "dist"}


def _existing(path: Path) -> list[Path]:
    """`path` when something is there, and where its symlinks lead when that differs: both are
    bound, so a program found either way runs (pyenv's shims name the folder as written)."""
    path = Path(os.path.abspath(path.expanduser()))
    real = Path(os.path.realpath(path))
    if not real.exists():
        return []
    return [path] if real == path else [path, real]
