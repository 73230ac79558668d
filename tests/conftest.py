"""Test layers, and the fixtures shared by the integration tests.

Every test is marked with its layer (``layer_of``): ``pytest -m unit`` runs the tests that
start no server, ``-m lint`` the static checks, ``-m "not e2e"`` all but the slow end to end.
``server`` is one real server for the whole session (read-only tests share it);
``launch_server`` starts a fresh one for a test that must own it (drain, settings, memory),
and stops it afterwards. Both come from ``benchmarks.launcher``, which the benchmarks start
servers with too; its names are re-exported here for the tests that import them from
``tests.conftest``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import NoReturn

import grpc
import pytest
from handeval_client.gen.handeval.v1 import handeval_pb2_grpc as pb_grpc
from hypothesis import settings

from benchmarks.launcher import (
    ROOT,
    ServerProcess,
    health_status,
    serve_command,
    server_env,
    start_server,
)

__all__ = [
    "ROOT",
    "ServerProcess",
    "health_status",
    "serve_command",
    "server_env",
    "start_server",
]

# No per-example deadline: a property holds or not whatever the machine's load, and a shared
# CI machine's pauses must not fail a test (every property test here bounds its examples).
settings.register_profile("handeval", deadline=None)
settings.load_profile("handeval")

TESTS = Path(__file__).resolve().parent
LAYERS = ("unit", "integration", "lint", "e2e")
"""The folders under ``tests/``, each a layer; a test's layer is its folder's name.

- ``unit``: no server is started (mirroring the modules); a test may run a fresh
  interpreter or the console script, never a server.
- ``integration``: a real server in a subprocess over a real channel.
- ``lint``: static checks of the tree's files, nothing of ours served: ruff, ruff format and
  strict mypy, the import rules (``lint/test_lint.py``), the Dockerfile (hadolint and its
  rules), the k8s manifests (strict schemas), the alert rules and dashboard (promtool).
- ``e2e``: slow end to end: faults and the soak, the Docker image built and run, Prometheus,
  Node, hostile-input sweeps, the benchmark run; and any test marked ``slow``, wherever it is.
"""


def layer_of(item: pytest.Item) -> str:
    if item.get_closest_marker("slow"):
        return "e2e"
    folder = item.path.relative_to(TESTS).parts[0]
    if folder not in LAYERS:
        raise pytest.UsageError(
            f"{item.path}: a test lives in one of tests/{{{','.join(LAYERS)}}}/"
        )
    return folder


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


def unavailable(reason: str) -> NoReturn:
    """Skip the test for want of what ``reason`` names, or fail it in CI (``CI=true``),
    which must run every test."""
    if os.environ.get("CI") == "true":
        pytest.fail(reason)
    pytest.skip(reason)


def require_tool(name: str, install: str, also_in: Path | None = None) -> str:
    """The path of the command ``name``, on PATH or in ``also_in``; without it the test is
    ``unavailable``. ``install`` says where to get it."""
    found = shutil.which(name) or (shutil.which(name, path=str(also_in)) if also_in else None)
    if found is None:
        unavailable(f"{name} is not installed ({install})")
    return found


def npm_ci(folder: Path) -> None:
    """``npm ci`` in ``folder``: its pinned packages, installed (npm as ``require_tool``)."""
    require_tool("npm", "Debian package `npm`")
    subprocess.run(
        ["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"],
        cwd=folder,
        check=True,
        capture_output=True,
        timeout=300,
    )
