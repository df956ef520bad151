"""The footer and /status name the sandbox (lesson 17); `none` shows nothing in the footer."""

import shutil

import pytest

from decode.sandbox.backends import close_sandboxes
from decode.tui.footer import footer, plain

needs_bwrap = pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed")


async def test_unsandboxed_the_footer_is_as_before_and_status_says_so(start_repl, script) -> None:
    session = await start_repl(script([{"text": "Hi."}]))
    await session.wait_until(lambda: session.repl.status.phase == "ready")
    assert "│ sandbox " not in plain(footer(session.repl.status))
    session.send("/status")
    output = await session.wait_for("usage:")
    assert "sandbox:   none (commands run on this machine, unsandboxed)" in output


@needs_bwrap
async def test_in_bwrap_the_footer_and_status_name_it(start_repl, script) -> None:
    session = await start_repl(script([{"text": "Hi."}]), sandbox="bwrap")
    try:
        await session.wait_until(lambda: session.repl.status.phase == "ready")
        assert "│ sandbox bwrap │" in plain(footer(session.repl.status))
        session.send("/status")
        output = await session.wait_for("usage:")
        assert "sandbox:   bwrap (commands run in it)" in output
    finally:
        await close_sandboxes()
