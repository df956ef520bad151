"""Splitting a script into the simple commands bash would run, with tree-sitter-bash."""

import pytest

from decode.permissions.shell import Redirect, parse_script


def words(script: str) -> list[tuple[str | None, ...]]:
    return [command.words for command in parse_script(script).commands]


@pytest.mark.parametrize(
    "script",
    [
        "git status && rm -rf build",
        "git status; rm -rf build",
        "git status || rm -rf build",
        "git status | rm -rf build",
        "git status\nrm -rf build",
        "(git status; rm -rf build)",
        "{ git status; rm -rf build; }",
        "if git status; then rm -rf build; fi",
    ],
)
def test_every_separator_yields_every_simple_command(script: str) -> None:
    assert words(script) == [("git", "status"), ("rm", "-rf", "build")]


@pytest.mark.parametrize(
    ("script", "name"),
    [
        ("'rm' x", "rm"),
        ('"rm" x', "rm"),
        ("r\\m x", "rm"),
        ("r''m x", "rm"),
        ("$'\\x72m' x", "rm"),
        ("\\\nrm x", "rm"),
    ],
)
def test_quotes_are_removed_the_way_bash_removes_them(script: str, name: str) -> None:
    assert words(script) == [(name, "x")]


def test_words_known_only_at_run_time_are_none() -> None:
    assert words('ls "$HOME" ${X:-y} {a,b} "$(id)" plain') == [("id",), ("ls", None, None, None, None, "plain")]


def test_comments_and_quoted_text_are_not_commands() -> None:
    assert words("echo 'a; rm -rf /' # ; rm -rf /") == [("echo", "a; rm -rf /")]


def test_substitutions_are_hazards_and_their_commands_are_found() -> None:
    script = parse_script("echo $(rm -rf /) `id` <(ls)")
    assert ("rm", "-rf", "/") in [c.words for c in script.commands]
    assert ("id",) in [c.words for c in script.commands]
    assert len(script.hazards) == 2


def test_what_the_parser_cannot_read_is_a_hazard() -> None:
    assert parse_script("echo 'unterminated").hazards == ("the shell parser cannot read all of it",)


def test_a_quoted_here_doc_is_data_and_an_unquoted_one_expands() -> None:
    assert parse_script("cat <<'EOF'\n$(id)\nEOF").hazards == ()
    assert parse_script("cat <<EOF\n$(id)\nEOF").hazards != ()


def test_redirections_that_write_and_read_files() -> None:
    script = parse_script("sort < in.txt > out.txt 2>> err.log &> all.log 2>&1 > /dev/null")
    assert script.redirects == (
        Redirect("in.txt", writes=False),
        Redirect("out.txt", writes=True),
        Redirect("err.log", writes=True),
        Redirect("all.log", writes=True),
    )


def test_after_cd_a_relative_redirect_target_is_unknown() -> None:
    assert parse_script("cd /etc && echo x > passwd").redirects == (Redirect(None, writes=True),)
    assert parse_script("cd /etc && echo x > /tmp/x").redirects == (Redirect("/tmp/x", writes=True),)


def test_stdin_fed_commands_and_variable_prefixes_are_marked() -> None:
    first, second = parse_script("FOO=1 cat x | sh").commands
    assert (first.sets_variables, first.stdin_fed) == (True, False)
    assert (second.sets_variables, second.stdin_fed) == (False, True)
    assert parse_script("bash <<< 'ls'").commands[0].stdin_fed
