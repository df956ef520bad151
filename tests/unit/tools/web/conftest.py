"""Fixtures for the web tool's tests: a real HTTP server on 127.0.0.1."""

from collections.abc import Iterator

import pytest

from tests.unit.tools.web.web_server import WebServer, running


@pytest.fixture
def web() -> Iterator[WebServer]:
    with running() as server:
        yield server
