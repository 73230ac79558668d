"""Hostile callers, measured: a well-behaved client while idle streams are held open, and
the unary Evaluate rate, against this tree's server or another checkout's.

``python -m benchmarks.attacks [--checkout DIR] [--compare DIR] [--streams 1000]
[--calls 500] [--rounds 3] [--seconds 3]`` starts ``python -m service serve`` of ``DIR``
(default this tree; e.g. ``/work/main`` for the sync server, read only) on a free loopback
port, then:

1. ``quiet``: ``--calls`` sequential Evaluate calls (7-card poker), latency p50/p99 and
   failures;
2. ``under_attack``: ``--streams`` EvaluateStreams that never send, spread over
   connections of 100 (each channel its own connection), held open while the same calls
   run again (each with a 2 s deadline; the phase stops after 30 s whatever is left);
3. ``rate``: Evaluate calls per second from 32 calls in flight over 2 connections, for
   ``--seconds`` a round, median of ``--rounds``. With ``--compare DIR`` that checkout's
   server runs too and the rounds alternate between the two (the cores are shared and
   noisy, so alternating is fairer than one server after the other); its median and the
   ratio are added.

Prints one JSON object. Bounded in count and time; nothing here is asserted.

``--below`` runs instead the attacks below the servicer, each on a fresh server
of ``--checkout`` (``--compare`` is not used), the attackers in processes of their own
(``benchmarks.transport_attacks``): ``burst`` (5,000 unary calls in flight on 50
connections: codes, and how many ``grpc_server_handled_total`` counted), ``rapid_reset``
and ``ping_flood`` (4 connections, ``--attack-seconds``: a polite client's p50 against
quiet, the server's CPU against the attacker's, attacking connections the server ended),
``scrapers`` (16 ``/metrics`` scrapers in a loop: polite p50 against quiet, server CPU),
``log_flood`` (200 connections of timeouts, headers and dropped replies, then SIGTERM
under load: lines on stderr that are not JSON), ``idle_connections`` (2,100 idle TCP
connections to a server with 2,048 descriptors: 4 new calls meanwhile and 12 s later) and
``sigterm`` (SIGTERM during unary calls and a 1,000M-sample Odds call, allowed by the
server's flags: each call's code, time to exit).

``--below --front nghttpx`` runs ``rapid_reset`` and ``ping_flood`` straight at the server
(``*_direct``) and through nghttpx in front of it (``benchmarks.front`` with
``front/nghttpx.conf``, the deployment's front), its CPU counted with the server's; each
again through it with attackers that reconnect as soon as a connection is ended
(``*_reconnecting``); ``burst`` through it; and ``hop``: a quiet caller's unary p50/p99
and a 100,000-hand batch, direct against through nghttpx (interleaved rounds, medians).
Behind the front the server runs as k8s/base configures it there (``BEHIND_FRONT``).

``--below --front nghttpx-tls`` is the TLS pod's front (docs/tls.md): the same rows with
every caller, polite or not, speaking TLS with a client certificate (mutual TLS; new
certificates from ``benchmarks.authority`` each run). ``*_direct`` is the server ending
TLS itself (``--tls-cert``, ``--tls-key``, ``--tls-client-ca``); through the front,
nghttpx ends TLS under its supervisor (``python -m service.front``) before the plaintext
server on loopback. Each row through the front also counts the lines the pod wrote (front
and server) that are not JSON. ``hop`` compares the server alone over TLS with the front
over TLS; ``idle_connections`` holds 2,000 idle client connections (TLS done, HTTP/2
preface sent) on the front while new clients call.

``--hop [--front nghttpx-tls] [--front-flag=--SETTING=VALUE ...]`` runs only ``hop``, with
those settings given to nghttpx after its conf, so one setting can be compared with the
conf's in alternating runs.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import grpc
import numpy as np
from handeval_client import batch_request, evaluate_request, odds_request
from handeval_client.channel import channel_options
from handeval_client.gen.handeval.v1 import handeval_pb2_grpc as pb_grpc

from benchmarks import transport_attacks
from benchmarks.authority import TlsRun, tls_run
from benchmarks.front import BEHIND_FRONT, FrontProcess, start_front
from benchmarks.hostile_requests import cpu_seconds
from benchmarks.launcher import ServerProcess, start_server

ROOT = Path(__file__).resolve().parents[1]
OWN_CONNECTION = [("grpc.use_local_subchannel_pool", 1)]
"""Channels to one target share one connection unless each has its own subchannel pool."""
STREAMS_PER_CONNECTION = 100
ATTACK_PHASE_SECONDS = 30.0
REQUEST = evaluate_request("poker", "Ah Kh Qh Jh Th 2c 3d")


def start(checkout: Path, *extra: str) -> tuple[subprocess.Popen[str], str]:
    """``handeval serve`` of ``checkout`` on 127.0.0.1, one worker unless ``extra`` flags
    say otherwise; it and its target."""
    python = checkout / ".venv" / "bin" / "python"
    process = subprocess.Popen(
        [str(python if python.exists() else sys.executable), "-m", "service", "serve",
         "--host", "127.0.0.1", "--port", "0", "--metrics-port", "0", "--workers", "1",
         "--max-connection-age-seconds", "0", *extra],
        cwd=checkout, env={**os.environ, "PYTHONPATH": str(checkout)},
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert process.stderr is not None
    for line in process.stderr:
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if event.get("event") == "ready":
            return process, f"127.0.0.1:{event['port']}"
    raise RuntimeError(f"the server exited {process.wait()} before it was ready")


def _aio_channel(
    target: str, credentials: grpc.ChannelCredentials | None, options: Any = OWN_CONNECTION
) -> grpc.aio.Channel:
    """An asyncio channel to ``target``: TLS with ``credentials``, else plaintext."""
    if credentials is None:
        return grpc.aio.insecure_channel(target, options=options)
    return grpc.aio.secure_channel(target, credentials, options=options)


async def polite(
    target: str,
    calls: int,
    budget_s: float,
    interval_s: float = 0.0,
    credentials: grpc.ChannelCredentials | None = None,
) -> dict[str, Any]:
    """``calls`` sequential Evaluates on a connection of their own, within ``budget_s``,
    ``interval_s`` apart (start to start) when given, so they sample a stretch of time;
    over TLS with ``credentials``."""
    latencies: list[float] = []
    failures: dict[str, int] = {}
    ended = time.monotonic() + budget_s
    async with _aio_channel(target, credentials) as channel:
        stub = pb_grpc.HandEvaluatorStub(channel)
        began = 0.0
        for _ in range(calls):
            if time.monotonic() > ended:
                break
            if interval_s and began:
                await asyncio.sleep(max(began + interval_s - time.perf_counter(), 0.0))
            began = time.perf_counter()
            try:
                await stub.Evaluate(REQUEST, timeout=2.0)
                latencies.append(time.perf_counter() - began)
            except grpc.aio.AioRpcError as error:
                failures[error.code().name] = failures.get(error.code().name, 0) + 1
    quantiles = statistics.quantiles(latencies, n=100) if len(latencies) > 1 else [0.0] * 99
    return {
        "calls": len(latencies) + sum(failures.values()),
        "ok": len(latencies),
        "failures": failures,
        "p50_ms": round(quantiles[49] * 1000, 3),
        "p99_ms": round(quantiles[98] * 1000, 3),
    }


async def under_attack(target: str, streams: int, calls: int) -> dict[str, Any]:
    connections = -(-streams // STREAMS_PER_CONNECTION)
    channels = [
        grpc.aio.insecure_channel(target, options=OWN_CONNECTION) for _ in range(connections)
    ]
    idle = [
        pb_grpc.HandEvaluatorStub(channels[i // STREAMS_PER_CONNECTION]).EvaluateStream()
        for i in range(streams)
    ]
    await asyncio.sleep(2.0)  # let every stream reach the server
    report = await polite(target, calls, ATTACK_PHASE_SECONDS)
    report["idle_streams_still_open"] = sum(not call.done() for call in idle)
    for call in idle:
        call.cancel()
    for channel in channels:
        await channel.close()
    return report


async def rate(target: str, seconds: float, in_flight: int = 32) -> float:
    """Evaluate calls per second with ``in_flight`` calls outstanding over 2 connections."""
    channels = [grpc.aio.insecure_channel(target, options=OWN_CONNECTION) for _ in range(2)]
    stubs = [pb_grpc.HandEvaluatorStub(c) for c in channels]
    done = 0
    ended = time.monotonic() + seconds

    async def caller(stub: pb_grpc.HandEvaluatorStub) -> None:
        nonlocal done
        while time.monotonic() < ended:
            await stub.Evaluate(REQUEST, timeout=10)
            done += 1

    began = time.monotonic()
    await asyncio.gather(*(caller(stubs[i % 2]) for i in range(in_flight)))
    elapsed = time.monotonic() - began
    for channel in channels:
        await channel.close()
    return done / elapsed


async def measure(target: str, other: str | None, options: argparse.Namespace) -> dict[str, Any]:
    quiet = await polite(target, options.calls, ATTACK_PHASE_SECONDS)
    attacked = await under_attack(target, options.streams, options.calls)
    rounds: list[float] = []
    others: list[float] = []
    for _ in range(options.rounds):
        rounds.append(await rate(target, options.seconds))
        if other is not None:
            others.append(await rate(other, options.seconds))
    result = {
        "quiet": quiet,
        "under_attack": attacked,
        "evaluate_per_s_median": round(statistics.median(rounds)),
        "evaluate_per_s_rounds": [round(r) for r in rounds],
    }
    if others:
        result |= {
            "compare_evaluate_per_s_median": round(statistics.median(others)),
            "compare_evaluate_per_s_rounds": [round(r) for r in others],
            "ratio": round(statistics.median(rounds) / statistics.median(others), 2),
        }
    return result


def server_pids(process: subprocess.Popen[str]) -> list[int]:
    """The server and its worker processes (``--workers`` above 1)."""
    pids = [process.pid]
    for task in Path(f"/proc/{process.pid}/task").iterdir():
        pids += [int(p) for p in (task / "children").read_text().split()]
    return pids


async def cost_rows(checkout: Path, rows: list[str]) -> dict[str, Any]:
    """``benchmarks.cost_attacks``' rows, each on a fresh server of ``checkout``."""
    from benchmarks import cost_attacks

    results: dict[str, Any] = {}
    for row in rows:
        workers = "2" if row == "odds_flood_96" else "1"
        process, target = start(checkout, "--workers", workers)
        try:
            if workers != "1":
                await asyncio.sleep(3.0)  # every worker ready
            pids = server_pids(process)
            if row == "odds_flood_24":
                results[row] = await cost_attacks.odds_flood(target, 4, 24, polite)
            elif row == "odds_flood_96":
                results[row] = await cost_attacks.odds_flood(target, 8, 96, polite)
            elif row == "exact_flop_a":
                results[row] = await cost_attacks.exact_flop_a(target, pids)
            elif row == "unread_replies":
                results[row] = await cost_attacks.unread_replies(target, pids, polite)
            elif row == "partial_uploads":
                results[row] = await cost_attacks.partial_uploads(target, pids)
        finally:
            process.terminate()
            process.wait(30)
    return results


