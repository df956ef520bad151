"""Where the `@path` mentions of a prompt are, and the form their attachments take."""

from decode.tools.mention_text import (
    OPEN,
    Attachment,
    candidates,
    file_block,
    find_mentions,
    folder_block,
    typed_part,
    with_attachments,
)


def paths(text: str) -> list[str]:
    return [mention.path for mention in find_mentions(text)]


def test_a_mention_starts_the_prompt_or_follows_a_space_or_an_opening_bracket() -> None:
    assert paths("@a.py and (@b/c.py) [@d] {@e}\n@f/") == ["a.py", "b/c.py)", "d]", "e}", "f/"]


def test_an_at_inside_a_word_is_no_mention() -> None:
    assert paths("write to me@example.com or a@b.py, x@y") == []


def test_a_quoted_mention_holds_spaces() -> None:
    assert paths('see @"my notes.md" and @"unclosed') == ["my notes.md"]


def test_where_each_mention_is() -> None:
    (mention,) = find_mentions("fix @calc.py now")
    assert (mention.start, mention.end) == (4, 12)


def test_the_punctuation_ending_a_sentence_is_a_second_reading() -> None:
    assert candidates("calc.py.") == ["calc.py.", "calc.py"]
    assert candidates("calc.py,") == ["calc.py,", "calc.py"]
    assert candidates("d]") == ["d]", "d"]
    assert candidates("calc.py") == ["calc.py"]
    assert candidates("src/") == ["src/"]
    assert candidates("..") == [".."]
    assert candidates("!") == ["!"]


def test_the_typed_prompt_comes_first_and_is_found_again() -> None:
    prompt = "fix @calc.py"
    sent = with_attachments(prompt, [Attachment("calc.py", '<file path="calc.py">\n     1\tx\n</file>\n', "1 lines")])
    assert sent.startswith(prompt + OPEN)
    assert sent.endswith('<file path="calc.py">\n     1\tx\n</file>\n</mentions>')
    assert typed_part(sent) == prompt
    assert with_attachments(prompt, []) == prompt
    assert typed_part(prompt) == prompt


def test_a_file_name_cannot_end_its_tag_early() -> None:
    name = 'q"><evil a="b.txt'
    assert file_block(name, "1\tx").startswith('<file path="q&quot;&gt;&lt;evil a=&quot;b.txt">\n')
    assert folder_block(name, "a").startswith('<folder path="q&quot;&gt;&lt;evil a=&quot;b.txt">\n')
