"""The executor seam: the two methods a backend implements, and the file operations built on them.

`RunOnlyExecutor` (tests/unit/tools/conftest.py) implements only `run` and `spawn`, so each file
operation it performs is the seam's default (POSIX tools through `run`), here on the real
filesystem. Every test runs against it and against the local executor, whose direct I/O must give
the same answers: that is the contract a sandbox backend keeps.
"""

import inspect
import os
import stat
from pathlib import Path

import pytest

from decode.entities.executor import (
    READ_MANY_MAX_BYTES,
    READ_MANY_TOTAL_BYTES,
    CommandExecutor,
    DirEntry,
    EntryKind,
    ExecRequest,
    FileStat,
)
from decode.processes.local import LocalExecutor
from tests.unit.tools.conftest import EXECUTORS, RunOnlyExecutor

FILE_OPERATIONS = {
    "realpath",
    "stat",
    "stat_many",
    "list_dir",
    "list_tree",
    "read_bytes",
    "read_many",
    "write_atomic",
    "which",
}
SEAM = {name for name, member in vars(CommandExecutor).items() if inspect.isfunction(member) and name[0] != "_"}
# More bytes of paths than one command line holds (ARG_MAX is 2 MiB on Linux).
MANY = 20_000
root_reads_everything = pytest.mark.skipif(os.geteuid() == 0, reason="root may read a file without read permission")


@pytest.fixture(params=list(EXECUTORS))
def executor(request: pytest.FixtureRequest, tmp_path: Path) -> CommandExecutor:
    return EXECUTORS[request.param](tmp_path)


def test_a_backend_implements_run_and_spawn_and_inherits_every_file_operation() -> None:
    assert {"run", "spawn", *FILE_OPERATIONS} == SEAM
    assert CommandExecutor.__abstractmethods__ == {"run", "spawn"}
    with pytest.raises(TypeError, match="abstract"):
        CommandExecutor()  # type: ignore[abstract]
    assert not FILE_OPERATIONS & set(vars(RunOnlyExecutor))  # the tests below use the defaults
    for name in SEAM:
        assert inspect.iscoroutinefunction(getattr(CommandExecutor, name)), name
        expected = inspect.signature(getattr(CommandExecutor, name))
        actual = inspect.signature(vars(LocalExecutor)[name])  # the local executor overrides them all
        assert list(actual.parameters) == list(expected.parameters), name


def test_the_workspace_is_resolved(executor: CommandExecutor, tmp_path: Path) -> None:
    assert executor.workspace == tmp_path.resolve()


async def test_stat_of_a_file_a_directory_and_nothing(executor: CommandExecutor, tmp_path: Path) -> None:
    (tmp_path / "f.txt").write_text("hello")
    (tmp_path / "f.txt").chmod(0o640)
    os.utime(tmp_path / "f.txt", ns=(1_700_000_000_123_456_789, 1_700_000_000_123_456_789))
    file = await executor.stat(tmp_path / "f.txt")
    assert file == FileStat(EntryKind.FILE, size=5, mtime_ns=1_700_000_000_123_456_789, mode=0o100640)
    assert (file.is_file, file.is_dir) == (True, False)
    folder = await executor.stat(tmp_path)
    assert folder is not None
    assert (folder.kind, folder.is_dir, stat.S_ISDIR(folder.mode)) == (EntryKind.DIR, True, True)
    assert await executor.stat(tmp_path / "missing") is None
    assert await executor.stat(tmp_path / "f.txt/below") is None  # a file is not a directory


async def test_stat_follows_symlinks_and_tells_other_kinds(executor: CommandExecutor, tmp_path: Path) -> None:
    (tmp_path / "f.txt").write_text("x")
    (tmp_path / "link").symlink_to(tmp_path / "f.txt")
    (tmp_path / "dangling").symlink_to(tmp_path / "nowhere")
    os.mkfifo(tmp_path / "pipe")
    empty = tmp_path / "empty"
    empty.write_bytes(b"")
    link = await executor.stat(tmp_path / "link")
    assert link is not None
    assert (link.kind, link.size) == (EntryKind.FILE, 1)
    assert await executor.stat(tmp_path / "dangling") is None
    pipe = await executor.stat(tmp_path / "pipe")
    assert pipe is not None
    assert pipe.kind is EntryKind.OTHER
    assert await executor.stat(empty) == FileStat(EntryKind.FILE, 0, os.stat(empty).st_mtime_ns, os.stat(empty).st_mode)


async def test_stat_of_times_before_1970(executor: CommandExecutor, tmp_path: Path) -> None:
    old = tmp_path / "old.txt"
    old.write_text("")
    os.utime(old, ns=(-1_500_000_000, -1_500_000_000))  # 1969-12-31T23:59:58.5Z
    found = await executor.stat(old)
    assert found is not None
    assert found.mtime_ns == os.stat(old).st_mtime_ns == -1_500_000_000


