import numpy as np
import numpy.typing as npt

PASSED: int
HANDS_FULL: int
TABLES_FULL: int

def screen(
    hands: npt.NDArray[np.uint8],
    tables: npt.NDArray[np.uint8],
    bits: npt.NDArray[np.uint64],
    rank_bits: npt.NDArray[np.uint64],
    refused: int,
    padding: int,
    hand_min: int,
    hand_max: int,
    table_min: int,
    table_max: int,
    cards_min: int,
    cards_max: int,
    distinct_table_ranks: bool,
    /,
) -> int: ...
