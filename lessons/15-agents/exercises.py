"""Lesson 15's exercises: an agent file parser, and the mode a subagent runs in."""

from collections.abc import Callable

from course import Verdict, check

# --- exercise 1: parse an agent file ------------------------------------------------------------

REVIEWER = """---
name: reviewer
description: Reviews the diff for bugs.
tools: Read, Grep, Bash
model: sonnet
---

Review the change. Report path:line for each finding.
"""

AgentFile = tuple[str, str, tuple[str, ...] | None, str]


def check_parse_agent_file(parse_agent_file: Callable[[str], AgentFile]) -> Verdict:
    """`parse_agent_file(text)` reads Claude Code's agent format into (name, description, tools, body):
    tools as decode's names (`Read` → `read`), None when the file names none; ValueError when malformed."""

    def test() -> None:
        got = parse_agent_file(REVIEWER)
        expected = (
            "reviewer",
            "Reviews the diff for bugs.",
            ("read", "grep", "bash"),
            "Review the change. Report path:line for each finding.",
        )
        assert tuple(got) == expected, f"expected {expected!r}, got {got!r}"
        listed = parse_agent_file("---\nname: a\ndescription: d\ntools: [Read, write, Task]\n---\nGo.\n")
        assert listed[2] == ("read", "write", "agent"), (
            f"a YAML list works too, and Claude's Task is decode's agent: got {listed[2]!r}"
        )
        every = parse_agent_file("---\nname: a\ndescription: d\n---\nGo.\n")
        assert every[2] is None, f"no `tools` means every tool: None, not {every[2]!r}"
        broken = {
            "no front matter": "Just instructions.\n",
            "no description": "---\nname: a\n---\nGo.\n",
            "no name": "---\ndescription: d\n---\nGo.\n",
        }
        for problem, text in broken.items():
            try:
                result = parse_agent_file(text)
            except ValueError:
                continue
            except NotImplementedError:
                raise
            except Exception as exc:
                raise AssertionError(f"a file with {problem}: raise ValueError, not {type(exc).__name__}") from None
            raise AssertionError(f"a file with {problem} must be rejected (ValueError), not parsed as {result!r}")

    return check("an agent file parsed, Claude Code's tool names mapped, the malformed ones rejected", test)


# --- exercise 2: fence a child's mode ------------------------------------------------------------

MODES = ("plan", "default", "accept-edits", "bypass")


def check_child_mode(child_mode: Callable[[str, str | None], str]) -> Verdict:
    """`child_mode(parent, own)`: the subagent's mode: its agent's own (None: none), never looser than its
    parent's."""

    def test() -> None:
        cases = {
            ("plan", "accept-edits"): "plan",  # plan mode propagates
            ("plan", None): "plan",
            ("default", "accept-edits"): "default",  # a child never loosens its parent's mode
            ("default", None): "default",
            ("accept-edits", "plan"): "plan",  # stricter is fine
            ("bypass", "default"): "default",
            ("bypass", None): "bypass",
        }
        for (parent, own), expected in cases.items():
            got = child_mode(parent, own)
            assert got == expected, f"child_mode({parent!r}, {own!r}) should be {expected!r}, got {got!r}"

    return check("a subagent's mode: its agent's, never looser than its parent's", test)
