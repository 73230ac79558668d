"""The compiled poker kernel and batch screen, held exactly to their numpy references.

Poker: every 5-card hand and (slow) every 6-card hand, millions of random 7-card hands,
flush-dense deals, hole cards on shared and per-hand boards, padding; each equal to
``reference_batch`` (the numpy path) in strength and value, for Poker high and Grocery
Store Dots. Screen: random bytes, per row and per batch, equal to ``batch_check.check``'s verdict
for every game.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from dataclasses import replace
from itertools import chain, combinations

import numpy as np
import numpy.typing as npt
import pytest

from evaluators import batch, batch_check, poker
from evaluators.cards import EMPTY, JOKER_2, rows_with_repeats, table_ranks
from evaluators.errors import InvalidRequest
from evaluators.games import grocery_store_dots, poker_high
from evaluators.inputs import Game, Options
from evaluators.kernels import _poker, _screen
from evaluators.registry import GAMES
from evaluators.results import BatchResult

Matrix = npt.NDArray[np.uint8]
OPTIONS = Options()
NO_TABLE = np.zeros((1, 0), dtype=np.uint8)
GAMES_SCORED = (poker_high, grocery_store_dots)


def assert_equal(got: BatchResult, want: BatchResult) -> None:
    for name in ("strength", "low_strength", "value", "instant_win"):
        mine, theirs = getattr(got, name), getattr(want, name)
        assert mine.dtype == theirs.dtype, name
        assert np.array_equal(mine, theirs), name


def assert_kernel_is_reference(hands: Matrix, tables: Matrix = NO_TABLE) -> None:
    for game in GAMES_SCORED:
        got = game.evaluate_batch(hands, tables, OPTIONS)
        assert_equal(got, game.reference_batch(hands, tables, OPTIONS))


def random_deals(count: int, size: int, seed: int, deck: int = 52) -> Matrix:
    """``count`` rows of ``size`` distinct cards of ``range(deck)``."""
    rng = np.random.default_rng(seed)
    order = rng.permuted(np.tile(np.arange(deck, dtype=np.uint8), (count, 1)), axis=1)
    return np.ascontiguousarray(order[:, :size])


def combinations_above(start: int, size: int) -> Matrix:
    """Every ``size`` cards of ``start..51``, in ``combinations`` order."""
    flat = chain.from_iterable(combinations(range(start, 52), size))
    count = len(range(start, 52))
    total = 1
    for k in range(size):
        total = total * (count - k) // (k + 1)
    return np.fromiter(flat, dtype=np.uint8, count=total * size).reshape(-1, size)


def every_hand(size: int) -> Iterator[Matrix]:
    """Every ``size``-card hand, a chunk per lowest card (the rest from combinations)."""
    for first in range(52 - size + 1):
        rest = combinations_above(first + 1, size - 1)
        yield np.hstack([np.full((len(rest), 1), first, dtype=np.uint8), rest])


def test_every_five_card_hand_scores_as_the_numpy_reference() -> None:
    for chunk in every_hand(5):
        assert_kernel_is_reference(chunk)


@pytest.mark.slow
def test_every_six_card_hand_scores_as_the_numpy_reference() -> None:
    for chunk in every_hand(6):
        assert_kernel_is_reference(chunk)


def test_random_seven_card_hands_score_as_the_numpy_reference() -> None:
    assert_kernel_is_reference(random_deals(300_000, 7, seed=1))


@pytest.mark.slow
def test_millions_of_random_seven_card_hands_score_as_the_numpy_reference() -> None:
    for seed in range(8):
        assert_kernel_is_reference(random_deals(500_000, 7, seed=100 + seed))


@pytest.mark.parametrize("size", [5, 6, 7])
def test_flush_dense_hands_score_as_the_numpy_reference(size: int) -> None:
    # From two suits' worth of ids (0..25 is ranks 2-8, all suits; the low ranks crowd),
    # and from one suit alone: flushes, straight flushes and paired flushes everywhere.
    assert_kernel_is_reference(random_deals(100_000, size, seed=size, deck=26))
    suited = np.arange(0, 52, 4, dtype=np.uint8)
    rows = random_deals(20_000, size, seed=10 + size, deck=13)
    assert_kernel_is_reference(suited[rows] + np.uint8(size % 4))


@pytest.mark.parametrize(("hole", "board"), [(2, 5), (2, 3), (1, 4), (3, 4), (5, 0)])
def test_hole_cards_on_boards_score_as_the_numpy_reference(hole: int, board: int) -> None:
    deals = random_deals(50_000, hole + board, seed=hole * 10 + board)
    hands, boards = deals[:, :hole], deals[:, hole:]
    assert_kernel_is_reference(np.ascontiguousarray(hands), np.ascontiguousarray(boards))
    shared = boards[:1]
    fits = ~np.isin(hands, shared).any(axis=1)
    assert_kernel_is_reference(np.ascontiguousarray(hands[fits]), np.ascontiguousarray(shared))


def test_padding_anywhere_scores_as_the_numpy_reference() -> None:
    deals = random_deals(50_000, 7, seed=7)
    rng = np.random.default_rng(7)
    padded = np.full((len(deals), 10), EMPTY, dtype=np.uint8)
    places = np.argsort(rng.random((len(deals), 10)), axis=1)[:, :7]
    np.put_along_axis(padded, places, deals, axis=1)
    assert_kernel_is_reference(padded)
    table = np.full((1, 3), EMPTY, dtype=np.uint8)
    assert_kernel_is_reference(padded, table)


def test_an_empty_batch_scores_nothing() -> None:
    for game in GAMES_SCORED:
        got = game.evaluate_batch(np.zeros((0, 7), dtype=np.uint8), NO_TABLE, OPTIONS)
        assert_equal(got, game.reference_batch(np.zeros((0, 7), np.uint8), NO_TABLE, OPTIONS))


def test_the_kernel_refuses_outputs_of_the_wrong_size_or_type() -> None:
    hands = random_deals(10, 7, seed=3)
    tables = poker._kernel_tables()
    with pytest.raises(ValueError, match="strength"):
        _poker.evaluate(tables, hands, NO_TABLE, np.empty(9, np.uint16), None, None)
    with pytest.raises(ValueError, match="dots"):
        _poker.evaluate(tables, hands, NO_TABLE, np.empty(10, np.uint16), None, np.empty(10))
    with pytest.raises(ValueError, match="table_rows"):
        _poker.evaluate(tables, hands, hands[:2], np.empty(10, np.uint16), None, None)


def test_any_bytes_read_inside_the_tables() -> None:
    # Unscreened rows (any byte, more than 7 cards) give meaningless figures, not a fault.
    rows = np.random.default_rng(5).integers(0, 256, (20_000, 64), dtype=np.uint8)
    for game in GAMES_SCORED:
        assert len(game.evaluate_batch(rows, rows[:1], OPTIONS).strength) == len(rows)


def screened(game: Game, hands: Matrix, tables: Matrix) -> tuple[bool, bool]:
    """(the compiled screen's verdict, the reference ``check``'s) on one batch; a verdict
    that says the hands or the tables hold no padding byte must be right."""
    rules = GAMES[game]
    try:
        batch_check.check(rules, hands, tables)
        passed = True
    except InvalidRequest:
        passed = False
    verdict = batch.screen(rules, hands, tables)
    if verdict & _screen.HANDS_FULL:
        assert EMPTY not in hands
    if verdict & _screen.TABLES_FULL:
        assert EMPTY not in tables
    return bool(verdict), passed


def random_bytes(rng: np.random.Generator, rows: int, width: int, deck: int) -> Matrix:
    """Mostly cards of a small deck (repeats common), some padding, jokers and non-cards."""
    picks = rng.integers(0, deck, (rows, width), dtype=np.uint8)
    noise = rng.random((rows, width))
    odd = rng.choice(np.array([EMPTY, 52, JOKER_2, 54, 200], dtype=np.uint8), (rows, width))
    return np.where(noise < 0.15, odd, picks).astype(np.uint8)


@pytest.mark.parametrize("game", list(Game), ids=lambda g: g.value)
def test_the_screen_on_random_bytes_gives_the_reference_verdict_row_by_row(game: Game) -> None:
    rules = GAMES[game]
    rng = np.random.default_rng(len(game.value))
    verdicts = set()
    for _ in range(600):
        width = int(rng.integers(1, rules.hand_max + 2))
        table_width = int(rng.integers(0, rules.table_max + 2))
        deck = int(rng.choice([12, 52]))
        hands = random_bytes(rng, 1, width, deck)
        tables = random_bytes(rng, 1, table_width, deck)
        got, want = screened(game, hands, tables)
        assert got == want, (hands.tolist(), tables.tolist())
        verdicts.add(want)
    assert verdicts == {True, False}


@pytest.mark.parametrize("game", list(Game), ids=lambda g: g.value)
def test_the_screen_on_random_batches_gives_the_reference_verdict(game: Game) -> None:
    # Batches of valid deals with one row spoiled at a random place, or none.
    rules = GAMES[game]
    rng = np.random.default_rng(1000 + len(game.value))
    for shared in (True, False):
        for _ in range(40):
            count = int(rng.integers(1, 300))
            hand_size = rules.hand_max
            table_size = rules.table_max
            deals = random_deals(count, hand_size + table_size, int(rng.integers(1 << 30)))
            hands = np.ascontiguousarray(deals[:, :hand_size])
            tables = np.ascontiguousarray(deals[: 1 if shared else count, hand_size:])
            if shared:
                hands = hands[~np.isin(hands, tables[0]).any(axis=1)]
                if not len(hands):
                    continue
            if rng.random() < 0.7:
                target = hands if rng.random() < 0.7 or not table_size else tables
                row, place = int(rng.integers(len(target))), int(rng.integers(target.shape[1]))
                target[row, place] = rng.choice([EMPTY, 52, 60, int(target[row, 0])])
            got, want = screened(game, hands, tables)
            assert got == want


@pytest.mark.parametrize("game", [g for g in Game if GAMES[g].table_min == 0], ids=str)
def test_full_rows_without_a_table_give_the_reference_verdict_at_every_width(game: Game) -> None:
    # The 16-bytes-at-a-time screen (2-8 cards a row, no table): every width the game
    # takes, batches of every length around a load's rows, one byte spoiled anywhere.
    rules = GAMES[game]
    deck = 54 if rules.jokers else 52
    low, high = max(rules.hand_min, rules.cards_min, 1), min(rules.hand_max, rules.cards_max)
    rng = np.random.default_rng(len(game.value) + 7)
    for width in range(low, high + 1):
        for count in range(1, 40):
            hands = random_deals(count, width, int(rng.integers(1 << 30)), deck=deck)
            if rng.random() < 0.8:
                row, place = int(rng.integers(count)), int(rng.integers(width))
                spoiled = [EMPTY, 52, JOKER_2, 54, 200, int(hands[row, (place + 1) % width])]
                hands[row, place] = spoiled[int(rng.integers(len(spoiled)))]
            got, want = screened(game, hands, NO_TABLE)
            assert got == want, (width, count, hands.tolist())


def spoiled_with_a_table(
    rng: np.random.Generator,
    hands: Matrix,
    tables: Matrix,
    distinct_ranks: bool,
    padding: bool = True,
) -> None:
    """One byte of one row changed in place: a non-card, a joker, padding (unless not
    ``padding``: a short row may be valid), a repeat within the hand or the table or
    between them, or (for a game whose table may not pair) a card of a rank the table
    already shows."""
    row = int(rng.integers(len(hands)))
    hand, table = hands[row], tables[row]
    target = hand if rng.random() < 0.5 else table
    place = int(rng.integers(len(target)))
    choices = [52, JOKER_2, 54, 200, int(table[(place + 1) % len(table)])]
    choices += [EMPTY] if padding else []
    if len(hand) > 1 or target is table:
        choices.append(int(hand[(place + 1) % len(hand)]))
    if distinct_ranks and len(table) > 1 and target is table:
        other = int(table[(place + 1) % len(table)])
        choices.append(other ^ 1)  # same rank, another suit
    target[place] = choices[int(rng.integers(len(choices)))]


@pytest.mark.parametrize("game", [g for g in Game if GAMES[g].table_max > 0], ids=str)
def test_full_rows_with_a_table_each_give_the_reference_verdict_at_every_width(
    game: Game,
) -> None:
    # The two-rows-a-register screen (a full hand and a full table per row): every hand
    # and table width the game takes, batches of every length around a load's rows, one
    # byte spoiled anywhere, most often a repeat or a pairing the vector compares must see.
    rules = GAMES[game]
    rng = np.random.default_rng(len(game.value) + 11)
    for width in range(max(rules.hand_min, 1), rules.hand_max + 1):
        for table_width in range(max(rules.table_min, 1), rules.table_max + 1):
            if not rules.cards_min <= width + table_width <= rules.cards_max:
                continue
            for count in range(1, 24):
                deals = random_deals(count, width + table_width, int(rng.integers(1 << 30)))
                hands = np.ascontiguousarray(deals[:, :width])
                tables = np.ascontiguousarray(deals[:, width:])
                if rng.random() < 0.8:
                    spoiled_with_a_table(rng, hands, tables, rules.distinct_table_ranks)
                got, want = screened(game, hands, tables)
                assert got == want, (width, table_width, hands.tolist(), tables.tolist())


@pytest.mark.parametrize(
    ("game", "width", "table_width"),
    [(Game.NUMBERS, 5, 7), (Game.FLOP_A, 3, 5), (Game.HIGH_CARD, 5, 5), (Game.POKER_HIGH, 2, 5)],
    ids=str,
)
def test_large_batches_with_a_table_each_are_refused_for_one_bad_byte_anywhere(
    game: Game, width: int, table_width: int
) -> None:
    # 20,000 valid rows, then the same with one byte spoiled (no padding: a short row may
    # be valid) at a random row, the first, the last and the middle included: the verdict
    # flips every time.
    rules = GAMES[game]
    rng = np.random.default_rng(23)
    deals = random_deals(20_000, width + table_width, seed=24)
    hands = np.ascontiguousarray(deals[:, :width])
    tables = np.ascontiguousarray(deals[:, width:])
    if rules.distinct_table_ranks:
        keep = ~rows_with_repeats(table_ranks(tables))
        hands, tables = hands[keep], tables[keep]
    assert screened(game, hands, tables) == (True, True)
    for row in [0, len(hands) - 1, len(hands) // 2, *rng.integers(len(hands), size=20)]:
        spoilt_hands, spoilt_tables = hands.copy(), tables.copy()
        spoiled_with_a_table(
            np.random.default_rng(int(row)),
            spoilt_hands[row : row + 1],
            spoilt_tables[row : row + 1],
            rules.distinct_table_ranks,
            padding=False,
        )
        assert screened(game, spoilt_hands, spoilt_tables) == (False, False), row


def test_full_rows_are_screened_as_full_and_padded_ones_are_not() -> None:
    rules = GAMES[Game.POKER_HIGH]
    hands = random_deals(1_000, 7, seed=9)
    assert batch.screen(rules, hands, NO_TABLE) == (
        _screen.PASSED | _screen.HANDS_FULL | _screen.TABLES_FULL
    )
    hands[500, 3] = EMPTY
    padded = np.hstack([hands, np.full((len(hands), 1), EMPTY, dtype=np.uint8)])
    assert batch.screen(rules, hands[:, :7], NO_TABLE) == _screen.PASSED | _screen.TABLES_FULL
    assert batch.screen(rules, padded, NO_TABLE) == _screen.PASSED | _screen.TABLES_FULL


def one_pass(
    hands: Matrix, table: Matrix, first_refused: int = 52
) -> tuple[bool, npt.NDArray[np.uint16], npt.NDArray[np.int16]]:
    """``_poker.screened``'s verdict on full rows sharing ``table``, and its outputs."""
    strength = np.zeros(len(hands), dtype=np.uint16)
    classes = np.zeros(len(hands), dtype=np.int16)
    passed = _poker.screened(
        poker._kernel_tables(), hands, table, first_refused, strength, classes, None
    )
    return passed, strength, classes


