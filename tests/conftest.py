"""Test layers, and the fixtures shared by the integration tests.

Every test is marked with its layer (``LAYERS``), so ``pytest -m "not e2e"`` runs the
fast ones. ``server`` is one real server for the whole session (read-only tests share it);
``launch_server`` starts a fresh one for a test that must own it (drain, settings, memory),
and stops it afterwards. Both come from ``benchmarks.launcher``, which the benchmarks start
servers with too; its names are re-exported here for the tests that import them from
``tests.conftest``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

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

TESTS = Path(__file__).resolve().parent
_UNIT = "test_layers.py test_lint.py"
_E2E = (
    "test_benchmarks.py test_docker_image.py test_dockerfile.py test_faults.py test_fuzz.py "
    "test_k8s.py test_monitoring.py test_node_example.py test_prometheus_e2e.py "
    "test_robustness.py"
)
LAYERS: dict[str, str] = dict.fromkeys(_UNIT.split(), "unit") | dict.fromkeys(_E2E.split(), "e2e")
"""Test file -> layer. ``unit``: in-process, no server; ``e2e``: slow end to end (faults and
the soak, the Docker image built and run, Prometheus, Node, k8s, hostile-input sweeps, the
benchmark run). Any other file is ``integration`` (a real server in a subprocess); any file under
``tests/unit/`` is ``unit``, and a test marked ``slow`` is ``e2e`` wherever it is."""


def layer_of(item: pytest.Item) -> str:
    if item.get_closest_marker("slow"):
        return "e2e"
    if "unit" in item.path.relative_to(TESTS).parts[:-1]:
        return "unit"
    return LAYERS.get(item.path.name, "integration")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        item.add_marker(layer_of(item))


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
