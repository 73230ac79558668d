"""Keep freed memory in the process for the next batch instead of giving it back (glibc).

A 100,000-hand batch allocates and frees tens of MB of numpy temporaries. With glibc's
defaults a freed block of 128 KiB or more goes back to the kernel (or is trimmed off the
heap's top), so the next batch touches fresh pages: about 1,000 page faults per
100,000-hand call here, at 2 µs or more each on a VM, a quarter of the batch's CPU
(``docs/performance.md``, "Page faults"). ``retain_freed_memory`` raises both thresholds so
blocks up to ``MMAP_THRESHOLD`` come from the heap and up to ``TRIM_THRESHOLD`` of free top
stays mapped per malloc arena: the faults stop after the first few batches.

The price is that the resident size falls back more slowly after a peak: it keeps up to
``TRIM_THRESHOLD`` free per arena that reached it, never more than it used at the peak.
An operator's own ``MALLOC_*_`` environment settings win: with any of them set, nothing
is changed. Elsewhere than glibc (musl, macOS) this does nothing.
"""

from __future__ import annotations

import ctypes
import os
import sys

MMAP_THRESHOLD = 32 * 1024 * 1024
"""Blocks below this come from the heap, not their own mmap (glibc's ceiling for it)."""
TRIM_THRESHOLD = 32 * 1024 * 1024
"""Free memory at a heap's top kept mapped rather than returned to the kernel."""

_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3
_OPERATOR_SETTINGS = ("MALLOC_TRIM_THRESHOLD_", "MALLOC_MMAP_THRESHOLD_", "MALLOC_TOP_PAD_")


def retain_freed_memory() -> bool:
    """Set glibc's mmap and trim thresholds for this process (inherited by its forks).

    True when both were set; False on another libc, or when the environment already
    tunes malloc (``MALLOC_TRIM_THRESHOLD_`` and friends), which is then left as it is.
    """
    if not sys.platform.startswith("linux") or any(v in os.environ for v in _OPERATOR_SETTINGS):
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except AttributeError:
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    return bool(
        mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD) and mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD)
    )


def return_freed_memory() -> bool:
    """Give the kernel back the free pages of every malloc arena (glibc's ``malloc_trim``),
    after ``retain_freed_memory`` kept them: the cost lane calls this once the process has
    been idle a moment (``service.server.admission.CostAdmission``), so a burst's peak does
    not stay resident. True when memory was returned; False elsewhere than glibc."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        malloc_trim = ctypes.CDLL(None).malloc_trim
    except AttributeError:
        return False
    malloc_trim.argtypes = (ctypes.c_size_t,)
    malloc_trim.restype = ctypes.c_int
    return bool(malloc_trim(0))
