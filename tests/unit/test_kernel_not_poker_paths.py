"""NotPoker's kernel (``_not_poker.multiset_readings``) on every instruction-set path this
CPU runs (``_not_poker.isas()``, forced in turn with ``evaluators.kernels.set_isa``), held
to the scalar loop and to numpy, exactly: every six-symbol multiset, dealt hands of the
54-card deck with both jokers, every batch length from 0 to 40 (every tail the eight-row
steps leave, and their boundary), batches ending on an unreadable page, every byte 0-255
at every place, and symbol tables the AVX2 loop does not take (it falls back to the scalar
one) or takes though they are not ``byte >> 2``. The paths: docs/kernels.md."""

from __future__ import annotations

import ctypes
import itertools
import math
import mmap
import sys
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import pytest

from evaluators.deal import deal
from evaluators.games import not_poker
from evaluators.inputs import Game, Options
from evaluators.kernels import ISA_VARIABLE, _not_poker, choose_isa, kernel_isa, set_isa
from tests.unit.kernel_paths import forced_isa

Matrix = npt.NDArray[np.uint8]
Strengths = npt.NDArray[np.uint32]
Categories = npt.NDArray[np.int8]
NO_OPTIONS = Options()
HAND = not_poker.HAND_SIZE
CARD_BYTES = 256
PROT_NONE = 0
"""mprotect's no-access flag (Python's ``mmap`` names only the others)."""


@pytest.fixture(params=_not_poker.isas())
def not_poker_isa(request: pytest.FixtureRequest) -> Iterator[str]:
    """NotPoker's kernel path forced for the test (each this CPU runs), the one before put
    back after it."""
    with forced_isa(request.param) as name:
        assert _not_poker.isa() == name
        yield name


@dataclass(frozen=True)
class Tables:
    """What ``multiset_readings`` reads besides the hands."""

    symbols: Matrix
    weights: npt.NDArray[np.int32]
    strengths: Strengths
    categories: Categories


def game_tables() -> Tables:
    """NotPoker's own: symbols ``byte >> 2`` for the 54 cards, 0 for every other byte."""
    table = not_poker.reading_table()
    return Tables(
        not_poker.batch_symbols(), not_poker.batch_weights(), table.strength, table.category
    )


def counting_tables(symbols: Matrix, symbol_count: int, places: int = HAND) -> Tables:
    """``symbols`` with the combinatorial number system's weights for ``symbol_count``
    symbols, and tables whose figures differ at every index (so any wrong index shows)."""
    weights = np.array(
        [[math.comb(v + i, i + 1) for v in range(symbol_count)] for i in range(places)],
        dtype=np.int32,
    )
    size = math.comb(symbol_count + places - 1, places)
    index = np.arange(size, dtype=np.int64)
    strengths = (index * 7 + 3).astype(np.uint32)
    categories = (index % 251 - 125).astype(np.int8)
    return Tables(np.ascontiguousarray(symbols, dtype=np.uint8), weights, strengths, categories)


def readings(tables: Tables, hands: Matrix, places: int = HAND) -> tuple[Strengths, Categories]:
    """The kernel's figures of ``hands`` on the path in use."""
    count = len(hands)
    strength = np.full(count, 0xDEADBEEF, dtype=np.uint32)
    category = np.full(count, -128, dtype=np.int8)
    _not_poker.multiset_readings(
        tables.symbols,
        tables.weights,
        tables.strengths,
        tables.categories,
        hands,
        places,
        strength,
        category,
    )
    return strength, category


def scalar_readings(
    tables: Tables, hands: Matrix, places: int = HAND
) -> tuple[Strengths, Categories]:
    """``readings`` on the scalar path, the path before put back."""
    before = kernel_isa()
    set_isa("scalar")
    try:
        return readings(tables, hands, places)
    finally:
        set_isa(before)


def numpy_readings(tables: Tables, hands: Matrix) -> tuple[Strengths, Categories]:
    """The kernel's contract in numpy: symbols sorted, weighed by place, then the tables."""
    places = hands.shape[1]
    ordered = np.sort(tables.symbols[hands], axis=1)
    index = tables.weights[np.arange(places)[None, :], ordered].sum(axis=1)
    return tables.strengths[index], tables.categories[index]


def assert_paths_agree(tables: Tables, hands: Matrix, places: int = HAND) -> None:
    """The path in use, the scalar loop and numpy give the same figures for every row."""
    strength, category = readings(tables, hands, places)
    for want_strength, want_category in (
        scalar_readings(tables, hands, places),
        numpy_readings(tables, hands),
    ):
        assert strength.tolist() == want_strength.tolist()
        assert category.tolist() == want_category.tolist()


