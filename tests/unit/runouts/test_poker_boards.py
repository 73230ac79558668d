"""Poker hands on many boards (``runouts.poker_boards``): the same classes as the batch's."""

from __future__ import annotations

import numpy as np
import pytest

from evaluators import poker
from evaluators.runouts import poker_boards


@pytest.mark.parametrize("hole_size", [1, 2])
def test_a_known_hole_on_many_boards_equals_the_batch_classes(hole_size: int) -> None:
    rng = np.random.default_rng(hole_size)
    for _ in range(20):
        deck = rng.permutation(52).astype(np.uint8)
        hole = tuple(int(card) for card in deck[:hole_size])
        rest = deck[hole_size:]
        # Half the boards from the hole's suit, so that flushes are common.
        suited = rest[rest % 4 == hole[0] % 4]
        boards = np.array(
            [rng.choice(suited if b % 2 else rest, 5, replace=False) for b in range(200)],
            dtype=np.uint8,
        )
        hands = np.array([hole], dtype=np.uint8)
        expected = poker.batch_rank_classes(
            np.repeat(hands, len(boards), axis=0),
            boards,
            poker.batch_key_sums(np.repeat(hands, len(boards), axis=0), boards),
        )
        np.testing.assert_array_equal(
            poker_boards.rank_classes_on(poker_boards.boards(boards), hole), expected
        )


@pytest.mark.parametrize("table_size", [0, 3, 4])
def test_known_holes_read_boards_like_the_batch_classes(table_size: int) -> None:
    rng = np.random.default_rng(table_size)
    for _ in range(10):
        deck = [int(card) for card in rng.permutation(52)]
        holes = [tuple(deck[:2]), tuple(deck[2:3]), tuple(deck[3:5])]
        table = tuple(deck[5 : 5 + table_size])
        unseen = tuple(sorted(deck[5 + table_size :]))
        dealt = 5 - table_size
        positions = np.arange(len(unseen))
        # Half the boards from the first hole's suit, so that flushes are common.
        suited = positions[np.array(unseen) % 4 == holes[0][0] % 4]
        boards = np.array(
            [rng.choice(suited if b % 2 else positions, dealt, replace=False) for b in range(300)]
        )
        known = poker_boards.KnownHoles(holes, table, unseen)
        keys = known.card_keys[boards].sum(axis=1) + known.start
        classes = np.empty((len(holes), len(boards)), dtype=np.uint16)
        dealt_bits = known.flush_bits[boards].sum(axis=1)
        known.classes(keys, dealt_bits.__getitem__, classes)
        dealt_cards = np.array(unseen, dtype=np.uint8)[boards]
        tables = np.concatenate(
            [
                np.broadcast_to(np.array(table, dtype=np.uint8), (len(boards), table_size)),
                dealt_cards,
            ],
            axis=1,
        )
        for seat, hole in enumerate(holes):
            hands = np.repeat(np.array([hole], dtype=np.uint8), len(boards), axis=0)
            expected = poker.batch_rank_classes(hands, tables, poker.batch_key_sums(hands, tables))
            np.testing.assert_array_equal(classes[seat], expected)
