"""Tonk settlement: payouts by ending, the caught dropper, stock-out redeal, ending checks."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evaluators.cards import card_text, parse_card
from evaluators.errors import InvalidRequest, Violation
from evaluators.games.tonk import deadwood as tonk
from evaluators.games.tonk import settlement
from evaluators.games.tonk.deadwood import DealBonus, TonkDetail
from evaluators.inputs import Game, Options, Seat, ShowdownRequest, TonkEnding
from evaluators.results import Evaluation, Resolution
from evaluators.scoring import showdown
from evaluators.validation import read_showdown

PLAIN_OPTIONS = Options()


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


@pytest.mark.parametrize(
    ("ending", "hand"),
    [(TonkEnding.TONK, "2c 3c 4c"), (TonkEnding.OUT, "2c 3c 4c 9d"), (TonkEnding.DROP, "2c 3d")],
)
def test_known_ender_with_a_hand_that_fits_passes(ending: TonkEnding, hand: str) -> None:
    seats = [("ann", "Kc 9d"), ("bob", hand)]
    assert settlement.check_ending(request(seats, ending, "bob")) == []


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


# --- property: a direct transcription of docs/rules.md --------------------------------------


def transcribed_payouts(
    ending: TonkEnding,
    ender: str,
    points: dict[str, int],
    options: Options = PLAIN_OPTIONS,
    bonuses: dict[str, DealBonus] | None = None,
    ender_cards: int = 0,
) -> tuple[dict[str, int], bool]:
    """docs/rules.md "Ending a game" and "Tonk house rules", literally."""
    net = dict.fromkeys(points, 0)

    def pays(payer: str, payee: str, amount: int) -> None:
        net[payer] -= amount
        net[payee] += amount

    others = [p for p in points if p != ender]
    if ending is TonkEnding.TONK:
        paid_as_out = options.six_card_tonk and ender_cards < 6
        for p in others:
            pays(p, ender, 1 if paid_as_out else 2)
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
                elif points[p] < points[ender] and not options.texas:
                    pays(ender, p, 1)
            for p in others:
                if p not in winners:
                    for w in winners:
                        pays(p, w, 1)
    elif ending is TonkEnding.DEAL:
        assert bonuses is not None
        bonus = bonuses[ender]
        if any(bonuses[p] is bonus for p in others):
            return net, True
        amount = {
            DealBonus.NINE_OR_LESS: 3,
            DealBonus.THIRTEEN_OR_LESS: 2,
            DealBonus.FIFTY: 2 if options.texas else 1,
            DealBonus.FORTY_NINE: 1,
        }[bonus]
        for p in others:
            pays(p, ender, amount)
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
    st.sampled_from([e for e in TonkEnding if e is not TonkEnding.DEAL]),
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


# --- the real path: validation, fit checks and settlement (docs/rules.md, new rows) ----------

TEXAS = Options(texas=True)
SIX = Options(six_card_tonk=True)


def read(
    seats: list[tuple[str, str]],
    ending: TonkEnding,
    ender: str = "",
    options: Options = PLAIN_OPTIONS,
    spreads: tuple[str, ...] = (),
) -> ShowdownRequest:
    return read_showdown(
        Game.TONK,
        [(player, hand.split(), None) for player, hand in seats],
        table_spreads=[s.split() for s in spreads],
        options=options,
        ending=ending,
        ender=ender,
    )


def paid(
    seats: list[tuple[str, str]],
    ending: TonkEnding,
    ender: str = "",
    options: Options = PLAIN_OPTIONS,
    spreads: tuple[str, ...] = (),
) -> tuple[dict[str, int], bool, str]:
    outcome = showdown(read(seats, ending, ender, options, spreads))
    assert sum(p.stakes for p in outcome.payouts) == 0
    return {p.player: p.stakes for p in outcome.payouts}, outcome.redeal, outcome.explanation


def refused(
    seats: list[tuple[str, str]],
    ending: TonkEnding,
    ender: str = "",
    options: Options = PLAIN_OPTIONS,
    spreads: tuple[str, ...] = (),
) -> list[Violation]:
    with pytest.raises(InvalidRequest) as caught:
        read(seats, ending, ender, options, spreads)
    return list(caught.value.violations)


OTHERS = [("bob", "Kd Qd Jd 5h 6h"), ("cat", "Kc Qc Jc Tc 9c 8c 7c")]
"""bob: 5 cards, 41 points, no bonus; cat: 7 cards (never a bonus)."""


@pytest.mark.parametrize(
    ("hand", "stakes"),
    [
        ("Ac 2c 3d 2h Ad", 3),  # 9 points: nine or less
        ("Ac 2c 3d 2h 5d", 2),  # 13 points: thirteen or less
        ("Ks Qs Js Ts Kh", 1),  # fifty
        ("Ks Qs Js Ts 9d", 1),  # forty-nine
    ],
)
def test_deal_ending_every_other_player_pays_the_ender_by_its_bonus(hand: str, stakes: int) -> None:
    payouts, redeal, _ = paid([("ann", hand), *OTHERS], TonkEnding.DEAL, "ann")
    assert payouts == {"ann": 2 * stakes, "bob": -stakes, "cat": -stakes} and not redeal


def test_texas_tonk_pays_a_dealt_fifty_double_and_a_forty_nine_the_standard_stake() -> None:
    fifty, _, why = paid([("ann", "Ks Qs Js Ts Kh"), *OTHERS], TonkEnding.DEAL, "ann", TEXAS)
    assert fifty == {"ann": 4, "bob": -2, "cat": -2}
    assert "Texas Tonk: a dealt fifty is paid double" in why
    forty_nine, _, _ = paid([("ann", "Ks Qs Js Ts 9d"), *OTHERS], TonkEnding.DEAL, "ann", TEXAS)
    assert forty_nine == {"ann": 2, "bob": -1, "cat": -1}


def test_deal_ending_is_a_redeal_when_another_seat_was_dealt_the_same_bonus() -> None:
    seats = [("ann", "Ks Qs Js Ts Kh"), ("bob", "Kd Qd Jd Td Kc"), ("cat", "2c 3c 4c 5c 6c")]
    payouts, redeal, why = paid(seats, TonkEnding.DEAL, "ann")
    assert redeal and payouts == {"ann": 0, "bob": 0, "cat": 0} and "redeal" in why


def test_deal_ending_another_seats_different_bonus_is_no_redeal() -> None:
    seats = [("ann", "Ks Qs Js Ts Kh"), ("bob", "Ac 2c 3d 2h Ad")]
    assert paid(seats, TonkEnding.DEAL, "ann")[:2] == ({"ann": 1, "bob": -1}, False)


@pytest.mark.parametrize("hand", ["Kd Qd Jd 5h 6h", "Ac 2c 3d 2h Ad 4d 5d"])
def test_deal_ending_without_a_deal_bonus_is_refused_on_ender_with_its_points(hand: str) -> None:
    (violation,) = refused([("ann", hand), ("cat", "Kc")], TonkEnding.DEAL, "ann")
    points = sum(tonk.card_points(parse_card(c)) for c in hand.split())
    assert violation.field == "ender" and f"{points} points" in violation.message


def test_a_tonk_enders_hand_that_lays_down_whole_fits() -> None:
    assert paid([("ann", "5h 6h 7h"), ("bob", "Kc")], TonkEnding.TONK, "ann")[0]["ann"] == 2
    hits = paid([("ann", "8h 9h"), ("bob", "Kc")], TonkEnding.TONK, "ann", spreads=("5h 6h 7h",))
    assert hits[0]["ann"] == 2


def test_a_tonk_enders_hand_that_does_not_lay_down_whole_is_refused_saying_what_is_left() -> None:
    (violation,) = refused([("bob", "Kc"), ("ann", "5h 6h 7h 7c 2d")], TonkEnding.TONK, "ann")
    assert violation == Violation(
        "seats[1].hand", "this hand cannot tonk: 7c 2d are left, 9 points"
    )


def test_an_empty_tonk_or_out_enders_hand_fits() -> None:
    for ending in (TonkEnding.TONK, TonkEnding.OUT):
        assert paid([("ann", ""), ("bob", "Kc")], ending, "ann")[0]["bob"] < 0


def test_an_out_enders_hand_fits_when_one_discard_leaves_cards_that_lay_down_whole() -> None:
    assert paid([("ann", "5h 6h 7h 9c"), ("bob", "Kc")], TonkEnding.OUT, "ann")[0]["ann"] == 1
    assert paid([("ann", "9c"), ("bob", "Kc")], TonkEnding.OUT, "ann")[0]["ann"] == 1
    spread = ("5h 6h 7h",)
    assert paid([("ann", "8h 2c"), ("bob", "Kc")], TonkEnding.OUT, "ann", spreads=spread)[0] == {
        "ann": 1,
        "bob": -1,
    }


def test_an_out_enders_hand_that_no_discard_lays_down_is_refused_saying_what_is_left() -> None:
    (violation,) = refused([("ann", "5h 6h 7h 7c 2d"), ("bob", "Kc")], TonkEnding.OUT, "ann")
    assert violation.field == "seats[0].hand"
    assert violation.message == (
        "this hand cannot go out: whichever card is discarded, cards are left; at best, "
        "discarding 7c, 2d is left, 2 points"
    )


CAUGHT = [("dropper", "Tc"), ("low", "5c"), ("mid", "8c"), ("high", "Qc 2d")]
"""dropper 10 is caught by low 5; mid (8) has fewer points than the dropper, high (12) not."""


def test_texas_tonk_a_caught_dropper_pays_each_winner_two_and_nobody_else() -> None:
    payouts, _, why = paid(CAUGHT, TonkEnding.DROP, "dropper", TEXAS)
    # Standard: dropper -3, low +4, mid 0, high -1 (the dropper also pays mid 1).
    assert payouts == {"dropper": -2, "low": 4, "mid": -1, "high": -1}
    assert why.startswith("Texas Tonk: a caught dropper pays the winner double")


def test_texas_tonk_a_won_drop_an_out_and_a_tonk_pay_as_standard() -> None:
    seats = [("ann", "2c 3c 4c"), ("bob", "Kd 9d")]
    out = [("ann", "2c 3c 4c 9h"), ("bob", "Kd 9d")]
    for hands, ending, stakes, rule in (
        (seats, TonkEnding.DROP, 1, "Texas Tonk: a won drop is paid the standard stake."),
        (seats, TonkEnding.TONK, 2, "Texas Tonk: a tonk is paid double."),
        (out, TonkEnding.OUT, 1, "Texas Tonk: an out is paid the standard stake."),
    ):
        payouts, _, why = paid(hands, ending, "ann", TEXAS)
        assert payouts == {"ann": stakes, "bob": -stakes} and why.startswith(rule)


def test_six_card_tonk_six_cards_laid_down_whole_pay_two() -> None:
    payouts, _, why = paid(
        [("ann", "2c 3c 4c 5c 6c 7c"), ("bob", "Kd")], TonkEnding.TONK, "ann", SIX
    )
    assert payouts == {"ann": 2, "bob": -2} and why.startswith("Six-card tonk")


def test_six_card_tonk_five_cards_are_paid_as_an_out() -> None:
    payouts, _, why = paid([("ann", "2c 3c 4c 5c 6c"), ("bob", "Kd")], TonkEnding.TONK, "ann", SIX)
    assert payouts == {"ann": 1, "bob": -1} and "paid as an out" in why


def test_six_card_tonk_refuses_an_empty_tonk_enders_hand() -> None:
    (violation,) = refused([("bob", "Kd"), ("ann", "")], TonkEnding.TONK, "ann", SIX)
    assert violation.field == "seats[1].hand" and "six_card_tonk" in violation.message


def _run(suit: int, start: int, length: int) -> list[int]:
    return [(start + i) * 4 + suit for i in range(length)]


BONUS_HANDS = ("Ac 2c 3d 2h Ad", "Ac 2c 3d 2h 5d", "Ks Qs Js Ts Kh", "Ks Qs Js Ts 9d")


@st.composite
def dealt_showdowns(
    draw: st.DrawFn,
) -> tuple[list[tuple[str, list[int]]], TonkEnding, str, Options]:
    """A Tonk showdown as a table deals it: the ender's hand fits its ending (a run to
    tonk, a run and a discard to go out, a deal bonus), the others are dealt 5, 7 or 9."""
    ending = draw(st.sampled_from(list(TonkEnding)))
    options = Options(texas=draw(st.booleans()), six_card_tonk=draw(st.booleans()))
    suit = draw(st.integers(0, 3))
    if ending is TonkEnding.TONK:
        length = draw(st.integers(3, 9))
        ender_hand = _run(suit, draw(st.integers(0, 13 - length)), length)
    elif ending is TonkEnding.OUT:
        length = draw(st.integers(3, 8))
        ender_hand = _run(suit, draw(st.integers(0, 13 - length)), length)
        ender_hand.append(draw(st.sampled_from([c for c in range(52) if c not in ender_hand])))
    elif ending is TonkEnding.DEAL:
        ender_hand = [parse_card(c) for c in draw(st.sampled_from(BONUS_HANDS)).split()]
    else:
        ender_hand = []
    deck = draw(st.permutations([c for c in range(52) if c not in ender_hand]))
    count = draw(st.integers(2, 5))
    seats, used = [], 0
    for index in range(count):
        if index == 0 and ender_hand:
            seats.append(("p0", ender_hand))
            continue
        size = draw(st.sampled_from((5, 7, 9)))
        seats.append((f"p{index}", list(deck[used : used + size])))
        used += size
    ender = "" if ending is TonkEnding.STOCK_OUT else "p0"
    return seats, ending, ender, options


@settings(max_examples=300, deadline=None)
@given(dealt_showdowns())
def test_dealt_showdowns_pay_as_the_rules_are_written_and_sum_to_zero(
    dealt: tuple[list[tuple[str, list[int]]], TonkEnding, str, Options],
) -> None:
    seats, ending, ender, options = dealt
    texts = [(player, " ".join(card_text(c) for c in hand)) for player, hand in seats]
    payouts, redeal, explanation = paid(texts, ending, ender, options)
    details = {p: tonk.evaluate(tuple(h), (), (), options).detail for p, h in seats}
    points = {p: d.points for p, d in details.items() if isinstance(d, TonkDetail)}
    bonuses = {p: d.deal_bonus for p, d in details.items() if isinstance(d, TonkDetail)}
    expected = transcribed_payouts(ending, ender, points, options, bonuses, len(seats[0][1]))
    assert (payouts, redeal) == expected
    assert sum(payouts.values()) == 0 and explanation
