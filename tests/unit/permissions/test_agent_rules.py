"""`Agent(explore)` rules: the `agent` tool's rule names and the agent name they take (lesson 15)."""

import pytest

from decode.permissions.agent_rules import SUBAGENT_RULES, agent_name_problem, subject_of
from decode.permissions.rules import RuleError, parse_rule
from decode.permissions.types import Decision


@pytest.mark.parametrize("specifier", ["explore", "Explore", "code-reviewer", "*"])
def test_an_agent_name_or_a_star_is_a_specifier(specifier: str) -> None:
    assert agent_name_problem("Agent", specifier) is None


def test_anything_else_is_refused_with_the_spelling_to_use() -> None:
    assert agent_name_problem("Task", "not an agent") == "Task takes an agent's name, like Task(explore), or *"
    with pytest.raises(RuleError, match="agent's name"):
        parse_rule("Agent(a b)", Decision.ALLOW)


def test_both_names_are_rule_names_in_any_case() -> None:
    assert SUBAGENT_RULES == ("Agent", "Task")
    assert parse_rule("task(explore)", Decision.DENY).tool == "Task"


def test_the_subject_of_a_call_is_the_agent_it_runs() -> None:
    from decode.agents.subagents import AGENT_TRAITS

    assert subject_of({"agent": "explore"}, AGENT_TRAITS) == "explore"
    assert subject_of({"agent": 3}, AGENT_TRAITS) == ""
