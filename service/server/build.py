"""Build the gRPC server (grpc.aio): the evaluator, health, reflection, limits, bound to
its port. Build it, and use it, on the event loop that will run it.

Health (``grpc.health.v1.Health``) covers the overall ``""`` and ``handeval.v1.HandEvaluator``:
``new_health()`` starts both NOT_SERVING; ``mark_serving`` once the tables are warm;
``mark_draining`` on shutdown (permanent). Building does not start the server.

grpc.aio, not grpc's thread-pool server: there every open stream holds a pool thread for
its whole life, so a few idle streams locked every other caller out. On the loop an idle
stream is a waiting coroutine; scoring runs on the loop (microseconds) or, for a batch, in
a bounded thread pool (``--threads``).
"""

from __future__ import annotations

import resource
from concurrent.futures import Executor

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from service.allocator import return_freed_memory
from service.server import metrics, tracing
from service.server.admission import Budgets, CostAdmission, cost_budgets
from service.server.config import Settings
from service.server.drain import Drain
from service.server.handlers import SERVICE, Wrappers
from service.server.limits import message_limits, odds_lane_width, pool_slots
from service.server.odds_lane import OddsLane
from service.server.peers import peer_of
from service.server.reflection import enable_reflection
from service.server.registration import method_handlers
from service.server.servicer import HandEvaluatorServicer
from service.server.tls import CertificateStore, server_store
from service.server.uploads import Uploads

SERVICE_NAME: str = SERVICE.full_name
HEALTH_NAMES = (health.OVERALL_HEALTH, SERVICE_NAME)


class BindError(RuntimeError):
    """The server could not listen where the settings say (port taken, bad host)."""


async def new_health() -> health.aio.HealthServicer:
    """A health servicer reporting NOT_SERVING for the overall and the evaluator service."""
    servicer = health.aio.HealthServicer()
    for name in HEALTH_NAMES:
        await servicer.set(name, health_pb2.HealthCheckResponse.NOT_SERVING)
    return servicer


async def mark_serving(servicer: health.aio.HealthServicer) -> None:
    for name in HEALTH_NAMES:
        await servicer.set(name, health_pb2.HealthCheckResponse.SERVING)


async def mark_draining(servicer: health.aio.HealthServicer) -> None:
    """NOT_SERVING for good: later ``set`` calls are ignored."""
    await servicer.enter_graceful_shutdown()


def channel_options(settings: Settings) -> list[tuple[str, int]]:
    """The server's channel arguments.

    Message limits follow the batch limit (``service.server.limits.message_limits``). Keepalive:
    the server pings a quiet connection every ``keepalive_seconds`` (idle ones too) and
    closes it when the ping goes unanswered, so a vanished client frees its streams;
    clients may ping every ``min_ping_interval_seconds`` (ours ping every 60 s), and one
    pinging faster is sent away (GOAWAY) at its second offence. A connection may have
    ``max_streams_per_connection`` calls open at once (HTTP/2 SETTINGS); a client's
    further streams wait in its channel. ``max_connection_age``
    (grpc adds +-10% jitter) makes clients reconnect, so a plain Service spreads them
    over new pods; calls open then get the grace to finish before the connection closes.

    The door, below the servicer: at most ``connection_cap`` connections (one more is closed
    when accepted: UNAVAILABLE at once, never a descriptor the server needs); a connection
    still handshaking after ``handshake_timeout_seconds``, or with no call open for
    ``max_connection_idle_seconds``, is closed or sent GOAWAY, so idle connections cannot
    hold the cap. gRPC's core holds up to ``max_pending_calls`` calls for the server (its
    default dropped a burst of 5,000 as CANCELLED with no details, unseen by the metrics),
    one header block may hold ``max_metadata_bytes`` (soft and hard limits equal, so
    nothing is refused at random), and a stream reset before the server took it still
    counts against the 100 a connection may have open (core's overload protection) until
    core has freed it, so resetting streams cannot make a connection hold more.

    Requests nobody has read yet: a stream may carry ``receive_window_bytes`` (HTTP/2's
    initial window) before the server reads it, with gRPC's BDP probing off. The probing
    raised the window to several MiB for every stream, so many large requests sent at
    once all came in before any budget saw them; a read asks core for the whole
    message, so a call that reads is not held back, only its first bytes wait one round
    trip for the window (docs/reliability.md, "Cost").
    """
    limits = message_limits(settings.max_batch_hands, settings.max_message_bytes)
    options = [
        ("grpc.max_receive_message_length", limits.receive),
        ("grpc.max_send_message_length", limits.send),
        ("grpc.so_reuseport", 1 if settings.workers > 1 else 0),
        ("grpc.keepalive_time_ms", _ms(settings.keepalive_seconds)),
        ("grpc.keepalive_timeout_ms", _ms(settings.keepalive_timeout_seconds)),
        ("grpc.keepalive_permit_without_calls", 1),
        ("grpc.http2.min_recv_ping_interval_without_data_ms",
         _ms(settings.min_ping_interval_seconds)),
        ("grpc.http2.max_ping_strikes", 2),
        ("grpc.max_concurrent_streams", settings.max_streams_per_connection),
        ("grpc.http.overload_protection", 1),
        ("grpc.max_allowed_incoming_connections", connection_cap(settings.max_connections)),
        ("grpc.server_handshake_timeout_ms", _ms(settings.handshake_timeout_seconds)),
        ("grpc.server.max_pending_requests", settings.max_pending_calls),
        ("grpc.server.max_pending_requests_hard_limit", settings.max_pending_calls),
        ("grpc.max_metadata_size", settings.max_metadata_bytes),
        ("grpc.absolute_max_metadata_size", settings.max_metadata_bytes),
    ]  # fmt: skip
    if settings.receive_window_bytes:
        options += [
            ("grpc.http2.bdp_probe", 0),
            ("grpc.http2.lookahead_bytes", settings.receive_window_bytes),
        ]
    if settings.max_connection_idle_seconds:
        options.append(("grpc.max_connection_idle_ms", _ms(settings.max_connection_idle_seconds)))
    if settings.max_connection_age_seconds:
        options += [
            ("grpc.max_connection_age_ms", _ms(settings.max_connection_age_seconds)),
            ("grpc.max_connection_age_grace_ms", _ms(settings.max_connection_age_grace_seconds)),
        ]
    return options


