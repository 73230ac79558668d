"""The compiled batch kernels of the games other than poker (``evaluators/kernels/_points.c``,
``_not_poker.c``, ``_tonk.c``) against the numpy batches they replace, exactly: 200,000
random full deals a game here (poker's too, whose own tests are
``test_kernels_poker.py``), five million more under ``slow`` (Tonk spades: 50,000 a size
here, 200,000 more under ``slow``); tables shared and per hand, padding
anywhere in a row, meld-dense and adversarial Tonk hands, every NotPoker symbol
multiset; and their refusals of arguments that do not fit."""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from benchmarks.hands import MELD_DENSE_DECK
from evaluators import discard, point_totals
from evaluators.cards import ACE, EMPTY, card_id
from evaluators.deal import deal
from evaluators.games import (
    high_card,
    not_poker,
    numbers,
    tonk_spades,
)
from evaluators.games.tonk import deadwood
from evaluators.inputs import Game, Options
from evaluators.kernels import _not_poker, _points, _tonk, set_isa
from evaluators.registry import GAMES
from evaluators.results import BatchResult
from tests.unit.batch_dtypes import has_batch_dtypes
from tests.unit.kernel_paths import forced_isa


@pytest.fixture(params=_points.isas())
def points_isa(request: pytest.FixtureRequest) -> Iterator[str]:
    """The discard and High Card kernels' path forced for the test (each this CPU runs:
    the AVX2 loops take tables that are a rank's, the plain loop every other)."""
    with forced_isa(request.param) as name:
        yield name


Matrix = npt.NDArray[np.uint8]
Batch = Callable[[Matrix, Matrix, Options], BatchResult]

MILLION = 1_000_000
FIELDS = ("strength", "low_strength", "value", "instant_win")


def assert_same(kernel: BatchResult, reference: BatchResult) -> None:
    """Every figure of every hand equal (widths may differ: the kernels' are narrower)."""
    assert has_batch_dtypes(kernel)
    for name in FIELDS:
        got, want = getattr(kernel, name), getattr(reference, name)
        assert len(got) == len(want), name
        mismatched = np.flatnonzero(got != want)
        assert not mismatched.size, f"{name} differs at {mismatched[:5]}: {got[mismatched[:5]]}"


def padded(rows: Matrix, keep_at_least: int, seed: int) -> Matrix:
    """``rows`` with a random number of cards per row (leaving ``keep_at_least``) turned
    into padding at random places."""
    rng = np.random.default_rng(seed)
    count, width = rows.shape
    drop = rng.integers(0, width - keep_at_least + 1, count)
    places = rng.permuted(np.tile(np.arange(width), (count, 1)), axis=1)
    out = rows.copy()
    out[places < drop[:, None]] = EMPTY
    return out


NO_OPTIONS = Options()
COMPILED = [game for game, rules in GAMES.items() if rules.reference_batch is not None]
"""Every game whose batch is compiled: it names the numpy batch it is held equal to
(poker's own kernel tests are ``test_kernels_poker.py``; here it takes the common ones)."""
DISCARD_GAMES = [game for game in COMPILED if GAMES[game].distinct_table_ranks]


def batches(game: Game) -> tuple[Batch, Batch]:
    """(compiled, numpy) batch of ``game``."""
    rules = GAMES[game]
    assert rules.reference_batch is not None
    return rules.evaluate_batch, rules.reference_batch


def check_full_deals(game: Game, count: int, seed: int) -> None:
    """``count`` full deals, each with its table and with the first table shared by all."""
    kernel, reference = batches(game)
    dealt = deal(game, count, seed)
    for tables in (dealt.tables, dealt.tables[:1]):
        assert_same(
            kernel(dealt.hands, tables, NO_OPTIONS), reference(dealt.hands, tables, NO_OPTIONS)
        )


def test_every_game_has_a_compiled_batch_held_to_its_numpy_reference() -> None:
    assert set(COMPILED) == set(GAMES)
    assert set(DISCARD_GAMES) == {
        Game.NUMBERS,
        Game.FLORIDA_BINGO,
        Game.FLOP_A,
        Game.THREE_THIRTY_THREE,
    }


