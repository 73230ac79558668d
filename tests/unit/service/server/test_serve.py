"""What the server does before it serves (``service.server.serve``): a valid sample hand
of every game from its limits alone, which the warm-up scores singly and as a batch."""

from __future__ import annotations

from evaluators.cards import card_text
from evaluators.registry import GAMES
from evaluators.scoring import evaluate
from evaluators.validation import read_hand
from service.server.serve import sample_hand, warm_up


def test_every_games_sample_hand_is_valid() -> None:
    for rules in GAMES.values():
        hand, table = sample_hand(rules)
        assert not set(hand) & set(table)
        evaluate(read_hand(rules.game, [card_text(c) for c in hand], [card_text(c) for c in table]))


def test_the_warm_up_scores_every_game_and_says_how_long_it_took() -> None:
    assert warm_up() >= 0.0