FD_RESERVE = 256
"""Descriptors kept for the server's own use (listeners, /metrics, pipes, files) when the
connection cap is derived from the open-file limit."""


def connection_cap(max_connections: int) -> int:
    """The connection cap in force: ``max_connections``, or when 0 the soft open-file
    limit less ``FD_RESERVE`` (at least 64; 1,792 under the usual 2,048)."""
    if max_connections:
        return max_connections
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        soft = 2**20
    return max(64, min(soft, 2**31 - 1) - FD_RESERVE)


def _ms(seconds: float) -> int:
    return max(1, round(seconds * 1000))


def settings_budgets(settings: Settings) -> Budgets:
    """The cost budgets of one server process (``service.server.admission.cost_budgets``)."""
    return cost_budgets(
        settings.cpu_budget_seconds,
        settings.memory_budget_mib,
        settings.peer_share,
        settings.admission_wait_seconds,
        pool_slots(settings.max_concurrent_rpcs, settings.threads),
        settings.workers,
    )


def settings_uploads(settings: Settings, budgets: Budgets) -> Uploads:
    """The read deadline and budget of one process's requests still arriving
    (``service.server.uploads``), each counted at the receive limit."""
    budget = settings.upload_budget_mib * 2**20 or budgets.memory_bytes
    receive = message_limits(settings.max_batch_hands, settings.max_message_bytes).receive
    return Uploads(settings.upload_seconds, budget, receive, return_freed_memory)


def build_health_server(
    settings: Settings, health_servicer: health.aio.HealthServicer
) -> tuple[grpc.aio.Server, int]:
    """A plaintext server offering only ``health_servicer`` on ``settings.health_port``
    (Kubernetes' gRPC probes cannot speak TLS), not started, and its port."""
    server = grpc.aio.server(options=[("grpc.so_reuseport", 1 if settings.workers > 1 else 0)])
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    host = settings.address().rsplit(":", 1)[0]
    if settings.health_host:
        host = f"[{settings.health_host}]" if ":" in settings.health_host else settings.health_host
    address = f"{host}:{settings.health_port}"
    try:
        port: int = server.add_insecure_port(address)
    except RuntimeError as error:
        raise BindError(f"cannot listen on {address}: {error}") from None
    if port != settings.health_port:
        raise BindError(f"cannot listen on {address}: got port {port}")
    return server, port


def build_server(
    settings: Settings,
    health_servicer: health.aio.HealthServicer,
    pool: Executor,
    certificates: CertificateStore | None = None,
    drain: Drain | None = None,
) -> tuple[grpc.aio.Server, int]:
    """A server bound to ``settings.address()``, not started, and the port it got.
    Its calls are refused UNAVAILABLE once ``drain`` has begun (``service.server.drain``).

    ``pool`` runs the batches (``settings.threads`` threads is the intent); the caller
    shuts it down after the server. Port 0 asks for any free port. Raises BindError when
    the address cannot be bound; with ``so_reuseport`` off (one worker), a port another
    process holds is such an error. With ``settings.tls_cert`` the port speaks TLS with
    ``certificates`` (read from the settings' files when not given; CertificateError if
    they do not load).
    """
    counting = [metrics.MetricsInterceptor(metrics.instruments())] if settings.metrics else []
    server = grpc.aio.server(
        options=channel_options(settings),
        interceptors=[
            Wrappers(
                [
                    *tracing.interceptors(settings.otlp_endpoint, settings.slow_call_seconds),
                    *counting,
                ]
            )
        ],
    )
    budgets = settings_budgets(settings)
    servicer = HandEvaluatorServicer(
        settings.max_batch_hands,
        CostAdmission(budgets, return_freed_memory, peer_of(settings.peer_from_forwarded)),
        pool,
        message_limits(settings.max_batch_hands, settings.max_message_bytes).send,
        settings.stream_idle_seconds,
        settings.odds_limits(),
        drain,
        OddsLane.for_process(odds_lane_width(settings.odds_threads)),
    )
    handlers = method_handlers(
        servicer, settings_uploads(settings, budgets), settings.default_deadline_seconds
    )
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(SERVICE_NAME, handlers),))
    server.add_registered_method_handlers(SERVICE_NAME, handlers)
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    if settings.reflection:
        enable_reflection([SERVICE_NAME, health.SERVICE_NAME], server)
    address = settings.address()
    try:
        if settings.tls_cert:
            certificates = certificates or server_store(
                settings.tls_cert, settings.tls_key, settings.tls_client_ca
            )
            assert certificates is not None
            port: int = server.add_secure_port(address, certificates.credentials())
        else:
            port = server.add_insecure_port(address)
    except RuntimeError as error:
        raise BindError(f"cannot listen on {address}: {error}") from None
    if port == 0 or (settings.port and port != settings.port):
        raise BindError(f"cannot listen on {address}: got port {port}")
    return server, port
