import logging
import subprocess
import sys

import pytest

from decode.logging import init_logger


def test_init_logger_is_idempotent_and_sets_the_level() -> None:
    logger = init_logger("INFO")
    handlers = list(logger.handlers)
    assert init_logger("debug") is logger
    assert logger.handlers == handlers
    assert logger.level == logging.DEBUG
    init_logger("WARNING")


def test_records_go_to_stderr_never_stdout() -> None:
    code = (
        "from decode.logging import init_logger; import logging; init_logger(); "
        "logging.getLogger('decode.x').warning('careful')"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout == ""
    assert "careful" in done.stderr
    assert "decode.x" in done.stderr


@pytest.mark.parametrize("level", ["INFO", "DEBUG"])
def test_below_warning_is_silent_by_default(level: str) -> None:
    code = (
        "from decode.logging import init_logger; import logging; init_logger(); "
        f"logging.getLogger('decode').log(logging.{level}, 'noise')"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "noise" not in done.stderr
