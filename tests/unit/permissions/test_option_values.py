"""Values glued to their option (`-t.git`, `-d@.env`) and tar's `-C DIR`: words that may name files."""

import pytest

from decode.permissions.option_values import attached_values, tar_paths


@pytest.mark.parametrize(
    ("word", "names"),
    [
        ("-t.git/hooks", ".git/hooks"),
        ("-sSLo.git/config", ".git/config"),  # after other short options
        ("-d@.env", ".env"),  # curl's @file
        ("f=@/etc/shadow", "/etc/shadow"),  # curl -F name=@file
        ("--output=.git/x", ".git/x"),
        ("-xC.git", ".git"),
    ],
)
def test_a_value_glued_to_its_option_is_a_word_that_may_name_a_file(word: str, names: str) -> None:
    assert names in attached_values(word)


def test_a_long_option_without_a_value_names_nothing() -> None:
    assert attached_values("--recursive") == []


@pytest.mark.parametrize(
    "words",
    [
        ("tar", "-cf", "-", "-C", "/etc", "shadow"),
        ("tar", "-cf", "-", "-C/etc", "shadow"),
        ("tar", "--directory=/etc", "-c", "shadow"),
    ],
)
def test_tar_reads_each_name_in_the_folder_c_names(words: tuple[str, ...]) -> None:
    assert tar_paths(words) == ["/etc/shadow"]


def test_only_tar_has_its_names_placed_in_c_folder() -> None:
    assert tar_paths(("make", "-C", "/etc", "shadow")) == []
