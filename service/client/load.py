"""The load generator behind ``handeval load``: closed-loop calls, always bounded.

``run_load(LoadSpec(...)) -> LoadReport``. ``concurrency`` worker threads each keep one
call in flight (``evaluate``: unary ``Evaluate``; ``stream``: one ``EvaluateStream`` per
worker, one request at a time, each reply timed; ``batch``: ``EvaluateBatch`` of
``batch_size`` hands; ``odds``: ``Odds`` of two seats, one known and one unknown, with part
of the table to come, ``ODDS_SAMPLES`` run-outs sampled) until ``requests`` calls have been
made in all or ``duration_s`` has passed, whichever comes first; a spec with neither is
refused. A call in flight when time is up gets ``END_GRACE_S`` more to finish (its own
``timeout_s`` if shorter) and counts; one still unanswered then ends DEADLINE_EXCEEDED, so
a run lasts its duration plus the grace at most, whatever the servers do.

Requests are built before the clock starts from ``evaluators.deal`` (valid random hands
of the game, seeded) and sent as pre-serialized bytes (a batch asks for column replies, as
the typed client does); unary and batch replies are not parsed either, since the status
code is all the count needs. So the generator spends its
time in gRPC, not in dealing or protobuf. ``bad_share`` of the requests carry a bad hand
(a repeated card, or a card that does not exist); the server must refuse each with
INVALID_ARGUMENT, and the report says exactly how many were sent (``bad_sent``) and how
many were refused so (``refused``): those are the run's intent, not errors. ``errors``
counts every answer other than the one meant (a valid request not OK, a bad one not
refused). In a batch one bad hand refuses the whole batch, so there it is the share of bad
batches.

A run starts once every channel is ready; when nothing answers (the connection refused,
or no server SERVING) for ``FAIL_FAST_S``, it stops before the clock starts with gRPC's
reason (LoadError), rather than wait out ``ready_timeout_s``.

Channels come from ``handeval_client.channel`` (its retry service config, client-side health
checking, round_robin), so several targets share the calls. By default each worker has a
channel and a connection of its own (``channels="worker"``; a local subchannel pool keeps
gRPC from sharing one connection between equal channels): more throughput here than one
shared channel, and, as with many clients, connections spread over the processes of a
multi-process server. ``channels="shared"`` multiplexes every worker on one channel.
"""

from __future__ import annotations

import enum
import itertools
import math
import queue
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import grpc
import numpy as np
from grpc_health.v1 import health_pb2
from handeval_client import batch_request, evaluate_request, odds_request
from handeval_client.channel import channel_options, channel_target
from handeval_client.gen.handeval.v1 import handeval_pb2 as pb

from evaluators.cards import card_text
from evaluators.deal import Deal, deal
from evaluators.inputs import Declaration, Game
from evaluators.registry import DEFAULT_GAME, GAMES

SERVICE = "/handeval.v1.HandEvaluator/"
POOL_REQUESTS = 2048
"""Distinct requests built before a run; calls cycle through them."""
POOL_HANDS = 200_000
"""At most this many hands dealt for a batch run's pool (batch size x pool requests)."""
NOT_A_CARD_ID = 60
"""A byte that is no card (52, 53 are jokers, 255 pads): a bad hand in a packed batch."""
NOT_A_CARD_TEXT = "Zz"
ODDS_SAMPLES = 2_000
"""Run-outs each Odds call samples: real work for the server, yet a call of milliseconds."""

END_GRACE_S = 1.0
"""What a call in flight when the run's time is up gets to finish."""
FAIL_FAST_S = 2.0
"""How long a channel may have nothing answering, after its first failed connection,
before the run gives up: a server started with the run binds, warms up (about a second)
and is ready within it, as gRPC retries the connection after about 1 s."""

_CODE_NAMES: dict[int, str] = {code.value[0]: code.name for code in grpc.StatusCode}


def _code_name(number: int) -> str:
    return _CODE_NAMES.get(number, "UNKNOWN")


