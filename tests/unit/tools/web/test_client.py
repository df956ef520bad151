"""One guarded GET against a real server on 127.0.0.1: pinning, hops screened, body capped."""

import pytest

from decode.tools.web.addresses import Blocked
from decode.tools.web.client import BadUrl, guarded_get, split_url
from tests.unit.tools.web.web_server import Route, WebServer


def only(*hosts: str):
    return lambda host: host in hosts


async def test_an_allowed_loopback_host_is_fetched_with_its_name_in_the_host_header(web: WebServer) -> None:
    url = web.page("/p", "<h1>hi</h1>")
    response = await guarded_get(web.url("/p", "localhost"), allows=only("localhost"))
    assert (response.status, response.content_type, response.body) == (200, "text/html", b"<h1>hi</h1>")
    assert web.seen == [("/p", f"localhost:{web.port}")]
    assert url  # the same page by address


async def test_without_a_rule_loopback_is_refused_before_any_connection(web: WebServer) -> None:
    web.page("/p", "secret")
    with pytest.raises(Blocked, match="loopback"):
        await guarded_get(web.url("/p"), allows=only())
    assert web.seen == []


async def test_every_redirect_hop_is_screened_again(web: WebServer) -> None:
    # Allowed host 127.0.0.1 redirects to localhost, which no rule names: refused at the hop.
    web.page("/inside", "internal")
    web.redirect("/r", web.url("/inside", "localhost"))
    with pytest.raises(Blocked, match="localhost resolves to"):
        await guarded_get(web.url("/r"), allows=only("127.0.0.1"))
    assert [path for path, _ in web.seen] == ["/r"]


async def test_redirects_are_followed_and_recorded(web: WebServer) -> None:
    web.page("/end", "done", "text/plain")
    web.redirect("/b", "/end", 301)
    web.redirect("/a", web.url("/b"), 307)
    response = await guarded_get(web.url("/a"), allows=only("127.0.0.1"))
    assert response.url == web.url("/end")
    assert response.body == b"done"
    assert response.hops == [web.url("/a"), web.url("/b")]


async def test_a_redirect_loop_stops_after_the_maximum_hops(web: WebServer) -> None:
    web.redirect("/loop", "/loop")
    with pytest.raises(Blocked, match="after 5 redirects"):
        await guarded_get(web.url("/loop"), allows=only("127.0.0.1"))
    assert len(web.seen) == 6


async def test_a_redirect_to_another_scheme_is_refused(web: WebServer) -> None:
    web.redirect("/r", "file:///etc/passwd")
    with pytest.raises(BadUrl, match="http:// and https:// URLs only"):
        await guarded_get(web.url("/r"), allows=only("127.0.0.1"))


async def test_the_body_is_cut_at_the_cap(web: WebServer) -> None:
    web.page("/big", b"x" * 100_000, "text/plain")
    response = await guarded_get(web.url("/big"), allows=only("127.0.0.1"), max_bytes=10_000)
    assert response.cut
    assert response.body == b"x" * 10_000


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("ftp://example.com/x", "has ftp:"),
        ("file:///etc/passwd", "has file:"),
        ("example.com/page", "has no scheme"),
        ("http:///path", "names no host"),
        ("http://[::1/", "not a valid URL"),
    ],
)
def test_urls_the_tool_cannot_fetch_say_why(url: str, message: str) -> None:
    with pytest.raises(BadUrl, match=message):
        split_url(url)


def test_default_ports() -> None:
    assert split_url("https://Example.com/a") == ("https", "example.com", 443)
    assert split_url("HTTP://example.com:8080") == ("http", "example.com", 8080)


async def test_the_timeout_bounds_the_whole_fetch(web: WebServer) -> None:
    web.routes["/slow"] = Route(200, {"Content-Type": "text/plain"}, b"x" * 10, hang=True)
    with pytest.raises(TimeoutError):
        await guarded_get(web.url("/slow"), allows=only("127.0.0.1"), timeout=0.5)


@pytest.mark.parametrize(
    "url",
    [
        "http://127。0。0。1/",  # ideographic full stops: DNS (IDNA) reads 127.0.0.1
        "https://evil。example/",  # and evil.example, which a WebFetch deny names
        "https://ｅvil.example/",  # a fullwidth letter, folded to "e" by IDNA
        "https://evil.example\u200b/",  # a zero-width space, dropped by IDNA
        "https://evil.example\x00/",  # the resolver stops reading at the NUL
        "https://evil.example /",
        "http://%31%32%37.0.0.1/",
    ],
)
def test_a_host_not_written_in_ascii_letters_digits_dots_and_hyphens_is_refused(url: str) -> None:
    # Rules match the host as written; the resolver would read another one: refuse, do not guess.
    with pytest.raises(BadUrl, match="write the host in ASCII"):
        split_url(url)


