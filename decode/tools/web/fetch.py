"""The `web_fetch` tool: a web page as Markdown (or text), behind the SSRF Guard.

The model gives a URL and, optionally, what it wants from the page. The page comes back as
Markdown when it is HTML, as itself when it is text, JSON or XML; anything else (an image, a
PDF, bytes that are not text) is refused with a message. Long pages are cut like every tool's
output (head and tail, the rest in a file). A page fetched again within 15 minutes of the same
conversation comes from its cache. The guard (`addresses.py`) and the hops (`client.py`) run in
every permission mode, bypass included: a rule naming the host is the only way to a private one.
"""

import asyncio
import time

from pydantic_ai import ModelRetry, RunContext

from decode.config.redaction import redactor_for
from decode.entities.deps import AgentDeps
from decode.entities.tools import ToolKind, ToolSpec, ToolTraits
from decode.tools.paths import Refusal
from decode.tools.truncate import shorten
from decode.tools.web.addresses import Blocked
from decode.tools.web.client import MAX_BYTES, TIMEOUT_S, BadUrl, Response, guarded_get
from decode.tools.web.html import html_to_markdown

CACHE_S = 15 * 60
CACHE_PAGES = 32  # a page can be megabytes of text: a long session keeps only the latest
HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})
TEXT_TYPES = frozenset(
    {"application/json", "application/xml", "application/javascript", "application/x-yaml", "application/yaml"}
)
_SNIFF = 8192
# C0 controls text never holds (tab, newlines, form feed and ESC of coloured logs aside).
_CONTROLS = bytes(c for c in range(32) if c not in (9, 10, 12, 13, 27))


def is_text_type(content_type: str) -> bool:
    """Can a body of this media type be shown as text (`text/*`, JSON, XML, YAML)?"""
    return content_type.startswith("text/") or content_type in TEXT_TYPES or content_type.endswith(("+json", "+xml"))


def page_text(response: Response) -> tuple[str, str]:
    """The body as the model reads it and how it was read ("Markdown"…); `Refusal` if not text."""
    kind = response.content_type
    head = response.body[:_SNIFF]
    if kind and not is_text_type(kind) and kind not in HTML_TYPES:
        raise Refusal(f"{response.url} is {kind} ({len(response.body):,} bytes read); web_fetch shows text pages only.")
    if b"\x00" in head or len(head) - len(head.translate(None, _CONTROLS)) > len(head) // 20:
        shown = kind or "no content type"
        raise Refusal(f"{response.url} ({shown}) holds binary data, not text; web_fetch shows text pages only.")
    try:
        text = response.body.decode(_codec(response.charset), errors="replace")
    except (LookupError, UnicodeError):  # `charset=rot13` is a codec but no text encoding; idna refuses "replace"
        text = response.body.decode("utf-8", errors="replace")
    # utf-7 or unicode_escape can decode to lone surrogates, which nothing downstream can encode.
    text = text.encode("utf-8", errors="replace").decode("utf-8")
    looks_html = not kind and text.lstrip()[:15].lower().startswith(("<!doctype html", "<html"))
    if kind in HTML_TYPES or looks_html:
        return html_to_markdown(text), "HTML, shown as Markdown"
    return text, kind or "text"


def _codec(charset: str | None) -> str:
    import codecs

    try:
        return codecs.lookup(charset or "utf-8").name
    except LookupError:
        return "utf-8"


def render(response: Response, text: str, how: str) -> str:
    """The page with a few lines saying where it came from and what it is."""
    lines = [f"URL: {response.url}"]
    if response.hops:
        lines.append("Redirected from: " + " → ".join(response.hops))
    lines.append(f"Status: {response.status} {response.reason}".rstrip())
    lines.append(f"Content: {how}")
    if response.cut:
        lines.append(f"[The page is longer than {MAX_BYTES:,} bytes: only its start was read.]")
    return "\n".join(lines) + "\n\n" + text


async def web_fetch(ctx: RunContext[AgentDeps], url: str, prompt: str | None = None) -> str:
    """Fetch a web page over http(s): HTML comes back as Markdown, text and JSON as they are.

    Only public addresses are reached unless the user's rules allow the host. Long pages are
    cut to their head and tail (the full text is saved to a file).

    Args:
        url: The full URL, e.g. `https://docs.python.org/3/library/asyncio.html`.
        prompt: What you want from the page; it heads the result so the answer can focus on it.
    """
    deps = ctx.deps
    now = time.monotonic()
    cached = deps.web_cache.get(url)
    if cached is not None and now - cached[0] < CACHE_S:
        page = cached[1]
    else:
        import httpx2

        try:
            allowance = deps.host_allowance
            response = await guarded_get(
                url,
                allows=allowance.allows_private,
                denies=allowance.denies_host,
                max_bytes=MAX_BYTES,
                timeout=TIMEOUT_S,
            )
        except BadUrl as exc:
            raise ModelRetry(f"{exc}.") from None
        except Blocked as exc:
            raise Refusal(f"Refused: {exc}.") from None
        except (httpx2.HTTPError, httpx2.InvalidURL, OSError) as exc:  # the model reads what went wrong
            raise Refusal(f"Could not fetch {url}: {_describe(exc)}.") from None
        # Converting a large page takes a good part of a second: not on the event loop.
        page = render(response, *await asyncio.to_thread(page_text, response))
        if all(_host(hop) == _host(url) for hop in (*response.hops, response.url)):
            # The gate judges the URL's host on every call; a page from another host would skip its rules.
            remember(deps.web_cache, url, page, now)
    if prompt and prompt.strip():
        page = f"You asked: {' '.join(prompt.split())}\n\n{page}"
    limit, redactor = deps.settings.tool_output_limit, redactor_for(deps.settings)
    return shorten(page, limit, harness_home=deps.harness_home, label="web_fetch", redactor=redactor)


def remember(cache: dict[str, tuple[float, str]], url: str, page: str, now: float) -> None:
    """Keep `page` for `CACHE_S`; forget expired pages, and the oldest beyond `CACHE_PAGES`."""
    for key in [key for key, (at, _) in cache.items() if now - at >= CACHE_S]:
        del cache[key]
    cache.pop(url, None)
    cache[url] = (now, page)
    while len(cache) > CACHE_PAGES:
        del cache[next(iter(cache))]


def _host(url: str) -> str:
    from urllib.parse import urlsplit

    return (urlsplit(url).hostname or "").rstrip(".")


def _describe(exc: Exception) -> str:
    import httpx2

    if isinstance(exc, httpx2.TimeoutException | TimeoutError):
        return f"no answer within {TIMEOUT_S:g} s"
    return str(exc) or type(exc).__name__


WEB_FETCH = ToolSpec("web_fetch", web_fetch, ToolTraits(ToolKind.OTHER, rules=("WebFetch",), url="url"))
