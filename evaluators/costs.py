"""What a call costs before it runs: CPU and working memory, from each game's measured
cost per unit of work (``GameRules.batch_cost`` per hand of a batch,
``OddsGame.runout_cost`` per run-out and seat of Odds).

The server admits a call by these figures (``service.server.limits``), and Odds sizes its
chunks by them, so a call's working set is bounded by construction. The facts are rounded
up from measurements on the reference machine (``docs/reliability.md``, "Cost"): an
estimate a little high only makes admission a little cautious.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class UnitCost:
    """CPU nanoseconds and working-set bytes of one unit of work (a hand, or a run-out
    of one seat)."""

    cpu_ns: int
    bytes: int


@dataclass(frozen=True)
class CallCost:
    """A whole call's estimate: CPU seconds, the most memory its work holds at once
    (``working_bytes``, given back when the work ends), and its request's and its reply's
    bytes (``request_bytes``, ``reply_bytes``), which the service holds until the call is
    over (the reply until it has left)."""

    cpu_seconds: float
    working_bytes: int
    reply_bytes: int = 0
    request_bytes: int = 0


BATCH_HAND_COST = UnitCost(cpu_ns=20, bytes=16)
"""A batch hand in most games, with the compiled kernels (``evaluators.kernels``): read,
scored and its reply written as packed fields, the dearer of the two reply forms (byte
columns cost less), rounded up from ``python -m benchmarks.batch_costs`` (the least of
its runs' thread CPU over a 100,000-hand batch; the bytes swing with what the allocator
kept from the last batch); a game dearer than this sets its own ``GameRules.batch_cost``.
``tests/unit/service/test_batch_costs.py`` holds each game's within a factor of its measure."""


def batch_cost(per_hand: UnitCost, hands: int, request_bytes: int, reply_bytes: int) -> CallCost:
    """A batch of ``hands``: their CPU and working set, its request's bytes and a reply of
    ``reply_bytes``."""
    return CallCost(
        hands * per_hand.cpu_ns / 1e9, hands * per_hand.bytes, reply_bytes, request_bytes
    )
