"""Several server processes on one port: the parent reserves it, forks, supervises, and
serves ``/metrics`` for all of them.

The shape of grpc's ``examples/python/multiprocessing``: the parent binds the port with
SO_REUSEPORT (bound, not listening), which holds it and turns port 0 into a real one; it
builds the lookup tables (workers share them copy-on-write) and forks ``--workers`` processes
before any gRPC object exists in it (gRPC supports fork only then). Each worker builds its
own server on that port with ``grpc.so_reuseport=1``; the kernel spreads *connections* (not
calls) over them.

Supervision: a worker that dies is replaced, logged as a ``worker_restart`` line and counted
in ``handeval_worker_restarts_total``; one that dies within a second of starting is
replaced a second later, so a crash loop does not spin. SIGTERM/SIGINT to the parent goes to
every worker (as does SIGHUP, the TLS reload); each drains as a single server does; the
parent exits 0 once all have exited 0 (one still running ``grace_seconds`` + 10 s later is
killed: exit 1). A worker whose parent dies drains and exits by itself, so no orphan keeps
the port.

Metrics (prometheus-client multiprocess mode): every process writes its values to files
in ``PROMETHEUS_MULTIPROC_DIR``, a private temporary directory when unset (removed at
exit), emptied at start; the parent serves their sum and marks each dead worker's files
dead, as the client's docs say.

The Odds lane's width holds across the workers: the parent makes a private directory of
slot files for them (``service.server.odds_lane.shared_slots``), removed at exit.

``--workers 1`` does not come here: the one process serves its own ``/metrics`` (in memory
unless PROMETHEUS_MULTIPROC_DIR is set) and its restarts are the orchestrator's business.
No supervisor process, no SO_REUSEPORT (a taken port is an error), no metric files: the
simplest shape for the Kubernetes default of one process per pod.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import signal
import socket
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import replace

from service.server import metrics
from service.server.config import Settings, metrics_unavailable
from service.server.limits import odds_lane_width
from service.server.logs import configure, log_event
from service.server.metrics_http import MetricsServer, serve_metrics
from service.server.odds_lane import shared_slots
from service.server.signals import HELD_SIGNALS, STOP_SIGNALS, catch_signals
from service.server.tls import CertificateError, server_store

POLL_SECONDS = 0.1
QUICK_DEATH_SECONDS = 1.0
"""A worker dying this soon after its start is replaced only after this long."""
KILL_AFTER_GRACE_SECONDS = 10.0


@contextlib.contextmanager
def reserve_port(host: str, port: int) -> Iterator[int]:
    """Hold ``host:port`` (0: any free port) for SO_REUSEPORT servers; yields the port.

    gRPC binds with SO_REUSEPORT, so a stale server on the port would silently share it:
    a fixed port is first checked to have no listener. Raises OSError if it has one.
    """
    family, kind, proto, _, address = socket.getaddrinfo(
        host.strip("[]"), port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
    )[0]
    if port:
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(address)
    with socket.socket(family, kind, proto) as held:
        held.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        held.bind(address)
        yield int(held.getsockname()[1])


def run_workers(
    settings: Settings,
    worker: Callable[[Settings], int],
    before_fork: Callable[[], object] = lambda: None,
    version: str = "unknown",
) -> int:
    """Run ``worker(settings)`` in ``settings.workers`` processes until SIGTERM/SIGINT;
    the exit code. ``before_fork`` runs once in the parent (build the tables there)."""
    configure(settings.log_level)
    caught = catch_signals()
    received, hangups = caught.stops, caught.hangups
    private_dir = None
    if settings.metrics and not os.environ.get(metrics.MULTIPROC_ENV):
        private_dir = tempfile.mkdtemp(prefix="handeval-metrics-")
        os.environ[metrics.MULTIPROC_ENV] = private_dir
    try:
        if settings.metrics:
            metrics.clean_multiprocess_dir()
        with (
            reserve_port(settings.host, settings.port) as port,
            shared_slots(odds_lane_width(settings.odds_threads)),
        ):
            before_fork()
            http = None
            if settings.metrics:
                metrics.instruments(version)
                try:
                    certificates = server_store(
                        settings.tls_cert, settings.tls_key, settings.tls_client_ca
                    )
                    http, _ = serve_metrics(
                        settings.metrics_host or settings.host, settings.metrics_port, certificates
                    )
                except (OSError, CertificateError) as error:
                    log_event("error", logging.ERROR, message=metrics_unavailable(settings, error))
                    return 1
            real = replace(settings, port=port, metrics_port=http.server_port if http else 0)
            return _supervise(real, worker, (received, hangups), http)
    except OSError as error:
        log_event("error", logging.ERROR, message=f"cannot listen on {settings.address()}: {error}")
        return 1
    finally:
        if private_dir:
            shutil.rmtree(private_dir, ignore_errors=True)


def _supervise(
    settings: Settings,
    worker: Callable[[Settings], int],
    signals: tuple[list[int], list[int]],
    http: MetricsServer | None,
) -> int:
    received, hangups = signals
    alive = {_fork(settings, worker, http): time.monotonic() for _ in range(settings.workers)}
    counters = metrics.instruments() if settings.metrics else None
    log_event(
        "workers", port=settings.port, metrics_port=http and http.server_port, pid=os.getpid(),
        workers=sorted(alive),
    )  # fmt: skip
    try:
        while not received:
            if hangups:  # each worker rereads its certificates
                hangups.clear()
                _send(alive, signal.SIGHUP)
                if http is not None:
                    http.reload_certificates()
            for pid in list(alive):
                ended, status = os.waitpid(pid, os.WNOHANG)
                if not ended or received:
                    continue
                lived = time.monotonic() - alive.pop(pid)
                metrics.mark_process_dead(pid)
                if lived < QUICK_DEATH_SECONDS:
                    time.sleep(QUICK_DEATH_SECONDS)
                new_pid = _fork(settings, worker, http)
                alive[new_pid] = time.monotonic()
                if counters:
                    counters.restarts.inc()
                log_event(
                    "worker_restart", logging.WARNING, pid=pid, died=_death(status),
                    lived_seconds=round(lived, 3), new_pid=new_pid,
                )  # fmt: skip
            if counters:
                counters.workers.set(len(alive))
            time.sleep(POLL_SECONDS)
        log_event("draining", signal=signal.Signals(received[0]).name, workers=sorted(alive))
        clean = _stop_all(alive, settings.grace_seconds + KILL_AFTER_GRACE_SECONDS)
    finally:
        for pid in alive:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        if http is not None:
            http.shutdown()
    log_event("stop", port=settings.port, clean=clean)
    return 0 if clean else 1


def _stop_all(alive: dict[int, float], timeout: float) -> bool:
    """SIGTERM every worker and reap them; True if all exited 0 within ``timeout``."""
    _send(alive, signal.SIGTERM)
    clean = True
    deadline = time.monotonic() + timeout
    while alive and time.monotonic() < deadline:
        for pid in list(alive):
            ended, status = os.waitpid(pid, os.WNOHANG)
            if ended:
                del alive[pid]
                metrics.mark_process_dead(pid)
                clean = clean and os.waitstatus_to_exitcode(status) == 0
        time.sleep(POLL_SECONDS / 2)
    for pid in list(alive):
        log_event("error", logging.ERROR, message="worker did not drain in time", pid=pid)
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        del alive[pid]
        clean = False
    return clean


def _send(alive: dict[int, float], sig: int) -> None:
    for pid in alive:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, sig)


def _death(status: int) -> str:
    code = os.waitstatus_to_exitcode(status)
    return f"signal {signal.Signals(-code).name}" if code < 0 else f"exit {code}"


def _fork(settings: Settings, worker: Callable[[Settings], int], http: MetricsServer | None) -> int:
    """Start one worker process running ``worker(settings)``; its pid. The parent's
    ``/metrics`` socket is closed in it, so a draining orphan does not hold that port.
    The child starts with stop signals blocked until ``serve`` has its handlers, so a
    SIGTERM during start-up drains it instead of killing it."""
    parent = os.getpid()
    signal.pthread_sigmask(signal.SIG_BLOCK, HELD_SIGNALS)
    pid = os.fork()
    if pid:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, HELD_SIGNALS)
        return pid
    code = 1
    try:
        for stop_signal in STOP_SIGNALS:
            signal.signal(stop_signal, signal.SIG_DFL)
        if http is not None:
            http.socket.close()
        metrics.forget_parent()
        threading.Thread(target=_drain_when_orphaned, args=(parent,), daemon=True).start()
        code = worker(settings)
    except BaseException:
        log_event("error", logging.ERROR, exc_info=True, message="worker failed")
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def _drain_when_orphaned(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(1.0)
    os.kill(os.getpid(), signal.SIGTERM)
