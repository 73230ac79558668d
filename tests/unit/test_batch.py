"""Packed batches: the shape and card checks, the limits, and scores equal to one-by-one."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evaluators import scoring
from evaluators.batch import (
    MAX_ROW_BYTES,
    evaluate_batch,
    full_hands_pass,
    open_batch,
    read_batch,
    score_batch,
    screen,
)
from evaluators.batch_check import check
from evaluators.cards import EMPTY, parse_card, rank_of
from evaluators.errors import BatchTooLarge, InvalidRequest, Stopped, Violation
from evaluators.inputs import BatchRequest, Cards, Game, Options
from evaluators.kernels import _screen
from evaluators.registry import GAMES, GameRules
from evaluators.results import BatchResult

POKER = Game.POKER_HIGH
NO_OPTIONS = Options()


def ids(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


def problems(
    game: Game | None, hands: bytes, hand_size: int, tables: bytes = b"", table_size: int = 0
) -> list[Violation]:
    with pytest.raises(InvalidRequest) as caught:
        evaluate_batch(game, hands, hand_size, tables, table_size, NO_OPTIONS, max_hands=1000)
    return list(caught.value.violations)


def fields(violations: list[Violation]) -> list[str]:
    return [v.field for v in violations]


def one_by_one(rules: GameRules, deals: list[tuple[Cards, Cards]], options: Options) -> BatchResult:
    """The obviously-correct batch: evaluate each hand and read its headline."""
    evaluations = [rules.evaluate(hand, table, (), options) for hand, table in deals]
    return BatchResult(
        strength=np.array([e.strength for e in evaluations], dtype=np.uint64),
        low_strength=np.array([e.low_strength for e in evaluations], dtype=np.uint64),
        value=np.array([rules.headline(e) for e in evaluations], dtype=np.int64),
        instant_win=np.array([e.instant_win for e in evaluations], dtype=np.bool_),
    )


def assert_same(got: BatchResult, want: BatchResult) -> None:
    for name in ("strength", "low_strength", "value", "instant_win"):
        assert getattr(got, name).tolist() == getattr(want, name).tolist(), name


def random_table(rules: GameRules, rng: random.Random) -> Cards:
    """A valid table of a random allowed size (ranks all different where the game asks)."""
    size = rng.randint(rules.table_min, rules.table_max)
    table: list[int] = []
    for card in rng.sample(range(52), 52):
        if len(table) == size:
            break
        if not (rules.distinct_table_ranks and rank_of(card) in {rank_of(c) for c in table}):
            table.append(card)
    return tuple(table)


def random_hand(rules: GameRules, rng: random.Random, table: Cards) -> Cards:
    """A valid hand of a random size that fits beside ``table``."""
    low = max(rules.hand_min, rules.cards_min - len(table))
    high = min(rules.hand_max, rules.cards_max - len(table))
    deck = [c for c in range(54 if rules.jokers else 52) if c not in table]
    return tuple(rng.sample(deck, rng.randint(low, high)))


def random_deal(rules: GameRules, rng: random.Random) -> tuple[Cards, Cards]:
    table = random_table(rules, rng)
    return random_hand(rules, rng, table), table


def pack(rows: list[Cards], size: int) -> bytes:
    return b"".join(bytes([*row, *[EMPTY] * (size - len(row))]) for row in rows)


def pack_deals(
    rules: GameRules, deals: list[tuple[Cards, Cards]], shared: bool = False
) -> tuple[bytes, bytes]:
    """(hands, tables) of ``deals`` at the game's widest sizes; ``shared``: the first
    deal's table alone, for every hand."""
    tables = [deals[0][1]] if shared else [table for _, table in deals]
    return pack([hand for hand, _ in deals], rules.hand_max), pack(tables, rules.table_max)


@pytest.mark.parametrize("game", list(Game), ids=lambda g: g.value)
@settings(max_examples=15, deadline=None)
@given(
    rng=st.randoms(use_true_random=False),
    count=st.integers(1, 12),
    shared=st.booleans(),
    options=st.builds(Options, st.booleans(), st.booleans()),
)
def test_a_batch_scores_each_hand_as_evaluate_does(
    game: Game, rng: random.Random, count: int, shared: bool, options: Options
) -> None:
    rules = GAMES[game]
    options = read_options(rules, options)
    if shared:
        table = random_table(rules, rng)
        deals = [(random_hand(rules, rng, table), table) for _ in range(count)]
    else:
        deals = [random_deal(rules, rng) for _ in range(count)]
    hands, tables = pack_deals(rules, deals, shared)
    got = evaluate_batch(
        game, hands, rules.hand_max, tables, rules.table_max, options, max_hands=100
    )
    assert_same(got, one_by_one(rules, deals, options))


