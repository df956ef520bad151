"""A seccomp filter that keeps the processes test.sh starts from tampering with the verifier.

Workspace code that the tests run has the verifier's uid, so without this it could reach into
test.sh's own shell: `ptrace` it, write its memory (`process_vm_writev`), take its files
(`pidfd_getfd`), or lower its limits (`prlimit`, so that its final `echo 0` fails). This filter
makes those calls fail with EPERM for every process in the verifier's sandbox; a process may
still change its own limits (`prlimit` on pid 0). `/proc/<pid>/mem` is the other way in:
`verifier_init` closes `/proc` to writes with Landlock.

    bwrap --seccomp 3 ... 3< <(the bytes of tamper_filter())

The filter is classic BPF, written out here: 8-byte instructions over `struct seccomp_data`.
"""

import platform
import struct

AUDIT_ARCH = {"x86_64": 0xC000003E, "aarch64": 0xC00000B7}
"""The `AUDIT_ARCH_*` value of each machine the filter knows."""

TAMPERING_CALLS = {
    # ptrace, process_vm_readv, process_vm_writev, pidfd_getfd
    "x86_64": (101, 310, 311, 438),
    "aarch64": (117, 270, 271, 438),
}
PRLIMIT64 = {"x86_64": 302, "aarch64": 261}
X32_BIT = 0x40000000
"""Set in the number of an x32 system call on x86_64: refused outright."""

LOAD, JUMP_IF_EQUAL, JUMP_IF_AT_LEAST, RETURN = 0x20, 0x15, 0x35, 0x06
ALLOW, EPERM = 0x7FFF0000, 0x00050000 | 1
NR, ARCH, ARG0_LOW, ARG0_HIGH = 0, 4, 16, 20  # offsets in struct seccomp_data (little-endian)


def tamper_filter(machine: str | None = None) -> bytes | None:
    """The compiled filter for this machine (`bwrap --seccomp FD` reads it), or None if unknown."""
    machine = machine or platform.machine()
    if machine not in AUDIT_ARCH:
        return None
    refused = TAMPERING_CALLS[machine]
    # Each jump counts the instructions it skips; the two returns sit at the end.
    program: list[tuple[int, int, int, int]] = [(LOAD, 0, 0, ARCH)]
    body: list[tuple[int, int, int, int]] = [(LOAD, 0, 0, NR)]
    if machine == "x86_64":
        body.append((JUMP_IF_AT_LEAST, -1, 0, X32_BIT))
    body += [(JUMP_IF_EQUAL, -1, 0, number) for number in refused]
    body += [
        (JUMP_IF_EQUAL, 0, 4, PRLIMIT64[machine]),  # prlimit: allowed only on itself (pid 0)
        (LOAD, 0, 0, ARG0_LOW),
        (JUMP_IF_EQUAL, 0, -1, 0),
        (LOAD, 0, 0, ARG0_HIGH),
        (JUMP_IF_EQUAL, 0, -1, 0),
    ]
    program.append((JUMP_IF_EQUAL, 0, -1, AUDIT_ARCH[machine]))  # another ABI (int 0x80): refused
    program += body
    program += [(RETURN, 0, 0, ALLOW), (RETURN, 0, 0, EPERM)]
    return b"".join(_resolve(program, index) for index in range(len(program)))


def _resolve(program: list[tuple[int, int, int, int]], index: int) -> bytes:
    """Instruction `index` as bytes, a jump offset of -1 meaning "to the EPERM return"."""
    code, if_true, if_false, value = program[index]
    to_eperm = len(program) - 1 - index - 1
    if_true, if_false = (to_eperm if offset == -1 else offset for offset in (if_true, if_false))
    return struct.pack("<HBBI", code, if_true, if_false, value)
