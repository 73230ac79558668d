"""``handeval serve``: bind, warm the tables, report SERVING, and drain on SIGTERM/SIGINT.

The life of a server process, each step one JSON log line:
``start`` (bound: host, port, pid, metrics_port, settings) -> tables warmed -> health
SERVING, ``ready`` (with the port, which a caller that asked for port 0 reads from here) -> a
signal ->
``draining`` (health NOT_SERVING; after ``DRAIN_NOTICE_SECONDS`` calls that reach the
servicer get UNAVAILABLE; once callers have stopped coming (``Drain.until_quiet``) every
connection is sent GOAWAY, and in-flight calls get the rest of ``grace_seconds``, at whose
end batches and Odds stop between chunks) -> ``stop``, exit 0.
A bad setting exits 2 with one line on stderr; a failed start exits 1.
With ``--workers`` above 1, ``service.server.workers`` runs this in each worker process.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import logging
import os
import signal
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from importlib import metadata

from evaluators.batch import evaluate_batch
from evaluators.cards import DECK_SIZE, EMPTY, card_id, card_text
from evaluators.inputs import Cards, Options
from evaluators.kernels import kernel_isa
from evaluators.registry import GAMES, GameRules
from evaluators.scoring import evaluate
from evaluators.tables import table_info
from evaluators.validation import read_hand
from service.allocator import retain_freed_memory
from service.server import metrics
from service.server.build import (
    BindError,
    build_health_server,
    build_server,
    mark_draining,
    mark_serving,
    new_health,
)
from service.server.config import SettingError, Settings, add_serve_arguments, metrics_unavailable
from service.server.drain import Drain
from service.server.limits import yield_to_the_loop
from service.server.logs import capture_stderr, configure, log_event
from service.server.metrics_http import MetricsServer, serve_metrics
from service.server.signals import Caught, catch_signals
from service.server.tls import CertificateError, CertificateStore, server_store
from service.server.workers import run_workers

_POLL_SECONDS = 0.1
"""How often the main thread looks for a stop signal (a handler only records it)."""
DRAIN_NOTICE_SECONDS = 0.5
"""Between health NOT_SERVING and refusing new calls: clients watching health (round_robin
with client-side health checking) move off first, so a call sent meanwhile is not cut off
(``tests/e2e/test_faults.py``; docs/reliability.md)."""


def sample_hand(rules: GameRules) -> tuple[Cards, Cards]:
    """A valid (hand, table) for any game from its limits alone: the smallest table, ranks
    all different (low clubs), and the hand from the top of the deck."""
    table = tuple(card_id(rank, 0) for rank in range(rules.table_min))
    size = min(rules.hand_max, max(rules.hand_min, rules.cards_min - len(table)))
    hand = tuple(c for c in range(DECK_SIZE - 1, -1, -1) if c not in table)[:size]
    return hand, table


def warm_up() -> float:
    """Score one hand of every game, singly and as a batch, so every lookup table is built
    before health says SERVING. Returns the seconds it took."""
    started = time.perf_counter()
    for rules in GAMES.values():
        hand, table = sample_hand(rules)
        evaluate(read_hand(rules.game, [card_text(c) for c in hand], [card_text(c) for c in table]))
        hand_size = max(rules.hand_max, len(hand))
        packed = bytes(hand) + bytes([EMPTY] * (hand_size - len(hand)))
        evaluate_batch(
            rules.game, packed, hand_size, bytes(table), len(table), Options(), max_hands=1
        )
    return time.perf_counter() - started


def _version() -> str:
    try:
        return metadata.version("handeval")
    except metadata.PackageNotFoundError:
        return "unknown"


def start_metrics(
    settings: Settings, expose: bool, certificates: CertificateStore | None
) -> MetricsServer | None:
    """This process's metrics; with ``expose``, also its ``/metrics`` endpoint (its port
    goes in the ``start`` line). Raises OSError when that port cannot be bound."""
    if expose:
        metrics.clean_multiprocess_dir()
    counters = metrics.instruments(_version())
    if not expose:
        return None
    host = settings.metrics_host or settings.host
    http, _port = serve_metrics(host, settings.metrics_port, certificates)
    counters.workers.set(1)
    return http


def serve(settings: Settings, expose_metrics: bool = True) -> int:
    """Run until SIGTERM/SIGINT, then drain; the process exit code. ``expose_metrics``:
    serve ``/metrics`` from this process (off in a worker: its parent serves them)."""
    configure(settings.log_level)
    restore_stderr = capture_stderr(settings.grpc_core_logs)
    try:
        return _serve_process(settings, expose_metrics)
    finally:
        restore_stderr()


def _serve_process(settings: Settings, expose_metrics: bool) -> int:
    caught = catch_signals()
    try:
        certificates = server_store(settings.tls_cert, settings.tls_key, settings.tls_client_ca)
    except CertificateError as error:
        print(f"handeval serve: bad setting --tls-cert / --tls-key: {error}", file=sys.stderr)
        return 2
    try:
        http = start_metrics(settings, expose_metrics, certificates) if settings.metrics else None
    except OSError as error:
        log_event("error", logging.ERROR, message=metrics_unavailable(settings, error))
        return 1
    pool = ThreadPoolExecutor(
        max_workers=settings.threads,
        thread_name_prefix="handeval-batch",
        initializer=yield_to_the_loop,
    )
    try:
        return asyncio.run(_serve(settings, caught, certificates, pool, http))
    finally:
        pool.shutdown(wait=False, cancel_futures=True)
        if http is not None:
            http.shutdown()


async def _serve(
    settings: Settings,
    caught: Caught,
    certificates: CertificateStore | None,
    pool: ThreadPoolExecutor,
    http: MetricsServer | None,
) -> int:
    """The server's life on the event loop (the module docstring's steps)."""
    retained = retain_freed_memory()
    health = await new_health()
    health_server = None
    drain = Drain()
    try:
        server, port = build_server(settings, health, pool, certificates, drain)
        if settings.health_port:
            health_server, _ = build_health_server(settings, health)
    except BindError as error:
        log_event("error", logging.ERROR, message=str(error))
        return 1
    await server.start()
    if health_server is not None:
        await health_server.start()
    metrics_port = http.server_port if http else settings.metrics_port if settings.metrics else None
    log_event(
        "start",
        host=settings.host,
        port=port,
        pid=os.getpid(),
        version=_version(),
        metrics_port=metrics_port,
        retain_freed_memory=retained,
        settings=settings.changed(),
    )
    try:
        # Not in the pool: its threads run at nice 10, and on a busy machine a niced
        # warm-up took 90 s instead of 7 before health could say SERVING.
        warm_seconds = await asyncio.to_thread(warm_up)
    except Exception:
        log_event("error", logging.ERROR, exc_info=True, message="warming the tables failed")
        await server.stop(None)
        return 1
    metrics.record_tables(table_info())
    await mark_serving(health)
    log_event(
        "ready", host=settings.host, port=port, pid=os.getpid(), metrics_port=metrics_port,
        warm_seconds=round(warm_seconds, 3), tls=bool(certificates), kernel_isa=kernel_isa(),
        health_port=settings.health_port or None,
    )  # fmt: skip
    while not caught.stops:
        if caught.hangups:
            caught.hangups.clear()
            _reload(certificates)
        await asyncio.sleep(_POLL_SECONDS)
    log_event(
        "draining",
        signal=signal.Signals(caught.stops[0]).name,
        grace_seconds=settings.grace_seconds,
    )
    await mark_draining(health)
    await asyncio.sleep(min(DRAIN_NOTICE_SECONDS, settings.grace_seconds))
    drain.begin(settings.grace_seconds)
    refusing = await drain.until_quiet(settings.grace_seconds)
    await server.stop(max(0.0, settings.grace_seconds - refusing))
    if health_server is not None:
        await health_server.stop(None)
    log_event("stop", port=port, refused=drain.refused, refusing_seconds=round(refusing, 3))
    return 0


def _reload(certificates: CertificateStore | None) -> None:
    """SIGHUP: read the TLS files again (``service.server.tls``); a failure keeps the old ones."""
    if certificates is None:
        log_event("reload", message="SIGHUP: no TLS certificates to reload")
        return
    try:
        certificates.reload()
    except CertificateError as error:
        log_event("error", logging.ERROR, message=f"SIGHUP: kept the old certificates: {error}")
        return
    log_event("reload", message="SIGHUP: new connections use the reread certificates",
              reloads=certificates.reloads)  # fmt: skip


def run_serve(args: argparse.Namespace) -> int:
    """Serve with parsed ``add_serve_arguments`` flags (for a CLI's ``serve`` subcommand)."""
    try:
        settings = Settings.from_args(args)
    except SettingError as error:
        print(f"handeval serve: {error}", file=sys.stderr)
        return 2
    if settings.workers > 1:
        worker = functools.partial(serve, expose_metrics=False)
        return run_workers(settings, worker, before_fork=warm_up, version=_version())
    return serve(settings)


def serve_main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="handeval serve",
        description="Serve handeval.v1.HandEvaluator over gRPC. Every flag has a HANDEVAL_* "
        "environment variable; the flag wins.",
    )
    add_serve_arguments(parser)
    return run_serve(parser.parse_args(argv))
