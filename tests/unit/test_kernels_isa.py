"""Every instruction-set path of the poker kernel held to the numpy reference.

Each path this CPU runs (``_poker.isas()``; a path it lacks is skipped, saying so) is
forced in turn and scores, through the one-pass screen and score (``_poker.screened``):
every 5-card hand, (slow) every 6-card hand and millions of random 7-card hands,
flush-dense deals, hole cards on a shared board; and it refuses exactly the rows the card
rules refuse, a bad byte at any place of any row, at every batch length around its steps.
The paths: docs/kernels.md.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import numpy.typing as npt
import pytest

from evaluators import poker
from evaluators.cards import EMPTY, JOKER_2
from evaluators.games import grocery_store_dots, poker_high
from evaluators.inputs import Options
from evaluators.kernels import ISA_VARIABLE, _points, _poker, choose_isa, kernel_isa, set_isa
from tests.unit.kernel_paths import forced_isa
from tests.unit.test_kernels_poker import (
    NO_TABLE,
    every_hand,
    passes_the_card_rules,
    random_deals,
)

Matrix = npt.NDArray[np.uint8]
OPTIONS = Options()
PATHS = ("avx2", "scalar")


@pytest.fixture(params=PATHS)
def isa(request: pytest.FixtureRequest) -> Iterator[str]:
    """The path forced for the test, the one before put back after it."""
    name: str = request.param
    if name not in _poker.isas():
        pytest.skip(f"this CPU or build has no {name} path (it runs {_poker.isas()})")
    with forced_isa(name):
        yield name


def screened(
    hands: Matrix, table: Matrix, wide: bool, dots: bool = False, first_refused: int = 52
) -> tuple[bool, npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """``_poker.screened`` into 2- or 4-byte cells: (passed, strength, class or dots)."""
    count = len(hands)
    strength = np.full(count, 0xFFFF, dtype=np.uint32 if wide else np.uint16)
    if wide:
        value: npt.NDArray[np.integer] = np.full(count, -1, dtype=np.int32)
    else:
        value = np.full(count, -1, dtype=np.int64 if dots else np.int16)
    passed = _poker.screened(
        poker._kernel_tables(),
        np.ascontiguousarray(hands),
        np.ascontiguousarray(table),
        first_refused,
        strength,
        None if dots else value,
        value if dots else None,
    )
    return passed, strength.astype(np.int64), value.astype(np.int64)


def assert_reference(hands: Matrix, table: Matrix = NO_TABLE) -> None:
    """Strength and class (Poker high), strength and dots (Grocery Store Dots), in 2- and
    4-byte cells: each the numpy reference's."""
    for game, dots in ((poker_high, False), (grocery_store_dots, True)):
        want = game.reference_batch(hands, table, OPTIONS)
        for wide in (True, False):
            passed, strength, value = screened(hands, table, wide, dots)
            assert passed
            assert np.array_equal(strength, want.strength), (game, wide)
            assert np.array_equal(value, want.value), (game, wide)


def test_every_five_card_hand(isa: str) -> None:
    for chunk in every_hand(5):
        assert_reference(chunk)


@pytest.mark.slow
def test_every_six_card_hand(isa: str) -> None:
    for chunk in every_hand(6):
        assert_reference(chunk)


def test_random_seven_card_hands(isa: str) -> None:
    assert_reference(random_deals(200_000, 7, seed=71))


@pytest.mark.slow
def test_millions_of_random_seven_card_hands(isa: str) -> None:
    for seed in range(6):
        assert_reference(random_deals(500_000, 7, seed=700 + seed))


@pytest.mark.parametrize("size", [5, 6, 7])
def test_flush_dense_hands(isa: str, size: int) -> None:
    # Two suits' worth of ids, then one suit alone: flushes in most steps, several at once.
    assert_reference(random_deals(50_000, size, seed=size, deck=26))
    suited = np.arange(0, 52, 4, dtype=np.uint8) + np.uint8(size % 4)
    assert_reference(
        np.ascontiguousarray(suited[random_deals(20_000, size, seed=20 + size, deck=13)])
    )