def read_options(rules: GameRules, options: Options) -> Options:
    """``options`` with only those a batch of this game reads left on (the rest are refused)."""
    reads = [o for o in rules.options if o not in rules.showdown_options]
    return Options(**{name: getattr(options, name) for name in reads})


@pytest.mark.parametrize("game", list(Game), ids=lambda g: g.value)
def test_the_games_batch_path_equals_the_loop_over_evaluate(game: Game) -> None:
    rules = GAMES[game]
    rng = random.Random(game.value)
    deals = [random_deal(rules, rng) for _ in range(200)]
    hands, tables = pack_deals(rules, deals)
    assert_same(
        evaluate_batch(
            game, hands, rules.hand_max, tables, rules.table_max, NO_OPTIONS, max_hands=1000
        ),
        one_by_one(rules, deals, NO_OPTIONS),
    )


def _mangled(rng: random.Random, rows: np.ndarray, odds: float) -> np.ndarray:
    """``rows`` with a few bytes swapped for a random card, joker, EMPTY or non-card."""
    out = rows.copy()
    for index in np.ndindex(out.shape):
        if rng.random() < odds:
            out[index] = rng.choice([rng.randrange(52), 52, 53, EMPTY, rng.randrange(54, 255)])
    return out


@pytest.mark.parametrize("game", list(Game), ids=lambda g: g.value)
@settings(max_examples=40, deadline=None)
@given(
    rng=st.randoms(use_true_random=False),
    count=st.integers(0, 6),
    shared=st.booleans(),
    odds=st.sampled_from([0.0, 0.02, 0.1, 0.3]),
)
def test_the_fast_screen_passes_a_batch_exactly_when_the_full_check_does(
    game: Game, rng: random.Random, count: int, shared: bool, odds: float
) -> None:
    rules = GAMES[game]
    deals = [random_deal(rules, rng) for _ in range(max(count, 1))][:count]
    hand_size, table_size = rules.hand_max + 1, rules.table_max + rng.randint(0, 1)
    hands = np.frombuffer(pack([h for h, _ in deals], hand_size), np.uint8)
    table_rows = [t for _, t in deals][: 1 if shared else count] or [()]
    tables = np.frombuffer(pack(table_rows, table_size), np.uint8)
    hands = _mangled(rng, hands.reshape(count, hand_size), odds)
    tables = _mangled(rng, tables.reshape(len(table_rows), table_size), odds)
    try:
        check(rules, hands, tables)
        refused = False
    except InvalidRequest:
        refused = True
    assert bool(screen(rules, hands, tables)) is (not refused and count > 0)


@pytest.mark.parametrize("game", list(Game), ids=lambda g: g.value)
@settings(max_examples=60, deadline=None)
@given(
    rng=st.randoms(use_true_random=False),
    count=st.integers(1, 8),
    shared=st.booleans(),
    pool=st.sampled_from([0, 8, 20]),
)
def test_full_rows_pass_the_screen_exactly_when_the_full_check_passes_them(
    game: Game, rng: random.Random, count: int, shared: bool, pool: int
) -> None:
    # Rows with no padding (every byte a card) take the column-comparison screen; a small
    # pool of cards makes repeats and paired tables common, widths go one past each limit.
    # (pool 0: every row dealt from a fresh deck, so most batches are valid.)
    rules = GAMES[game]
    deck = list(range(54 if rules.jokers else 52))
    hand_size = rng.randint(max(rules.hand_min - 1, 1), rules.hand_max + 1)
    table_size = rng.randint(max(rules.table_min - 1, 0), rules.table_max + 1)
    if pool:
        cards = rng.sample(deck, min(pool, len(deck)))
        dealt = [[rng.choice(cards) for _ in range(hand_size + table_size)] for _ in range(count)]
    else:
        dealt = [rng.sample(deck, hand_size + table_size) for _ in range(count)]
    hands = np.array([row[:hand_size] for row in dealt], dtype=np.uint8)
    tables = np.array(
        [row[hand_size:] for row in dealt[: 1 if shared else count]], dtype=np.uint8
    ).reshape(1 if shared else count, table_size)
    try:
        check(rules, hands, tables)
        refused = False
    except InvalidRequest:
        refused = True
    assert bool(screen(rules, hands, tables)) is not refused


