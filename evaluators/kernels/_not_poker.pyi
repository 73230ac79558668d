"""Types of the compiled ``_not_poker`` module (``_not_poker.c``): readings of hands by
their multiset of symbols, and its instruction-set paths. Arrays are C-contiguous."""

import numpy as np
import numpy.typing as npt

def multiset_readings(
    symbols: npt.NDArray[np.uint8],
    weights: npt.NDArray[np.int32],
    strengths: npt.NDArray[np.uint32],
    categories: npt.NDArray[np.int8],
    hands: npt.NDArray[np.uint8],
    places: int,
    out_strength: npt.NDArray[np.uint32],
    out_category: npt.NDArray[np.int8],
    /,
) -> None: ...
def isa() -> str: ...
def isas() -> tuple[str, ...]: ...
def set_isa(name: str, /) -> str: ...
