"""Which tracked program each process below decode belongs to (ADR-0043, ADR-0099).

A process below decode belongs to a program when it is in that program's group or session, when
its parent belongs to it, when it carries its tag (`DECODE_PROCESS_TAG`), or when it holds one of
its output pipes. An orphan that re-parented to decode in a session of its own, born after the
program started, belongs to it when it is the only program decode is tracking: the only way to
find a process that left the command's session, dropped its environment and closed its
descriptors. decode's own helpers in sessions of their own (host git, the warm sandbox) say they
are none (`own_children.py`), and neither is a program another command is starting.

What escapes all of that (a new session with an empty environment and no inherited descriptors,
while other programs run at the same time) is ended when the last of them ends, or when decode exits.
"""

import os
from collections import deque
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from decode.processes import own_children
from decode.processes.process_tree import Proc, carries_tag, holds_pipe

if TYPE_CHECKING:
    from decode.processes.tracking import Tracked


def owners(
    table: Mapping[int, Proc], known: Sequence["Tracked"], adopt: "Tracked | None", *, starting: bool
) -> dict[int, "Tracked"]:
    """The program of `known` each process of `table` (those below decode) belongs to; `adopt`
    takes the orphans no other rule places; `starting`: decode is starting a program right now."""
    me, not_orphans = os.getpid(), {os.getsid(0), 0, *own_children.sessions()}  # decode's, none, its helpers'
    leaders = {program.leader: program for program in known}
    tags = {program.tag.encode(): program for program in known}
    pipes = {pipe: program for program in known for pipe in program.pipes}
    children: dict[int, list[Proc]] = {}
    for proc in table.values():
        children.setdefault(proc.ppid, []).append(proc)
    found: dict[int, Tracked] = {}
    queue = deque(children.get(me, []))  # parents before their children
    while queue:
        proc = queue.popleft()
        owner = (
            leaders.get(proc.pgid)
            or leaders.get(proc.sid)
            or found.get(proc.ppid)
            or carries_tag(proc.pid, tags)
            or holds_pipe(proc.pid, pipes)
        )
        # An orphan in a session of its own (not a helper's of decode), born while `adopt` ran: one
        # of its processes that erased its traces.
        orphan = owner is None and proc.ppid == me and proc.pid not in leaders and proc.sid not in not_orphans
        # A program another command (or a helper) is starting leads its own session too, and is not ours to reap.
        being_started = (starting or own_children.starting()) and proc.sid == proc.pid
        if orphan and adopt is not None and proc.start >= adopt.start and not being_started:
            owner = adopt
        if owner is not None:
            found[proc.pid] = owner
        queue.extend(children.get(proc.pid, []))
    return found
