"""A columns reply written in place (``batch_reply.ColumnsReply``, filled by
``evaluators.batch.score_batch``) is byte for byte the reply of the figures written
after the scoring, and of protobuf's serialisation; a batch that cannot go that way, or
fails, answers as it always did."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt
import pytest

from evaluators import scoring
from evaluators.batch import open_batch, score_batch
from evaluators.cards import EMPTY
from evaluators.errors import InvalidRequest, Violation
from evaluators.inputs import Game, Options
from evaluators.registry import GAMES
from evaluators.results import BatchResult
from service.wire import batch_reply
from service.wire.batch_reply import ColumnsReply, reply_bytes
from tests.unit.service.wire.test_batch_reply import protobufs_columns

Matrix = npt.NDArray[np.uint8]
FIRST = scoring.first_chunk_hands(GAMES[Game.POKER_HIGH].batch_cost)
"""The one pass's first chunk of poker hands: a batch past it goes in several chunks."""


def replies(
    game: Game,
    hands: Matrix,
    table: Matrix,
    keep_going: Callable[[], bool] | None = None,
) -> tuple[bytes | list[Violation], bytes | list[Violation], bool]:
    """(the reply written in place, the reply written from the figures after the scoring,
    whether the first went in place): each the bytes or the problems named."""
    args = (hands.tobytes(), hands.shape[1], table.tobytes(), table.size, Options(), 10**6)

    def answer(room: ColumnsReply | None) -> tuple[bytes | list[Violation], bool]:
        try:
            opened = open_batch(game, *args)
            result = score_batch(opened, keep_going, room)
        except InvalidRequest as refused:
            return list(refused.violations), False
        if room is None:
            assert result is not None
            return batch_reply.serialized_columns(result), False
        return reply_bytes(result, room), result is None

    in_place, went_in_place = answer(ColumnsReply(len(hands)))
    after, _ = answer(None)
    return in_place, after, went_in_place


def deals(count: int, hand: int, table: int, seed: int) -> tuple[Matrix, Matrix]:
    """``count`` hands of ``hand`` cards on one shared ``table`` of cards none holds."""
    rng = np.random.default_rng(seed)
    board = rng.permutation(52)[:table].astype(np.uint8)
    left = np.setdiff1d(np.arange(52, dtype=np.uint8), board)
    rows = rng.permuted(np.tile(left, (count, 1)), axis=1)[:, :hand]
    return np.ascontiguousarray(rows), board.reshape(1, table)


@pytest.mark.parametrize(
    ("count", "hand", "table"), [(1, 7, 0), (3, 5, 0), (1_001, 6, 0), (20_000, 7, 0), (999, 2, 5)]
)
def test_a_reply_written_in_place_is_the_reply_written_after(
    count: int, hand: int, table: int
) -> None:
    hands, board = deals(count, hand, table, seed=count + hand)
    in_place, after, went_in_place = replies(Game.POKER_HIGH, hands, board)
    assert went_in_place
    assert in_place == after
    rules = GAMES[Game.POKER_HIGH]
    assert rules.reference_batch is not None
    assert in_place == protobufs_columns(rules.reference_batch(hands, board, Options()))


def test_a_reply_in_place_over_many_chunks_is_the_reply_written_after() -> None:
    hands, board = deals(FIRST * 2 + 5, 7, 0, seed=3)
    asked: list[bool] = []

    def keep_going() -> bool:
        asked.append(True)
        return True

    in_place, after, went_in_place = replies(Game.POKER_HIGH, hands, board, keep_going)
    assert went_in_place and asked
    assert in_place == after


@pytest.mark.parametrize("place", [0, 6, 5_000 * 7 + 3, -1])
@pytest.mark.parametrize("byte", [EMPTY, 52, 60, "repeat"])
def test_a_bad_card_or_padding_anywhere_answers_as_it_did(place: int, byte: int | str) -> None:
    # The one pass refuses the batch (padding too: a padded 7-card row is a valid 6-card
    # hand, scored the two-pass way), which answers as it did without a reply to fill.
    hands, board = deals(10_001, 7, 0, seed=8)
    flat = hands.reshape(-1)
    flat[place] = flat[place - 1 if place else 1] if byte == "repeat" else byte
    in_place, after, went_in_place = replies(Game.POKER_HIGH, hands, board, lambda: True)
    assert not went_in_place
    assert in_place == after
    assert isinstance(in_place, bytes) == (byte == EMPTY)


def test_a_bad_card_in_a_later_chunk_answers_as_it_did() -> None:
    hands, board = deals(FIRST + 7, 7, 0, seed=9)
    hands[FIRST + 2, 4] = hands[FIRST + 2, 0]
    in_place, after, went_in_place = replies(Game.POKER_HIGH, hands, board, lambda: True)
    assert not went_in_place
    assert isinstance(in_place, list) and in_place == after
    assert [v.field for v in in_place] == [f"hands[{FIRST + 2}]"]


@pytest.mark.parametrize(
    ("game", "hand", "table"),
    [(Game.POKER_HIGH, 7, 0), (Game.GROCERY_STORE_DOTS, 7, 0), (Game.HIGH_CARD, 5, 5)],
)
def test_an_empty_batch_or_a_game_without_the_one_pass_is_written_after_as_ever(
    game: Game, hand: int, table: int
) -> None:
    for count in (0, 50):
        hands, board = deals(count, hand, table, seed=count)
        in_place, after, went_in_place = replies(game, hands, board)
        assert in_place == after
        assert went_in_place == (count > 0 and GAMES[game].screened_batch is not None)
    assert (GAMES[game].screened_batch is None) == (game == Game.HIGH_CARD)


def test_a_reply_lends_its_columns_until_every_view_is_gone() -> None:
    room = ColumnsReply(3)
    strength, value = room.strength, room.value
    assert (strength.format, value.format, strength.nbytes) == ("I", "i", 12)
    strength[:] = memoryview(np.array([1, 2, 3], np.uint32)).cast("B").cast("I")
    value[:] = memoryview(np.array([-1, 0, 7462], np.int32)).cast("B").cast("i")
    part = strength[1:]
    del strength
    with pytest.raises(BufferError):
        room.finish()
    del part, value
    reply = room.finish()
    want = BatchResult.ranked_only(np.array([1, 2, 3], np.uint32), np.array([-1, 0, 7462]))
    assert reply == protobufs_columns(want)
    with pytest.raises(ValueError, match="finished"):
        room.finish()
    with pytest.raises(ValueError, match="finished"):
        room.strength.tobytes()


def test_a_reply_whose_columns_were_never_asked_for_is_not_finished() -> None:
    with pytest.raises(ValueError, match="no column"):
        ColumnsReply(5).finish()
    empty = ColumnsReply(0)
    assert len(empty.strength) == 0
    assert empty.finish() == protobufs_columns(
        BatchResult.ranked_only(np.zeros(0, np.uint32), np.zeros(0, np.int32))
    )
    with pytest.raises(ValueError):
        ColumnsReply(-1)