class Rpc(enum.Enum):
    """Which call the load makes."""

    EVALUATE = "evaluate"
    STREAM = "stream"
    BATCH = "batch"
    ODDS = "odds"


class LoadError(Exception):
    """The load could not run (no server reachable, a bad spec); one line for people."""


@dataclass(frozen=True)
class LoadSpec:
    """What to send, where, and for how long. ``requests`` and ``duration_s`` bound the
    run (whichever is reached first); at least one must be set."""

    targets: tuple[str, ...]
    rpc: Rpc = Rpc.EVALUATE
    game: Game = DEFAULT_GAME
    concurrency: int = 8
    batch_size: int = 100
    """Hands per ``EvaluateBatch`` (other RPCs send one hand per request)."""
    requests: int | None = None
    duration_s: float | None = 10.0
    bad_share: float = 0.0
    """Share of requests (0-1) that carry a bad hand."""
    seed: int = 0
    timeout_s: float = 10.0
    """Deadline of each unary call."""
    channels: str = "worker"
    """``worker``: a channel (and connection) per worker; ``shared``: one for all."""
    ready_timeout_s: float = 10.0
    """How long to wait for the servers to accept connections before the clock starts."""

    def check(self) -> None:
        """Raises LoadError, for people, for a spec that cannot run or would not end."""
        if not self.targets:
            raise LoadError("no target: give at least one host:port")
        if self.requests is None and not self.duration_s:
            raise LoadError("unbounded: give a number of requests or a duration (or both)")
        if self.requests is not None and self.requests < 1:
            raise LoadError(f"requests must be 1 or more, not {self.requests}")
        if self.duration_s is not None and self.duration_s < 0:
            raise LoadError(f"duration must be 0 or more seconds, not {self.duration_s}")
        if self.concurrency < 1:
            raise LoadError(f"concurrency must be 1 or more, not {self.concurrency}")
        if self.batch_size < 1:
            raise LoadError(f"batch size must be 1 or more, not {self.batch_size}")
        if not 0.0 <= self.bad_share <= 1.0:
            raise LoadError(f"bad share must be 0-1, not {self.bad_share}")
        if self.channels not in ("worker", "shared"):
            raise LoadError(f"channels must be worker or shared, not {self.channels!r}")
        if self.rpc is Rpc.ODDS:
            odds_sizes(self.game)

    @property
    def hands_per_request(self) -> int:
        return self.batch_size if self.rpc is Rpc.BATCH else 1


@dataclass(frozen=True)
class Latency:
    """Milliseconds from sending a request to its answer, over every request answered."""

    p50: float
    p90: float
    p99: float
    max: float
    mean: float

    @classmethod
    def of(cls, seconds: Sequence[float]) -> Latency:
        if not seconds:
            return cls(0.0, 0.0, 0.0, 0.0, 0.0)
        ms = np.asarray(seconds, dtype=np.float64) * 1000.0
        p50, p90, p99 = np.percentile(ms, [50, 90, 99])
        return cls(float(p50), float(p90), float(p99), float(ms.max()), float(ms.mean()))


