"""Prometheus metrics: gRPC server metrics as go-grpc-prometheus names them, and our own.

gRPC (``MetricsInterceptor``), names, labels and values as go-grpc-prometheus, so the
ecosystem's dashboards work unchanged: ``grpc_server_started_total``,
``grpc_server_handled_total`` (``grpc_code`` as Go spells it: ``OK``, ``InvalidArgument``,
``Canceled``), ``grpc_server_msg_received_total``, ``grpc_server_msg_sent_total`` (streams
count each message) and the ``grpc_server_handling_seconds`` histogram (no code label).
The evaluator's methods start at zero with code OK, so rates exist before the first call.

The service's own, ``handeval_*``: hands evaluated, evaluation errors (by game and reason),
batch size and evaluation time (by game), showdowns by how the game ended
(``handeval_tonk_endings_total``, labelled with the outcome's ``ending``), Odds run-outs,
calls by ``mode`` (``exact`` or ``sampled``) and time (by game), table build time, build
info, worker restarts and live workers. ``game`` is the proto enum name without ``GAME_``,
lower case; never cards.

prometheus_client picks its value store when it is first imported: in memory, or files in
``PROMETHEUS_MULTIPROC_DIR`` (several worker processes). So this module imports it only
in ``instruments()``, once the launcher has settled that variable. The endpoint that
serves them is ``service.server.metrics_http``.
With metrics off, ``instruments()`` is never called and the ``record_*`` calls do nothing.
"""

from __future__ import annotations

import asyncio
import bisect
import functools
import os
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import grpc
from handeval_client.gen.handeval.v1 import handeval_pb2 as pb

from service.server.deadlines import remaining_seconds
from service.server.handlers import SERVICE, WrappingInterceptor, behavior_of, rewrap

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"

GO_CODES: dict[grpc.StatusCode, str] = {
    code: "".join(word.capitalize() for word in code.name.split("_")) for code in grpc.StatusCode
} | {grpc.StatusCode.OK: "OK", grpc.StatusCode.CANCELLED: "Canceled"}
"""Each status code as Go's ``codes.Code.String()`` spells it."""

GAMES: dict[int, str] = {
    value.number: value.name.removeprefix("GAME_").lower()
    for value in pb.DESCRIPTOR.enum_types_by_name["Game"].values
}
"""The ``game`` label of each Game enum number; any other number is ``unknown``."""

ENDINGS = tuple(
    value.name.removeprefix("TONK_ENDING_").lower()
    for value in pb.DESCRIPTOR.enum_types_by_name["TonkEnding"].values
    if value.number
)
"""The ``ending`` labels that start at zero: the wire's endings, lower case."""

_GRPC = ("grpc_type", "grpc_service", "grpc_method")
_LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10)
"""Go's DefBuckets (0.005 s up) plus three below: a single hand takes well under 5 ms."""
_EVALUATION_BUCKETS = (1e-5, 2.5e-5, 5e-5, 1e-4, 2.5e-4, 5e-4, 0.001, 0.0025, 0.005, 0.01,
                       0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5)  # fmt: skip
_BATCH_BUCKETS = (1, 10, 50, 100, 500, 1000, 5000, 10_000, 50_000, 100_000)
_ODDS_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60)
"""An Odds call takes from a millisecond (a river) to seconds (millions of run-outs)."""


def grpc_type(request_streaming: bool, response_streaming: bool) -> str:
    """go-grpc-prometheus's ``grpc_type`` of a method."""
    if request_streaming:
        return "bidi_stream" if response_streaming else "client_stream"
    return "server_stream" if response_streaming else "unary"


def adder(child: Any) -> Callable[[float], None]:
    """``child.inc`` (a Counter's labelled child) without prometheus_client's checks on
    every call (an observable child, a non-negative amount), which the series made here
    pass by construction: its ``inc`` is four Python calls, this one, and a unary Evaluate
    adds to nine values. The value written is the one ``inc`` writes (in memory, or the
    multiprocess files); a child without that store gets its own ``inc``."""
    value = getattr(child, "_value", None)
    add: Callable[[float], None] = getattr(value, "inc", None) or child.inc
    return add


