"""The lookup tables this process has built: each one's name, size and own build time.

A table is built once per process by a named function. ``lookup_table(name, size)`` makes
such a function the process's cached copy (as ``functools.cache`` does) and records its
build on the first call; a table built in steps, as poker's are, records each step with
``timed`` and ``record``. A build's time is its own: the builds of other tables it calls
for the first time are timed as theirs and left out of it, so no table is counted twice
and each ``handeval_table_build_seconds{table}`` series says what that table cost.

``table_info()`` lists every table built so far; the server reports them after warming
every game up. Each game names its own tables where it builds them
(``not_poker.readings``), so no module outside a game names one.
"""

from __future__ import annotations

import functools
import sys
import threading
from collections.abc import Callable
from time import perf_counter
from typing import Any, NamedTuple, TypeVar

T = TypeVar("T")


class TableInfo(NamedTuple):
    """What the service reports about one lookup table: ``bytes`` of its own arrays or
    containers (the Python objects a container points at are not counted)."""

    name: str
    bytes: int
    build_seconds: float


_built: dict[str, TableInfo] = {}
_open = threading.local()
"""Per thread, a stack: for each build under way, the seconds spent in builds nested in it."""


def timed(build: Callable[[], T]) -> tuple[T, float]:
    """``build()`` and its own seconds: the time of any timed build nested in it is left
    out (and added to the nested time of the build around this one)."""
    stack: list[float] = _open.__dict__.setdefault("stack", [])
    stack.append(0.0)
    started = perf_counter()
    try:
        table = build()
    finally:
        total = perf_counter() - started
        nested = stack.pop()
        if stack:
            stack[-1] += total
    return table, total - nested


def record(name: str, size: int, seconds: float) -> None:
    """A table built: the first record of ``name`` is kept (a table is built once)."""
    _built.setdefault(name, TableInfo(name, size, seconds))


def lookup_table(
    name: str, size: Callable[[Any], int]
) -> Callable[[Callable[[], T]], Callable[[], T]]:
    """Decorate the function that builds table ``name``: it builds once per process, is
    cached, and its build is recorded with ``size(table)`` bytes."""

    def decorate(build: Callable[[], T]) -> Callable[[], T]:
        @functools.cache
        @functools.wraps(build)
        def built() -> T:
            table, seconds = timed(build)
            record(name, size(table), seconds)
            return table

        return built

    return decorate


def container_bytes(*containers: object) -> int:
    """``sys.getsizeof`` summed: a tuple's or dict's own storage, not its items'."""
    return sum(sys.getsizeof(container) for container in containers)


def table_info() -> tuple[TableInfo, ...]:
    """Every table this process has built so far, in the order they were built."""
    return tuple(_built.values())
