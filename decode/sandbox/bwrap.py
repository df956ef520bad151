"""The bubblewrap backend: each command in its own throw-away Linux namespaces, on this machine.

What a command inside sees (`sandbox_argv`):

- the host's `/` read-only (`--ro-bind / /`), with a fresh `/dev`, its own `/proc`, a private,
  empty `/tmp` that vanishes with it, and an empty `/run` (where host services' sockets live);
- the Workspace writable, at the same path (file tools then need no translation), except the
  protected paths (`decode/sandbox/protected.py`), bound read-only over it; one that does not
  exist yet gets `/dev/null` bound there, so it cannot be created, and the empty placeholder
  bwrap leaves on the host is removed once no sandboxed process is left;
- the user's home empty and read-only, but for the toolchains and paths bound back read-only
  (`decode/sandbox/host_view.py`); `.decode/` empty (but for `skills/`, `agents/`); every nested
  repository's `.git` read-only;
- `.env` files (the launch directory's and the Workspace's) replaced by nothing, and the usual
  credential files of a home that shows (`~/.ssh`, `~/.git-credentials`…): the rest of the host
  is readable;
- no network (`--unshare-net`: only a loopback of its own) unless this one command may have it;
  its own pid, IPC and hostname namespaces, no capabilities, a new session (no terminal to type
  into), and death with decode (`--die-with-parent`).

The environment reaches the command through bwrap's own (never `--setenv`, whose values would
show in the process list). bwrap runs under `run_process`, so timeouts and leftovers are handled
as for any command: killing bwrap, pid 1 of the namespace, kills everything in it; what a command
left when it exited is ended and reported from inside (`cold_leftovers.py`).
"""

import asyncio
import contextlib
import functools
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path

from decode.config.settings import Settings
from decode.entities.executor import ExecRequest, ExecResult, Process
from decode.processes.run import run_process
from decode.processes.spawn import SpawnedProcess, spawn_process
from decode.sandbox.cold_leftovers import left_report
from decode.sandbox.host_view import NO_VIEW, HostView, hidden_paths, host_view, within
from decode.sandbox.protected import PROTECTED, protected_paths
from decode.sandbox.types import SandboxError, SandboxMode, refuse_nul
from decode.sandbox.warm_keeper import WarmKeeper

PREFLIGHT_TIMEOUT_S = 10.0
KERNEL_PROC_PATHS = ("/proc/sys", "/proc/sysrq-trigger", "/proc/irq", "/proc/bus", "/proc/fs")
"""Parts of /proc that change the host's kernel, not the sandbox's processes."""
VIEW_INLINE_S = 0.002
"""A view worked out quicker than this last time is worked out on the event loop: a thread's two
hand-offs cost more than that on a busy machine. A longer walk (a big Workspace) goes to a thread."""


@functools.cache
def python_under_tmp() -> tuple[Path, ...]:
    """decode's own Python (its venv, its interpreter) where it lives under `/tmp`, which the sandbox
    replaces with an empty one: the tools decode starts from there (`rg`, `ty`, an MCP server in
    the venv) must still run inside. Worked out once: decode's own Python does not move."""
    tmp = Path("/tmp")
    places = {Path(sys.prefix), Path(sys.base_prefix), Path(os.path.realpath(sys.executable)).parent.parent}
    return tuple(sorted(place for place in places if within(place, tmp) and place != tmp))


def configured_hidden(paths: Sequence[Path], workspace: Path) -> list[Path]:  # [lesson 24]
    """The `sandbox_hide` paths that exist, resolved; never the Workspace or a folder above it,
    which would hide the work itself (its own files can be hidden)."""
    found = []
    for path in paths:
        real = Path(os.path.realpath(path))
        if os.path.lexists(real) and not workspace.is_relative_to(real):
            found.append(real)
    return found


