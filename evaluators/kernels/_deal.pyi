"""Types of the compiled ``_deal`` module (``_deal.c``): Odds' seeded sampled run-outs.
Arrays are C-contiguous."""

import numpy as np
import numpy.typing as npt

def sample(
    unseen: bytes,
    in_turn: int,
    width: int,
    table_ranks: int,
    seed: int,
    out: npt.NDArray[np.uint8],
    /,
) -> None: ...