async def test_stat_many_keeps_the_order_and_any_name(executor: CommandExecutor, tmp_path: Path) -> None:
    odd = tmp_path / "with space\tand\nnewline"
    odd.write_text("odd")
    (tmp_path / "b.txt").write_text("bb")
    found = await executor.stat_many([tmp_path / "b.txt", tmp_path / "missing", odd, tmp_path])
    assert [info.kind if info else None for info in found] == [EntryKind.FILE, None, EntryKind.FILE, EntryKind.DIR]
    assert [info.size for info in found if info and info.is_file] == [2, 3]
    assert await executor.stat_many([]) == []


async def test_stat_many_takes_more_paths_than_a_command_line_holds(executor: CommandExecutor, tmp_path: Path) -> None:
    (tmp_path / "real.txt").write_text("x")
    paths = [tmp_path / f"{'long-name-' * 10}{n}" for n in range(MANY)] + [tmp_path / "real.txt"]
    found = await executor.stat_many(paths)
    assert len(found) == MANY + 1
    assert found[:-1] == [None] * MANY
    assert found[-1] is not None


async def test_list_dir_names_each_entry_with_its_kind(executor: CommandExecutor, tmp_path: Path) -> None:
    (tmp_path / "f.txt").write_text("x")
    (tmp_path / "d").mkdir()
    (tmp_path / "d/inner.txt").write_text("x")
    (tmp_path / "to-file").symlink_to(tmp_path / "f.txt")
    (tmp_path / "to-dir").symlink_to(tmp_path / "d")
    (tmp_path / "dangling").symlink_to(tmp_path / "nowhere")
    (tmp_path / ".hidden").write_text("x")
    os.mkfifo(tmp_path / "pipe")
    assert sorted(await executor.list_dir(tmp_path), key=lambda entry: entry.name) == [
        DirEntry(".hidden", EntryKind.FILE),
        DirEntry("d", EntryKind.DIR),
        DirEntry("dangling", EntryKind.SYMLINK),
        DirEntry("f.txt", EntryKind.FILE),
        DirEntry("pipe", EntryKind.OTHER),
        DirEntry("to-dir", EntryKind.SYMLINK),  # reported as a symlink, not followed
        DirEntry("to-file", EntryKind.SYMLINK),
    ]
    assert await executor.list_dir(tmp_path / "to-dir") == [DirEntry("inner.txt", EntryKind.FILE)]
    with pytest.raises(OSError, match="No such file or directory"):
        await executor.list_dir(tmp_path / "missing")
    with pytest.raises(OSError, match="Not a directory"):
        await executor.list_dir(tmp_path / "f.txt")


async def test_list_tree_lists_git_but_does_not_enter_it(executor: CommandExecutor, tmp_path: Path) -> None:
    (tmp_path / ".git/objects").mkdir(parents=True)
    (tmp_path / ".git/HEAD").write_text("ref: refs/heads/main\n")
    (tmp_path / "src/pkg").mkdir(parents=True)
    (tmp_path / "src/pkg/a.py").write_text("")
    (tmp_path / "src/.gitignore").write_text("*.log\n")
    (tmp_path / "src/.git").write_text("gitdir: ../.git/modules/src\n")  # a submodule's .git is a file
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside/b.txt").write_text("")
    (tmp_path / "src/linked").symlink_to(tmp_path / "outside")
    assert sorted(await executor.list_tree(tmp_path)) == [
        (".git", EntryKind.DIR),
        ("outside", EntryKind.DIR),
        ("outside/b.txt", EntryKind.FILE),
        ("src", EntryKind.DIR),
        ("src/.git", EntryKind.FILE),
        ("src/.gitignore", EntryKind.FILE),
        ("src/linked", EntryKind.SYMLINK),  # not followed
        ("src/pkg", EntryKind.DIR),
        ("src/pkg/a.py", EntryKind.FILE),
    ]
    assert sorted(await executor.list_tree(tmp_path / "src/pkg")) == [("a.py", EntryKind.FILE)]
    assert await executor.list_tree(tmp_path / "missing") == []


@root_reads_everything
async def test_list_tree_skips_a_directory_it_cannot_read(executor: CommandExecutor, tmp_path: Path) -> None:
    (tmp_path / "locked").mkdir()
    (tmp_path / "locked/secret.txt").write_text("")
    (tmp_path / "open.txt").write_text("")
    (tmp_path / "locked").chmod(0)
    try:
        assert sorted(await executor.list_tree(tmp_path)) == [("locked", EntryKind.DIR), ("open.txt", EntryKind.FILE)]
    finally:
        (tmp_path / "locked").chmod(0o755)


