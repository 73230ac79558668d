"""Seeded hands for every benchmark section: the core, the peers and gRPC score the same cards.

A ``Deal`` is N valid hands of one game (and their tables) as the batch path takes them:
``hands`` (N, hand_size) and ``tables`` (N, table_size), or (1, 0) for no table. Each deal
has its own seed derived from its key, so a deal is the same whichever sections run.
Cards are drawn uniformly; rows with a repeated card are drawn again (rejection), so every
hand passes validation.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from evaluators.cards import ACE, DECK_SIZE, card_id
from evaluators.inputs import Cards, Game

SEED = 20240605
Matrix = npt.NDArray[np.uint8]
NO_TABLE = np.zeros((1, 0), dtype=np.uint8)

QUEEN, KING = 10, 11
MELD_DENSE_DECK = np.array(
    [card_id(rank, suit) for rank in (ACE, 0, 1, 2, 3, 4, 5) for suit in range(3)], dtype=np.uint8
)
"""A-7 of clubs, diamonds and hearts: 10 of these 21 cards hold runs and sets in most hands,
and no Q-K-A run (which rlcard's gin rummy, unlike Tonk, does not allow)."""


@dataclass(frozen=True)
class Deal:
    """N hands of one game with their tables, valid for that game."""

    key: str
    """Short name used in tables, JSON and the plot: ``poker-7``, ``tonk-10-dense``."""
    label: str
    game: Game
    hands: Matrix
    tables: Matrix

    def __len__(self) -> int:
        return len(self.hands)

    def singles(self, count: int) -> list[tuple[Cards, Cards]]:
        """The first ``count`` hands as (hand, table) tuples of ids, as single calls take them."""
        hands = [tuple(row) for row in self.hands[:count].tolist()]
        if self.tables.shape[1] == 0:
            return [(hand, ()) for hand in hands]
        tables = [tuple(row) for row in self.tables[:count].tolist()]
        return list(zip(hands, tables, strict=True))


def rng_for(key: str) -> np.random.Generator:
    return np.random.default_rng([SEED, zlib.crc32(key.encode())])


def _has_repeat(rows: Matrix) -> npt.NDArray[np.bool_]:
    ordered = np.sort(rows, axis=1)
    result: npt.NDArray[np.bool_] = (ordered[:, 1:] == ordered[:, :-1]).any(axis=1)
    return result


def distinct_cards(
    rng: np.random.Generator,
    count: int,
    size: int,
    deck: Matrix | None = None,
    keep: Callable[[Matrix], npt.NDArray[np.bool_]] | None = None,
    besides: Matrix | None = None,
) -> Matrix:
    """(count, size) cards, no repeat within a row nor with the same row of ``besides``,
    drawn from ``deck`` (default: all 52), each row also passing ``keep`` if given."""
    cards = deck if deck is not None else np.arange(DECK_SIZE, dtype=np.uint8)
    out = np.empty((count, size), dtype=np.uint8)
    todo = np.arange(count)
    while len(todo):
        drawn = cards[rng.integers(0, len(cards), size=(len(todo), size))]
        together = drawn if besides is None else np.concatenate([drawn, besides[todo]], axis=1)
        good = ~_has_repeat(together)
        if keep is not None:
            good &= keep(drawn)
        out[todo[good]] = drawn[good]
        todo = todo[~good]
    return out


def no_queen_king_ace_run(rows: Matrix) -> npt.NDArray[np.bool_]:
    """Rows where no suit holds Q, K and A together (so Tonk and rlcard's rules agree)."""
    ok = np.ones(len(rows), dtype=np.bool_)
    for suit in range(4):
        has = [(rows == card_id(rank, suit)).any(axis=1) for rank in (QUEEN, KING, ACE)]
        ok &= ~(has[0] & has[1] & has[2])
    return ok


def distinct_rank_tables(rng: np.random.Generator, count: int, size: int) -> Matrix:
    """Tables of ``size`` cards, all ranks different (the discard games' dealer rule)."""
    ranks = np.argsort(rng.random((count, 13), dtype=np.float32), axis=1)[:, :size]
    suits = rng.integers(0, 4, size=(count, size))
    tables: Matrix = (ranks * 4 + suits).astype(np.uint8)
    return tables


def plain_deal(key: str, label: str, game: Game, count: int, size: int) -> Deal:
    return Deal(key, label, game, distinct_cards(rng_for(key), count, size), NO_TABLE)


def table_deal(
    key: str,
    label: str,
    game: Game,
    count: int,
    hand_size: int,
    table_size: int,
    distinct_ranks: bool,
) -> Deal:
    """Hands with a table per hand; hand and table share no card."""
    rng = rng_for(key)
    if distinct_ranks:
        tables = distinct_rank_tables(rng, count, table_size)
    else:
        tables = distinct_cards(rng, count, table_size)
    hands = distinct_cards(rng, count, hand_size, besides=tables)
    return Deal(key, label, game, hands, tables)


def not_poker_deal(count: int) -> Deal:
    deck = np.arange(DECK_SIZE + 2, dtype=np.uint8)
    hands = distinct_cards(rng_for("not-poker"), count, 6, deck=deck)
    return Deal("not-poker", "NotPoker, 6 of 54 cards", Game.NOT_POKER, hands, NO_TABLE)


def tonk_deal(size: int, dense: bool, count: int) -> Deal:
    """Tonk hands without a Q-K-A run possibility: random (filtered) or meld-dense."""
    kind = "dense" if dense else "random"
    key = f"tonk-{size}-{kind}"
    rng = rng_for(key)
    if dense:
        hands = distinct_cards(rng, count, size, deck=MELD_DENSE_DECK)
        label = f"Tonk, {size} cards, meld-dense (A-7, 3 suits)"
    else:
        hands = distinct_cards(rng, count, size, keep=no_queen_king_ace_run)
        label = f"Tonk, {size} cards, random"
    return Deal(key, label, Game.TONK, hands, NO_TABLE)


def core_deals(count: int) -> list[Deal]:
    """One deal per game (poker in 5 and 7 cards, Tonk random and meld-dense at 10)."""
    return [
        plain_deal("poker-7", "Poker high, 7 cards", Game.POKER_HIGH, count, 7),
        plain_deal("poker-5", "Poker high, 5 cards", Game.POKER_HIGH, count, 5),
        plain_deal("dots-7", "Grocery Store Dots, 7 cards", Game.GROCERY_STORE_DOTS, count, 7),
        table_deal("numbers", "Numbers, 5 + table 7", Game.NUMBERS, count, 5, 7, True),
        table_deal(
            "florida-bingo", "Florida Bingo, 5 + table 7", Game.FLORIDA_BINGO, count, 5, 7, True
        ),
        table_deal("flop-a", "Flop-A, 3 + table 5", Game.FLOP_A, count, 3, 5, True),
        table_deal(
            "three-thirty-three",
            "Three Hundred Thirty Three, 3 + table 4",
            Game.THREE_THIRTY_THREE,
            count,
            3,
            4,
            True,
        ),
        table_deal("high-card", "High Card, 5 + table 5", Game.HIGH_CARD, count, 5, 5, False),
        not_poker_deal(count),
        tonk_deal(10, False, count),
        tonk_deal(10, True, count),
    ]


def tonk_peer_deals(count: int) -> list[Deal]:
    """Tonk hands of 5, 7, 9 and 10 cards, random and meld-dense, for the rlcard comparison."""
    return [tonk_deal(size, dense, count) for size in (5, 7, 9, 10) for dense in (False, True)]
