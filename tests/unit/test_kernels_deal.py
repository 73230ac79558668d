"""The compiled deal (``kernels._deal``) against numpy's reference deal
(``sample_completions_numpy``): a valid deal, the same distribution, the same odds.

Every test is seeded, so none can flake; the bounds sit about 5 standard deviations out.
The exact probabilities of small plans are checked in odds/test_deal.py for both deals.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from evaluators.cards import DECK_SIZE, parse_card
from evaluators.inputs import Declaration, Game
from evaluators.kernels import _deal
from evaluators.odds import (
    OddsRequest,
    OddsSeatText,
    odds,
    plan_odds,
    read_odds,
    run_odds,
    serves_odds,
)
from evaluators.registry import GAMES
from evaluators.runouts.deal import Plan, sample_completions, sample_completions_numpy

ODDS_GAMES = [game for game in GAMES if serves_odds(game)]
FLOP_A_DECLARATIONS = (Declaration.HIGH, Declaration.LOW, Declaration.BOTH, Declaration.BOTH)


def _four_seats(game: Game, table: str = "") -> OddsRequest:
    """Four seats with nothing known (as benchmarks/odds_bench.py times them), and
    ``table`` turned."""
    deal = GAMES[game].odds
    assert deal is not None
    seats: list[OddsSeatText] = [
        (f"p{s}", [], deal.hand_max, FLOP_A_DECLARATIONS[s] if game is Game.FLOP_A else None)
        for s in range(4)
    ]
    return read_odds(game, seats, table.split())


def _plans() -> list[tuple[str, Plan]]:
    """Each game's four-seat plan with nothing known, and with two table cards turned
    where it has a table (the discard games then bar their ranks from the cards still to
    come)."""
    plans = []
    for game in ODDS_GAMES:
        deal = GAMES[game].odds
        assert deal is not None
        for table in ("", "7c Kd") if GAMES[game].table_max > 2 else ("",):
            plan = plan_odds(_four_seats(game, table), samples=1).plan
            plans.append((f"{game.value} table '{table}'", plan))
    return plans


PLANS = _plans()


@pytest.mark.parametrize(("name", "plan"), PLANS, ids=[name for name, _ in PLANS])
def test_every_run_out_is_a_valid_deal(name: str, plan: Plan) -> None:
    """Only unseen cards, none twice in a run-out, and a discard game's new table cards
    of distinct ranks that are not on the table yet."""
    rows = sample_completions(plan, np.random.default_rng(5), 50_000)
    assert rows.shape == (50_000, plan.width)
    unseen = np.zeros(DECK_SIZE + 1, dtype=np.bool_)
    unseen[list(plan.unseen)] = True
    assert unseen[rows].all()
    ordered = np.sort(rows, axis=1)
    assert (ordered[:, 1:] != ordered[:, :-1]).all()
    if not plan.table_pairs and plan.table_cards:
        ranks = rows[:, plan.hand_cards :] >> 2
        ordered_ranks = np.sort(ranks, axis=1)
        assert (ordered_ranks[:, 1:] != ordered_ranks[:, :-1]).all()
        assert not (plan.table_ranks >> ranks.astype(np.int64) & 1).any()


@pytest.mark.parametrize(("name", "plan"), PLANS, ids=[name for name, _ in PLANS])
def test_each_positions_cards_are_as_frequent_as_numpys(name: str, plan: Plan) -> None:
    """Per position of the run-out, the counts of each card from the kernel and from
    numpy's reference deal pass a two-sample chi-square (every position at once)."""
    samples = 200_000
    ours = sample_completions(plan, np.random.default_rng(1), samples)
    theirs = sample_completions_numpy(plan, np.random.default_rng(2), samples)
    chi_square = 0.0
    freedom = 0
    for position in range(plan.width):
        a = np.bincount(ours[:, position], minlength=DECK_SIZE).astype(np.float64)
        b = np.bincount(theirs[:, position], minlength=DECK_SIZE).astype(np.float64)
        dealt = (a + b) > 0
        chi_square += float((np.square(a - b)[dealt] / (a + b)[dealt]).sum())
        freedom += int(dealt.sum()) - 1
    assert chi_square < freedom + 5 * np.sqrt(2 * freedom)


