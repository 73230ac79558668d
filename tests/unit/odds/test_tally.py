"""Odds' compiled kernels (``kernels._odds``) against their numpy references.

The discard rule (``array_showdown.discard_figures``) against ``discard.odds_figures``, on
every layout a chunk's cards come in. The pot rules and tally (each game's ``CompiledPot``) against
each game's numpy pot rule (``OddsGame.showdown`` and ``array_showdown.first_out``), run-out by
run-out: the same seats take the same pots split the same ways, the same instant wins and
redeals, on the figures of real deals and on adversarial ones (every seat tied, ties at
every level, instant wins for several seats at once, every Flop-A declaration).

Counted tallies are compared exactly; weighted ones (the discard games' exact enumeration)
to the numpy sums within a few ulps, as their order of addition differs. Every test is
seeded.
"""

from __future__ import annotations

import dataclasses
import itertools
from fractions import Fraction

import numpy as np
import numpy.typing as npt
import pytest

from evaluators import discard, poker
from evaluators.cards import card_text
from evaluators.errors import InvalidRequest
from evaluators.game_odds import Declarations, DiscardScore, Figures, Matrix, OddsGame
from evaluators.inputs import Declaration, Game, Options
from evaluators.kernels import _odds
from evaluators.odds import (
    OddsRequest,
    OddsSeat,
    odds,
    plan_odds,
    read_odds,
    run_odds,
    serves_odds,
)
from evaluators.odds.tally import Tally
from evaluators.point_totals import kept_result
from evaluators.registry import GAMES
from evaluators.runouts import showdown as array_showdown
from evaluators.runouts.deal import chunk_seed, enumerate_completions, sample_completions, tile
from evaluators.runouts.showdown import first_out

ODDS_GAMES = [game for game in GAMES if serves_odds(game)]
DECLARATIONS = (Declaration.HIGH, Declaration.LOW, Declaration.BOTH)


def _rules(game: Game) -> OddsGame:
    rules = GAMES[game].odds
    assert rules is not None
    return rules


