"""What the client knows of games and cards without the server's code: ``catalogue_data``.

That module is data written from the server's core (``python -m service.wire.client_catalogue``
in the repository, whose tests fail when it is stale), so each game's friendly names and
each card spelling are stated once, in the core, and the client never imports it.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import NamedTuple

from handeval_client import catalogue_data

EMPTY = 255
"""The card id that pads a short row of a packed batch (docs/api.md)."""


class GameNames(NamedTuple):
    """How a caller may name one game, and the house options it reads."""

    wire: str
    """The contract's enum name: ``GAME_POKER_HIGH``."""
    slug: str
    """``poker-high``."""
    name: str
    """``Poker high``."""
    aliases: tuple[str, ...]
    """Other names callers use: ``poker``, ``333``."""
    options: tuple[str, ...]
    """The ``Options`` fields this game reads."""


GAMES: tuple[GameNames, ...] = tuple(
    GameNames(g["wire"], g["slug"], g["name"], tuple(g["aliases"]), tuple(g["options"]))
    for g in catalogue_data.GAMES
)
"""Every game, in ListGames order."""
CARD_TEXTS: tuple[str, ...] = tuple(catalogue_data.CARDS)
"""The canonical text of each card id: ``CARD_TEXTS[51] == "As"``, 52 and 53 the jokers."""
_SPELLINGS: MappingProxyType[str, int] = MappingProxyType(catalogue_data.SPELLINGS)
_CARD_HELP: str = catalogue_data.CARD_HELP


def parse_card(text: str) -> int:
    """The id of a card's text (``Ah``, ``10d``, ``X1``; the server's notation, case
    insensitive); ValueError naming the notation for anything else."""
    card = _SPELLINGS.get(text)
    if card is None:
        raise ValueError(f"{text!r} is not a card: {_CARD_HELP}")
    return card


def card_text(card: int) -> str:
    """The canonical text of a card id: ``As``, ``Td``, ``X1``."""
    return CARD_TEXTS[card]
