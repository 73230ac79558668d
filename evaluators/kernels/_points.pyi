"""Types of the compiled ``_points`` module (``_points.c``): the discard games' kept sums
and figures, and checks survived against a table. Arrays are C-contiguous."""

import numpy as np
import numpy.typing as npt

def discard_totals(
    values: npt.NDArray[np.uint16],
    figures: npt.NDArray[np.uint64],
    hands: npt.NDArray[np.uint8],
    hand_size: int,
    tables: npt.NDArray[np.uint8],
    table_size: int,
    out_strength: npt.NDArray[np.uint16],
    out_low: npt.NDArray[np.uint16],
    out_head: npt.NDArray[np.int16],
    out_instant: npt.NDArray[np.bool_],
    /,
) -> None: ...
def checks_survived(
    order: npt.NDArray[np.uint8],
    hands: npt.NDArray[np.uint8],
    tables: npt.NDArray[np.uint8],
    size: int,
    out: npt.NDArray[np.uint8],
    /,
) -> None: ...
def isa() -> str: ...
def isas() -> tuple[str, ...]: ...
def set_isa(name: str, /) -> str: ...
