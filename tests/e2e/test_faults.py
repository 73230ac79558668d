"""Faults under load, on loopback, each bounded to seconds: a worker killed, a server
drained, overload at twice the bound, clients that read slowly or never, and a short soak.

Each test prints one ``FAULT {...}`` JSON line with its figures (``pytest -s`` shows them;
docs/reliability.md quotes them). Load comes from ``service.client.load``,
whose channels carry the client's retry service config and client-side health checking.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import signal
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import grpc
import numpy as np
from handeval_client import HandevalClient, HandevalError, batch_request, evaluate_request
from handeval_client.gen.handeval.v1 import handeval_pb2 as pb
from handeval_client.gen.handeval.v1 import handeval_pb2_grpc as pb_grpc

from benchmarks import soak
from service.client.load import run_load
from service.client.load_spec import LoadReport, LoadSpec
from tests.conftest import ServerProcess

HAND = "Ah Kh Qh Jh Th 2c 3d"


def report_figures(name: str, **figures: Any) -> None:
    print("FAULT " + json.dumps({"test": name, **figures}, default=str), flush=True)


def in_background(spec: LoadSpec) -> Future[LoadReport]:
    pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="fault-load")
    future = pool.submit(run_load, spec)
    pool.shutdown(wait=False)
    return future


def scrape(port: int) -> str:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as reply:
        text: str = reply.read().decode()
        return text


def metric_sum(text: str, name: str, **labels: str) -> float:
    """The sum of ``name``'s samples whose labels include ``labels``."""
    total = 0.0
    for line in text.splitlines():
        match = re.fullmatch(rf"{name}(?:\{{(.*)\}})? (\S+)", line)
        if match and all(f'{k}="{v}"' in (match.group(1) or "") for k, v in labels.items()):
            total += float(match.group(2))
    return total


def wait_until(check: Callable[[], bool], timeout: float, what: str) -> None:
    ended = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < ended, what
        time.sleep(0.05)


def test_a_worker_killed_under_load_loses_no_call_and_is_restarted(
    launch_server: Callable[..., ServerProcess],
) -> None:
    server = launch_server("--workers", "2")
    started = server.wait_for_event("workers")
    metrics_port, victim = int(started["metrics_port"]), int(started["workers"][0])
    load = in_background(LoadSpec(targets=(server.target,), concurrency=8, duration_s=6))
    time.sleep(2)
    before = metric_sum(scrape(metrics_port), "grpc_server_handled_total",
                        grpc_method="Evaluate", grpc_code="OK")  # fmt: skip
    os.kill(victim, signal.SIGKILL)
    restart = server.wait_for_event("worker_restart", timeout=10)
    report = load.result(timeout=60)
    text = scrape(metrics_port)
    after = metric_sum(text, "grpc_server_handled_total", grpc_method="Evaluate", grpc_code="OK")
    report_figures(
        "kill -9 one of two workers", calls=report.requests, lost=report.errors,
        codes=report.codes, restarted=restart["new_pid"], counted_before_kill=before,
        counted_after=after, p99_ms=round(report.latency_ms.p99, 1),
    )  # fmt: skip
    assert report.requests > 0 and report.errors == 0, report.codes
    assert restart["pid"] == victim and "SIGKILL" in restart["died"]
    assert metric_sum(text, "handeval_worker_restarts_total") == 1
    assert after > before and after >= report.ok
    assert server.process.poll() is None


def test_a_server_drained_under_load_fails_no_call_of_clients_round_robin(
    launch_server: Callable[..., ServerProcess],
) -> None:
    leaving, staying = launch_server(), launch_server()
    spec = LoadSpec(targets=(leaving.target, staying.target), concurrency=8, duration_s=5)
    load = in_background(spec)
    time.sleep(1.5)
    assert leaving.stop(signal.SIGTERM) == 0
    report = load.result(timeout=60)
    report_figures(
        "SIGTERM one of two servers (round_robin)", calls=report.requests, lost=report.errors,
        codes=report.codes, p99_ms=round(report.latency_ms.p99, 1),
    )  # fmt: skip
    assert report.requests > 0 and report.errors == 0, report.codes
    assert staying.process.poll() is None


