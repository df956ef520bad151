"""HTML to Markdown: content kept, scripts, styles and navigation dropped."""

from decode.tools.web.html import html_to_markdown

PAGE = """<!doctype html><html><head><title>Asyncio</title><style>body { color: red }</style>
<script>var secret = "tracking";</script></head><body>
<header><a href="/">Home</a> | <a href="/login">Log in</a></header>
<nav><ul><li><a href="/a">Menu A</a></li></ul></nav>
<!-- a comment the model need not read -->
<main><h1>asyncio</h1><p>Write <b>concurrent</b> code with <a href="https://x.org/async">async</a>.</p>
<h2>Example</h2><pre><code>await main()</code></pre><ul><li>one</li><li>two</li></ul>
<form><input name="q"><button>Search</button></form><iframe src="https://ads.example"></iframe>
<svg><text>logo</text></svg><noscript>enable JS</noscript></main>
<footer>Copyright 2026</footer></body></html>"""


def test_headings_links_code_and_lists_survive() -> None:
    text = html_to_markdown(PAGE)
    assert text.startswith("# asyncio\n")
    assert "Write **concurrent** code with [async](https://x.org/async)." in text
    assert "## Example" in text
    assert "await main()" in text
    assert "- one\n- two" in text


def test_scripts_styles_navigation_and_chrome_are_dropped() -> None:
    text = html_to_markdown(PAGE)
    for gone in ("tracking", "color: red", "Menu A", "Log in", "Copyright", "Search", "logo", "enable JS", "comment"):
        assert gone not in text


def test_the_title_heads_a_page_without_a_heading() -> None:
    assert html_to_markdown("<title>Notes</title><p>plain</p>") == "# Notes\n\nplain"


def test_blank_lines_are_squeezed() -> None:
    assert "\n\n\n" not in html_to_markdown("<p>a</p>" + "<div></div><br><br>" * 20 + "<p>b</p>")


def test_markup_the_parser_rejects_is_read_all_the_same() -> None:
    # html.parser raises on `<![ x`; a page must not crash the turn with it.
    assert html_to_markdown("<p>hi</p><![ x <b>bold</b>").startswith("hi\n\n")


def test_html_nested_deeper_than_the_converter_can_recurse_is_its_text() -> None:
    assert html_to_markdown("<div>" * 5000 + "deep <i>text</i>") == "deep text"
