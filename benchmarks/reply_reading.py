"""The client's CPU to read one 100,000-hand columns reply of ``EvaluateBatch``.

``service.wire.batch_reply.read_batch_reply`` (the typed client's reader: the columns
sliced where they lie) against protobuf's generated parser (``FromString``, then
``batch_result``), and optionally a ``--baseline`` module file defining its own
``read_batch_reply`` (an earlier version, e.g. ``git show REV:service/client/typed_client.py
> /tmp/old.py``). Interleaved rounds, each reader's turn rotated; per read, process CPU;
medians over rounds and the median of the per-round ratios to this tree's reader.
``--retain-freed-memory``: as a client that calls ``service.allocator.retain_freed_memory()``
(its result arrays then reuse freed pages instead of faulting fresh ones in, which
otherwise is most of a read's CPU)::

    python -m benchmarks.reply_reading [--baseline /tmp/old.py] [--retain-freed-memory]
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import time
from collections.abc import Callable

import numpy as np
from handeval_client.batch import FIGURES, batch_result, read_batch_reply
from handeval_client.batch import BatchResult as ReadResult
from handeval_client.gen.handeval.v1 import handeval_pb2 as pb

from evaluators.results import BatchResult
from service.allocator import retain_freed_memory
from service.wire.batch_reply import serialized_columns

HANDS = 100_000
READS_PER_ROUND = 50
Reader = Callable[[bytes], ReadResult]


def columns_reply(hands: int, seed: int = 1) -> tuple[bytes, BatchResult]:
    """A columns reply of poker-like figures, and the result it was written from."""
    rng = np.random.default_rng(seed)
    result = BatchResult(
        strength=rng.integers(0, 7462, hands, dtype=np.uint64),
        low_strength=np.zeros(hands, dtype=np.uint64),
        value=rng.integers(-50, 50, hands, dtype=np.int64),
        instant_win=rng.random(hands) < 0.01,
    )
    return serialized_columns(result), result


def protobufs_reading(data: bytes) -> ReadResult:
    return batch_result(pb.EvaluateBatchResponse.FromString(data))


def _baseline(path: str) -> Reader:
    spec = importlib.util.spec_from_file_location("reply_reading_baseline", path)
    assert spec is not None and spec.loader is not None, path
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    reader: Reader = module.read_batch_reply
    return reader


def measure(readers: dict[str, Reader], data: bytes, rounds: int) -> dict[str, list[float]]:
    """Milliseconds of process CPU per read, one list per reader, one entry per round."""
    names = list(readers)
    times: dict[str, list[float]] = {name: [] for name in names}
    for round_ in range(rounds):
        turn = round_ % len(names)
        for name in names[turn:] + names[:turn]:
            read = readers[name]
            started = time.process_time()
            for _ in range(READS_PER_ROUND):
                read(data)
            times[name].append((time.process_time() - started) / READS_PER_ROUND * 1e3)
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=31)
    parser.add_argument("--hands", type=int, default=HANDS)
    parser.add_argument("--baseline", help="a module file with its own read_batch_reply")
    parser.add_argument("--retain-freed-memory", action="store_true")
    args = parser.parse_args(argv)
    if args.retain_freed_memory:
        retain_freed_memory()
    data, result = columns_reply(args.hands)
    readers: dict[str, Reader] = {"read_batch_reply": read_batch_reply}
    readers["protobuf FromString"] = protobufs_reading
    if args.baseline:
        readers["baseline"] = _baseline(args.baseline)
    for name, read in readers.items():
        got = read(data)
        assert all(np.array_equal(getattr(got, f), getattr(result, f)) for f in FIGURES), name
    times = measure(readers, data, args.rounds)
    ours = times["read_batch_reply"]
    print(f"{args.hands:,} hands, {len(data):,} reply bytes, {args.rounds} rounds")
    for name, taken in times.items():
        ratio = statistics.median(t / o for t, o in zip(taken, ours, strict=True))
        print(f"{name:22s} {statistics.median(taken):.3f} ms CPU a read, x{ratio:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
