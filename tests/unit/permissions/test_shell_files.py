"""The words of a command that may name files: the gate checks each for secret files and Read rules."""

from decode.permissions.shell import parse_script
from decode.permissions.shell_files import named_files


def test_words_that_may_name_files() -> None:
    (command,) = parse_script('cat $HOME/.env "$PWD/a" --env-file=.b if=.c @.d -n src/x').commands
    assert command.files == ("~/.env", "./a", ".b", ".c", "if=.c", ".d", "src/x")
    assert parse_script("cat {x,.env}").commands[0].files == ("x", ".env")
    assert parse_script("cd docs && cat y").commands[1].files == ("y", "docs/y")


def test_tar_names_the_files_it_reads_below_its_c_folder() -> None:
    assert named_files([], [], ("tar", "-cf", "-", "-C", "/etc", "shadow"), False, []) == ("/etc/shadow",)
