"""Hang-up: a terminal that is gone is seen as gone, and a REPL told so ends, on real ptys.

What moves file descriptors 0-2 or ends the process runs in a child Python, never in pytest's."""

import asyncio
import os
import select
import signal
import subprocess
import sys
import textwrap
import tty

from decode.tui.hangup import HangUp, _on_error, _Reader, terminal_gone


def test_a_live_pty_is_a_terminal_and_a_closed_one_is_gone() -> None:
    master, slave = os.openpty()
    try:
        assert not terminal_gone((slave,))
        os.close(master)
        assert terminal_gone((slave,))
    finally:
        os.close(slave)


def test_a_pipe_is_no_terminal() -> None:
    reader, writer = os.pipe()
    try:
        assert terminal_gone((reader,))
    finally:
        os.close(reader)
        os.close(writer)


def test_the_prompt_reader_reads_keys_then_hangs_up_once_the_terminal_is_gone() -> None:
    master, slave = os.openpty()
    gone: list[str] = []
    reader = _Reader(slave, "surrogateescape", "utf-8", on_gone=lambda: gone.append("gone"))
    try:
        tty.setraw(slave)  # as prompt_toolkit reads it: key by key
        os.write(master, b"hi")
        select.select([slave], [], [], 30)  # the keys have reached the terminal's side
        assert reader.read() == "hi"
        assert gone == []
        os.close(master)
        assert reader.read() == ""  # prompt_toolkit's own reader would be asked again, and again
        assert reader.closed
        assert gone == ["gone"]
    finally:
        os.close(slave)


def run_child(code: str) -> subprocess.CompletedProcess[str]:
    """Run `code` in a child Python whose stdin and stdout are a pty that is then closed."""
    master, slave = os.openpty()
    child = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(code)], stdin=slave, stdout=slave, stderr=subprocess.PIPE, text=True
    )
    os.close(slave)
    os.read(master, 100)  # its "ready": the child is past its imports
    os.close(master)  # the terminal goes away
    _, err = child.communicate(timeout=60)
    return subprocess.CompletedProcess(child.args, child.returncode, "", err)


def test_hanging_up_detaches_the_terminal_stops_at_once_and_cancels_the_task() -> None:
    done = run_child(
        """
        import asyncio, os, select
        from decode.tui.hangup import HangUp, terminal_gone

        async def main():
            stopped = []
            task = asyncio.ensure_future(asyncio.sleep(60))
            hang_up = HangUp(task, before=[lambda: stopped.append(1)])
            report = os.fdopen(os.dup(2), "w")  # stderr itself goes to /dev/null with the terminal
            os.write(1, b"ready")
            while not terminal_gone():
                await asyncio.sleep(0.01)  # polling a condition: the parent closes the pty
            hang_up.hang_up()
            hang_up.hang_up()  # a second sign of the same hang-up changes nothing
            await asyncio.gather(task, return_exceptions=True)
            poller = select.epoll()
            poller.register(0, select.EPOLLIN)  # stdin can still be watched by an event loop
            print(task.cancelled(), stopped, os.read(0, 10), os.write(1, b"lost"), hang_up.signum, file=report)

        asyncio.run(main())
        """
    )
    assert done.stderr.split() == ["True", "[1]", "b''", "4", str(int(signal.SIGHUP))]
    assert done.returncode == 0


def test_decode_ends_itself_when_leaving_takes_longer_than_the_grace() -> None:
    done = run_child(
        """
        import os, time
        from decode.tui.hangup import HangUp, terminal_gone

        os.write(1, b"ready")
        while not terminal_gone():
            time.sleep(0.01)  # polling a condition: the parent closes the pty
        HangUp(None, grace_s=0.1).hang_up()
        time.sleep(600)  # stuck: the deadline ends the process
        """
    )
    assert done.returncode == 128 + signal.SIGHUP


def test_an_error_nothing_awaited_after_the_hang_up_does_not_reach_the_previous_handler() -> None:
    seen: list[object] = []
    hang_up = HangUp(None, signum=signal.SIGHUP)  # already hung up: nothing is detached again
    loop = asyncio.new_event_loop()
    try:
        _on_error(hang_up, lambda _, context: seen.append(context))(loop, {"message": "EIO"})
    finally:
        loop.close()
    assert seen == []
