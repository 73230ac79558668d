"""The core's results as reply messages: awards, payouts, the games listed."""

from __future__ import annotations

from fractions import Fraction

from evaluators.registry import GAMES
from evaluators.results import (
    Award,
    Payout,
    ShowdownOutcome,
)
from service.gen.handeval.v1 import handeval_pb2 as pb
from service.wire import enums, replies


def test_awards_are_fractions_of_the_whole_pot_and_payouts_signed_stakes() -> None:
    outcome = ShowdownOutcome(
        results=(),
        awards=(Award("a", "high", Fraction(1, 4)), Award("b", "whole", Fraction(3, 4))),
        redeal=False,
        payouts=(Payout("a", 2), Payout("b", -2)),
        explanation="why",
    )
    reply = replies.to_showdown_response(outcome, pb.GAME_NUMBERS, "pot-1")
    assert [(a.player, a.pot, a.numerator, a.denominator) for a in reply.awards] == [
        ("a", "high", 1, 4),
        ("b", "whole", 3, 4),
    ]
    assert [(p.player, p.stakes) for p in reply.payouts] == [("a", 2), ("b", -2)]
    assert (reply.request_id, reply.explanation) == ("pot-1", "why")


def test_list_games_carries_every_registry_entry() -> None:
    reply = replies.to_list_games(GAMES.values())
    assert [enums.to_game(g.game) for g in reply.games] == list(GAMES)
    tonk = next(g for g in reply.games if g.game == pb.GAME_TONK)
    assert list(tonk.pots) == []
    assert list(tonk.options) == ["hit_runs_only", "texas", "six_card_tonk"]
    spades = next(g for g in reply.games if g.game == pb.GAME_TONK_SPADES)
    assert (spades.name, spades.hand_min, spades.hand_max, spades.table_max) == (
        "Tonk spades",
        5,
        9,
        0,
    )
    assert list(spades.pots) == ["spades"] and list(spades.options) == ["ace_low"]
    assert not spades.jokers and spades.summary
