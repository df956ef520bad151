"""The web tool: `web_fetch`, its SSRF Guard and its HTML-to-Markdown conversion."""