COST_ROWS = ["odds_flood_24", "odds_flood_96", "exact_flop_a", "unread_replies", "partial_uploads"]


# Below the servicer (--below) ---------------------------------------------------------

BURST_CALLS = 5_000
BURST_CONNECTIONS = 50
ATTACK_CONNECTIONS = 4
SCRAPERS = 16
IDLE_CONNECTIONS = 2_100
IDLE_FD_LIMIT = 2_048
FRONT_IDLE_CONNECTIONS = 2_000
FRONT_NEW_CLIENTS = 20
FRONT_IDLE_SECONDS = 60.0
"""Long enough to open every connection (TLS handshakes, on shared cores) and call meanwhile."""
LONG_SAMPLES = 1_000_000_000
LONG_ODDS = odds_request("poker", {"a": "As Ks", "b": "?2", "c": "?2"}, samples=LONG_SAMPLES)
"""About 50-90 CPU-s with Odds in C (10M samples, about half a CPU-s now, ended before the
grace): far longer than any grace, so SIGTERM finds it running; the server must allow it
(``ALLOW_LONG_ODDS``), as tests/test_drain.py's does."""
ALLOW_LONG_ODDS = ("--max-odds-samples", str(LONG_SAMPLES), "--cpu-budget-seconds", "100000")


def serve(
    checkout: Path, *flags: str, fd_limit: int = 0, tls: TlsRun | None = None
) -> ServerProcess:
    """``handeval serve`` of ``checkout`` (its own Python when it has a .venv), stderr read
    to the end; with ``fd_limit``, under that open-file limit; with ``tls``, ending TLS
    itself (ready once it logs ``ready``: the health check the launcher makes is
    plaintext)."""
    python = checkout / ".venv" / "bin" / "python"
    command = [str(python if python.exists() else sys.executable), "-m", "service", "serve"]
    if fd_limit:
        command = ["prlimit", f"--nofile={fd_limit}:{fd_limit}", *command]
    if tls is None:
        return start_server("--max-connection-age-seconds", "0", *flags, command=command,
                            root=checkout)  # fmt: skip
    server = start_server("--max-connection-age-seconds", "0", *flags, *tls.server_flags(),
                          command=command, root=checkout, wait_ready=False)  # fmt: skip
    server.port = int(server.wait_for_event("ready")["port"])
    return server