def sandbox_argv(
    bwrap: str,
    argv: Sequence[str],
    *,
    workspace: Path,
    cwd: Path,
    network: bool,
    hidden: Sequence[Path] = (),
    placeholders: Sequence[Path] = (),
    shared: Sequence[Path] = (),
    view: HostView = NO_VIEW,
    added: Sequence[Path] = (),
) -> list[str]:
    """The bwrap command line that runs `argv` in the sandbox (see the module docstring).

    `placeholders`: protected paths that do not exist yet, made uncreatable with `/dev/null`;
    `shared`: host files the command reads at the same path (under `/tmp` too); `view`: the home
    and `.decode/` masked, what is bound back, nested `.git` read-only (`decode/sandbox/host_view.py`).
    """
    args = [bwrap, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"]
    # A fresh /proc is writable where the kernel's own settings live: as root, `kernel.core_pattern`
    # alone runs a program on the host. Read-only, as Docker masks them.
    for kernel in KERNEL_PROC_PATHS:
        args += ["--ro-bind-try", kernel, kernel]
    # Host services listen on sockets in /run (docker.sock: root on the host; D-Bus, containerd), and
    # a read-only bind does not stop connect(): hidden, but for the resolver's file if it lives there.
    args += ["--tmpfs", "/run", *_resolver_binds()]
    # A later mount covers an earlier one: what is around the Workspace (the home) before it, what is
    # in it (`.decode/`) after it; what a mask lets through after the mask.
    args += _view_mounts(view, inside=False, workspace=workspace)
    # `--add-dir` folders before the rest: a folder around the Workspace (`..`) never covers its
    # protected paths, nor a home credential the `hidden` below hides.
    args += _added_mounts(added)
    for path in shared:
        args += ["--ro-bind", str(path), str(path)]
    for path in hidden:  # before the Workspace bind: a hidden file inside it stays hidden
        args += ["--tmpfs", str(path)] if path.is_dir() else ["--ro-bind", "/dev/null", str(path)]
    args += ["--bind", str(workspace), str(workspace)]
    if (git := workspace / ".git").is_dir():
        # A mount point cannot be renamed: without this, `mv .git x && mkdir .git` would make a
        # repository whose config (not protected) host-side git then reads.
        args += ["--bind", str(git), str(git)]
    for path in protected_paths(workspace):
        if path in view.masked:
            continue
        if path in placeholders:
            args += ["--ro-bind", "/dev/null", str(path)]
        elif os.path.lexists(path):
            args += ["--ro-bind", str(path), str(path)]
    args += _view_mounts(view, inside=True, workspace=workspace)
    for path in hidden:  # and again on top of the Workspace, for `.env` inside it
        if within(path, workspace):
            args += ["--tmpfs", str(path)] if path.is_dir() else ["--ro-bind", "/dev/null", str(path)]
    for path in view.masked:  # read-only once everything below them is mounted
        args += ["--remount-ro", str(path)]
    args += ["--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try"]
    if not network:
        args.append("--unshare-net")
    args += ["--cap-drop", "ALL", "--die-with-parent", "--new-session", "--chdir", str(cwd), "--", *argv]
    return args


def _added_mounts(added: Sequence[Path]) -> list[str]:
    """`--add-dir`'s folders, writable as the Workspace is (one in the masked home shows); their
    protected paths that exist read-only, their `.env` files hidden."""
    args: list[str] = []
    for folder in added:
        args += ["--bind", str(folder), str(folder)]
        for path in protected_paths(folder):
            if os.path.lexists(path):
                args += ["--ro-bind", str(path), str(path)]
        for path in hidden_paths(folder, folder / ".env", None):
            args += ["--tmpfs", str(path)] if path.is_dir() else ["--ro-bind", "/dev/null", str(path)]
    return args


def _view_mounts(view: HostView, *, inside: bool, workspace: Path) -> list[str]:
    """The masks, what is bound back under them, and nested `.git`, in or around the Workspace."""
    args: list[str] = []
    for path in view.masked:
        if _inside(path, workspace) is inside:
            args += ["--tmpfs", str(path)]
    for path in (*view.revealed, *(view.read_only if inside else ())):
        if _inside(path, workspace) is inside:
            args += ["--ro-bind", str(path), str(path)]
    return args


def _inside(path: Path, workspace: Path) -> bool:
    return within(path, workspace) and path != workspace


class BwrapBackend:
    """Commands in bubblewrap on this machine; the Workspace bind-mounted at its own path."""

    mode = SandboxMode.BWRAP

    def __init__(self, workspace: Path, settings: Settings) -> None:
        self.workspace = workspace
        self.host_workspace: Path | None = workspace
        self.settings = settings
        self.bwrap = "bwrap"
        self._spawned: list[SpawnedProcess] = []
        self._exclude: Path | None = None
        self._starting = 0  # commands running and servers being spawned: they hold the placeholders
        self._placeholders: set[Path] = set()
        self.warm = WarmKeeper()  # [lesson 18]
        """The warm sandbox commands without network run in (ADR-0111)."""
        self._view_s = 0.0
        self.added: tuple[Path, ...] = ()  # `--add-dir` folders, bound in writable

    def preflight(self) -> None:
        found = shutil.which("bwrap")
        if found is None:
            raise SandboxError(
                "--sandbox bwrap: `bwrap` is not on PATH. Install bubblewrap (Debian/Ubuntu: "
                "`apt install bubblewrap`), or choose another --sandbox. decode does not run unsandboxed instead."
            )
        self.bwrap = found
        probe = sandbox_argv(
            found, ["true"], workspace=self.workspace, cwd=self.workspace, network=False, view=self.view()
        )
        try:
            done = subprocess.run(probe, capture_output=True, timeout=PREFLIGHT_TIMEOUT_S, check=False, env={})
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise SandboxError(f"--sandbox bwrap: bubblewrap could not run: {exc}") from exc
        if done.returncode != 0:
            why = done.stderr.decode("utf-8", errors="replace").strip() or f"exit code {done.returncode}"
            raise SandboxError(
                f"--sandbox bwrap: bubblewrap cannot create a sandbox here: {why}. It needs user namespaces "
                "(or root); inside a container, run that container with them allowed."
            )

    async def start(self) -> None:
        # Protected directories that decode itself would create anyway exist before any command,
        # so they are bound read-only (not left creatable, not placeholder files).
        with contextlib.suppress(OSError):
            (self.workspace / ".decode").mkdir(exist_ok=True)
            if (self.workspace / ".git").is_dir():
                (self.workspace / ".git" / "hooks").mkdir(exist_ok=True)
        if self._exclude is None:
            # Placeholders are device nodes: `git add -A` inside would fail on them. Git ignores them.
            fd, name = tempfile.mkstemp(prefix="decode-sandbox-", suffix=".gitignore")
            with os.fdopen(fd, "w") as handle:
                handle.write("".join(f"{name}\n" for name in PROTECTED if "/" not in name))
            self._exclude = Path(name)

    def _environment(self, env: Mapping[str, str]) -> dict[str, str]:
        """`env` plus what git inside needs: the placeholders ignored, a parent repository found."""
        extra = {"GIT_DISCOVERY_ACROSS_FILESYSTEM": "1"}  # the Workspace is a mount point
        if self._exclude is not None:
            extra |= {"GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "core.excludesFile"}
            extra["GIT_CONFIG_VALUE_0"] = str(self._exclude)
        return {**env, **extra}

    def view(self) -> HostView:
        """The home and `.decode/` masked, nested `.git` read-only: looked at again for every command,
        so a repository made by one command is read-only in the next."""
        home = os.environ.get("HOME")
        launch = self.settings.env_file.parent
        return host_view(self.workspace, launch, Path(home) if home else None, tuple(self.settings.sandbox_home_paths))

    def _timed_view(self) -> HostView:
        """`view`, timed: a quick one is worked out on the event loop next time (`VIEW_INLINE_S`)."""
        started = time.perf_counter()
        try:
            return self.view()
        finally:
            self._view_s = time.perf_counter() - started

    def _argv(
        self, argv: Sequence[str], cwd: Path, network: bool, view: HostView, *, placeholders: bool = True
    ) -> tuple[list[str], list[Path]]:
        """The cold sandbox's command line for `argv`, and the placeholders it makes (with
        `placeholders=False`, none: the warm sandbox's view, whose runner makes them per command)."""
        home = os.environ.get("HOME")
        hidden = hidden_paths(self.workspace, self.settings.env_file, Path(home) if home else None)
        hidden += configured_hidden(self.settings.sandbox_hide, self.workspace)  # [lesson 24]
        # Under a masked home only what is bound back needs hiding again (`~/.config/gh` in an added `~/.config`).
        hidden = [path for path in hidden if _shown(path, view)]
        # A placeholder another command holds is absent still: this one makes it its own (the warm
        # view, keyed by this command line, stays the same while commands run at once).
        absent = [path for path in protected_paths(self.workspace) if not os.path.lexists(path) or self._holds(path)]
        args = sandbox_argv(
            self.bwrap,
            argv,
            workspace=self.workspace,
            cwd=cwd,
            network=network,
            hidden=hidden,
            placeholders=absent if placeholders else (),
            shared=[*([self._exclude] if self._exclude is not None else []), *python_under_tmp()],
            view=view,
            added=self.added,
        )
        return (args if placeholders else unbound(args, absent)), absent

    async def run(self, request: ExecRequest) -> ExecResult:
        (cwd, env), argv = request.place(), request.argv
        refuse_nul(argv, env, cwd)  # alike warm and cold: the warm runner would find out too late
        self._starting += 1
        try:
            view = self._timed_view() if self._view_s < VIEW_INLINE_S else await asyncio.to_thread(self._timed_view)
        except BaseException:
            self._starting -= 1
            raise
        try:
            if not request.network:  # a command given the network runs cold, in a namespace of its own  # [lesson 18]
                view_args, placeholders = self._argv([], self.workspace, False, view, placeholders=False)
                if (warm := await self.warm.sandbox(view_args)) is not None:
                    self._placeholders.update(placeholders)
                    done = await warm.run(replace(request, env=self._environment(env)), placeholders)
                    if done is not None:
                        return done
            args, placeholders = self._argv(argv, cwd, request.network, view)
            self._placeholders.update(placeholders)
            # What the command left, bwrap's pid 1 ends, maybe before decode looks; and decode may find
            # that pid 1 still exiting and count it: only the inside knows (`cold_leftovers.py`).
            with left_report() as report:
                done = await run_process(replace(request, argv=report.argv(args), env=self._environment(env)))
                return done if done.timed_out else replace(done, stopped_leftovers=report.left())
        finally:
            self._starting -= 1
            self._release_placeholders()

    async def spawn(self, argv: Sequence[str], *, cwd: Path, env: Mapping[str, str]) -> Process:
        refuse_nul(argv, env, cwd)
        self._starting += 1
        try:
            view = await asyncio.to_thread(self._timed_view)
            args, placeholders = self._argv(argv, cwd, False, view)  # its placeholders stay while it runs
            self._placeholders.update(placeholders)
            process = await spawn_process(args, cwd=cwd, env=self._environment(env))
            self._spawned.append(process)
        finally:
            self._starting -= 1
        return process

    def _holds(self, path: Path) -> bool:
        return path in self._placeholders and _is_placeholder(path)

    def _release_placeholders(self) -> None:
        """Remove the placeholders once no sandboxed process is left: every sandbox binds the ones
        it finds, and unlinking a file unbinds it in every sandbox (then it could be created there)."""
        if self._starting or any(process.returncode is None for process in self._spawned):
            return
        _remove_placeholders(sorted(self._placeholders))
        self._placeholders.clear()

    async def close(self) -> None:
        spawned, self._spawned = self._spawned, []
        for process in spawned:
            if process.returncode is None:
                process.kill()
        for process in spawned:
            with contextlib.suppress(ProcessLookupError):
                await process.wait()
        await self.warm.close()  # [lesson 18]
        _remove_placeholders(sorted(self._placeholders))  # only what bwrap made: a user's empty file stays
        self._placeholders.clear()
        if self._exclude is not None:
            self._exclude.unlink(missing_ok=True)
            self._exclude = None


def unbound(args: Sequence[str], paths: Sequence[Path]) -> list[str]:
    """`args` without the read-only bind of each of `paths` over itself (a placeholder another
    command holds: the warm sandbox's runner covers it per command)."""
    names, kept, at = {str(path) for path in paths}, [], 0
    while at < len(args):
        if args[at] == "--ro-bind" and at + 2 < len(args) and args[at + 1] == args[at + 2] in names:
            at += 3
            continue
        kept.append(args[at])
        at += 1
    return kept


def _shown(path: Path, view: HostView) -> bool:
    """Is `path` visible inside before it is hidden: not under a mask, or under what is bound back?"""
    if not any(within(path, mask) for mask in view.masked):
        return True
    return any(within(path, shown) for shown in view.revealed)


def _resolver_binds() -> list[str]:
    """`/etc/resolv.conf`'s target, bound back when it is under the hidden /run (systemd-resolved)."""
    target = os.path.realpath("/etc/resolv.conf")
    if target.startswith("/run/") and os.path.isfile(target):
        return ["--ro-bind", target, target]
    return []


def _is_placeholder(path: Path) -> bool:
    """An empty regular file bwrap made as a mount point for `/dev/null`."""
    try:
        info = path.lstat()
    except OSError:
        return False
    return info.st_size == 0 and path.is_file() and not path.is_symlink()


def _remove_placeholders(paths: Sequence[Path]) -> None:
    for path in paths:
        if _is_placeholder(path):
            with contextlib.suppress(OSError):
                path.unlink()
