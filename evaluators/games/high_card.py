"""High Card (#509): how many of the five checks against the table a hand survives.

Hand and table (5 cards each) are sorted ascending by rank; at check n a hand whose n-th
lowest card is lower than the table's n-th lowest folds, and an equal card is not lower
(docs/rules.md, "High Card"). Aces are high unless the option ``ace_low``; suits never matter.

Strength points up: it is ``survived``, the checks passed before the first fold (0-5).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import ClassVar

import numpy as np
import numpy.typing as npt

from evaluators.cards import ACE, DECK_SIZE, RANKS
from evaluators.costs import UnitCost
from evaluators.figures import cards_text
from evaluators.game_odds import (
    CompiledPot,
    Declarations,
    Figures,
    Matrix,
    OddsGame,
    ScoredFigures,
    Split,
)
from evaluators.game_rules import Figure, GameRules, Results
from evaluators.inputs import Cards, Game, Options, ShowdownRequest
from evaluators.kernels import _odds, _points
from evaluators.results import BatchResult, Detail, Evaluation, Resolution
from evaluators.runouts import showdown as array_showdown
from evaluators.showdown import WHOLE, best_players, evaluation_of, names_text, share_out, wins_text


@dataclass(frozen=True, slots=True)
class HighCardDetail(Detail):
    WIRE: ClassVar[str] = "high_card"

    survived: int
    ascending: Cards


SUMMARY = (
    "High Card (#509): five cards each and five on the table. Both are sorted from the "
    "lowest rank up; a player whose lowest card is lower than the table's lowest folds, "
    "then the second lowest is checked, and so on, until one player is left to take the "
    "pot. If everyone folds it is a redeal; players surviving all five checks split. "
    "Aces are high unless the ace_low option is set; suits never matter."
)

CHECKS = 5
_ORDINALS = ("1st", "2nd", "3rd", "4th", "5th")

ACE_LOW_OFFSET = 256 - 4 * ACE
"""Added to a card id modulo 256 with ``ace_low``: the aces (48-51) wrap to 0-3, below
every other card, and the other ranks keep their order and their suit bits."""


def _offset(ace_low: bool) -> int:
    return ACE_LOW_OFFSET if ace_low else 0


@cache
def sort_keys(ace_low: bool) -> tuple[int, ...]:
    """Per card id 0-51: ``(card + offset) % 256``; ``key >> 2`` orders the ranks.

    The rank order starts at ``2`` with aces high and at ``A`` with ``ace_low``. The low two
    bits (the suit) only make the reported order of equal ranks deterministic. 52 ints,
    built in microseconds; the batch path does the same addition on uint8 columns.
    """
    return tuple((card + _offset(ace_low)) % 256 for card in range(DECK_SIZE))


def evaluate(
    hand: Cards, table: Cards, table_spreads: tuple[Cards, ...], options: Options
) -> Evaluation:
    """Score a 5-card ``hand`` against the 5-card ``table``; strength = ``survived``."""
    keys = sort_keys(options.ace_low)
    ascending = tuple(sorted(hand, key=keys.__getitem__))
    table_ascending = sorted(table, key=keys.__getitem__)
    survived = 0
    for mine, theirs in zip(ascending, table_ascending, strict=True):
        if keys[mine] >> 2 < keys[theirs] >> 2:
            break
        survived += 1
    if survived == CHECKS:
        description = "Survived all 5 checks"
    else:
        mine_rank = RANKS[ascending[survived] >> 2]
        theirs_rank = RANKS[table_ascending[survived] >> 2]
        description = (
            f"Survived {survived} of 5 checks: folds at the {_ORDINALS[survived]}, "
            f"{mine_rank} under the table's {theirs_rank}"
        )
    return Evaluation(
        strength=survived,
        description=description,
        detail=HighCardDetail(survived, ascending),
    )


_SORT_NETWORK_5 = ((0, 3), (1, 4), (0, 2), (1, 3), (0, 1), (2, 4), (1, 2), (3, 4), (2, 3))
"""A 9-comparator sorting network for five values (each pair ends lower, higher)."""


def _sorted_columns(columns: list[npt.NDArray[np.uint8]]) -> list[npt.NDArray[np.uint8]]:
    """Sort five columns element-wise (row i of the result is row i sorted ascending)."""
    out = list(columns)
    for low, high in _SORT_NETWORK_5:
        out[low], out[high] = np.minimum(out[low], out[high]), np.maximum(out[low], out[high])
    return out


@cache
def rank_order(ace_low: bool) -> npt.NDArray[np.uint8]:
    """Per byte 0-255: its rank's place in the order the checks compare, 0 (the lowest) to
    12, as ``sort_keys`` orders them; 0 for bytes that are not cards (never in a validated
    hand). 256 uint8, read by the compiled batch."""
    order = np.zeros(256, dtype=np.uint8)
    order[:DECK_SIZE] = np.array(sort_keys(ace_low)) >> 2
    order[:DECK_SIZE] = np.unique(order[:DECK_SIZE], return_inverse=True)[1]
    order.flags.writeable = False
    return order


def check_order(options: Options) -> npt.NDArray[np.uint8]:
    """``rank_order`` for the request's options: what Odds' fused chunk call reads
    (``game_odds.ScoredFigures``)."""
    return rank_order(options.ace_low)


def evaluate_batch(
    hands: npt.NDArray[np.uint8], tables: npt.NDArray[np.uint8], options: Options
) -> BatchResult:
    """The batch form of ``evaluate``; equal to it hand by hand: compiled
    (``_points.checks_survived``, the GIL released), equal to ``reference_batch``.

    ``hands`` (N, 5), ``tables`` (N or 1, 5), validated (High Card has no padding).
    Figures are 8 bits wide.
    """
    count = hands.shape[0]
    survived = np.empty(count, dtype=np.uint8)
    _points.checks_survived(
        rank_order(options.ace_low),
        np.ascontiguousarray(hands, dtype=np.uint8),
        np.ascontiguousarray(tables, dtype=np.uint8),
        hands.shape[1],
        survived,
    )
    return BatchResult.ranked_only(survived, survived.view(np.int8))


def reference_batch(
    hands: npt.NDArray[np.uint8], tables: npt.NDArray[np.uint8], options: Options
) -> BatchResult:
    """``evaluate_batch`` in numpy, the reference the compiled batch is held equal to:
    vectorised per card position with a sorting network, never per hand."""
    offset = np.uint8(_offset(options.ace_low))  # uint8 columns wrap modulo 256
    hand_keys = _sorted_columns(list(np.ascontiguousarray(hands.T) + offset))
    table_keys = _sorted_columns(list(np.ascontiguousarray(tables.T) + offset))
    alive = np.ones(hands.shape[0], dtype=np.bool_)
    survived = np.zeros(hands.shape[0], dtype=np.int64)
    for mine, theirs in zip(hand_keys, table_keys, strict=True):
        alive &= mine >> 2 >= theirs >> 2
        survived += alive
    return BatchResult(
        strength=survived.astype(np.uint64),
        low_strength=np.zeros(hands.shape[0], dtype=np.uint64),
        value=survived,
        instant_win=np.zeros(hands.shape[0], dtype=np.bool_),
    )


def survived(evaluation: Evaluation) -> int:
    """Checks passed before the first fold, 0-5: more is better (the batch ``value``)."""
    return evaluation.detail_as(HighCardDetail).survived


def resolve(request: ShowdownRequest, results: Results) -> Resolution:
    """The unique most ``survived`` checks wins the whole pot.

    A tie at the top below 5 means those players all fold at the same check and nobody is
    left: redeal (this covers everyone folding at the first check). A tie at 5 splits.
    """
    winners = best_players(results, survived)
    top = survived(evaluation_of(results, winners[0]))
    if len(winners) == 1:
        checks = "all 5 checks" if top == CHECKS else f"{top} of 5 checks"
        explanation = (
            f"{winners[0]} passes {checks}, more than anyone else, and wins the whole pot."
        )
        return Resolution(share_out(winners, "whole", WHOLE), False, explanation)
    if top == CHECKS:
        explanation = f"{wins_text(winners, 'the whole pot')}: they pass all 5 checks."
        return Resolution(share_out(winners, "whole", WHOLE), False, explanation)
    if top == 0:
        return Resolution((), True, "Everyone folds at the first check: redeal.")
    explanation = (
        f"{names_text(winners)} pass {top} of 5 checks and all fold at check {top + 1}, "
        "so everyone has folded: redeal."
    )
    return Resolution((), True, explanation)


def figures(evaluation: Evaluation) -> list[Figure]:
    detail = evaluation.detail_as(HighCardDetail)
    return [
        ("survived", str(detail.survived), True),
        ("ascending", cards_text(detail.ascending), False),
    ]


def odds_figures(hands: Sequence[Matrix], table: Matrix, options: Options) -> Figures:
    return array_showdown.batch_figures(evaluate_batch, hands, table, options)


def odds_showdown(figures: Figures, declarations: Declarations) -> Split:
    """``resolve`` over arrays (Odds): the unique most checks survived takes the pot; a
    tie at the top splits at 5 checks and is a redeal below."""
    survived = figures.strength
    top = array_showdown.best(survived)
    wins = (array_showdown.across(np.add, top.view(np.int8)) == 1) | (
        array_showdown.across(np.maximum, survived) == CHECKS
    )
    whole = array_showdown.share_out(top, 1.0) * wins
    return Split(whole[:, None], ~wins)


RULES = GameRules(
    game=Game.HIGH_CARD,
    name="High Card",
    number=509,
    summary=SUMMARY,
    hand_min=5,
    hand_max=5,
    table_min=5,
    table_max=5,
    evaluate=evaluate,
    evaluate_batch=evaluate_batch,
    reference_batch=reference_batch,
    resolve=resolve,
    headline=survived,
    figures=figures,
    detail=HighCardDetail,
    options=("ace_low",),
    odds=OddsGame(
        hand_min=5,
        hand_max=5,
        figures=odds_figures,
        showdown=odds_showdown,
        pot=CompiledPot(_odds.UNIQUE_BEST, split_at=CHECKS),
        scored=ScoredFigures(_odds.CHECKS, check_order),
        runout_cost=UnitCost(cpu_ns=96, bytes=80),
    ),
)
