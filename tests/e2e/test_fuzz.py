"""Hostile input, bounded: hypothesis over request decoding, card parsing and every
evaluator in-process (``evaluators.validation`` then ``evaluators.scoring``), and at the
live server maximal batches of every game, deeply nested and oversized protobufs.

In-process, each property may only answer or refuse: a message or ``Unreadable`` from the
decoder, a card id or ValueError from the parser, an evaluation or ``InvalidRequest`` from
validation + scoring; any other exception is a bug. At the server every call gets a proper
status and the server stays SERVING. ``tests/test_robustness.py`` fuzzes the RPCs over the
wire; this file goes wider in-process, where examples are cheap.
"""

from __future__ import annotations

from collections.abc import Iterator

import grpc
import pytest
from handeval_client import HandevalClient, HandevalError
from handeval_client.gen.handeval.v1 import handeval_pb2 as pb
from hypothesis import given, settings
from hypothesis import strategies as st

from evaluators.cards import DECK_SIZE, card_text, parse_card
from evaluators.deal import deal, default_sizes
from evaluators.errors import InvalidRequest
from evaluators.inputs import Declaration, Game, Options
from evaluators.registry import GAMES
from evaluators.scoring import evaluate, showdown
from evaluators.validation import read_hand, read_showdown
from service.server.errors import Unreadable
from service.server.handlers import SERVICE
from service.server.limits import message_limits
from service.server.readers import message_reader as _reader
from service.wire.batch_request import BatchCall
from service.wire.request_limits import MAX_REQUEST_BYTES
from tests.conftest import ServerProcess, start_server

EXAMPLES = 1000
"""Per property; each in-process property runs its examples in about 2 s."""
FUZZ = settings(max_examples=EXAMPLES, deadline=None)
MAX_BATCH = 100_000

DECK_TEXTS = [card_text(c) for c in range(DECK_SIZE + 2)]
card_texts = st.one_of(
    st.sampled_from(DECK_TEXTS),
    st.sampled_from(["10d", "q♠", " ah ", "X3", "", "1", "AA", "\x00", "K" * 40]),
    st.text(max_size=5),
)
hands = st.lists(card_texts, max_size=12)
REQUEST_TYPES = [getattr(pb, m.input_type.name) for m in SERVICE.methods]


@FUZZ
@given(data=st.binary(max_size=300), which=st.sampled_from(REQUEST_TYPES))
def test_decoding_any_bytes_gives_a_message_or_unreadable(data: bytes, which: type) -> None:
    decoded = _reader(which)(data)
    expected = BatchCall if which is pb.EvaluateBatchRequest else which
    assert isinstance(decoded, expected | Unreadable)


@FUZZ
@given(text=st.one_of(card_texts, st.text(max_size=20)))
def test_a_card_text_parses_to_a_card_or_a_sentence(text: str) -> None:
    try:
        card = parse_card(text)
    except ValueError as error:
        assert "is not a card" in str(error)
    else:
        assert 0 <= card < DECK_SIZE + 2
        assert parse_card(card_text(card)) == card


@FUZZ
@given(
    game=st.sampled_from(list(Game)),
    hand=hands,
    table=st.lists(card_texts, max_size=8),
    spreads=st.lists(st.lists(card_texts, max_size=5), max_size=2),
    options=st.builds(Options, ace_low=st.booleans(), hit_runs_only=st.booleans()),
)
def test_every_evaluator_scores_or_refuses_any_hand(
    game: Game, hand: list[str], table: list[str], spreads: list[list[str]], options: Options
) -> None:
    try:
        request = read_hand(game, hand, table, spreads, options)
    except InvalidRequest as refused:
        assert refused.violations
        return
    result = evaluate(request)
    assert result.strength >= 0 and result.description


@FUZZ
@given(
    game=st.sampled_from(list(Game)),
    seats=st.lists(
        st.tuples(
            st.sampled_from(["a", "b", "c", "", "a"]), hands, st.sampled_from([None, *Declaration])
        ),
        max_size=4,
    ),
    table=st.lists(card_texts, max_size=6),
)
def test_every_showdown_resolves_or_refuses_any_seats(
    game: Game, seats: list[tuple[str, list[str], object]], table: list[str]
) -> None:
    try:
        request = read_showdown(game, seats, table)  # type: ignore[arg-type]
    except InvalidRequest as refused:
        assert refused.violations
        return
    outcome = showdown(request)
    assert outcome is not None


