"""HTML to Markdown: what the model reads of a web page.

A page's HTML is mostly markup, scripts and navigation; Markdown keeps its headings, links,
lists, tables and code in a few percent of the characters. Elements that carry no content the
model wants (scripts, styles, navigation, headers and footers, forms, embedded frames and
drawings) are removed before the conversion.
"""

DROPPED_TAGS = ("script", "style", "noscript", "nav", "header", "footer", "form", "iframe", "svg", "template")


def html_to_markdown(html: str) -> str:
    """The Markdown of a page's HTML, with `DROPPED_TAGS` and comments removed."""
    from bs4 import BeautifulSoup, Comment, ParserRejectedMarkup
    from markdownify import MarkdownConverter

    try:
        soup = BeautifulSoup(html, "html.parser")
    except ParserRejectedMarkup:  # `<![ x`: html.parser gives up on a marked section it does not know
        soup = BeautifulSoup(html.replace("<!", "&lt;!"), "html.parser")
    for element in soup.find_all(DROPPED_TAGS):
        element.decompose()
    for comment in soup.find_all(string=lambda text: isinstance(text, Comment)):
        comment.extract()
    title = soup.title.get_text(" ", strip=True) if soup.title else ""
    if soup.title:
        soup.title.decompose()
    try:
        body = MarkdownConverter(heading_style="ATX", bullets="-").convert_soup(soup)
    except RecursionError:  # the converter recurses per element: thousands of nested tags exhaust the stack
        body = soup.get_text()
    lines = [line.rstrip() for line in body.splitlines()]
    text = "\n".join(_squeeze(lines)).strip()
    return f"# {title}\n\n{text}" if title and not text.startswith("# ") else text


def _squeeze(lines: list[str]) -> list[str]:
    """Lines with runs of blank lines cut to one."""
    kept: list[str] = []
    for line in lines:
        if line or (kept and kept[-1]):
            kept.append(line)
    return kept
