"""The core's errors (evaluators/errors.py): one base, a refused request carrying its
violations capped, the limits under one kind, and one kind for work stopped."""

from __future__ import annotations

import pytest

from evaluators.errors import (
    MAX_LISTED_VIOLATIONS,
    BatchTooLarge,
    EvaluationError,
    InvalidRequest,
    OverLimit,
    Stopped,
    TooManySamples,
    Unlisted,
    Violation,
    problem_count,
)


def test_invalid_request_carries_every_violation_in_its_message() -> None:
    error = InvalidRequest([Violation("hand[0]", "bad one"), Violation("table", "bad two")])
    assert error.violations == (Violation("hand[0]", "bad one"), Violation("table", "bad two"))
    assert str(error) == "hand[0]: bad one; table: bad two"
    assert isinstance(error, ValueError)


def test_invalid_request_keeps_ten_indexed_violations_and_counts_the_rest() -> None:
    flood = [Violation(f"seats[{i}].hand", "bad") for i in range(100_000)]
    error = InvalidRequest([Violation("game", "missing"), *flood])
    assert len(error.violations) == 1 + MAX_LISTED_VIOLATIONS + 1
    assert error.violations[-1] == Unlisted("seats", "99990 more problems in seats are not listed",
                                            99_990)  # fmt: skip
    assert problem_count(error.violations) == 100_001
    assert len(str(error)) < 1000
    assert InvalidRequest(error.violations).violations == error.violations


@pytest.mark.parametrize(
    ("error", "kind"),
    [
        (InvalidRequest([Violation("hand", "bad")]), InvalidRequest),
        (BatchTooLarge(10, 5), OverLimit),
        (TooManySamples(10, 5), OverLimit),
        (Stopped("stopped after 3 of 9 run-outs"), Stopped),
    ],
    ids=lambda value: type(value).__name__,
)
def test_every_core_error_is_an_evaluation_error_of_its_kind(
    error: EvaluationError, kind: type[EvaluationError]
) -> None:
    assert isinstance(error, kind)
    assert isinstance(error, EvaluationError)


def test_the_limits_name_the_asked_and_the_allowed() -> None:
    assert (
        str(BatchTooLarge(10, 5)) == "the batch has 10 hands; this server takes at most 5 per batch"
    )
    assert str(TooManySamples(10, 5)) == "10 samples asked; this server samples at most 5"
