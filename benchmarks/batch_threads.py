"""Two threads scoring batches at once against one: how far the kernels let the GIL go.

``python -m benchmarks.batch_threads [--hands N] [--seconds S] [--rounds R]`` runs, in one
process, the work a server's pool does for one ``EvaluateBatch`` of N seeded 7-card poker
hands with column replies (``serve_batch``: ``evaluators.batch.open_batch`` on the
request's bytes, ``score_batch`` into a ``batch_reply.ColumnsReply``, ``reply_bytes``, as
the servicer's batch work does) back to back for S seconds on one thread, then on
two threads at once, R times interleaved, and prints each side's hands/s and the median of
the per-round ratios (two threads / one). With the kernels' loops outside the GIL, two
threads on two free cores approach 2x; the Python between the loops holds it.

Two threads can only show that on two idle cores, which a shared machine seldom has, so it
also prints the share of one batch's CPU time spent inside the compiled loops (the screen,
the poker kernel, its one pass and the column writer, each timed in place, GIL released;
the reply's zeroed columns, a memset in C, count as held) and the
two-thread ceiling that share allows (Amdahl: ``1 / (held + released / 2)``).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

from benchmarks.hands import named_deal
from evaluators import batch
from evaluators.inputs import Game, Options
from evaluators.kernels import _poker, _screen
from service.allocator import retain_freed_memory
from service.wire import _columns, batch_reply


def serve_batch(packed: bytes, hands: int) -> bytes:
    """One batch's work in the server's pool, as ``servicer.EvaluateBatch`` does it for a
    columns request: opened, scored into its reply where the one pass applies, the reply's
    bytes."""
    opened = batch.open_batch(Game.POKER_HIGH, packed, 7, b"", 0, Options(), hands)
    room = batch_reply.ColumnsReply(len(opened.hands))
    return batch_reply.reply_bytes(batch.score_batch(opened, None, room), room)


def rate(threads: int, packed: bytes, hands: int, seconds: float) -> float:
    """Hands/s of ``threads`` threads each scoring the batch and writing its reply."""
    done = [0] * threads
    stop = time.perf_counter() + seconds

    def work(slot: int) -> None:
        while time.perf_counter() < stop:
            serve_batch(packed, hands)
            done[slot] += hands

    started = time.perf_counter()
    workers = [threading.Thread(target=work, args=(slot,)) for slot in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return sum(done) / (time.perf_counter() - started)


def released_share(packed: bytes, hands: int, repeats: int = 30) -> float:
    """The share of the thread CPU time of one batch's work spent inside the compiled
    loops: each kernel entry point (the screen, the poker kernel, its one pass that screens
    as it scores, the column writer) is wrapped for the measurement to add up its own thread
    CPU time, then restored."""
    inside = [0.0]
    entries = [
        (_screen, "screen"),
        (_poker, "evaluate"),
        (_poker, "screened"),
        (_columns, "write"),
    ]
    originals = [getattr(module, name) for module, name in entries]

    def timed(function: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any) -> Any:
            started = time.thread_time()
            try:
                return function(*args)
            finally:
                inside[0] += time.thread_time() - started

        return call

    for (module, name), original in zip(entries, originals, strict=True):
        setattr(module, name, timed(original))
    try:
        started = time.thread_time()
        for _ in range(repeats):
            serve_batch(packed, hands)
        whole = time.thread_time() - started
    finally:
        for (module, name), original in zip(entries, originals, strict=True):
            setattr(module, name, original)
    return inside[0] / whole if whole else 0.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.batch_threads", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--hands", type=int, default=100_000, help="hands a batch (100,000)")
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds a window (2)")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (5)")
    args = parser.parse_args(argv)
    retain_freed_memory()  # as the server does: no page faults on each batch's arrays
    packed = named_deal("poker-7", "", Game.POKER_HIGH, args.hands, 7, 0).hands.tobytes()
    rate(1, packed, args.hands, 0.2)
    rounds = []
    for number in range(args.rounds):
        one = rate(1, packed, args.hands, args.seconds)
        two = rate(2, packed, args.hands, args.seconds)
        rounds.append((one, two))
        print(f"round {number + 1}: one thread {one / 1e6:.1f}M hands/s, two {two / 1e6:.1f}M, "
              f"{two / one:.2f}x", flush=True)  # fmt: skip
    with open("/proc/loadavg") as load:
        average = load.read().split()[0]
    print(
        f"{args.hands:,}-hand 7-card batches with column replies, load average {average}: "
        f"two threads / one {statistics.median(b / a for a, b in rounds):.2f}x "
        f"(median of {args.rounds} interleaved rounds)"
    )
    share = released_share(packed, args.hands)
    print(
        f"compiled loops (GIL released): {share:.0%} of a batch's CPU time, so two threads "
        f"on two idle cores reach at most {1 / ((1 - share) + share / 2):.2f}x"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
