"""Distinct values of an integer array by sorting, for the table builders.

Why not ``np.unique``: from numpy 2.3 it finds integer values through a hash set before
sorting them, which on this project's builds (half a million uint64 rank-count keys) is
far dearer than one sort and a comparison of neighbours, and the builds sit in every
server's start-up. Results are the same: ascending, each value once.
"""

from __future__ import annotations

from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

T = TypeVar("T", bound=np.integer[Any])


def sorted_distinct(values: npt.NDArray[T]) -> npt.NDArray[T]:
    """Each value of ``values`` once, ascending (as ``np.unique(values)`` gives them)."""
    ordered = np.sort(values, axis=None)
    if len(ordered) < 2:
        return ordered
    keep = np.empty(len(ordered), dtype=bool)
    keep[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=keep[1:])
    return ordered[keep]


def all_distinct(values: npt.NDArray[np.integer[Any]]) -> bool:
    """No value occurs twice in ``values``."""
    ordered = np.sort(values, axis=None)
    return not bool((ordered[1:] == ordered[:-1]).any())