def test_overload_at_twice_the_bound_refuses_the_excess_fast_and_admitted_calls_finish(
    launch_server: Callable[..., ServerProcess],
) -> None:
    bound = 4
    server = launch_server("--threads", str(2 * bound), "--max-concurrent-rpcs", str(bound))
    hands = (
        np.random.default_rng(1)
        .permuted(np.tile(np.arange(52, dtype=np.uint8), (20_000, 1)), axis=1)[:, :10]
        .copy()
    )
    with HandevalClient(server.target, retries=False, timeout=30) as client:
        request = client.send_batch  # one shared channel: one connection, one health watch
        batch = batch_request("tonk", hands)

        def closed_loop(seconds: float, results: list[tuple[str, float]]) -> None:
            ended = time.monotonic() + seconds
            while time.monotonic() < ended:
                started = time.perf_counter()
                try:
                    request(batch)
                    results.append(("OK", time.perf_counter() - started))
                except HandevalError as error:
                    results.append((error.code.name, time.perf_counter() - started))
                    time.sleep(0.01)  # a refused client backs off before trying again

        def run(clients: int, seconds: float) -> list[tuple[str, float]]:
            results: list[list[tuple[str, float]]] = [[] for _ in range(clients)]
            threads = [threading.Thread(target=closed_loop, args=(seconds, r)) for r in results]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            return list(itertools.chain.from_iterable(results))

        at_bound = run(bound, 2.0)
        over = run(2 * bound, 3.0)
        assert client.health() == "SERVING"

    def ms(results: list[tuple[str, float]], code: str) -> dict[str, float]:
        seconds = [s for c, s in results if c == code]
        if not seconds:
            return {"count": 0}
        p50, p99 = np.percentile(np.asarray(seconds) * 1000, [50, 99])
        return {"count": len(seconds), "p50_ms": round(p50, 2), "p99_ms": round(p99, 2)}

    refused, admitted = ms(over, "RESOURCE_EXHAUSTED"), ms(over, "OK")
    other_codes = sorted({c for c, _ in at_bound + over} - {"OK", "RESOURCE_EXHAUSTED"})
    report_figures(
        f"overload: {2 * bound} clients, bound {bound}", at_bound_admitted=ms(at_bound, "OK"),
        over_admitted=admitted, over_refused=refused, other_codes=other_codes,
    )  # fmt: skip
    assert not other_codes, "every call admitted and finished, or refused"
    assert {c for c, _ in at_bound} == {"OK"}, "at the bound nothing is refused"
    assert refused["count"] > 0 and admitted["count"] > 0
    assert refused["p50_ms"] < admitted["p50_ms"], "refusing is faster than doing the work"


def _endless(counter: list[int], limit: int = 1_000_000) -> Iterator[pb.EvaluateRequest]:
    request = evaluate_request("poker", HAND)
    for _ in range(limit):
        counter[0] += 1
        yield request


def test_clients_that_read_slowly_or_never_bound_memory_and_leave_others_unaffected(
    launch_server: Callable[..., ServerProcess],
) -> None:
    server = launch_server()
    with HandevalClient(server.target) as polite:
        for _ in range(200):
            polite.evaluate("poker", HAND)
        rss_before = server.rss_kib()
        lazy_channel = grpc.insecure_channel(server.target)
        slow_channel = grpc.insecure_channel(server.target)
        sent_never, sent_slow = [0], [0]
        never = pb_grpc.HandEvaluatorStub(lazy_channel).EvaluateStream(_endless(sent_never))
        slow = pb_grpc.HandEvaluatorStub(slow_channel).EvaluateStream(_endless(sent_slow))
        read_slowly = 0
        polite_calls, rss_peak = 0, rss_before
        ended = time.monotonic() + 4
        while time.monotonic() < ended:
            next(slow)
            read_slowly += 1
            for _ in range(5):
                assert polite.evaluate("poker", HAND, timeout=5).strength > 0
                polite_calls += 1
            rss_peak = max(rss_peak, server.rss_kib())
            time.sleep(0.05)
        never.cancel()
        slow.cancel()
        lazy_channel.close()
        slow_channel.close()
        assert polite.health() == "SERVING"
    report_figures(
        "slow and never-reading stream clients", polite_calls=polite_calls, polite_failed=0,
        never_read_requests_accepted=sent_never[0], slow_read=read_slowly,
        slow_requests_accepted=sent_slow[0], rss_before_kib=rss_before, rss_peak_kib=rss_peak,
    )  # fmt: skip
    assert rss_peak - rss_before < 32 * 1024, (rss_before, rss_peak)


def test_a_short_soak_keeps_memory_flat_and_makes_no_error() -> None:
    result = soak.soak(soak.SHORT)
    report_figures("soak (short)", **result.to_json())
    assert result.calls > 0 and result.errors == 0, result.codes
    assert result.rss_growth < 0.10, result.to_json()
