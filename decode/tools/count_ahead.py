"""Counting a large file's lines ahead of the reader, in the background.

Page 1 of a 200 MB log is quick, but a page deep in it needs the lines before it counted
(`line_index.py`), which the first time is a scan of the whole file. A model that read page 1
usually asks for a later page seconds after, so reading page 1 of a large file starts that scan
now, in a worker thread: the later page finds its marks made (a count that passed it is not
waited for: it may go on for gigabytes), or waits for a scan already under way, which never takes
longer than scanning would.

Bounded: one file at a time (a new one stops the last), at most its first `MAX_COUNTED` bytes, and only
regular files on this machine (`read` refuses a FIFO or a device before this; the scan opens the
file as reads do, refusing one swapped in). It stops at the first block after the file's size or
modification time changed, and an error ends it quietly: the read that needs those lines counts
them itself and says what failed.
"""

import os
import sys
import threading
from concurrent.futures import Future
from pathlib import Path

from decode.entities.executor import CommandExecutor, FileStat
from decode.processes.local import LocalExecutor
from decode.tools import line_index
from decode.tools.line_index import LineIndex

MIN_BYTES = 16 * 1024 * 1024  # a smaller file is counted when a page needs it, in ~10 ms

_stop = threading.Event()  # the running count's (one at a time)


def count_ahead(executor: CommandExecutor, path: Path, stat: FileStat) -> None:
    """Start counting `path`'s lines in the background if it is large and not counted yet."""
    global _stop
    if not isinstance(executor, LocalExecutor) or not stat.is_file or stat.size < MIN_BYTES:
        return
    index = line_index.index_for(executor, path, stat)
    if (index.ahead and not index.ahead.done()) or index.counted(stat.size):
        return  # under way, or counted already
    _stop.set()
    _stop = stop = threading.Event()
    done: Future[None] = Future()
    index.ahead = done
    threading.Thread(target=_count, args=(path, stat, index, stop, done), name="count-ahead", daemon=True).start()


def _count(path: Path, stat: FileStat, index: LineIndex, stop: threading.Event, done: "Future[None]") -> None:
    def enough() -> bool:  # asked after each block
        return stop.is_set() or _changed(path, stat)

    try:
        start, before = index.reached()
        line_index.scan(path, index, start, before, sys.maxsize, stop=enough)
    except (OSError, ValueError):  # `PastTheCount` too: its marks so far are kept
        pass  # the read that needs these lines counts them and says what failed
    finally:
        done.set_result(None)


def _changed(path: Path, stat: FileStat) -> bool:
    try:
        now = os.stat(path)
    except OSError:
        return True
    return now.st_size != stat.size or now.st_mtime_ns != stat.mtime_ns
