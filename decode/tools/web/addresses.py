"""The SSRF Guard: which addresses `web_fetch` may connect to.

A fetch tool runs on the user's machine, inside their network: a page (or a prompt injection in
one) that makes the agent fetch `http://169.254.169.254/` reads the cloud's credentials, and
`http://localhost:8080/admin` reaches services nobody meant to expose. So before every connection
(each redirect hop too) the host is resolved and every address it resolves to is checked:
loopback, private, link-local, unique-local, CGNAT, multicast, reserved and unspecified addresses
(and IPv6 forms that carry one of those) are refused unless a rule allows the host by name
(`WebFetch(domain:localhost)`); cloud metadata endpoints are refused always. The connection then
goes to the address that was checked, so DNS cannot answer differently a moment later.
"""

import asyncio
import ipaddress
import socket
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Resolver = Callable[[str, int], Awaitable[Sequence[str]]]
"""Resolves a host name and port to IP address strings (`getaddrinfo` unless a test gives one)."""

# Not reachable from the public internet: a fetch there reaches the user's own network.
BLOCKED_NETWORKS: tuple[tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, str], ...] = tuple(
    (ipaddress.ip_network(network), what)
    for network, what in (
        ("0.0.0.0/8", "an unspecified address"),
        ("10.0.0.0/8", "a private address"),
        ("100.64.0.0/10", "a carrier-grade NAT address"),
        ("127.0.0.0/8", "a loopback address"),
        ("169.254.0.0/16", "a link-local address"),
        ("172.16.0.0/12", "a private address"),
        ("192.0.0.0/24", "a reserved address"),
        ("192.0.2.0/24", "a documentation address"),
        ("192.168.0.0/16", "a private address"),
        ("198.18.0.0/15", "a reserved address"),
        ("198.51.100.0/24", "a documentation address"),
        ("203.0.113.0/24", "a documentation address"),
        ("224.0.0.0/4", "a multicast address"),
        ("240.0.0.0/4", "a reserved address"),
        ("::/128", "an unspecified address"),
        ("::1/128", "a loopback address"),
        ("100::/64", "a reserved address"),
        ("2001::/23", "a reserved address"),  # Teredo (its IPv4 is obfuscated), ORCHID, benchmarking
        ("2001:db8::/32", "a documentation address"),
        ("fc00::/7", "a unique-local address"),
        ("fe80::/10", "a link-local address"),
        ("fec0::/10", "a site-local address"),
        ("ff00::/8", "a multicast address"),
    )
)
METADATA_ADDRESSES = frozenset(
    ipaddress.ip_address(a)
    for a in ("169.254.169.254", "169.254.170.2", "100.100.100.200", "168.63.129.16", "fd00:ec2::254")
)
"""Cloud metadata endpoints (AWS, ECS, Alibaba, Azure, AWS over IPv6): never fetched, rule or not."""
METADATA_HOSTS = frozenset({"metadata.google.internal", "metadata.goog", "metadata"})
# IPv6 prefixes whose last 32 bits are an IPv4 address a translator reaches: NAT64 (well-known and
# local-use, RFC 8215) and SIIT's IPv4-translated form (RFC 2765).
_CARRY_LOW_32 = tuple(ipaddress.IPv6Network(n) for n in ("64:ff9b::/96", "64:ff9b:1::/48", "::ffff:0:0:0/96"))


class Blocked(Exception):
    """The guard refused a host; the message says which address and why."""


@dataclass(frozen=True)
class Screened:
    """A host that passed the guard and the addresses it resolved to (connect to the first)."""

    host: str
    addresses: tuple[Address, ...]
    private: bool = False
    """Some address is private or loopback, and a rule allowed the host."""


