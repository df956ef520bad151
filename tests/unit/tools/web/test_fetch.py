"""The `web_fetch` tool against a real server on 127.0.0.1: Markdown, text, refusals, cache, caps."""

import socket
from pathlib import Path

import pytest
from pydantic_ai import ModelRetry, RunContext
from pydantic_ai.models.test import TestModel
from pydantic_ai.usage import RunUsage

from decode.config.settings import Settings
from decode.entities.deps import AgentDeps
from decode.processes.local import LocalExecutor
from decode.tools.paths import Refusal
from decode.tools.web.fetch import CACHE_PAGES, WEB_FETCH, remember, web_fetch
from tests.unit.tools.web.web_server import Route, WebServer


class Hosts:
    """A `HostAllowance` naming these hosts, as `WebFetch(domain:…)` allow rules would."""

    def __init__(self, *hosts: str, denied: tuple[str, ...] = ()) -> None:
        self.hosts = set(hosts)
        self.denied = set(denied)

    def allows_private(self, host: str) -> bool:
        return host in self.hosts

    def denies_host(self, host: str) -> bool:
        return host in self.denied


@pytest.fixture
def fetch_ctx(tmp_path: Path) -> RunContext[AgentDeps]:
    deps = AgentDeps(LocalExecutor(tmp_path), Settings(), harness_home=tmp_path, host_allowance=Hosts("127.0.0.1"))
    return RunContext(deps=deps, model=TestModel(), usage=RunUsage(), tool_call_id="call-1")


async def test_html_comes_back_as_markdown_with_where_it_came_from(fetch_ctx, web: WebServer) -> None:
    url = web.page("/doc", "<html><body><nav>menu</nav><h1>Title</h1><p>Body <i>text</i></p></body></html>")
    result = await web_fetch(fetch_ctx, url)
    assert result == f"URL: {url}\nStatus: 200 OK\nContent: HTML, shown as Markdown\n\n# Title\n\nBody *text*"


async def test_the_prompt_heads_the_result(fetch_ctx, web: WebServer) -> None:
    url = web.page("/doc", "<p>answer: 42</p>")
    result = await web_fetch(fetch_ctx, url, prompt="What is\n the answer?")
    assert result.startswith("You asked: What is the answer?\n\nURL: ")


@pytest.mark.parametrize(
    ("content_type", "body"),
    [("text/plain", "plain text"), ("application/json", '{"a": 1}'), ("application/vnd.api+json", "[1]")],
)
async def test_text_and_json_pass_through(fetch_ctx, web: WebServer, content_type: str, body: str) -> None:
    result = await web_fetch(fetch_ctx, web.page("/t", body, content_type))
    assert result.endswith(f"Content: {content_type}\n\n{body}")


@pytest.mark.parametrize(
    ("content_type", "body", "message"),
    [
        ("image/png", b"\x89PNG\r\n\x1a\n\x00\x00", "is image/png"),
        ("application/pdf", b"%PDF-1.7 ...", "is application/pdf"),
        ("application/octet-stream", b"\x00\x01\x02", "is application/octet-stream"),
        ("text/plain", b"looks like text\x00\x00\x01", r"\(text/plain\) holds binary data"),
        ("", b"\x7fELF\x00\x00", r"\(no content type\) holds binary data"),
    ],
)
async def test_non_text_is_refused_with_a_message(fetch_ctx, web: WebServer, content_type, body, message) -> None:
    web.routes["/b"] = Route(200, {"Content-Type": content_type} if content_type else {}, body)
    with pytest.raises(Refusal, match=message):
        await web_fetch(fetch_ctx, web.url("/b"))


async def test_a_page_without_a_content_type_that_is_html_is_converted(fetch_ctx, web: WebServer) -> None:
    web.routes["/x"] = Route(200, {}, b"<!DOCTYPE html><html><h2>Hi</h2></html>")
    assert (await web_fetch(fetch_ctx, web.url("/x"))).endswith("Content: HTML, shown as Markdown\n\n## Hi")


async def test_a_private_host_without_a_rule_is_refused_in_every_mode(fetch_ctx, web: WebServer) -> None:
    web.page("/p", "internal")
    with pytest.raises(Refusal, match=r"Refused: localhost resolves to .*loopback"):
        await web_fetch(fetch_ctx, web.url("/p", "localhost"))
    assert web.seen == []


async def test_a_bad_scheme_is_a_retry_the_model_can_fix(fetch_ctx) -> None:
    with pytest.raises(ModelRetry, match="http:// and https:// URLs only") as raised:
        await web_fetch(fetch_ctx, "file:///etc/passwd")
    assert not isinstance(raised.value, Refusal)


async def test_an_error_status_is_shown_not_raised(fetch_ctx, web: WebServer) -> None:
    result = await web_fetch(fetch_ctx, web.url("/missing"))
    assert "Status: 404 Not Found" in result
    assert result.endswith("no such page")


async def test_a_server_that_is_not_there_is_a_refusal_the_model_reads(fetch_ctx) -> None:
    with socket.socket() as sock:  # a port nothing listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    with pytest.raises(Refusal, match=f"Could not fetch http://127.0.0.1:{port}/"):
        await web_fetch(fetch_ctx, f"http://127.0.0.1:{port}/")