async def test_read_bytes_reads_the_whole_file_or_a_range(executor: CommandExecutor, tmp_path: Path) -> None:
    data = bytes(range(256)) * 4096  # 1 MiB, every byte value, NULs and newlines included
    path = tmp_path / "data.bin"
    path.write_bytes(data)
    (tmp_path / "link").symlink_to(path)
    assert await executor.read_bytes(path) == data
    assert await executor.read_bytes(path, 1000) == data[1000:]
    assert await executor.read_bytes(path, 300_000, 70_000) == data[300_000:370_000]
    assert await executor.read_bytes(path, len(data) - 3, 100) == data[-3:]
    assert await executor.read_bytes(path, len(data) + 10, 100) == b""
    assert await executor.read_bytes(path, 0, 0) == b""
    assert await executor.read_bytes(tmp_path / "link", 0, 4) == data[:4]


@pytest.mark.parametrize("size", [None, 10])
async def test_read_bytes_of_nothing_or_a_directory_raises(
    executor: CommandExecutor, tmp_path: Path, size: int | None
) -> None:
    (tmp_path / "d").mkdir()
    with pytest.raises(OSError, match="No such file"):
        await executor.read_bytes(tmp_path / "missing", 0, size)
    with pytest.raises(OSError, match="Is a directory"):
        await executor.read_bytes(tmp_path / "d", 0, size)


async def test_read_many_reads_every_readable_file_and_leaves_the_rest_out(
    executor: CommandExecutor, tmp_path: Path
) -> None:
    (tmp_path / "a.txt").write_bytes(b"alpha\n")
    (tmp_path / "blob").write_bytes(b"\x00\xff\x00")
    (tmp_path / "empty").write_bytes(b"")
    (tmp_path / "d").mkdir()
    (tmp_path / "d/inside.txt").write_text("not asked for")
    (tmp_path / "alias").symlink_to(tmp_path / "a.txt")
    os.link(tmp_path / "a.txt", tmp_path / "second-name.txt")  # the same file under two names
    asked = ["a.txt", "blob", "empty", "d", "missing", "alias", "second-name.txt", "a.txt"]
    assert await executor.read_many([tmp_path / name for name in asked]) == {
        tmp_path / "a.txt": b"alpha\n",
        tmp_path / "blob": b"\x00\xff\x00",
        tmp_path / "empty": b"",
        tmp_path / "alias": b"alpha\n",  # a symlink is read through, as read_bytes reads it
        tmp_path / "second-name.txt": b"alpha\n",
    }
    assert await executor.read_many([]) == {}
    assert await executor.read_many([tmp_path / "missing"]) == {}


async def test_read_many_takes_more_paths_than_a_command_line_holds(executor: CommandExecutor, tmp_path: Path) -> None:
    (tmp_path / "real.txt").write_text("found")
    paths = [tmp_path / f"{'long-name-' * 10}{n}" for n in range(MANY)] + [tmp_path / "real.txt"]
    assert await executor.read_many(paths) == {tmp_path / "real.txt": b"found"}


async def test_read_many_leaves_out_a_planted_huge_or_endless_file(executor: CommandExecutor, tmp_path: Path) -> None:
    for name, size in [("at-the-cap", READ_MANY_MAX_BYTES), ("huge", READ_MANY_MAX_BYTES + 1)]:
        (tmp_path / name).touch()
        os.truncate(tmp_path / name, size)  # sparse: no disk space, all zeros
    (tmp_path / ".gitignore").symlink_to(tmp_path / "huge")  # a repository's link to a big file
    (tmp_path / "zero").symlink_to("/dev/zero")
    (tmp_path / "small").write_text("kept")
    asked = ["huge", ".gitignore", "zero", "at-the-cap", "small"]
    found = await executor.read_many([tmp_path / name for name in asked])
    assert sorted(path.name for path in found) == ["at-the-cap", "small"]
    assert len(found[tmp_path / "at-the-cap"]) == READ_MANY_MAX_BYTES


async def test_read_many_stops_adding_files_past_its_total(executor: CommandExecutor, tmp_path: Path) -> None:
    count = READ_MANY_TOTAL_BYTES // READ_MANY_MAX_BYTES + 2  # more big files than the total holds
    paths = [tmp_path / f"d{n}" / ".gitignore" for n in range(count)]
    for path in paths:
        path.parent.mkdir()
        path.touch()
        os.truncate(path, READ_MANY_MAX_BYTES)  # sparse: no disk space
    (tmp_path / "small").write_text("still read")
    found = await executor.read_many([*paths, tmp_path / "small"])
    assert sum(map(len, found.values())) <= READ_MANY_TOTAL_BYTES
    assert len(found) == READ_MANY_TOTAL_BYTES // READ_MANY_MAX_BYTES  # the first ones, whole
    assert tmp_path / "small" not in found  # the total is spent: what comes after waits for another call