FULL_ROWS_PASSED = _screen.PASSED | _screen.HANDS_FULL | _screen.TABLES_FULL
"""The verdict on full rows that pass in the first try (not screened again row by row)."""

OWN_TABLE_SHAPES = [
    (Game.FLOP_A, 3, 5),
    (Game.THREE_THIRTY_THREE, 3, 4),
    (Game.NUMBERS, 5, 7),
    (POKER, 2, 5),
]
"""Hands with a table each as game servers send them: hand and table in 8 bytes or
fewer (two rows to each 16-byte lane of the vector screen), and more (one row)."""

BREAKS: dict[str, Callable[[list[int], list[int]], None]] = {
    "a card twice in the hand": lambda hand, table: hand.__setitem__(1, hand[0]),
    "a table card in the hand": lambda hand, table: hand.__setitem__(0, table[-1]),
    "a card twice on the table": lambda hand, table: table.__setitem__(1, table[0]),
    "the table pairs": lambda hand, table: table.__setitem__(1, table[0] ^ 1),
    "a joker": lambda hand, table: table.__setitem__(-1, 52),
    "a byte that is no card": lambda hand, table: hand.__setitem__(-1, 200),
}


def _own_table_rows(
    rng: random.Random, count: int, width: int, table_width: int
) -> list[list[int]]:
    """Valid rows of a hand and a table of distinct ranks, from one deck each."""
    rows = []
    for _ in range(count):
        table = [4 * rank + rng.randrange(4) for rank in rng.sample(range(13), table_width)]
        rest = [card for card in range(52) if card not in table]
        rows.append(rng.sample(rest, width) + table)
    return rows


@pytest.mark.parametrize(("game", "width", "table_width"), OWN_TABLE_SHAPES)
def test_one_broken_row_anywhere_among_hands_with_their_own_tables_fails_the_screen(
    game: Game, width: int, table_width: int
) -> None:
    """Every batch length to 40 and one longer, the broken row first, last or anywhere:
    the vector screen's steps, the rows they leave and their loads' last reach."""
    rules = GAMES[game]
    rng = random.Random(f"{game.value}{width}")
    for count in [*range(1, 41), 131]:
        rows = _own_table_rows(rng, count, width, table_width)
        matrix = np.array(rows, dtype=np.uint8)
        hands, tables = matrix[:, :width].copy(), matrix[:, width:].copy()
        assert screen(rules, hands, tables) == FULL_ROWS_PASSED, "valid rows pass as full rows"
        for name, broken in BREAKS.items():
            if name == "the table pairs" and not rules.distinct_table_ranks:
                continue
            for row in {0, count - 1, rng.randrange(count)}:
                hand, table = list(rows[row][:width]), list(rows[row][width:])
                broken(hand, table)
                bad_hands, bad_tables = hands.copy(), tables.copy()
                bad_hands[row], bad_tables[row] = hand, table
                with pytest.raises(InvalidRequest):
                    check(rules, bad_hands, bad_tables)
                assert not screen(rules, bad_hands, bad_tables), (name, count, row)


def test_an_empty_or_too_wide_batch_is_left_to_the_full_check() -> None:
    rules = GAMES[POKER]
    empty = np.zeros((0, 2**31), dtype=np.uint8)
    assert not screen(rules, empty, np.zeros((1, 0), dtype=np.uint8))
    wide = np.full((1, MAX_ROW_BYTES + 1), EMPTY, dtype=np.uint8)
    wide[0, :5] = ids("Ah Kh Qh Jh Th")
    assert not screen(rules, wide, np.zeros((1, 0), dtype=np.uint8))
    with pytest.raises(InvalidRequest):
        evaluate_batch(POKER, wide.tobytes(), wide.shape[1], b"", 0, NO_OPTIONS, max_hands=1)


def test_255_pads_a_shorter_hand_anywhere_in_its_slots() -> None:
    padded = bytes([EMPTY, *ids("Ah Kh"), EMPTY, *ids("Qh Jh Th"), EMPTY])
    plain = bytes(ids("Ah Kh Qh Jh Th"))
    got = evaluate_batch(POKER, padded, 8, b"", 0, NO_OPTIONS, max_hands=10)
    want = evaluate_batch(POKER, plain, 5, b"", 0, NO_OPTIONS, max_hands=10)
    assert_same(got, want)


