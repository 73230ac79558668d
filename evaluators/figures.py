"""How figures read for people: the small formats every game's ``figures`` shares.

A game's ``figures(evaluation)`` (see ``game_rules.GameRules``) returns (label, text,
brief) rows; these helpers keep the texts alike across games: cards in canonical text
(``-`` for none), ``yes``/``no``, enum members as lower-case words, halves as ``½``.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable

from evaluators.cards import card_text


def cards_text(cards: Iterable[int]) -> str:
    """``Ah Kd``; ``-`` for no cards."""
    return " ".join(card_text(card) for card in cards) or "-"


def yes_no(value: bool) -> str:
    return "yes" if value else "no"


def enum_text(member: enum.Enum) -> str:
    """``PokerCategory.FULL_HOUSE`` -> ``full house``."""
    return member.name.replace("_", " ").lower()


def half_text(halves: int) -> str:
    """A count of half points as people write it: ``12``, ``3½``, ``½``."""
    whole, half = divmod(halves, 2)
    if not half:
        return str(whole)
    return f"{whole}½" if whole else "½"