def _front(
    checkout: Path, tls: TlsRun | None, *flags: str, fd_limit: int = 0
) -> tuple[ServerProcess, FrontProcess]:
    """A server as k8s runs it behind the front, and the front (the TLS pod's with
    ``tls``: certificate copies in a folder beside the certificates)."""
    server = serve(checkout, *BEHIND_FRONT, fd_limit=fd_limit)
    if tls is None:
        return server, start_front(server.port, *flags)
    copies = Path(tls.server.cert).parent / "copies"
    front = start_front(server.port, *flags, tls=tls.server, credentials=tls.credentials(),
                        copies=copies)  # fmt: skip
    return server, front


def _not_json(lines: list[str]) -> int:
    """How many of ``lines`` are not one JSON object."""
    count = 0
    for line in lines:
        try:
            count += not isinstance(json.loads(line), dict)
        except ValueError:
            count += 1
    return count


def _p50_ms(report: dict[str, Any]) -> float:
    return float(report["p50_ms"])


def _attacker(
    kind: str, target: str, seconds: float, connections: int, *flags: str
) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "benchmarks.transport_attacks", kind, target,
         "--seconds", str(seconds), "--connections", str(connections), *flags],
        cwd=ROOT, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip


def _evaluate_totals(metrics_port: int) -> tuple[float, float]:
    """Evaluate's ``grpc_server_started_total`` and summed ``grpc_server_handled_total``."""
    with urllib.request.urlopen(f"http://127.0.0.1:{metrics_port}/metrics", timeout=30) as reply:
        text = reply.read().decode()
    started = handled = 0.0
    for line in text.splitlines():
        if 'grpc_method="Evaluate"' in line and line.startswith("grpc_server_started_total{"):
            started += float(line.rsplit(" ", 1)[1])
        elif 'grpc_method="Evaluate"' in line and line.startswith("grpc_server_handled_total{"):
            handled += float(line.rsplit(" ", 1)[1])
    return started, handled


