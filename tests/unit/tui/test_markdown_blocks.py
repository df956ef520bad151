"""Streamed Markdown cut into finished blocks: what the Renderer prints, what stays live."""

import pytest

from decode.tui.markdown_blocks import split_blocks, tail


@pytest.mark.parametrize(
    ("text", "finished", "rest"),
    [
        ("A paragraph still being writ", "", "A paragraph still being writ"),
        ("One line.\nAnother", "", "One line.\nAnother"),
        ("First paragraph.\n\nSecond", "First paragraph.\n\n", "Second"),
        ("One.\n\nTwo.\n\nThr", "One.\n\nTwo.\n\n", "Thr"),
        ("```python\nx = 1\n\ny = 2\n", "", "```python\nx = 1\n\ny = 2\n"),  # a blank line inside code
        ("```python\nx = 1\n```\nafter", "```python\nx = 1\n```\n", "after"),
        ("```\ncode\n``` not a close\n\n", "", "```\ncode\n``` not a close\n\n"),
        ("````\n```\nstill code\n````\n", "````\n```\nstill code\n````\n", ""),  # a longer fence
        ("~~~\ncode\n~~~\n", "~~~\ncode\n~~~\n", ""),
        ("~~~\ncode\n```\n\n", "", "~~~\ncode\n```\n\n"),  # the other character does not close
        ("```\ncode\n```", "", "```\ncode\n```"),  # the closing line is not finished yet
    ],
)
def test_split_blocks(text: str, finished: str, rest: str) -> None:
    assert split_blocks(text) == (finished, rest)


def test_the_tail_of_a_code_block_keeps_its_opening_fence() -> None:
    assert tail("```python\na\nb\nc\n", 2) == "```python\nb\nc\n"
    assert tail("a\nb\n", 5) == "a\nb\n"
