"""Options that change what later commands run: `set -k`, `git -c core.pager=…`, `xargs -I R`."""

import pytest

from decode.permissions.command_reading import Found
from decode.permissions.risky_options import git_config, replace_string, replaced, risky_set


@pytest.mark.parametrize(("words", "risky"), [(("set", "-euo", "pipefail"), False), (("set", "-k"), True)])
def test_only_the_harmless_set_options_are_harmless(words: tuple[str, ...], risky: bool) -> None:
    assert risky_set(words) is risky


def test_git_c_values_are_scripts_git_may_run() -> None:
    found = Found([], [], [], [])
    git_config(("git", "-c", "alias.x=!rm y", "x"), found)
    assert "rm y" in found.scripts
    assert found.hazards


def test_xargs_replace_string_makes_words_unknown() -> None:
    marker = replace_string(("xargs", "-I{}", "rm", "{}"))
    assert marker == "{}"
    assert replaced(("rm", "{}", "x"), marker) == ("rm", None, "x")