def passes_the_card_rules(hands: Matrix, table: Matrix, first_refused: int) -> bool:
    """The one-pass check's rules in numpy: every byte below ``first_refused``, no card
    twice in a row, none of the table's cards (its bytes below ``first_refused``)."""
    cards = table[0][table[0] < first_refused]
    return bool(
        (hands < first_refused).all()
        and not rows_with_repeats(hands).any()
        and not np.isin(hands, cards).any()
    )


def test_the_one_pass_check_refuses_exactly_the_rows_the_card_rules_refuse() -> None:
    # Every width it takes (1-8), batches of every length around its four-row steps and
    # its 16-byte loads, tables of 0-5 cards (padded or not), one byte spoiled anywhere:
    # out of range, a joker, padding, a repeat in the row or a card of the table.
    rng = np.random.default_rng(24)
    verdicts = set()
    for width in range(1, 9):
        for count in [*range(1, 24), 101, 1000]:
            table_cards = int(rng.integers(0, min(5, 52 - width) + 1))
            deal = random_deals(count, width + table_cards, int(rng.integers(1 << 30)))
            table = np.ascontiguousarray(deal[:1, width:])
            hands = np.ascontiguousarray(deal[:, :width])
            hands = hands[~np.isin(hands, table[0]).any(axis=1)]
            if rng.random() < 0.3:
                table = np.hstack([table, np.full((1, 2), EMPTY, dtype=np.uint8)])
            first_refused = int(rng.choice([52, 54]))
            if rng.random() < 0.8 and len(hands):
                row, place = int(rng.integers(len(hands))), int(rng.integers(width))
                spoiled = [EMPTY, 52, JOKER_2, 54, 200, int(hands[row, (place + 1) % width])]
                if table_cards:
                    spoiled.append(int(table[0, int(rng.integers(table_cards))]))
                hands[row, place] = spoiled[int(rng.integers(len(spoiled)))]
            passed, strength, classes = one_pass(hands, table, first_refused)
            want = passes_the_card_rules(hands, table, first_refused)
            assert passed == want, (width, count, hands.tolist(), table.tolist())
            verdicts.add(want)
            if passed and width + table_cards >= 5 and width + table_cards <= 7:
                expected = poker_high.reference_batch(hands, table, OPTIONS)
                assert np.array_equal(strength, expected.strength)
                assert np.array_equal(classes, expected.value)
    assert verdicts == {True, False}


