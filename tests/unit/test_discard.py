"""The discard rule shared by the four discard games (docs/rules.md, "Discard rule")."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings

from evaluators.cards import EMPTY, parse_card
from evaluators.discard import Discard, apply_discard, out_after_text, sum_kept
from evaluators.errors import InvalidRequest
from evaluators.inputs import Cards, Game
from tests.unit.discard_deals import discard_deals


def cards(text: str) -> Cards:
    return tuple(parse_card(c) for c in text.split())


def discard_turn_by_turn(hand: Cards, table: Cards) -> Discard:
    """The rule as the seeds tell it: turn a card, discard its rank, see if the hand is empty."""
    remaining = list(hand)
    out_after = 0
    for turn, table_card in enumerate(table, 1):
        remaining = [c for c in remaining if c // 4 != table_card // 4]
        if not remaining and out_after == 0:
            out_after = turn
    discarded = tuple(c for c in hand if c not in remaining)
    return Discard(tuple(remaining), discarded, out_after, not remaining)


def test_hand_cards_of_a_table_rank_are_discarded() -> None:
    result = apply_discard(cards("7h 7c Kd 2s"), cards("7d 3c"))
    assert result.kept == cards("Kd 2s")
    assert result.discarded == cards("7h 7c")
    assert (result.out_after, result.instant_win) == (0, False)


def test_kept_and_discarded_keep_the_dealt_order() -> None:
    result = apply_discard(cards("Ks 2d Kh 9c 2c"), cards("2h Kd"))
    assert result.kept == cards("9c")
    assert result.discarded == cards("Ks 2d Kh 2c")


def test_out_after_counts_table_cards_turned_when_the_hand_empties() -> None:
    result = apply_discard(cards("7h 9d"), cards("9c 2s 7d 5h"))
    assert result.kept == ()
    assert result.instant_win
    assert result.out_after == 3


def test_later_table_cards_do_not_change_out_after() -> None:
    early = apply_discard(cards("Ah"), cards("Ad"))
    later = apply_discard(cards("Ah"), cards("Ad 2c 3c 4c 5c 6c 7c"))
    assert early.out_after == later.out_after == 1


def test_a_hand_never_emptied_has_out_after_zero() -> None:
    result = apply_discard(cards("Ah 2d"), cards("2c 3c 4c 5c 6c 7c 8c"))
    assert (result.out_after, result.instant_win, result.kept) == (0, False, cards("Ah"))


def test_no_table_cards_keeps_the_whole_hand() -> None:
    assert apply_discard(cards("Ah 2d 3s"), ()) == Discard(cards("Ah 2d 3s"), (), 0, False)


def test_instant_win_description_counts_table_cards() -> None:
    assert out_after_text(1) == "Out after 1 table card: instant win"
    assert out_after_text(4) == "Out after 4 table cards: instant win"


def test_a_pairing_table_is_the_dealers_problem_and_refused() -> None:
    try:
        from evaluators.validation import read_hand
    except ImportError as error:  # the registry imports every game module
        pytest.skip(f"registry not importable yet: {error}")
    for game in (Game.NUMBERS, Game.FLORIDA_BINGO, Game.FLOP_A, Game.THREE_THIRTY_THREE):
        with pytest.raises(InvalidRequest) as caught:
            read_hand(game, ["Ah"], ["7d", "3c", "7s"])
        assert [v.field for v in caught.value.violations] == ["table[2]"]


@settings(max_examples=400, deadline=None)
@given(discard_deals(5, 7))
def test_discard_matches_turn_by_turn_play(deal: tuple[Cards, Cards]) -> None:
    hand, table = deal
    assert apply_discard(hand, table) == discard_turn_by_turn(hand, table)


def _padded(rows: list[Cards], width: int, rng: random.Random) -> np.ndarray:
    """Rows as a uint8 array, short rows filled with EMPTY at random positions."""
    array = np.full((len(rows), width), EMPTY, dtype=np.uint8)
    for index, row in enumerate(rows):
        positions = sorted(rng.sample(range(width), len(row)))
        array[index, positions] = row
    return array


def test_sum_kept_counts_the_kept_cards_of_every_hand() -> None:
    rng = random.Random(7)
    hands, tables = [], []
    for _ in range(3000):
        deck = rng.sample(range(52), 52)
        hand = tuple(deck[: rng.randint(1, 5)])
        table_size = rng.randint(0, 7)
        table: list[int] = []
        for card in deck[len(hand) :]:
            if len(table) < table_size and all(card // 4 != t // 4 for t in table):
                table.append(card)
        hands.append(hand)
        tables.append(tuple(table))
    ones = np.zeros(256, dtype=np.uint16)
    ones[:52] = 1
    counts = sum_kept(ones, _padded(hands, 5, rng), _padded(tables, 7, rng))
    expected = [len(discard_turn_by_turn(h, t).kept) for h, t in zip(hands, tables, strict=True)]
    assert counts.tolist() == expected


def test_sum_kept_with_one_table_shared_by_every_hand() -> None:
    rng = random.Random(8)
    table = cards("7d 3c Ks")
    rest = [c for c in range(52) if c not in table]
    hands = [tuple(rng.sample(rest, rng.randint(1, 5))) for _ in range(2000)]
    ones = np.zeros(256, dtype=np.uint16)
    ones[:52] = 1
    counts = sum_kept(ones, _padded(hands, 5, rng), np.array([table], dtype=np.uint8))
    assert counts.tolist() == [len(discard_turn_by_turn(h, table).kept) for h in hands]
