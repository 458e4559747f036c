"""Worker processes that end with the server: a worker (a bot or replay process) watches
the server and exits once it is gone, so a server killed outright (SIGKILL, no shutdown)
leaves nothing running.

The watch is a daemon thread (or, in a worker under a memory limit, a timer signal) looking
every ``interval`` seconds at its parent's id
(POSIX: a child whose parent dies is given another one) and at the server's process (on
Linux by its start time in ``/proc``, so a reused process id is not taken for it; else by
signal 0). The server is watched as well as the parent because a forkserver's workers
are the forkserver's children, and the forkserver outlives the server while any of them
lives (each holds its end of the forkserver's pipe); once they have gone it ends too."""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path
from types import FrameType

#: seconds between two looks at the server
INTERVAL = 0.25


def watch_parent(server: int | None = None, interval: float = INTERVAL) -> None:
    """In a worker, at its start: exit (code 1, nothing flushed) once its parent or the
    process ``server`` (default: the parent) has died. Does nothing off POSIX."""
    if os.name != "posix":
        return
    parent = os.getppid()
    server = parent if server is None else server
    thread = threading.Thread(target=_watch, args=(parent, server, _born(server), interval),
                              name="rummykit-server-watch", daemon=True)
    thread.start()


def watch_parent_by_timer(server: int | None = None, interval: float = INTERVAL) -> None:
    """:func:`watch_parent` without a thread, for a worker under a memory limit (a new
    thread's allocator arena reserves 64 MB of address space): a timer signal (SIGALRM)
    looks every ``interval`` seconds, also while the worker waits for work."""
    if os.name != "posix":
        return
    parent = os.getppid()
    server = parent if server is None else server
    born = _born(server)

    def look(signum: int, frame: FrameType | None) -> None:
        if os.getppid() != parent or not alive(server, born):
            os._exit(1)

    signal.signal(signal.SIGALRM, look)
    signal.setitimer(signal.ITIMER_REAL, interval, interval)


def _born(pid: int) -> str | None:
    """When process ``pid`` started (Linux, in clock ticks), or None (elsewhere, or it is
    gone or has ended: a zombie)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return None if fields[0] in ("Z", "X") else fields[19]


def alive(pid: int, born: str | None) -> bool:
    """Whether process ``pid``, started at ``born`` (see :func:`_born`; None: not known),
    is still running."""
    if born is not None:
        return _born(pid) == born
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _watch(parent: int, server: int, born: str | None, interval: float) -> None:
    while True:
        time.sleep(interval)
        if os.getppid() != parent or not alive(server, born):
            os._exit(1)
