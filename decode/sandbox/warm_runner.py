"""The runner inside a warm bubblewrap sandbox: each command in namespaces of its own (ADR-0111).

bwrap builds the sandbox's view once (its mounts, the expensive part) and starts this program in
it as `python -I -S -c <this file>`, its stdin a socket to decode. It holds, in bwrap's own user
namespace only, the capabilities to make namespaces and mounts. Ahead of each command it forks a
child that makes what bwrap would have made for a cold command, nested in the warm sandbox:

- new mount, pid, IPC and network namespaces (the loopback up);
- every tmpfs a command could write (`/tmp`, `/run`, hidden folders) covered by an empty one, what
  was mounted inside bound back; as pid 1 of the new pid namespace, a new `/proc` with its kernel
  settings read-only, new `/dev/shm` and `/dev/pts`.

It hands decode the socket that pid 1 then waits on. decode sends the order there (a JSON message:
argv, cwd, environment, placeholders; the report and `started` pipes, stdin, stdout and stderr as
file descriptors). Pid 1 checks that the view is whole, and that the host mounted nothing at or
above its mount points since the runner started (the view's mounts are slaves of the host's: such
a mount would cover them here, where a cold sandbox mounts them on top); makes the placeholders (a
protected path that does not exist: an empty file covered by `/dev/null`, as bwrap makes them),
drops every capability, says on `started` that the command starts, starts it in a session of its
own, waits for it, kills and reaps what it left, and reports its exit code. The runner itself only
makes the next child, and kills one when decode asks (a timeout, an abort).

Only the standard library: this file is also what a learner reads to see how a sandbox is made.
"""

import contextlib
import ctypes
import errno
import fcntl
import json
import os
import re
import signal
import socket
import struct
import sys
from collections import Counter

MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC = 1, 2, 4, 8
MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = 32, 4096, 16384, 1 << 18
PR_SET_PDEATHSIG, PR_SET_DUMPABLE, PR_CAPBSET_DROP = 1, 4, 24
NAMESPACES = os.CLONE_NEWNS | os.CLONE_NEWPID | os.CLONE_NEWIPC | os.CLONE_NEWNET
AHEAD = 2
"""Children kept ready, their namespaces made: two commands at once need not wait for one."""
KERNEL_PROC_PATHS = ("/proc/sys", "/proc/sysrq-trigger", "/proc/irq", "/proc/bus", "/proc/fs")
SIOCGIFFLAGS, SIOCSIFFLAGS, IFF_UP = 0x8913, 0x8914, 0x1
KEYCTL = {"x86_64": 250, "aarch64": 219}.get(os.uname().machine, 250)
KEYCTL_JOIN_SESSION_KEYRING = 1

libc = ctypes.CDLL(None, use_errno=True)


def fail(what: str) -> None:
    """Raise the C library's last error as an OSError naming `what`."""
    code = ctypes.get_errno()
    raise OSError(code, f"{what}: {os.strerror(code)}")


def mount(source: str | None, target: str, fstype: str | None, flags: int, data: str | None = None) -> None:
    def c(text: str | None) -> bytes | None:
        return None if text is None else os.fsencode(text)

    if libc.mount(c(source), c(target), c(fstype), flags, c(data)) != 0:
        fail(f"mount {target}")


def read_only(target: str) -> None:
    mount(None, target, None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV)


def mount_table() -> bytes:
    with open("/proc/self/mountinfo", "rb") as table:
        return table.read()


def mounts(table: bytes | None = None) -> list[tuple[int, int, str, str, bool]]:
    """This namespace's mounts (or those `table` lists), in order: (id, parent id, mount point,
    file system, writable)."""
    found = []
    for line in (mount_table() if table is None else table).decode("utf-8", "surrogateescape").splitlines():
        fields = line.split(" ")
        cut = fields.index("-")
        point = re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), fields[4])
        writable = "rw" in fields[5].split(",")
        found.append((int(fields[0]), int(fields[1]), point, fields[cut + 1], writable))
    return found


def fresh_plan() -> list[tuple[str, int, list[tuple[str, bool]]]]:
    """Every writable tmpfs a command sees (the top mount at its point), with its mode and what is
    mounted inside it that still shows (a later mount at or above a point covers the earlier)."""
    table = mounts()
    top = {point: mount_id for mount_id, _, point, _, _ in table}  # the last mount at a point shows
    plan = []
    for mount_id, _, point, fstype, writable in table:
        if fstype != "tmpfs" or not writable or top[point] != mount_id or point == "/dev":
            continue
        inside = [(p, i) for i, parent, p, _, _ in table if parent == mount_id and top[p] == i]
        shown = [p for n, (p, _) in enumerate(inside) if not any(_under(p, q) for q, _ in inside[n + 1 :])]
        plan.append((point, os.stat(point).st_mode & 0o7777, [(p, os.path.isdir(p)) for p in shown]))
    return sorted(plan, key=lambda entry: entry[0].count("/"))  # outer first: inner ones are bound back, then renewed


