"""What a caller asks: the game, the cards as ids, options, showdown seats.

Names mirror the wire contract (docs/api.md) so the service converts by name: ``Game.TONK``
is ``GAME_TONK``, ``TonkEnding.DROP`` is ``TONK_ENDING_DROP``. ``Game`` has a member per game
module, named by the module.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from evaluators.games import MODULES

Cards = tuple[int, ...]


def _members() -> list[tuple[str, str]]:
    """(name, slug) of every game module in ``evaluators.games.MODULES``: ``tonk_spades``
    is ``Game.TONK_SPADES``, slug ``tonk-spades``, wire ``GAME_TONK_SPADES``."""
    return [(module.upper(), module.replace("_", "-")) for module in MODULES]


if TYPE_CHECKING:

    class _Members(enum.EnumMeta):
        def __getattr__(cls, name: str) -> Game: ...

    class Game(enum.Enum, metaclass=_Members):
        """Every game, one member per module in ``evaluators.games.MODULES``, in that order.

        Built from that list so a new game adds no member here; mypy cannot see members
        made at run time, so to it any ``Game.NAME`` is a ``Game`` (tests/test_lint.py
        checks that every name the code uses is a member).
        """

        @property
        def value(self) -> str: ...

else:
    Game = enum.Enum("Game", _members(), module=__name__, qualname="Game")


class Declaration(enum.Enum):
    """Flop-A: which half of the pot a player goes for."""

    HIGH = 1
    LOW = 2
    BOTH = 3


class TonkEnding(enum.Enum):
    TONK = 1
    OUT = 2
    DROP = 3
    STOCK_OUT = 4
    DEAL = 5


@dataclass(frozen=True)
class Options:
    """House options; each game reads only the ones its registry entry lists."""

    ace_low: bool = False
    hit_runs_only: bool = False
    texas: bool = False
    six_card_tonk: bool = False


@dataclass(frozen=True)
class HandRequest:
    """One hand to score, already parsed and validated (see ``validation.read_hand``)."""

    game: Game
    hand: Cards
    table: Cards = ()
    table_spreads: tuple[Cards, ...] = ()
    options: Options = field(default_factory=Options)


@dataclass(frozen=True)
class BatchRequest:
    """Many hands of one game, already checked (see ``batch.read_batch``): ``hands``
    (N, hand_size) and ``tables`` (N or 1, table_size) card ids, 255-padded at row ends."""

    game: Game
    hands: npt.NDArray[np.uint8]
    tables: npt.NDArray[np.uint8]
    options: Options


@dataclass(frozen=True)
class Seat:
    player: str
    hand: Cards
    declaration: Declaration | None = None


@dataclass(frozen=True)
class ShowdownRequest:
    """A showdown, already parsed and validated (see ``validation.read_showdown``)."""

    game: Game
    seats: tuple[Seat, ...]
    table: Cards = ()
    table_spreads: tuple[Cards, ...] = ()
    options: Options = field(default_factory=Options)
    ending: TonkEnding | None = None
    ender: str = ""
