"""Odds (docs/rules.md "Odds") against the per-showdown resolver and literal enumerations.

The vectorised pot rules are held equal to ``scoring.showdown`` on many seeded random
showdowns of every game; exact odds equal an itertools enumeration of every completion,
weighted as docs/rules.md deals them and resolved one by one with ``scoring.showdown``.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from fractions import Fraction

import numpy as np
import pytest

from evaluators import scoring
from evaluators.cards import DECK_SIZE, InvalidRequest, parse_card
from evaluators.games import poker_high
from evaluators.inputs import Cards, Declaration, Game, Options, Seat, ShowdownRequest
from evaluators.odds import (
    Odds,
    OddsLimits,
    OddsStopped,
    PotOdds,
    SeatOdds,
    TooManySamples,
    odds,
    serves_odds,
)
from evaluators.odds_deal import (
    Plan,
    cards_at,
    combinations,
    count_completions,
    draw_set_halves,
    enumerate_completions,
    sample_completions,
    sample_completions_numpy,
    set_halves,
    subset_sums,
)
from evaluators.odds_request import OddsRequest, OddsSeatText, read_odds
from evaluators.odds_rules import OddsGame
from evaluators.registry import GAMES

HIGH, LOW, BOTH = Declaration.HIGH, Declaration.LOW, Declaration.BOTH


def _odds_rules(game: Game) -> OddsGame:
    rules = GAMES[game].odds
    assert rules is not None
    return rules


def _ids(text: str) -> Cards:
    return tuple(parse_card(card) for card in text.split())


def _fractions(
    game: Game, outcome_awards: Sequence[tuple[str, str, Fraction]], players: Sequence[str]
) -> np.ndarray:
    pots = GAMES[game].pots
    result = np.zeros((len(players), len(pots)))
    for player, pot, share in outcome_awards:
        result[players.index(player), pots.index(pot)] += float(share)
    return result


# --- the vectorised pot rules equal the resolver ----------------------------------------


def _random_showdown(
    game: Game, rng: np.random.Generator, hand_sizes: Sequence[int], table_size: int
) -> tuple[list[Cards], Cards]:
    deck = [int(card) for card in rng.permutation(DECK_SIZE)]
    table: list[int] = []
    if not GAMES[game].distinct_table_ranks:
        table = deck[:table_size]
        deck = deck[table_size:]
    else:
        for card in list(deck):
            if len(table) < table_size and all(card >> 2 != t >> 2 for t in table):
                table.append(card)
                deck.remove(card)
    hands = []
    for size in hand_sizes:
        hands.append(tuple(deck[:size]))
        deck = deck[size:]
    return hands, tuple(table)


SHOWDOWN_CASES = [
    (Game.NUMBERS, (1, 2, 5), 7, (), False),
    (Game.NUMBERS, (5, 5), 7, (), False),
    (Game.FLORIDA_BINGO, (2, 1, 3, 5), 7, (), False),
    (Game.FLOP_A, (1, 2, 3), 5, (HIGH, LOW, BOTH), False),
    (Game.FLOP_A, (3, 3, 2, 1), 5, (BOTH, BOTH, LOW, HIGH), False),
    (Game.FLOP_A, (3, 2), 4, (BOTH, BOTH), False),
    (Game.FLOP_A, (3, 3, 3), 5, (HIGH, HIGH, BOTH), False),
    (Game.THREE_THIRTY_THREE, (1, 3, 2), 4, (), False),
    (Game.HIGH_CARD, (5, 5, 5), 5, (), False),
    (Game.HIGH_CARD, (5, 5), 5, (), False),
    (Game.HIGH_CARD, (5, 5, 5, 5), 5, (), True),
    (Game.HIGH_CARD, (5, 5), 5, (), True),
    (Game.GROCERY_STORE_DOTS, (7, 7, 7, 7), 0, (), False),
    (Game.POKER_HIGH, (2, 2, 1), 5, (), False),
    (Game.POKER_HIGH, (2, 2, 2, 2, 2), 5, (), False),
]


@pytest.mark.parametrize(
    ("game", "hand_sizes", "table_size", "declarations", "ace_low"), SHOWDOWN_CASES
)
def test_vectorised_showdown_equals_the_resolver(
    game: Game,
    hand_sizes: tuple[int, ...],
    table_size: int,
    declarations: tuple[Declaration, ...],
    ace_low: bool,
) -> None:
    rng = np.random.default_rng([hash(game.value) % 2**32, len(hand_sizes), ace_low])
    options = Options(ace_low=ace_low)
    deals = [_random_showdown(game, rng, hand_sizes, table_size) for _ in range(300)]
    spec = _odds_rules(game)
    hands = [np.array([d[0][s] for d in deals], dtype=np.uint8) for s in range(len(hand_sizes))]
    tables = np.array([d[1] for d in deals], dtype=np.uint8).reshape(len(deals), table_size)
    seat_declarations = declarations or (None,) * len(hand_sizes)
    split = spec.showdown(spec.figures(hands, tables, options), seat_declarations)
    players = [f"p{s}" for s in range(len(hand_sizes))]
    for index, (seat_hands, table) in enumerate(deals):
        seats = tuple(
            Seat(p, h, d) for p, h, d in zip(players, seat_hands, seat_declarations, strict=True)
        )
        outcome = scoring.showdown(ShowdownRequest(game, seats, table, options=options))
        awards = [(a.player, a.pot, a.share) for a in outcome.awards]
        assert split.redeal[index] == outcome.redeal
        np.testing.assert_allclose(
            split.fractions[:, :, index], _fractions(game, awards, players), atol=1e-12
        )


# --- exact odds equal a literal enumeration ---------------------------------------------


def _literal_completions(
    game: Game, request: OddsRequest
) -> Iterator[tuple[list[Cards], Cards, Fraction]]:
    """Every completion with its docs/rules.md probability, by itertools, one at a time."""
    seen = set(request.table) | set(request.dead)
    for seat in request.seats:
        seen |= set(seat.hand)
    unseen = [card for card in range(DECK_SIZE) if card not in seen]

    def hands(left: list[int], seat: int) -> Iterator[tuple[list[Cards], list[int], Fraction]]:
        if seat == len(request.seats):
            yield [], left, Fraction(1)
            return
        unknown = request.seats[seat].unknown
        sets = list(itertools.combinations(left, unknown))
        for chosen in sets:
            rest = [card for card in left if card not in chosen]
            for later, final_left, chance in hands(rest, seat + 1):
                yield (
                    [request.seats[seat].hand + chosen, *later],
                    final_left,
                    chance / len(sets),
                )

    def tables(left: list[int], table: Cards) -> Iterator[tuple[Cards, Fraction]]:
        missing = GAMES[game].table_max - len(table)
        if not GAMES[game].distinct_table_ranks:
            sets = list(itertools.combinations(left, missing))
            for chosen in sets:
                yield table + chosen, Fraction(1, len(sets))
            return
        if not missing:
            yield table, Fraction(1)
            return
        allowed = [card for card in left if all(card >> 2 != t >> 2 for t in table)]
        for card in allowed:
            rest = [c for c in left if c != card]
            for full, chance in tables(rest, (*table, card)):
                yield full, chance / len(allowed)

    for seat_hands, left, hand_chance in hands(unseen, 0):
        for table, table_chance in tables(left, request.table):
            yield seat_hands, table, hand_chance * table_chance


def _literal_odds(request: OddsRequest) -> tuple[Odds, int]:
    game = request.game
    pots = GAMES[game].pots
    players = [seat.player for seat in request.seats]
    share = np.zeros((len(players), len(pots)))
    win = np.zeros_like(share)
    instant = np.zeros(len(players))
    redeal = 0.0
    count = 0
    for seat_hands, table, chance in _literal_completions(game, request):
        count += 1
        seats = tuple(
            Seat(seat.player, hand, seat.declaration)
            for seat, hand in zip(request.seats, seat_hands, strict=True)
        )
        outcome = scoring.showdown(ShowdownRequest(game, seats, table, options=request.options))
        fractions = _fractions(game, [(a.player, a.pot, a.share) for a in outcome.awards], players)
        share += float(chance) * fractions
        win += float(chance) * (fractions > 0)
        outs = [e.out_after for _, e in outcome.results]
        first = min((o for o in outs if o), default=0)
        instant += float(chance) * np.array([first and o == first for o in outs])
        redeal += float(chance) * outcome.redeal
    seat_odds = tuple(
        SeatOdds(
            p,
            float(share[s].sum()),
            tuple(PotOdds(pot, float(win[s, i]), float(share[s, i])) for i, pot in enumerate(pots)),
            float(instant[s]),
        )
        for s, p in enumerate(players)
    )
    return Odds(seat_odds, redeal, True, count, 0.0), count


SeatSpec = tuple[str, str, int, Declaration | None]

EXACT_CASES: list[tuple[Game, list[SeatSpec], str, str]] = [
    (
        Game.NUMBERS,
        [("a", "2d 3h 4s 5c 7d", 0, None), ("b", "9c Td Jc Qs", 1, None)],
        "2c 3d 4h 5s 6c 8h",
        "",
    ),
    (
        Game.NUMBERS,
        [("a", "2d 3h 4s 7c", 1, None), ("b", "9c Td Jc Qd Kd", 0, None)],
        "2c 3d 4h 5s 6c 9h",
        "7h 7s Ah",
    ),
    (
        Game.FLORIDA_BINGO,
        [
            ("a", "Ad 3h 4s 5c 7d", 0, None),
            ("b", "9c Td Jc Qs", 1, None),
            ("c", "As 2s 3s 4d 5d", 0, None),
        ],
        "2c 3d 4h 5s 6c 8h",
        "",
    ),
    (
        Game.FLOP_A,
        [("a", "Ad 3h 4s", 0, HIGH), ("b", "9c Td", 1, LOW), ("c", "As 2s 3s", 0, BOTH)],
        "2c 5d 6h 8s",
        "",
    ),
    (Game.FLOP_A, [("a", "Ad Kh", 1, BOTH), ("b", "9c 2d 3c", 0, BOTH)], "4c 5d 6h 7s", ""),
    (Game.FLOP_A, [("a", "Ad Kh Qs", 0, BOTH), ("b", "9c 2d", 1, HIGH)], "2c 5d 6h 8s", ""),
    (
        Game.THREE_THIRTY_THREE,
        [("a", "Ad 6h 9s", 0, None), ("b", "Tc 4d", 1, None)],
        "2c 5d 7h",
        "",
    ),
    (
        Game.HIGH_CARD,
        [("a", "7d 8h 9s Tc Jd", 0, None), ("b", "6c 9d Td Qh Kh", 0, None)],
        "2c 5d 7h 8s",
        "",
    ),
    (
        Game.HIGH_CARD,
        [("a", "7d 8h 9s Jd", 1, None), ("b", "6c 9d Th Qh Kh", 0, None)],
        "2c 5d 7h 8s",
        "",
    ),
    (
        Game.GROCERY_STORE_DOTS,
        [("a", "Ad 3h 4s 5c 7d 9s", 1, None), ("b", "2c 2d 8c 8d Tc Td", 1, None)],
        "",
        "",
    ),
    (Game.POKER_HIGH, [("a", "As Ks", 0, None), ("b", "Qd Qc", 0, None)], "2c 7d 9h Js", ""),
    (
        Game.POKER_HIGH,
        [("a", "Ah", 0, None), ("b", "Qd", 1, None), ("c", "Tc Th", 0, None)],
        "2c 7d 9h Js",
        "3s",
    ),
    (Game.POKER_HIGH, [("a", "As Ks", 0, None), ("b", "Qd", 1, None)], "2c 7d 9h Js Ac", ""),
    (Game.POKER_HIGH, [("a", "As Ks", 0, None), ("b", "Qd Qc", 0, None)], "2c 7d 9h Js Ac", ""),
    (
        Game.POKER_HIGH,
        [("a", "As Ks", 0, None), ("b", "Ah Kh", 0, None), ("c", "2c 2d", 0, None)],
        "Qs Js 3h",
        "",
    ),
    (
        Game.POKER_HIGH,
        [("a", "7s", 0, None), ("b", "Qd Qc", 0, None), ("c", "8h 9h", 0, None)],
        "2h 5h Kh",
        "4s",
    ),
    (Game.POKER_HIGH, [("a", "As 2s", 0, None), ("b", "Kd Kc", 0, None)], "3s 4s", ""),
    (
        Game.HIGH_CARD,
        [("a", "7d 8h 9s Tc", 1, None), ("b", "6c 9d Th Qh Kh", 0, None)],
        "2c 5d 7h 8s 9c",
        "",
    ),
    (
        Game.GROCERY_STORE_DOTS,
        [("a", "Ad 3h 4s 5c 7d 9s 9h", 0, None), ("b", "2c 2d 8c 8d Tc Td Jd", 0, None)],
        "",
        "",
    ),
    (
        Game.THREE_THIRTY_THREE,
        [("a", "Ad 6h 9s", 0, None), ("b", "Tc 4d 2d", 0, None)],
        "2c 5d 7h",
        "",
    ),
]


def _read(game: Game, seats: Sequence[SeatSpec], table: str, dead: str, **kw: bool) -> OddsRequest:
    texts: list[OddsSeatText] = [(p, hand.split(), unknown, d) for p, hand, unknown, d in seats]
    return read_odds(game, texts, table.split(), dead.split(), Options(**kw))


def _assert_close(ours: Odds, theirs: Odds, tolerance: float) -> None:
    assert ours.redeal == pytest.approx(theirs.redeal, abs=tolerance)
    for mine, literal in zip(ours.seats, theirs.seats, strict=True):
        assert mine.player == literal.player
        assert mine.share == pytest.approx(literal.share, abs=tolerance)
        assert mine.instant_win == pytest.approx(literal.instant_win, abs=tolerance)
        for pot, literal_pot in zip(mine.pots, literal.pots, strict=True):
            assert pot.pot == literal_pot.pot
            assert pot.win == pytest.approx(literal_pot.win, abs=tolerance)
            assert pot.share == pytest.approx(literal_pot.share, abs=tolerance)


@pytest.mark.parametrize(("game", "seats", "table", "dead"), EXACT_CASES)
def test_exact_odds_equal_a_literal_enumeration(
    game: Game, seats: list[SeatSpec], table: str, dead: str
) -> None:
    request = _read(game, seats, table, dead)
    result = odds(request)
    literal, count = _literal_odds(request)
    assert result.exact
    assert result.runouts == count
    assert result.standard_error == 0
    _assert_close(result, literal, 1e-9)
    assert sum(s.share for s in result.seats) + result.redeal == pytest.approx(1)


# --- sampling ---------------------------------------------------------------------------


SAMPLED_CASES = [
    (
        Game.NUMBERS,
        [("a", "2d 3h 4s 7c", 1, None), ("b", "9c Td Jc Qd", 1, None)],
        "2c 3d 4h 5s 6c",
    ),
    (
        Game.FLOP_A,
        [("a", "Ad 4c", 1, BOTH), ("b", "9c Td", 1, LOW), ("c", "Kd 3s 7h", 0, HIGH)],
        "2c 5h 8d Jc",
    ),
    (
        Game.HIGH_CARD,
        [
            ("a", "7d 8h 9s Tc", 1, None),
            ("b", "Qc Jd 9d Kh", 1, None),
            ("c", "Ah 2d 3d 4d 5d", 0, None),
        ],
        "2c 5h 8d Jc",
    ),
    (
        Game.GROCERY_STORE_DOTS,
        [("a", "Ad 3h 4s 5c 7d", 2, None), ("b", "2c 2d 8c 8d Tc", 2, None)],
        "",
    ),
    (Game.POKER_HIGH, [("a", "As Ks", 0, None), ("b", "Qd Qc", 0, None)], "2c 7d 9h"),
    (
        Game.POKER_HIGH,
        [("a", "As Ks", 0, None), ("b", "Ah Kh", 0, None), ("c", "Qd", 0, None)],
        "2s 7s",
    ),
]


@pytest.mark.parametrize(("game", "seats", "table"), SAMPLED_CASES)
def test_sampled_odds_are_within_a_few_standard_errors_of_exact(
    game: Game, seats: list[SeatSpec], table: str
) -> None:
    request = _read(game, seats, table, "")
    exact = odds(request, limits=OddsLimits(max_exact_runouts=10**9))
    sampled = odds(request, samples=100_000, seed=7)
    assert exact.exact
    assert not sampled.exact
    assert sampled.runouts == 100_000
    assert 0 < sampled.standard_error < 0.01
    largest_probability_error = 0.5 / np.sqrt(sampled.runouts)
    _assert_close(sampled, exact, 5 * max(sampled.standard_error, largest_probability_error))


def test_the_same_seed_gives_the_same_answer_and_another_seed_another() -> None:
    request = _read(Game.NUMBERS, [("a", "", 5, None), ("b", "", 5, None)], "", "")
    first = odds(request, samples=20_000, seed=3)
    assert odds(request, samples=20_000, seed=3) == first
    assert odds(request, samples=20_000, seed=4) != first


def test_too_many_completions_are_sampled_with_the_default_count() -> None:
    request = _read(Game.POKER_HIGH, [("a", "As Ks", 0, None), ("b", "Qd Qc", 0, None)], "", "")
    result = odds(request, limits=OddsLimits(max_exact_runouts=1_000_000, default_samples=5_000))
    assert not result.exact
    assert result.runouts == 5_000


def test_samples_over_the_limit_and_a_stop_are_refused() -> None:
    request = _read(Game.POKER_HIGH, [("a", "As Ks", 0, None), ("b", "Qd Qc", 0, None)], "", "")
    with pytest.raises(TooManySamples, match="at most 100"):
        odds(request, samples=101, limits=OddsLimits(max_samples=100))
    with pytest.raises(OddsStopped):
        odds(request, keep_going=lambda: False)


def test_preflop_heads_up_is_exact_over_every_board() -> None:
    request = _read(Game.POKER_HIGH, [("a", "As Ks", 0, None), ("b", "Qd Qc", 0, None)], "", "")
    result = odds(request)
    assert result.exact
    assert result.runouts == 1_712_304
    ties = result.seats[0].pots[0].win - result.seats[0].share
    assert result.seats[0].share + result.seats[1].share == pytest.approx(1)
    assert 0 < ties < 0.01


def test_known_hands_preflop_equals_the_boards_read_card_by_card() -> None:
    request = _read(Game.POKER_HIGH, [("a", "As Ks", 0, None), ("b", "Qd Qc", 0, None)], "", "")
    holes = [seat.hand for seat in request.seats]
    plan = Plan(
        tuple(c for c in range(DECK_SIZE) if c not in holes[0] + holes[1]), (0, 0), 5, True, 0
    )
    share = np.zeros(2)
    win = np.zeros(2)
    rules = _odds_rules(Game.POKER_HIGH)
    for rows, _ in enumerate_completions(plan, 131_072):
        hands = [np.array([hole], dtype=np.uint8) for hole in holes]
        split = rules.showdown(rules.figures(hands, rows, Options()), [None, None])
        share += split.fractions[:, 0].sum(axis=1)
        win += np.count_nonzero(split.fractions[:, 0], axis=1)
    outcomes = list(poker_high.known_hands_exact(holes, (), plan.unseen))
    assert sum(o.runouts for o in outcomes) == count_completions(plan)
    np.testing.assert_array_equal(sum(o.win for o in outcomes), win)
    np.testing.assert_allclose(sum(o.share for o in outcomes), share, rtol=1e-12)


# --- the deal ---------------------------------------------------------------------------


@pytest.mark.parametrize(("n", "k"), [(5, 0), (6, 1), (10, 3), (12, 5), (20, 4), (48, 2)])
def test_subset_sums_equal_sums_over_the_combination_rows(n: int, k: int) -> None:
    values = np.random.default_rng(n).integers(0, 1 << 40, size=n)
    rows = combinations(n, k).astype(np.intp)
    np.testing.assert_array_equal(subset_sums(values, k), values[rows].sum(axis=1))


@pytest.mark.parametrize(("n", "k"), [(7, 5), (8, 4), (9, 1)])
def test_disjoint_set_halves_are_uniform_k_subsets_with_their_sums(n: int, k: int) -> None:
    values = np.random.default_rng(n).integers(0, 1 << 40, size=n)
    halves = set_halves(values, k)
    small = combinations(n, k // 2)
    large = combinations(n, k - k // 2)
    size = 199_999
    small_rows = np.empty(size, dtype=np.int64)
    large_rows = np.empty(size, dtype=np.int64)
    sums = np.empty(size, dtype=np.int64)
    disjoint = np.empty(size, dtype=np.bool_)
    draw_set_halves(np.random.default_rng(k), halves, small_rows, large_rows, sums, disjoint)
    unions: Counter[tuple[int, ...]] = Counter()
    draws = zip(small[small_rows].tolist(), large[large_rows].tolist(), disjoint, sums, strict=True)
    for first, second, apart, total in draws:
        assert apart == (not set(first) & set(second))
        if apart:
            unions[tuple(sorted(first + second))] += 1
            assert total == values[list(first + second)].sum()
    assert len(unions) == count_completions(Plan(tuple(range(n)), (), k, True, 0))
    expected = sum(unions.values()) / len(unions)
    chi_square = sum((seen - expected) ** 2 / expected for seen in unions.values())
    assert chi_square < len(unions) + 8 * np.sqrt(2 * len(unions))
    for counts in (np.bincount(small_rows, minlength=len(small)), np.bincount(large_rows)):
        assert counts.min() > 0.9 * size / len(counts)


@pytest.mark.parametrize(
    "plan",
    [
        Plan(tuple(range(20)), (1, 2), 2, False, 0b11),
        Plan(tuple(range(5, 22)), (0, 1, 1), 2, False, 1 << 12),
        Plan(tuple(range(12)), (2, 1), 2, True, 0),
        Plan(tuple(range(10)), (), 3, False, 0),
    ],
)
def test_enumeration_deals_every_completion_once_with_probabilities_summing_to_one(
    plan: Plan,
) -> None:
    rows = []
    total = 0.0
    for chunk, weights in enumerate_completions(plan, chunk=50):
        rows += [tuple(row) for row in chunk.tolist()]
        total += float(weights.sum())
    assert len(rows) == len(set(rows)) == count_completions(plan)
    assert total == pytest.approx(1)


def _completion_key(plan: Plan, row: list[int]) -> tuple[int, ...]:
    """A completion as enumeration deals it: each seat's cards as a set, the table as a
    set where it may pair and in the order turned in the discard games."""
    key: list[int] = []
    column = 0
    for unknown in plan.unknown:
        key += sorted(row[column : column + unknown])
        column += unknown
    table = row[column:]
    return (*key, *(sorted(table) if plan.table_pairs else table))


@pytest.mark.parametrize(
    "plan",
    [
        # Seen cards leave gaps in the unseen ones; rank 4 (card 16) is on the table.
        Plan((0, 2, 5, 6, 9, 10, 13, 15, 16), (1, 2), 2, False, 1 << 4),
        Plan((0, 1, 4, 5, 8, 9, 12, 13, 14, 16), (0, 2, 1), 2, False, 1 << 1),
        Plan((0, 1, 2, 3, 4, 5, 6, 8, 9, 12, 13), (), 3, False, 1 << 1),
        Plan((1, 3, 4, 8, 9, 12, 20, 21), (2, 1), 2, True, 0),
    ],
)
@pytest.mark.parametrize("sample", [sample_completions, sample_completions_numpy])
def test_sampled_completions_follow_the_exact_probabilities(
    plan: Plan, sample: Callable[[Plan, np.random.Generator, int], np.ndarray]
) -> None:
    """Chi-square of the sampled completions against their exact probabilities, by the
    compiled deal and by numpy's reference (seeded, so it cannot flake; the bound is about
    5 standard deviations above the mean)."""
    expected: dict[tuple[int, ...], float] = {}
    for chunk, weights in enumerate_completions(plan, chunk=10_000):
        for row, weight in zip(chunk.tolist(), weights.tolist(), strict=True):
            expected[tuple(row)] = weight
    samples = 300_000
    rows = sample(plan, np.random.default_rng(11), samples)
    assert rows.shape == (samples, plan.width)
    observed: dict[tuple[int, ...], int] = dict.fromkeys(expected, 0)
    for row in rows.tolist():
        key = _completion_key(plan, row)
        assert key in observed, f"impossible completion {row}"
        observed[key] += 1
    chi_square = sum(
        (observed[key] - samples * p) ** 2 / (samples * p) for key, p in expected.items()
    )
    freedom = len(expected) - 1
    assert chi_square < freedom + 5 * np.sqrt(2 * freedom)


# --- refusals ---------------------------------------------------------------------------


def _fields(
    game: Game | None, seats: Sequence[SeatSpec], table: str = "", dead: str = "", **kw: bool
) -> list[str]:
    texts: list[OddsSeatText] = [(p, hand.split(), unknown, d) for p, hand, unknown, d in seats]
    with pytest.raises(InvalidRequest) as refused:
        read_odds(game, texts, table.split(), dead.split(), Options(**kw))
    return [v.field for v in refused.value.violations]


def test_refusals_name_their_fields() -> None:
    two = [("a", "As", 4, None), ("b", "", 5, None)]
    assert _fields(Game.NOT_POKER, [("a", "As", 5, None), ("b", "", 6, None)]) == ["game"]
    assert _fields(Game.TONK, [("a", "As", 4, None), ("b", "", 5, None)]) == ["game"]
    assert _fields(None, two) == ["game"]
    assert _fields(Game.NUMBERS, [("a", "As", 3, None), ("b", "", 5, None)]) == ["seats[0].unknown"]
    assert _fields(Game.POKER_HIGH, [("a", "As", 2, None), ("b", "", 0, None)]) == [
        "seats[0].unknown",
        "seats[1].unknown",
    ]
    six_less_one = [("a", "As 2s 3s 4s 5s 6s", -1, None), ("b", "", 5, None)]
    assert _fields(Game.NUMBERS, six_less_one) == ["seats[0].unknown"]
    assert _fields(Game.NUMBERS, two, dead="As") == ["dead[0]"]
    assert _fields(Game.NUMBERS, two, table="2c As") == ["table[1]"]
    assert _fields(Game.NUMBERS, two, table="2c 2d") == ["table[1]"]
    assert _fields(Game.NUMBERS, two, table="2c 3c 4c 5c 6c 7c 8c 9c") == ["table"]
    assert _fields(Game.NUMBERS, two, ace_low=True) == ["options.ace_low"]
    assert _fields(Game.FLOP_A, [("a", "As", 2, HIGH), ("b", "", 3, None)]) == [
        "seats[1].declaration"
    ]
    assert _fields(Game.NUMBERS, [("a", "As", 4, None)]) == ["seats"]
    assert _fields(Game.NUMBERS, [("a", "As", 4, None), ("a", "", 5, None)]) == ["seats[1].player"]
    assert _fields(Game.NUMBERS, [("a", "Zz", 4, None), ("b", "", 5, None)]) == ["seats[0].hand[0]"]


def test_too_few_unseen_cards_is_refused_on_the_table() -> None:
    dead = " ".join(f"{rank}{suit}" for rank in "23456789TJQ" for suit in "cdhs")
    seats = [("a", "Ks", 4, None), ("b", "", 5, None)]
    fields = _fields(Game.NUMBERS, seats, dead=dead)
    assert fields == ["table"]
    texts: list[OddsSeatText] = [(p, h.split(), u, d) for p, h, u, d in seats]
    with pytest.raises(InvalidRequest, match=r"needs 16 unseen cards .* 7 are left"):
        read_odds(Game.NUMBERS, texts, (), dead.split())
    few_ranks = " ".join(f"{rank}{suit}" for rank in "23456789" for suit in "cdhs")
    with pytest.raises(InvalidRequest, match="ranks not on it"):
        read_odds(Game.NUMBERS, [("a", ["Ks"], 4, None), ("b", [], 5, None)], (), few_ranks.split())


def test_the_games_dealt_by_chance_serve_odds() -> None:
    assert [game for game in GAMES if serves_odds(game)] == [
        Game.NUMBERS,
        Game.FLORIDA_BINGO,
        Game.FLOP_A,
        Game.THREE_THIRTY_THREE,
        Game.HIGH_CARD,
        Game.GROCERY_STORE_DOTS,
        Game.POKER_HIGH,
    ]


def test_cards_at_equals_a_gather_with_few_or_many_cards_seen() -> None:
    rng = np.random.default_rng(5)
    for seen_count in (0, 1, 4, 8, 9, 30):
        seen = set(rng.choice(DECK_SIZE, seen_count, replace=False).tolist())
        cards = np.array([c for c in range(DECK_SIZE) if c not in seen], dtype=np.uint8)
        positions = rng.integers(0, len(cards), size=(100, 5)).astype(np.uint8)
        np.testing.assert_array_equal(cards_at(cards, positions), cards[positions])
