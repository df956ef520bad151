"""The official MCP reference servers, every one of their tools called through `decode run`.

`@modelcontextprotocol/server-everything` and `server-filesystem` come from npm at the versions of
`reference/package-lock.json` (`make mcp-reference-servers` installs them into `.cache/`; this module
does it when they are missing), `mcp-server-git` from PyPI through uv.lock. Each test lists the
server's tools as decode's own MCP client sees them, has a scripted model call every one of them
with valid arguments, and reads each result from `--output-format stream-json`: the run ends with
exit 0 and every tool gave the model something it can use (or, for a tool that needs what decode does
not offer a server, a clear error). Without node and npm the npm servers' tests are skipped, except in
CI, where that is a failure.
"""

import asyncio
import base64
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.integration.conftest import RunDecode

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[3]
PINNED = Path(__file__).parent / "reference"
INSTALLED = ROOT / ".cache" / "mcp-reference-servers"
GIT_SERVER = Path(sys.executable).parent / "mcp-server-git"
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
)
HELLO = "data:text/plain;base64," + base64.b64encode(b"hello from decode\n").decode()

Call = tuple[str, dict[str, Any]]


@pytest.fixture(scope="module")
def npm_servers() -> Path:
    """The folder of the npm reference servers' programs, installed (pinned) if missing or stale."""
    if not (shutil.which("node") and shutil.which("npm")):
        reason = "node and npm are not installed: the npm MCP reference servers cannot run"
        if os.environ.get("CI"):
            pytest.fail(f"{reason} (CI must install nodejs and npm: .ci/run)")
        pytest.skip(reason)
    bin_dir = INSTALLED / "node_modules" / ".bin"
    lock = INSTALLED / "package-lock.json"
    fresh = lock.exists() and lock.read_bytes() == (PINNED / "package-lock.json").read_bytes()
    if not (fresh and (bin_dir / "mcp-server-everything").exists() and (bin_dir / "mcp-server-filesystem").exists()):
        done = subprocess.run(
            ["make", "-s", "mcp-reference-servers"], cwd=ROOT, capture_output=True, text=True, timeout=600
        )
        assert done.returncode == 0, f"make mcp-reference-servers failed:\n{done.stdout}\n{done.stderr}"
    return bin_dir


def configure(server: str, command: str, *args: str) -> None:
    """`server` as a user server of this test's HOME (user servers need no Project Trust)."""
    settings = Path(os.environ["HOME"]) / ".decode"
    settings.mkdir(parents=True, exist_ok=True)
    (settings / "mcp.json").write_text(json.dumps({"mcpServers": {server: {"command": command, "args": list(args)}}}))


def offered(server: str) -> tuple[list[str], bool]:
    """The server's tools as decode's own MCP client sees them (their names on the server), and
    whether decode loads their definitions on demand (Tool Search)."""
    from decode.mcp.config import ServerConfig, parse_server
    from decode.mcp.names import tool_name
    from decode.mcp.servers import build_servers
    from decode.mcp.toolset import DEFER_OVER, definition, definitions_size

    path = Path(os.environ["HOME"]) / ".decode" / "mcp.json"
    raw = json.loads(path.read_text())["mcpServers"][server]
    config = ServerConfig(server, parse_server(server, raw, {}), path, "user", raw)

    async def listed() -> list[Any]:
        servers = build_servers([config], Path.cwd(), dict(os.environ), trusted_project=True)
        servers.start()
        try:
            await servers.servers[0].wait_started(time.monotonic() + 120)  # node may start slowly on a busy machine
            assert servers.servers[0].state == "ready", servers.servers[0].reason
            return list(servers.servers[0].tools)
        finally:
            await servers.close()

    tools = asyncio.run(listed())
    size = definitions_size([definition(tool_name(server, tool.name), tool) for tool in tools])
    return [tool.name for tool in tools], size > DEFER_OVER


