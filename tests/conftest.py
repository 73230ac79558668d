"""Fixtures shared by the integration tests: the real server, as a subprocess on 127.0.0.1.

``server`` is one server for the whole session (read-only tests share it); ``launch_server``
starts a fresh one for a test that must own it (drain, settings, memory), and stops it
afterwards. Both come from ``benchmarks.launcher``, which the benchmarks start servers with
too; its names are re-exported here for the tests that import them from ``tests.conftest``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import grpc
import pytest

from benchmarks.launcher import (
    ROOT,
    ServerProcess,
    health_status,
    serve_command,
    server_env,
    start_server,
)
from service.gen.handeval.v1 import handeval_pb2_grpc as pb_grpc

__all__ = [
    "ROOT",
    "ServerProcess",
    "health_status",
    "serve_command",
    "server_env",
    "start_server",
]


@pytest.fixture(scope="session")
def server() -> Iterator[ServerProcess]:
    """One real server for the session's read-only tests."""
    running = start_server()
    yield running
    running.stop()


@pytest.fixture(scope="session")
def channel(server: ServerProcess) -> Iterator[grpc.Channel]:
    with grpc.insecure_channel(server.target) as open_channel:
        yield open_channel


@pytest.fixture(scope="session")
def stub(channel: grpc.Channel) -> pb_grpc.HandEvaluatorStub:
    return pb_grpc.HandEvaluatorStub(channel)


@pytest.fixture
def launch_server() -> Iterator[Callable[..., ServerProcess]]:
    """A factory: ``launch_server("--grace-seconds", "5", env={...})`` starts a server this
    test owns; any still running at the end is killed."""
    started: list[ServerProcess] = []

    def launch(
        *args: str, env: dict[str, str] | None = None, wait_ready: bool = True
    ) -> ServerProcess:
        running = start_server(*args, env=env, wait_ready=wait_ready)
        started.append(running)
        return running

    yield launch
    for running in started:
        if running.process.poll() is None:
            running.process.kill()
            running.process.wait()
