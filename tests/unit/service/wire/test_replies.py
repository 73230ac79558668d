"""The core's results as reply messages: awards, payouts, the games listed."""

from __future__ import annotations

from fractions import Fraction

import pytest
from handeval_client.gen.handeval.v1 import handeval_pb2 as pb

from evaluators.cards import card_text
from evaluators.deal import deal
from evaluators.inputs import Game
from evaluators.registry import GAMES
from evaluators.results import (
    Award,
    Payout,
    ShowdownOutcome,
)
from evaluators.scoring import evaluate
from evaluators.validation import read_hand
from service.wire import enums, replies
from service.wire.enums import game_value


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


@pytest.mark.parametrize("game", list(Game), ids=lambda g: g.value)
def test_an_evaluations_bytes_read_as_its_message_with_the_detail_cached(game: Game) -> None:
    """Every game's dealt hands, each converted twice (the second time the detail's bytes
    come from the cache): the bytes read back as ``to_evaluation``'s message."""
    dealt = deal(game, 40, seed=12)
    for hand, table in dealt.singles(len(dealt)):
        evaluation = evaluate(read_hand(game, texts(hand), texts(table)))
        expected = replies.to_evaluation(evaluation, game_value(game), "id-7")
        for _ in range(2):
            data = replies.evaluation_bytes(evaluation, game_value(game), "id-7")
            assert pb.Evaluation.FromString(data) == expected


def test_an_evaluation_message_carries_every_figure_set_or_not() -> None:
    """``to_evaluation`` sets the often-default figures only when they are not: every
    game's dealt hands read back equal to a message given every field, and between them
    each of those figures is set somewhere (so a figure left out would show)."""
    seen: set[str] = set()
    for game in Game:
        dealt = deal(game, 200, seed=5)
        for hand, table in dealt.singles(len(dealt)):
            evaluation = evaluate(read_hand(game, texts(hand), texts(table)))
            every_field = pb.Evaluation(
                request_id="id-3",
                game=game_value(game),
                strength=evaluation.strength,
                low_strength=evaluation.low_strength,
                instant_win=evaluation.instant_win,
                out_after=evaluation.out_after,
                description=evaluation.description,
                kept=texts(evaluation.kept),
                discarded=texts(evaluation.discarded),
            )
            message = replies.to_evaluation(evaluation, game_value(game), "id-3")
            message.ClearField("detail")
            assert message == every_field
            seen.update(field.name for field, _ in every_field.ListFields())
    assert {"low_strength", "instant_win", "out_after", "kept", "discarded"} <= seen


def texts(cards: tuple[int, ...]) -> list[str]:
    return [card_text(c) for c in cards]