@dataclass(frozen=True)
class LoadReport:
    """What a run did. ``requests`` = sum of ``codes``; ``hands`` = requests x hands per
    request; ``bad_sent`` of the requests carried a bad hand, ``refused`` of them were
    refused INVALID_ARGUMENT as meant; ``errors``: requests not answered as meant (see the
    module docstring). Rates are per second of ``elapsed_s``, from the first request to the
    last answer."""

    spec: LoadSpec
    requests: int
    hands: int
    bad_sent: int
    refused: int
    errors: int
    elapsed_s: float
    codes: dict[str, int]
    """Requests by gRPC status code name (``OK``, ``INVALID_ARGUMENT``, ...)."""
    latency_ms: Latency
    client_cpu_s: float = 0.0
    """CPU time this process spent during the run: near ``elapsed_s`` per core used means
    the generator, not the server, may be the limit."""

    @property
    def ok(self) -> int:
        return self.codes.get("OK", 0)

    @property
    def requests_per_s(self) -> float:
        return self.requests / self.elapsed_s if self.elapsed_s > 0 else 0.0

    @property
    def hands_per_s(self) -> float:
        return self.hands / self.elapsed_s if self.elapsed_s > 0 else 0.0

    def to_json(self) -> dict[str, Any]:
        """The figures as JSON types (what ``--json`` writes)."""
        spec = self.spec
        return {
            "targets": list(spec.targets),
            "rpc": spec.rpc.value,
            "game": spec.game.value,
            "concurrency": spec.concurrency,
            "batch_size": spec.hands_per_request,
            "channels": spec.channels,
            "bad_share": spec.bad_share,
            "seed": spec.seed,
            "requests": self.requests,
            "ok": self.ok,
            "errors": self.errors,
            "bad_sent": self.bad_sent,
            "refused": self.refused,
            "hands": self.hands,
            "elapsed_s": round(self.elapsed_s, 3),
            "requests_per_s": round(self.requests_per_s, 1),
            "hands_per_s": round(self.hands_per_s, 1),
            "latency_ms": {k: round(v, 3) for k, v in vars(self.latency_ms).items()},
            "client_cpu_s": round(self.client_cpu_s, 3),
            "codes": dict(sorted(self.codes.items())),
        }


@dataclass(frozen=True)
class Progress:
    """A running total, handed to ``run_load``'s ``progress`` about once a second."""

    elapsed_s: float
    requests: int
    errors: int
    requests_per_s: float
    """Over the last interval."""


# --- the requests ----------------------------------------------------------------------


@dataclass(frozen=True)
class Pool:
    """Requests built before the run: ``payloads[i]`` is bad where ``bad[i]``."""

    payloads: list[Any]
    bad: list[bool]


def _bad_positions(count: int, share: float, seed: int) -> list[bool]:
    bad = np.zeros(count, dtype=np.bool_)
    chosen = np.random.default_rng([seed, 1]).permutation(count)[: round(count * share)]
    bad[chosen] = True
    return [bool(b) for b in bad]


def _spoiled_texts(hand: list[str], table: list[str], which: int) -> list[str]:
    """A bad hand: every other one repeats a card, the rest hold a card that does not exist."""
    hand = list(hand)
    if which % 2 == 0 and (len(hand) > 1 or table):
        hand[-1] = hand[0] if len(hand) > 1 else table[0]
    else:
        hand[-1] = NOT_A_CARD_TEXT
    return hand


def _evaluate_pool(spec: LoadSpec, count: int) -> tuple[list[pb.EvaluateRequest], list[bool]]:
    dealt = deal(spec.game, count, spec.seed)
    bad = _bad_positions(count, spec.bad_share, spec.seed)
    requests = []
    for index in range(count):
        hand_ids, table_ids = dealt.row(index)
        hand = [card_text(c) for c in hand_ids]
        table = [card_text(c) for c in table_ids]
        if bad[index]:
            hand = _spoiled_texts(hand, table, index)
        requests.append(evaluate_request(spec.game, hand, table, request_id=str(index)))
    return requests, bad


def _spoil_batch(dealt: Deal, rows: slice, which: int) -> tuple[np.ndarray, np.ndarray]:
    hands = dealt.hands[rows].copy()
    tables = dealt.tables[rows]
    row = which % len(hands)
    if which % 2 == 0 and dealt.hand_size > 1:
        hands[row, -1] = hands[row, 0]
    else:
        hands[row, -1] = NOT_A_CARD_ID
    return hands, tables


def _batch_pool(spec: LoadSpec, count: int) -> tuple[list[bytes], list[bool]]:
    size = spec.batch_size
    dealt = deal(spec.game, count * size, spec.seed)
    bad = _bad_positions(count, spec.bad_share, spec.seed)
    payloads = []
    for index in range(count):
        rows = slice(index * size, (index + 1) * size)
        if bad[index]:
            hands, tables = _spoil_batch(dealt, rows, index)
        else:
            hands, tables = dealt.hands[rows], dealt.tables[rows]
        payloads.append(batch_request(spec.game, hands, tables, columns=True).SerializeToString())
    return payloads, bad


