"""Types of the compiled ``_tonk`` module (``_tonk.c``): rummy deadwood by runs and sets,
and the highest of per-card values. Arrays are C-contiguous."""

import numpy as np
import numpy.typing as npt

def deadwood(
    keys: npt.NDArray[np.uint64],
    points: npt.NDArray[np.int64],
    runs_deadwood: npt.NDArray[np.int16],
    set_choices: npt.NDArray[np.int64],
    strength_base: int,
    hands: npt.NDArray[np.uint8],
    hand_size: int,
    out_strength: npt.NDArray[np.uint16],
    out_deadwood: npt.NDArray[np.int16],
    /,
) -> None: ...
def highest(
    values: npt.NDArray[np.int64],
    hands: npt.NDArray[np.uint8],
    hand_size: int,
    out: npt.NDArray[np.int16],
    /,
) -> None: ...