def test_one_table_serves_every_hand_and_a_table_per_hand_serves_its_own() -> None:
    hands = bytes(ids("Ah Kh") + ids("2c 7d"))
    board = bytes(ids("Qh Jh Th"))
    shared = evaluate_batch(POKER, hands, 2, board, 3, NO_OPTIONS, max_hands=10)
    each = evaluate_batch(POKER, hands, 2, board * 2, 3, NO_OPTIONS, max_hands=10)
    assert_same(shared, each)
    assert shared.value.tolist() == [1, shared.value[1]] and shared.value[1] > 1


def test_an_empty_batch_has_empty_answers() -> None:
    result = evaluate_batch(POKER, b"", 7, b"", 0, NO_OPTIONS, max_hands=10)
    assert [len(a) for a in (result.strength, result.value, result.instant_win)] == [0, 0, 0]


def test_more_hands_than_the_limit_is_too_large_before_any_card_is_read() -> None:
    with pytest.raises(BatchTooLarge) as caught:
        evaluate_batch(POKER, bytes([200]) * 11, 1, b"", 0, NO_OPTIONS, max_hands=10)
    assert (caught.value.hands, caught.value.limit) == (11, 10)
    assert "10" in str(caught.value)


def test_a_missing_game_is_named() -> None:
    assert fields(problems(None, bytes(5), 5)) == ["game"]


@pytest.mark.parametrize(
    ("hands", "hand_size", "tables", "table_size", "field"),
    [
        (bytes(7), 5, b"", 0, "hands"),
        (bytes(5), 0, b"", 0, "hand_size"),
        (bytes(ids("Ah Kh Qh Jh Th")), 5, bytes(2), 0, "table_size"),
        (bytes(ids("Ah Kh") * 3), 2, bytes(ids("2c 3c 4c")) * 2, 3, "tables"),
    ],
    ids=["hands-not-whole", "hand-size-zero", "table-size-zero", "tables-neither-one-nor-each"],
)
def test_bytes_that_do_not_fit_the_sizes_are_named(
    hands: bytes, hand_size: int, tables: bytes, table_size: int, field: str
) -> None:
    assert field in fields(problems(POKER, hands, hand_size, tables, table_size))


def _poker_hands(count: int, bad: dict[int, list[int]]) -> bytes:
    good = ids("Ah Kh Qh Jh Th")
    return b"".join(bytes(bad.get(i, good)) for i in range(count))


@pytest.mark.parametrize(
    ("bad_hand", "words"),
    [
        ([*ids("Ah Kh Qh Jh"), 60], "not a card"),
        ([*ids("Ah Kh Qh Jh"), 52], "joker"),
        (ids("Ah Kh Qh Jh Ah"), "hand[4]: duplicate card 'Ah': also at hand[0]"),
        ([*ids("Ah Kh Qh Jh"), EMPTY], "4 cards"),
    ],
    ids=["byte-not-a-card", "joker", "duplicate", "too-few-cards"],
)
def test_a_bad_hand_fails_the_batch_naming_its_index(bad_hand: list[int], words: str) -> None:
    [violation] = problems(POKER, _poker_hands(20, {17: bad_hand}), 5)
    assert violation.field == "hands[17]"
    assert words in violation.message


def test_jokers_are_cards_in_not_poker() -> None:
    hand = bytes([*ids("As Ad Ac 2h 2d"), 52])
    result = evaluate_batch(Game.NOT_POKER, hand, 6, b"", 0, NO_OPTIONS, max_hands=1)
    assert result.value.tolist() == [1]


def test_a_card_in_both_hand_and_table_is_a_duplicate_of_the_hand() -> None:
    hands = bytes(ids("Ah Kh") + ids("2c 7d"))
    violations = problems(POKER, hands, 2, bytes(ids("Qh Jh 2c")), 3)
    assert violations == [Violation("hands[1]", "table[2]: duplicate card '2c': also at hand[0]")]


def test_a_duplicate_names_each_repeated_card_and_its_places_as_the_single_path_does() -> None:
    """Places count the row's bytes as sent (padding included); with no table sent, only
    the hand is named."""
    hand = [*ids("Ah Kh"), EMPTY, *ids("Ah Kh 2c 3c")]
    [violation] = problems(POKER, bytes(hand), 7)
    assert violation == Violation(
        "hands[0]",
        "hand[3]: duplicate card 'Ah': also at hand[0]; "
        "hand[4]: duplicate card 'Kh': also at hand[1]",
    )


def test_a_repeated_byte_that_is_no_card_is_named_once_as_no_card() -> None:
    [violation] = problems(POKER, bytes([*ids("Ah Kh Qh"), 200, 200]), 5)
    assert "duplicate" not in violation.message and "not a card" in violation.message