def assert_game_agrees(hands: Matrix) -> None:
    """``not_poker.evaluate_batch`` (the kernel on the path in use) equals the scalar loop
    and ``reference_batch``, hand by hand."""
    no_tables = np.zeros((1, 0), dtype=np.uint8)
    result = not_poker.evaluate_batch(hands, no_tables, NO_OPTIONS)
    reference = not_poker.reference_batch(hands, no_tables, NO_OPTIONS)
    strength, category = scalar_readings(game_tables(), np.ascontiguousarray(hands))
    assert result.strength.tolist() == reference.strength.tolist() == strength.tolist()
    assert result.value.tolist() == reference.value.tolist() == category.tolist()


def cards_of(symbols: Matrix, rng: np.random.Generator) -> Matrix:
    """A card of each symbol: a random suit of the rank, X1 or X2 for the joker (13)."""
    jokers = symbols == not_poker.JOKER_SYMBOL
    suits = rng.integers(0, 4, symbols.shape, dtype=np.uint8)
    suits[jokers] = rng.integers(0, 2, int(jokers.sum()), dtype=np.uint8)
    cards: Matrix = symbols * np.uint8(4) + suits
    return cards


def test_avx2_readings_equal_the_scalar_loop_and_numpy_on_every_symbol_multiset(
    not_poker_isa: str,
) -> None:
    """All 27,132 multisets of six symbols, each shuffled, as cards of random suits and
    jokers: real hands and impossible ones (three jokers, five of a rank) alike."""
    multisets = np.array(
        list(itertools.combinations_with_replacement(range(not_poker.SYMBOLS), HAND)),
        dtype=np.uint8,
    )
    rng = np.random.default_rng(11)
    hands = cards_of(rng.permuted(multisets, axis=1), rng)
    assert_game_agrees(hands)
    assert_paths_agree(counting_tables(not_poker.batch_symbols(), not_poker.SYMBOLS), hands)


def test_avx2_readings_equal_the_scalar_loop_and_numpy_on_dealt_hands_with_both_jokers(
    not_poker_isa: str,
) -> None:
    hands = deal(Game.NOT_POKER, 200_000, 12).hands
    assert (hands == 52).any() and (hands == 53).any()
    assert ((hands == 52).any(axis=1) & (hands == 53).any(axis=1)).any()
    assert_game_agrees(hands)


def test_avx2_readings_equal_the_scalar_loop_on_every_tail_length(not_poker_isa: str) -> None:
    """Batches of 0 to 40 hands (every tail the eight-row steps leave, the first step and
    the boundaries between), starting at every byte offset of a row's width in a larger
    buffer, so that no load is aligned."""
    rng = np.random.default_rng(13)
    tables = game_tables()
    for count in range(41):
        for start in range(HAND):
            buffer = rng.integers(0, 54, count * HAND + start, dtype=np.uint8)
            hands = buffer[start:].reshape(count, HAND)
            assert_game_agrees(hands)
            assert_paths_agree(tables, hands)


def test_avx2_readings_read_no_byte_past_the_batch(not_poker_isa: str) -> None:
    """Every batch of 0 to 40 hands placed to end at a page the process cannot read: a load
    past its last row would fault."""
    if sys.platform != "linux":
        pytest.skip("mprotect through ctypes is tried on Linux only")
    libc = ctypes.CDLL(None, use_errno=True)
    page = mmap.PAGESIZE
    memory = mmap.mmap(-1, 2 * page)
    pages = np.frombuffer(memory, dtype=np.uint8)
    guard = pages.ctypes.data + page
    assert libc.mprotect(ctypes.c_void_p(guard), page, PROT_NONE) == 0
    try:
        rng = np.random.default_rng(14)
        tables = game_tables()
        for count in range(41):
            hands = pages[page - count * HAND : page].reshape(count, HAND)
            hands[:] = rng.integers(0, 54, (count, HAND), dtype=np.uint8)
            strength, category = readings(tables, hands)
            want_strength, want_category = numpy_readings(tables, hands)
            assert strength.tolist() == want_strength.tolist()
            assert category.tolist() == want_category.tolist()
    finally:
        libc.mprotect(ctypes.c_void_p(guard), page, mmap.PROT_READ | mmap.PROT_WRITE)


