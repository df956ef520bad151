"""The tables that say where a command's name ends: an interpreter's script, a CLI's subcommand path."""

import pytest

from decode.permissions.command_paths import interpreter, script_path, subcommand_path


@pytest.mark.parametrize(
    ("words", "named"),
    [
        (["python3", "-m", "pytest", "-x"], (["python3", "-m"], ["pytest", "-x"])),
        (["python", "-B", "x.py", "-c", "y"], (["python", "-B", "x.py"], [])),  # `-c` after the script is its own
        (["java", "-jar", "a.jar"], (["java", "-jar", "a.jar"], [])),
        (["pwsh", "-NoProfile", "-File", "a.ps1"], (["pwsh", "-NoProfile", "-File", "a.ps1"], [])),
        (["python", "-c", "code"], None),
        (["python", "-m"], None),
        (["python", "-m", "timeit", "1"], None),
        (["java", "-jar"], None),
        (["node"], None),
    ],
)
def test_script_path(words: list[str], named: tuple[list[str], list[str]] | None) -> None:
    spec = interpreter(words[0])
    assert spec is not None
    assert script_path(words, spec) == named


def test_which_names_are_interpreters() -> None:
    assert interpreter("python3.12") is not None
    assert interpreter("pypy3") is not None
    assert interpreter("bash") is not None
    assert interpreter("pythonic") is None
    assert interpreter("git") is None


@pytest.mark.parametrize(
    ("words", "path"),
    [
        (["aws", "s3", "ls", "s3://b"], ["aws", "s3", "ls"]),
        (["aws", "s3"], None),
        (["aws", "s3", "rm"], None),
        (["aws", "ec2", "run-instances"], None),
        (["gcloud", "compute", "instances", "list"], ["gcloud", "compute", "instances", "list"]),
        (["gcloud", "compute", "instances"], None),  # no verb yet
        (["az", "vm", "show", "x"], ["az", "vm", "show"]),
        (["kubectl", "get", "pods"], ["kubectl", "get"]),
        (["kubectl", "rollout", "status", "d"], ["kubectl", "rollout", "status"]),
        (["docker", "image", "ls"], ["docker", "image", "ls"]),
        (["docker", "image", "rm", "x"], None),
        (["gh", "pr", "view", "1"], ["gh", "pr", "view"]),
        (["gh", "api", "x"], None),
        (["gh", "status"], ["gh", "status"]),
        (["gh", "auth", "token"], None),
        (["aws", "secretsmanager", "get-secret-value"], None),
        (["aws", "ssm", "get-parameter"], None),
        (["az", "keyvault", "secret", "show"], None),
    ],
)
def test_subcommand_path(words: list[str], path: list[str] | None) -> None:
    assert subcommand_path(words[0], words) == path