async def test_a_page_is_cached_for_the_conversation(fetch_ctx, web: WebServer) -> None:
    url = web.page("/c", "first", "text/plain")
    first = await web_fetch(fetch_ctx, url)
    web.page("/c", "second", "text/plain")
    assert await web_fetch(fetch_ctx, url) == first
    assert len(web.seen) == 1
    fetch_ctx.deps.web_cache[url] = (fetch_ctx.deps.web_cache[url][0] - 16 * 60, first)  # 16 minutes ago
    assert (await web_fetch(fetch_ctx, url)).endswith("second")


async def test_a_long_page_is_cut_like_every_tool_output(fetch_ctx, web: WebServer) -> None:
    url = web.page("/long", "line\n" * 20_000, "text/plain")
    result = await web_fetch(fetch_ctx, url)
    assert len(result) < 31_000
    assert "characters not shown; the full output is in harness:tool-output/" in result


async def test_an_oversized_body_says_it_was_cut(fetch_ctx, web: WebServer, monkeypatch) -> None:
    from decode.tools.web import fetch

    monkeypatch.setattr(fetch, "MAX_BYTES", 1000)
    result = await web_fetch(fetch_ctx, web.page("/big", "y" * 5000, "text/plain"))
    assert "longer than 1,000 bytes: only its start was read" in result
    assert result.endswith("\n\n" + "y" * 1000)


def test_the_tool_answers_to_webfetch_rules_by_its_url() -> None:
    assert (WEB_FETCH.traits.rules, WEB_FETCH.traits.url) == (("WebFetch",), "url")


def test_the_cache_forgets_expired_pages_and_the_oldest_beyond_its_size() -> None:
    cache: dict[str, tuple[float, str]] = {"old": (0.0, "expired")}
    for index in range(CACHE_PAGES + 3):
        remember(cache, f"u{index}", "page", 1000.0 + index)
    assert "old" not in cache
    assert list(cache) == [f"u{index}" for index in range(3, CACHE_PAGES + 3)]


@pytest.mark.parametrize("charset", ["rot13", "base64", "idna", "no-such-codec"])
async def test_a_charset_that_is_no_text_encoding_reads_as_utf8(fetch_ctx, web: WebServer, charset: str) -> None:
    # `bytes.decode("rot13")` raises LookupError: a page must not crash the turn with its header.
    web.routes["/c"] = Route(200, {"Content-Type": f"text/plain; charset={charset}"}, b"caf\xc3\xa9 \xff")
    assert (await web_fetch(fetch_ctx, web.url("/c"))).endswith("café \ufffd")


async def test_html_nested_too_deep_for_markdown_comes_back_as_its_text(fetch_ctx, web: WebServer) -> None:
    web.page("/deep", "<div>" * 5000 + "deep <b>text</b>")
    assert (await web_fetch(fetch_ctx, web.url("/deep"))).endswith("deep text")


async def test_a_text_body_of_control_bytes_is_refused_as_binary(fetch_ctx, web: WebServer) -> None:
    web.routes["/bin"] = Route(200, {"Content-Type": "text/html"}, bytes(range(1, 256)) * 4)
    with pytest.raises(Refusal, match=r"\(text/html\) holds binary data"):
        await web_fetch(fetch_ctx, web.url("/bin"))


async def test_a_redirect_to_a_denied_host_is_refused(fetch_ctx, web: WebServer) -> None:
    fetch_ctx.deps.host_allowance = Hosts("127.0.0.1", "localhost", denied=("localhost",))
    web.page("/secret", "denied page")
    with pytest.raises(Refusal, match=r"Refused: .*a rule denies fetching from localhost"):
        await web_fetch(fetch_ctx, web.redirect("/r", web.url("/secret", "localhost")))
    assert [path for path, _ in web.seen] == ["/r"]


async def test_a_page_reached_through_another_host_is_not_cached(fetch_ctx, web: WebServer) -> None:
    # The gate checks the URL's host on each call; a cached page from another host would skip its rules.
    fetch_ctx.deps.host_allowance = Hosts("127.0.0.1", "localhost")
    web.page("/end", "there", "text/plain")
    url = web.redirect("/r", web.url("/end", "localhost"))
    await web_fetch(fetch_ctx, url)
    assert url not in fetch_ctx.deps.web_cache
    web.redirect("/same", "/end")
    await web_fetch(fetch_ctx, web.url("/same"))
    assert web.url("/same") in fetch_ctx.deps.web_cache


async def test_a_host_not_in_ascii_is_a_retry_not_a_crash(fetch_ctx) -> None:
    with pytest.raises(ModelRetry, match="write the host in ASCII"):
        await web_fetch(fetch_ctx, "http://127。0。0。1/")


@pytest.mark.parametrize(("charset", "body"), [("unicode_escape", b"\\ud800 hi"), ("utf-7", b"+2AA- hi")])
async def test_a_charset_that_decodes_to_lone_surrogates_gives_text_that_can_be_written(
    fetch_ctx, web: WebServer, charset: str, body: bytes
) -> None:
    # A lone surrogate cannot be encoded as UTF-8: the session log or the output file would fail on it.
    web.routes["/s"] = Route(200, {"Content-Type": f"text/plain; charset={charset}"}, body)
    result = await web_fetch(fetch_ctx, web.url("/s"))
    assert result.encode("utf-8").endswith(b" hi")
