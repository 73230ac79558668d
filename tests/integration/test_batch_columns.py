"""EvaluateBatch's two reply layouts, over a real server: byte columns (``columns`` set) and
the packed fields carry the same figures for every game, and those of the core."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest
from handeval_client import HandevalClient, HandevalError, batch_request
from handeval_client.gen.handeval.v1 import handeval_pb2 as pb

from benchmarks.launcher import ServerProcess
from evaluators.batch import evaluate_batch
from evaluators.deal import deal
from evaluators.inputs import Game, Options
from evaluators.registry import GAMES
from evaluators.results import BatchResult

HANDS = 3000
OPTIONS = [Options(), Options(ace_low=True), Options(hit_runs_only=True)]


@pytest.fixture(scope="module")
def client(server: ServerProcess) -> Iterator[HandevalClient]:
    with HandevalClient(server.target, timeout=30) as handeval:
        handeval.wait_ready()
        yield handeval


def _read(options: Options) -> set[str]:
    return {name for name in ("ace_low", "hit_runs_only") if getattr(options, name)}


def assert_same(got: BatchResult, want: BatchResult, *, dtypes: bool = True) -> None:
    """The same figures; with ``dtypes``, of the same widths too (the client's two layouts
    read alike; the core's widths are its own, ``BatchResult``)."""
    for name in ("strength", "low_strength", "value", "instant_win"):
        mine, theirs = getattr(got, name), getattr(want, name)
        assert not dtypes or mine.dtype == theirs.dtype, name
        assert np.array_equal(mine, theirs), name


@pytest.mark.parametrize("game", list(GAMES), ids=lambda g: g.value)
def test_columns_and_packed_replies_carry_the_same_figures(
    client: HandevalClient, game: Game
) -> None:
    rules = GAMES[game]
    dealt = deal(game, HANDS, seed=16)
    for options in (o for o in OPTIONS if _read(o) <= set(rules.options)):
        columns = client.evaluate_batch(game, dealt.hands, dealt.tables, options)
        packed = client.evaluate_batch(game, dealt.hands, dealt.tables, options, columns=False)
        core = evaluate_batch(
            game, dealt.hands.tobytes(), dealt.hand_size, dealt.tables.tobytes(),
            dealt.table_size, options, HANDS,
        )  # fmt: skip
        assert_same(columns, packed)
        assert_same(columns, core, dtypes=False)


def test_a_columns_reply_has_only_columns_and_a_packed_one_only_packed(
    client: HandevalClient,
) -> None:
    dealt = deal(Game.POKER_HIGH, 10, seed=1)
    for columns in (True, False):
        request = batch_request(Game.POKER_HIGH, dealt.hands, columns=columns)
        reply = client.send_batch(request)
        assert reply.HasField("columns") is columns
        assert (len(reply.strength) == 10) is not columns
        assert len(reply.columns.strength) == (40 if columns else 0)
        assert len(reply.columns.instant_win) == (10 if columns else 0)


def test_an_empty_batch_asked_for_columns_answers_empty_columns(client: HandevalClient) -> None:
    request = pb.EvaluateBatchRequest(game=pb.GAME_POKER_HIGH, hand_size=7, columns=True)
    reply = client.send_batch(request)
    assert reply.HasField("columns") and reply.columns == pb.BatchColumns()
    assert len(client.evaluate_batch(Game.POKER_HIGH, b"", hand_size=7).strength) == 0


def test_ids_that_are_not_bytes_are_refused_before_sending(client: HandevalClient) -> None:
    with pytest.raises(HandevalError, match="0-255"):
        client.evaluate_batch(Game.POKER_HIGH, np.array([[256 + 12, 0, 4, 8, 16]]))
    wide = np.array([[48, 44, 40, 36, 32]], dtype=np.int64)
    assert client.evaluate_batch(Game.POKER_HIGH, wide).value.tolist() == [1]
