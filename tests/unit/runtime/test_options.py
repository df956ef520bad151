"""The lesson-15 options: rule lists split and parsed, taken out of the command's arguments."""

import subprocess
import sys

import click
import pytest
from click.testing import CliRunner

from decode.permissions.types import Decision
from decode.runtime.options import session_rules, split_rules, take_headless_options
from decode.runtime.run import run

HEAVY = {"pydantic", "pydantic_ai", "pydantic_settings", "openai", "google", "httpx", "rich", "opik", "kitaru", "modal"}


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        (("Read",), ["Read"]),
        (("Bash(git diff:*) Read",), ["Bash(git diff:*)", "Read"]),
        (("Edit(src/**),Write", "  Bash(npm test) ,, Grep "), ["Edit(src/**)", "Write", "Bash(npm test)", "Grep"]),
        (("",), []),
    ],
)
def test_rules_split_on_commas_and_spaces_outside_parentheses(values: tuple[str, ...], expected: list[str]) -> None:
    assert split_rules(values) == expected


def test_session_rules_are_parsed_with_their_action_and_source() -> None:
    (rule,) = session_rules(["bash(git diff:*)"], "deny")
    assert (rule.action, rule.tool, rule.specifier) == (Decision.DENY, "Bash", "git diff:*")
    assert str(rule.source) == "--disallowed-tools"


@pytest.mark.parametrize("text", ["Bash(ls", "Bаsh", "Read(", "WebFetch(domain:)"])
def test_a_rule_that_cannot_be_read_is_a_usage_error(text: str) -> None:
    with pytest.raises(click.UsageError, match="rule"):
        session_rules([text], "allow")


def test_the_options_are_taken_out_and_the_rest_left_for_the_loop() -> None:
    options = {"model": "test", "output_format": "json", "quiet": True, "continue_": True, "resume": None,
               "allowed_tools": ("Read",), "disallowed_tools": (), "summary_json": None, "cwd": None,
               "append_system_prompt": "be brief"}  # fmt: skip
    taken = take_headless_options(options)
    assert options == {"model": "test", "resume": ""}  # --continue: the newest session
    assert (taken.output_format, taken.quiet, taken.append_system_prompt) == ("json", True, "be brief")
    assert [rule.tool for rule in taken.allow] == ["Read"]


def test_help_documents_every_exit_code() -> None:
    result = CliRunner().invoke(run, ["--help"])
    text = " ".join(result.output.split())
    for code in ("0 done", "1 the run failed", "2 usage", "3 the request ceiling", "130 interrupted", "128+N"):
        assert code in text
    for option in ("--output-format", "--allowed-tools", "--disallowed-tools", "--continue", "--summary-json", "-q"):
        assert option in text


def test_run_help_imports_nothing_heavy() -> None:
    code = (
        "import sys\nfrom decode.cli import cli\ntry:\n    cli(['run', '--help'])\nexcept SystemExit:\n    pass\n"
        "print('--- modules'); print('\\n'.join(sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    help_text, _, modules = done.stdout.partition("--- modules\n")
    heavy = {name for name in modules.split() if name.split(".")[0] in HEAVY}
    assert not heavy, sorted(heavy)[:5]
    assert "--output-format" in help_text
