"""The loopback Opik collector (lessons/22-observability/collector.py), for the tracing tests."""

import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

COLLECTOR_FILE = Path(__file__).resolve().parents[3] / "lessons" / "22-observability" / "collector.py"


def collector_module() -> ModuleType:
    """The collector module, loaded from the lesson's folder (the notebook uses the same one)."""
    if (loaded := sys.modules.get("decode_opik_collector")) is not None:
        return loaded
    spec = importlib.util.spec_from_file_location("decode_opik_collector", COLLECTOR_FILE)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["decode_opik_collector"] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def collector() -> Iterator["object"]:
    """A running collector on 127.0.0.1 (its `url` is what `OPIK_URL_OVERRIDE` gets), stopped after the test."""
    with collector_module().Collector() as running:
        yield running