async def _burst(target: str) -> dict[str, int]:
    channels = [
        grpc.aio.insecure_channel(target, options=OWN_CONNECTION) for _ in range(BURST_CONNECTIONS)
    ]
    stubs = [pb_grpc.HandEvaluatorStub(channel) for channel in channels]
    codes: dict[str, int] = {}

    async def one(index: int) -> None:
        try:
            await stubs[index % BURST_CONNECTIONS].Evaluate(REQUEST, timeout=60)
            code = "OK"
        except grpc.aio.AioRpcError as error:
            code = f"{error.code().name}: {error.details()}"
        codes[code] = codes.get(code, 0) + 1

    await asyncio.gather(*(one(i) for i in range(BURST_CALLS)))
    for channel in channels:
        await channel.close()
    return codes


def burst(checkout: Path, front: bool = False) -> dict[str, Any]:
    server = serve(checkout, *(BEHIND_FRONT if front else ()))
    proxy = start_front(server.port) if front else None
    try:
        port = server.metrics_port()
        before = _evaluate_totals(port)
        began = time.monotonic()
        codes = asyncio.run(_burst(proxy.target if proxy else server.target))
        seconds = time.monotonic() - began
        time.sleep(1.0)
        after = _evaluate_totals(port)
    finally:
        if proxy:
            proxy.stop()
        server.stop()
    return {
        "calls": BURST_CALLS, "codes": codes, "seconds": round(seconds, 2),
        "started_counted": after[0] - before[0], "handled_counted": after[1] - before[1],
    }  # fmt: skip


