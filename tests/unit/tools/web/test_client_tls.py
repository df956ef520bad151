"""https through the pinned connection: the request goes to the checked IP address, and TLS still
verifies the certificate against the host's name (sent as SNI), with a real TLS server on 127.0.0.1."""

import ssl
import subprocess
from collections.abc import Iterator
from pathlib import Path

import httpx2
import pytest

from decode.tools.web.client import guarded_get
from tests.unit.tools.web.web_server import WebServer, running


def certificate(folder: Path, name: str) -> tuple[Path, Path]:
    """A self-signed certificate for the DNS name `name` only (no IP address in it), and its key."""
    cert, key = folder / f"{name}.pem", folder / f"{name}.key"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
         "-subj", f"/CN={name}",
         "-addext", f"subjectAltName=DNS:{name}", "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )  # fmt: skip
    return cert, key


def tls_server(cert: Path, key: Path) -> ssl.SSLContext:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    return context


@pytest.fixture
def localhost_cert(tmp_path: Path) -> tuple[Path, Path]:
    return certificate(tmp_path, "localhost")


@pytest.fixture
def tls_web(localhost_cert: tuple[Path, Path]) -> Iterator[WebServer]:
    with running(tls_server(*localhost_cert)) as server:
        yield server


async def test_the_certificate_is_checked_against_the_name_not_the_address(
    tls_web: WebServer, localhost_cert: tuple[Path, Path]
) -> None:
    tls_web.page("/p", "over tls", "text/plain")
    trust = ssl.create_default_context(cafile=str(localhost_cert[0]))
    response = await guarded_get(tls_web.url("/p", "localhost"), allows=lambda h: h == "localhost", verify=trust)
    assert response.body == b"over tls"
    assert tls_web.seen == [("/p", f"localhost:{tls_web.port}")]


async def test_a_certificate_for_another_name_is_refused(tls_web: WebServer, tmp_path: Path) -> None:
    other, _ = certificate(tmp_path, "other.example")
    trust = ssl.create_default_context(cafile=str(other))
    with pytest.raises(httpx2.ConnectError, match="CERTIFICATE_VERIFY_FAILED"):
        await guarded_get(tls_web.url("/p", "localhost"), allows=lambda h: h == "localhost", verify=trust)


async def test_by_address_the_name_check_fails(tls_web: WebServer, localhost_cert: tuple[Path, Path]) -> None:
    # The same server reached as https://127.0.0.1: its certificate names localhost, not the address.
    trust = ssl.create_default_context(cafile=str(localhost_cert[0]))
    with pytest.raises(httpx2.ConnectError, match="CERTIFICATE_VERIFY_FAILED"):
        await guarded_get(tls_web.url("/p"), allows=lambda h: h == "127.0.0.1", verify=trust)
