"""The benchmark-only gRPC service (``handeval.bench.v1.Bench``) and a server that carries it.

``Noop`` and ``Echo`` are the ceilings the real RPCs are measured against: ``Noop`` is the
cheapest unary call the same server can answer, ``Echo`` returns the bytes it got (the
transport's cost for an EvaluateBatch payload). Never registered by ``handeval serve``.

Run ``python -m benchmarks.bench_service [serve flags]``: the real server from
``service.server.build.build_server`` plus this service, tables warmed, health SERVING; it logs
``ready`` with its port as ``handeval serve`` does (so ``benchmarks.launcher`` starts either)
and serves until SIGTERM/SIGINT.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from concurrent.futures import ThreadPoolExecutor

import grpc

from service.allocator import retain_freed_memory
from service.gen.handeval.bench.v1 import bench_pb2 as bench_pb
from service.gen.handeval.bench.v1 import bench_pb2_grpc as bench_grpc
from service.server.build import build_server, mark_serving, new_health
from service.server.config import Settings, add_serve_arguments
from service.server.logs import configure, log_event
from service.server.serve import warm_up
from service.server.signals import Caught, catch_signals


class BenchServicer(bench_grpc.BenchServicer):
    """Stateless; does as little as a servicer can (coroutines, as the real server's are)."""

    async def Noop(
        self, request: bench_pb.NoopRequest, context: grpc.aio.ServicerContext
    ) -> bench_pb.NoopReply:
        return bench_pb.NoopReply()

    async def Echo(
        self, request: bench_pb.EchoRequest, context: grpc.aio.ServicerContext
    ) -> bench_pb.EchoReply:
        return bench_pb.EchoReply(payload=request.payload)


def add_bench_servicer(server: grpc.aio.Server) -> None:
    """Register ``Bench`` on a server that has not been started yet."""
    bench_grpc.add_BenchServicer_to_server(BenchServicer(), server)


async def _serve(settings: Settings, caught: Caught) -> None:
    retain_freed_memory()
    with ThreadPoolExecutor(max_workers=settings.threads) as pool:
        health = await new_health()
        server, port = build_server(settings, health, pool)
        add_bench_servicer(server)
        await server.start()
        await asyncio.get_running_loop().run_in_executor(pool, warm_up)
        await mark_serving(health)
        log_event("ready", port=port)
        while not caught.stops:
            await asyncio.sleep(0.1)
        await server.stop(1.0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.bench_service",
        description="handeval's server plus the benchmark-only Noop and Echo RPCs.",
    )
    add_serve_arguments(parser)
    settings = Settings.from_args(parser.parse_args(argv))
    configure(settings.log_level)
    asyncio.run(_serve(settings, catch_signals()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
