"""Kernel instruction-set paths forced for a test, the path before put back after it
(``evaluators.kernels.set_isa``: every kernel with paths at once)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from evaluators.kernels import kernel_isa, set_isa


@contextmanager
def forced_isa(name: str) -> Iterator[str]:
    before = kernel_isa()
    set_isa(name)
    try:
        yield name
    finally:
        set_isa(before)