def literal_address(host: str) -> Address | None:
    """The address a host written as an IP literal names, in any spelling a resolver accepts:
    `127.0.0.1`, `[::1]`, `2130706433` (decimal), `0x7f.1` (hex), `0177.0.0.1` (octal)."""
    text = host.strip("[]")
    try:
        return ipaddress.ip_address(text.split("%", 1)[0])  # a zone (`fe80::1%eth0`) does not change the address
    except ValueError:
        pass
    if not text or not all(c in "0123456789abcdefxABCDEFX." for c in text):
        return None
    try:  # inet_aton reads the BSD forms (`0x7f.1`, `2130706433`) that getaddrinfo and browsers accept
        return ipaddress.IPv4Address(socket.inet_aton(text))
    except OSError:
        return None


def embedded_ipv4(address: Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 one carries (`::ffff:127.0.0.1`, `::127.0.0.1`, 6to4, NAT64, SIIT)."""
    if isinstance(address, ipaddress.IPv4Address):
        return None
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address.sixtofour is not None:
        return address.sixtofour
    if any(address in network for network in _CARRY_LOW_32) or (int(address) >> 32 == 0 and int(address) > 1):
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return None


def why_blocked(address: Address) -> str | None:
    """What kind of address this is when it is not public ("a loopback address"), else None."""
    if isinstance(address, ipaddress.IPv6Address) and address.scope_id is not None:
        address = ipaddress.IPv6Address(address.packed)
    inner = embedded_ipv4(address)
    for candidate in (address, inner):
        if candidate is None:
            continue
        if candidate in METADATA_ADDRESSES:
            return "a cloud metadata endpoint"
        for network, what in BLOCKED_NETWORKS:
            if candidate.version == network.version and candidate in network:
                return what if candidate is address else f"{what} inside an IPv6 one"
    return None


async def resolve_host(host: str, port: int) -> list[str]:
    """The addresses `host` resolves to, in the resolver's order (getaddrinfo runs in a thread)."""
    loop = asyncio.get_running_loop()
    try:
        found = await loop.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        raise Blocked(f"{host} does not resolve ({exc})") from None
    return list(dict.fromkeys(str(info[4][0]) for info in found))


async def screen(host: str, port: int, *, allowed: bool, resolve: Resolver = resolve_host) -> Screened:
    """Resolve `host` and check every address; `allowed`: a rule names the host, so private and
    loopback addresses may be reached (metadata endpoints never). Raises `Blocked`."""
    name = host.lower().rstrip(".")
    if name in METADATA_HOSTS:
        raise Blocked(f"{host} is a cloud metadata endpoint, which web_fetch never fetches")
    literal = literal_address(name)
    # `http://2130706433/` is 127.0.0.1 to the resolver but not to a rule, and `[::ffff:8.8.8.8]`
    # reaches 8.8.8.8 itself: say what it is.
    ipv4 = literal.ipv4_mapped if isinstance(literal, ipaddress.IPv6Address) else literal
    if ipv4 is not None and str(ipv4) != name:
        raise Blocked(f"{host} is the IPv4 address {ipv4} written another way; write it as {ipv4}")
    if literal is not None:
        addresses: tuple[Address, ...] = (literal,)
    else:
        found = await resolve(name, port)
        addresses = tuple(a for a in (literal_address(text) for text in found) if a is not None)
        if not addresses:
            raise Blocked(f"{host} resolves to no address")
    private = False
    for address in addresses:
        what = why_blocked(address)
        if what is None:
            continue
        shown = f"{host} is {what}" if literal is not None else f"{host} resolves to {address}, {what}"
        if what == "a cloud metadata endpoint":
            raise Blocked(f"{shown}, which web_fetch never fetches")
        if not allowed:
            raise Blocked(f"{shown}: web_fetch reaches only public addresses unless {_advice(name, literal)}")
        private = True
    return Screened(name, addresses, private)


def _advice(name: str, literal: Address | None) -> str:
    if literal is not None and literal.version == 6:  # rules name hosts and IPv4 addresses only
        return "a rule allows the host by name (an IPv6 address cannot be allowed: use a name or 127.0.0.1)"
    return f"a rule allows the host (WebFetch(domain:{name}) in .decode/settings.local.json)"
