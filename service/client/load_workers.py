"""The load's workers: each keeps one call in flight (unary ``Evaluate``, ``EvaluateBatch``
or ``Odds``; or one ``EvaluateStream`` at a time, one request in flight, each reply timed)
until the run is over, and tallies every answer. Unary and batch replies are not parsed:
the status code is all the count needs.
"""

from __future__ import annotations

import itertools
import math
import queue
import threading
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import grpc
from handeval_client.gen.handeval.v1 import handeval_pb2 as pb

from service.client.load_requests import Pool
from service.client.load_spec import LoadSpec, Rpc

SERVICE = "/handeval.v1.HandEvaluator/"
END_GRACE_S = 1.0
"""What a call in flight when the run's time is up gets to finish."""
_CODE_NAMES: dict[int, str] = {code.value[0]: code.name for code in grpc.StatusCode}


def _code_name(number: int) -> str:
    return _CODE_NAMES.get(number, "UNKNOWN")


@dataclass
class Tally:
    """One worker's counts; only its own thread writes them."""

    done: int = 0
    errors: int = 0
    bad_sent: int = 0
    refused: int = 0
    codes: Counter[str] = field(default_factory=Counter)
    latencies: list[float] = field(default_factory=list)

    def count(self, code: str, seconds: float, bad: bool) -> None:
        """One answer: a bad request refused INVALID_ARGUMENT is as meant, as is a valid
        one answered OK; anything else is an error."""
        self.codes[code] += 1
        self.latencies.append(seconds)
        self.bad_sent += bad
        refused = bad and code == "INVALID_ARGUMENT"
        self.refused += refused
        self.errors += not refused and (bad or code != "OK")
        self.done += 1


@dataclass
class Run:
    """What the workers share: the pool, the bounds and the next request number."""

    spec: LoadSpec
    pool: Pool
    deadline: float
    stop: threading.Event = field(default_factory=threading.Event)
    numbers: Iterator[int] = field(default_factory=itertools.count)

    def over(self) -> bool:
        return self.stop.is_set() or time.perf_counter() >= self.deadline

    def may_finish(self) -> bool:
        """Whether a call begun within the run may still be finished (a request whose
        stream broke under it, sent again): not stopped, and within ``END_GRACE_S`` of the
        run's end, as a unary call in flight then is."""
        return not self.stop.is_set() and self.timeout(math.inf) > 0

    def timeout(self, own: float) -> float:
        """A call's deadline from now: ``own``, cut to the run's end plus ``END_GRACE_S``."""
        return min(own, max(0.0, self.deadline + END_GRACE_S - time.perf_counter()))

    def next_index(self) -> int | None:
        """The pool index of the next request, or None when the run is over."""
        if self.over():
            return None
        number = next(self.numbers)
        if self.spec.requests is not None and number >= self.spec.requests:
            return None
        return number % len(self.pool.payloads)


def _unary_worker(run: Run, channel: grpc.Channel, method: str, tally: Tally) -> None:
    call = channel.unary_unary(SERVICE + method)
    while (index := run.next_index()) is not None:
        started = time.perf_counter()
        try:
            call(run.pool.payloads[index], timeout=run.timeout(run.spec.timeout_s))
            code = "OK"
        except grpc.RpcError as error:
            code = error.code().name
        tally.count(code, time.perf_counter() - started, run.pool.bad[index])


class _Feed:
    """A stream's requests, handed over one at a time (gRPC reads them on its own thread);
    None ends the stream."""

    def __init__(self) -> None:
        self._items: queue.SimpleQueue[pb.EvaluateRequest | None] = queue.SimpleQueue()

    def put(self, item: pb.EvaluateRequest | None) -> None:
        self._items.put(item)

    def __iter__(self) -> Iterator[pb.EvaluateRequest]:
        while (item := self._items.get()) is not None:
            yield item


STREAM_RESENDS = 5
"""A request whose stream broke under it (``_broken_under_us``: a connection aged out, a
server drained) is sent again on a new stream, with backoff, this many times before it
counts as failed, as the unary calls' retry policy does for them."""


def _stream_worker(run: Run, channel: grpc.Channel, tally: Tally) -> None:
    """One stream at a time, one request in flight; a broken stream is reopened."""
    call = channel.stream_stream(
        SERVICE + "EvaluateStream",
        request_serializer=pb.EvaluateRequest.SerializeToString,
        response_deserializer=pb.Evaluation.FromString,
    )
    index = run.next_index()
    resends = 0
    while index is not None:
        timeout = None if math.isinf(run.deadline) else run.timeout(math.inf)
        index, resent = _one_stream(run, call, timeout, index, tally, resends < STREAM_RESENDS)
        resends = resends + 1 if resent else 0
        if resent:  # the backoff of the unary retry policy, never past the run's end
            time.sleep(min(0.05 * 2**resends, max(0.0, run.deadline - time.perf_counter())))


def _broken_under_us(error: grpc.RpcError, opened: float, timeout: float | None) -> bool:
    """Whether the stream ended for a reason other than its request: UNAVAILABLE (a
    connection aged out, a server drained), or DEADLINE_EXCEEDED before the stream's own
    deadline: not this client's limit, so the server's side ended the stream (a stream cut
    at the end of the connection-age grace under load, seen in CI)."""
    code = error.code()
    if code is grpc.StatusCode.UNAVAILABLE:
        return True
    own_deadline = math.inf if timeout is None else opened + timeout - 0.05
    return code is grpc.StatusCode.DEADLINE_EXCEEDED and time.monotonic() < own_deadline


def _one_stream(
    run: Run, call: Any, timeout: float | None, index: int, tally: Tally, may_resend: bool
) -> tuple[int | None, bool]:
    """Send requests from ``index`` on one stream until the run ends (None) or the
    stream breaks: the index to go on from on a new stream, and whether it is the
    unanswered request sent again (UNAVAILABLE, while ``may_resend``)."""
    feed = _Feed()
    opened = time.monotonic()
    replies = call(iter(feed), timeout=timeout)
    next_index: int | None = index
    started = time.perf_counter()
    try:
        while next_index is not None:
            started = time.perf_counter()
            feed.put(run.pool.payloads[next_index])
            reply = next(replies, None)
            bad = run.pool.bad[next_index]
            if reply is None:  # the server ended the stream without answering
                tally.count("UNKNOWN", time.perf_counter() - started, bad)
                return run.next_index(), False
            code = _code_name(reply.error.code) if reply.HasField("error") else "OK"
            tally.count(code, time.perf_counter() - started, bad)
            next_index = run.next_index()
        feed.put(None)
        for _ in replies:
            pass
    except grpc.RpcError as error:
        if next_index is None:
            return None, False
        if _broken_under_us(error, opened, timeout) and may_resend and run.may_finish():
            return next_index, True
        tally.count(error.code().name, time.perf_counter() - started, run.pool.bad[next_index])
        return run.next_index(), False
    finally:
        feed.put(None)
        replies.cancel()
    return None, False


def worker(run: Run, channel: grpc.Channel, tally: Tally, failures: list[BaseException]) -> None:
    try:
        if run.spec.rpc is Rpc.STREAM:
            _stream_worker(run, channel, tally)
        elif run.spec.rpc is Rpc.BATCH:
            _unary_worker(run, channel, "EvaluateBatch", tally)
        elif run.spec.rpc is Rpc.ODDS:
            _unary_worker(run, channel, "Odds", tally)
        else:
            _unary_worker(run, channel, "Evaluate", tally)
    except BaseException as failure:
        failures.append(failure)
        run.stop.set()