def test_a_paired_table_in_a_discard_game_is_named_by_its_index() -> None:
    tables = bytes(ids("2c 3c") * 17 + ids("2c 2d") + ids("2c 3c"))
    violations = problems(Game.NUMBERS, bytes([51]) * 19, 1, tables, 2)
    assert violations == [
        Violation(
            "tables[17]",
            "table[1]: the table pairs: 2d has the rank 2 of table[0]; "
            "the dealer replaces a pairing card",
        )
    ]


def test_a_table_of_the_wrong_size_is_named() -> None:
    hands = bytes(ids("Ah Kd 5c 9s Tc"))
    violations = problems(Game.HIGH_CARD, hands, 5, bytes(ids("2s 3h 4d")), 3)
    assert fields(violations) == ["tables[0]"]
    assert "5" in violations[0].message


def test_ten_bad_hands_are_listed_and_the_rest_counted() -> None:
    bad = {i: [EMPTY] * 5 for i in range(3, 40)}
    violations = problems(POKER, _poker_hands(50, bad), 5)
    assert fields(violations) == [f"hands[{i}]" for i in range(3, 13)] + ["hands"]
    assert violations[-1].message.startswith("27 more hands")


def test_bad_tables_share_the_ten_listed_with_bad_hands() -> None:
    hands = bytes([51, 200] * 8)
    tables = bytes(ids("2c 2d")) * 8
    violations = problems(Game.NUMBERS, hands, 2, tables, 2)
    assert fields(violations) == [f"hands[{i}]" for i in range(8)] + [
        "tables[0]",
        "tables[1]",
        "tables",
    ]


def test_the_batch_stops_after_its_first_chunk_when_told_the_caller_is_gone() -> None:
    hands = np.array([ids("Ah Kh Qh Jh Th")] * (scoring.FIRST_CHUNK_HANDS + 1), dtype=np.uint8)
    request = BatchRequest(POKER, hands, np.zeros((1, 0), dtype=np.uint8), NO_OPTIONS)
    asked = []

    def keep_going() -> bool:
        asked.append(True)
        return False

    with pytest.raises(Stopped, match=f"after {scoring.FIRST_CHUNK_HANDS} of"):
        scoring.evaluate_batch(request, keep_going)
    assert len(asked) == 1


def test_a_batch_of_several_chunks_equals_one_chunk_at_a_time() -> None:
    rules = GAMES[POKER]
    rng = random.Random(7)
    deals = [random_deal(rules, rng) for _ in range(scoring.FIRST_CHUNK_HANDS * 3 + 5)]
    hands, tables = pack_deals(rules, deals)
    chunks = []

    def keep_going() -> bool:
        chunks.append(True)
        return True

    got = evaluate_batch(
        POKER, hands, rules.hand_max, tables, rules.table_max, NO_OPTIONS, 100_000, keep_going
    )
    assert chunks, "scored in more than one chunk"
    assert_same(got, one_by_one(rules, deals, NO_OPTIONS))


def two_pass(
    game: Game, hands: bytes, hand_size: int, tables: bytes, table_size: int
) -> BatchResult | list[Violation]:
    """``read_batch`` (the screen, then ``check``) and ``scoring.evaluate_batch``: the
    result, or the problems named."""
    try:
        request = read_batch(game, hands, hand_size, tables, table_size, NO_OPTIONS, 10**6)
    except InvalidRequest as refused:
        return list(refused.violations)
    return scoring.evaluate_batch(request)


def one_call(
    game: Game,
    hands: bytes,
    hand_size: int,
    tables: bytes,
    table_size: int,
    keep_going: Callable[[], bool] | None = None,
) -> BatchResult | list[Violation]:
    try:
        return evaluate_batch(
            game, hands, hand_size, tables, table_size, NO_OPTIONS, 10**6, keep_going
        )
    except InvalidRequest as refused:
        return list(refused.violations)


