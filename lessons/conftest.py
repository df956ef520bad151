"""Running the lesson notebooks under nbval (`pytest --nbval --nbval-current-env lessons/`).

nbval starts one kernel per notebook, and the kernel inherits this process's environment. A
notebook must show the same outputs on every machine, offline and with no key, so its kernel
starts without the developer's keys and `DECODE_*` settings and with HOME pointing at an empty
folder (no user-level `~/.decode/` files). The same rule as `tests/conftest.py`, applied to kernels.
"""

import os
import shutil
import tempfile
from collections.abc import Generator

import pytest

# Provider settings that are not DECODE_*-prefixed (see decode/config/settings.py).
PROVIDER_VARIABLES = {"GEMINI_BASE_URL", "OPENROUTER_BASE_URL", "OPENAI_BASE_URL"}
NOTEBOOK_HOMES = pytest.StashKey[list[str]]()


def _is_decode_setting(name: str) -> bool:
    return name.startswith("DECODE_") or name.endswith("_API_KEY") or name in PROVIDER_VARIABLES


def _notebook_home(item: pytest.Item) -> str:
    """An empty HOME folder for this notebook's kernel, removed when the session ends."""
    homes = item.config.stash.setdefault(NOTEBOOK_HOMES, [])
    home = tempfile.mkdtemp(prefix="decode-notebook-home-")
    homes.append(home)
    return home


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Generator[None, object, object]:
    # nbval starts a notebook's kernel while setting up the notebook's first cell, inside this
    # hook; the kernel keeps the environment it started with.
    if item.path.suffix != ".ipynb" or getattr(item.parent, "kernel", None) is not None:
        return (yield)
    with pytest.MonkeyPatch.context() as patch:
        for name in list(os.environ):
            if _is_decode_setting(name):
                patch.delenv(name)
        patch.setenv("HOME", _notebook_home(item))
        return (yield)


def pytest_unconfigure(config: pytest.Config) -> None:
    for home in config.stash.get(NOTEBOOK_HOMES, []):
        shutil.rmtree(home, ignore_errors=True)
