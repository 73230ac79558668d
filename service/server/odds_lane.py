"""The Odds lane: at most its width of Odds calls compute at once, across every worker
process of the pod (``service.server.limits.odds_lane_width``).

An Odds call keeps a core busy for up to seconds. A lane per process let ``--workers 2``
on 2 CPUs run two, which took both cores from the event loops that answer every cheap
call. So with workers the parent makes a private directory of one slot file per place
(``shared_slots``), and a place is an exclusive ``fcntl.flock`` on one of them: the kernel
drops the locks of a process that dies, so a worker killed (-9) while computing frees its
place, where a POSIX or ``multiprocessing`` semaphore would keep it taken for good. With
one process there are no files; the places are only counted.

A call takes its place on the loop before its work starts and gives it back when its
thread is done. Within a process waiters are served first come first served: the one
holding the turn looks for a free place, woken by a release in this process or, with
files, every ``POLL_SECONDS`` (another process's release wakes nobody here), so no pool
thread ever blocks and the wait ends, like any await, when the call is cancelled (its
deadline, its client, the drain's end). Across processes a freed place goes to whichever
worker looks first; a release does not wake its own process's waiter, so a worker with a
queue does not keep the place from the others.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator

SLOTS_ENV = "HANDEVAL_ODDS_SLOTS_DIR"
"""Where the parent's slot directory is, for the workers it forks (set by ``shared_slots``,
not a setting)."""
POLL_SECONDS = 0.005
"""How often the waiter holding a process's turn tries the slot files: one wake-up and at
most width lock attempts per process each time, however many calls wait."""


def slot_path(directory: str, slot: int) -> str:
    return os.path.join(directory, f"slot-{slot}")


@contextlib.contextmanager
def shared_slots(width: int) -> Iterator[str]:
    """A private directory of ``width`` slot files, named in ``SLOTS_ENV`` for the worker
    processes forked inside; removed, and the variable unset, on the way out."""
    directory = tempfile.mkdtemp(prefix="handeval-odds-")
    try:
        for slot in range(width):
            os.close(os.open(slot_path(directory, slot), os.O_CREAT | os.O_WRONLY, 0o600))
        os.environ[SLOTS_ENV] = directory
        yield directory
    finally:
        os.environ.pop(SLOTS_ENV, None)
        shutil.rmtree(directory, ignore_errors=True)


class OddsLane:
    """``width`` places, shared through the slot files in ``directory`` when given (the
    parent's ``shared_slots``), else this process's alone. Use on one event loop."""

    def __init__(self, width: int, directory: str | None = None) -> None:
        self._width = width
        self._directory = directory
        self._held: dict[int, int | None] = {}
        """The places this process holds: slot -> its locked file descriptor (None: no files)."""
        self._turn = asyncio.Lock()
        self._freed = asyncio.Event()

    @classmethod
    def for_process(cls, width: int) -> OddsLane:
        """The lane of this process: shared through the parent's slots when it made them."""
        return cls(width, os.environ.get(SLOTS_ENV) or None)

    async def acquire(self) -> Callable[[], None]:
        """Wait for a place (first come first served in this process); the call that gives
        it back. Cancelled while waiting, it holds nothing."""
        async with self._turn:
            while (slot := self._take()) is None:
                if self._directory is None:
                    self._freed.clear()
                    await self._freed.wait()
                else:
                    await asyncio.sleep(POLL_SECONDS)
        return lambda: self._release(slot)

    def _take(self) -> int | None:
        for slot in range(self._width):
            if slot in self._held:
                continue
            if self._directory is None:
                self._held[slot] = None
                return slot
            # A descriptor of its own: flock excludes other open file descriptions, this
            # process's included.
            fd = os.open(slot_path(self._directory, slot), os.O_RDWR | os.O_CLOEXEC)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(fd)
                continue
            self._held[slot] = fd
            return slot
        return None

    def _release(self, slot: int) -> None:
        fd = self._held.pop(slot)
        if fd is not None:
            os.close(fd)  # drops the lock
        else:
            self._freed.set()
