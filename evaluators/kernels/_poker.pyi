from typing import Any, NewType

import numpy as np
import numpy.typing as npt

Tables = NewType("Tables", object)

def tables(
    card_keys: npt.NDArray[np.uint64],
    flush_rank_bits: npt.NDArray[np.uint64],
    displacements: npt.NDArray[np.uint8],
    unsuited_classes: npt.NDArray[np.uint16],
    flush_classes: npt.NDArray[np.uint16],
    bucket_multiplier: int,
    slot_multiplier: int,
    bucket_bits: int,
    slot_bits: int,
    sum_start: int,
    flush_bits: int,
    rank_mask: int,
    suit_shift: int,
    suit_mask_shift: int,
    flush_rank_mask: int,
    strength_base: int,
    dots_shift: int,
    dots_mask: int,
    /,
) -> Tables: ...
def evaluate(
    tables: Tables,
    hands: npt.NDArray[np.uint8],
    table_rows: npt.NDArray[np.uint8],
    strength: npt.NDArray[np.uint16] | npt.NDArray[np.uint32],
    classes: npt.NDArray[Any] | None,
    dots: npt.NDArray[Any] | None,
    /,
) -> None: ...
def screened(
    tables: Tables,
    hands: npt.NDArray[np.uint8],
    table_row: npt.NDArray[np.uint8],
    first_refused: int,
    strength: npt.NDArray[np.uint16] | npt.NDArray[np.uint32] | memoryview,
    classes: npt.NDArray[Any] | memoryview | None,
    dots: npt.NDArray[Any] | memoryview | None,
    /,
) -> bool: ...
def isa() -> str: ...
def isas() -> tuple[str, ...]: ...
def set_isa(name: str, /) -> str: ...
