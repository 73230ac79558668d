"""What the evaluators answer: frozen, plain values (card ids, ints, enums).

Strength always points up: a larger ``strength`` is a better hand within one game and
options. Names mirror the wire contract so the service converts by name; each game's
``Detail`` kind lives in its game's module.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar, Protocol, TypeVar

import numpy as np
import numpy.typing as npt

from evaluators.inputs import Cards


class Detail:
    """A game's figures beyond its strength, one frozen dataclass per kind, held in the
    module of the game (or of the rule several games share) that fills it.

    Its fields are the proto detail message's fields by name, card ids where the wire has
    card text, and ``WIRE`` names its ``oneof detail`` field in ``Evaluation``: the service
    converts every kind by those names alone. A game's ``GameRules.detail`` names its kind.
    """

    __slots__ = ()
    WIRE: ClassVar[str]


DetailT = TypeVar("DetailT", bound=Detail)


@dataclass(frozen=True, slots=True)
class Evaluation:
    """One scored hand.

    ``strength``: the game's main ranking, higher is better, equal for hands the rules
    rank equal; 0 for an instant win (which ``instant_win`` decides).
    ``low_strength``: the low half's ranking where the game has one, higher is a better
    (lower) low; 0 otherwise.
    """

    strength: int
    description: str
    detail: Detail
    low_strength: int = 0
    instant_win: bool = False
    out_after: int = 0
    kept: Cards = ()
    discarded: Cards = ()

    def detail_as(self, kind: type[DetailT]) -> DetailT:
        """``detail`` as the kind a game's own functions read; another kind is a caller's
        bug (one game's evaluation handed to another's figures), a TypeError naming both."""
        if not isinstance(self.detail, kind):
            raise TypeError(f"needs a {kind.__name__}, got {type(self.detail).__name__}")
        return self.detail


@dataclass(frozen=True, slots=True)
class BatchResult:
    """One entry per hand, in order (see docs/api.md ``EvaluateBatchResponse``).

    ``strength`` and ``low_strength`` are unsigned integer arrays, ``value`` a signed one,
    each as wide as its game's figures need (poker's are 16 bits), and ``instant_win`` is
    bool: a wider figure is more bytes to score, write and send for every hand. A caller
    that needs one width casts (``astype(np.uint64, copy=False)``). Fields may share memory
    (a game's value can be a view of its strength): read them, do not write to them.
    """

    strength: npt.NDArray[np.unsignedinteger[Any]]
    low_strength: npt.NDArray[np.unsignedinteger[Any]]
    value: npt.NDArray[np.signedinteger[Any]]
    instant_win: npt.NDArray[np.bool_]

    @classmethod
    def ranked_only(
        cls,
        strength: npt.NDArray[np.unsignedinteger[Any]],
        value: npt.NDArray[np.signedinteger[Any]],
    ) -> BatchResult:
        """A game with one ranking: no low hand (``low_strength`` 0) and no instant win."""
        count = len(strength)
        return cls(
            strength, np.zeros(count, dtype=np.uint8), value, np.zeros(count, dtype=np.bool_)
        )


class RankedCells(Protocol):
    """Room a caller gives for a batch's figures, filled in place where the batch takes the
    one pass (``batch.score_batch``): ``strength`` and ``value``, writable views of one
    uint32 and one int32 cell per hand, each read once. Only a game with one ranking is
    written so: its low_strength is 0 and it has no instant win, which the caller's room
    holds already (a columns reply lends its own columns: ``service.wire``)."""

    @property
    def strength(self) -> memoryview: ...

    @property
    def value(self) -> memoryview: ...


@dataclass(frozen=True, slots=True)
class Award:
    """``share`` of the whole pot won by ``player`` from ``pot`` (high, low, dots, whole)."""

    player: str
    pot: str
    share: Fraction


@dataclass(frozen=True, slots=True)
class Payout:
    """Tonk settlement: stakes received (+) or paid (-)."""

    player: str
    stakes: int


@dataclass(frozen=True, slots=True)
class Resolution:
    """What a game's pot rule decides from the seats' evaluations."""

    awards: tuple[Award, ...]
    redeal: bool
    explanation: str
    payouts: tuple[Payout, ...] = ()
    ending: str = ""
    """How the game ended, as a metric label (Tonk: ``tonk``, ``out``, ``drop``,
    ``stock_out``, ``deal``); empty for games that have no endings."""


@dataclass(frozen=True, slots=True)
class ShowdownOutcome:
    results: tuple[tuple[str, Evaluation], ...]
    awards: tuple[Award, ...]
    redeal: bool
    payouts: tuple[Payout, ...]
    explanation: str
    ending: str = ""
    """``Resolution.ending``: how the game ended, empty for games without endings."""
