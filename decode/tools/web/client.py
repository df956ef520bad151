"""One guarded GET: redirects followed by hand, every hop screened, the body capped.

httpx would follow redirects itself, and resolve each host again when it connects: a redirect
(or a DNS answer that changes between the check and the connection, "DNS rebinding") would then
reach an address the SSRF Guard never saw. So each hop is screened, and the request goes to the
checked IP address itself, with the name in the `Host` header and, for https, in TLS's SNI,
against which the certificate is still verified. The gate judged only the first URL, so a hop to
a host a deny rule names is refused too; and a host must be written in ASCII, as rules read it.
"""

import asyncio
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from urllib.parse import urljoin, urlsplit

from decode.tools.web.addresses import Address, Blocked, Resolver, literal_address, resolve_host, screen

if TYPE_CHECKING:
    import ssl

    import httpx2

MAX_HOPS = 5
TIMEOUT_S = 30.0
MAX_BYTES = 5 * 1024 * 1024
USER_AGENT = "decode-web-fetch/1 (+https://github.com/decode)"
_REDIRECTS = frozenset({301, 302, 303, 307, 308})
_NAME = re.compile(r"[a-z0-9_.-]+")  # what `urlsplit(...).hostname` gives for an ASCII name (lower case)


class BadUrl(ValueError):
    """A URL the tool cannot fetch as written (a scheme other than http(s), no host); the model can fix it."""


@dataclass
class Response:
    """What a fetch got: the final URL, the hops before it, status, content type and (capped) body."""

    url: str
    status: int
    reason: str
    content_type: str
    charset: str | None
    body: bytes
    cut: bool = False
    """The body was longer than the cap; `body` is its start."""
    hops: list[str] = field(default_factory=list)
    """The URLs that redirected here, in order."""


def split_url(url: str) -> tuple[str, str, int]:
    """The scheme, host and port of an http(s) URL, or `BadUrl` saying what is wrong."""
    try:
        parts = urlsplit(url.strip())
        host, port = parts.hostname, parts.port
    except ValueError as exc:
        raise BadUrl(f"{url!r} is not a valid URL ({exc})") from None
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https"):
        shown = f"{scheme}:" if scheme else "no scheme"
        raise BadUrl(f"web_fetch fetches http:// and https:// URLs only, and {url!r} has {shown}")
    if not host:
        raise BadUrl(f"{url!r} names no host")
    if "@" in parts.netloc or "\\" in parts.netloc:
        # `https://docs.org@evil.org/`: parsers disagree on such URLs, and a rule could be misled.
        raise BadUrl(f"{url!r} holds a user name, a password or a backslash; give the plain URL")
    if not (_NAME.fullmatch(host) or (":" in host and literal_address(host) is not None)):
        # The resolver reads `evil。example` (IDNA) or `evil.example\0` as evil.example, a rule does not.
        raise BadUrl(f"{url!r} names the host {host!r}; write the host in ASCII{_ascii_spelling(host)}")
    return scheme, host, port or (443 if scheme == "https" else 80)


def _ascii_spelling(host: str) -> str:
    try:
        spelled = host.encode("idna").decode("ascii")
    except UnicodeError:
        return ""
    return f" ({spelled})" if _NAME.fullmatch(spelled) else ""


async def guarded_get(
    url: str,
    *,
    allows: Callable[[str], bool],
    denies: Callable[[str], bool] = lambda host: False,
    resolve: Resolver = resolve_host,
    max_bytes: int = MAX_BYTES,
    timeout: float = TIMEOUT_S,  # noqa: ASYNC109
    verify: "ssl.SSLContext | bool" = True,
) -> Response:
    """GET `url`, following at most `MAX_HOPS` redirects; `allows(host)`: a rule lets the guard
    reach that host's private addresses; `denies(host)`: a rule forbids the host (the gate judged
    the first URL only, so every hop is asked again). `timeout` bounds the whole fetch, hops and body included
    (`TimeoutError`); `verify`: the certificates https trusts (the system's). Raises `BadUrl`,
    `Blocked`, or httpx2's errors."""
    async with asyncio.timeout(timeout):  # httpx's own timeout is per read: a slow drip never ends
        return await _follow(
            url, allows=allows, denies=denies, resolve=resolve, max_bytes=max_bytes, timeout=timeout, verify=verify
        )