# --- at the live server --------------------------------------------------------------


@pytest.fixture(scope="module")
def fuzz_server() -> Iterator[ServerProcess]:
    running = start_server()
    yield running
    running.stop()


@pytest.mark.parametrize("game", list(Game), ids=lambda g: g.value)
def test_a_maximal_batch_of_every_game_is_scored(fuzz_server: ServerProcess, game: Game) -> None:
    _, table_size = default_sizes(GAMES[game])
    dealt = deal(game, MAX_BATCH, seed=5, hand_size=GAMES[game].hand_max, table_size=table_size)
    with HandevalClient(fuzz_server.target, timeout=60) as client:
        result = client.evaluate_batch(game.value, dealt.hands, dealt.tables)
        assert len(result.strength) == MAX_BATCH
        with pytest.raises(HandevalError) as refused:
            client.evaluate_batch(game.value, dealt.hands[:10].tobytes() * 10_001,
                                  hand_size=dealt.hands.shape[1])  # fmt: skip
        assert refused.value.code is grpc.StatusCode.RESOURCE_EXHAUSTED


def _raw(server: ServerProcess, method: str, data: bytes) -> grpc.StatusCode:
    with grpc.insecure_channel(
        server.target, options=[("grpc.max_send_message_length", 64 << 20)]
    ) as channel:
        call = channel.unary_unary(f"/handeval.v1.HandEvaluator/{method}")
        try:
            call(data, timeout=30)
        except grpc.RpcError as error:
            return error.code()
        return grpc.StatusCode.OK


def _nested_groups(depth: int) -> bytes:
    """An unknown field 15 holding ``depth`` groups, each inside the last."""
    return bytes([(15 << 3) | 3]) * depth + bytes([(15 << 3) | 4]) * depth


def _unknown_bytes_field(size: int) -> bytes:
    """Unknown field 15, length-delimited, ``size`` bytes long."""
    length, varint = size, bytearray()
    while True:
        varint.append((length & 0x7F) | (0x80 if length > 0x7F else 0))
        length >>= 7
        if not length:
            break
    return bytes([(15 << 3) | 2]) + bytes(varint) + bytes(size)


@pytest.mark.parametrize("depth", [10, 100, 10_000, 200_000])
@pytest.mark.parametrize("method", ["Evaluate", "EvaluateBatch", "Showdown", "ListGames"])
def test_deeply_nested_unknown_fields_get_a_proper_status(
    fuzz_server: ServerProcess, method: str, depth: int
) -> None:
    data = _nested_groups(depth)
    code = _raw(fuzz_server, method, data)
    request = SERVICE.methods_by_name[method].input_type.full_name
    if len(data) > MAX_REQUEST_BYTES.get(request, len(data)):
        assert code is grpc.StatusCode.RESOURCE_EXHAUSTED, "refused unparsed"
        return
    assert code in (grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.OK)
    if depth >= 10_000:
        assert code is grpc.StatusCode.INVALID_ARGUMENT


def test_a_message_just_over_the_limit_is_refused_and_just_under_is_read(
    fuzz_server: ServerProcess,
) -> None:
    limit = message_limits(MAX_BATCH).receive
    under = _unknown_bytes_field(limit - 16)
    assert len(under) <= limit
    assert _raw(fuzz_server, "ListGames", under) is grpc.StatusCode.OK
    over = _unknown_bytes_field(limit)
    assert _raw(fuzz_server, "ListGames", over) is grpc.StatusCode.RESOURCE_EXHAUSTED
    many_empty = pb.EvaluateRequest(game=pb.GAME_POKER_HIGH, hand=[""] * (limit // 3))
    assert _raw(fuzz_server, "Evaluate", many_empty.SerializeToString()) is (
        grpc.StatusCode.RESOURCE_EXHAUSTED
    )
    with HandevalClient(fuzz_server.target) as client:
        assert client.health() == "SERVING"
        assert client.evaluate("poker", "Ah Kh Qh Jh Th 2c 3d").strength > 0
