"""Tonk settlement: payouts by ending, the caught dropper, stock-out redeal, ending checks."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evaluators.cards import parse_card
from evaluators.games.tonk import deadwood as tonk
from evaluators.games.tonk import settlement
from evaluators.inputs import Game, Options, Seat, ShowdownRequest, TonkEnding
from evaluators.results import DealBonus, Evaluation, Resolution, TonkDetail


def request(
    seats: list[tuple[str, str]], ending: TonkEnding | None, ender: str = ""
) -> ShowdownRequest:
    return ShowdownRequest(
        game=Game.TONK,
        seats=tuple(
            Seat(player, tuple(parse_card(c) for c in hand.split())) for player, hand in seats
        ),
        ending=ending,
        ender=ender,
    )


def settle(seats: list[tuple[str, str]], ending: TonkEnding, ender: str = "") -> Resolution:
    """Settle a showdown of real hands, evaluated by the Tonk evaluator."""
    showdown = request(seats, ending, ender)
    results = tuple(
        (seat.player, tonk.evaluate(seat.hand, (), (), Options())) for seat in showdown.seats
    )
    return settlement.settle(showdown, results)


def stakes(resolution: Resolution) -> dict[str, int]:
    return {p.player: p.stakes for p in resolution.payouts}


SEATS = [("ann", "Kc 9d"), ("bob", "2c 3d"), ("cat", "Qh Jh Th 9h"), ("dan", "5s")]
"""Points: ann 19, bob 5, cat 39, dan 5."""


def test_tonk_every_other_player_pays_the_winner_two() -> None:
    resolution = settle(SEATS, TonkEnding.TONK, "cat")
    assert stakes(resolution) == {"ann": -2, "bob": -2, "cat": 6, "dan": -2}
    assert resolution.awards == () and not resolution.redeal
    assert "cat" in resolution.explanation


def test_out_every_other_player_pays_one() -> None:
    resolution = settle([("ann", "Kc"), ("bob", ""), ("cat", "2c")], TonkEnding.OUT, "bob")
    assert stakes(resolution) == {"ann": -1, "bob": 2, "cat": -1}


def test_drop_alone_lowest_wins_one_from_everyone() -> None:
    seats = [("ann", "Kc 9d"), ("bob", "2c 3d"), ("cat", "Qh Jh Th 9h")]
    assert stakes(settle(seats, TonkEnding.DROP, "bob")) == {"ann": -1, "bob": 2, "cat": -1}


def test_drop_tied_with_another_is_caught_and_the_other_alone_wins() -> None:
    seats = [("ann", "Kc 9d"), ("bob", "2c 3d"), ("dan", "5s")]
    resolution = settle(seats, TonkEnding.DROP, "bob")
    # bob pays dan 2; ann (19, not fewer than bob's 5) pays only the winner's 1.
    assert stakes(resolution) == {"ann": -1, "bob": -2, "dan": 3}
    assert "caught" in resolution.explanation


def test_caught_dropper_pays_one_to_each_non_winner_with_fewer_points() -> None:
    seats = [("dropper", "Tc"), ("low", "5c"), ("mid", "8c"), ("high", "Qc 2d")]
    # dropper 10 is caught by low 5: pays low 2 and mid (8 < 10) 1; high (12) gets nothing.
    # Ruling: mid and high each also pay the winner 1.
    assert stakes(settle(seats, TonkEnding.DROP, "dropper")) == {
        "dropper": -3,
        "low": 4,
        "mid": 0,
        "high": -1,
    }


def test_caught_dropper_pays_every_tied_winner_and_everyone_else_pays_each_winner() -> None:
    seats = [("dropper", "Tc"), ("w1", "3c"), ("w2", "3d"), ("other", "Kc 5d")]
    assert stakes(settle(seats, TonkEnding.DROP, "dropper")) == {
        "dropper": -4,
        "w1": 3,
        "w2": 3,
        "other": -2,
    }


def test_drop_compares_points_not_deadwood() -> None:
    seats = [("ann", "Kh Qh Jh"), ("bob", "9c")]
    # ann has 30 points but no deadwood: points decide, so bob (9) catches ann.
    assert stakes(settle(seats, TonkEnding.DROP, "ann")) == {"ann": -2, "bob": 2}


def test_stock_out_lowest_points_wins_one_from_everyone() -> None:
    seats = [("ann", "Kc 9d"), ("bob", "2c 3d"), ("cat", "Qh Jh Th 9h")]
    resolution = settle(seats, TonkEnding.STOCK_OUT)
    assert stakes(resolution) == {"ann": -1, "bob": 2, "cat": -1}
    assert not resolution.redeal


def test_stock_out_tie_for_lowest_is_a_redeal_and_nobody_pays() -> None:
    resolution = settle(SEATS, TonkEnding.STOCK_OUT)
    assert resolution.redeal
    assert stakes(resolution) == {"ann": 0, "bob": 0, "cat": 0, "dan": 0}
    assert "redeal" in resolution.explanation


def test_payouts_follow_seat_order() -> None:
    resolution = settle(SEATS, TonkEnding.OUT, "dan")
    assert [p.player for p in resolution.payouts] == ["ann", "bob", "cat", "dan"]


# --- ending checks ---------------------------------------------------------------------


def test_missing_ending_is_a_violation_on_ending() -> None:
    violations = settlement.check_ending(request(SEATS, None))
    assert [v.field for v in violations] == ["ending"]


@pytest.mark.parametrize("ending", [TonkEnding.TONK, TonkEnding.OUT, TonkEnding.DROP])
def test_endings_with_an_ender_need_one(ending: TonkEnding) -> None:
    violations = settlement.check_ending(request(SEATS, ending))
    assert [v.field for v in violations] == ["ender"]
    assert "missing" in violations[0].message


@pytest.mark.parametrize("ending", [TonkEnding.TONK, TonkEnding.OUT, TonkEnding.DROP])
def test_unknown_ender_is_a_violation_naming_the_seats(ending: TonkEnding) -> None:
    violations = settlement.check_ending(request(SEATS, ending, "zed"))
    assert [v.field for v in violations] == ["ender"]
    assert "'zed'" in violations[0].message and "'ann'" in violations[0].message


@pytest.mark.parametrize("ending", [TonkEnding.TONK, TonkEnding.OUT, TonkEnding.DROP])
def test_known_ender_passes(ending: TonkEnding) -> None:
    assert settlement.check_ending(request(SEATS, ending, "bob")) == []


def test_stock_out_takes_no_ender_and_refuses_one() -> None:
    assert settlement.check_ending(request(SEATS, TonkEnding.STOCK_OUT)) == []
    violations = settlement.check_ending(request(SEATS, TonkEnding.STOCK_OUT, "bob"))
    assert [v.field for v in violations] == ["ender"]


@pytest.mark.parametrize(
    ("ending", "player", "allowed"),
    [
        (TonkEnding.TONK, "bob", True),
        (TonkEnding.OUT, "bob", True),
        (TonkEnding.TONK, "ann", False),
        (TonkEnding.DROP, "bob", False),
        (TonkEnding.STOCK_OUT, "bob", False),
        (None, "bob", False),
    ],
)
def test_only_the_ender_of_a_tonk_or_out_may_show_an_empty_hand(
    ending: TonkEnding | None, player: str, allowed: bool
) -> None:
    showdown = request(SEATS, ending, "bob" if ending is not TonkEnding.STOCK_OUT else "")
    assert settlement.empty_hand_allowed(showdown, player) is allowed


def test_empty_hand_is_not_allowed_to_an_empty_player_id() -> None:
    assert not settlement.empty_hand_allowed(request(SEATS, TonkEnding.STOCK_OUT), "")


# --- property: a direct transcription of RULES.md --------------------------------------


def transcribed_payouts(
    ending: TonkEnding, ender: str, points: dict[str, int]
) -> tuple[dict[str, int], bool]:
    net = dict.fromkeys(points, 0)

    def pays(payer: str, payee: str, amount: int) -> None:
        net[payer] -= amount
        net[payee] += amount

    others = [p for p in points if p != ender]
    if ending is TonkEnding.TONK:
        for p in others:
            pays(p, ender, 2)
    elif ending is TonkEnding.OUT:
        for p in others:
            pays(p, ender, 1)
    elif ending is TonkEnding.DROP:
        if all(points[ender] < points[p] for p in others):
            for p in others:
                pays(p, ender, 1)
        else:
            lowest = min(points[p] for p in others)
            winners = [p for p in others if points[p] == lowest]
            for p in others:
                if p in winners:
                    pays(ender, p, 2)
                elif points[p] < points[ender]:
                    pays(ender, p, 1)
            for p in others:
                if p not in winners:
                    for w in winners:
                        pays(p, w, 1)
    else:
        lowest = min(points.values())
        winners = [p for p in points if points[p] == lowest]
        if len(winners) > 1:
            return net, True
        for p in points:
            if p != winners[0]:
                pays(p, winners[0], 1)
    return net, False


def _evaluation(points: int) -> Evaluation:
    detail = TonkDetail(points, 0, (), (), (), False, DealBonus.NONE)
    return Evaluation(strength=tonk.STRENGTH_BASE - points, description="", detail=detail)


@settings(max_examples=500)
@given(
    st.lists(st.integers(0, 60), min_size=2, max_size=7),
    st.sampled_from(list(TonkEnding)),
    st.data(),
)
def test_payouts_sum_to_zero_and_match_the_rule_as_written(
    points: list[int], ending: TonkEnding, data: st.DataObject
) -> None:
    players = [f"p{i}" for i in range(len(points))]
    ender = "" if ending is TonkEnding.STOCK_OUT else data.draw(st.sampled_from(players))
    showdown = ShowdownRequest(
        game=Game.TONK,
        seats=tuple(Seat(p, ()) for p in players),
        ending=ending,
        ender=ender,
    )
    results = tuple((p, _evaluation(n)) for p, n in zip(players, points, strict=True))
    resolution = settlement.settle(showdown, results)
    expected, redeal = transcribed_payouts(ending, ender, dict(zip(players, points, strict=True)))
    assert [p.player for p in resolution.payouts] == players
    assert sum(p.stakes for p in resolution.payouts) == 0
    assert stakes(resolution) == expected
    assert resolution.redeal == redeal
    assert resolution.awards == ()
    assert resolution.explanation
