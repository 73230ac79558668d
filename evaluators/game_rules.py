"""The shape of one game's rules: what every game module exports as ``RULES``.

Every other layer asks a game's ``GameRules`` instead of branching on the game: sizes and
deck for validation and the dealer, ``evaluate`` and ``evaluate_batch`` for scoring, the
pot rule for showdowns, the summary for ``ListGames``, ``figures`` for people and ``odds``
for the cards still to come.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from evaluators.costs import BATCH_HAND_COST, UnitCost
from evaluators.errors import Violation
from evaluators.game_odds import OddsGame
from evaluators.inputs import Cards, Game, Options, ShowdownRequest
from evaluators.results import BatchResult, Detail, Evaluation, Resolution

Evaluator = Callable[[Cards, Cards, tuple[Cards, ...], Options], Evaluation]
"""(hand, table, table_spreads, options) -> Evaluation, on input already validated."""

BatchEvaluator = Callable[[npt.NDArray[np.uint8], npt.NDArray[np.uint8], Options], BatchResult]
"""(hands (N, hand_size), tables (N or 1, table_size), options), 255-padded, validated;
equal to ``Evaluator`` hand by hand, with the game's ``headline`` as ``value``."""

ScreenedBatchEvaluator = Callable[
    [npt.NDArray[np.uint8], npt.NDArray[np.uint8], Options, int, memoryview, memoryview], bool
]
"""(hands (N, hand_size) holding no padding, one table (1, table_size) that has passed the
screen with them, options, the first refused byte, strength, value) -> True with
``BatchEvaluator``'s strength and value written into ``strength`` and ``value`` (N writable
uint32 and int32 cells: ``results.RankedCells``; a game with one ranking, its low_strength
0 and no instant win), each hand's cards checked in the same pass: no byte from the first
refused one up (every byte from it up is refused in a full row: jokers the game does not
deal, the bytes that are no card, the padding byte), no card twice, none of the table's.
False when any hand fails (or the pass cannot run here): the cells then mean nothing, and
the caller screens the batch as usual."""

Results = tuple[tuple[str, Evaluation], ...]
"""(player, evaluation) per seat, in seat order."""

Resolver = Callable[[ShowdownRequest, Results], Resolution]
"""(request, each seat's evaluation) -> awards or payouts."""

ShowdownCheck = Callable[[ShowdownRequest], list[Violation]]

Figure = tuple[str, str, bool]
"""(label, value for people, shown in a showdown's seat table too)."""


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
    evaluate_batch: BatchEvaluator
    resolve: Resolver
    headline: Callable[[Evaluation], int]
    """The batch ``value`` of one evaluation (docs/api.md: the game's headline figure)."""
    figures: Callable[[Evaluation], list[Figure]]
    """How an evaluation reads for people after its strength, in the order docs/api.md lists
    the figures (the discard rule's first where the game has it)."""
    detail: type[Detail]
    """The kind of ``Evaluation.detail`` this game's evaluations carry (its figures on the
    wire: the service converts every kind the registry's games name)."""
    aliases: tuple[str, ...] = ()
    """Short names people type for the game besides its name and slug (``333``)."""
    pots: tuple[str, ...] = ("whole",)
    options: tuple[str, ...] = ()
    jokers: bool = False
    distinct_table_ranks: bool = False
    cards_min: int = 0
    """Minimum hand + table cards together (Poker high: 5)."""
    cards_max: int = 99
    check_spread: Callable[[Cards], str | None] | None = None
    """Problem with one table spread, for people, or None if it is valid; None here means
    the game has no table spreads."""
    check_showdown: ShowdownCheck | None = None
    """Game-specific showdown checks (declarations, endings) beyond sizes and the deck."""
    empty_hand_allowed: Callable[[ShowdownRequest, str], bool] | None = None
    """Whether this seat's hand may be empty in this showdown (Tonk's ender)."""
    showdown_options: tuple[str, ...] = ()
    """Those of ``options`` that only a showdown reads (Tonk's payout house rules): set in
    an evaluation or a batch they are refused like any option the game does not read."""
    reference_batch: BatchEvaluator | None = None
    """The numpy batch the compiled ``evaluate_batch`` is held equal to, exactly (the
    tests hold them equal, the benchmark runs both); None where ``evaluate_batch`` is
    numpy itself."""
    screened_batch: ScreenedBatchEvaluator | None = None
    """``evaluate_batch`` with the card checks in the same pass, for full hands on one
    shared table (``batch.evaluate_batch`` then reads the bytes once); None where the game
    has no such pass."""
    batch_cost: UnitCost = BATCH_HAND_COST
    """One hand of a batch, read, scored and its reply written (``evaluators.costs``): the
    server admits a batch by it."""
    odds: OddsGame | None = None
    """The deal and vectorised pot rule for Odds; None where hands change by the players'
    choices or are decided at the deal (the game serves no odds)."""