def _kernel(
    game: Game,
    figures: Figures,
    declarations: Declarations,
    weights: npt.NDArray[np.float64] | None = None,
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """The compiled tally of one chunk: (sums with their carries folded in, squares)."""
    rules = _rules(game)
    pot = rules.pot
    seats, pots = figures.strength.shape[0], len(GAMES[game].pots)
    items = seats * pots * (2 * seats + 1) + seats + 2
    sums = np.zeros(2 * items)
    squares = np.zeros(2 * seats)
    goes = [pot.goes(d) for d in declarations] if pot.goes else []
    empty = np.zeros(0, dtype=np.int64)
    _odds.tally(
        pot.shape,
        pots,
        -1 if pot.instant_pot is None else pot.instant_pot,
        pot.split_at,
        seats,
        np.ascontiguousarray(figures.strength),
        np.ascontiguousarray(getattr(figures, pot.second)) if pot.second else empty,
        empty if pot.instant_pot is None else np.ascontiguousarray(figures.out_after),
        bytes(high for high, _ in goes),
        bytes(low for _, low in goes),
        np.zeros(0) if weights is None else weights,
        sums,
        squares,
    )
    return sums[:items] + sums[items:], squares[:seats] + squares[seats:]


def _reference(
    game: Game,
    figures: Figures,
    declarations: Declarations,
    weights: npt.NDArray[np.float64] | None = None,
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """The same tally from the numpy pot rule: each seat's non-zero fraction of a pot is
    1/d of the whole pot (d seats sharing it whole, or d/2 a half), counted at bucket d."""
    rules = _rules(game)
    split = rules.showdown(figures, declarations)
    seats, pots, count = split.fractions.shape
    buckets = 2 * seats + 1
    weight = np.ones(count) if weights is None else weights
    sums = np.zeros(seats * pots * buckets + seats + 2)
    for s, p, r in zip(*np.nonzero(split.fractions), strict=True):
        d = round(1 / split.fractions[s, p, r])
        assert split.fractions[s, p, r] == 1 / d, "every share is 1/d of the pot"
        sums[(s * pots + p) * buckets + d] += weight[r]
    if GAMES[game].distinct_table_ranks:
        sums[seats * pots * buckets : seats * pots * buckets + seats] = (
            first_out(figures.out_after) @ weight
        )
    sums[-2] = split.redeal @ weight
    sums[-1] = weight.sum()
    seat = split.fractions.sum(axis=1)
    return sums, np.square(seat) @ weight


def _deal_figures(game: Game, seats: int, count: int, seed: int) -> tuple[Figures, Declarations]:
    """Figures of ``count`` sampled run-outs of ``seats`` seats with nothing known."""
    rules = _rules(game)
    declarations = [DECLARATIONS[s % 3] if game is Game.FLOP_A else None for s in range(seats)]
    request = read_odds(
        game, [(f"p{s}", [], rules.hand_max, declarations[s]) for s in range(seats)]
    )
    rows = sample_completions(plan_odds(request, 1).plan, np.random.default_rng(seed), count)
    width = rules.hand_max
    hands = [rows[:, s * width : (s + 1) * width] for s in range(seats)]
    return rules.figures(hands, rows[:, seats * width :], Options()), declarations


def _adversarial_figures(
    game: Game, seats: int, count: int, seed: int
) -> tuple[Figures, Declarations]:
    """Figures from a handful of values, so that ties (often of every seat) are common, and
    in the discard games several seats run out at once; Flop-A seats declare at random."""
    rng = np.random.default_rng(seed)
    top = 5 if game is Game.HIGH_CARD else 3  # High Card: 5 checks survived splits a tie

    def figure(high: int) -> npt.NDArray[np.int64]:
        return rng.integers(0, high + 1, size=(seats, count), dtype=np.int64)

    out_after = np.zeros((seats, count), dtype=np.int64)
    if GAMES[game].distinct_table_ranks:
        out_after = figure(3) * (rng.random((seats, count)) < 0.3)
    figures = Figures(figure(top), figure(top), figure(top), out_after)
    declarations = [
        DECLARATIONS[int(rng.integers(3))] if game is Game.FLOP_A else None for _ in range(seats)
    ]
    return figures, declarations


@pytest.mark.parametrize("game", ODDS_GAMES, ids=[game.value for game in ODDS_GAMES])
@pytest.mark.parametrize("seats", [2, 3, 4, 7])
def test_the_compiled_tally_counts_what_the_numpy_pot_rule_awards_on_dealt_run_outs(
    game: Game, seats: int
) -> None:
    """Counted by outcome up to 5 seats (``_odds/odds.h``'s CODED_SEATS), by blocks past it."""
    try:
        figures, declarations = _deal_figures(game, seats, 4_000, seed=seats)
    except InvalidRequest:
        pytest.skip(f"{game.value} deals no {seats} hands (its table needs the cards)")
    sums, squares = _kernel(game, figures, declarations)
    expected, expected_squares = _reference(game, figures, declarations)
    np.testing.assert_array_equal(sums, expected)
    np.testing.assert_allclose(squares, expected_squares, rtol=1e-13)


@pytest.mark.parametrize("game", ODDS_GAMES, ids=[game.value for game in ODDS_GAMES])
@pytest.mark.parametrize("seats", [2, 3, 5, 9])
def test_the_compiled_tally_counts_ties_instant_wins_and_redeals_as_the_numpy_rule(
    game: Game, seats: int
) -> None:
    figures, declarations = _adversarial_figures(game, seats, 6_000, seed=seats)
    sums, squares = _kernel(game, figures, declarations)
    expected, expected_squares = _reference(game, figures, declarations)
    np.testing.assert_array_equal(sums, expected)
    np.testing.assert_allclose(squares, expected_squares, rtol=1e-13)


@pytest.mark.parametrize("game", ODDS_GAMES, ids=[game.value for game in ODDS_GAMES])
def test_every_seat_tied_splits_every_pot_it_awards_among_all(game: Game) -> None:
    seats = 4
    zeros = np.zeros((seats, 10), dtype=np.int64)
    figures = Figures(zeros + 2, zeros + 2, zeros + 2, zeros)
    declarations = [Declaration.BOTH if game is Game.FLOP_A else None] * seats
    sums, _ = _kernel(game, figures, declarations)
    expected, _ = _reference(game, figures, declarations)
    np.testing.assert_array_equal(sums, expected)


@pytest.mark.parametrize("game", [g for g in ODDS_GAMES if GAMES[g].distinct_table_ranks])
def test_weighted_tallies_equal_the_numpy_sums_within_rounding(game: Game) -> None:
    figures, declarations = _adversarial_figures(game, 4, 5_000, seed=7)
    weights = np.random.default_rng(8).random(5_000) / 5_000
    sums, squares = _kernel(game, figures, declarations, weights)
    expected, expected_squares = _reference(game, figures, declarations, weights)
    np.testing.assert_allclose(sums, expected, rtol=1e-13, atol=1e-18)
    np.testing.assert_allclose(squares, expected_squares, rtol=1e-13)


def test_flop_a_every_declaration_pattern_of_three_seats() -> None:
    """Every assignment of HIGH, LOW and BOTH to three seats, over adversarial figures."""
    figures, _ = _adversarial_figures(Game.FLOP_A, 3, 2_000, seed=11)
    for declarations in itertools.product(DECLARATIONS, repeat=3):
        sums, _ = _kernel(Game.FLOP_A, figures, declarations)
        expected, _ = _reference(Game.FLOP_A, figures, declarations)
        np.testing.assert_array_equal(sums, expected)


def test_instant_wins_are_tallied_exactly_where_hands_can_run_out() -> None:
    for game in ODDS_GAMES:
        assert (_rules(game).pot.instant_pot is None) != GAMES[game].distinct_table_ranks, game


def test_the_kernel_refuses_a_buffer_of_the_wrong_size() -> None:
    key = np.zeros((2, 5), dtype=np.int64)
    with pytest.raises(ValueError, match="sums"):
        _odds.tally(
            _odds.BEST, 1, -1, 0, 2, key, key[:0], key[:0], b"", b"", np.zeros(0),
            np.zeros(3), np.zeros(4),
        )  # fmt: skip


def _exact_reference(request: OddsRequest) -> list[tuple[Fraction, list[Fraction]]]:
    """Per seat, its exact share and its pots' from the numpy pot rule over every
    equally likely completion (the table-pairing games): sums of 1/d, divided once."""
    rules = _rules(request.game)
    planned = plan_odds(request)
    assert planned.exact and not GAMES[request.game].distinct_table_ranks
    seats, pots = len(request.seats), len(GAMES[request.game].pots)
    share = [[Fraction(0)] * pots for _ in range(seats)]
    total = 0
    for rows, _ in enumerate_completions(planned.plan, 100_000):
        hands, column = [], 0
        for seat in request.seats:
            known = np.broadcast_to(
                np.array(seat.hand, dtype=np.uint8), (len(rows), len(seat.hand))
            )
            hands.append(np.hstack([known, rows[:, column : column + seat.unknown]]))
            column += seat.unknown
        table = np.hstack(
            [
                np.broadcast_to(
                    np.array(request.table, dtype=np.uint8), (len(rows), len(request.table))
                ),
                rows[:, column:],
            ]
        )
        split = rules.showdown(rules.figures(hands, table, request.options), [None] * seats)
        total += len(rows)
        for s, p, r in zip(*np.nonzero(split.fractions), strict=True):
            share[s][p] += Fraction(1, round(1 / split.fractions[s, p, r]))
    return [(sum(row, Fraction(0)) / total, [x / total for x in row]) for row in share]


@pytest.mark.parametrize(
    ("game", "hands", "unknown", "table"),
    [
        (Game.POKER_HIGH, ["Ah Kd", "Qc", "7s 7d"], [0, 1, 0], "2c 9h Td"),
        (Game.POKER_HIGH, ["Ah", "Qc", "7s 7d", "Td"], [1, 0, 0, 0], "2c 9h 8d Jc"),
        (Game.HIGH_CARD, ["Ah Kd Qs Jc", "2c 3c 4c 5c"], [1, 1], "7c 8h Ts 9d"),
    ],
)
def test_exact_counted_odds_are_the_exact_fractions_rounded_once(
    game: Game, hands: list[str], unknown: list[int], table: str
) -> None:
    request = read_odds(
        game,
        [(f"p{s}", hand.split(), unknown[s], None) for s, hand in enumerate(hands)],
        table.split(),
    )
    result = odds(request)
    for seat, (share, pot_shares) in zip(result.seats, _exact_reference(request), strict=True):
        assert seat.share == float(share)
        assert [pot.share for pot in seat.pots] == [float(x) for x in pot_shares]


def test_a_request_of_many_seats_tallies_beyond_the_small_cases() -> None:
    """23 Poker high seats (the Odds flood's request), sampled: shares sum to 1 and every
    seat's is near 1/23."""
    request = OddsRequest(Game.POKER_HIGH, tuple(OddsSeat(f"p{i}", (), 2) for i in range(23)))
    result = odds(request, samples=20_000, seed=2)
    assert sum(seat.share for seat in result.seats) + result.redeal == pytest.approx(1, abs=1e-12)
    assert all(abs(seat.share - 1 / 23) < 0.015 for seat in result.seats)


def _discard_deals(
    rng: np.random.Generator, count: int, hand: int, table: int
) -> tuple[Matrix, Matrix]:
    """``count`` run-outs of a discard game's seat: ``hand`` cards and a table of ``table``
    distinct ranks (first a few cards of one rank, so that hands run out often)."""
    hands = np.empty((count, hand), dtype=np.uint8)
    tables = np.empty((count, table), dtype=np.uint8)
    for r in range(count):
        ranks = rng.permutation(13)[:table]
        tables[r] = ranks * 4 + rng.integers(0, 4, size=table)
        pool = np.setdiff1d(np.arange(52), tables[r])
        narrow = table > 1 and rng.random() < 0.5
        candidates = pool[np.isin(pool >> 2, ranks)] if narrow else pool
        hands[r] = rng.choice(candidates, size=hand, replace=False)
    return hands, tables


@pytest.mark.parametrize(("hand", "table"), [(5, 7), (3, 4), (3, 5), (5, 0), (1, 2)])
def test_the_compiled_discard_rule_equals_numpys_on_every_layout(hand: int, table: int) -> None:
    """Row-major, position-major (a sampled chunk's) and one row repeated (a known hand or
    table), with random values per card: kept sums and out_after alike."""
    rng = np.random.default_rng([hand, table])
    values = rng.integers(0, 2**16, size=256, dtype=np.uint16)
    compiled = array_showdown.discard_figures(DiscardScore(values, kept_result))
    reference = discard.odds_figures(values, kept_result)
    hands, tables = _discard_deals(rng, 3_000, hand, table)
    position_major = np.ascontiguousarray(np.hstack([hands, tables]).T).T
    layouts = {
        "rows": ([hands, hands[::-1].copy()], tables),
        "positions": ([position_major[:, :hand]], position_major[:, hand:]),
        "known hand": ([hands[:1], hands], tables),
        "known table": ([hands], tables[:1]),
    }
    for name, (seat_hands, seat_table) in layouts.items():
        ours = compiled(seat_hands, seat_table, Options())
        theirs = reference(seat_hands, seat_table, Options())
        for field in ("strength", "low_strength", "value", "out_after"):
            np.testing.assert_array_equal(
                getattr(ours, field), getattr(theirs, field), err_msg=f"{name}: {field}"
            )


def test_the_compiled_discard_rule_refuses_strides_past_its_buffer() -> None:
    cards = np.zeros(10, dtype=np.uint8)
    kept, outs = np.zeros(4, dtype=np.uint16), np.zeros(4, dtype=np.int64)
    values = np.zeros(256, dtype=np.uint16)
    with pytest.raises(ValueError, match="hand"):
        _odds.discard_seat(values, cards, (3, 1, 3), cards, (0, 1, 2), 4, kept, outs)


DISCARD_GAMES = [game for game in ODDS_GAMES if _rules(game).discard is not None]


@pytest.mark.parametrize("game", DISCARD_GAMES, ids=[game.value for game in DISCARD_GAMES])
@pytest.mark.parametrize("weighted", [False, True])
def test_a_discard_chunk_in_one_call_tallies_as_its_figures_then_the_tally(
    game: Game, weighted: bool
) -> None:
    """``_odds.discard_tally`` (cards to tally in one call) against ``discard_seat``'s
    figures then ``tally``, with a known hand, a known table card and the rest dealt
    position-major (as sampled), over more run-outs than one block."""
    rules = _rules(game)
    discard_rules = rules.discard
    assert discard_rules is not None
    declarations = [DECLARATIONS[s % 3] if game is Game.FLOP_A else None for s in range(3)]
    known = ["2c 3d", "", ""]
    seats = [
        (f"p{s}", known[s].split(), rules.hand_max - len(known[s].split()), declarations[s])
        for s in range(3)
    ]
    request = read_odds(game, seats, ["Kh"])
    rows = sample_completions(plan_odds(request, 1).plan, np.random.default_rng(3), 1_000)
    hands, column = [], 0
    for seat in request.seats:
        dealt = rows[:, column : column + seat.unknown]
        known_cards = np.broadcast_to(
            np.array(seat.hand, dtype=np.uint8), (len(rows), len(seat.hand))
        )
        hands.append(np.hstack([known_cards, dealt]) if seat.hand else dealt)
        column += seat.unknown
    table = np.hstack([np.full((len(rows), 1), request.table[0], dtype=np.uint8), rows[:, column:]])
    weights = np.random.default_rng(4).random(len(rows)) if weighted else None
    pot = rules.pot
    pots = len(GAMES[game].pots)
    items = 3 * pots * 7 + 3 + 2
    sums, squares = np.zeros(2 * items), np.zeros(6)
    goes = [pot.goes(d) for d in declarations] if pot.goes else []
    _odds.discard_tally(
        pot.shape, pots, -1 if pot.instant_pot is None else pot.instant_pot, pot.split_at,
        {"low_strength": 1, "value": 2}.get(pot.second or "", 0),
        bytes(h for h, _ in goes), bytes(low for _, low in goes),
        discard_rules.values, discard_rules.scores,
        tuple(array_showdown.in_place(hand) for hand in hands), *array_showdown.in_place(table),
        len(rows), np.zeros(0) if weights is None else weights, sums, squares,
    )  # fmt: skip
    figures = rules.figures(hands, table, Options())
    expected, expected_squares = _kernel(game, figures, declarations, weights)
    np.testing.assert_array_equal(sums[:items] + sums[items:], expected)
    np.testing.assert_allclose(squares[:3] + squares[3:], expected_squares, rtol=1e-13)


@pytest.mark.parametrize("game", DISCARD_GAMES, ids=[game.value for game in DISCARD_GAMES])
def test_a_discard_games_score_table_is_its_score_of_every_kept_sum(game: Game) -> None:
    discard_rules = _rules(game).discard
    assert discard_rules is not None
    sums = np.array([0, 1, 257, 4095, 65535], dtype=np.uint16)
    result = discard_rules.score(sums)
    for row, field in enumerate((result.strength, result.low_strength, result.value)):
        np.testing.assert_array_equal(discard_rules.scores[row, sums], field.astype(np.int64))


SCORED_GAMES = [game for game in ODDS_GAMES if _rules(game).scored is not None]


def _scored_case(
    game: Game, seats: int, seed: int, count: int
) -> tuple[OddsRequest, list[Matrix], Matrix]:
    """A request of ``seats`` seats (the first's hand known, the second's in part, the rest
    dealt; the table in part where the game has one) and ``count`` sampled run-outs of it,
    each seat's hand and the table as ``odds`` joins them (a sampled chunk is
    position-major: the dealt cards are read in place)."""
    rules = _rules(game)
    rng = np.random.default_rng([seed, seats])
    deck = [int(card) for card in rng.permutation(52)]
    names = [card_text(card) for card in deck]
    width, table_max = rules.hand_max, GAMES[game].table_max
    known = [width, 1] + [0] * (seats - 2)
    seat_specs, used = [], 0
    for s in range(seats):
        seat_specs.append((f"p{s}", names[used : used + known[s]], width - known[s], None))
        used += known[s]
    table = names[used : used + min(2, table_max)]
    request = read_odds(game, seat_specs, table)
    plan = plan_odds(request, count).plan
    rows = sample_completions(plan, np.random.default_rng(seed), count)
    hands, column = [], 0
    for seat in request.seats:
        dealt = rows[:, column : column + seat.unknown]
        shared = np.broadcast_to(np.array(seat.hand, dtype=np.uint8), (count, len(seat.hand)))
        whole = np.array([seat.hand], np.uint8)
        hands.append(np.hstack([shared, dealt]) if seat.unknown else whole)
        column += seat.unknown
    on_table = np.broadcast_to(np.array(request.table, dtype=np.uint8), (count, len(request.table)))
    return request, hands, np.hstack([on_table, rows[:, column:]])


@pytest.mark.parametrize("game", SCORED_GAMES, ids=[game.value for game in SCORED_GAMES])
@pytest.mark.parametrize("seats", range(2, 10))
@pytest.mark.parametrize("weighted", [False, True])
def test_a_scored_chunk_in_one_call_tallies_as_the_batch_figures_then_the_tally(
    game: Game, seats: int, weighted: bool
) -> None:
    """``_odds.scored_tally`` (the poker family's cards to tally in one call) against the
    game's numpy-path figures (``OddsGame.figures``, each seat's hand copied and scored by
    the batch kernels) then ``tally``: a known hand, a hand known in part, a table known
    in part, over more run-outs than one block; counts exactly."""
    rules = _rules(game)
    scored = rules.scored
    assert scored is not None
    if seats * rules.hand_max + GAMES[game].table_max > 52:
        pytest.skip("more cards than a deck")
    _, hands, table = _scored_case(game, seats, seed=seats, count=1_000)
    options = Options(ace_low=seats % 2 == 1) if game is Game.HIGH_CARD else Options()
    weights = np.random.default_rng(5).random(1_000) if weighted else None
    pot, pots = rules.pot, len(GAMES[game].pots)
    items = seats * pots * (2 * seats + 1) + seats + 2
    sums, squares = np.zeros(2 * items), np.zeros(2 * seats)
    _odds.scored_tally(
        scored.kind, scored.tables(options), pot.shape, pots, pot.split_at,
        tuple(array_showdown.in_place(hand) for hand in hands), *array_showdown.in_place(table),
        1_000, np.zeros(0) if weights is None else weights, sums, squares,
    )  # fmt: skip
    figures = rules.figures(hands, table, options)
    expected, expected_squares = _kernel(game, figures, [None] * seats, weights)
    ours = sums[:items] + sums[items:]
    if weighted:
        np.testing.assert_allclose(ours, expected, rtol=1e-13)
    else:
        np.testing.assert_array_equal(ours, expected)
    np.testing.assert_allclose(squares[:seats] + squares[seats:], expected_squares, rtol=1e-13)


@pytest.mark.parametrize("game", SCORED_GAMES, ids=[game.value for game in SCORED_GAMES])
def test_scored_odds_equal_the_numpy_figures_path_end_to_end(game: Game) -> None:
    """``odds`` with the fused call against the same requests resolved by the game's numpy
    figures and the tally (``OddsGame.scored`` off), sampled (same seed, same counts) and
    exact: every figure of the answer equal."""
    rules = _rules(game)
    request, _, _ = _scored_case(game, 3, seed=11, count=10)
    for samples in (20_000, 0):
        planned = plan_odds(request, samples)
        numpy_path = dataclasses.replace(planned, game=dataclasses.replace(rules, scored=None))
        fused = run_odds(request, planned, seed=7)
        assert fused == run_odds(request, numpy_path, seed=7)


def test_the_scored_call_refuses_a_kind_or_layout_it_cannot_score() -> None:
    cards = np.zeros(64, dtype=np.uint8)
    sums, squares = np.zeros(2 * (2 * 5 + 4)), np.zeros(4)
    tables = poker.odds_tables(Options())
    hand = (cards, (2, 1, 2))
    with pytest.raises(ValueError, match="kind"):
        _odds.scored_tally(9, tables, _odds.BEST, 1, 0, (hand, hand), cards, (5, 1, 5), 4,
                           np.zeros(0), sums, squares)  # fmt: skip
    with pytest.raises(ValueError, match="hand 0"):
        _odds.scored_tally(_odds.POKER, tables, _odds.BEST, 1, 0, (hand, hand), cards,
                           (2, 1, 2), 4, np.zeros(0), sums, squares)  # fmt: skip
    with pytest.raises(ValueError, match="table"):
        _odds.scored_tally(_odds.POKER, tables, _odds.BEST, 1, 0, (hand, hand), cards,
                           (60, 1, 5), 4, np.zeros(0), sums, squares)  # fmt: skip


DEALT_GAMES = DISCARD_GAMES + SCORED_GAMES


def _dealt_case(game: Game) -> OddsRequest:
    """Three seats (the first's hand known in part, Flop-A's declarations of each kind)
    and a table card known where the game has a table."""
    rules = _rules(game)
    declarations = [DECLARATIONS[s] if game is Game.FLOP_A else None for s in range(3)]
    known = [["2c", "3d"], [], []]
    seats = [(f"p{s}", known[s], rules.hand_max - len(known[s]), declarations[s]) for s in range(3)]
    return read_odds(game, seats, ["Kh"] if GAMES[game].table_max else [])


@pytest.mark.parametrize("game", DEALT_GAMES, ids=[game.value for game in DEALT_GAMES])
def test_a_chunk_dealt_in_the_call_tallies_as_the_compiled_deal_then_the_in_place_call(
    game: Game,
) -> None:
    """``Tally.deal_discard``/``deal_scored`` (dealt, scored and tallied in one call, the
    cards never written out) against ``sample_completions`` from the same seed, joined as
    ``odds`` joins them, then ``add_discard``/``add_scored``: the same counts and squared
    shares to the bit, over more run-outs than one block."""
    request = _dealt_case(game)
    rules, planned = _rules(game), plan_odds(request, 1_000)
    plan, pots = planned.plan, len(GAMES[game].pots)
    declarations = [seat.declaration for seat in request.seats]
    in_call, in_place = (Tally(3, pots, rules.pot, declarations, sampled=True) for _ in "ab")
    seed = chunk_seed(np.random.default_rng(7))
    dealt = tile(plan, tuple(seat.hand for seat in request.seats), request.table).dealt(seed)
    rows = sample_completions(plan, np.random.default_rng(7), 1_000)
    hands, column = [], 0
    for seat in request.seats:
        known = np.broadcast_to(np.array(seat.hand, dtype=np.uint8), (1_000, len(seat.hand)))
        hands.append(np.hstack([known, rows[:, column : column + seat.unknown]]))
        column += seat.unknown
    on_table = np.broadcast_to(np.array(request.table, dtype=np.uint8), (1_000, len(request.table)))
    table = np.hstack([on_table, rows[:, column:]])
    if rules.discard is not None:
        in_call.deal_discard(rules.discard, dealt, 1_000)
        in_place.add_discard(rules.discard, hands, table, None)
    else:
        assert rules.scored is not None
        in_call.deal_scored(rules.scored, dealt, 1_000, request.options)
        in_place.add_scored(rules.scored, hands, table, None, request.options)
    np.testing.assert_array_equal(in_call.sums, in_place.sums)
    np.testing.assert_array_equal(in_call.squared, in_place.squared)
    assert in_call.seen == in_place.seen == 1_000


@pytest.mark.parametrize("game", DISCARD_GAMES, ids=[game.value for game in DISCARD_GAMES])
def test_sampled_discard_odds_equal_the_figures_path_end_to_end(game: Game) -> None:
    """``odds`` sampled with the chunks dealt and tallied in one call against the same
    request resolved by the game's figures (``OddsGame.discard`` off: the deal written out,
    each seat's figures, then the tally), same seed: the same answer (the standard error
    within rounding, its squares summed in another grouping)."""
    request = _dealt_case(game)
    planned = plan_odds(request, 20_000)
    figures_path = dataclasses.replace(
        planned, game=dataclasses.replace(_rules(game), discard=None)
    )
    fused, reference = run_odds(request, planned, seed=7), run_odds(request, figures_path, seed=7)
    assert fused.standard_error == pytest.approx(reference.standard_error, rel=1e-12)
    assert fused == dataclasses.replace(reference, standard_error=fused.standard_error)


def test_a_dealt_call_refuses_a_layout_or_deal_it_cannot_follow() -> None:
    rules = _rules(Game.NUMBERS)
    assert rules.discard is not None
    tally = Tally(2, len(GAMES[Game.NUMBERS].pots), rules.pot, [None, None], sampled=True)
    unseen = bytes(range(52))
    with pytest.raises(ValueError, match="layout"):
        tally.deal_discard(rules.discard, (unseen, 2, 0, 1, bytes([1, 1]), bytes([0x80, 0x80])), 4)
    with pytest.raises(ValueError, match="layout"):
        tally.deal_discard(rules.discard, (unseen, 1, 0, 1, bytes([1, 1]), bytes([52, 0x80])), 4)
    with pytest.raises(ValueError, match="widths"):
        tally.deal_discard(rules.discard, (unseen, 1, 0, 1, bytes([1]), bytes([0x81, 0x80])), 4)
    with pytest.raises(ValueError, match="in_turn"):
        tally.deal_discard(rules.discard, (unseen, 3, 0, 1, bytes([1, 1]), bytes([0x81, 0x80])), 4)
    kings = bytes([44, 45, 46])
    with pytest.raises(ValueError, match="no candidate"):
        tally.deal_discard(
            rules.discard, (kings, 0, 1 << 11, 1, bytes([1, 1]), bytes([0, 1, 0x80])), 4
        )