@pytest.mark.parametrize("game", COMPILED)
def test_compiled_batch_equals_numpy_on_200_000_full_deals(game: Game) -> None:
    check_full_deals(game, MILLION // 5, 1)


@pytest.mark.slow
@pytest.mark.parametrize("game", COMPILED)
def test_compiled_batch_equals_numpy_on_five_million_more_full_deals(game: Game) -> None:
    """The million a game the unit layer took before it kept 200,000 (issue 25's 60 s), and
    four million more."""
    for seed in range(10, 15):
        check_full_deals(game, MILLION, seed)


@pytest.mark.parametrize("game", DISCARD_GAMES)
def test_discard_kernel_equals_numpy_at_every_size_with_padding_anywhere(
    game: Game, points_isa: str
) -> None:
    kernel, reference = batches(game)
    rules = GAMES[game]
    for hand_size in range(rules.hand_min, rules.hand_max + 1):
        for table_size in range(rules.table_min, rules.table_max + 1):
            dealt = deal(game, 20_000, hand_size * 10 + table_size, hand_size, table_size)
            hands = padded(dealt.hands, 1, hand_size)
            tables = padded(dealt.tables, 0, table_size) if table_size else dealt.tables
            for shared in (tables, tables[:1]):
                assert_same(kernel(hands, shared, NO_OPTIONS), reference(hands, shared, NO_OPTIONS))


def test_hands_that_run_out_are_instant_wins_in_the_kernel_too(points_isa: str) -> None:
    kernel, reference = batches(Game.NUMBERS)
    hands = np.array([[0, 4, EMPTY], [1, 5, 9]], dtype=np.uint8)  # 2c 3c / 2d 3d 4d
    table = np.array([[2, 6, 48]], dtype=np.uint8)  # 2h 3h Ac
    result = kernel(hands, table, NO_OPTIONS)
    assert result.instant_win.tolist() == [True, False]
    assert result.strength.tolist() == [0, 4]
    assert_same(result, reference(hands, table, NO_OPTIONS))


def test_sum_figures_are_the_games_numpy_figures_of_every_sum() -> None:
    figures = discard.sum_figures(point_totals.kept_result)
    sums = np.arange(discard.SUMS, dtype=np.uint16)
    reference = point_totals.kept_result(sums)
    assert np.array_equal(figures.strength, reference.strength)
    assert np.array_equal(figures.low_strength, reference.low_strength)
    assert np.array_equal(figures.value, reference.value)
    assert np.array_equal(figures.instant_win, reference.instant_win)
    assert discard.sum_figures(point_totals.kept_result) is figures


def test_each_figure_keeps_its_own_bits_of_the_packed_entry(points_isa: str) -> None:
    """Extremes side by side (the largest strengths, the most negative head, instant wins
    on and off): no figure spills into another's bits, and the kernel writes them back."""

    def extremes(packed: npt.NDArray[np.uint16]) -> BatchResult:
        odd = (packed & 1).astype(np.bool_)
        strength = np.where(odd, 0xFFFF, packed).astype(np.uint16)
        low = np.where(odd, 0, 0xFFFF - packed).astype(np.uint16)
        head = np.where(odd, -32768, 32767 - (packed >> 1)).astype(np.int16)
        return BatchResult(strength, low, head.astype(np.int64), odd)

    figures = discard.sum_figures(extremes)
    reference = extremes(np.arange(discard.SUMS, dtype=np.uint16))
    assert np.array_equal(figures.strength, reference.strength)
    assert np.array_equal(figures.low_strength, reference.low_strength)
    assert np.array_equal(figures.value, reference.value)
    assert np.array_equal(figures.instant_win, reference.instant_win)
    values = np.zeros(256, dtype=np.uint16)
    values[:52] = np.repeat(np.arange(1, 14, dtype=np.uint16), 4)  # a rank's value: any path
    hands = np.ascontiguousarray(np.random.default_rng(12).integers(0, 52, (1_000, 3)), np.uint8)
    kept = discard.evaluate_kept(values, extremes, hands, np.zeros((1, 0), dtype=np.uint8))
    sums = values[hands].sum(axis=1, dtype=np.uint16)
    assert np.array_equal(kept.strength, reference.strength[sums])
    assert np.array_equal(kept.low_strength, reference.low_strength[sums])
    assert np.array_equal(kept.value, reference.value[sums])
    assert np.array_equal(kept.instant_win, reference.instant_win[sums])


def test_a_score_whose_figures_do_not_fit_16_bits_is_refused() -> None:
    def too_wide(packed: npt.NDArray[np.uint16]) -> BatchResult:
        wide = packed.astype(np.uint32) * np.uint32(1 << 16)
        return BatchResult(wide, wide, wide.astype(np.int64), packed == 0)

    with pytest.raises(ValueError, match="strength does not fit uint16"):
        discard.sum_figures(too_wide)


@pytest.mark.parametrize("ace_low", [False, True])
def test_high_card_kernel_equals_numpy_on_hands_of_few_ranks(
    ace_low: bool, points_isa: str
) -> None:
    """Both ace options; ties at every check: hands and tables from three ranks, aces too."""
    rng = np.random.default_rng(3)
    deck = np.array([card_id(r, s) for r in (0, 1, ACE) for s in range(4)], dtype=np.uint8)
    rows = np.array([rng.permutation(deck)[:10] for _ in range(50_000)], dtype=np.uint8)
    hands, tables = np.ascontiguousarray(rows[:, :5]), np.ascontiguousarray(rows[:, 5:])
    options = Options(ace_low=ace_low)
    result = high_card.evaluate_batch(hands, tables, options)
    assert {0, 5} <= set(result.value.tolist())
    assert_same(result, high_card.reference_batch(hands, tables, options))


def test_not_poker_kernel_equals_numpy_on_every_symbol_multiset() -> None:
    """All 27,132 multisets of six symbols (joker 13), each in a shuffled order: real hands
    and the impossible ones alike (three jokers, five of a rank) read the same table slot."""
    multisets = np.array(
        list(itertools.combinations_with_replacement(range(not_poker.SYMBOLS), 6)),
        dtype=np.uint8,
    )
    rng = np.random.default_rng(5)
    symbols = rng.permuted(multisets, axis=1)
    hands = symbols * np.uint8(4) + rng.integers(0, 2, symbols.shape, dtype=np.uint8)
    result = not_poker.evaluate_batch(hands, np.zeros((1, 0), dtype=np.uint8), NO_OPTIONS)
    assert_same(result, not_poker.reference_batch(hands, hands[:1, :0], NO_OPTIONS))
    table = not_poker.reading_table()
    indexes = [not_poker.signature_index(m) for m in multisets.tolist()]
    assert result.strength.tolist() == table.strength[indexes].tolist()


TONK_OPTIONS = [Options(), Options(hit_runs_only=True)]
ADVERSARIAL_DECKS = {
    "three ranks, four suits": [card_id(r, s) for r in (4, 5, 6) for s in range(4)],
    "A-4 in four suits": [card_id(r, s) for r in (ACE, 0, 1, 2) for s in range(4)],
    "Q-K-A-2-3 in four suits": [card_id(r, s) for r in (10, 11, ACE, 0, 1) for s in range(4)],
    "9-K in two suits": [card_id(r, s) for r in range(7, 12) for s in range(2)],
}


def check_tonk(hands: Matrix) -> None:
    for options in TONK_OPTIONS:
        no_tables = np.zeros((1, 0), dtype=np.uint8)
        assert_same(
            deadwood.evaluate_batch(hands, no_tables, options),
            deadwood.reference_batch(hands, no_tables, options),
        )


@pytest.mark.parametrize("size", [1, 5, 7, 9])
def test_tonk_kernel_equals_numpy_on_random_hands(size: int) -> None:
    check_tonk(deal(Game.TONK, MILLION // 4, 6, size).hands)


@pytest.mark.parametrize("size", [3, 5, 7, 10])
def test_tonk_kernel_equals_numpy_on_meld_dense_hands(size: int) -> None:
    check_tonk(deal(Game.TONK, 250_000, 7, size, deck=MELD_DENSE_DECK).hands)


@pytest.mark.parametrize("deck", list(ADVERSARIAL_DECKS))
def test_tonk_kernel_equals_numpy_on_adversarial_hands(deck: str) -> None:
    """Hands of few ranks: up to three ranks held 3-4 times (the most set choices), runs
    through sets, aces at either end of a run."""
    cards = np.array(ADVERSARIAL_DECKS[deck], dtype=np.uint8)
    for size in range(1, min(10, len(cards)) + 1):
        hands = deal(Game.TONK, 20_000, size, size, deck=cards).hands
        check_tonk(hands)
        check_tonk(padded(hands, 1, size))


def test_tonk_kernel_scores_the_hand_with_the_most_set_choices() -> None:
    """Two ranks held 4 times and one twice in 10 cards (6 x 6 choices) as the single-hand
    search does: sets of three 6s and three 7s, the run 6c 7c 8c, 8d left over; and a row
    of padding alone scores as an empty hand."""
    ten = (*(card_id(r, s) for r in (4, 5) for s in range(4)), card_id(6, 0), card_id(6, 1))
    hands = np.array([ten, [EMPTY] * 10], dtype=np.uint8)
    result = deadwood.evaluate_batch(hands, hands[:1, :0], NO_OPTIONS)
    single = deadwood.evaluate(ten, (), (), NO_OPTIONS)
    assert result.value.tolist() == [deadwood.headline(single), 0] == [8, 0]
    assert result.strength.tolist() == [single.strength, deadwood.STRENGTH_BASE]
    check_tonk(hands)


@pytest.mark.slow
def test_tonk_kernel_equals_numpy_on_four_million_meld_dense_hands() -> None:
    for seed in range(10, 14):
        check_tonk(deal(Game.TONK, MILLION, seed, 10, deck=MELD_DENSE_DECK).hands)


def check_tonk_spades(count: int, seed: int, ace_low: bool) -> None:
    """``count`` hands of each size 5-9, whole and with padding anywhere."""
    options = Options(ace_low=ace_low)
    for size in range(5, 10):
        hands = deal(Game.TONK_SPADES, count, seed + size, size).hands
        for rows in (hands, padded(hands, 5, size)):
            assert_same(
                tonk_spades.evaluate_batch(rows, rows[:1, :0], options),
                tonk_spades.reference_batch(rows, rows[:1, :0], options),
            )


@pytest.mark.parametrize("ace_low", [False, True])
def test_tonk_spades_kernel_equals_numpy_at_every_size_with_padding(ace_low: bool) -> None:
    check_tonk_spades(MILLION // 20, 0, ace_low)


@pytest.mark.slow
@pytest.mark.parametrize("ace_low", [False, True])
def test_tonk_spades_kernel_equals_numpy_on_200_000_more_hands_of_every_size(ace_low: bool) -> None:
    """The unit layer took 200,000 a size before it kept 50,000 (issue 25's 60 s)."""
    check_tonk_spades(MILLION // 5, 100, ace_low)


@pytest.mark.parametrize("ace_low", [False, True])
def test_high_card_kernel_equals_numpy_at_every_batch_length_per_hand_and_shared(
    ace_low: bool, points_isa: str
) -> None:
    """Batches of 0-40 hands (every tail the eight-row steps leave, and the last rows a
    step's loads reach), each with tables of its own and with one shared table."""
    options = Options(ace_low=ace_low)
    for count in range(41):
        dealt = deal(Game.HIGH_CARD, count, 100 + count)
        for shared in (dealt.tables, dealt.tables[:1]):
            result = high_card.evaluate_batch(dealt.hands, shared, options)
            assert_same(result, high_card.reference_batch(dealt.hands, shared, options))


def _survived(order: Matrix, hands: Matrix, tables: Matrix) -> Matrix:
    out = np.empty(len(hands), dtype=np.uint8)
    _points.checks_survived(order, hands, tables, hands.shape[1], out)
    return out


@pytest.mark.parametrize("ace_low", [False, True])
def test_checks_survived_paths_agree_on_random_bytes(ace_low: bool, points_isa: str) -> None:
    """Any byte, unvalidated: every byte from 52 up is the order's no-card place on each
    path, so a path answers as the plain loop does on every row."""
    rng = np.random.default_rng(10)
    hands = rng.integers(0, 256, (100_003, 5), dtype=np.uint8)
    tables = rng.integers(0, 256, (100_003, 5), dtype=np.uint8)
    order = high_card.rank_order(ace_low)
    got = [_survived(order, hands, shared) for shared in (tables, tables[:1])]
    set_isa("scalar")
    assert np.array_equal(got[0], _survived(order, hands, tables))
    assert np.array_equal(got[1], _survived(order, hands, tables[:1]))


def test_checks_survived_takes_an_order_that_tells_suits_apart(points_isa: str) -> None:
    """An order by card, not by rank (which the vector loop cannot read by rank): the
    answers are still the sorted places', as a row sorted in Python shows."""
    rng = np.random.default_rng(11)
    order = np.zeros(256, dtype=np.uint8)
    order[:52] = rng.integers(0, 16, 52)
    hands = rng.integers(0, 52, (1_000, 5), dtype=np.uint8)
    tables = rng.integers(0, 52, (1_000, 5), dtype=np.uint8)
    expected = []
    for hand, table in zip(hands, tables, strict=True):
        mine, theirs = sorted(order[hand].tolist()), sorted(order[table].tolist())
        folds = [n for n in range(5) if mine[n] < theirs[n]]
        expected.append(folds[0] if folds else 5)
    assert _survived(order, hands, tables).tolist() == expected


@pytest.mark.parametrize("game", DISCARD_GAMES)
def test_discard_kernel_equals_numpy_on_random_bytes(game: Game, points_isa: str) -> None:
    """Any byte, unvalidated (jokers, repeats, non-cards): a byte with no rank shows and
    keeps nothing in both, so the two agree on every row."""
    kernel, reference = batches(game)
    rng = np.random.default_rng(8)
    hands = rng.integers(0, 256, (100_000, 5), dtype=np.uint8)
    tables = rng.integers(0, 256, (100_000, 7), dtype=np.uint8)
    for shared in (tables, tables[:1]):
        assert_same(kernel(hands, shared, NO_OPTIONS), reference(hands, shared, NO_OPTIONS))


VALUE_BOUNDS = {Game.HIGH_CARD: 5, Game.NOT_POKER: 7, Game.TONK: 4 * 85, Game.TONK_SPADES: 13}
"""The largest ``value`` each table holds: checks, category (0 for no real hand), four
suits' deadwood, the ace of spades."""


@pytest.mark.parametrize("game", list(VALUE_BOUNDS))
def test_any_bytes_read_inside_the_games_tables(game: Game) -> None:
    """Unvalidated bytes (which the batch screen refuses first): every row is scored from
    inside the tables, no value beyond what a table holds."""
    rules = GAMES[game]
    rng = np.random.default_rng(9)
    hands = rng.integers(0, 256, (100_000, rules.hand_max), dtype=np.uint8)
    tables = rng.integers(0, 256, (100_000, rules.table_max), dtype=np.uint8)
    for options in (Options(), Options(ace_low=True)):
        got = rules.evaluate_batch(hands, tables, options)
        assert len(got.value) == len(hands)
        assert 0 <= got.value.min() <= got.value.max() <= VALUE_BOUNDS[game]


# Refusals: a kernel told a shape its buffers do not have raises ValueError naming the
# argument, and reads or writes nothing out of bounds.


NO_TABLES = np.zeros((1, 0), dtype=np.uint8)


def _totals_arguments(hands: Matrix, out_length: int, tables: Matrix = NO_TABLES) -> list[object]:
    """``discard_totals``' arguments for Numbers: the outputs are the last four."""
    figures = discard.sum_figures(point_totals.kept_result)
    return [
        point_totals.packed_card_array(numbers.VALUES),
        figures.packed,
        hands,
        hands.shape[1],
        tables,
        tables.shape[1],
        np.empty(out_length, dtype=np.uint16),
        np.empty(out_length, dtype=np.uint16),
        np.empty(out_length, dtype=np.int16),
        np.empty(out_length, dtype=np.bool_),
    ]


def test_discard_totals_refuses_a_short_output() -> None:
    hands = np.zeros((4, 5), dtype=np.uint8)
    with pytest.raises(ValueError, match="out_strength has 6 bytes"):
        _points.discard_totals(*_totals_arguments(hands, 3))  # type: ignore[arg-type]


def test_discard_totals_refuses_a_figures_table_short_of_every_sum() -> None:
    arguments = _totals_arguments(np.zeros((4, 5), dtype=np.uint8), 4)
    arguments[1] = np.zeros(discard.SUMS - 1, dtype=np.uint64)
    with pytest.raises(ValueError, match="figures has"):
        _points.discard_totals(*arguments)  # type: ignore[arg-type]


def test_discard_totals_refuses_hands_that_are_not_whole_rows() -> None:
    arguments = _totals_arguments(np.zeros((4, 5), dtype=np.uint8), 4)
    arguments[3] = 3
    with pytest.raises(ValueError, match="hands has 20 bytes, not rows of 3 bytes"):
        _points.discard_totals(*arguments)  # type: ignore[arg-type]


def test_discard_totals_refuses_a_table_count_that_is_neither_one_nor_the_hands() -> None:
    arguments = _totals_arguments(np.zeros((4, 5), dtype=np.uint8), 4)
    arguments[4], arguments[5] = np.zeros((2, 3), dtype=np.uint8), 3
    with pytest.raises(ValueError, match="tables has 2 rows for 4 hands"):
        _points.discard_totals(*arguments)  # type: ignore[arg-type]


def test_checks_survived_refuses_more_checks_than_its_counts_hold() -> None:
    hands = np.zeros((1, 8), dtype=np.uint8)
    with pytest.raises(ValueError, match="size is 8; at most 7"):
        _points.checks_survived(
            high_card.rank_order(False), hands, hands, 8, np.empty(1, dtype=np.uint8)
        )


def test_checks_survived_refuses_an_order_beyond_sixteen_places() -> None:
    order = np.full(256, 16, dtype=np.uint8)
    hands = np.zeros((1, 5), dtype=np.uint8)
    with pytest.raises(ValueError, match=r"order\[0\] is 16"):
        _points.checks_survived(order, hands, hands, 5, np.empty(1, dtype=np.uint8))


def test_multiset_readings_refuses_weights_that_reach_past_the_table() -> None:
    table = not_poker.reading_table()
    hands = np.zeros((1, 6), dtype=np.uint8)
    with pytest.raises(ValueError, match="the weights reach index 27131; the tables have 100"):
        _not_poker.multiset_readings(
            not_poker.batch_symbols(),
            not_poker.batch_weights(),
            table.strength[:100],
            table.category[:100],
            hands,
            6,
            np.empty(1, dtype=np.uint32),
            np.empty(1, dtype=np.int8),
        )


def test_deadwood_refuses_rows_longer_than_its_bound_on_set_choices() -> None:
    hands = np.zeros((1, 17), dtype=np.uint8)
    with pytest.raises(ValueError, match="hand_size is 17; at most 16"):
        _tonk.deadwood(
            np.zeros(256, dtype=np.uint64),
            np.zeros(256, dtype=np.int64),
            np.zeros(8192, dtype=np.int16),
            np.zeros((16, 6), dtype=np.int64),
            1000,
            hands,
            17,
            np.empty(1, dtype=np.uint16),
            np.empty(1, dtype=np.int16),
        )


def test_deadwood_refuses_a_set_choice_for_a_rank_held_twice() -> None:
    choices = np.zeros((16, 6), dtype=np.int64)
    choices[3, 1] = 3
    hands = np.zeros((1, 5), dtype=np.uint8)
    with pytest.raises(ValueError, match="offers a set for suits 3"):
        _tonk.deadwood(
            np.zeros(256, dtype=np.uint64),
            np.zeros(256, dtype=np.int64),
            np.zeros(8192, dtype=np.int16),
            choices,
            1000,
            hands,
            5,
            np.empty(1, dtype=np.uint16),
            np.empty(1, dtype=np.int16),
        )


def test_highest_refuses_values_beyond_16_bits() -> None:
    values = np.zeros(256, dtype=np.int64)
    values[7] = 1 << 20
    hands = np.zeros((1, 5), dtype=np.uint8)
    with pytest.raises(ValueError, match=r"values\[7\] is 1048576"):
        _tonk.highest(values, hands, 5, np.empty(1, dtype=np.int16))


def test_a_kernel_refuses_a_read_only_output() -> None:
    hands = np.zeros((1, 5), dtype=np.uint8)
    out = np.empty(1, dtype=np.int16)
    out.flags.writeable = False
    with pytest.raises((BufferError, TypeError)):
        _tonk.highest(np.zeros(256, dtype=np.int64), hands, 5, out)


# The GIL is let go: while a kernel loops in one thread, Python runs in another.

GIL_ROWS = 4_000_000


def ran_beside_python(call: Callable[[], None], out: npt.NDArray[Any], unset: int) -> bool:
    """Whether this thread ran Python while ``call``, in another thread, was inside its
    loop: it saw ``out`` (filled from the start, ``unset`` never a result) begun and not
    finished. A kernel holding the GIL would let this thread see only before or after."""
    for _ in range(3):
        out[...] = unset
        worker = threading.Thread(target=call)
        worker.start()
        seen = False
        while worker.is_alive() and not seen:
            seen = bool(out[0] != unset and out[-1] == unset)
        worker.join()
        assert out[-1] != unset
        if seen:
            return True
    return False


def tiled(rows: Matrix) -> Matrix:
    return np.ascontiguousarray(np.tile(rows, (GIL_ROWS // len(rows), 1)))


def test_discard_totals_lets_the_gil_go() -> None:
    dealt = deal(Game.NUMBERS, 10_000, 11)
    hands, tables = tiled(dealt.hands), tiled(dealt.tables)
    arguments = _totals_arguments(hands, len(hands), tables)

    def call() -> None:
        _points.discard_totals(*arguments)  # type: ignore[arg-type]

    strength = arguments[-4]
    assert isinstance(strength, np.ndarray)
    assert ran_beside_python(call, strength, 0xFFFF)


def test_checks_survived_lets_the_gil_go() -> None:
    dealt = deal(Game.HIGH_CARD, 10_000, 12)
    hands, tables = tiled(dealt.hands), tiled(dealt.tables)
    out = np.empty(len(hands), dtype=np.uint8)

    def call() -> None:
        _points.checks_survived(high_card.rank_order(False), hands, tables, 5, out)

    assert ran_beside_python(call, out, 255)


def test_multiset_readings_lets_the_gil_go() -> None:
    hands = tiled(deal(Game.NOT_POKER, 10_000, 13).hands)
    table = not_poker.reading_table()
    strength, category = np.empty(len(hands), np.uint32), np.empty(len(hands), np.int8)

    def call() -> None:
        _not_poker.multiset_readings(
            not_poker.batch_symbols(),
            not_poker.batch_weights(),
            table.strength,
            table.category,
            hands,
            6,
            strength,
            category,
        )

    assert ran_beside_python(call, category, -1)


def test_deadwood_and_highest_let_the_gil_go() -> None:
    hands = tiled(deal(Game.TONK, 10_000, 14, 10, deck=MELD_DENSE_DECK).hands)
    strength, deadwood_out = np.empty(len(hands), np.uint16), np.empty(len(hands), np.int16)

    def search() -> None:
        _tonk.deadwood(
            deadwood._SUIT_KEYS,
            deadwood._POINT_KEYS,
            deadwood._suit_deadwood_int16(),
            deadwood._REMOVALS,
            deadwood.STRENGTH_BASE,
            hands,
            10,
            strength,
            deadwood_out,
        )

    def highest() -> None:
        _tonk.highest(tonk_spades._STRENGTHS[False], hands, 10, deadwood_out)

    assert ran_beside_python(search, deadwood_out, -1)
    assert ran_beside_python(highest, deadwood_out, -1)