@pytest.mark.parametrize(("hand_size", "table_size"), [(7, 0), (5, 0), (6, 0), (2, 5), (3, 3)])
def test_one_pass_batches_score_and_fail_as_the_two_pass_path(
    hand_size: int, table_size: int
) -> None:
    # Poker high checks full hands on a shared table while it scores them: the same
    # figures, and for a batch with a bad hand (out of range, a joker, padding, a repeat,
    # a card of the table, too few cards) the same problems, named the same way.
    rng = np.random.default_rng(hand_size * 10 + table_size)
    for _ in range(60):
        count = int(rng.integers(1, 60))
        deal = np.random.default_rng(int(rng.integers(1 << 30))).permuted(
            np.tile(np.arange(52, dtype=np.uint8), (count, 1)), axis=1
        )
        table = deal[0, hand_size : hand_size + table_size].copy()
        rows = deal[:, :hand_size].copy()
        rows = rows[~np.isin(rows, table).any(axis=1)]
        if not len(rows):
            continue
        if rng.random() < 0.7:
            row, place = int(rng.integers(len(rows))), int(rng.integers(hand_size))
            spoiled = [EMPTY, 52, 53, 60, 255, int(rows[row, (place + 1) % hand_size])]
            spoiled += table.tolist()
            rows[row, place] = spoiled[int(rng.integers(len(spoiled)))]
        hands, tables = rows.tobytes(), table.tobytes()
        got = one_call(POKER, hands, hand_size, tables, table_size)
        want = two_pass(POKER, hands, hand_size, tables, table_size)
        if isinstance(want, list):
            assert got == want
        else:
            assert isinstance(got, BatchResult)
            assert_same(got, want)


def test_a_bad_hand_in_a_later_chunk_is_named_as_the_two_pass_path_names_it() -> None:
    first = scoring.first_chunk_hands(GAMES[POKER].batch_cost)
    rows = np.array([ids("Ah Kh Qh Jh 9d 8c 2s")] * (first * 2 + 3), np.uint8)
    rows[-5, 6] = rows[-5, 1]
    got = one_call(POKER, rows.tobytes(), 7, b"", 0, keep_going=lambda: True)
    assert got == two_pass(POKER, rows.tobytes(), 7, b"", 0)
    assert isinstance(got, list)
    assert [v.field for v in got] == [f"hands[{len(rows) - 5}]"]


def test_the_one_pass_first_chunk_is_what_the_games_cost_puts_in_a_chunk() -> None:
    poker = GAMES[POKER].batch_cost
    assert scoring.first_chunk_hands(poker) * poker.cpu_ns <= scoring.CHUNK_SECONDS * 1e9
    assert scoring.first_chunk_hands(poker) > 100_000, "a 100,000-hand batch is one call"
    dear = replace(poker, cpu_ns=10**6)
    assert scoring.first_chunk_hands(dear) == scoring.FIRST_CHUNK_HANDS


@pytest.mark.parametrize(("width", "table_size"), [(w, t) for w in range(0, 9) for t in (0, 3, 5)])
def test_a_shape_passes_without_its_first_hand_exactly_when_a_valid_first_hand_does(
    width: int, table_size: int
) -> None:
    # ``full_hands_pass`` screens the lowest cards the table leaves, once per shape: the
    # same verdict as the screen of a real hand of valid, distinct cards off the table.
    rules = GAMES[POKER]
    deal = np.random.default_rng(width * 10 + table_size).permutation(52).astype(np.uint8)
    table, hand = deal[:table_size].reshape(1, -1), deal[table_size : table_size + width]
    want = screen(rules, hand.reshape(1, width), table) != 0 if width else False
    assert full_hands_pass(POKER, width, table.tobytes()) == want


def test_a_row_wider_than_any_game_is_refused_before_any_work() -> None:
    with pytest.raises(InvalidRequest) as caught:
        evaluate_batch(Game.POKER_HIGH, bytes(700), 7, bytes(4_000_000), 4_000_000, Options(), 100)
    assert [v.field for v in caught.value.violations] == ["table_size"]


def test_opening_a_batch_checks_its_shape_and_leaves_its_cards_to_the_scoring() -> None:
    """The server's ``batch.read`` phase opens the batch; its cards are screened as they
    are scored (``batch.score``), so a repeated card is found there, named as ever."""
    rows = np.array([ids("Ah Kh Qh Jh 9d 8c 2s")] * 40, np.uint8)
    rows[17, 6] = rows[17, 0]
    opened = open_batch(POKER, rows.tobytes(), 7, b"", 0, NO_OPTIONS, max_hands=40)
    assert opened.hands.shape == (40, 7)
    with pytest.raises(InvalidRequest) as caught:
        score_batch(opened)
    assert [v.field for v in caught.value.violations] == ["hands[17]"]
    with pytest.raises(InvalidRequest) as shape:
        open_batch(POKER, rows.tobytes()[:-1], 7, b"", 0, NO_OPTIONS, max_hands=40)
    assert [v.field for v in shape.value.violations] == ["hands"]
