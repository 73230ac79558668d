"""Build the gRPC server: the evaluator, health, reflection, limits, bound to its port.

Health (``grpc.health.v1.Health``) covers the overall ``""`` and ``handeval.v1.HandEvaluator``:
``new_health()`` starts both NOT_SERVING; ``mark_serving`` once the tables are warm;
``mark_draining`` on shutdown (permanent). Building does not start the server.
"""

from __future__ import annotations

from concurrent import futures

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from service.config import Settings
from service.gen.handeval.v1 import handeval_pb2 as pb
from service.servicer import HandEvaluatorServicer, method_handlers

SERVICE_NAME: str = pb.DESCRIPTOR.services_by_name["HandEvaluator"].full_name
HEALTH_NAMES = (health.OVERALL_HEALTH, SERVICE_NAME)


class BindError(RuntimeError):
    """The server could not listen where the settings say (port taken, bad host)."""


def new_health() -> health.HealthServicer:
    """A health servicer reporting NOT_SERVING for the overall and the evaluator service."""
    servicer = health.HealthServicer(
        experimental_non_blocking=True,
        experimental_thread_pool=futures.ThreadPoolExecutor(
            max_workers=2, thread_name_prefix="handeval-health"
        ),
    )
    for name in HEALTH_NAMES:
        servicer.set(name, health_pb2.HealthCheckResponse.NOT_SERVING)
    return servicer


def mark_serving(servicer: health.HealthServicer) -> None:
    for name in HEALTH_NAMES:
        servicer.set(name, health_pb2.HealthCheckResponse.SERVING)


def mark_draining(servicer: health.HealthServicer) -> None:
    """NOT_SERVING for good: later ``set`` calls are ignored."""
    servicer.enter_graceful_shutdown()


def channel_options(settings: Settings) -> list[tuple[str, int]]:
    return [
        ("grpc.max_receive_message_length", settings.max_message_bytes),
        ("grpc.max_send_message_length", settings.max_message_bytes),
        ("grpc.so_reuseport", 1 if settings.workers > 1 else 0),
    ]


def build_server(
    settings: Settings, health_servicer: health.HealthServicer | None = None
) -> tuple[grpc.Server, int]:
    """A server bound to ``settings.address()``, not started, and the port it got.

    Port 0 asks for any free port. Raises BindError when the address cannot be bound; with
    ``so_reuseport`` off (one worker), a port another process holds is such an error.
    """
    server = grpc.server(
        futures.ThreadPoolExecutor(max_workers=settings.threads, thread_name_prefix="handeval-rpc"),
        options=channel_options(settings),
    )
    handlers = method_handlers(HandEvaluatorServicer(settings.max_batch_hands))
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(SERVICE_NAME, handlers),))
    server.add_registered_method_handlers(SERVICE_NAME, handlers)
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer or new_health(), server)
    if settings.reflection:
        reflection.enable_server_reflection(
            (SERVICE_NAME, health.SERVICE_NAME, reflection.SERVICE_NAME), server
        )
    address = settings.address()
    try:
        port: int = server.add_insecure_port(address)
    except RuntimeError as error:
        raise BindError(f"cannot listen on {address}: {error}") from None
    if port == 0 or (settings.port and port != settings.port):
        raise BindError(f"cannot listen on {address}: got port {port}")
    return server, port
