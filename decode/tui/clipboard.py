"""Ctrl+V: an image on the clipboard, attached as an `@path` mention of an image is (ADR-0140, ADR-0147).

A terminal pastes text only: a screenshot copied to the clipboard never reaches the input line.
Ctrl+V asks the clipboard for a PNG (`wl-paste` under Wayland, else `xclip` under X11, whichever is
installed), keeps it in `.decode/clipboard/` named by its hash, and puts `@.decode/clipboard/NAME.png`
in the line: at Enter it is attached as any mentioned image is (`[image: NAME.png]`). Neither program,
or no image on the clipboard: one line says so, and the input line is left as it was.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import select
import shutil
import subprocess
import time
from pathlib import Path
from typing import TYPE_CHECKING

from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent, merge_key_bindings

from decode.config.harness_home import HARNESS_DIR
from decode.files import write_atomic

if TYPE_CHECKING:
    from decode.tui.app import Repl

PNG = b"\x89PNG\r\n\x1a\n"
READERS = (
    ("wl-paste", ("--no-newline", "--type", "image/png")),
    ("xclip", ("-selection", "clipboard", "-t", "image/png", "-o")),
)
"""The clipboard readers, in the order tried: the first installed one answers."""
TIMEOUT_S = 5.0
CLIPBOARD_LIMIT = 64 << 20
"""Bytes of the clipboard read at most: more is refused (a reader may print without end)."""
FOLDER = HARNESS_DIR / "clipboard"
NO_READER = "no clipboard reader: install wl-clipboard (wl-paste) or xclip to paste images with Ctrl+V"


class ClipboardError(Exception):
    """Why no image came from the clipboard, in one line."""


def clipboard_png() -> bytes:
    """The PNG the clipboard holds, read by the first installed reader; `ClipboardError` otherwise."""
    for name, arguments in READERS:
        program = shutil.which(name)
        if program is None:
            continue
        try:
            code, image = _read_capped([program, *arguments])
        except subprocess.TimeoutExpired:
            raise ClipboardError(f"{name} did not answer within {TIMEOUT_S:g}s") from None
        except OSError as exc:
            raise ClipboardError(f"{name} could not run: {exc.strerror or exc}") from None
        if code != 0 or not image.startswith(PNG):
            raise ClipboardError(f"the clipboard holds no image ({name} found no PNG)")
        return image
    raise ClipboardError(NO_READER)


def _read_capped(argv: list[str]) -> tuple[int, bytes]:
    """The reader's exit code and output, read up to `CLIPBOARD_LIMIT` within `TIMEOUT_S` (whatever
    the clipboard holds, an endless stream included); `ClipboardError` past the cap."""
    deadline = time.monotonic() + TIMEOUT_S
    with subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL) as process:
        assert process.stdout is not None
        chunks, size, fd = [], 0, process.stdout.fileno()
        try:
            while size <= CLIPBOARD_LIMIT:
                if not select.select([fd], [], [], max(0.0, deadline - time.monotonic()))[0]:
                    raise subprocess.TimeoutExpired(argv, TIMEOUT_S)
                if not (chunk := os.read(fd, 1 << 16)):
                    return process.wait(max(0.0, deadline - time.monotonic())), b"".join(chunks)
                chunks.append(chunk)
                size += len(chunk)
            raise ClipboardError(f"the clipboard's image is larger than {CLIPBOARD_LIMIT >> 20} MiB: not pasted")
        finally:
            if process.poll() is None:
                process.kill()


def keep(image: bytes, workspace: Path) -> Path:
    """Write `image` to `.decode/clipboard/` under its hash; its path relative to `workspace`."""
    relative = FOLDER / f"{hashlib.sha256(image).hexdigest()[:16]}.png"
    write_atomic(workspace / relative, image, root=workspace)  # no link a repository planted is followed
    return relative


def add_clipboard_keys(repl: Repl) -> None:
    """Ctrl+V pastes the clipboard's image as an `@` mention at the cursor (see the module docstring)."""
    bindings = KeyBindings()

    @bindings.add("c-v")
    def _paste_image(event: KeyPressEvent) -> None:
        buffer = event.current_buffer
        repl.alongside(_paste(repl, buffer))

    repl.session.key_bindings = merge_key_bindings([*filter(None, [repl.session.key_bindings]), bindings])


async def _paste(repl: Repl, buffer: object) -> None:
    from prompt_toolkit.buffer import Buffer

    assert isinstance(buffer, Buffer)
    try:
        image = await asyncio.to_thread(clipboard_png)
        relative = await asyncio.to_thread(keep, image, repl.workspace)
    except ClipboardError as exc:
        repl.renderer.notice(str(exc), "warning")
        return
    except OSError as exc:
        repl.renderer.notice(f"the clipboard's image could not be kept in {FOLDER}: {exc.strerror or exc}", "warning")
        return
    before = buffer.document.text_before_cursor
    buffer.insert_text(("" if not before or before.endswith(" ") else " ") + f"@{relative} ")
    repl.invalidate()
