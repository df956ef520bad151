"""The two readings of a listed command's options: known only, and any but the blocked."""

from decode.permissions.readonly_options import ReadOnly, blocked, known_options, parse

TAIL_LIKE = known_options("q", "n", "--quiet", "--lines", r"-[0-9]+", {"-f": "never ends"})


def test_known_only_takes_listed_options_and_their_values() -> None:
    assert parse("tail", ("-n", "5", "-q", "--lines=3", "-20", "a.txt"), TAIL_LIKE) == ReadOnly("tail", ("a.txt",))


def test_known_only_refuses_an_unknown_option_with_its_note() -> None:
    assert parse("tail", ("-f", "a.txt"), TAIL_LIKE) == "tail -f never ends"
    assert parse("tail", ("--out", "a.txt"), TAIL_LIKE) == "tail --out is not an option known to be read-only"
    assert parse("tail", ("-n",), TAIL_LIKE) == "tail: an option lacks its value"


def test_any_but_the_blocked_refuses_an_abbreviation_of_a_blocked_option() -> None:
    assert blocked("git diff", ("--outp=x",), {"--output": "writes a file"}, {}) == "git diff --output writes a file"
    assert blocked("grep", ("-r", "x"), {}, {"r": "searches a folder"}) == "grep -r searches a folder"


def test_any_but_the_blocked_checks_option_values_and_operands_as_paths() -> None:
    assert blocked("cat", ("--x=/etc/a", "--", "-b"), {}, {}) == ReadOnly("cat", ("/etc/a", "-b"))
    assert blocked("grep", ("-f.env", "x"), {}, {}, files="f") == ReadOnly("grep", (".env", "x"))
