"""End to end with a real Prometheus: it scrapes a 2-worker server every second, and its
query API reports exactly the Evaluate calls made.

Prometheus comes from Debian's ``prometheus`` package. Where it is missing this test skips,
except under CI=true, where it fails: CI must install it.
"""

from __future__ import annotations

import json
import socket
import subprocess
import time
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import grpc
import pytest
from handeval_client.gen.handeval.v1 import handeval_pb2_grpc as pb_grpc

from tests.conftest import require_tool
from tests.integration.test_metrics import BAD, GOOD

if TYPE_CHECKING:
    from conftest import ServerProcess

WAIT_SECONDS = 30.0
OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def query(api: str, promql: str) -> list[dict[str, Any]]:
    """The result vector of an instant query."""
    url = f"{api}/api/v1/query?" + urllib.parse.urlencode({"query": promql})
    with OPENER.open(url, timeout=5) as reply:
        body = json.load(reply)
    assert body["status"] == "success", body
    result: list[dict[str, Any]] = body["data"]["result"]
    return result


@pytest.fixture
def prometheus(tmp_path: Path) -> Iterator[Callable[[int], str]]:
    """A factory: ``start(metrics_port)`` runs Prometheus on 127.0.0.1 scraping that port
    every second and returns its API base URL; stopped at the end of the test."""
    binary = require_tool("prometheus", "Debian package `prometheus`")
    started: list[subprocess.Popen[bytes]] = []

    def start(metrics_port: int) -> str:
        config = tmp_path / "prometheus.yml"
        config.write_text(
            "global: {scrape_interval: 1s, evaluation_interval: 1s}\n"
            "scrape_configs:\n"
            "  - job_name: handeval\n"
            f"    static_configs: [{{targets: ['127.0.0.1:{metrics_port}']}}]\n"
        )
        address = f"127.0.0.1:{free_port()}"
        log = (tmp_path / "prometheus.log").open("wb")
        started.append(
            subprocess.Popen(
                [binary, f"--config.file={config}", f"--storage.tsdb.path={tmp_path / 'data'}",
                 f"--web.listen-address={address}", "--log.level=warn"],
                stdin=subprocess.DEVNULL, stdout=log, stderr=log, cwd=tmp_path,
            )
        )  # fmt: skip
        return f"http://{address}"

    yield start
    for process in started:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def test_prometheus_sees_exactly_the_evaluate_calls_made(
    launch_server: Callable[..., ServerProcess],
    prometheus: Callable[[int], str],
    tmp_path: Path,
) -> None:
    server = launch_server("--workers", "2", "--metrics-port", "0")
    server.wait_for_event("ready", count=2)
    api = prometheus(server.metrics_port())
    good, bad = 7, 2
    for index in range(good + bad):
        with grpc.insecure_channel(server.target) as channel:
            stub = pb_grpc.HandEvaluatorStub(channel)
            if index < good:
                stub.Evaluate(GOOD, timeout=10)
            else:
                with pytest.raises(grpc.RpcError):
                    stub.Evaluate(BAD, timeout=10)

    total = 'sum(grpc_server_handled_total{grpc_method="Evaluate"})'
    by_code = 'sum by (grpc_code) (grpc_server_handled_total{grpc_method="Evaluate"})'
    deadline = time.monotonic() + WAIT_SECONDS
    seen: list[dict[str, Any]] = []
    while time.monotonic() < deadline:
        try:
            seen = query(api, total)
        except OSError:
            seen = []  # Prometheus still starting
        if seen and float(seen[0]["value"][1]) == good + bad:
            break
        time.sleep(0.5)
    assert seen and float(seen[0]["value"][1]) == good + bad, (
        seen,
        (tmp_path / "prometheus.log").read_text(),
    )
    codes = {r["metric"]["grpc_code"]: float(r["value"][1]) for r in query(api, by_code)}
    assert codes == {"OK": good, "InvalidArgument": bad}
    [up] = query(api, 'up{job="handeval"}')
    assert up["value"][1] == "1"
    assert server.stop() == 0
