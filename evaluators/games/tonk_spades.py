"""Tonk spades: the side bet on who was dealt the highest spade (docs/rules.md "Tonk spades").

A participant's hand is their dealt Tonk hand (5-9 cards), no table. Strength points up:
the rank of the highest spade, 1 (2s) ... 13 (As), 0 without a spade; with ``ace_low``
the ace is 1 and the other spades move up by one (2s is 2 ... Ks is 13). One deck, so two
hands never share a highest spade: the highest takes the whole side pot, ``spades``; when
nobody holds a spade the pot goes back in equal shares.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar

import numpy as np
import numpy.typing as npt

from evaluators.cards import ACE, DECK_SIZE, card_text, rank_of, suit_of
from evaluators.figures import cards_text
from evaluators.game_rules import Figure, GameRules, Results
from evaluators.inputs import Cards, Game, Options, ShowdownRequest
from evaluators.kernels import _tonk
from evaluators.results import BatchResult, Detail, Evaluation, Resolution
from evaluators.showdown import best_players, evaluation_of, names_text, share_out


@dataclass(frozen=True, slots=True)
class SpadesDetail(Detail):
    WIRE: ClassVar[str] = "spades"

    highest: int | None
    """The highest spade's card id; None without a spade (empty text on the wire)."""


SUMMARY = (
    "Tonk spades: the Tonk side bet on who was dealt the highest spade. Each participant "
    "shows their dealt Tonk hand (5-9 cards, no table); strength is the rank of the "
    "highest spade, 1 (2s) to 13 (As), 0 without one (option ace_low: the ace is the "
    "lowest spade). The highest spade takes the whole side pot (pot spades); if nobody "
    "holds a spade, every participant gets an equal share back."
)

SPADES = 3
POT = "spades"


def spade_strength(card: int, ace_low: bool) -> int:
    """1 ... 13 for a spade by rank (ace high, or lowest with ``ace_low``); 0 otherwise."""
    if card >= DECK_SIZE or suit_of(card) != SPADES:
        return 0
    rank = rank_of(card)
    if ace_low:
        return 1 if rank == ACE else rank + 2
    return rank + 1


def _strength_table(ace_low: bool) -> npt.NDArray[np.int64]:
    """Per byte 0-255 (card ids, 255 padding): ``spade_strength``."""
    return np.array([spade_strength(card, ace_low) for card in range(256)], dtype=np.int64)


_STRENGTHS = {ace_low: _strength_table(ace_low) for ace_low in (False, True)}


def evaluate(
    hand: Cards, table: Cards, table_spreads: tuple[Cards, ...], options: Options
) -> Evaluation:
    """The highest spade of a dealt hand; ``table`` and ``table_spreads`` are empty."""
    del table, table_spreads
    spades = [card for card in hand if spade_strength(card, options.ace_low)]
    if not spades:
        return Evaluation(strength=0, description="No spade", detail=SpadesDetail(None))
    highest = max(spades, key=lambda card: spade_strength(card, options.ace_low))
    return Evaluation(
        strength=spade_strength(highest, options.ace_low),
        description=f"Highest spade {card_text(highest)}",
        detail=SpadesDetail(highest),
    )


def evaluate_batch(
    hands: npt.NDArray[np.uint8], tables: npt.NDArray[np.uint8], options: Options
) -> BatchResult:
    """The batch form of ``evaluate`` (``hands`` (N, hand_size), 255-padded), compiled
    (``_tonk.highest`` of the same table, the GIL released) and equal to
    ``reference_batch``; ``value`` is the strength, 16 bits wide."""
    del tables
    count = hands.shape[0]
    best = np.empty(count, dtype=np.int16)
    _tonk.highest(
        _STRENGTHS[options.ace_low],
        np.ascontiguousarray(hands, dtype=np.uint8),
        hands.shape[1],
        best,
    )
    return BatchResult.ranked_only(best.view(np.uint16), best)


def reference_batch(
    hands: npt.NDArray[np.uint8], tables: npt.NDArray[np.uint8], options: Options
) -> BatchResult:
    """``evaluate_batch`` in numpy, the reference the compiled batch is held equal to: one
    table lookup per card position and a running maximum."""
    del tables
    strengths = _STRENGTHS[options.ace_low]
    count = hands.shape[0]
    best = np.zeros(count, dtype=np.int64)
    for column in np.ascontiguousarray(hands.T):
        np.maximum(best, np.take(strengths, column), out=best)
    return BatchResult(
        strength=best.astype(np.uint64),
        low_strength=np.zeros(count, dtype=np.uint64),
        value=best,
        instant_win=np.zeros(count, dtype=np.bool_),
    )


def strength(evaluation: Evaluation) -> int:
    """The batch ``value``: the highest spade's strength (0 without one)."""
    return evaluation.strength


def resolve(request: ShowdownRequest, results: Results) -> Resolution:
    """The highest spade takes the whole side pot; nobody with a spade: equal shares back."""
    del request
    winners = best_players(results, strength)
    if strength(evaluation_of(results, winners[0])) == 0:
        players = [player for player, _ in results]
        explanation = (
            f"Nobody holds a spade: the side pot goes back, {names_text(players)} each get "
            f"1/{len(players)}."
        )
        return Resolution(share_out(players, POT, Fraction(1)), False, explanation)
    (winner,) = winners
    highest = cards_text(_highest(evaluation_of(results, winner)))
    explanation = f"{winner} holds the highest spade ({highest}) and takes the whole side pot."
    return Resolution(share_out(winners, POT, Fraction(1)), False, explanation)


def _highest(evaluation: Evaluation) -> Cards:
    """The highest spade as a one-card tuple; empty without a spade."""
    detail = evaluation.detail_as(SpadesDetail)
    return () if detail.highest is None else (detail.highest,)


def figures(evaluation: Evaluation) -> list[Figure]:
    return [("highest spade", cards_text(_highest(evaluation)), True)]


RULES = GameRules(
    game=Game.TONK_SPADES,
    name="Tonk spades",
    number=0,
    summary=SUMMARY,
    hand_min=5,
    hand_max=9,
    table_min=0,
    table_max=0,
    evaluate=evaluate,
    evaluate_batch=evaluate_batch,
    reference_batch=reference_batch,
    resolve=resolve,
    headline=strength,
    figures=figures,
    detail=SpadesDetail,
    pots=(POT,),
    options=("ace_low",),
)