def observer(child: Any) -> Callable[[float], None]:
    """``child.observe`` (a Histogram's labelled child) as ``adder`` has ``inc``: the sum,
    then the first bucket whose upper bound holds the amount (the buckets end at +Inf)."""
    try:
        bounds, buckets, add_sum = list(child._upper_bounds), child._buckets, child._sum.inc
    except AttributeError:
        observe: Callable[[float], None] = child.observe
        return observe
    adds = [bucket.inc for bucket in buckets]

    def observe_fast(amount: float) -> None:
        add_sum(amount)
        adds[bisect.bisect_left(bounds, amount)](1)

    return observe_fast


class MethodMetrics:
    """The labelled series of one method, looked up once rather than on every call, each
    as the function that adds to it (``adder``, ``observer``)."""

    def __init__(self, instruments: Instruments, kind: str, full_method: str) -> None:
        self.labels = (kind, *full_method.lstrip("/").rsplit("/", 1))
        self._handled_family = instruments.handled
        self.started = adder(instruments.started.labels(*self.labels))
        self.received = adder(instruments.received.labels(*self.labels))
        self.sent = adder(instruments.sent.labels(*self.labels))
        self.handling = observer(instruments.handling.labels(*self.labels))
        self.handled = {"OK": adder(self._handled_family.labels(*self.labels, "OK"))}

    def finish(self, code: str, started: float) -> None:
        self.handling(time.perf_counter() - started)
        add = self.handled.get(code)
        if add is None:
            add = self.handled[code] = adder(self._handled_family.labels(*self.labels, code))
        add(1)


class Instruments:
    """Every metric of one process. Build it through ``instruments()`` (once per process)."""

    def __init__(self, registry: Any = None) -> None:
        from prometheus_client import Counter, Gauge, Histogram

        counter = functools.partial(Counter, registry=registry)
        gauge = functools.partial(Gauge, registry=registry, multiprocess_mode="max")
        histogram = functools.partial(Histogram, registry=registry)
        self.started = counter(
            "grpc_server_started_total", "Total number of RPCs started on the server.", _GRPC
        )
        self.handled = counter(
            "grpc_server_handled_total",
            "Total number of RPCs completed on the server, regardless of success or failure.",
            (*_GRPC, "grpc_code"),
        )
        self.received = counter(
            "grpc_server_msg_received_total",
            "Total number of RPC stream messages received on the server.",
            _GRPC,
        )
        self.sent = counter(
            "grpc_server_msg_sent_total",
            "Total number of gRPC stream messages sent by the server.",
            _GRPC,
        )
        self.handling = histogram(
            "grpc_server_handling_seconds",
            "Histogram of response latency (seconds) of gRPC that had been application-level "
            "handled by the server.",
            _GRPC,
            buckets=_LATENCY_BUCKETS,
        )
        self.hands = counter(
            "handeval_hands_evaluated_total", "Hands scored (a showdown: each seat).", ("game",)
        )
        self.errors = counter(
            "handeval_evaluation_errors_total",
            "Evaluations refused or failed (a call, or one stream message).",
            ("game", "reason"),
        )
        self.batch_size = histogram(
            "handeval_batch_size_hands", "Hands per EvaluateBatch call.", ("game",),
            buckets=_BATCH_BUCKETS,
        )  # fmt: skip
        self.evaluation = histogram(
            "handeval_evaluation_seconds",
            "Scoring time of a call or stream message, without transport.",
            ("game",),
            buckets=_EVALUATION_BUCKETS,
        )
        self.odds_runouts = counter(
            "handeval_odds_runouts_total",
            "Run-outs Odds resolved (enumerated or sampled).",
            ("game",),
        )
        self.odds_calls = counter(
            "handeval_odds_calls_total",
            "Odds calls answered, by mode: exact (every run-out) or sampled.",
            ("game", "mode"),
        )
        self.odds_seconds = histogram(
            "handeval_odds_seconds",
            "Time an answered Odds call spent resolving run-outs, without transport.",
            ("game",),
            buckets=_ODDS_BUCKETS,
        )
        self.table_build = gauge(
            "handeval_table_build_seconds", "Seconds a lookup table took to build.", ("table",)
        )
        self.build_info = gauge(
            "handeval_build_info", "1, labelled with the version.", ("version",)
        )
        self.kernel_info = gauge(
            "handeval_kernel_info",
            "1, labelled with the instruction-set path the batch kernels take (docs/kernels.md).",
            ("isa",),
        )
        self.restarts = counter(
            "handeval_worker_restarts_total", "Worker processes restarted after dying."
        )
        self.workers = gauge(
            "handeval_workers", "Server processes alive.", multiprocess_mode="livesum"
        )
        self.endings = counter(
            "handeval_tonk_endings_total",
            "Showdowns settled, by how the game ended (the outcome's ending).",
            ("ending",),
        )
        for ending in ENDINGS:
            self.endings.labels(ending)
        self._per_game = {game: self._recorders(label) for game, label in GAMES.items()}
        self.methods = {
            f"/{SERVICE.full_name}/{m.name}": MethodMetrics(
                self,
                grpc_type(m.client_streaming, m.server_streaming),
                f"/{SERVICE.full_name}/{m.name}",
            )
            for m in SERVICE.methods
        }

    def _recorders(self, label: str) -> tuple[Callable[[float], None], Callable[[float], None]]:
        """What adds to a game's hands counter and observes its histogram (``adder``,
        ``observer``)."""
        return adder(self.hands.labels(label)), observer(self.evaluation.labels(label))

    def evaluated(self, game: int, hands: int, seconds: float) -> None:
        """One lookup per call: each game's series are found once, at start-up."""
        count, observe = self._per_game.get(game) or self._recorders("unknown")
        count(hands)
        observe(seconds)