async def _follow(
    url: str,
    *,
    allows: Callable[[str], bool],
    denies: Callable[[str], bool],
    resolve: Resolver,
    max_bytes: int,
    timeout: float,  # noqa: ASYNC109
    verify: "ssl.SSLContext | bool",
) -> Response:
    import httpx2

    hops: list[str] = []
    async with httpx2.AsyncClient(timeout=timeout, follow_redirects=False, trust_env=False, verify=verify) as client:
        while True:
            scheme, host, port = split_url(url)
            name = host.rstrip(".")
            if denies(name):
                raise Blocked(f"{url}: a rule denies fetching from {name}")
            screened = await screen(host, port, allowed=allows(name), resolve=resolve)
            client.cookies.clear()  # requests go to addresses: a jar would hand one host's cookies to another
            response = await _connect(client, url, scheme, host, port, screened.addresses)
            try:
                location = response.headers.get("location")
                if response.status_code in _REDIRECTS and location:
                    if len(hops) >= MAX_HOPS:
                        raise Blocked(f"{url} redirects again after {MAX_HOPS} redirects; web_fetch stops there")
                    hops.append(url)
                    url = urljoin(url, location)
                    continue
                body, cut = await _read_capped(response, max_bytes)
            finally:
                await response.aclose()
            content_type = response.headers.get("content-type", "")
            return Response(
                url=url,
                status=response.status_code,
                reason=response.reason_phrase,
                content_type=content_type.split(";", 1)[0].strip().lower(),
                charset=response.charset_encoding,
                body=body,
                cut=cut,
                hops=hops,
            )


async def _connect(
    client: "httpx2.AsyncClient", url: str, scheme: str, host: str, port: int, addresses: Sequence[Address]
) -> "httpx2.Response":
    """Send the request to each checked address in turn until one connects (`localhost` may be
    `::1` first, with the server on 127.0.0.1 only)."""
    import httpx2

    for index, address in enumerate(addresses):
        request = _pinned_request(client, url, scheme, host, port, str(address))
        try:
            return await client.send(request, stream=True)
        except httpx2.ConnectError:
            if index == len(addresses) - 1:
                raise
    raise AssertionError("screen() returns at least one address")


def _pinned_request(
    client: "httpx2.AsyncClient", url: str, scheme: str, host: str, port: int, address: str
) -> "httpx2.Request":
    """A request for `url` sent to `address`: the name goes in `Host` (and SNI, for https)."""
    import httpx2

    target = httpx2.URL(url.strip()).copy_with(host=address, port=port)
    default = (scheme == "https" and port == 443) or (scheme == "http" and port == 80)
    named = f"[{host}]" if ":" in host else host
    headers = {
        "Host": named if default else f"{named}:{port}",
        "User-Agent": USER_AGENT,
        "Accept": "text/html, text/markdown, text/plain, application/json, */*;q=0.5",
        "Accept-Encoding": "identity, gzip",  # encodings whose output can be capped while streaming
    }
    extensions = {"sni_hostname": host} if scheme == "https" else {}
    return client.build_request("GET", target, headers=headers, extensions=extensions)


async def _read_capped(response: "httpx2.Response", max_bytes: int) -> tuple[bytes, bool]:
    """At most `max_bytes` of the (decoded) body, and whether there was more."""
    chunks: list[bytes] = []
    size = 0
    async for chunk in response.aiter_bytes():
        chunks.append(chunk)
        size += len(chunk)
        if size > max_bytes:
            return b"".join(chunks)[:max_bytes], True
    return b"".join(chunks), False
