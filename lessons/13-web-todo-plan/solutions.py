"""Reference solutions of lesson 13's exercises, and a plausible mistake for each that its check rejects."""

import ipaddress


def is_public_address(text: str) -> bool:
    """Look inside an IPv4-mapped address, then ask for a global unicast address."""
    address = ipaddress.ip_address(text)
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.is_global and not address.is_multicast


def wrong_is_public_address(text: str) -> bool:
    """`is_private` misses carrier-grade NAT (100.64/10) and multicast: neither is "private"."""
    return not ipaddress.ip_address(text).is_private


STATUSES = ("pending", "in_progress", "completed")


def todo_problems(todos: list[dict]) -> list[str]:
    """Each step on its own (a status, some words), then the list as a whole (one step in progress)."""
    problems = []
    for number, todo in enumerate(todos, 1):
        if todo.get("status") not in STATUSES:
            problems.append(f"step {number}: the status must be one of {', '.join(STATUSES)}")
        if not str(todo.get("content", "")).strip():
            problems.append(f"step {number}: say what the step is")
    working = [todo for todo in todos if todo.get("status") == "in_progress"]
    if len(working) > 1:
        problems.append(f"{len(working)} steps are in_progress: keep exactly one")
    return problems


def wrong_todo_problems(todos: list[dict]) -> list[str]:
    """Checks each step, never the list: two steps "in progress" at once slip through."""
    return [
        f"step {number}: bad step"
        for number, todo in enumerate(todos, 1)
        if todo.get("status") not in STATUSES or not str(todo.get("content", "")).strip()
    ]


PLAN_KINDS = ("read-only", "side-effect-free")


def offered(tools: list[tuple[str, str, bool]], mode: str) -> list[str]:
    """Plan mode: what changes nothing (exit_plan_mode among them); any other mode: all but plan-only tools."""
    if mode == "plan":
        return [name for name, kind, _ in tools if kind in PLAN_KINDS]
    return [name for name, _, plan_only in tools if not plan_only]


def wrong_offered(tools: list[tuple[str, str, bool]], mode: str) -> list[str]:
    """Filters plan mode only: every other mode still offers exit_plan_mode, so the model can 'approve' itself."""
    if mode == "plan":
        return [name for name, kind, _ in tools if kind in PLAN_KINDS]
    return [name for name, _, _ in tools]
