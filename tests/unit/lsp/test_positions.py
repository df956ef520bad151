"""Positions: the tool's 1-based code-point columns and LSP's 0-based UTF-16 ones."""

import pytest

from decode.lsp.positions import from_lsp, line_at, line_count, to_lsp, utf16_length


def test_ascii_is_the_same_column_shifted_by_one() -> None:
    assert to_lsp("value = 1", 3, 1) == {"line": 2, "character": 0}
    assert to_lsp("value = 1", 3, 9) == {"line": 2, "character": 8}
    assert from_lsp("value = 1", {"line": 2, "character": 8}) == (3, 9)


def test_a_character_outside_the_bmp_takes_two_utf16_units() -> None:
    line = 's = "𝔘𝔘" + name'
    column = line.index("name") + 1  # 1-based, in code points
    position = to_lsp(line, 1, column)
    assert position["character"] == column - 1 + 2  # two astral characters: one extra unit each
    assert from_lsp(line, position) == (1, column)
    assert utf16_length("😀é") == 3


def test_an_offset_inside_a_surrogate_pair_lands_on_its_character() -> None:
    assert from_lsp("😀x", {"line": 0, "character": 1}) == (1, 1)
    assert from_lsp("😀x", {"line": 0, "character": 2}) == (1, 2)


def test_an_offset_past_the_end_of_the_line_is_its_end() -> None:
    assert from_lsp("ab", {"line": 0, "character": 40}) == (1, 3)


def test_lines_and_columns_count_from_one() -> None:
    with pytest.raises(ValueError, match="from 1"):
        to_lsp("x", 0, 1)


def test_lines_split_as_lsp_splits_them() -> None:
    text = "a\r\nb\rc\nd\u2028still d\n"  # LSP knows \r\n, \r and \n, not U+2028
    assert [line_at(text, n) for n in range(1, 5)] == ["a", "b", "c", "d\u2028still d"]
    assert line_at(text, 9) == ""
    assert line_count(text) == 4
    assert line_count("x") == 1
    assert line_count("") == 0
