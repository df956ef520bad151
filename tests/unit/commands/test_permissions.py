"""`decode permissions` and `decode permissions check`, through click's runner in-process."""

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from decode.commands.permissions import permissions
from tests.conftest import own_settings

SETTINGS = """{"permissions": {
  "allow": ["Bash(git status)"],
  "deny": ["Bash(rm:*)"],
  "ask": ["Bash(git push:*)"]
}}
"""


@pytest.fixture
def settings(project: Path, trust_settings: Callable[[Path], Path]) -> Path:
    path = project / ".decode" / "settings.json"
    path.parent.mkdir()
    path.write_text(SETTINGS, encoding="utf-8")
    trust_settings(project)
    return path


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(permissions, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_the_listing_shows_each_rule_with_its_file_deny_first(settings: Path) -> None:
    code, out, _ = invoke()
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "mode: default (built-in)"
    assert [line.split()[0] for line in lines[1:4]] == ["deny", "ask", "allow"]
    assert lines[4:] == ["files read, lowest priority first:", f"  {settings} (project, from the repository)"]
    assert lines[1].split() == ["deny", "Bash(rm:*)", f"{settings}:3", "(project)"]


def test_check_prints_decision_rule_and_file(settings: Path) -> None:
    code, out, _ = invoke("check", "bash", "git status && rm -rf build")
    assert code == 4  # deny
    assert out.splitlines()[:3] == ["deny", "  rule:   Bash(rm:*)", f"  source: {settings}:3 (project)"]


def test_check_json_is_the_documented_shape(settings: Path) -> None:
    code, out, _ = invoke("check", "Bash", "git status", "--json")
    assert code == 0
    data = json.loads(out)
    assert (data["decision"], data["rule"], data["source"], data["line"]) == (
        "allow",
        "Bash(git status)",
        str(settings),
        2,
    )


def test_check_without_a_rule_says_the_mode_decided(project: Path) -> None:
    code, out, _ = invoke("check", "read", "src/app.py", "--permission-mode", "plan")
    assert code == 0
    assert out.splitlines()[:2] == ["allow", "  rule:   none (plan mode decides)"]


def test_a_bad_mode_is_a_usage_error(project: Path) -> None:
    code, _, err = invoke("--mode", "yolo")
    assert code == 2
    assert "unknown permission mode 'yolo'" in err


def test_problems_go_to_stderr_and_the_rest_still_works(project: Path) -> None:
    (project / ".decode").mkdir()
    (project / ".decode" / "settings.local.json").write_text("{oops", encoding="utf-8")
    code, out, err = invoke("--json")
    assert code == 0
    # No good copy of the broken file: its stand-in denies every rule name (ADR-0042).
    denied = {rule["rule"] for rule in json.loads(out)["rules"] if rule["action"] == "deny"}
    assert {"Bash", "Read", "Edit", "Write"} <= denied
    assert "settings.local.json:1: not valid JSON" in err


@pytest.mark.parametrize(
    ("typed", "argument", "decision"),
    [
        ("bash", "git status", "allow"),
        ("Bash", "git status", "allow"),
        ("bash", "rm -rf build", "deny"),
        ("Bash", "rm -rf build", "deny"),
        ("read", "src/app.py", "allow"),
        ("Read", "src/app.py", "allow"),
        ("glob", "../../**/*.pem", "ask"),
        ("mcp__github__get_issue", "", "ask"),
    ],
)
def test_check_takes_a_tool_name_or_its_rule_name(settings: Path, typed: str, argument: str, decision: str) -> None:
    code, out, _ = invoke("check", typed, argument, "--json")
    assert json.loads(out)["decision"] == decision
    assert code == {"allow": 0, "ask": 3, "deny": 4}[decision]


@pytest.mark.parametrize("typed", ["nosuch", "bаsh", "web-fetch"])  # the second has a Cyrillic "а"
def test_check_of_an_unknown_tool_is_a_usage_error(project: Path, typed: str) -> None:
    code, out, err = invoke("check", typed, "anything")
    assert code == 2
    assert out == ""
    assert f"unknown tool {typed!r}" in err
    assert "known: read, glob, grep, edit, write, bash" in err


@pytest.mark.parametrize(
    ("url", "mode", "why"),
    [
        ("http://169.254.169.254/latest/meta-data/", "bypass", "169.254.169.254 is a cloud metadata endpoint"),
        ("http://127.0.0.1:8000/", "bypass", "127.0.0.1 is a loopback address"),
        ("http://localhost:3000/", "default", "localhost resolves to"),
        ("http://2130706433/", "bypass", "is the IPv4 address 127.0.0.1 written another way"),
        ("ftp://example.com/", "bypass", "http:// and https:// URLs only"),
    ],
)
def test_check_of_a_fetch_explains_the_ssrf_guards_refusal(project: Path, url: str, mode: str, why: str) -> None:
    code, out, _ = invoke("check", "web_fetch", url, "--permission-mode", mode, "--json")
    assert code == 4
    verdict = json.loads(out)
    assert verdict["decision"] == "deny"
    assert verdict["reason"].startswith("SSRF Guard: ")
    assert why in verdict["reason"]


def test_a_rule_naming_a_private_host_lets_the_fetch_through(project: Path) -> None:
    own_settings(
        project / ".decode" / "settings.local.json", '{"permissions": {"allow": ["WebFetch(domain:127.0.0.1)"]}}'
    )
    code, out, _ = invoke("check", "WebFetch", "http://127.0.0.1:8000/")
    assert code == 0
    assert out.splitlines()[1] == "  rule:   WebFetch(domain:127.0.0.1)"
    assert out.splitlines()[3].endswith("SSRF Guard: 127.0.0.1 (a private address a rule allows)")