def run_calls(
    project: Path, decode_cmd: RunDecode, server: str, calls: list[Call], *, search: bool
) -> dict[str, list[dict]]:
    """Each call in a model response of its own, through `decode run`; the results, by tool.

    `search`: the definitions are loaded on demand, so the model searches for each tool before its call."""
    script = project.parent / f"{server}.json"
    responses: list[dict] = []
    for tool, args in calls:
        name = f"mcp__{server}__{tool}"
        if search:
            responses.append({"tool_calls": [{"name": "search_tools", "args": {"queries": [name]}}]})
        responses.append({"tool_calls": [{"name": name, "args": args}]})
    script.write_text(json.dumps([*responses, {"text": "done"}, {"text": "done"}, {"text": "done"}]))
    done = decode_cmd(
        "run", "--model", f"script:{script}", "--permission-mode", "bypass", "--output-format", "stream-json", "go",
        cwd=project,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert f"MCP server {server} failed" not in done.stderr  # no tool error taken for a crash
    events = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    assert events[-1]["type"] == "result"
    assert events[-1]["exit_code"] == 0
    results: dict[str, list[dict]] = {}
    for event in events:
        if event["type"] == "tool_result":
            assert event["name"] != "search_tools" or not event["is_error"], event
            results.setdefault(event["name"].removeprefix(f"mcp__{server}__"), []).append(event)
    return results


def check_all(listed: list[str], calls: list[Call], results: dict[str, list[dict]], *, may_refuse: set[str]) -> None:
    """Every listed tool was called and answered: a result with content; an error only where allowed."""
    assert not {tool for tool in listed if tool not in {name for name, _ in calls}}, "a tool without arguments here"
    for tool in listed:
        assert tool in results, f"{tool}: no result"
        for result in results[tool]:
            assert result["content"].strip(), f"{tool}: an empty result"
            assert "stopped during this call" not in result["content"], result
            if tool not in may_refuse:
                assert not result["is_error"], f"{tool}: {result['content']}"


# `everything`: the tools of server-everything 2026.8.31; the last ones are offered only to a client
# that declares sampling, elicitation or roots (or tasks), and so may be refused with a clear error.
EVERYTHING: list[Call] = [
    ("echo", {"message": "hi"}),
    ("get-annotated-message", {"messageType": "error", "includeImage": True}),
    ("get-annotated-message", {"messageType": "success"}),
    ("get-env", {}),
    ("get-resource-links", {"count": 3}),
    ("get-resource-reference", {"resourceType": "Text", "resourceId": 1}),
    ("get-resource-reference", {"resourceType": "Blob", "resourceId": 2}),
    ("get-structured-content", {"location": "Chicago"}),
    ("get-sum", {"a": 2, "b": 3}),
    ("get-tiny-image", {}),
    ("gzip-file-as-resource", {"name": "hello.gz", "data": HELLO, "outputType": "resource"}),
    ("gzip-file-as-resource", {"name": "hello2.gz", "data": HELLO, "outputType": "resourceLink"}),
    ("toggle-simulated-logging", {}),
    ("toggle-subscriber-updates", {}),
    ("trigger-long-running-operation", {"duration": 1, "steps": 2}),
    ("simulate-research-query", {"topic": "MCP content types"}),
    ("get-roots-list", {}),
    ("trigger-elicitation-request", {}),
    ("trigger-url-elicitation", {}),
    ("trigger-elicitation-request-async", {}),
    ("trigger-sampling-request", {"prompt": "say hi", "maxTokens": 20}),
    ("trigger-sampling-request-async", {"prompt": "say hi", "maxTokens": 20}),
]
NEEDS_THE_CLIENT = {
    "simulate-research-query",
    "get-roots-list",
    "trigger-elicitation-request",
    "trigger-url-elicitation",
    "trigger-elicitation-request-async",
    "trigger-sampling-request",
    "trigger-sampling-request-async",
}


def test_every_tool_of_the_everything_server(project: Path, decode_cmd: RunDecode, npm_servers: Path) -> None:
    configure("everything", str(npm_servers / "mcp-server-everything"))
    listed, search = offered("everything")
    calls = [(tool, args) for tool, args in EVERYTHING if tool in listed]

    results = run_calls(project, decode_cmd, "everything", calls, search=search)

    check_all(listed, calls, results, may_refuse=NEEDS_THE_CLIENT)
    assert len(listed) >= 13
    content = {tool: [r["content"] for r in found] for tool, found in results.items()}
    assert content["echo"] == ["Echo: hi"]
    assert content["get-sum"] == ["The sum of 2 and 3 is 5."]
    error, success = content["get-annotated-message"]
    assert error.startswith('["Error: Operation failed"')  # for the user and the assistant
    assert "meant for the user only: not shown" in error  # the image is the user's
    assert success == "[1 part of this result meant for the user only: not shown]"
    assert "[resource link: " in content["get-resource-links"][0]
    text, blob = content["get-resource-reference"]
    assert "[resource demo://resource/dynamic/text/1 (text/plain)]\\nResource 1: " in text
    assert "[resource demo://resource/dynamic/blob/2 (text/plain)]\\nResource 2: " in blob  # a text blob, decoded
    assert "The image above is the MCP logo." in content["get-tiny-image"][0]
    sessions = "".join(path.read_text() for path in (project / ".decode" / "sessions").glob("*.jsonl"))
    assert "image/png" in sessions  # the image itself went to the model
    assert '"temperature"' in content["get-structured-content"][0]
    resource, link = content["gzip-file-as-resource"]
    assert "application/gzip" in resource
    assert "bytes, left out: binary content the model cannot read" in resource
    assert link.startswith("[resource link: hello2.gz <demo://resource/session/hello2.gz> (application/gzip)")
    assert "Long running operation" in content["trigger-long-running-operation"][0]


def test_every_tool_of_the_filesystem_server(project: Path, decode_cmd: RunDecode, npm_servers: Path) -> None:
    (project / "notes.txt").write_text("one\ntwo\nthree\n")
    (project / "logo.png").write_bytes(PNG)
    configure("fs", str(npm_servers / "mcp-server-filesystem"), str(project))
    listed, search = offered("fs")
    here = str(project)
    calls: list[Call] = [
        ("list_allowed_directories", {}),
        ("write_file", {"path": f"{here}/new.txt", "content": "alpha\nbeta\n"}),
        ("edit_file", {"path": f"{here}/new.txt", "edits": [{"oldText": "beta", "newText": "gamma"}]}),
        ("read_file", {"path": f"{here}/notes.txt"}),
        ("read_text_file", {"path": f"{here}/notes.txt", "head": 2}),
        ("read_media_file", {"path": f"{here}/logo.png"}),
        ("read_multiple_files", {"paths": [f"{here}/notes.txt", f"{here}/new.txt"]}),
        ("create_directory", {"path": f"{here}/sub/dir"}),
        ("move_file", {"source": f"{here}/new.txt", "destination": f"{here}/sub/moved.txt"}),
        ("list_directory", {"path": here}),
        ("list_directory_with_sizes", {"path": here, "sortBy": "size"}),
        ("directory_tree", {"path": here, "excludePatterns": [".decode"]}),
        ("search_files", {"path": here, "pattern": "**/*.txt"}),
        ("get_file_info", {"path": f"{here}/notes.txt"}),
    ]

    results = run_calls(project, decode_cmd, "fs", calls, search=search)

    check_all(listed, calls, results, may_refuse=set())
    assert len(listed) == 14
    assert (project / "sub" / "moved.txt").read_text() == "alpha\ngamma\n"
    content = {tool: found[0]["content"] for tool, found in results.items()}
    assert json.loads(content["read_text_file"]) == {"content": "one\ntwo"}  # its structured content
    assert "moved.txt" in content["search_files"]


def test_every_tool_of_the_git_server(project: Path, decode_cmd: RunDecode) -> None:
    def git(*args: str) -> None:
        subprocess.run(["git", "-C", str(project), *args], check=True, capture_output=True)

    git("init", "-q", "-b", "main")
    git("config", "user.email", "test@example.com")
    git("config", "user.name", "Test")
    (project / "a.txt").write_text("first\n")
    git("add", "a.txt")
    git("commit", "-q", "-m", "first")
    (project / "a.txt").write_text("first\nsecond\n")
    configure("git", str(GIT_SERVER), "--repository", str(project))
    listed, search = offered("git")
    repo = {"repo_path": str(project)}
    calls: list[Call] = [
        ("git_status", repo),
        ("git_diff_unstaged", repo),
        ("git_add", {**repo, "files": ["a.txt"]}),
        ("git_diff_staged", repo),
        ("git_reset", repo),
        ("git_add", {**repo, "files": ["a.txt"]}),
        ("git_commit", {**repo, "message": "second"}),
        ("git_diff", {**repo, "target": "HEAD~1"}),
        ("git_log", {**repo, "max_count": 5}),
        ("git_create_branch", {**repo, "branch_name": "feature"}),
        ("git_checkout", {**repo, "branch_name": "feature"}),
        ("git_show", {**repo, "revision": "HEAD"}),
        ("git_branch", {**repo, "branch_type": "local"}),
        ("git_status", {"repo_path": str(project.parent)}),  # not a repository: the tool's error…
        ("git_log", {**repo, "max_count": 1}),  # …and the server still offers its tools (ping: -32601)
    ]

    results = run_calls(project, decode_cmd, "git", calls, search=search)

    assert len(listed) == 12
    status, not_a_repo = results["git_status"]
    assert not_a_repo["is_error"]
    results["git_status"] = [status]
    check_all(listed, calls, results, may_refuse=set())
    assert "second" in results["git_log"][0]["content"]
    assert "second" in results["git_log"][1]["content"]  # after the error: still there
    assert "* feature" in results["git_branch"][0]["content"]
