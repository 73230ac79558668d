"""A seeded dealer: random hands every game accepts, for load generators and benchmarks.

``deal(game, count, seed)`` shuffles a fresh deck for each of ``count`` rows and deals a
table and a hand from it, honouring the game's registry entry: hand and table sizes,
jokers (NotPoker's 54-card deck), table ranks all different (the discard games' dealer
replaces a pairing table card), and hand + table within the game's card limits (Poker
high). So each row passes validation as a single hand and the whole deal as one packed
batch. The same (game, count, seed, sizes) always deals the same cards; each game draws
from its own stream of the seed.

Hands are drawn uniformly from the deck left after the table; nothing is filtered for
being interesting, so rare categories (straight flushes, tonks) are as rare as at a table,
unless the caller narrows the ``deck`` (a meld-dense Tonk deck) or redraws rows its
``keep`` refuses (the benchmarks keep Tonk hands a peer scores by the same rules). Tonk
table spreads are not dealt (a batch carries none). The one dealer of the house: the load
generator, the benchmarks (``benchmarks.hands`` names their deals) and the tests.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from evaluators import rules_check
from evaluators.cards import RANKS, SUITS, deck_size
from evaluators.inputs import Cards, Game
from evaluators.registry import GAMES, GameRules

Matrix = npt.NDArray[np.uint8]
Keep = Callable[[Matrix], npt.NDArray[np.bool_]]
"""Rows of dealt hands to keep; the others are dealt again."""


@dataclass(frozen=True)
class Deal:
    """``count`` valid rows of one game: ``hands`` (count, hand_size) and ``tables``
    (count, table_size) card ids, row i of each dealt from the same deck."""

    game: Game
    hands: Matrix
    tables: Matrix

    def __len__(self) -> int:
        return int(self.hands.shape[0])

    @property
    def hand_size(self) -> int:
        return int(self.hands.shape[1])

    @property
    def table_size(self) -> int:
        return int(self.tables.shape[1])

    def row(self, index: int) -> tuple[Cards, Cards]:
        """Row ``index`` as (hand, table) tuples of ids, as a single evaluation takes them."""
        hand: Cards = tuple(int(c) for c in self.hands[index])
        table: Cards = tuple(int(c) for c in self.tables[index])
        return hand, table

    def singles(self, count: int) -> list[tuple[Cards, Cards]]:
        """The first ``count`` rows as ``row`` gives them, built in one pass."""
        hands = [tuple(row) for row in self.hands[:count].tolist()]
        tables = [tuple(row) for row in self.tables[:count].tolist()]
        return list(zip(hands, tables, strict=True))


def default_sizes(rules: GameRules) -> tuple[int, int]:
    """(hand size, table size) of a full deal: the largest hand, then the largest table
    that keeps hand + table within the game's card limit (Poker high: 7 + 0)."""
    hand = rules.hand_max
    table = max(rules.table_min, min(rules.table_max, rules.cards_max - hand))
    return hand, table


def check_sizes(rules: GameRules, hand_size: int, table_size: int) -> None:
    """Raises ValueError, for people, unless the game accepts this hand and table size."""
    problems = []
    if not rules_check.within(hand_size, rules.hand_min, rules.hand_max):
        problems.append(
            rules_check.size_message("the hand", hand_size, rules.hand_min, rules.hand_max)
        )
    if not rules_check.within(table_size, rules.table_min, rules.table_max):
        problems.append(
            rules_check.size_message("the table", table_size, rules.table_min, rules.table_max)
        )
    if not rules_check.within(hand_size + table_size, rules.cards_min, rules.cards_max):
        problems.append(rules_check.together_message(rules, hand_size + table_size))
    if rules.distinct_table_ranks and table_size > len(RANKS):
        problems.append(f"a table of {table_size} cards cannot have all ranks different")
    if problems:
        raise ValueError(f"{rules.name}: " + "; ".join(problems))


def _distinct_rank_tables(rng: np.random.Generator, count: int, size: int) -> Matrix:
    ranks = np.argsort(rng.random((count, len(RANKS))), axis=1)[:, :size]
    suits = rng.integers(0, len(SUITS), size=(count, size))
    tables: Matrix = (ranks * len(SUITS) + suits).astype(np.uint8)
    return tables


def deal(
    game: Game,
    count: int,
    seed: int = 0,
    hand_size: int | None = None,
    table_size: int | None = None,
    deck: Matrix | None = None,
    keep: Keep | None = None,
) -> Deal:
    """``count`` rows of valid (hand, table) for ``game``; sizes default to
    ``default_sizes``, the deck to the game's whole deck (``deck``: the card ids to draw
    from instead, for a game without a table). Rows ``keep`` refuses are dealt again.
    Raises ValueError for sizes the game does not accept."""
    rules = GAMES[game]
    default_hand, default_table = default_sizes(rules)
    hand_size = default_hand if hand_size is None else hand_size
    table_size = default_table if table_size is None else table_size
    check_sizes(rules, hand_size, table_size)
    if count < 0:
        raise ValueError(f"cannot deal {count} hands")
    if deck is not None and table_size:
        raise ValueError("a narrowed deck deals hands only, not tables")
    rng = np.random.default_rng([seed, zlib.crc32(game.value.encode())])
    cards = np.arange(deck_size(rules.jokers), dtype=np.uint8)
    cards = cards if deck is None else np.asarray(deck, dtype=np.uint8)
    hands, tables = _draw(rng, rules, cards, count, hand_size, table_size)
    todo = np.arange(count) if keep is None else np.flatnonzero(~keep(hands))
    while keep is not None and len(todo):
        more_hands, more_tables = _draw(rng, rules, cards, len(todo), hand_size, table_size)
        hands[todo], tables[todo] = more_hands, more_tables
        todo = todo[~keep(more_hands)]
    return Deal(game, hands, tables)


def _draw(
    rng: np.random.Generator,
    rules: GameRules,
    cards: Matrix,
    count: int,
    hand_size: int,
    table_size: int,
) -> tuple[Matrix, Matrix]:
    """(hands, tables) of ``count`` rows, each row from a fresh shuffle of ``cards``."""
    keys = rng.random((count, len(cards)))
    if rules.distinct_table_ranks:
        tables = _distinct_rank_tables(rng, count, table_size)
        # Table ids are positions in ``cards`` here: a deal with a table uses the whole deck.
        np.put_along_axis(keys, tables.astype(np.intp), np.inf, axis=1)
        hands: Matrix = cards[np.argsort(keys, axis=1)[:, :hand_size]]
        return hands, tables
    shuffled = cards[np.argsort(keys, axis=1)]
    tables = np.ascontiguousarray(shuffled[:, :table_size])
    hands = np.ascontiguousarray(shuffled[:, table_size : table_size + hand_size])
    return hands, tables
