"""The one map from a game to its rules: limits, options, evaluator, pot rule, summary.

Every other layer asks this registry instead of branching on the game. Adding a game is
one module, one entry here, one enum value in the proto.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from evaluators import (
    blackjack,
    dots,
    high_card,
    not_poker,
    points,
    poker,
    settlement,
    showdown,
    tonk,
)
from evaluators.cards import Violation
from evaluators.inputs import Cards, Game, Options, ShowdownRequest
from evaluators.results import BatchResult, Evaluation, Resolution

Evaluator = Callable[[Cards, Cards, tuple[Cards, ...], Options], Evaluation]
"""(hand, table, table_spreads, options) -> Evaluation, on input already validated."""

BatchEvaluator = Callable[[npt.NDArray[np.uint8], npt.NDArray[np.uint8], Options], BatchResult]
"""(hands (N, hand_size), tables (N or 1, table_size), options), 255-padded, validated."""

Resolver = Callable[[ShowdownRequest, tuple[tuple[str, Evaluation], ...]], Resolution]
"""(request, (player, evaluation) per seat in seat order) -> awards or payouts."""

ShowdownCheck = Callable[[ShowdownRequest], list[Violation]]


@dataclass(frozen=True)
class GameRules:
    game: Game
    name: str
    number: int
    """Catalogue number where the game has one (0 otherwise)."""
    summary: str
    hand_min: int
    hand_max: int
    table_min: int
    table_max: int
    evaluate: Evaluator
    resolve: Resolver
    headline: Callable[[Evaluation], int]
    """The batch ``value`` of one evaluation (API.md: the game's headline figure)."""
    pots: tuple[str, ...] = ("whole",)
    options: tuple[str, ...] = ()
    jokers: bool = False
    distinct_table_ranks: bool = False
    table_spreads: bool = False
    cards_min: int = 0
    """Minimum hand + table cards together (Poker high: 5)."""
    cards_max: int = 99
    evaluate_batch: BatchEvaluator | None = None
    """Vectorised path; None falls back to a loop over ``evaluate``."""
    check_spread: Callable[[Cards], str | None] | None = None
    """Problem with one table spread, for people, or None if it is valid."""
    check_showdown: ShowdownCheck | None = None
    """Game-specific showdown checks (declarations, endings) beyond sizes and the deck."""
    empty_hand_allowed: Callable[[ShowdownRequest, str], bool] | None = None
    """Whether this seat's hand may be empty in this showdown (Tonk's ender)."""


def _register(*rules: GameRules) -> dict[Game, GameRules]:
    return {r.game: r for r in rules}


def _strength(evaluation: Evaluation) -> int:
    return evaluation.strength


GAMES: dict[Game, GameRules] = _register(
    GameRules(
        game=Game.NUMBERS,
        name="Numbers",
        number=137,
        summary=points.NUMBERS_SUMMARY,
        hand_min=1,
        hand_max=5,
        table_min=0,
        table_max=7,
        distinct_table_ranks=True,
        evaluate=points.evaluate_numbers,
        evaluate_batch=points.evaluate_numbers_batch,
        resolve=showdown.resolve_high_low,
        headline=points.headline,
        pots=("high", "low", "whole"),
    ),
    GameRules(
        game=Game.FLORIDA_BINGO,
        name="Florida Bingo",
        number=508,
        summary=points.FLORIDA_BINGO_SUMMARY,
        hand_min=1,
        hand_max=5,
        table_min=0,
        table_max=7,
        distinct_table_ranks=True,
        evaluate=points.evaluate_florida_bingo,
        evaluate_batch=points.evaluate_florida_bingo_batch,
        resolve=showdown.resolve_high_low,
        headline=points.headline,
        pots=("high", "low", "whole"),
    ),
    GameRules(
        game=Game.FLOP_A,
        name="Flop-A",
        number=1035,
        summary=points.FLOP_A_SUMMARY,
        hand_min=1,
        hand_max=3,
        table_min=0,
        table_max=5,
        distinct_table_ranks=True,
        evaluate=points.evaluate_flop_a,
        evaluate_batch=points.evaluate_flop_a_batch,
        resolve=showdown.resolve_flop_a,
        headline=points.headline,
        pots=("high", "low", "whole"),
        check_showdown=showdown.check_declarations,
    ),
    GameRules(
        game=Game.THREE_THIRTY_THREE,
        name="Three Hundred Thirty Three",
        number=845,
        summary=blackjack.SUMMARY,
        hand_min=1,
        hand_max=3,
        table_min=0,
        table_max=4,
        distinct_table_ranks=True,
        evaluate=blackjack.evaluate_three_thirty_three,
        evaluate_batch=blackjack.evaluate_three_thirty_three_batch,
        resolve=showdown.resolve_single_pot,
        headline=blackjack.headline,
    ),
    GameRules(
        game=Game.HIGH_CARD,
        name="High Card",
        number=509,
        summary=high_card.SUMMARY,
        hand_min=5,
        hand_max=5,
        table_min=5,
        table_max=5,
        evaluate=high_card.evaluate_high_card,
        evaluate_batch=high_card.evaluate_high_card_batch,
        resolve=showdown.resolve_high_card,
        headline=_strength,
        options=("ace_low",),
    ),
    GameRules(
        game=Game.GROCERY_STORE_DOTS,
        name="Grocery Store Dots",
        number=0,
        summary=dots.SUMMARY,
        hand_min=5,
        hand_max=7,
        table_min=0,
        table_max=0,
        evaluate=dots.evaluate_dots,
        evaluate_batch=dots.evaluate_dots_batch,
        resolve=showdown.resolve_poker_and_dots,
        headline=dots.headline,
        pots=("high", "dots"),
    ),
    GameRules(
        game=Game.POKER_HIGH,
        name="Poker high",
        number=0,
        summary=poker.SUMMARY,
        hand_min=1,
        hand_max=7,
        table_min=0,
        table_max=5,
        cards_min=5,
        cards_max=7,
        evaluate=poker.evaluate_poker_high,
        evaluate_batch=poker.evaluate_poker_high_batch,
        resolve=showdown.resolve_single_pot,
        headline=poker.headline,
    ),
    GameRules(
        game=Game.NOT_POKER,
        name="NotPoker",
        number=0,
        summary=not_poker.SUMMARY,
        hand_min=6,
        hand_max=6,
        table_min=0,
        table_max=0,
        jokers=True,
        evaluate=not_poker.evaluate_not_poker,
        evaluate_batch=not_poker.evaluate_not_poker_batch,
        resolve=showdown.resolve_single_pot,
        headline=not_poker.headline,
    ),
    GameRules(
        game=Game.TONK,
        name="Tonk",
        number=0,
        summary=tonk.SUMMARY,
        hand_min=1,
        hand_max=10,
        table_min=0,
        table_max=0,
        table_spreads=True,
        evaluate=tonk.evaluate_tonk,
        evaluate_batch=tonk.evaluate_tonk_batch,
        resolve=settlement.settle_tonk,
        headline=tonk.headline,
        pots=(),
        options=("hit_runs_only",),
        check_spread=tonk.check_spread,
        check_showdown=settlement.check_ending,
        empty_hand_allowed=settlement.empty_hand_allowed,
    ),
)