def test_the_one_pass_check_scores_millions_of_random_hands_as_the_kernel() -> None:
    hands = random_deals(1_000_000, 7, seed=31)
    passed, strength, classes = one_pass(hands, NO_TABLE)
    assert passed
    expected = poker_high.evaluate_batch(hands, NO_TABLE, OPTIONS)
    assert np.array_equal(strength, expected.strength)
    assert np.array_equal(classes, expected.value)
    hands[-1, 6] = hands[-1, 0]
    assert not one_pass(hands, NO_TABLE)[0]


def test_the_one_pass_check_declines_what_it_cannot_check() -> None:
    # Rows wider than two to a vector, or more than 8 table cards: False, never a guess.
    assert not one_pass(random_deals(10, 9, seed=1), NO_TABLE)[0]
    deal = random_deals(10, 11, seed=2)
    assert not one_pass(np.ascontiguousarray(deal[:, :2]), np.ascontiguousarray(deal[:1, 2:]))[0]
    with pytest.raises(ValueError, match="first_refused"):
        one_pass(random_deals(10, 7, seed=3), NO_TABLE, first_refused=65)
    with pytest.raises(ValueError, match="one row"):
        deal = random_deals(10, 7, seed=4)
        one_pass(np.ascontiguousarray(deal[:, :2]), np.ascontiguousarray(deal[:, 2:]))