def test_avx2_readings_equal_the_scalar_loop_on_every_byte_at_every_place(
    not_poker_isa: str,
) -> None:
    """The contract reads symbols[byte] for any byte 0-255 (a byte that is no card reads
    symbol 0 in NotPoker's table): each byte at each place of a row, the others random."""
    rng = np.random.default_rng(15)
    hands = rng.integers(0, CARD_BYTES, (CARD_BYTES * HAND, HAND), dtype=np.uint8)
    for place in range(HAND):
        hands[place * CARD_BYTES : (place + 1) * CARD_BYTES, place] = np.arange(CARD_BYTES)
    for tables in (
        game_tables(),
        counting_tables(not_poker.batch_symbols(), not_poker.SYMBOLS),
    ):
        assert_paths_agree(tables, hands)
        assert_paths_agree(tables, rng.integers(0, CARD_BYTES, (100_003, HAND), dtype=np.uint8))


def test_symbols_that_are_no_function_of_the_rank_take_the_scalar_loop_with_the_same_readings(
    not_poker_isa: str,
) -> None:
    """Shared tables whose symbols differ from ``byte >> 2`` in ways the AVX2 loop cannot
    read by its byte classes (a symbol per byte, suits of a rank apart, the two jokers
    apart, bytes past the deck apart, a symbol of 16 or more): the scalar loop's figures."""
    rng = np.random.default_rng(16)
    by_rank = not_poker.batch_symbols().copy()
    per_byte = (np.arange(CARD_BYTES) % 14).astype(np.uint8)
    suit_apart = by_rank.copy()
    suit_apart[7] = 0
    jokers_apart = by_rank.copy()
    jokers_apart[53] = 12
    past_deck_apart = by_rank.copy()
    past_deck_apart[200] = 5
    wide = by_rank.copy()
    wide[54:] = 17
    cases = [
        counting_tables(per_byte, 14),
        counting_tables(suit_apart, 14),
        counting_tables(jokers_apart, 14),
        counting_tables(past_deck_apart, 14),
        counting_tables(wide, 18),
    ]
    for tables in cases:
        for count in (*range(41), 10_007):
            hands = rng.integers(0, CARD_BYTES, (count, HAND), dtype=np.uint8)
            hands[: count // 2] %= 54
            assert_paths_agree(tables, hands)


def test_symbols_by_rank_that_are_not_the_rank_read_the_same_on_every_path(
    not_poker_isa: str,
) -> None:
    """Symbols that are a function of the byte's rank, joker or no-card class but not
    ``byte >> 2`` (ranks reversed, jokers 0, no card 15; every rank one symbol): the same
    figures on every path."""
    rng = np.random.default_rng(17)
    card = np.arange(CARD_BYTES)
    reversed_ranks = np.where(card < 52, 12 - (card >> 2), np.where(card < 54, 0, 15))
    one_symbol = np.full(CARD_BYTES, 3)
    for symbols, symbol_count in ((reversed_ranks, 16), (one_symbol, 4)):
        tables = counting_tables(symbols.astype(np.uint8), symbol_count)
        for count in (*range(41), 10_007):
            assert_paths_agree(tables, rng.integers(0, CARD_BYTES, (count, HAND), dtype=np.uint8))


def test_rows_of_other_widths_read_the_same_on_every_path(not_poker_isa: str) -> None:
    """Only six places take the AVX2 loop: every other width from 1 to 16 reads as the
    scalar loop and numpy do (past eight places, with four symbols: the tables stay small)."""
    rng = np.random.default_rng(18)
    few = not_poker.batch_symbols() % np.uint8(4)
    for places in range(1, 17):
        if places <= 8:
            tables = counting_tables(not_poker.batch_symbols(), not_poker.SYMBOLS, places)
        else:
            tables = counting_tables(few, 4, places)
        for count in (0, 1, 9, 17, 1_001):
            hands = rng.integers(0, CARD_BYTES, (count, places), dtype=np.uint8)
            assert_paths_agree(tables, hands, places)


def test_set_isa_and_the_variable_force_the_not_poker_path(not_poker_isa: str) -> None:
    """``set_isa`` and ``HANDEVAL_KERNEL_ISA`` switch NotPoker's kernel with the others; a
    path it lacks leaves it on the scalar loop."""
    for name in _not_poker.isas():
        set_isa(name)
        assert _not_poker.isa() == name
        choose_isa({ISA_VARIABLE: " SCALAR "})
        assert _not_poker.isa() == "scalar"
    assert _not_poker.isas()[-1] == "scalar"
    set_isa(not_poker_isa)
    assert _not_poker.isa() == not_poker_isa
