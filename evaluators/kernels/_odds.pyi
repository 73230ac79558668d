"""Types of the compiled ``_odds`` module (``_odds/``): Odds' pot rules and tally over a
chunk of run-outs. Arrays are C-contiguous."""

import numpy as np
import numpy.typing as npt

from evaluators.kernels._poker import Tables

BEST: int
HALVES: int
UNIQUE_BEST: int
DECLARED: int
MAX_SEATS: int
POKER: int
DOTS: int
CHECKS: int

def tally(
    shape: int,
    pots: int,
    instant_pot: int,
    split_at: int,
    seats: int,
    key: npt.NDArray[np.int64],
    second: npt.NDArray[np.int64],
    out_after: npt.NDArray[np.int64],
    goes_high: bytes,
    goes_low: bytes,
    weights: npt.NDArray[np.float64],
    sums: npt.NDArray[np.float64],
    squares: npt.NDArray[np.float64],
    /,
) -> None: ...
def discard_seat(
    values: npt.NDArray[np.uint16],
    hand: npt.NDArray[np.uint8],
    hand_strides: tuple[int, int, int],
    table: npt.NDArray[np.uint8],
    table_strides: tuple[int, int, int],
    count: int,
    kept: npt.NDArray[np.uint16],
    out_after: npt.NDArray[np.int64],
    /,
) -> None: ...
def discard_tally(
    shape: int,
    pots: int,
    instant_pot: int,
    split_at: int,
    second: int,
    goes_high: bytes,
    goes_low: bytes,
    values: npt.NDArray[np.uint16],
    scores: npt.NDArray[np.int64],
    hands: tuple[tuple[npt.NDArray[np.uint8], tuple[int, int, int]], ...],
    table: npt.NDArray[np.uint8],
    table_strides: tuple[int, int, int],
    count: int,
    weights: npt.NDArray[np.float64],
    sums: npt.NDArray[np.float64],
    squares: npt.NDArray[np.float64],
    /,
) -> None: ...
def scored_tally(
    kind: int,
    tables: Tables | npt.NDArray[np.uint8],
    shape: int,
    pots: int,
    split_at: int,
    hands: tuple[tuple[npt.NDArray[np.uint8], tuple[int, int, int]], ...],
    table: npt.NDArray[np.uint8],
    table_strides: tuple[int, int, int],
    count: int,
    weights: npt.NDArray[np.float64],
    sums: npt.NDArray[np.float64],
    squares: npt.NDArray[np.float64],
    /,
) -> None: ...
def discard_sampled(
    shape: int,
    pots: int,
    instant_pot: int,
    split_at: int,
    second: int,
    goes_high: bytes,
    goes_low: bytes,
    values: npt.NDArray[np.uint16],
    scores: npt.NDArray[np.int64],
    seats: int,
    deal: tuple[bytes, int, int, int, bytes, bytes],
    count: int,
    sums: npt.NDArray[np.float64],
    squares: npt.NDArray[np.float64],
    /,
) -> None: ...
def scored_sampled(
    kind: int,
    tables: Tables | npt.NDArray[np.uint8],
    shape: int,
    pots: int,
    split_at: int,
    seats: int,
    deal: tuple[bytes, int, int, int, bytes, bytes],
    count: int,
    sums: npt.NDArray[np.float64],
    squares: npt.NDArray[np.float64],
    /,
) -> None: ...
