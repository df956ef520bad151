"""load_settings(): decode's settings object, or one line naming the bad setting.

decode's settings object is built once per process, when its module is first imported: each case
runs in a fresh interpreter, with its own environment.
"""

import os
import subprocess
import sys
from pathlib import Path

CODE = """\
from decode.config.loading import ConfigError, load_settings
try:
    settings = load_settings()
except ConfigError as exc:
    print("ConfigError:", exc)
else:
    from decode.config import settings as module
    print(settings is module.settings, settings.max_requests)
"""


def load_in_a_fresh_process(cwd: Path, **env: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", CODE],
        cwd=cwd,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return done.stdout.strip()


def test_good_settings_are_decodes_settings_object(project: Path) -> None:
    assert load_in_a_fresh_process(project, DECODE_MAX_REQUESTS="7") == "True 7"


def test_a_bad_setting_is_a_config_error_naming_it(project: Path) -> None:
    line = load_in_a_fresh_process(project, DECODE_MAX_REQUESTS="0")
    assert line.startswith("ConfigError: invalid setting DECODE_MAX_REQUESTS = '0': ")
    assert line.endswith("(check the environment and .env)")
    assert "\n" not in line


def test_a_bad_kitaru_task_id_names_the_setting_and_its_value(project: Path) -> None:
    # kitaru reads it as a UUID: before, a run that recorded failed later with a bare ValueError.
    line = load_in_a_fresh_process(project, KITARU_TASK_ID="task-7")
    assert line.startswith("ConfigError: invalid setting KITARU_TASK_ID = 'task-7': ")
    assert "UUID" in line
