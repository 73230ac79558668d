"""Odds (docs/rules.md "Odds") against the per-showdown resolver and literal enumerations.

The vectorised pot rules are held equal to ``scoring.showdown`` on many seeded random
showdowns of every game; exact odds equal an itertools enumeration of every completion,
weighted as docs/rules.md deals them and resolved one by one with ``scoring.showdown``.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from fractions import Fraction

import numpy as np
import pytest

from evaluators import scoring
from evaluators.cards import DECK_SIZE, parse_card
from evaluators.errors import Stopped, TooManySamples
from evaluators.game_odds import OddsGame
from evaluators.games import poker_high
from evaluators.inputs import Cards, Declaration, Game, Options, Seat, ShowdownRequest
from evaluators.odds import (
    Odds,
    OddsLimits,
    OddsRequest,
    OddsSeatText,
    PotOdds,
    SeatOdds,
    odds,
    read_odds,
)
from evaluators.registry import GAMES
from evaluators.runouts.deal import (
    Plan,
    count_completions,
    enumerate_completions,
)

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
    with pytest.raises(Stopped):
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
