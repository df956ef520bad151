"""web_fetch through the real CLI against real HTTP servers on 127.0.0.1: a page allowed by a
rule comes back as Markdown; without a rule it is refused even in bypass mode; a redirect from
an allowed host to a private one or to a denied one, an oversized body and a binary body; and `decode permissions
check web_fetch` explaining the SSRF Guard's refusal."""

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import own_settings
from tests.integration.forkserver import as_text, run_forked
from tests.unit.tools.web.web_server import Route, WebServer, running

pytestmark = pytest.mark.integration

DECODE = Path(sys.executable).parent / "decode"
PAGE = (
    "<html><head><script>track()</script></head>"
    "<body><nav>Menu</nav><h1>Release notes</h1><p>Now <b>faster</b>.</p></body></html>"
)


@pytest.fixture
def web() -> Iterator[WebServer]:
    with running() as server:
        yield server


def allow(project: Path, *rules: str) -> None:
    own_settings(project / ".decode" / "settings.local.json", json.dumps({"permissions": {"allow": list(rules)}}))


def decode(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    # A process of its own, forked from one that imported the CLI already (tests/integration/forkserver.py).
    return as_text(run_forked([str(DECODE), *args], cwd=project, env=os.environ.copy()))


def fetch_run(project: Path, url: str, *options: str) -> subprocess.CompletedProcess[str]:
    turns = project.parent / "turns.json"
    call = {"name": "web_fetch", "args": {"url": url, "prompt": "what changed?"}}
    turns.write_text(json.dumps([{"tool_calls": [call]}, {"text": "done"}]), encoding="utf-8")
    return decode(project, "run", "--model", f"script:{turns}", *options, "read the notes")


def tool_results(project: Path) -> list[dict[str, Any]]:
    """The web_fetch results the session log recorded: content and outcome of each."""
    found: list[dict[str, Any]] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if node.get("part_kind") == "tool-return" and node.get("tool_name") == "web_fetch":
                found.append(node)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for log in sorted((project / ".decode" / "sessions").glob("*.jsonl")):
        for line in log.read_text(encoding="utf-8").splitlines():
            walk(json.loads(line))
    return found


def test_a_page_a_rule_allows_comes_back_as_markdown(project: Path, web: WebServer) -> None:
    allow(project, "WebFetch(domain:127.0.0.1)")
    done = fetch_run(project, web.page("/notes", PAGE))
    assert done.returncode == 0, done.stderr
    assert "✓ web_fetch(" in done.stderr
    [result] = tool_results(project)
    assert result["outcome"] == "success"
    assert result["content"] == (
        f"You asked: what changed?\n\nURL: {web.url('/notes')}\nStatus: 200 OK\n"
        "Content: HTML, shown as Markdown\n\n# Release notes\n\nNow **faster**."
    )


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost"])
def test_without_a_rule_a_loopback_host_is_refused_even_in_bypass(project: Path, web: WebServer, host: str) -> None:
    done = fetch_run(project, web.page("/notes", PAGE).replace("127.0.0.1", host), "--permission-mode", "bypass")
    assert done.returncode == 0, done.stderr
    assert "✗ web_fetch(" in done.stderr
    [result] = tool_results(project)
    assert result["outcome"] == "failed"
    assert "loopback address: web_fetch reaches only public addresses" in result["content"]
    assert f"WebFetch(domain:{host})" in result["content"]
    assert web.seen == []  # refused before any connection


def test_a_redirect_from_an_allowed_host_to_a_private_one_is_refused(project: Path, web: WebServer) -> None:
    # 127.0.0.1 is allowed; it redirects to localhost, which no rule names (as an attacker's page
    # on an allowed host would redirect to 169.254.169.254 or a service on the user's machine).
    allow(project, "WebFetch(domain:127.0.0.1)")
    web.page("/admin", "internal")
    done = fetch_run(project, web.redirect("/go", web.url("/admin", "localhost")), "--permission-mode", "bypass")
    assert done.returncode == 0, done.stderr
    [result] = tool_results(project)
    assert result["outcome"] == "failed"
    assert "Refused: localhost resolves to" in result["content"]
    assert [path for path, _ in web.seen] == ["/go"]


def test_a_redirect_to_a_host_a_rule_denies_is_refused_even_in_bypass(project: Path, web: WebServer) -> None:
    # The gate judges the URL the model gave; the hop to a denied host is judged by the tool.
    rules = {
        "allow": ["WebFetch(domain:127.0.0.1)", "WebFetch(domain:localhost)"],
        "deny": ["WebFetch(domain:localhost)"],
    }
    own_settings(project / ".decode" / "settings.local.json", json.dumps({"permissions": rules}))
    web.page("/secret", "denied page")
    done = fetch_run(project, web.redirect("/go", web.url("/secret", "localhost")), "--permission-mode", "bypass")
    assert done.returncode == 0, done.stderr
    [result] = tool_results(project)
    assert result["outcome"] == "failed"
    assert "a rule denies fetching from localhost" in result["content"]
    assert [path for path, _ in web.seen] == ["/go"]


def test_a_redirect_to_the_metadata_endpoint_is_refused_whatever_the_rules(project: Path, web: WebServer) -> None:
    allow(project, "WebFetch(domain:127.0.0.1)", "WebFetch(domain:169.254.169.254)")
    done = fetch_run(project, web.redirect("/go", "http://169.254.169.254/latest/meta-data/"))
    assert done.returncode == 0, done.stderr
    [result] = tool_results(project)
    assert "169.254.169.254 is a cloud metadata endpoint, which web_fetch never fetches" in result["content"]


def test_an_oversized_body_is_cut_and_shortened(project: Path, web: WebServer) -> None:
    allow(project, "WebFetch(domain:127.0.0.1)")
    big = ("0123456789" * 10 + "\n") * 60_000  # 6 MB: past the 5 MB read cap
    done = fetch_run(project, web.page("/big", big, "text/plain"))
    assert done.returncode == 0, done.stderr
    [result] = tool_results(project)
    assert "[The page is longer than 5,242,880 bytes: only its start was read.]" in result["content"]
    assert "characters not shown; the full output is in harness:tool-output/" in result["content"]
    assert len(result["content"]) < 32_000
    [saved] = (project / ".decode" / "tool-output").iterdir()
    assert saved.stat().st_size > 5_000_000


def test_a_binary_body_is_refused_with_a_message(project: Path, web: WebServer) -> None:
    allow(project, "WebFetch(domain:127.0.0.1)")
    web.routes["/logo"] = Route(200, {"Content-Type": "image/png"}, b"\x89PNG\r\n\x1a\n" + bytes(200))
    done = fetch_run(project, web.url("/logo"))
    assert done.returncode == 0, done.stderr
    [result] = tool_results(project)
    assert result["outcome"] == "failed"
    assert result["content"] == f"{web.url('/logo')} is image/png (208 bytes read); web_fetch shows text pages only."


def test_permissions_check_explains_the_ssrf_refusal(project: Path, web: WebServer) -> None:
    done = decode(project, "permissions", "check", "web_fetch", web.url("/"), "--permission-mode", "bypass")
    assert done.returncode == 4
    assert done.stdout == (
        "deny\n  rule:   none (the SSRF Guard decides, in every mode)\n"
        "  why:    SSRF Guard: 127.0.0.1 is a loopback address: web_fetch reaches only public addresses "
        "unless a rule allows the host (WebFetch(domain:127.0.0.1) in .decode/settings.local.json)\n"
    )
    allow(project, "WebFetch(domain:127.0.0.1)")
    done = decode(project, "permissions", "check", "web_fetch", web.url("/"))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == "allow"
