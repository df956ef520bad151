"""The /init prompt asks for an AGENTS.md checked against the project, keeping what exists."""

from decode.memory.init_prompt import INIT_PROMPT


def test_init_prompt_asks_for_agents_md_at_the_root() -> None:
    assert "AGENTS.md" in INIT_PROMPT
    assert "root of the working directory" in INIT_PROMPT


def test_init_prompt_keeps_an_existing_file() -> None:
    assert "keep what the user wrote" in INIT_PROMPT
