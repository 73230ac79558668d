"""Several worker processes on one port: the port is reserved for them, a dead worker is
replaced (logged and counted) while counting goes on, and SIGTERM stops them all."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import grpc
from handeval_client.gen.handeval.v1 import handeval_pb2_grpc as pb_grpc

from tests.integration.test_metrics import GOOD, rpc, scrape, scrape_until, value

if TYPE_CHECKING:
    from conftest import ServerProcess

HANDLED_OK = ("grpc_server_handled_total", {**rpc("Evaluate"), "grpc_code": "OK"})


def evaluate_on_new_channels(target: str, calls: int) -> None:
    """``calls`` Evaluate calls, each on its own connection (so on either worker)."""
    for _ in range(calls):
        with grpc.insecure_channel(target) as channel:
            pb_grpc.HandEvaluatorStub(channel).Evaluate(GOOD, timeout=10)


def catches_sigterm(pid: int) -> bool:
    """The process has a SIGTERM handler installed (``SigCgt`` of /proc/<pid>/status)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("SigCgt:"):
            return bool(int(line.split()[1], 16) & (1 << (signal.SIGTERM - 1)))
    return False


def is_running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_a_killed_worker_is_restarted_logged_and_counting_goes_on(
    launch_server: Callable[..., ServerProcess],
) -> None:
    server = launch_server("--workers", "2", "--metrics-port", "0")
    server.wait_for_event("ready", count=2)
    port = server.metrics_port()
    evaluate_on_new_channels(server.target, 4)
    victim, survivor = server.wait_for_event("workers")["workers"]

    os.kill(victim, signal.SIGKILL)
    restart = server.wait_for_event("worker_restart", timeout=20)
    assert restart["pid"] == victim
    assert restart["died"] == "signal SIGKILL"
    assert restart["level"] == "warning"
    assert is_running(restart["new_pid"]) and is_running(survivor)
    server.wait_for_event("ready", count=3)

    evaluate_on_new_channels(server.target, 4)
    s = scrape_until(port, lambda s: value(s, HANDLED_OK[0], **HANDLED_OK[1]) >= 8)
    assert value(s, HANDLED_OK[0], **HANDLED_OK[1]) == 8
    assert value(s, "handeval_worker_restarts_total") == 1
    assert value(s, "handeval_workers") == 2
    assert server.stop() == 0


def test_sigterm_drains_every_worker_and_the_parent_exits_0(
    launch_server: Callable[..., ServerProcess],
) -> None:
    server = launch_server("--workers", "2", "--metrics-port", "0")
    server.wait_for_event("ready", count=2)
    workers = server.wait_for_event("workers")["workers"]
    port = server.metrics_port()
    assert value(scrape(port), "handeval_workers") == 2

    assert server.stop(signal.SIGTERM) == 0
    assert len(server.named("draining")) == 3  # the parent and each worker
    assert [line for line in server.named("stop") if line.get("clean")]
    deadline = time.monotonic() + 5
    while any(is_running(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(is_running(pid) for pid in workers)


def test_sigterm_while_workers_start_still_drains_cleanly_and_exits_0(
    launch_server: Callable[..., ServerProcess],
) -> None:
    server = launch_server("--workers", "2", "--metrics-port", "0", wait_ready=False)
    deadline = time.monotonic() + 30
    while not catches_sigterm(server.pid) and time.monotonic() < deadline:
        time.sleep(0.005)
    server.process.send_signal(signal.SIGTERM)  # before the workers are forked or ready
    workers = server.wait_for_event("workers")["workers"]
    assert server.stop(signal.SIGTERM) == 0
    assert [line for line in server.named("stop") if line.get("clean")]
    assert not any(is_running(pid) for pid in workers)