@pytest.mark.parametrize("game", list(Game), ids=lambda g: g.value)
def test_every_byte_from_first_refused_up_is_refused_and_none_below(game: Game) -> None:
    # A one-card hand alone, by the screen of the game's own deck and jokers rules.
    rules = replace(
        GAMES[game], hand_min=1, hand_max=1, table_min=0, cards_min=0, distinct_table_ranks=False
    )
    allowed = [
        bool(batch.screen(rules, np.array([[byte]], dtype=np.uint8), NO_TABLE))
        for byte in range(256)
    ]
    first = batch.first_refused(GAMES[game])
    assert allowed == [byte < first for byte in range(256)]


def test_a_build_without_the_kernels_fails_on_import_naming_the_fix() -> None:
    blocked = (
        "import sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.startswith('evaluators.kernels._'):\n"
        "            raise ImportError(f'no module named {name}')\n"
        "sys.meta_path.insert(0, Block())\n"
        "import evaluators.batch\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", blocked], capture_output=True, text=True, timeout=120, check=False
    )
    assert run.returncode != 0
    assert "pip install -e ." in run.stderr
    assert "gcc" in run.stderr


def one_pass_wide(
    hands: Matrix, table: Matrix, dots: bool = False
) -> tuple[bool, npt.NDArray[np.uint32], npt.NDArray[np.int32]]:
    """``_poker.screened`` into 4-byte cells (a columns reply's): strength uint32, and the
    class or (``dots``) the dots int32."""
    strength = np.full(len(hands), 0xFFFFFFFF, dtype=np.uint32)
    value = np.full(len(hands), -1, dtype=np.int32)
    passed = _poker.screened(
        poker._kernel_tables(),
        hands,
        table,
        52,
        memoryview(strength),
        None if dots else memoryview(value),
        memoryview(value) if dots else None,
    )
    return passed, strength, value