def _under(path: str, other: str) -> bool:
    return path == other or path.startswith(other.rstrip("/") + "/")


def _and_above(path: str) -> list[str]:
    """`path` and every folder above it, up to `/`."""
    found = [path]
    while path != (path := os.path.dirname(path)):
        found.append(path)
    return found


def renew(point: str, mode: int, inside: list[tuple[str, bool]]) -> None:
    """Cover the tmpfs at `point` with an empty one and bind back what was mounted inside it."""
    held = [os.open(path, os.O_PATH | os.O_CLOEXEC) for path, _ in inside]  # before they are covered
    mount("tmpfs", point, "tmpfs", MS_NOSUID | MS_NODEV, f"mode={mode:o}")
    for fd, (path, is_dir) in zip(held, inside, strict=True):
        os.makedirs(os.path.dirname(path), mode=0o755, exist_ok=True)
        if is_dir:
            os.mkdir(path, 0o755)
        else:
            os.close(os.open(path, os.O_CREAT | os.O_WRONLY | os.O_CLOEXEC, 0o644))
        mount(f"/proc/self/fd/{fd}", path, None, MS_BIND | MS_REC)  # flags (read-only) come along
        os.close(fd)


def own_namespaces() -> None:
    """Enter new mount, pid (for the next child), IPC and network namespaces, the loopback up."""
    os.unshare(NAMESPACES)
    mount(None, "/", None, MS_REC | MS_PRIVATE)  # nothing mounted here reaches the warm sandbox
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:  # the loopback, up as bwrap leaves it
        flags = struct.unpack("16sH", fcntl.ioctl(probe, SIOCGIFFLAGS, struct.pack("16sH", b"lo", 0)))[1]
        fcntl.ioctl(probe, SIOCSIFFLAGS, struct.pack("16sH", b"lo", flags | IFF_UP))


def placeholder(path: str) -> None:
    """Make `path` (absent a moment ago) an empty file, covered by `/dev/null`: nothing can create it."""
    try:
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
    except FileExistsError:  # another command's placeholder: an empty regular file, nothing else
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
        info = os.fstat(fd)
        if not (info.st_size == 0 and (info.st_mode & 0o170000) == 0o100000):
            raise OSError(errno.EEXIST, f"{path} appeared: it is not a placeholder") from None
    mount("/dev/null", f"/proc/self/fd/{fd}", None, MS_BIND)  # the very file made, not what the path names now
    read_only(path)
    os.close(fd)