_active: Instruments | None = None


def instruments(version: str = "unknown") -> Instruments:
    """This process's metrics, made on the first call and registered in prometheus_client's
    default registry; from then on the ``record_*`` calls count. In a worker, call it after
    forking: values belong to the process that made them."""
    global _active
    if _active is None:
        from prometheus_client import REGISTRY

        from evaluators.kernels import kernel_isa

        # With several processes the parent reads their files; no registry needed here.
        _active = Instruments(None if os.environ.get(MULTIPROC_ENV) else REGISTRY)
        _active.build_info.labels(version).set(1)
        _active.kernel_info.labels(kernel_isa()).set(1)
    return _active


def forget_parent() -> None:
    """In a newly forked worker: the parent's metrics are not this process's."""
    global _active
    _active = None


def record_evaluation(game: int, hands: int, seconds: float) -> None:
    """``hands`` scored for ``game`` (a Game enum number) in ``seconds`` of scoring."""
    if _active is not None:
        _active.evaluated(game, hands, seconds)


def record_batch(game: int, hands: int) -> None:
    """One EvaluateBatch call of ``hands`` hands."""
    if _active is not None:
        _active.batch_size.labels(GAMES.get(game, "unknown")).observe(hands)


def record_odds(game: int, exact: bool, runouts: int, seconds: float) -> None:
    """One answered Odds call: ``runouts`` resolved, exactly or sampled, in ``seconds``."""
    if _active is not None:
        label = GAMES.get(game, "unknown")
        _active.odds_runouts.labels(label).inc(runouts)
        _active.odds_calls.labels(label, "exact" if exact else "sampled").inc()
        _active.odds_seconds.labels(label).observe(seconds)


def record_error(game: int, reason: str) -> None:
    """A refused or failed evaluation; ``reason`` is one of a few fixed words
    (``invalid_argument``, ``resource_exhausted``, ``deadline_exceeded``, ``internal``...)."""
    if _active is not None:
        _active.errors.labels(GAMES.get(game, "unknown"), reason).inc()


def record_ending(ending: str) -> None:
    """A settled showdown that ended as ``ending`` (its outcome's); nothing when empty."""
    if _active is not None and ending:
        _active.endings.labels(ending).inc()


def record_tables(tables: Iterable[tuple[str, int, float]]) -> None:
    """``evaluators.tables.table_info()`` rows: (name, bytes, build seconds)."""
    if _active is not None:
        for name, _size, seconds in tables:
            _active.table_build.labels(name).set(seconds)