def test_the_one_pass_into_four_byte_cells_equals_the_numpy_reference() -> None:
    # Every 5-card hand, flush-dense 6- and 7-card hands and hole cards on a board: each
    # cell the reference's figure, widened (class and dots alike).
    deals = [(chunk, NO_TABLE) for chunk in every_hand(5)] + [
        (random_deals(50_000, size, seed=size, deck=26), NO_TABLE) for size in (6, 7)
    ]
    board = random_deals(1, 5, seed=9)
    holes = random_deals(50_000, 2, seed=11)
    deals.append((np.ascontiguousarray(holes[~np.isin(holes, board).any(axis=1)]), board))
    for hands, table in deals:
        for game, dots in ((poker_high, False), (grocery_store_dots, True)):
            want = game.reference_batch(hands, table, OPTIONS)
            passed, strength, value = one_pass_wide(hands, table, dots)
            assert passed
            assert np.array_equal(strength, want.strength)
            assert np.array_equal(value, want.value)


def test_four_byte_cells_are_asked_for_by_the_strength_and_held_to_it() -> None:
    hands = random_deals(10, 7, seed=3)
    tables = poker._kernel_tables()
    wide = np.empty(10, np.uint32)
    with pytest.raises(ValueError, match="classes"):
        _poker.screened(tables, hands, NO_TABLE, 52, wide, np.empty(10, np.int16), None)
    with pytest.raises(ValueError, match="dots"):
        _poker.screened(tables, hands, NO_TABLE, 52, wide, None, np.empty(10, np.int64))
    with pytest.raises(ValueError, match="strength"):
        _poker.screened(tables, hands, NO_TABLE, 52, np.empty(10, np.uint64), None, None)
