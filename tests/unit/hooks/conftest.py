"""Hooks for tests: `make_hook(event, command, …)` builds one as a settings file would configure it."""

from collections.abc import Callable
from pathlib import Path

import pytest

from decode.hooks.config import HookCommand
from decode.hooks.events import HookEvent
from decode.permissions.settings_layers import SettingsFile
from decode.permissions.types import Layer

MakeHook = Callable[..., HookCommand]


@pytest.fixture
def make_hook(tmp_path: Path) -> MakeHook:
    def make(
        event: HookEvent, command: str, matcher: str = "", timeout: float = 60.0, shared: bool = False
    ) -> HookCommand:
        layer = Layer.PROJECT if shared else Layer.USER
        return HookCommand(event, matcher, command, timeout, SettingsFile(layer, tmp_path / "settings.json", shared))

    return make
