"""Lesson 13's exercises: each check runs the learner's function on real cases."""

from collections.abc import Callable

from course import Verdict, check

# --- exercise 1: is this address public? ------------------------------------------------------------

PUBLIC = ["8.8.8.8", "93.184.216.34", "172.32.0.1", "2606:4700::1111", "::ffff:8.8.8.8"]
NOT_PUBLIC = {
    "127.0.0.1": "loopback",
    "127.8.9.10": "loopback (all of 127/8)",
    "::1": "IPv6 loopback",
    "10.20.30.40": "private",
    "172.16.5.4": "private",
    "192.168.0.1": "private",
    "169.254.169.254": "link-local: the cloud metadata endpoint",
    "fe80::1": "IPv6 link-local",
    "fd00:ec2::254": "unique-local: AWS's IPv6 metadata endpoint",
    "100.64.0.1": "carrier-grade NAT",
    "0.0.0.0": "unspecified",
    "::": "IPv6 unspecified",
    "224.0.0.251": "multicast",
    "ff02::1": "IPv6 multicast",
    "240.0.0.1": "reserved",
    "::ffff:127.0.0.1": "127.0.0.1 inside an IPv4-mapped IPv6 address",
    "::ffff:10.0.0.1": "10.0.0.1 inside an IPv4-mapped IPv6 address",
}


def check_is_public_address(is_public_address: Callable[[str], bool]) -> Verdict:
    """`is_public_address(text)` is True only for an address on the public internet."""

    def test() -> None:
        wrong = [f"{a} is public" for a in PUBLIC if is_public_address(a) is not True]
        wrong += [f"{a} is not ({why})" for a, why in NOT_PUBLIC.items() if is_public_address(a) is not False]
        assert not wrong, "; ".join(wrong)

    return check("only public addresses pass: loopback, private, link-local, CGNAT, multicast… do not", test)


# --- exercise 2: a to-do list the model can be told how to fix ----------------------------------------

GOOD = [
    {"content": "read the failing test", "status": "completed"},
    {"content": "fix parse_range", "status": "in_progress"},
    {"content": "run the suite", "status": "pending"},
]
BAD = {
    "two steps in progress": [
        {"content": "fix parse_range", "status": "in_progress"},
        {"content": "run the suite", "status": "in_progress"},
    ],
    "an unknown status": [{"content": "fix parse_range", "status": "doing"}],
    "an empty step": [{"content": "  ", "status": "pending"}],
    "a step without a status": [{"content": "fix parse_range"}],
}


def check_todo_problems(todo_problems: Callable[[list[dict]], list[str]]) -> Verdict:
    """`todo_problems(todos)` is [] for a list todo_write may keep, else what the model must fix."""

    def test() -> None:
        assert todo_problems(GOOD) == [], f"a good list has no problems, got {todo_problems(GOOD)}"
        assert todo_problems([]) == [], "an empty list (the list cleared) has no problems"
        done = [{"content": "a", "status": "completed"}, {"content": "b", "status": "completed"}]
        assert todo_problems(done) == [], "a list with every step done has no problems"
        missed = [why for why, todos in BAD.items() if not todo_problems(todos)]
        assert not missed, f"no problem found in a list with {', '.join(missed)}"
        problems = todo_problems(BAD["two steps in progress"])
        assert all(isinstance(p, str) and p.strip() for p in problems), "each problem is a sentence for the model"

    return check("a to-do list with its problems named: statuses, empty steps, one step in progress", test)


# --- exercise 3: which tools plan mode offers ------------------------------------------------------------


def check_offered(offered: Callable[[list[tuple[str, str, bool]], str], list[str]]) -> Verdict:
    """`offered(tools, mode)`: the names of the tools the model is shown in `mode`, in order.

    Each tool is `(name, kind, plan_only)`."""
    tools = [
        ("read", "read-only", False),
        ("edit", "file-edit", False),
        ("bash", "other", False),
        ("todo_write", "side-effect-free", False),
        ("exit_plan_mode", "side-effect-free", True),
        ("web_fetch", "other", False),
    ]

    def test() -> None:
        plan = offered(tools, "plan")
        assert plan == ["read", "todo_write", "exit_plan_mode"], (
            f"plan mode offers what changes nothing, and exit_plan_mode; got {plan}"
        )
        for mode in ("default", "accept-edits", "bypass"):
            shown = offered(tools, mode)
            assert shown == ["read", "edit", "bash", "todo_write", "web_fetch"], (
                f"{mode} offers every tool except the plan-only ones; got {shown}"
            )

    return check("plan mode offers the read-only tools and exit_plan_mode; other modes all but exit_plan_mode", test)
