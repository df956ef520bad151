"""What every sandbox refuses before it runs anything (decode/sandbox/types.py)."""

from pathlib import Path

import pytest

from decode.sandbox.types import refuse_nul


@pytest.mark.parametrize(
    ("argv", "env", "cwd", "error"),
    [
        (
            ["bash", "-c", "echo a\0b"],
            {},
            Path("/w"),
            r"^argument 2 of the command \('echo a\\x00b'\) holds a NUL byte",
        ),
        (["true"], {"X": "a\0b"}, Path("/w"), r"^the environment variable 'X' holds a NUL byte"),
        (["true"], {"X\0": "b"}, Path("/w"), r"^the environment variable 'X\\x00' holds a NUL byte"),
        (["true"], {}, Path("/w\0x"), r"^the working directory '/w\\x00x' holds a NUL byte"),
    ],
)
def test_a_nul_byte_anywhere_in_a_command_is_named(argv: list[str], env: dict[str, str], cwd: Path, error: str) -> None:
    with pytest.raises(ValueError, match=error):
        refuse_nul(argv, env, cwd)


def test_a_command_without_one_passes() -> None:
    assert refuse_nul(["bash", "-c", "echo ok"], {"HOME": "/tmp"}, Path("/w")) is None
