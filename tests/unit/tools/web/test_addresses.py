"""The SSRF Guard: every class of address it refuses, literals in every spelling, names that
resolve to private addresses, and what a rule naming the host changes."""

import ipaddress

import pytest

from decode.tools.web.addresses import Blocked, literal_address, screen, why_blocked


def resolver(table: dict[str, list[str]]):
    """A resolver answering from `table` (what DNS would say), recording what it was asked."""

    async def resolve(host: str, port: int) -> list[str]:
        if host not in table:
            raise Blocked(f"{host} does not resolve")
        return table[host]

    return resolve


@pytest.mark.parametrize(
    ("address", "kind"),
    [
        ("127.0.0.1", "loopback"),
        ("127.255.0.9", "loopback"),
        ("::1", "loopback"),
        ("10.1.2.3", "private"),
        ("172.16.0.1", "private"),
        ("172.31.255.255", "private"),
        ("192.168.1.1", "private"),
        ("169.254.1.1", "link-local"),
        ("fe80::1", "link-local"),
        ("fc00::1", "unique-local"),
        ("fd12:3456::1", "unique-local"),
        ("100.64.0.1", "carrier-grade NAT"),
        ("100.127.255.254", "carrier-grade NAT"),
        ("0.0.0.0", "unspecified"),
        ("::", "unspecified"),
        ("224.0.0.1", "multicast"),
        ("ff02::1", "multicast"),
        ("240.0.0.1", "reserved"),
        ("255.255.255.255", "reserved"),
        ("192.0.2.10", "documentation"),
        ("169.254.169.254", "cloud metadata"),
        ("fd00:ec2::254", "cloud metadata"),
        ("100.100.100.200", "cloud metadata"),
        ("::ffff:127.0.0.1", "loopback address inside an IPv6"),
        ("::ffff:10.0.0.1", "private address inside an IPv6"),
        ("::ffff:169.254.169.254", "cloud metadata"),
        ("::127.0.0.1", "loopback address inside an IPv6"),
        ("2002:7f00:1::", "loopback address inside an IPv6"),  # 6to4 of 127.0.0.1
        ("64:ff9b::a9fe:a9fe", "cloud metadata"),  # NAT64 of 169.254.169.254
        ("64:ff9b:1::7f00:1", "loopback address inside an IPv6"),  # local-use NAT64 (RFC 8215)
        ("::ffff:0:7f00:1", "loopback address inside an IPv6"),  # IPv4-translated (SIIT, RFC 2765)
        ("2001:0:4136:e378:8000:63bf:80ff:fffe", "reserved"),  # Teredo: the IPv4 inside is obfuscated
        ("fec0::1", "site-local"),
    ],
)
def test_addresses_outside_the_public_internet_are_named(address: str, kind: str) -> None:
    what = why_blocked(ipaddress.ip_address(address))
    assert what is not None
    assert kind in what


@pytest.mark.parametrize("address", ["8.8.8.8", "93.184.216.34", "172.32.0.1", "100.128.0.1", "2606:4700::1111"])
def test_public_addresses_pass(address: str) -> None:
    assert why_blocked(ipaddress.ip_address(address)) is None


@pytest.mark.parametrize(
    ("host", "address"),
    [
        ("127.0.0.1", "127.0.0.1"),
        ("2130706433", "127.0.0.1"),  # decimal
        ("0x7f000001", "127.0.0.1"),  # hex
        ("0x7f.1", "127.0.0.1"),  # hex, two parts
        ("0177.0.0.1", "127.0.0.1"),  # octal
        ("127.1", "127.0.0.1"),
        ("[::1]", "::1"),
        ("fe80::1%eth0", "fe80::1"),
        ("example.com", None),
        ("deadbeef.com", None),
        ("", None),
    ],
)
def test_literals_in_every_spelling_a_resolver_accepts(host: str, address: str | None) -> None:
    found = literal_address(host)
    assert (str(found) if found else None) == address


async def test_a_name_that_resolves_to_loopback_is_refused() -> None:
    resolve = resolver({"innocent.example": ["93.184.216.34", "127.0.0.1"]})
    with pytest.raises(Blocked, match=r"innocent.example resolves to 127.0.0.1, a loopback address"):
        await screen("innocent.example", 80, allowed=False, resolve=resolve)


async def test_localhost_is_refused_after_real_resolution() -> None:
    with pytest.raises(Blocked, match=r"localhost resolves to .*loopback.*WebFetch\(domain:localhost\)"):
        await screen("localhost", 80, allowed=False)


async def test_a_public_name_passes_with_its_addresses() -> None:
    resolve = resolver({"docs.example": ["93.184.216.34", "2606:2800:220:1::1"]})
    screened = await screen("Docs.Example.", 443, allowed=False, resolve=resolve)
    assert screened.host == "docs.example"
    assert [str(a) for a in screened.addresses] == ["93.184.216.34", "2606:2800:220:1::1"]
    assert not screened.private


async def test_a_rule_naming_the_host_lets_private_addresses_through() -> None:
    screened = await screen("127.0.0.1", 8000, allowed=True)
    assert screened.private
    assert str(screened.addresses[0]) == "127.0.0.1"


@pytest.mark.parametrize(
    "host", ["169.254.169.254", "metadata.google.internal", "METADATA.google.internal.", "[fd00:ec2::254]"]
)
async def test_metadata_endpoints_are_refused_even_with_a_rule(host: str) -> None:
    with pytest.raises(Blocked, match="cloud metadata endpoint"):
        await screen(host, 80, allowed=True)


async def test_a_name_resolving_to_metadata_is_refused_even_with_a_rule() -> None:
    resolve = resolver({"meta.example": ["169.254.169.254"]})
    with pytest.raises(Blocked, match=r"meta\.example resolves to 169\.254\.169\.254, a cloud metadata endpoint"):
        await screen("meta.example", 80, allowed=True, resolve=resolve)


@pytest.mark.parametrize("host", ["2130706433", "0x7f.1", "0177.0.0.1", "0x08080808"])
async def test_ipv4_written_another_way_is_refused_whatever_it_names(host: str) -> None:
    with pytest.raises(Blocked, match="written another way"):
        await screen(host, 80, allowed=True)


async def test_ipv6_literals_cannot_be_allowed_by_a_rule_and_the_message_says_so() -> None:
    with pytest.raises(Blocked, match="an IPv6 address cannot be allowed"):
        await screen("[::1]", 80, allowed=False)


@pytest.mark.parametrize(("host", "address"), [("[::ffff:8.8.8.8]", "8.8.8.8"), ("[::ffff:7f00:1]", "127.0.0.1")])
async def test_ipv4_written_as_a_mapped_ipv6_address_is_refused_whatever_it_names(host: str, address: str) -> None:
    # The socket reaches the IPv4 address itself, which a deny rule names only in dotted decimal.
    with pytest.raises(Blocked, match=f"is the IPv4 address {address} written another way"):
        await screen(host, 80, allowed=True)


async def test_a_name_that_does_not_resolve_is_refused() -> None:
    with pytest.raises(Blocked, match="does not resolve"):
        await screen("no-such-host.invalid", 80, allowed=False)