class MetricsInterceptor(WrappingInterceptor):
    """Counts and times every call of our services; wrapped handlers are cached per method.

    The code counted is the call's real end: the status the handler aborted with or set,
    OK when it returned, and for a call grpc cancelled under it (``CancelledError``, or a
    stream whose requests simply end when the client cancels: the client cancelled, went
    away or its deadline passed) DEADLINE_EXCEEDED when its deadline has passed, else
    CANCELLED. Every handler is a coroutine and writes its own stream
    messages, so a failed send raises here too. Health and reflection pass untouched
    (``service.server.handlers.EXEMPT_PREFIXES``): they are not the evaluator's traffic.
    """

    def __init__(self, metrics: Instruments) -> None:
        super().__init__()
        self._metrics = metrics

    def wrap(self, handler: grpc.RpcMethodHandler, method: str) -> grpc.RpcMethodHandler:
        counted = self._metrics.methods.get(method) or MethodMetrics(
            self._metrics, grpc_type(handler.request_streaming, handler.response_streaming), method
        )
        return _wrap(handler, counted)


DEADLINE_SLACK_SECONDS = 0.05
"""A call cancelled this close to its deadline was ended by it (the clocks differ a little)."""


def _code(context: grpc.aio.ServicerContext, default: str) -> str:
    """The status the handler set (``abort``, ``set_code``), else ``default``."""
    code = context.code()
    return default if code is None else GO_CODES.get(code, "Unknown")


def _cancelled_code(context: grpc.aio.ServicerContext) -> str:
    remaining = remaining_seconds(context)
    late = remaining is not None and remaining <= DEADLINE_SLACK_SECONDS
    return GO_CODES[grpc.StatusCode.DEADLINE_EXCEEDED if late else grpc.StatusCode.CANCELLED]


class _CountedWrites:
    """A handler's context whose ``write`` counts each message sent."""

    def __init__(self, context: grpc.aio.ServicerContext, count: Callable[[float], None]) -> None:
        self._context = context
        self._count = count

    async def write(self, message: Any) -> None:
        await self._context.write(message)
        self._count(1)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._context, name)


def _wrap(handler: grpc.RpcMethodHandler, m: MethodMetrics) -> grpc.RpcMethodHandler:
    """Received messages are counted as grpc decodes them (in the request deserializer), so
    a request stream, or a unary request read as one (``service.server.uploads``), needs no
    wrapper of its own: an async generator a call would cost a task to close."""
    streaming_out = handler.response_streaming
    behavior = behavior_of(handler)
    read = handler.request_deserializer
    count_started, count_received, count_sent = m.started, m.received, m.sent

    def counted_read(data: bytes) -> Any:
        count_received(1)
        return data if read is None else read(data)

    async def counted(request: Any, context: grpc.aio.ServicerContext) -> Any:
        count_started(1)
        seen = _CountedWrites(context, m.sent) if streaming_out else context
        started = time.perf_counter()
        code = "Unknown"
        try:
            response = await behavior(request, seen)
            code = _cancelled_code(context) if context.cancelled() else _code(context, "OK")
            if code == "OK" and not streaming_out:
                count_sent(1)
            return response
        except asyncio.CancelledError:
            code = _cancelled_code(context)
            raise
        except BaseException:
            code = _code(context, "Unknown")
            raise
        finally:
            m.finish(code, started)

    return rewrap(handler, counted, counted, counted_read)


def clean_multiprocess_dir() -> Path | None:
    """Empty ``PROMETHEUS_MULTIPROC_DIR`` (creating it) before any process writes there, as
    the client's docs ask: counters of an earlier run must not add up with this one."""
    directory = os.environ.get(MULTIPROC_ENV)
    if not directory:
        return None
    path = Path(directory)
    path.mkdir(parents=True, exist_ok=True)
    for stale in path.glob("*.db"):
        stale.unlink(missing_ok=True)
    return path


def mark_process_dead(pid: int) -> None:
    """Drop a dead worker's live gauges (its counters stay in the totals)."""
    if os.environ.get(MULTIPROC_ENV):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(pid)  # type: ignore[no-untyped-call]
