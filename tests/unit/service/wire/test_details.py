"""Every detail type fills its ``oneof`` field, field by field, and reads back."""

from __future__ import annotations

import pytest

from evaluators.cards import card_text, parse_card
from evaluators.deal import deal
from evaluators.inputs import Game
from evaluators.results import (
    BlackjackDetail,
    DealBonus,
    DotsDetail,
    Evaluation,
    HighCardDetail,
    Hit,
    NotPokerCategory,
    NotPokerDetail,
    PointsDetail,
    PokerCategory,
    PokerDetail,
    TonkDetail,
)
from evaluators.scoring import evaluate
from evaluators.validation import read_hand
from service.gen.handeval.v1 import handeval_pb2 as pb
from service.wire import replies
from service.wire.enums import game_value


def ids(text: str) -> tuple[int, ...]:
    return tuple(parse_card(c) for c in text.split())


POKER_FIVE = PokerDetail(PokerCategory.FLUSH, 323, ids("Ah Jh 9h 5h 2h"))
DETAILS = [
    (PointsDetail(30.5, 3.5), "points", pb.PointsDetail(high_total=30.5, low_total=3.5)),
    (BlackjackDetail(19, True, False), "blackjack", pb.BlackjackDetail(total=19, soft=True)),
    (
        HighCardDetail(3, ids("2c 5d 9h Jh Ac")),
        "high_card",
        pb.HighCardDetail(survived=3, ascending=["2c", "5d", "9h", "Jh", "Ac"]),
    ),
    (
        POKER_FIVE,
        "poker",
        pb.PokerDetail(
            category=pb.POKER_CATEGORY_FLUSH,
            rank_class=323,
            best_five=["Ah", "Jh", "9h", "5h", "2h"],
        ),
    ),
    (
        DotsDetail(4, POKER_FIVE),
        "dots",
        pb.DotsDetail(
            dots=4,
            poker=pb.PokerDetail(
                category=pb.POKER_CATEGORY_FLUSH,
                rank_class=323,
                best_five=["Ah", "Jh", "9h", "5h", "2h"],
            ),
        ),
    ),
    (
        NotPokerDetail(NotPokerCategory.TWO_TRIPS, ("AAA", "333"), ("3",)),
        "not_poker",
        pb.NotPokerDetail(
            category=pb.NOT_POKER_CATEGORY_TWO_TRIPS, groups=["AAA", "333"], jokers_as=["3"]
        ),
    ),
    (
        TonkDetail(
            points=30,
            deadwood=12,
            spreads=(ids("5h 6h 7h"),),
            hits=(Hit(parse_card("Jh"), 1),),
            deadwood_cards=ids("Kd 2c"),
            tonk=False,
            deal_bonus=DealBonus.NONE,
        ),
        "tonk",
        pb.TonkDetail(
            points=30,
            deadwood=12,
            spreads=[pb.Spread(cards=["5h", "6h", "7h"])],
            hits=[pb.Hit(card="Jh", spread_index=1)],
            deadwood_cards=["Kd", "2c"],
            deal_bonus=pb.DEAL_BONUS_NONE,
        ),
    ),
]


@pytest.mark.parametrize(("detail", "field", "want"), DETAILS, ids=[d[1] for d in DETAILS])
def test_every_detail_type_fills_its_oneof_field(detail: object, field: str, want: object) -> None:
    evaluation = Evaluation(
        strength=7,
        description="for people",
        detail=detail,  # type: ignore[arg-type]
        low_strength=3,
        instant_win=False,
        out_after=0,
        kept=ids("Ah Kd"),
        discarded=ids("2c"),
    )
    reply = replies.to_evaluation(evaluation, pb.GAME_NUMBERS, "r-1")
    assert reply.WhichOneof("detail") == field
    assert getattr(reply, field) == want
    assert (reply.request_id, reply.game, reply.strength, reply.low_strength) == (
        "r-1",
        pb.GAME_NUMBERS,
        7,
        3,
    )
    assert (list(reply.kept), list(reply.discarded)) == (["Ah", "Kd"], ["2c"])


def test_a_spades_detail_without_a_spade_is_empty_text_and_back() -> None:
    for hand, highest in (("Ah Ks 2s 3d 4c", "Ks"), ("Ah Kh 2h 3d 4c", "")):
        evaluation = evaluate(read_hand(Game.TONK_SPADES, hand.split()))
        wire = replies.to_evaluation(evaluation, pb.GAME_TONK_SPADES)
        assert wire.spades.highest == highest
        assert replies.from_evaluation(wire) == evaluation


@pytest.mark.parametrize("game", list(Game), ids=lambda g: g.value)
def test_every_games_dealt_evaluations_go_to_the_wire_and_back_unchanged(game: Game) -> None:
    """From the registry and the dealer alone: a new game's detail is covered with no edit."""
    dealt = deal(game, 40, seed=11)
    for hand, table in dealt.singles(len(dealt)):
        evaluation = evaluate(read_hand(game, texts(hand), texts(table)))
        wire = replies.to_evaluation(evaluation, game_value(game))
        assert wire.WhichOneof("detail") == type(evaluation.detail).WIRE
        assert replies.from_evaluation(wire) == evaluation


def texts(cards: tuple[int, ...]) -> list[str]:
    return [card_text(c) for c in cards]


def test_an_evaluation_without_a_detail_this_build_knows_reads_as_none() -> None:
    assert replies.from_evaluation(pb.Evaluation(strength=3)) is None
