"""The dtype contract of ``evaluators.results.BatchResult``, shared by the games' tests."""

from __future__ import annotations

import numpy as np

from evaluators.results import BatchResult


def has_batch_dtypes(batch: BatchResult) -> bool:
    """Unsigned strengths, a signed value and bool instant wins, of any integer width."""
    return (
        batch.strength.dtype.kind == "u"
        and batch.low_strength.dtype.kind == "u"
        and batch.value.dtype.kind == "i"
        and batch.instant_win.dtype == np.bool_
    )
