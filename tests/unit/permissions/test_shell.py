"""Splitting a script into the simple commands bash would run, with tree-sitter-bash."""

import pytest

from decode.permissions.shell import (
    ARITHMETIC,
    EXPANSION,
    TOO_DEEP,
    TOO_LARGE,
    TOO_LONG,
    Glob,
    Redirect,
    parse_script,
)


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


# --- what bash does before parsing: line continuations, brace expansion, patterns ----------------


def test_a_word_split_by_a_continuation_is_one_word() -> None:
    assert ("rm", "x") in words("r\\\nm x")
    assert ("rm", "x") in words("# c \\\nr\\\nm x")
    assert ("rm", "-rf", "/") in words("cat <<'EOF'\nfoo\\\nEOF\nrm -rf /\n")


@pytest.mark.parametrize(
    ("script", "expected"),
    [
        ("{rm,x} y", ("rm", "x", "y")),
        ("{r,}m x", ("rm", "m", "x")),
        ("ls; {rm,-rf,/}", ("rm", "-rf", "/")),
        ("r{m,} x", ("rm", "x")),
    ],
)
def test_a_braced_command_is_expanded_for_denies(script: str, expected: tuple[str, ...]) -> None:
    alternatives = [form for command in parse_script(script).commands for form in command.alternatives]
    assert expected in alternatives


def test_unquoted_patterns_are_globs_and_quoted_ones_are_not() -> None:
    (command,) = parse_script("ls *.py '*.md' r\\* a[1] [").commands
    assert [isinstance(word, Glob) for word in command.words] == [False, True, False, False, True, False]
    assert isinstance(parse_script("/usr/bin/r[m] x").commands[0].words[0], Glob)
    assert any(isinstance(c.words[0], Glob) for c in parse_script("r[[:lower:]] x").commands)


# --- hazards: what the checker cannot prove harmless --------------------------------------------


@pytest.mark.parametrize(
    "script",
    [
        "[[ 'a[$(id)]' -eq 0 ]]",
        "(( x ))",
        "echo $((x))",
        "echo $[x]",
        "for ((i = 0; i < 3; i++)); do ls; done",
        "[[ -v x ]]",
        "echo ${x@P}",
        "echo ${!x}",
        "echo ${x:=y}",
        "echo ${a[i]}",
        "echo ${PATH:x}",
    ],
)
def test_arithmetic_and_code_running_expansions_are_hazards_that_hide_commands(script: str) -> None:
    parsed = parse_script(script)
    assert {ARITHMETIC, EXPANSION} & set(parsed.hazards)
    assert parsed.opaque  # what they run is data to the parser: a Bash deny must ask


@pytest.mark.parametrize(
    "script",
    ["[[ -f x ]] && ls", "[[ $a == b* ]]", "[[ a =~ ^x ]]", "echo ${#x} ${x:-a} ${x%%.*} ${a[@]} ${a[0]} ${x:1:2}"],
)
def test_file_string_and_plain_expansion_forms_are_not_hazards(script: str) -> None:
    assert parse_script(script).hazards == ()


@pytest.mark.parametrize(
    ("script", "opaque"),
    [
        ("x=1; ls", False),
        ("for f in *; do ls; done", False),
        ("HOME=/tmp; git status", True),
        ("for HOME in /tmp; do git status; done", True),
        ("a[i]=1", True),
        ("export PATH=/evil", True),
        ("local x", False),
        ("declare -i x=1", True),
        ("GIT_DIR=/tmp git status", True),
        ("foo=1 ls", False),
    ],
)
def test_setting_variables_is_a_hazard_and_environment_names_hide_what_runs(script: str, opaque: bool) -> None:
    parsed = parse_script(script)
    assert parsed.hazards or parsed.commands[-1].sets_variables  # `FOO=1 cmd`: commands.py says why
    assert parsed.opaque is opaque


# --- redirections, files named by words, what a shell is fed ------------------------------------


@pytest.mark.parametrize(
    ("script", "target"),
    [
        ("echo x > /dev/fd/../../../etc/passwd", "/etc/passwd"),
        ("echo x > /dev/stdout/../x", "/dev/x"),
        ("echo x > /dev/fd/2x", "/dev/fd/2x"),
        ("echo x > ~root/.bashrc", None),
        ("echo x > ~+/y", None),
        ("echo x > *.json", None),
    ],
)
def test_redirect_targets_are_normalised_and_only_real_devices_are_devices(script: str, target: str | None) -> None:
    assert parse_script(script).redirects == (Redirect(target, writes=True),)


@pytest.mark.parametrize("device", ["/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/fd/2", "/dev/./null"])
def test_real_devices_are_not_files(device: str) -> None:
    assert parse_script(f"echo x > {device}").redirects == ()


def test_a_redirection_to_dev_tcp_is_a_hazard() -> None:
    assert (
        "a redirection to /dev/tcp or /dev/udp opens a network connection"
        in parse_script("cat x > /dev/tcp/h/80").hazards
    )


def test_what_a_shell_is_fed_is_known_when_the_script_says() -> None:
    assert parse_script("sh <<EOF\nrm x\nEOF").commands[0].stdin_text == "rm x\n"
    assert parse_script("bash <<< 'rm x'").commands[0].stdin_text == "rm x"
    assert parse_script("echo 'rm x' | sh").commands[1].stdin_text == "rm x"
    assert parse_script("curl x | sh").commands[1].stdin_text is None


# --- input too deep, too long or too large never crashes: it asks -----------------------------


@pytest.mark.parametrize("depth", [200, 250, 1000])
def test_deep_nesting_is_a_hazard_not_a_crash(depth: int) -> None:
    parsed = parse_script("echo " + "$(echo " * depth + "x" + ")" * depth)
    assert parsed.opaque
    assert parsed.hazards


def test_deep_subshells_and_long_or_large_scripts_ask() -> None:
    assert TOO_DEEP in parse_script("(" * 400 + "ls" + ")" * 400).hazards
    assert TOO_LONG in parse_script("x" * 100_001).hazards
    assert TOO_LARGE in parse_script("; ".join(["ls"] * 300)).hazards
    assert parse_script("; ".join(["ls"] * 300)).opaque


def test_a_long_and_chain_is_walked_flat() -> None:
    parsed = parse_script(" && ".join(f"echo {n}" for n in range(150)))
    assert len(parsed.commands) == 150
    assert parsed.hazards == ()
