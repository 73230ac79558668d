"""A refusal's ``google.rpc.Status``: a BadRequest listing the violations, small however
big the request, read back as written."""

from __future__ import annotations

from google.rpc import code_pb2, error_details_pb2
from handeval_client.errors import lead, violations

from evaluators.errors import Violation
from service.wire.status import MAX_TEXT, invalid_argument


def _bad_request(status: object) -> list[error_details_pb2.BadRequest.FieldViolation]:
    bad_request = error_details_pb2.BadRequest()
    assert status.details[0].Unpack(bad_request)  # type: ignore[attr-defined]
    return list(bad_request.field_violations)


def test_violations_become_a_bad_request_with_the_first_in_the_message() -> None:
    status = invalid_argument(
        [Violation("hand[2]", "'Zz' is not a card"), Violation("table", "too many")]
    )
    assert status.code == code_pb2.INVALID_ARGUMENT
    assert status.message == "invalid request: hand[2]: 'Zz' is not a card (and 1 more problem)"
    assert [(v.field, v.description) for v in _bad_request(status)] == [
        ("hand[2]", "'Zz' is not a card"),
        ("table", "too many"),
    ]


def test_ten_indexed_violations_are_listed_and_the_rest_counted_per_field() -> None:
    found = [Violation(f"hand[{i}]", "bad") for i in range(25)]
    found += [Violation("hand", "too many cards"), Violation("table[0]", "bad")]
    listed = _bad_request(invalid_argument(found))
    assert [v.field for v in listed] == [f"hand[{i}]" for i in range(10)] + [
        "hand",
        "hand",
        "table",
    ]
    assert listed[-2].description == "15 more problems in hand are not listed"


def test_an_error_status_stays_small_however_big_the_request() -> None:
    huge = repr("x" * 100_000) + " is not a card"
    found = [Violation(f"hand[{i}]", huge) for i in range(10_000)]
    found += [Violation(f"seats[{i}].player", huge) for i in range(10_000)]
    status = invalid_argument([Violation(huge, huge), *found])
    assert status.ByteSize() < 12 * 2 * MAX_TEXT + 1024  # at most 12 entries, each clipped
    assert len(status.message) <= MAX_TEXT


def test_a_status_reads_back_into_its_violations_and_its_lead() -> None:
    written = [Violation("hand[2]", "'Zz' is not a card"), Violation("table", "too many")]
    status = invalid_argument(written)
    read = violations(status)
    assert read == [(v.field, v.message) for v in written]
    assert lead(status.message, read) == "invalid request"
    assert lead("no server", []) == "no server"
