"""Compiled kernels: the batch hot path in C, one extension module per family of games.

The tables stay built once by Python (``evaluators.tables`` and the games' modules) and
are handed to the kernels as buffers; a kernel loops with the GIL released, so a batch in
the pool runs beside the event loop and beside another batch. The numpy paths stay as the
reference the tests hold every kernel to, exactly.

A build without the compiled modules fails on this package's import, naming the fix;
nothing falls back to numpy silently.
"""

from __future__ import annotations

try:
    from evaluators.kernels import _deal, _not_poker, _odds, _points, _poker, _screen, _tonk
except ImportError as missing:  # pragma: no cover - only a broken install gets here
    raise ImportError(
        f"handeval's compiled kernels are not built ({missing}): run `pip install -e .` "
        "(or `python setup.py build_ext --inplace`) with gcc and the Python headers "
        "(Debian: apt-get install gcc python3-dev)"
    ) from missing

__all__ = ["_deal", "_not_poker", "_odds", "_points", "_poker", "_screen", "_tonk"]
