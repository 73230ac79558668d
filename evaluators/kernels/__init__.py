"""Compiled kernels: the batch hot path in C, one extension module per family of games.

The tables stay built once by Python (``evaluators.tables`` and the games' modules) and
are handed to the kernels as buffers; a kernel loops with the GIL released, so a batch in
the pool runs beside the event loop and beside another batch. The numpy paths stay as the
reference the tests hold every kernel to, exactly.

A build without the compiled modules fails on this package's import, naming the fix;
nothing falls back to numpy silently.

Instruction-set paths (docs/kernels.md): the poker kernel scores eight hands a step in
AVX2 registers where the CPU has AVX2 and BMI2, else one hand at a time ("scalar"); the
discard games' kernel sums, and NotPoker's kernel sorts, eight hands a step where the CPU
has AVX2; the choice is made at run time, once per process, and ``HANDEVAL_KERNEL_ISA``
(``ISA_VARIABLE``) forces one on all three (a path this CPU or build does not run is a
ValueError at import, naming the variable). ``kernel_isa()`` says which path is in use:
the server logs it and labels a metric with it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

try:
    from evaluators.kernels import _deal, _not_poker, _odds, _points, _poker, _screen, _tonk
except ImportError as missing:  # pragma: no cover - only a broken install gets here
    raise ImportError(
        f"handeval's compiled kernels are not built ({missing}): run `pip install -e .` "
        "(or `python setup.py build_ext --inplace`) with gcc and the Python headers "
        "(Debian: apt-get install gcc python3-dev)"
    ) from missing

ISA_VARIABLE = "HANDEVAL_KERNEL_ISA"


def set_isa(name: str) -> str:
    """Force the path ``name`` on every kernel that has paths (the poker, the discard and
    NotPoker's kernels; a kernel without that path takes "scalar"); ValueError, naming the
    variable and the paths this CPU runs, for a path it does not run. Returns the path in
    use."""
    try:
        _poker.set_isa(name)
    except ValueError:
        raise ValueError(
            f"{ISA_VARIABLE}={name!r}: this CPU and build run {', '.join(_poker.isas())}"
        ) from None
    _points.set_isa(name if name in _points.isas() else "scalar")
    _not_poker.set_isa(name if name in _not_poker.isas() else "scalar")
    return _poker.isa()


def choose_isa(environ: Mapping[str, str] = os.environ) -> str:
    """Take the path ``environ[ISA_VARIABLE]`` names (unset or empty: the fastest this CPU
    runs, already chosen); the path in use. ValueError, naming the variable and the paths
    this CPU runs, for any other name."""
    wanted = environ.get(ISA_VARIABLE, "").strip().lower()
    return set_isa(wanted) if wanted else _poker.isa()


def kernel_isa() -> str:
    """The instruction-set path the batch kernels take in this process."""
    return _poker.isa()


choose_isa()

__all__ = [
    "ISA_VARIABLE",
    "_deal",
    "_not_poker",
    "_odds",
    "_points",
    "_poker",
    "_screen",
    "_tonk",
    "choose_isa",
    "kernel_isa",
    "set_isa",
]