def new_proc_and_dev() -> None:
    """pid 1's own `/proc` (its kernel settings read-only), `/dev/shm` and `/dev/pts`."""
    mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)
    for path in KERNEL_PROC_PATHS:
        if os.path.exists(path):
            mount(path, path, None, MS_BIND | MS_REC)
            read_only(path)
    mount("tmpfs", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777")
    mount("devpts", "/dev/pts", "devpts", MS_NOSUID | MS_NOEXEC, "newinstance,ptmxmode=0666,mode=620")


def own_keyrings() -> None:
    """A user namespace and a session keyring of the command's own: a key one command adds
    (`keyctl`, to its user or session keyring) is not the next command's, as with a cold bwrap.
    The same ids inside (mapping them takes CAP_SETFCAP, for the root user: the runner's)."""
    uid, gid = os.geteuid(), os.getegid()
    os.unshare(os.CLONE_NEWUSER)
    for name, line in (("setgroups", "deny"), ("uid_map", f"{uid} {uid} 1"), ("gid_map", f"{gid} {gid} 1")):
        fd = os.open(f"/proc/self/{name}", os.O_WRONLY | os.O_CLOEXEC)
        try:
            os.write(fd, line.encode())
        finally:
            os.close(fd)
    if libc.syscall(KEYCTL, KEYCTL_JOIN_SESSION_KEYRING, None) < 0:
        fail("keyctl(KEYCTL_JOIN_SESSION_KEYRING)")


def drop_capabilities() -> None:
    """No capability now or after exec, as bwrap's `--cap-drop ALL` leaves a command."""
    with open("/proc/sys/kernel/cap_last_cap") as handle:
        last = int(handle.read())
    for cap in range(last + 1):
        if libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0:
            fail("prctl(PR_CAPBSET_DROP)")
    header = struct.pack("Ii", 0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3, this thread
    if libc.capset(header, bytes(24)) != 0:  # effective, permitted, inheritable: all empty
        fail("capset")


def spawn_command(order: dict, stdio: list[int]) -> int:
    """Start the command (pid 2): its descriptors, its own session, the signals exec would keep
    ignored back to default. `posix_spawn` (vfork): a fork of this Python would cost more than it."""
    os.chdir(order["cwd"])
    os.environ["PATH"] = order["env"].get("PATH", os.defpath)  # where `posix_spawnp` looks, as bwrap's execvp
    actions = [(os.POSIX_SPAWN_DUP2, fd, target) for target, fd in enumerate(stdio)]
    default = (signal.SIGPIPE, signal.SIGXFSZ, signal.SIGTERM)  # Python ignores the first two
    return os.posix_spawnp(
        order["argv"][0],
        order["argv"],
        order["env"],
        file_actions=actions,
        setsid=True,
        setsigdef=default,
        setsigmask=(),
    )


def scheduled(policy: int) -> None:
    """Run under `policy` from now on; where the kernel refuses, as before (only speed is at stake).
    `SCHED_BATCH`: never preempts a process when woken, else the same share of the CPU."""
    with contextlib.suppress(OSError):
        os.sched_setscheduler(0, policy, os.sched_param(0))


def whole(table: bytes, expected: Counter) -> bool:
    """Does `table` (a mountinfo) still hold every mount of the view? A file removed or renamed over
    on the host unmounts its bind in every namespace."""
    now = Counter((point, fstype) for _, _, point, fstype, _ in mounts(table))
    return not any(now[mount] < count for mount, count in expected.items())


def over_view(table: bytes, view: set[str]) -> Counter:
    """The mounts at the view's mount points or above them (`view`: those points and every folder
    above them). One the host adds there after the runner started would cover what the view
    mounted below it (a masked home under a new `/home`), where a cold sandbox masks it anew."""
    return Counter((point, fstype) for _, _, point, fstype, _ in mounts(table) if point in view)


def pid_one(orders: socket.socket, expected: Counter, stale: bool = False) -> int:
    """pid 1 of a command's namespaces, made ahead: wait for the order (from decode itself), run
    it, then kill and reap all it left and report its exit code."""
    for number in (signal.SIGTERM, signal.SIGINT):  # pid 1 ignores what it has no handler for
        signal.signal(number, signal.SIG_DFL)  # (Python's SIGINT handler: a command could end it early)
    new_proc_and_dev()
    checked = mount_table()  # checked ahead: at the order, only a table that changed is read through
    checked = checked if whole(checked, expected) else b""
    message, fds, _, _ = socket.recv_fds(orders, 1 << 20, 8)
    for fd in fds:  # recv_fds drops its flags (MSG_CMSG_CLOEXEC): the command gets only the three it is given
        os.set_inheritable(fd, False)
    if not message:
        return 0  # decode is gone
    order, (report, started, *stdio) = json.loads(message), fds
    if stale or ((table := mount_table()) != checked and not whole(table, expected)):
        os.write(report, b"S")  # a bind lost (its file removed or replaced on the host), or one covered: stale
        return 0
    try:
        for path in order["placeholders"]:
            placeholder(path)
        own_keyrings()
        drop_capabilities()  # nothing of the runner's is left to the command, or to take from pid 1
        if libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0:  # the same user: ptraced, pid 1 would not end what it left
            fail("prctl(PR_SET_DUMPABLE)")
    except OSError as exc:
        os.write(report, f"E{exc}".encode())  # not run: decode runs it cold
        return 0
    os.write(started, b"R")  # from here on the command runs: decode must not run it again
    try:
        command = spawn_command(order, stdio)
    except OSError as exc:
        os.write(stdio[2], f"decode sandbox: {order['argv'][0]}: {exc.strerror}\n".encode())
        os.write(report, b"C" + struct.pack("i", 127 if exc.errno == errno.ENOENT else 126))  # as a shell says
        return 0
    os.close(stdio[0])  # its output stays open here until the report: decode wakes once, at the end
    while True:
        pid, status = os.waitpid(-1, 0)
        if pid == command:
            break
    left = b"L"  # what the command left running: ended, as bwrap's pid 1 ending ends it
    try:
        os.kill(-1, signal.SIGKILL)
    except ProcessLookupError:
        left = b""  # it left nothing
    while True:
        try:
            os.waitpid(-1, 0)
        except ChildProcessError:
            break
    code = os.waitstatus_to_exitcode(status)
    os.close(stdio[1])
    os.close(stdio[2])
    # One write, the last: decode takes the result from it, not waiting for this process's exit.
    # Killed by signal N: 128 + N, as bwrap says.
    os.write(report, b"C" + struct.pack("i", code if code >= 0 else 128 - code) + left)
    return 0


def prepare(orders: socket.socket, plan: list, expected: Counter, over: tuple[set[str], Counter]) -> None:
    """The child the runner forks ahead of a command: its namespaces and mounts, then pid 1 in them,
    waiting for the order. Never returns. SIGTERM (the runner's: a timeout, an abort) kills pid 1,
    so everything in the namespace."""
    first = 0

    def on_term(signum: int, frame: object) -> None:
        os._exit(137) if first == 0 else os.kill(first, signal.SIGKILL)

    signal.signal(signal.SIGTERM, on_term)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM])
    try:
        own_namespaces()  # a copy of the runner's mounts, the host's since included; private from now on
        view, start = over
        now = over_view(mount_table(), view)
        stale = any(count > start[mount] for mount, count in now.items())
        for point, mode, inside in plan:
            renew(point, mode, inside)
        signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGTERM])  # `first` is set before a kill reads it
        first = os.fork()  # the new pid namespace's pid 1
        if first == 0:
            scheduled(os.SCHED_OTHER)  # woken by an order, it runs as any process: the command's start
            os._exit(pid_one(orders, expected, stale))
        orders.close()
        # A copy of its own (before any placeholder): the command's mounts are then held by its
        # pid 1 alone and end when it does, not when this process does, so decode's unlink of a
        # placeholder seldom finds a mount left to detach (each detach waits for an RCU grace period).
        os.unshare(os.CLONE_NEWNS)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM])
        os.waitpid(first, 0)
    except Exception as exc:  # the order finds nobody: decode runs the command cold
        os.write(2, f"decode sandbox: {exc}\n".encode())
        os._exit(125)
    os._exit(0)


