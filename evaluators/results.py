"""What the evaluators answer: frozen, plain values (card ids, ints, enums).

Strength always points up: a larger ``strength`` is a better hand within one game and
options. Enum member names mirror the wire contract so the service converts by name, and
so do details: each detail class names its ``oneof detail`` field in ``WIRE`` and its
fields are the proto message's fields, card ids where the wire has card text.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from evaluators.inputs import Cards


class PokerCategory(enum.IntEnum):
    """Poker hand categories; a larger value is a better category."""

    HIGH_CARD = 1
    ONE_PAIR = 2
    TWO_PAIR = 3
    THREE_OF_A_KIND = 4
    STRAIGHT = 5
    FLUSH = 6
    FULL_HOUSE = 7
    FOUR_OF_A_KIND = 8
    STRAIGHT_FLUSH = 9


class NotPokerCategory(enum.IntEnum):
    """NotPoker categories in docs/rules.md order: 1 (two trips) is the best."""

    TWO_TRIPS = 1
    THREE_PAIRS = 2
    FULL_HOUSE = 3
    TRIPS = 4
    TWO_PAIRS = 5
    PAIR = 6
    HIGH_CARD = 7


class DealBonus(enum.Enum):
    NONE = 1
    FIFTY = 2
    FORTY_NINE = 3
    THIRTEEN_OR_LESS = 4
    NINE_OR_LESS = 5


@dataclass(frozen=True, slots=True)
class PointsDetail:
    """Numbers, Florida Bingo, Flop-A: totals of the kept cards (halves are exact floats)."""

    WIRE: ClassVar[str] = "points"

    high_total: float
    low_total: float


@dataclass(frozen=True, slots=True)
class BlackjackDetail:
    WIRE: ClassVar[str] = "blackjack"

    total: int
    soft: bool
    bust: bool


@dataclass(frozen=True, slots=True)
class HighCardDetail:
    WIRE: ClassVar[str] = "high_card"

    survived: int
    ascending: Cards


@dataclass(frozen=True, slots=True)
class PokerDetail:
    WIRE: ClassVar[str] = "poker"

    category: PokerCategory
    rank_class: int
    """Cactus-Kev equivalence class: 1 (royal flush) ... 7462 (7-5-4-3-2); lower is better."""
    best_five: Cards


@dataclass(frozen=True, slots=True)
class DotsDetail:
    WIRE: ClassVar[str] = "dots"

    dots: int
    poker: PokerDetail


@dataclass(frozen=True, slots=True)
class NotPokerDetail:
    WIRE: ClassVar[str] = "not_poker"

    category: NotPokerCategory
    groups: tuple[str, ...]
    jokers_as: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Hit:
    """A hand card laid onto the request's ``table_spreads[spread_index]``."""

    card: int
    spread_index: int


@dataclass(frozen=True, slots=True)
class TonkDetail:
    WIRE: ClassVar[str] = "tonk"

    points: int
    deadwood: int
    spreads: tuple[Cards, ...]
    hits: tuple[Hit, ...]
    deadwood_cards: Cards
    tonk: bool
    deal_bonus: DealBonus


@dataclass(frozen=True, slots=True)
class SpadesDetail:
    WIRE: ClassVar[str] = "spades"

    highest: int | None
    """The highest spade's card id; None without a spade (empty text on the wire)."""


Detail = (
    PointsDetail
    | BlackjackDetail
    | HighCardDetail
    | DotsDetail
    | PokerDetail
    | NotPokerDetail
    | TonkDetail
    | SpadesDetail
)


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


@dataclass(frozen=True, slots=True)
class BatchResult:
    """One entry per hand, in order (see docs/api.md ``EvaluateBatchResponse``).

    ``strength`` and ``low_strength`` are unsigned integer arrays, ``value`` a signed one,
    each as wide as its game's figures need (poker's are 16 bits), and ``instant_win`` is
    bool: widening every figure to 64 bits cost a 7-card poker batch 15% of its scoring and
    reply writing. A caller that needs one width casts (``astype(np.uint64, copy=False)``).
    Fields may share memory (a game's value can be a view of its strength): read them, do
    not write to them.
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
