"""Per-process limits: how large a message may be, how many batches and Odds calls the
pool runs at once, and how the pool's threads yield to the event loop.

What work may cost is admitted by ``service.server.admission``; how long a call may take,
``service.server.deadlines``. Expensive calls run off the loop, so they cannot crowd out
cheap ones; the Odds lane's width holds across the workers (``service.server.odds_lane``).
Health and reflection are outside every limit (``handlers.EXEMPT_PREFIXES``), so probes
are answered under overload. Calls held at gRPC's door are bounded there
(``service.server.build.channel_options``).

Idle streams hold no thread (the server is grpc.aio): 1,000 of them cost memory, not
service. The per-connection cap (``grpc.max_concurrent_streams``, ``--max-streams-per-
connection``) is HTTP/2's own: a client opening more streams on one connection has the
extra ones wait in its own channel until one of its streams ends.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
from dataclasses import dataclass

from evaluators.registry import GAMES
from service.server.config import default_workers
from service.server.pod_limits import cpu_limit

MAX_HAND_BYTES = max(rules.hand_max for rules in GAMES.values())
"""The widest hand of any game: one row of ``EvaluateBatchRequest.hands``."""
MAX_TABLE_BYTES = max(rules.table_max for rules in GAMES.values())
"""The widest table of any game: one row of ``tables`` when each hand has its own."""
REPLY_BYTES_PER_HAND = 10 + 10 + 10 + 1
"""Worst case in an ``EvaluateBatchResponse``: three 64-bit varints and a bool per hand."""
SLACK_BYTES = 64 * 1024
"""Room for the other fields, framing and a stream message's spreads and texts."""


@dataclass(frozen=True)
class MessageLimits:
    """Largest message the server accepts (``receive``) and sends (``send``), in bytes."""

    receive: int
    send: int


def message_limits(max_batch_hands: int, override_bytes: int = 0) -> MessageLimits:
    """The message limits for a batch limit of ``max_batch_hands``.

    Receive: the largest valid batch, every hand as wide as the widest game's hand and
    with a table of its own as wide as the widest table, plus ``SLACK_BYTES``
    (100,000 hands: 100,001 x (10 + 7) + 65,536 = 1,765,553 bytes). Send: that batch's
    reply at ``REPLY_BYTES_PER_HAND`` (100,001 x 31 + 65,536 = 3,165,567). A batch one hand
    over the limit still fits, so it gets the batch limit's own RESOURCE_EXHAUSTED naming
    that limit.
    ``override_bytes`` (``--max-message-bytes``), when not 0, sets both.
    """
    if override_bytes:
        return MessageLimits(override_bytes, override_bytes)
    hands = max_batch_hands + 1
    return MessageLimits(
        receive=hands * (MAX_HAND_BYTES + MAX_TABLE_BYTES) + SLACK_BYTES,
        send=hands * REPLY_BYTES_PER_HAND + SLACK_BYTES,
    )


def pool_slots(max_concurrent_rpcs: int, threads: int) -> int:
    """Batches and Odds in the pool at once: ``max_concurrent_rpcs``, or when 0 three
    quarters of ``threads`` (24 of the default 32), so a full pool still leaves threads to
    spare and no call queues unseen behind the others."""
    return max_concurrent_rpcs or max(1, threads * 3 // 4)


def odds_lane_width(odds_threads: int, cpus: float | None = None) -> int:
    """Odds calls computing at once in the pod, across its worker processes
    (``service.server.odds_lane``): ``odds_threads``, or when 0 the CPUs the pod may use
    (``cpus``, read from the cgroup when None) less one, at least 1. Odds keeps a thread
    busy for up to seconds: on 2 CPUs two such threads took both cores, and the loops,
    which answer every cheap call, waited for one (nice 10 only lowers their weight), and
    polite calls' tail latency grew by several times (docs/performance.md); a width per
    process let ``--workers 2`` do just that."""
    if odds_threads:
        return odds_threads
    cpus = cpus or cpu_limit() or float(default_workers())
    return max(1, int(cpus - 1))


POOL_NICENESS = 10
"""How much lower the pool's threads run than the event loop (Linux per-thread nice)."""
SWITCH_INTERVAL_SECONDS = 0.001
"""How long a thread may hold the GIL while another waits (Python's default is 5 ms)."""


def yield_to_the_loop() -> None:
    """A pool thread's initializer: batches and Odds run at a lower OS priority, and the
    process hands the GIL over sooner (``sys.setswitchinterval`` is process-wide; the
    loop waits at most 1 ms for it rather than 5), so on busy cores the loop, which answers
    every cheap call, comes first (``docs/reliability.md``, "Cost"). Raising one's own
    niceness needs no privilege; where it fails (not Linux), nothing changes."""
    sys.setswitchinterval(SWITCH_INTERVAL_SECONDS)
    with contextlib.suppress(AttributeError, OSError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), POOL_NICENESS)