@pytest.mark.parametrize("game", ODDS_GAMES, ids=[game.value for game in ODDS_GAMES])
def test_every_games_four_seat_odds_match_numpys_deal(
    game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same request sampled by the kernel's deal and by numpy's reference (put in
    its place for the second call, which then resolves the dealt cards by the game's
    figures: a chunk dealt and tallied in one call never writes its cards out) agrees
    within 5 combined standard errors."""
    request = _four_seats(game)
    ours = odds(request, samples=100_000, seed=9)
    monkeypatch.setattr("evaluators.odds.run.sample_completions", sample_completions_numpy)
    planned = plan_odds(request, samples=100_000)
    figures = dataclasses.replace(planned.game, discard=None, scored=None)
    theirs = run_odds(request, dataclasses.replace(planned, game=figures), seed=9)
    tolerance = 5 * np.hypot(
        max(ours.standard_error, 0.5 / np.sqrt(ours.runouts)),
        max(theirs.standard_error, 0.5 / np.sqrt(theirs.runouts)),
    )
    assert ours.redeal == pytest.approx(theirs.redeal, abs=tolerance)
    for mine, reference in zip(ours.seats, theirs.seats, strict=True):
        assert mine.share == pytest.approx(reference.share, abs=tolerance)
        assert mine.instant_win == pytest.approx(reference.instant_win, abs=tolerance)
        for pot, reference_pot in zip(mine.pots, reference.pots, strict=True):
            assert pot.win == pytest.approx(reference_pot.win, abs=tolerance)
            assert pot.share == pytest.approx(reference_pot.share, abs=tolerance)


def test_a_seed_fixes_the_deal() -> None:
    plan = PLANS[0][1]
    first = sample_completions(plan, np.random.default_rng(3), 1_000)
    assert (sample_completions(plan, np.random.default_rng(3), 1_000) == first).all()
    assert (sample_completions(plan, np.random.default_rng(4), 1_000) != first).any()


def _out(width: int, count: int) -> np.ndarray:
    return np.empty((width, count), dtype=np.uint8)


def test_the_kernel_refuses_bad_arguments_by_name() -> None:
    with pytest.raises(ValueError, match=r"unseen\[1\] is 3"):
        _deal.sample(bytes([3, 3, 4]), 2, 2, 0, 1, _out(2, 10))
    with pytest.raises(ValueError, match=r"unseen\[0\] is 52"):
        _deal.sample(bytes([52, 3, 4]), 2, 2, 0, 1, _out(2, 10))
    with pytest.raises(ValueError, match="in_turn"):
        _deal.sample(bytes([1, 2, 3]), 2, 4, 0, 1, _out(4, 10))
    with pytest.raises(ValueError, match="in_turn"):
        _deal.sample(bytes([1, 2, 3]), 3, 2, 0, 1, _out(2, 10))
    with pytest.raises(ValueError, match="not 3 rows"):
        _deal.sample(bytes([1, 2, 3]), 3, 3, 0, 1, np.empty(10, dtype=np.uint8))


def test_a_table_card_with_no_candidate_is_refused_not_looped_on() -> None:
    """Every card left is of a rank on the table: an error, never an endless redraw."""
    kings = bytes(parse_card(card) for card in ("Kc", "Kd", "Ks"))
    with pytest.raises(ValueError, match="no candidate"):
        _deal.sample(kings, 0, 1, 1 << 11, 1, _out(1, 4))
    with pytest.raises(ValueError, match="no candidate"):
        _deal.sample(kings, 0, 2, 0, 1, _out(2, 4))
