"""Hostile input at every RPC: random bytes, random card texts, random field values.

The server answers each call with a proper status: OK, INVALID_ARGUMENT for anything it
cannot score, bytes that are no message included, or RESOURCE_EXHAUSTED for bytes longer
than any request within the request limits (never INTERNAL, which would be a bug). It
logs no error, stays up, drains cleanly afterwards, and its memory does not grow without bound.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import grpc
import pytest
from handeval_client.gen.handeval.v1 import handeval_pb2 as pb
from handeval_client.gen.handeval.v1 import handeval_pb2_grpc as pb_grpc
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import ServerProcess, start_server

METHODS = ("Evaluate", "EvaluateStream", "EvaluateBatch", "Showdown", "ListGames")
PROPER = {grpc.StatusCode.OK, grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.RESOURCE_EXHAUSTED}
RAW_CALLS_PER_METHOD = 600
EXAMPLES = 300
RSS_GROWTH_LIMIT_KIB = 16 * 1024
"""Generous: measured growth over these rounds is about 1-2 MiB (VmRSS ~75 MiB)."""

CARDS = [r + s for r in "23456789TJQKA" for s in "cdhs"] + ["X1", "X2", "10d", "q♠"]
card_texts = st.one_of(st.sampled_from(CARDS), st.text(max_size=6), st.just(""))
card_lists = st.lists(card_texts, max_size=12)
games = st.one_of(st.sampled_from(list(pb.Game.values())), st.integers(-3, 40))
options = st.builds(pb.Options, ace_low=st.booleans(), hit_runs_only=st.booleans())
spreads = st.lists(st.builds(pb.Spread, cards=card_lists), max_size=3)
evaluate_requests = st.builds(
    pb.EvaluateRequest,
    game=games,
    hand=card_lists,
    table=st.lists(card_texts, max_size=8),
    table_spreads=spreads,
    options=options,
    request_id=st.text(max_size=8),
)
seats = st.builds(
    pb.Seat,
    player=st.sampled_from(["", "a", "b", "c", "a"]),
    hand=card_lists,
    declaration=st.integers(-1, 5),
)
showdown_requests = st.builds(
    pb.ShowdownRequest,
    game=games,
    seats=st.lists(seats, max_size=5),
    table=st.lists(card_texts, max_size=8),
    table_spreads=spreads,
    options=options,
    ending=st.integers(-1, 6),
    ender=st.sampled_from(["", "a", "b", "z"]),
    request_id=st.text(max_size=8),
)
card_bytes = st.lists(
    st.one_of(st.integers(0, 53), st.just(255), st.integers(0, 255)), max_size=60
).map(bytes)
batch_requests = st.builds(
    pb.EvaluateBatchRequest,
    game=games,
    hands=card_bytes,
    hand_size=st.one_of(st.integers(0, 12), st.integers(0, 2**32 - 1)),
    tables=card_bytes,
    table_size=st.one_of(st.integers(0, 8), st.integers(0, 2**32 - 1)),
    options=options,
)
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@pytest.fixture(scope="module")
def own_server() -> Iterator[ServerProcess]:
    """A server only these tests use, so its memory is theirs to measure."""
    running = start_server()
    yield running
    assert not running.named("error"), running.named("error")
    assert running.stop() == 0


@pytest.fixture(scope="module")
def own_channel(own_server: ServerProcess) -> Iterator[grpc.Channel]:
    with grpc.insecure_channel(own_server.target) as channel:
        yield channel


@pytest.fixture(scope="module")
def own_stub(own_channel: grpc.Channel) -> pb_grpc.HandEvaluatorStub:
    return pb_grpc.HandEvaluatorStub(own_channel)


def _raw_call(channel: grpc.Channel, method: str) -> Callable[[bytes], grpc.StatusCode]:
    """Send bytes as they are (no serializer) and return the status code of the answer."""
    path = f"/handeval.v1.HandEvaluator/{method}"
    if method == "EvaluateStream":
        stream = channel.stream_stream(path)

        def call_stream(data: bytes) -> grpc.StatusCode:
            try:
                list(stream(iter([data]), timeout=10))
            except grpc.RpcError as error:
                return _checked(error)
            return grpc.StatusCode.OK

        return call_stream
    unary = channel.unary_unary(path)

    def call_unary(data: bytes) -> grpc.StatusCode:
        try:
            unary(data, timeout=10)
        except grpc.RpcError as error:
            return _checked(error)
        return grpc.StatusCode.OK

    return call_unary


def _checked(error: grpc.RpcError) -> grpc.StatusCode:
    code: grpc.StatusCode = error.code()
    assert code in PROPER, (code, error.details())
    return code


def _random_bytes(rng: random.Random) -> bytes:
    """Mostly short garbage, some bytes that look like protobuf fields, a few long ones."""
    kind = rng.random()
    if kind < 0.4:
        return rng.randbytes(rng.randint(0, 40))
    if kind < 0.9:
        fields = bytearray()
        for _ in range(rng.randint(1, 6)):
            fields += bytes([rng.randint(1, 12) << 3 | rng.choice((0, 2, 5)), rng.randint(0, 200)])
            fields += rng.randbytes(rng.randint(0, 10))
        return bytes(fields)
    return rng.randbytes(rng.randint(1000, 100_000))


def test_random_bytes_at_every_rpc_get_a_proper_status(
    own_server: ServerProcess, own_channel: grpc.Channel
) -> None:
    rng = random.Random(20240601)
    codes: dict[grpc.StatusCode, int] = {}
    calls = {method: _raw_call(own_channel, method) for method in METHODS}
    for _ in range(RAW_CALLS_PER_METHOD):
        for call in calls.values():
            code = call(_random_bytes(rng))
            codes[code] = codes.get(code, 0) + 1
    assert sum(codes.values()) == RAW_CALLS_PER_METHOD * len(METHODS)
    assert set(codes) == PROPER
    assert own_server.process.poll() is None


@FUZZ
@given(request=evaluate_requests)
def test_random_hands_are_scored_or_refused(
    own_stub: pb_grpc.HandEvaluatorStub, request: pb.EvaluateRequest
) -> None:
    try:
        reply = own_stub.Evaluate(request, timeout=10)
    except grpc.RpcError as error:
        _checked(error)
        assert error.code() is grpc.StatusCode.INVALID_ARGUMENT
    else:
        assert reply.request_id == request.request_id and reply.WhichOneof("detail")


@settings(
    max_examples=EXAMPLES // 5,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(requests=st.lists(evaluate_requests, min_size=1, max_size=10))
def test_a_random_stream_gets_one_reply_per_request(
    own_stub: pb_grpc.HandEvaluatorStub, requests: list[pb.EvaluateRequest]
) -> None:
    replies = list(own_stub.EvaluateStream(iter(requests), timeout=10))
    assert [r.request_id for r in replies] == [r.request_id for r in requests]
    invalid = grpc.StatusCode.INVALID_ARGUMENT.value[0]
    for reply in replies:
        assert reply.WhichOneof("detail") or reply.error.code == invalid


@FUZZ
@given(request=showdown_requests)
def test_random_showdowns_are_resolved_or_refused(
    own_stub: pb_grpc.HandEvaluatorStub, request: pb.ShowdownRequest
) -> None:
    try:
        reply = own_stub.Showdown(request, timeout=10)
    except grpc.RpcError as error:
        _checked(error)
        assert error.code() is grpc.StatusCode.INVALID_ARGUMENT
    else:
        assert reply.request_id == request.request_id and len(reply.results) == len(request.seats)


@FUZZ
@given(request=batch_requests)
def test_random_batches_are_scored_or_refused(
    own_stub: pb_grpc.HandEvaluatorStub, request: pb.EvaluateBatchRequest
) -> None:
    try:
        reply = own_stub.EvaluateBatch(request, timeout=10)
    except grpc.RpcError as error:
        _checked(error)
        assert error.code() is grpc.StatusCode.INVALID_ARGUMENT
    else:
        count = len(request.hands) // request.hand_size if request.hand_size else 0
        assert len(reply.strength) == len(reply.value) == len(reply.instant_win) == count


def test_memory_stays_bounded_under_repeated_hostile_traffic(
    own_server: ServerProcess, own_channel: grpc.Channel
) -> None:
    calls = [_raw_call(own_channel, method) for method in METHODS]
    stub = pb_grpc.HandEvaluatorStub(own_channel)
    rng = random.Random(7)

    def round_of_traffic() -> None:
        for _ in range(150):
            for call in calls:
                call(_random_bytes(rng))
            try:
                stub.Evaluate(pb.EvaluateRequest(game=pb.GAME_TONK, hand=["Zz"] * 50), timeout=10)
            except grpc.RpcError as error:
                assert error.code() is grpc.StatusCode.INVALID_ARGUMENT

    round_of_traffic()
    before = own_server.rss_kib()
    round_of_traffic()
    round_of_traffic()
    after = own_server.rss_kib()
    assert after - before < RSS_GROWTH_LIMIT_KIB, (before, after)
    assert own_server.process.poll() is None