@root_reads_everything
async def test_read_many_leaves_a_file_without_read_permission_out(executor: CommandExecutor, tmp_path: Path) -> None:
    (tmp_path / "open.txt").write_text("open")
    (tmp_path / "locked.txt").write_text("locked")
    (tmp_path / "locked.txt").chmod(0)
    assert await executor.read_many([tmp_path / "locked.txt", tmp_path / "open.txt"]) == {
        tmp_path / "open.txt": b"open"
    }


async def test_write_atomic_creates_parents_and_a_usual_mode(executor: CommandExecutor, tmp_path: Path) -> None:
    target = tmp_path / "deep/new/file.bin"
    data = bytes(range(256)) * 1024
    await executor.write_atomic(target, data)
    assert target.read_bytes() == data
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~umask
    assert os.listdir(target.parent) == ["file.bin"]


async def test_write_atomic_replaces_in_one_step_and_keeps_the_mode(executor: CommandExecutor, tmp_path: Path) -> None:
    target = tmp_path / "tool.sh"
    target.write_bytes(b"echo one\n")
    target.chmod(0o750)
    inode = target.stat().st_ino
    await executor.write_atomic(target, b"echo two\n")
    assert target.read_bytes() == b"echo two\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o750
    assert target.stat().st_ino != inode  # a new file renamed over the old: never half-written
    assert os.listdir(tmp_path) == ["tool.sh"]


async def test_write_atomic_never_replaces_a_directory(executor: CommandExecutor, tmp_path: Path) -> None:
    (tmp_path / "d").mkdir()
    (tmp_path / "d/kept.txt").write_text("kept")
    with pytest.raises(OSError, match="directory"):
        await executor.write_atomic(tmp_path / "d", b"x")
    assert sorted(os.listdir(tmp_path)) == ["d"]  # no temporary file left behind
    assert os.listdir(tmp_path / "d") == ["kept.txt"]


async def test_realpath_follows_symlinks_and_keeps_missing_components(executor: CommandExecutor) -> None:
    root = executor.workspace  # resolved
    (root / "real/sub").mkdir(parents=True)
    (root / "alias").symlink_to(root / "real")
    (root / "chain").symlink_to(root / "alias")
    assert await executor.realpath(root / "chain") == root / "real"
    assert await executor.realpath(root / "alias/sub/new/file.txt") == root / "real/sub/new/file.txt"
    assert await executor.realpath(root / "alias/sub/..") == root / "real"  # `..` after the link is followed
    assert await executor.realpath(root / "ends-in-newline\n") == root / "ends-in-newline\n"


async def test_which_finds_programs(executor: CommandExecutor) -> None:
    sh = await executor.which("sh")
    assert sh is not None
    assert Path(sh).is_absolute()
    assert os.access(sh, os.X_OK)
    assert await executor.which("no-such-program-here") is None


def test_a_request_takes_the_executors_defaults_only_where_it_left_them_unset(tmp_path: Path) -> None:
    keep: list[bytes] = []
    bare = ExecRequest(["true"], timeout=5, on_stdout=keep.append, on_stderr=keep.append, stdin=b"in")
    filled = bare.with_defaults(cwd=tmp_path, env={"PATH": "/bin"})
    assert filled.place() == (tmp_path, {"PATH": "/bin"})
    assert (filled.argv, filled.timeout, filled.stdin, filled.on_stdout) == (["true"], 5, b"in", keep.append)
    own = ExecRequest(["true"], timeout=5, on_stdout=print, on_stderr=print, cwd=tmp_path / "sub", env={})
    assert own.with_defaults(cwd=tmp_path, env={"PATH": "/bin"}).place() == (tmp_path / "sub", {})  # {} is an env


def test_a_request_whose_place_was_never_filled_in_is_refused() -> None:
    with pytest.raises(ValueError, match="cwd and env"):
        ExecRequest(["true"], timeout=5, on_stdout=print, on_stderr=print).place()


def test_run_is_written_once_every_executor_and_backend_takes_one_request() -> None:
    # The seam's `run` was a nine-parameter signature repeated in every backend (issue 28).
    from decode.sandbox.bwrap import BwrapBackend
    from decode.sandbox.docker import DockerBackend
    from decode.sandbox.executor import SandboxExecutor
    from decode.sandbox.modal import ModalBackend
    from decode.sandbox.types import SandboxBackend

    kinds = (CommandExecutor, LocalExecutor, RunOnlyExecutor, SandboxExecutor, SandboxBackend)
    for kind in (*kinds, BwrapBackend, DockerBackend, ModalBackend):
        assert list(inspect.signature(kind.run).parameters) == ["self", "request"], kind