def test_an_international_name_is_refused_with_its_ascii_spelling() -> None:
    with pytest.raises(BadUrl, match=r"xn--bcher-kva\.example"):
        split_url("https://bücher.example/")


@pytest.mark.parametrize("url", ["http://[::1]:8080/", "http://my_host.internal/", "http://[fe80::1%25eth0]/"])
def test_ascii_names_and_ipv6_literals_are_split(url: str) -> None:
    assert split_url(url)[1] in ("::1", "my_host.internal", "fe80::1%25eth0")


async def test_a_redirect_to_a_host_a_rule_denies_is_refused_at_the_hop(web: WebServer) -> None:
    # The gate judged only the first URL; the hop to a denied host must not be fetched.
    web.page("/secret", "denied page")
    web.redirect("/r", web.url("/secret", "localhost"))
    with pytest.raises(Blocked, match="a rule denies fetching from localhost"):
        await guarded_get(web.url("/r"), allows=only("127.0.0.1", "localhost"), denies=only("localhost"))
    assert [path for path, _ in web.seen] == ["/r"]


async def test_cookies_a_hop_sets_are_not_sent_to_the_next(web: WebServer) -> None:
    # Requests go to IP addresses, so a cookie jar would hand one host's cookie to another on the same IP.
    web.page("/end", "done", "text/plain")
    web.routes["/r"] = Route(302, {"Location": web.url("/end", "localhost"), "Set-Cookie": "sid=s3cret; Path=/"})
    await guarded_get(web.url("/r"), allows=only("127.0.0.1", "localhost"))
    assert [h.get("Cookie") for h in web.headers] == [None, None]


async def test_a_compression_bomb_is_cut_at_the_cap_without_inflating_it_in_memory(web: WebServer) -> None:
    import gzip
    import tracemalloc

    bomb = gzip.compress(b"\0" * (64 << 20), 9)  # 64 MiB of zeros in ~64 KB: one read from the socket
    web.routes["/bomb"] = Route(200, {"Content-Type": "text/plain", "Content-Encoding": "gzip"}, bomb)
    tracemalloc.start()
    try:
        response = await guarded_get(web.url("/bomb"), allows=only("127.0.0.1"), max_bytes=10_000)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert (len(response.body), response.cut) == (10_000, True)
    assert peak < 16 << 20


async def test_the_name_is_resolved_once_and_the_connection_goes_to_the_checked_address(web: WebServer) -> None:
    # DNS rebinding: a second lookup could answer differently. `rebind.invalid` exists only in this
    # resolver, so the fetch succeeds only if nothing resolves the name again.
    asked: list[str] = []

    async def resolve(host: str, port: int) -> list[str]:
        asked.append(host)
        return ["127.0.0.1"]

    web.page("/p", "pinned", "text/plain")
    url = f"http://rebind.invalid:{web.port}/p"
    response = await guarded_get(url, allows=only("rebind.invalid"), resolve=resolve)
    assert (response.body, asked, web.seen) == (b"pinned", ["rebind.invalid"], [("/p", f"rebind.invalid:{web.port}")])


async def _docs_example(host: str, port: int) -> list[str]:
    return {"docs.example": ["127.0.0.1"]}.get(host, [])


@pytest.mark.parametrize("location", ["//127.0.0.1/inside", "http://127.0.0.1#@docs.example/", "HTTP://[::1]/"])
async def test_a_redirect_to_loopback_in_any_spelling_is_screened(web: WebServer, location: str) -> None:
    web.redirect("/r", location)
    start = f"http://docs.example:{web.port}/r"
    with pytest.raises(Blocked, match="loopback"):
        await guarded_get(start, allows=only("docs.example"), resolve=_docs_example)
    assert [path for path, _ in web.seen] == ["/r"]


async def test_a_redirect_to_slash_backslash_stays_on_the_same_host(web: WebServer) -> None:
    # Browsers read `/\host` as `//host`; here it is a path of the same host, sent to the checked address.
    web.redirect("/r", "/\\127.0.0.1/")
    start = f"http://docs.example:{web.port}/r"
    response = await guarded_get(start, allows=only("docs.example"), resolve=_docs_example)
    assert response.status == 404
    assert {host for _, host in web.seen} == {f"docs.example:{web.port}"}
