"""A refused batch's problems, every one of every hand and table, vectorised, in the single
path's words (``validation``, ``cards``): an ``InvalidRequest`` naming up to
``MAX_LISTED_VIOLATIONS`` indexes as ``hands[17]`` / ``tables[17]`` plus a count of the
rest. ``batch`` asks it only when the compiled screen (``batch.screen``) refuses a batch;
tests hold the two equal.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from evaluators.cards import (
    EMPTY,
    JOKER_2,
    check_one_deck,
    deck_size,
    rows_with_repeats,
    table_pairs,
)
from evaluators.errors import MAX_LISTED_VIOLATIONS, InvalidRequest, Violation
from evaluators.game_rules import GameRules
from evaluators.rules_check import joker_message, size_message, together_message, within
from evaluators.validation import check_table_pairs

Matrix = npt.NDArray[np.uint8]
Mask = npt.NDArray[np.bool_]

Problem = tuple[Mask, Callable[[int], str]]
"""Rows that have one kind of problem, and the sentence for one such row."""


def check(rules: GameRules, hands: Matrix, tables: Matrix) -> None:
    """Every problem of every hand and table, vectorised; raise InvalidRequest if any."""
    hand_count = (hands != EMPTY).sum(axis=1)
    table_count = (tables != EMPTY).sum(axis=1)
    together = hand_count + table_count
    per_hand = _per_hand(tables, len(hands))
    cards_only = (
        np.where(hands <= JOKER_2, hands, EMPTY),
        np.where(per_hand <= JOKER_2, per_hand, EMPTY),
    )
    hand_problems = _card_problems(rules, hands, "hand")
    hand_problems += [
        (
            ~within(hand_count, rules.hand_min, rules.hand_max),
            lambda i: size_message("the hand", int(hand_count[i]), rules.hand_min, rules.hand_max),
        ),
        (
            ~within(together, rules.cards_min, rules.cards_max),
            lambda i: together_message(rules, int(together[i])),
        ),
        (
            rows_with_repeats(np.concatenate(cards_only, axis=1)),
            lambda i: _repeats_message(cards_only[0][i], cards_only[1][i]),
        ),
    ]
    table_problems = _card_problems(rules, tables, "table")
    table_problems.append(
        (
            ~within(table_count, rules.table_min, rules.table_max),
            lambda i: size_message(
                "the table", int(table_count[i]), rules.table_min, rules.table_max
            ),
        )
    )
    if rules.distinct_table_ranks:
        table_problems.append((table_pairs(tables), lambda i: _pairs_message(tables[i])))
    bad_hands, hands_total = _first_bad(hand_problems, "hands", MAX_LISTED_VIOLATIONS)
    bad_tables, tables_total = _first_bad(
        table_problems, "tables", MAX_LISTED_VIOLATIONS - len(bad_hands)
    )
    violations = bad_hands + bad_tables
    for field, total, listed in (
        ("hands", hands_total, len(bad_hands)),
        ("tables", tables_total, len(bad_tables)),
    ):
        if total > listed:
            violations.append(
                Violation(
                    field,
                    f"{total - listed} more {field} are invalid (only {MAX_LISTED_VIOLATIONS} "
                    "problems are listed)",
                )
            )
    if violations:
        raise InvalidRequest(violations)


def _card_problems(rules: GameRules, cards: Matrix, what: str) -> list[Problem]:
    not_a_card = (cards > JOKER_2) & (cards != EMPTY)
    problems: list[Problem] = [
        (
            not_a_card.any(axis=1),
            lambda i: (
                f"the {what} has byte {cards[i][not_a_card[i]][0]}, which is not a "
                f"card: ids are 0-51, 52-53 for jokers, {EMPTY} for an empty slot"
            ),
        )
    ]
    refused = deck_size(rules.jokers)
    if refused <= JOKER_2:
        jokers = within(cards, refused, JOKER_2)
        problems.append((np.logical_or.reduce(jokers, axis=1), lambda i: joker_message(rules)))
    return problems


def _repeats_message(hand: Matrix, table: Matrix) -> str:
    """Each card a row repeats, at its place and the first, in the words of the single
    path (``cards.check_one_deck``): ``hand[3]: duplicate card 'Ah': also at hand[0]``.
    Places count bytes of the row as sent, padding included; ``table`` is this hand's
    table, shared or its own."""
    repeats: list[Violation] = []
    check_one_deck((("hand", hand.tolist()), ("table", table.tolist())), repeats)
    return _joined(repeats)


def _pairs_message(table: Matrix) -> str:
    """Each card of a table that pairs an earlier one, in the words of the single path
    (``validation.check_table_pairs``): ``table[1]: the table pairs: 3d has the rank 3 of
    table[0]; ...``, places counted as in ``_repeats_message``."""
    pairs: list[Violation] = []
    check_table_pairs(tuple(table.tolist()), "table", pairs)
    return _joined(pairs)


def _joined(violations: list[Violation]) -> str:
    return "; ".join(f"{violation.field}: {violation.message}" for violation in violations)


def _per_hand(tables: Matrix, count: int) -> Matrix:
    return np.broadcast_to(tables, (count, tables.shape[1])) if len(tables) == 1 else tables


def _first_bad(problems: list[Problem], field: str, limit: int) -> tuple[list[Violation], int]:
    """A Violation for each of the first ``limit`` bad rows (all its problems in one
    sentence), and how many rows are bad in all."""
    bad = np.zeros(len(problems[0][0]), dtype=np.bool_)
    for mask, _ in problems:
        bad |= mask
    rows = np.flatnonzero(bad)
    violations = [
        Violation(
            f"{field}[{index}]", "; ".join(say(index) for mask, say in problems if mask[index])
        )
        for index in rows[: max(limit, 0)].tolist()
    ]
    return violations, len(rows)
