from typing import Any

import numpy as np
import numpy.typing as npt

def write(
    strength: npt.NDArray[Any],
    low_strength: npt.NDArray[Any],
    value: npt.NDArray[Any],
    instant_win: npt.NDArray[np.bool_],
    /,
) -> bytes: ...

class Reply:
    def __init__(self, hands: int) -> None: ...
    @property
    def strength(self) -> memoryview: ...
    @property
    def value(self) -> memoryview: ...
    def finish(self) -> bytes: ...