@pytest.mark.parametrize(("hole", "board"), [(2, 5), (2, 3), (1, 4), (3, 4), (5, 0), (4, 3)])
def test_hole_cards_on_a_shared_board(isa: str, hole: int, board: int) -> None:
    # The board's cards are in every hand's key and rank masks (flushes made on the board
    # too: a suited board), and each row is checked against them.
    for seed, deck in ((hole * 10 + board, 52), (hole * 10 + board + 1, 13)):
        deal = random_deals(30_000, hole + board, seed, deck)
        if deck == 13:
            deal = np.ascontiguousarray(deal * 4 + 2)
        table = np.ascontiguousarray(deal[:1, hole:])
        hands = np.ascontiguousarray(deal[:, :hole])
        assert_reference(np.ascontiguousarray(hands[~np.isin(hands, table[0]).any(axis=1)]), table)


def test_a_bad_byte_anywhere_is_refused_at_every_length(isa: str) -> None:
    # Every width 1-8, batches of every length up to five blocks of 32 rows and more, a
    # table of 0-3 cards; one byte spoiled at a random row and place (first row, last
    # row and the steps' edges included): out of range, a joker, padding, a repeat in its
    # row or a table card. The verdict is the card rules'; a batch passed is the reference.
    # (Table cards stop at 3 and widths at 8 so that every shape has a vector path.)
    rng = np.random.default_rng(34)
    verdicts = set()
    lengths = [*range(1, 170), 255, 256, 257, 1000]
    for width in range(1, 9):
        for count in lengths:
            table_cards = int(rng.integers(0, 4)) if width < 7 else 0
            deal = random_deals(count, width + table_cards, int(rng.integers(1 << 30)))
            table = np.ascontiguousarray(deal[:1, width:])
            hands = np.ascontiguousarray(deal[:, :width])
            hands = np.ascontiguousarray(hands[~np.isin(hands, table[0]).any(axis=1)])
            if not len(hands):
                continue
            if rng.random() < 0.7:
                row = int(rng.choice([0, len(hands) - 1, int(rng.integers(len(hands)))]))
                place = int(rng.integers(width))
                spoiled = [EMPTY, 52, JOKER_2, 64, 200, int(hands[row, (place + 1) % width])]
                if table_cards:
                    spoiled.append(int(table[0, int(rng.integers(table_cards))]))
                hands[row, place] = spoiled[int(rng.integers(len(spoiled)))]
            # Jokers let through (first_refused 54) add nothing, as in the reference.
            first_refused = int(rng.choice([52, 54]))
            passed, strength, classes = screened(
                hands, table, wide=bool(rng.integers(2)), first_refused=first_refused
            )
            want = passes_the_card_rules(hands, table, first_refused)
            assert passed == want, (isa, width, count, hands.tolist(), table.tolist())
            verdicts.add(want)
            if passed and 5 <= width + table_cards <= 7:
                expected = poker_high.reference_batch(hands, table, OPTIONS)
                assert np.array_equal(strength, expected.strength)
                assert np.array_equal(classes, expected.value)
    assert verdicts == {True, False}


def test_the_switch_forces_a_path_and_names_itself_in_its_errors() -> None:
    before = kernel_isa()
    try:
        for name in _poker.isas():
            assert choose_isa({ISA_VARIABLE: f" {name.upper()} "}) == name == kernel_isa()
            assert _points.isa() == (name if name in _points.isas() else "scalar")
        assert choose_isa({}) == kernel_isa()
        with pytest.raises(ValueError, match=ISA_VARIABLE):
            choose_isa({ISA_VARIABLE: "sse9"})
        with pytest.raises(ValueError, match="no 'sse9' kernel path"):
            _poker.set_isa("sse9")
    finally:
        set_isa(before)
    assert _poker.isas()[-1] == _points.isas()[-1] == "scalar"
    assert _poker.isa() in _poker.isas()