def transport_attack(
    checkout: Path,
    kind: str,
    seconds: float,
    front: bool = False,
    *flags: str,
    tls: TlsRun | None = None,
) -> dict[str, Any]:
    """A polite client quiet, then during the attack; and the server's CPU over the attack
    with nobody else calling (a second attack as long), against the attacker's. With
    ``front``, nghttpx (``benchmarks.front``) stands before the server and everyone, polite
    client and attackers, calls through it; its CPU counts with the server's. ``flags`` go
    to the attacker (``--reconnect``). With ``tls`` everyone speaks TLS with a client
    certificate, to the front or to the server ending TLS itself."""
    credentials = tls.credentials() if tls else None
    flags = (*flags, *(tls.attacker_flags() if tls else ()))
    if front:
        server, proxy = _front(checkout, tls)
    else:
        server, proxy = serve(checkout, tls=tls), None
    target = proxy.target if proxy else server.target
    try:
        quiet = asyncio.run(polite(target, 500, ATTACK_PHASE_SECONDS, credentials=credentials))
        attacker = _attacker(kind, target, seconds, ATTACK_CONNECTIONS, *flags)
        time.sleep(1.0)
        attacked = asyncio.run(polite(target, 10**6, seconds - 2.0, credentials=credentials))
        result = json.loads(attacker.communicate()[0])
        proxy_pids = proxy.pids() if proxy else []
        began, proxy_began = cpu_seconds(server.pid), sum(map(cpu_seconds, proxy_pids))
        alone = _attacker(kind, target, seconds, ATTACK_CONNECTIONS, *flags)
        alone_result = json.loads(alone.communicate()[0])
        server_cpu = cpu_seconds(server.pid) - began
        proxy_cpu = sum(map(cpu_seconds, proxy_pids)) - proxy_began
        after = asyncio.run(polite(target, 200, ATTACK_PHASE_SECONDS, credentials=credentials))
    finally:
        if proxy:
            proxy.stop()
        server.stop()
    attacker_cpu = max(alone_result["attacker_cpu_s"], 0.01)
    logs = {}
    if proxy:
        pod_lines = [*proxy.lines, *server.other_lines]
        logs = {"pod_lines": len(proxy.lines) + len(server.events) + len(server.other_lines),
                "pod_lines_not_json": _not_json(pod_lines)}  # fmt: skip
    return {**logs,
        "quiet": quiet, "attacked": attacked, "after": after,
        "p50_ratio": round(_p50_ms(attacked) / max(_p50_ms(quiet), 1e-3), 2),
        "attacker": result, "attacker_alone": alone_result,
        "server_cpu_s_alone": round(server_cpu, 2),
        **({"front_cpu_s_alone": round(proxy_cpu, 2)} if proxy else {}),
        "server_to_attacker_cpu": round((server_cpu + proxy_cpu) / attacker_cpu, 1),
    }  # fmt: skip


HOP_ROUNDS = 5
HOP_CALLS = 300
HOP_BATCHES = 4
"""Batches a round each way, alternating: one batch is a few milliseconds, so a busy
moment on the shared cores moves one sample, not the median."""
BATCH_HANDS = 100_000


def _batch_seconds(
    target: str, request: bytes, credentials: grpc.ChannelCredentials | None = None
) -> float:
    """One ``BATCH_HANDS``-hand EvaluateBatch, seconds to the whole reply."""
    options = channel_options(retries=False)
    channel = (
        grpc.secure_channel(target, credentials, options=options)
        if credentials
        else grpc.insecure_channel(target, options=options)
    )
    with channel:
        call = channel.unary_unary("/handeval.v1.HandEvaluator/EvaluateBatch")
        began = time.perf_counter()
        call(request, timeout=60)
        return time.perf_counter() - began


def front_hop(checkout: Path, tls: TlsRun | None = None, *flags: str) -> dict[str, Any]:
    """What the extra hop costs a polite caller, quiet: unary p50/p99 and a 100k-hand batch,
    direct and through nghttpx in interleaved rounds (medians of the rounds' p50s and of
    every batch). With ``tls`` both ways are
    TLS: direct is a second server ending TLS itself. ``flags`` go to nghttpx."""
    server, proxy = _front(checkout, tls, *flags)
    alone = serve(checkout, tls=tls) if tls else server
    credentials = tls.credentials() if tls else None
    hands = np.random.default_rng(7).permuted(
        np.tile(np.arange(52, dtype=np.uint8), (BATCH_HANDS, 1)), axis=1
    )
    request = bytes(batch_request("poker", hands[:, :7], columns=True).SerializeToString())
    rounds: dict[str, list[dict[str, Any]]] = {"direct": [], "front": []}
    batches: dict[str, list[float]] = {"direct": [], "front": []}
    try:
        for _ in range(HOP_ROUNDS):
            for name, target in (("direct", alone.target), ("front", proxy.target)):
                rounds[name].append(
                    asyncio.run(
                        polite(target, HOP_CALLS, ATTACK_PHASE_SECONDS, credentials=credentials)
                    )
                )
            for _ in range(HOP_BATCHES):
                for name, target in (("direct", alone.target), ("front", proxy.target)):
                    batches[name].append(_batch_seconds(target, request, credentials))
    finally:
        proxy.stop()
        server.stop()
        alone.stop()
    report: dict[str, Any] = {}
    for name in rounds:
        report[name] = {
            "p50_ms": statistics.median(_p50_ms(r) for r in rounds[name]),
            "p99_ms": statistics.median(float(r["p99_ms"]) for r in rounds[name]),
            "failures": sum(sum(r["failures"].values()) for r in rounds[name]),
            "batch_100k_s": round(statistics.median(batches[name]), 3),
        }
    report["p50_ratio"] = round(report["front"]["p50_ms"] / report["direct"]["p50_ms"], 2)
    report["batch_ratio"] = round(
        report["front"]["batch_100k_s"] / report["direct"]["batch_100k_s"], 2
    )
    return report