def offer(control: socket.socket, plan: list, expected: Counter, over: tuple[set[str], Counter]) -> int:
    """Fork the next command's child now, so its namespaces are made before its order comes, and
    hand decode the socket its pid 1 reads the order from. Returns the child's pid."""
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGTERM])  # until the child's handler is set
    pid = os.fork()
    if pid == 0:
        control.close()
        ours.close()
        prepare(theirs, plan, expected, over)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM])
    theirs.close()
    socket.send_fds(control, [json.dumps({"ahead": pid}).encode()], [ours.fileno()])
    ours.close()
    return pid


def main() -> None:
    """Keep children ready for decode's commands; end one when told; until decode closes the socket."""
    control = socket.socket(fileno=os.dup(0))  # fds 0-2 stay taken, so what comes in is never one of them
    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
    # Making children ahead is background work: woken by decode's word after a result, the runner
    # (and the child it forks, until that child's pid 1) must not take the CPU from decode at once.
    scheduled(os.SCHED_BATCH)
    plan = fresh_plan()
    # Only the view's mounts (bwrap's mount points, this program's arguments): the host's own,
    # copied by `--ro-bind / /`, come and go with the host, and leave the view whole when they go.
    points = {path for arg in sys.argv[1:] for path in (arg, os.path.realpath(arg))}
    expected = Counter((point, fstype) for _, _, point, fstype, _ in mounts() if point in points)
    view = {above for point in points for above in _and_above(point)}
    over = (view, over_view(mount_table(), view))
    try:
        control.send(json.dumps({"ready": os.getpid()}).encode())
        children = {offer(control, plan, expected, over) for _ in range(AHEAD)}
        while message := control.recv(1 << 16):
            order = json.loads(message)
            if order.get("kill") in children:  # a timeout, an abort: pid 1 of its namespace dies
                os.kill(order["kill"], signal.SIGTERM)
            if "used" in order:  # decode sent a child its order: make the next one
                children.add(offer(control, plan, expected, over))
            reap(children)
    except (ConnectionResetError, BrokenPipeError):
        pass  # decode closed its end with a child's socket unread: it is gone, as at an empty read


def reap(children: set[int]) -> None:
    """Collect the children that ended (decode waited for them through their report pipes)."""
    while children:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        children.discard(pid)


if __name__ == "__main__":
    sys.exit(main())
