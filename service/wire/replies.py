"""The core's results as reply messages, and an ``Evaluation`` read back into the core's.

Cards go out as text; the detail goes into the ``oneof detail`` field its ``WIRE`` names,
field by field (``details``); ``game`` and ``request_id`` are echoed as the caller sent
them, so a reply carries even a number this build does not know.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any

from handeval_client.gen.handeval.v1 import handeval_pb2 as pb

from evaluators.cards import card_text, parse_card
from evaluators.odds import Odds, serves_odds
from evaluators.registry import GameRules
from evaluators.results import Detail, Evaluation, ShowdownOutcome
from service.wire import _evaluation
from service.wire.details import detail_from_wire, detail_to_wire
from service.wire.enums import game_value


def _cards(cards: Iterable[int]) -> list[str]:
    return [card_text(c) for c in cards]


def to_odds_response(
    result: Odds, game: pb.Game.ValueType, request_id: str = ""
) -> pb.OddsResponse:
    """The wire OddsResponse; ``game`` and ``request_id`` are echoed as the caller sent them."""
    return pb.OddsResponse(
        request_id=request_id,
        game=game,
        seats=[
            pb.SeatOdds(
                player=seat.player,
                share=seat.share,
                pots=[pb.PotOdds(pot=p.pot, win=p.win, share=p.share) for p in seat.pots],
                instant_win=seat.instant_win,
            )
            for seat in result.seats
        ],
        redeal=result.redeal,
        exact=result.exact,
        runouts=result.runouts,
        standard_error=result.standard_error,
    )


def from_evaluation(evaluation: pb.Evaluation) -> Evaluation | None:
    """The core Evaluation a wire Evaluation carries, or None without a detail this build
    knows (a newer server's): what a game's ``figures`` read for people."""
    detail = detail_from_wire(evaluation)
    if detail is None:
        return None
    return Evaluation(
        strength=evaluation.strength,
        description=evaluation.description,
        detail=detail,
        low_strength=evaluation.low_strength,
        instant_win=evaluation.instant_win,
        out_after=evaluation.out_after,
        kept=tuple(parse_card(c) for c in evaluation.kept),
        discarded=tuple(parse_card(c) for c in evaluation.discarded),
    )


def to_evaluation(
    evaluation: Evaluation, game: pb.Game.ValueType, request_id: str = ""
) -> pb.Evaluation:
    """The wire Evaluation; ``game`` and ``request_id`` are echoed as the caller sent them.
    One constructor call builds it, detail included (a showdown's seats; a unary call or a
    stream message goes out as ``evaluation_bytes``)."""
    return _message(evaluation, game, request_id, **detail_to_wire(evaluation.detail))


def _message(
    evaluation: Evaluation, game: pb.Game.ValueType, request_id: str, **detail: Any
) -> pb.Evaluation:
    """The fields most games leave at their defaults are set only when they are not: each
    field given to protobuf's constructor costs, and a poker hand's five of nine were
    zero or empty (the message is the same either way)."""
    message = pb.Evaluation(
        request_id=request_id,
        game=game,
        strength=evaluation.strength,
        description=evaluation.description,
        **detail,
    )
    if evaluation.low_strength:
        message.low_strength = evaluation.low_strength
    if evaluation.instant_win:
        message.instant_win = evaluation.instant_win
    if evaluation.out_after:
        message.out_after = evaluation.out_after
    if evaluation.kept:
        message.kept.extend(_cards(evaluation.kept))
    if evaluation.discarded:
        message.discarded.extend(_cards(evaluation.discarded))
    return message


DETAIL_BYTES_CACHED = 16_384
"""Details whose serialised ``oneof detail`` field is kept (least recently used out): more
than poker's 7,462 classes, a few MB at most."""


@functools.lru_cache(maxsize=DETAIL_BYTES_CACHED)
def _detail_bytes(detail: Detail) -> bytes:
    return pb.Evaluation(**detail_to_wire(detail)).SerializeToString()


def evaluation_bytes(evaluation: Evaluation, game: int, request_id: str = "") -> bytes:
    """``to_evaluation(...)`` serialised, for a unary or stream reply. The fields before the
    detail are written in C as protobuf writes them (``_evaluation.evaluation_head``: no
    message built), and the detail's field comes from a cache: the same details recur (a
    detail is a frozen, hashable value), and building its sub-message was a third of the
    conversion. Protobuf writes fields in number order, and the detail's come last."""
    kept, discarded = evaluation.kept, evaluation.discarded
    head = _evaluation.evaluation_head(
        request_id,
        game,
        evaluation.strength,
        evaluation.low_strength,
        evaluation.instant_win,
        evaluation.out_after,
        tuple(map(card_text, kept)) if kept else (),
        tuple(map(card_text, discarded)) if discarded else (),
        evaluation.description,
    )
    return head + _detail_bytes(evaluation.detail)


def to_showdown_response(
    outcome: ShowdownOutcome, game: pb.Game.ValueType, request_id: str = ""
) -> pb.ShowdownResponse:
    return pb.ShowdownResponse(
        results=[
            pb.SeatResult(player=player, evaluation=to_evaluation(evaluation, game))
            for player, evaluation in outcome.results
        ],
        awards=[
            pb.Award(
                player=a.player,
                pot=a.pot,
                numerator=a.share.numerator,
                denominator=a.share.denominator,
            )
            for a in outcome.awards
        ],
        redeal=outcome.redeal,
        payouts=[pb.Payout(player=p.player, stakes=p.stakes) for p in outcome.payouts],
        explanation=outcome.explanation,
        request_id=request_id,
    )


def to_game_info(rules: GameRules) -> pb.GameInfo:
    return pb.GameInfo(
        game=game_value(rules.game),
        name=rules.name,
        number=rules.number,
        hand_min=rules.hand_min,
        hand_max=rules.hand_max,
        table_min=rules.table_min,
        table_max=rules.table_max,
        jokers=rules.jokers,
        pots=list(rules.pots),
        options=list(rules.options),
        summary=rules.summary,
        odds=serves_odds(rules.game),
    )


def to_list_games(games: Iterable[GameRules]) -> pb.ListGamesResponse:
    return pb.ListGamesResponse(games=[to_game_info(rules) for rules in games])