def scrapers(checkout: Path, seconds: float) -> dict[str, Any]:
    server = serve(checkout)
    stop = threading.Event()
    scrapes = [0]

    def scrape_in_a_loop(port: int) -> None:
        while not stop.is_set():
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=30) as reply:
                reply.read()
            scrapes[0] += 1

    try:
        quiet = asyncio.run(polite(server.target, 500, ATTACK_PHASE_SECONDS))
        port = server.metrics_port()
        threads = [threading.Thread(target=scrape_in_a_loop, args=(port,)) for _ in range(SCRAPERS)]
        began = cpu_seconds(server.pid)
        for thread in threads:
            thread.start()
        attacked = asyncio.run(polite(server.target, 10**6, seconds))
        stop.set()
        for thread in threads:
            thread.join()
        server_cpu = cpu_seconds(server.pid) - began
    finally:
        server.stop()
    return {"quiet": quiet, "scraped": attacked, "scrapes": scrapes[0],
            "p50_ratio": round(_p50_ms(attacked) / max(_p50_ms(quiet), 1e-3), 2),
            "server_cpu_s": round(server_cpu, 2)}  # fmt: skip


def _load_until(target: str, stop: threading.Event, codes: dict[str, int], odds: bool) -> None:
    with grpc.insecure_channel(target) as channel:
        stub = pb_grpc.HandEvaluatorStub(channel)
        while not stop.is_set():
            try:
                if odds:
                    stub.Odds(LONG_ODDS, timeout=60)
                else:
                    stub.Evaluate(REQUEST, timeout=10)
                code = "OK"
            except grpc.RpcError as error:
                code = f"{error.code().name}: {error.details()}"[:100]
            key = ("odds " if odds else "evaluate ") + code
            codes[key] = codes.get(key, 0) + 1
            if code.startswith("UNAVAILABLE"):
                return


def _sigterm_under_load(server: ServerProcess) -> dict[str, Any]:
    codes: dict[str, int] = {}
    stop = threading.Event()
    callers = [
        threading.Thread(target=_load_until, args=(server.target, stop, codes, i == 0))
        for i in range(5)
    ]
    for caller in callers:
        caller.start()
    time.sleep(2.0)
    began = time.monotonic()
    exit_code = server.stop()
    took = time.monotonic() - began
    stop.set()
    for caller in callers:
        caller.join()
    return {"exit_code": exit_code, "exit_seconds": round(took, 2), "codes": codes}


def log_flood(checkout: Path) -> dict[str, Any]:
    server = serve(checkout, "--grace-seconds", "2", *ALLOW_LONG_ODDS)
    began = time.monotonic()
    transport_attacks.log_flood(server.port, 200)
    flood_seconds = time.monotonic() - began
    sigterm = _sigterm_under_load(server)
    server.wait_for_event("stop", timeout=30)
    lines = len(server.events) + len(server.other_lines)
    return {"flood_seconds": round(flood_seconds, 2), "stderr_lines": lines,
            "not_json": len(server.other_lines), "not_json_examples": server.other_lines[:3],
            "sigterm": sigterm}  # fmt: skip


def _calls(target: str, count: int) -> dict[str, int]:
    codes: dict[str, int] = {}
    for _ in range(count):
        with grpc.insecure_channel(target, options=OWN_CONNECTION) as channel:
            began = time.monotonic()
            try:
                pb_grpc.HandEvaluatorStub(channel).Evaluate(REQUEST, timeout=3)
                code = "OK"
            except grpc.RpcError as error:
                code = error.code().name
            code += f" in {time.monotonic() - began:.1f} s"
            codes[code] = codes.get(code, 0) + 1
    return codes


