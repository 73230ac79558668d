"""A batch in chunks (``service.server.chunks``): the same answer as one pass, violations
numbered over the whole batch, and a stop asked for between chunks honoured at once."""

from __future__ import annotations

import numpy as np
import pytest

from evaluators.batch import BatchCancelled, evaluate_batch
from evaluators.cards import InvalidRequest
from evaluators.inputs import Game, Options
from service.server.chunks import FIRST_CHUNK, evaluate_in_chunks

HANDS = 20_000
RNG = np.random.default_rng(11)
DEALT = RNG.permuted(np.tile(np.arange(52, dtype=np.uint8), (HANDS, 1)), axis=1)


SHARED_TABLE = bytes(range(5))
"""2c 2d 2h 2s 3c: the hands below are dealt from the other 47 cards."""
AROUND_IT = RNG.permuted(np.tile(np.arange(5, 52, dtype=np.uint8), (HANDS, 1)), axis=1)
CASES = {
    "no table": (Game.TONK, DEALT[:, :10].tobytes(), 10, b"", 0),
    "a table per hand": (Game.HIGH_CARD, DEALT[:, :5].tobytes(), 5, DEALT[:, 5:10].tobytes(), 5),
    "one shared table": (Game.POKER_HIGH, AROUND_IT[:, :2].tobytes(), 2, SHARED_TABLE, 5),
}


@pytest.mark.parametrize("case", CASES)
def test_chunks_answer_as_one_pass(case: str) -> None:
    game, hands, hand_size, tables, table_size = CASES[case]
    whole = evaluate_batch(game, hands, hand_size, tables, table_size, Options(), HANDS)
    chunked = evaluate_in_chunks(
        game, hands, hand_size, tables, table_size, Options(), HANDS, lambda: True
    )
    for field in ("strength", "low_strength", "value", "instant_win"):
        assert np.array_equal(getattr(whole, field), getattr(chunked, field)), field


def test_a_bad_hand_in_a_later_chunk_is_numbered_over_the_whole_batch() -> None:
    rows = DEALT[:, :10].copy()
    rows[FIRST_CHUNK * 3 + 5, 1] = rows[FIRST_CHUNK * 3 + 5, 0]  # a card twice
    with pytest.raises(InvalidRequest) as whole:
        evaluate_batch(Game.TONK, rows.tobytes(), 10, b"", 0, Options(), HANDS)
    with pytest.raises(InvalidRequest) as chunked:
        evaluate_in_chunks(Game.TONK, rows.tobytes(), 10, b"", 0, Options(), HANDS, lambda: True)
    assert chunked.value.violations == whole.value.violations
    assert any(str(FIRST_CHUNK * 3 + 5) in v.field for v in chunked.value.violations)


def test_a_stop_is_honoured_after_the_first_chunk() -> None:
    asked: list[int] = []

    def keep_going() -> bool:
        asked.append(1)
        return False

    hands = DEALT[:, :10].tobytes()
    with pytest.raises(BatchCancelled, match=f"after {FIRST_CHUNK} of {HANDS}"):
        evaluate_in_chunks(Game.TONK, hands, 10, b"", 0, Options(), HANDS, keep_going)
    assert len(asked) == 1
