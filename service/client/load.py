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

The spec and the report are ``load_spec``'s, the requests ``load_requests``', the workers
``load_workers``'; this module opens the channels, runs the workers and reports.
"""

from __future__ import annotations

import queue
import threading
import time
from collections import Counter
from collections.abc import Callable

import grpc
from grpc_health.v1 import health_pb2
from handeval_client.channel import channel_options, channel_target

from service.client.load_requests import build_pool
from service.client.load_spec import Latency, LoadError, LoadReport, LoadSpec, Progress
from service.client.load_workers import Run, Tally, worker

FAIL_FAST_S = 2.0
"""How long a channel may have nothing answering, after its first failed connection,
before the run gives up: a server started with the run binds, warms up (about a second)
and is ready within it, as gRPC retries the connection after about 1 s."""


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
            target=worker,
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
