"""The benchmark's named deals: the core, the peers and gRPC score the same cards.

Every deal comes from the house's one seeded dealer (``evaluators.deal``): N valid hands of
one game (and their tables) as the batch path takes them. A ``NamedDeal`` adds the short
key and label the tables, JSON and plot use; each deal's seed derives from its key, so a
deal is the same whichever sections run.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from evaluators.cards import ACE, card_id
from evaluators.deal import Deal, deal
from evaluators.inputs import Game

SEED = 20240605
Matrix = npt.NDArray[np.uint8]

QUEEN, KING = 10, 11
MELD_DENSE_DECK = np.array(
    [card_id(rank, suit) for rank in (ACE, 0, 1, 2, 3, 4, 5) for suit in range(3)], dtype=np.uint8
)
"""A-7 of clubs, diamonds and hearts: 10 of these 21 cards hold runs and sets in most hands,
and no Q-K-A run (which rlcard's gin rummy, unlike Tonk, does not allow)."""


@dataclass(frozen=True)
class NamedDeal(Deal):
    """A deal with the names the benchmark reports it under."""

    key: str = ""
    """Short name used in tables, JSON and the plot: ``poker-7``, ``tonk-10-dense``."""
    label: str = ""


def no_queen_king_ace_run(rows: Matrix) -> npt.NDArray[np.bool_]:
    """Rows where no suit holds Q, K and A together (so Tonk and rlcard's rules agree)."""
    ok = np.ones(len(rows), dtype=np.bool_)
    for suit in range(4):
        has = [(rows == card_id(rank, suit)).any(axis=1) for rank in (QUEEN, KING, ACE)]
        ok &= ~(has[0] & has[1] & has[2])
    return ok


def named_deal(
    key: str,
    label: str,
    game: Game,
    count: int,
    hand_size: int | None = None,
    table_size: int | None = None,
) -> NamedDeal:
    dealt = deal(game, count, zlib.crc32(f"{SEED}:{key}".encode()), hand_size, table_size)
    return NamedDeal(game, dealt.hands, dealt.tables, key, label)


def tonk_deal(size: int, dense: bool, count: int) -> NamedDeal:
    """Tonk hands without a Q-K-A run possibility: random (filtered) or meld-dense."""
    kind = "dense" if dense else "random"
    key = f"tonk-{size}-{kind}"
    seed = zlib.crc32(f"{SEED}:{key}".encode())
    if dense:
        dealt = deal(Game.TONK, count, seed, size, deck=MELD_DENSE_DECK)
        label = f"Tonk, {size} cards, meld-dense (A-7, 3 suits)"
    else:
        dealt = deal(Game.TONK, count, seed, size, keep=no_queen_king_ace_run)
        label = f"Tonk, {size} cards, random"
    return NamedDeal(Game.TONK, dealt.hands, dealt.tables, key, label)


def core_deals(count: int) -> list[NamedDeal]:
    """One deal per game (poker in 5 and 7 cards, Tonk random and meld-dense at 10); the
    others at their fullest hand and table."""
    return [
        named_deal("poker-7", "Poker high, 7 cards", Game.POKER_HIGH, count, 7, 0),
        named_deal("poker-5", "Poker high, 5 cards", Game.POKER_HIGH, count, 5, 0),
        named_deal("dots-7", "Grocery Store Dots, 7 cards", Game.GROCERY_STORE_DOTS, count),
        named_deal("numbers", "Numbers, 5 + table 7", Game.NUMBERS, count),
        named_deal("florida-bingo", "Florida Bingo, 5 + table 7", Game.FLORIDA_BINGO, count),
        named_deal("flop-a", "Flop-A, 3 + table 5", Game.FLOP_A, count),
        named_deal(
            "three-thirty-three",
            "Three Hundred Thirty Three, 3 + table 4",
            Game.THREE_THIRTY_THREE,
            count,
        ),
        named_deal("high-card", "High Card, 5 + table 5", Game.HIGH_CARD, count),
        named_deal("not-poker", "NotPoker, 6 of 54 cards", Game.NOT_POKER, count),
        tonk_deal(10, False, count),
        tonk_deal(10, True, count),
    ]


def tonk_peer_deals(count: int) -> list[NamedDeal]:
    """Tonk hands of 5, 7, 9 and 10 cards, random and meld-dense, for the rlcard comparison."""
    return [tonk_deal(size, dense, count) for size in (5, 7, 9, 10) for dense in (False, True)]
