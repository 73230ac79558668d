"""The benchmarks' progress bar: long runs say where they are, on stderr."""

from __future__ import annotations

import sys
import time


class Progress:
    """A one-line progress bar on stderr (one line per step when stderr is not a terminal)."""

    def __init__(self, total: int) -> None:
        self.total = max(total, 1)
        self.done = 0
        self.tty = sys.stderr.isatty()
        self.started = time.perf_counter()

    def __call__(self, label: str) -> None:
        self.done += 1
        shown = min(self.done, self.total)
        width = 24
        filled = width * shown // self.total
        elapsed = time.perf_counter() - self.started
        bar = "#" * filled + "." * (width - filled)
        line = f"[{bar}] {shown}/{self.total} {elapsed:5.0f}s {label}"
        if self.tty:
            sys.stderr.write("\r" + line[:110].ljust(110))
        else:
            sys.stderr.write(line + "\n")
        sys.stderr.flush()

    def close(self) -> None:
        if self.tty:
            sys.stderr.write("\n")
            sys.stderr.flush()
