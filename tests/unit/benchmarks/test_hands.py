"""The benchmarks' seeded hands: every deal passes batch validation, a key gives the same deal,
and the Tonk peers' deals hold no queen-king-ace run of one suit."""

from __future__ import annotations

import numpy as np

from benchmarks import hands
from evaluators.batch import evaluate_batch
from evaluators.inputs import Options


def test_every_seeded_deal_passes_batch_validation() -> None:
    for deal in [*hands.core_deals(500), *hands.tonk_peer_deals(200)]:
        result = evaluate_batch(
            deal.game,
            deal.hands.tobytes(),
            deal.hands.shape[1],
            deal.tables.tobytes() if deal.tables.shape[1] else b"",
            deal.tables.shape[1],
            Options(),
            max_hands=len(deal),
        )
        assert len(result.strength) == len(deal), deal.key


def test_deals_are_the_same_for_the_same_key() -> None:
    first, again = hands.tonk_deal(10, False, 300), hands.tonk_deal(10, False, 300)
    assert np.array_equal(first.hands, again.hands)


def test_tonk_deals_never_hold_a_queen_king_ace_of_one_suit() -> None:
    for deal in hands.tonk_peer_deals(2000):
        assert hands.no_queen_king_ace_run(deal.hands).all(), deal.key