def idle_connections(checkout: Path) -> dict[str, Any]:
    server = serve(checkout, fd_limit=IDLE_FD_LIMIT)
    try:
        holder = _attacker("idle", server.target, 25.0, IDLE_CONNECTIONS)
        time.sleep(8.0)
        during = _calls(server.target, 4)
        time.sleep(12.0)
        later = _calls(server.target, 4)
        held = json.loads(holder.communicate()[0])
    finally:
        server.stop()
    return {"held": held, "new_calls_while_held": during, "new_calls_12_s_later": later}


def _new_clients(target: str, count: int, credentials: grpc.ChannelCredentials) -> dict[str, Any]:
    """``count`` clients one after the other, each making one Evaluate on a new TLS
    connection: their codes and milliseconds from dialling to the reply."""
    codes: dict[str, int] = {}
    took: list[float] = []
    for _ in range(count):
        began = time.perf_counter()
        with grpc.secure_channel(target, credentials, options=OWN_CONNECTION) as channel:
            try:
                pb_grpc.HandEvaluatorStub(channel).Evaluate(REQUEST, timeout=10)
                code = "OK"
            except grpc.RpcError as error:
                code = error.code().name
        took.append(round((time.perf_counter() - began) * 1000, 1))
        codes[code] = codes.get(code, 0) + 1
    return {"codes": codes, "ms": took, "p50_ms": statistics.median(took)}


def front_idle_connections(checkout: Path, tls: TlsRun) -> dict[str, Any]:
    """``FRONT_IDLE_CONNECTIONS`` idle client connections held on the TLS front (each has
    finished its handshake and sent HTTP/2's preface, then nothing): new clients' calls
    before, while they are held and after they are let go (the shared cores' noise either
    side), and the descriptors the front holds meanwhile."""
    server, proxy = _front(checkout, tls)
    credentials = tls.credentials()
    try:
        quiet = _new_clients(proxy.target, FRONT_NEW_CLIENTS, credentials)
        holder = _attacker("idle", proxy.target, FRONT_IDLE_SECONDS, FRONT_IDLE_CONNECTIONS,
                           *tls.attacker_flags())  # fmt: skip
        worker = proxy.pids()[-1]
        opened = time.monotonic() + FRONT_IDLE_SECONDS
        descriptors = 0
        while time.monotonic() < opened - 15.0:
            descriptors = len(os.listdir(f"/proc/{worker}/fd"))
            if descriptors >= FRONT_IDLE_CONNECTIONS:
                break
            time.sleep(0.5)
        during = _new_clients(proxy.target, FRONT_NEW_CLIENTS, credentials)
        held = json.loads(holder.communicate()[0])
        after = _new_clients(proxy.target, FRONT_NEW_CLIENTS, credentials)
    finally:
        proxy.stop()
        server.stop()
    return {"quiet": quiet, "while_held": during, "after_released": after,
            "front_descriptors_while_held": descriptors,
            "held": held, "p50_ratio": round(during["p50_ms"] / max(quiet["p50_ms"], 0.1), 2),
            "pod_lines_not_json": _not_json([*proxy.lines, *server.other_lines])}  # fmt: skip


def sigterm(checkout: Path) -> dict[str, Any]:
    return _sigterm_under_load(serve(checkout, "--grace-seconds", "10", *ALLOW_LONG_ODDS))


def below(checkout: Path, attack_seconds: float, front: str | None = None) -> dict[str, Any]:
    """Every row; with ``front`` (``nghttpx``) only the attacks a front stops, straight at
    the server and through the front side by side, and what its hop costs."""
    print(f"load {Path('/proc/loadavg').read_text().strip()}", file=sys.stderr)
    if front == "nghttpx-tls":
        with tempfile.TemporaryDirectory() as folder:
            return tls_front_rows(checkout, attack_seconds, tls_run(Path(folder)))
    if front:
        flood_seconds = min(attack_seconds, 10.0)
        return {
            "front": front,
            "burst": burst(checkout, True),
            "rapid_reset_direct": transport_attack(checkout, "rapid-reset", attack_seconds),
            "ping_flood_direct": transport_attack(checkout, "ping-flood", flood_seconds),
            "rapid_reset": transport_attack(checkout, "rapid-reset", attack_seconds, True),
            "ping_flood": transport_attack(checkout, "ping-flood", flood_seconds, True),
            "rapid_reset_reconnecting": transport_attack(
                checkout, "rapid-reset", attack_seconds, True, "--reconnect"
            ),
            "ping_flood_reconnecting": transport_attack(
                checkout, "ping-flood", flood_seconds, True, "--reconnect"
            ),
            "hop": front_hop(checkout),
            "load_after": Path("/proc/loadavg").read_text().strip(),
        }
    return {
        "burst": burst(checkout),
        "rapid_reset": transport_attack(checkout, "rapid-reset", attack_seconds),
        "ping_flood": transport_attack(checkout, "ping-flood", min(attack_seconds, 10.0)),
        "scrapers": scrapers(checkout, 10.0),
        "log_flood": log_flood(checkout),
        "idle_connections": idle_connections(checkout),
        "sigterm": sigterm(checkout),
        "load_after": Path("/proc/loadavg").read_text().strip(),
    }


