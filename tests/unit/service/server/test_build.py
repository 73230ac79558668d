"""Health as ``build_server`` wires it, in process: not serving when built, serving once
marked, not serving again when draining, both for "" and the evaluator."""

from __future__ import annotations

import asyncio
from concurrent import futures

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from service.server.build import SERVICE_NAME, build_server, mark_draining, mark_serving, new_health
from service.server.config import Settings

SERVING = health_pb2.HealthCheckResponse.SERVING
NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING


async def _health_through_a_drain() -> list[tuple[int, int]]:
    """Health of "" and the evaluator: built, marked serving, draining, serving again."""
    seen = []
    with futures.ThreadPoolExecutor(max_workers=1) as pool:
        health = await new_health()
        server, port = build_server(Settings(host="127.0.0.1", port=0), health, pool)
        await server.start()
        try:
            async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
                stub = health_pb2_grpc.HealthStub(channel)

                async def check() -> tuple[int, int]:
                    replies = [
                        await stub.Check(health_pb2.HealthCheckRequest(service=s), timeout=5)
                        for s in ("", SERVICE_NAME)
                    ]
                    return replies[0].status, replies[1].status

                seen.append(await check())
                await mark_serving(health)
                seen.append(await check())
                await mark_draining(health)
                seen.append(await check())
                await mark_serving(health)
                seen.append(await check())
        finally:
            await server.stop(None)
    return seen


def test_health_goes_not_serving_then_serving_then_not_serving_when_draining() -> None:
    both = [(NOT_SERVING, NOT_SERVING), (SERVING, SERVING)]
    assert asyncio.run(_health_through_a_drain()) == [both[0], both[1], both[0], both[0]]
