"""What the core raises when it will not answer: one base, ``EvaluationError``, and below it
a request the rules refuse (``InvalidRequest``, listing each ``Violation``), a request over
a server limit (``OverLimit``) and work stopped between chunks (``Stopped``). The service
maps each kind to its status; a caller of the core catches the kind it cares about.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

MAX_LISTED_VIOLATIONS = 10
"""Violations with an index (``hand[2]``) an InvalidRequest keeps; the rest are counted."""


@dataclass(frozen=True)
class Violation:
    """One problem with a request: where it is (``hand[2]``) and what is wrong, for people."""

    field: str
    message: str


@dataclass(frozen=True)
class Unlisted(Violation):
    """Stands for ``count`` problems in one field that a capped list does not show."""

    count: int = 0


def cap(violations: Sequence[Violation]) -> list[Violation]:
    """At most MAX_LISTED_VIOLATIONS violations with an index (``hand[2]``), then one
    ``Unlisted`` per field counting the rest; violations of a whole field (``hand``,
    ``ending``) all stay, being few. Capping a capped list changes nothing, and a batch's
    list (10 indexes and its own counts) passes unchanged."""
    kept: list[Violation] = []
    rest: dict[str, int] = {}
    indexed = 0
    for violation in violations:
        if "[" not in violation.field:
            kept.append(violation)
        elif indexed < MAX_LISTED_VIOLATIONS:
            kept.append(violation)
            indexed += 1
        else:
            root = violation.field.split("[", 1)[0]
            rest[root] = rest.get(root, 0) + 1
    kept += [
        Unlisted(root, f"{count} more problems in {root} are not listed", count)
        for root, count in rest.items()
    ]
    return kept


def problem_count(violations: Sequence[Violation]) -> int:
    """How many problems a (capped) list stands for."""
    return sum(v.count if isinstance(v, Unlisted) else 1 for v in violations)


class EvaluationError(Exception):
    """Anything the core refuses or gives up on, as opposed to a bug."""


class InvalidRequest(EvaluationError, ValueError):
    """A request the rules refuse; carries every problem found, ``cap``ped, so that its
    size is bounded however many elements a request has."""

    def __init__(self, violations: Sequence[Violation]) -> None:
        self.violations = tuple(cap(violations))
        super().__init__("; ".join(f"{v.field}: {v.message}" for v in self.violations))


class OverLimit(EvaluationError):
    """A request within the rules but over one of this server's limits (the service
    answers RESOURCE_EXHAUSTED naming the limit)."""


class BatchTooLarge(OverLimit):
    """More hands than the server allows in one batch."""

    def __init__(self, hands: int, limit: int) -> None:
        self.hands = hands
        self.limit = limit
        super().__init__(
            f"the batch has {hands} hands; this server takes at most {limit} per batch"
        )


class TooManySamples(OverLimit):
    """More Odds samples asked than the server allows."""

    def __init__(self, samples: int, limit: int) -> None:
        self.samples = samples
        self.limit = limit
        super().__init__(f"{samples} samples asked; this server samples at most {limit}")


class Stopped(EvaluationError):
    """A batch or Odds whose ``keep_going`` said stop between chunks (the caller gave up,
    its deadline passed or the server drains); nothing is returned."""