def odds_sizes(game: Game) -> tuple[int, int]:
    """(cards a seat ends with, cards of the full table) in the game's Odds deal; LoadError
    for a game Odds does not serve."""
    dealt = GAMES[game].odds
    if dealt is None:
        raise LoadError(
            f"Odds does not serve {GAMES[game].name}: its hands are not dealt by chance"
        )
    return dealt.hand_max, GAMES[game].table_max


def _odds_pool(spec: LoadSpec, count: int) -> tuple[list[bytes], list[bool]]:
    """Seat ``a`` knows its whole hand, seat ``b`` none of its own; half the table (rounded
    down) is turned. Declarations are sent for every game (only Flop-A reads them)."""
    hand_size, table_size = odds_sizes(spec.game)
    dealt = deal(spec.game, count, spec.seed, hand_size=hand_size, table_size=table_size)
    bad = _bad_positions(count, spec.bad_share, spec.seed)
    payloads = []
    for index in range(count):
        hand_ids, table_ids = dealt.row(index)
        hand = [card_text(c) for c in hand_ids]
        table = [card_text(c) for c in table_ids[: table_size // 2]]
        if bad[index]:
            hand = _spoiled_texts(hand, table, index)
        seats = [("a", hand, Declaration.BOTH), ("b", f"?{hand_size}", Declaration.HIGH)]
        request = odds_request(
            spec.game, seats, table, samples=ODDS_SAMPLES, seed=index, request_id=str(index)
        )
        payloads.append(request.SerializeToString())
    return payloads, bad


def build_pool(spec: LoadSpec) -> Pool:
    """The requests a run cycles through (as bytes, or messages for a stream)."""
    count = POOL_REQUESTS if spec.requests is None else min(POOL_REQUESTS, spec.requests)
    if spec.rpc is Rpc.BATCH:
        count = max(1, min(count, POOL_HANDS // spec.batch_size))
        payloads, bad = _batch_pool(spec, count)
        return Pool(list(payloads), bad)
    if spec.rpc is Rpc.ODDS:
        payloads, bad = _odds_pool(spec, count)
        return Pool(list(payloads), bad)
    requests, bad = _evaluate_pool(spec, count)
    if spec.rpc is Rpc.STREAM:
        return Pool(list(requests), bad)
    return Pool([r.SerializeToString() for r in requests], bad)


# --- the workers -----------------------------------------------------------------------


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
    at the end of the connection-age grace under load; 2 of 1,744 calls in one CI run)."""
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


def _worker(run: Run, channel: grpc.Channel, tally: Tally, failures: list[BaseException]) -> None:
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


# --- the run ---------------------------------------------------------------------------


def open_channels(spec: LoadSpec) -> list[grpc.Channel]:
    """One channel per worker, or one for all; each ready before the clock starts."""
    target = channel_target(list(spec.targets))
    count = spec.concurrency if spec.channels == "worker" else 1
    options = channel_options(wait_for_ready=True)
    if spec.channels == "worker":
        options = [*options, ("grpc.use_local_subchannel_pool", 1)]
    channels = [grpc.insecure_channel(target, options=options) for _ in range(count)]
    try:
        for channel in channels:
            _wait_ready(channel, target, spec.ready_timeout_s)
    except LoadError:
        for channel in channels:
            channel.close()
        raise
    return channels


def _wait_ready(channel: grpc.Channel, target: str, within_s: float) -> None:
    """Return once ``channel`` is READY. LoadError after ``within_s``, or sooner when
    nothing has answered for ``FAIL_FAST_S`` since its first failed connection, saying
    gRPC's reason."""
    states: queue.SimpleQueue[grpc.ChannelConnectivity] = queue.SimpleQueue()
    record = states.put
    channel.subscribe(record, try_to_connect=True)
    started = time.monotonic()
    give_up = started + within_s
    try:
        while (now := time.monotonic()) < give_up:
            try:
                state = states.get(timeout=give_up - now)
            except queue.Empty:
                break
            if state is grpc.ChannelConnectivity.READY:
                return
            if state is grpc.ChannelConnectivity.TRANSIENT_FAILURE:
                give_up = min(give_up, time.monotonic() + FAIL_FAST_S)
    finally:
        channel.unsubscribe(record)
    waited = time.monotonic() - started
    raise LoadError(f"no server at {target}: none answered in {waited:.1f} s{_why(target)}")


def _why(target: str) -> str:
    """gRPC's reason a call to ``target`` fails now (`` (UNAVAILABLE: ... Connection
    refused)``), from one health check on a channel of its own that neither retries nor
    waits for a ready server; empty when it cannot tell within 2 s."""
    with grpc.insecure_channel(target, options=channel_options(retries=False)) as probe:
        check = probe.unary_unary(
            "/grpc.health.v1.Health/Check",
            request_serializer=health_pb2.HealthCheckRequest.SerializeToString,
            response_deserializer=health_pb2.HealthCheckResponse.FromString,
        )
        try:
            check(health_pb2.HealthCheckRequest(), timeout=2.0, wait_for_ready=False)
        except grpc.RpcError as error:
            if error.code() is not grpc.StatusCode.DEADLINE_EXCEEDED:
                return f" ({error.code().name}: {error.details()})"
    return ""


def run_load(
    spec: LoadSpec,
    progress: Callable[[Progress], None] | None = None,
    progress_every_s: float = 1.0,
) -> LoadReport:
    """Run the load ``spec`` describes and report it; ``progress`` is called about every
    ``progress_every_s`` while it runs. Ctrl-C (KeyboardInterrupt) ends the run early and
    still reports what was done. Raises LoadError if the spec is bad or no server answers."""
    spec.check()
    channels = open_channels(spec)
    try:
        pool = build_pool(spec)
    except BaseException:
        for channel in channels:
            channel.close()
        raise
    tallies = [Tally() for _ in range(spec.concurrency)]
    failures: list[BaseException] = []
    cpu_started = time.process_time()
    started = time.perf_counter()
    deadline = started + spec.duration_s if spec.duration_s else float("inf")
    run = Run(spec, pool, deadline)
    threads = [
        threading.Thread(
            target=_worker,
            args=(run, channels[i % len(channels)], tallies[i], failures),
            name=f"load-{i}",
            daemon=True,
        )
        for i in range(spec.concurrency)
    ]
    try:
        for thread in threads:
            thread.start()
        _watch(threads, tallies, started, progress, progress_every_s)
    except KeyboardInterrupt:
        run.stop.set()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - started
    cpu = time.process_time() - cpu_started
    for channel in channels:
        channel.close()
    if failures:
        raise failures[0]
    return _report(spec, tallies, elapsed, cpu)


def _watch(
    threads: list[threading.Thread],
    tallies: list[Tally],
    started: float,
    progress: Callable[[Progress], None] | None,
    every_s: float,
) -> None:
    last_time, last_done = started, 0
    for thread in threads:
        while thread.is_alive():
            thread.join(timeout=max(0.0, last_time + every_s - time.perf_counter()))
            now = time.perf_counter()
            if progress is not None and now - last_time >= every_s:
                done = sum(t.done for t in tallies)
                errors = sum(t.errors for t in tallies)
                rate = (done - last_done) / (now - last_time)
                progress(Progress(now - started, done, errors, rate))
                last_time, last_done = now, done


def _report(spec: LoadSpec, tallies: list[Tally], elapsed: float, cpu: float) -> LoadReport:
    codes: Counter[str] = Counter()
    for tally in tallies:
        codes.update(tally.codes)
    requests = sum(codes.values())
    return LoadReport(
        spec=spec,
        requests=requests,
        hands=requests * spec.hands_per_request,
        bad_sent=sum(t.bad_sent for t in tallies),
        refused=sum(t.refused for t in tallies),
        errors=sum(t.errors for t in tallies),
        elapsed_s=elapsed,
        codes=dict(codes),
        latency_ms=Latency.of([s for t in tallies for s in t.latencies]),
        client_cpu_s=cpu,
    )