def tls_front_rows(checkout: Path, attack_seconds: float, tls: TlsRun) -> dict[str, Any]:
    """``below``'s rows for the TLS pod: straight at the server ending TLS, and through the
    TLS front; each caller with the client certificate in ``tls``."""
    flood_seconds = min(attack_seconds, 10.0)
    return {
        "front": "nghttpx-tls",
        "rapid_reset_direct": transport_attack(checkout, "rapid-reset", attack_seconds, tls=tls),
        "ping_flood_direct": transport_attack(checkout, "ping-flood", flood_seconds, tls=tls),
        "rapid_reset": transport_attack(checkout, "rapid-reset", attack_seconds, True, tls=tls),
        "ping_flood": transport_attack(checkout, "ping-flood", flood_seconds, True, tls=tls),
        "rapid_reset_reconnecting": transport_attack(
            checkout, "rapid-reset", attack_seconds, True, "--reconnect", tls=tls
        ),
        "ping_flood_reconnecting": transport_attack(
            checkout, "ping-flood", flood_seconds, True, "--reconnect", tls=tls
        ),
        "idle_connections": front_idle_connections(checkout, tls),
        "hop": front_hop(checkout, tls),
        "load_after": Path("/proc/loadavg").read_text().strip(),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.attacks", description=__doc__)
    parser.add_argument("--checkout", type=Path, default=ROOT, help="tree whose server to run")
    parser.add_argument("--compare", type=Path, help="another tree: alternate rate rounds")
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--calls", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument(
        "--cost", nargs="*", choices=COST_ROWS, metavar="ROW",
        help=f"run the cost attacks instead (benchmarks.cost_attacks): {', '.join(COST_ROWS)}; "
        "none named: all",
    )  # fmt: skip
    parser.add_argument("--below", action="store_true", help="the attacks below the servicer")
    parser.add_argument("--attack-seconds", type=float, default=20.0)
    parser.add_argument(
        "--front", choices=("nghttpx", "nghttpx-tls"),
        help="with --below: rapid reset and the PING flood through this front proxy "
        "(front/nghttpx.conf; nghttpx-tls: the TLS pod's, everyone over mutual TLS), and "
        "its hop's cost to a quiet caller",
    )  # fmt: skip
    parser.add_argument(
        "--hop", action="store_true",
        help="only the front's hop (--front nghttpx-tls: over TLS both ways), with "
        "--front-flag settings given to nghttpx after its conf",
    )  # fmt: skip
    parser.add_argument(
        "--front-flag", action="append", metavar="FLAG",
        help="with --hop: an nghttpx flag, e.g. --front-flag=--backend-http2-window-size=64K",
    )  # fmt: skip
    options = parser.parse_args(argv)
    if options.cost is not None:
        checkout = options.checkout.resolve()
        costs = asyncio.run(cost_rows(checkout, options.cost or COST_ROWS))
        print(json.dumps({"checkout": str(options.checkout), **costs}))
        return 0
    if options.hop:
        checkout = options.checkout.resolve()
        flags = options.front_flag or []
        if options.front == "nghttpx-tls":
            with tempfile.TemporaryDirectory() as folder:
                hop = front_hop(checkout, tls_run(Path(folder)), *flags)
        else:
            hop = front_hop(checkout, None, *flags)
        print(json.dumps({"checkout": str(options.checkout), "front_flags": flags, **hop}))
        return 0
    if options.below:
        report = below(options.checkout.resolve(), options.attack_seconds, options.front)
        print(json.dumps({"checkout": str(options.checkout), **report}))
        return 0
    process, target = start(options.checkout.resolve())
    processes = [process]
    try:
        other = None
        if options.compare:
            compared, other = start(options.compare.resolve())
            processes.append(compared)
        result = asyncio.run(measure(target, other, options))
    finally:
        for running in processes:
            running.terminate()
            running.wait(30)
    print(
        json.dumps(
            {
                "checkout": str(options.checkout),
                "compare": options.compare and str(options.compare),
                "streams": options.streams,
                **result,
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
