"""Each failure of a call maps to the status docs/api.md gives it, in one place."""

from __future__ import annotations

import logging

import pytest
from google.rpc import code_pb2
from handeval_client.gen.handeval.v1 import handeval_pb2 as pb

from evaluators.errors import BatchTooLarge, InvalidRequest, Stopped, TooManySamples, Violation
from service.server.admission import OverBudget
from service.server.errors import Unreadable, failure, reason, reply_too_large, request_shape
from service.wire.request_limits import RequestTooLarge

REQUEST = pb.EvaluateRequest(game=pb.GAME_TONK, hand=["Ah"])


@pytest.mark.parametrize(
    ("error", "code"),
    [
        (InvalidRequest([Violation("hand[0]", "bad")]), code_pb2.INVALID_ARGUMENT),
        (RequestTooLarge("hand", 99, "cards", "54 cards"), code_pb2.RESOURCE_EXHAUSTED),
        (BatchTooLarge(10, 5), code_pb2.RESOURCE_EXHAUSTED),
        (TooManySamples(10, 5), code_pb2.RESOURCE_EXHAUSTED),
        (OverBudget("over the CPU budget"), code_pb2.RESOURCE_EXHAUSTED),
        (Stopped(), code_pb2.CANCELLED),
    ],
    ids=lambda value: type(value).__name__ if isinstance(value, Exception) else str(value),
)
def test_each_refusal_or_stop_has_its_code_and_says_why(error: Exception, code: int) -> None:
    problem = failure(error, "Evaluate", REQUEST)
    assert problem.code == code
    assert problem.message
    assert reason(problem) == code_pb2.Code.Name(code).lower()


def test_any_other_error_is_internal_with_an_incident_id_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.ERROR):
        try:
            raise ZeroDivisionError
        except ZeroDivisionError as error:
            problem = failure(error, "Evaluate", REQUEST)
    assert problem.code == code_pb2.INTERNAL and "incident" in problem.message
    assert "ZeroDivisionError" not in problem.message
    [record] = [r for r in caplog.records if getattr(r, "event", "") == "error"]
    assert record.fields["incident"] in problem.message  # type: ignore[attr-defined]


def test_a_reply_over_the_send_limit_names_the_limit() -> None:
    problem = reply_too_large(2_000_000, 1_000_000)
    assert problem.code == code_pb2.RESOURCE_EXHAUSTED
    assert "1,000,000" in problem.message and "--max-message-bytes" in problem.message


def test_unreadable_bytes_are_invalid_and_too_many_bytes_resource_exhausted() -> None:
    assert Unreadable("handeval.v1.EvaluateRequest", "bad tag").status().code == (
        code_pb2.INVALID_ARGUMENT
    )
    too_long = Unreadable("handeval.v1.EvaluateRequest", "too long", too_long=True)
    assert too_long.status().code == code_pb2.RESOURCE_EXHAUSTED


def test_a_request_shape_has_sizes_and_enums_but_no_cards_or_ids() -> None:
    request = pb.ShowdownRequest(
        game=pb.GAME_TONK,
        seats=[pb.Seat(player="alice", hand=["Ah"]), pb.Seat(player="bob", hand=["Kh"])],
        ending=pb.TONK_ENDING_DROP,
        ender="alice",
        request_id="secret",
    )
    assert request_shape(request) == {
        "game": pb.GAME_TONK,
        "seats_len": 2,
        "table_len": 0,
        "table_spreads_len": 0,
        "ending": pb.TONK_ENDING_DROP,
    }
    batch = pb.EvaluateBatchRequest(game=pb.GAME_POKER_HIGH, hands=bytes(14), hand_size=7)
    assert request_shape(batch) == {
        "game": pb.GAME_POKER_HIGH,
        "hands_len": 14,
        "hand_size": 7,
        "tables_len": 0,
        "table_size": 0,
    }
