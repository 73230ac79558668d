"""What the client must know of games and cards, written from the core as data.

The client (``handeval_client``) installs without the core, so it cannot import the
registry or the card reader; it reads ``catalogue.json`` beside it instead: every game's
wire name, slug, display name, aliases and options, and every accepted card spelling
with its id. That file is this module's output, committed; ``tests/unit/service/wire/
test_client_catalogue.py`` fails when it no longer matches the core. After changing a
game's names or options, or the card notation::

    python -m service.wire.client_catalogue
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from handeval_client.gen.handeval.v1 import handeval_pb2 as pb

from evaluators.cards import CARD_HELP, TEXT_TO_ID, card_text
from evaluators.registry import GAMES
from service.wire.enums import game_value

CATALOGUE = Path(__file__).resolve().parents[2] / "clients/python/handeval_client/catalogue.json"


def catalogue() -> dict[str, Any]:
    """The catalogue's content: games in ListGames order, cards by id."""
    return {
        "games": [
            {
                "wire": pb.Game.Name(game_value(rules.game)),
                "slug": rules.game.value,
                "name": rules.name,
                "aliases": list(rules.aliases),
                "options": list(rules.options),
            }
            for rules in GAMES.values()
        ],
        "cards": [card_text(card) for card in range(54)],
        "spellings": dict(sorted(TEXT_TO_ID.items())),
        "card_help": CARD_HELP,
    }


def text() -> str:
    """The catalogue as the committed file holds it."""
    return json.dumps(catalogue(), indent=1, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    CATALOGUE.write_text(text())
    print(CATALOGUE)
