"""What hostile requests cost the server: CPU seconds and peak memory per request.

Each attack is one request just under the receive limit (``message_limits``, 1,765,536
bytes by default): 882,700 empty Flop-A seats; floods of ``""``, ``"Zz"`` and repeated
``"Ah"`` cards; a flood of empty Tonk table spreads; a valid showdown whose two player ids
are 850,000 characters each. Beside them, the reference: a valid 100,000-hand Tonk batch
(10 cards a hand, deadwood being the dearest figure), the largest work a caller may ask
for. A request's cost is the server process's CPU time (``/proc/<pid>/stat`` utime +
stime) across the call, per byte received; its memory is the peak resident set
(``VmHWM``, reset before each call through ``/proc/<pid>/clear_refs``). Then the metrics
port: the server's threads and resident memory before and after 300 connections that each
send half a request line and hold, with a real scrape meanwhile.

Run: ``.venv/bin/python -m benchmarks.hostile_requests [--root /work/main] [--repeat 5]``
(``--root``: the checkout whose server to measure, with its own ``.venv``; default this
one). It starts that server on 127.0.0.1 (one worker), sends each request ``--repeat``
times (60 s timeout each) and prints a table and JSON. Nothing here is asserted
(``tests/test_hostile_requests.py`` asserts bounds).
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import urllib.request
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import grpc
from handeval_client.gen.handeval.v1 import handeval_pb2 as pb

from evaluators.deal import deal
from evaluators.inputs import Game
from service.server.limits import message_limits

ROOT = Path(__file__).resolve().parents[1]
RECEIVE = message_limits(100_000).receive
"""The default receive limit: every attack fills it but for a few bytes."""
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
ID_CHARS = 850_000


def _flood(size: int) -> int:
    """Elements of ``size`` bytes each (tag, length, text) that fit under the limit."""
    return (RECEIVE - 64) // size


def _hand(cards: list[str], game: pb.Game.ValueType = pb.GAME_POKER_HIGH) -> pb.EvaluateRequest:
    return pb.EvaluateRequest(game=game, hand=cards)


def attacks() -> dict[str, tuple[str, Callable[[], bytes]]]:
    """Attack name -> (method, the request's bytes, built on demand)."""
    return {
        "882,700 empty Flop-A seats": (
            "Showdown",
            lambda: pb.ShowdownRequest(
                game=pb.GAME_FLOP_A, seats=[pb.Seat()] * _flood(2)
            ).SerializeToString(),
        ),
        'flood of "" cards': ("Evaluate", lambda: _hand([""] * _flood(2)).SerializeToString()),
        'flood of "Zz" cards': (
            "Evaluate",
            lambda: _hand(["Zz"] * _flood(4)).SerializeToString(),
        ),
        'flood of repeated "Ah"': (
            "Evaluate",
            lambda: _hand(["Ah"] * _flood(4)).SerializeToString(),
        ),
        "flood of empty spreads": (
            "Evaluate",
            lambda: pb.EvaluateRequest(
                game=pb.GAME_TONK, hand=["Ah"], table_spreads=[pb.Spread()] * _flood(2)
            ).SerializeToString(),
        ),
        "850,000-char player ids": (
            "Showdown",
            lambda: pb.ShowdownRequest(
                game=pb.GAME_NUMBERS,
                seats=[
                    pb.Seat(player="a" * ID_CHARS, hand=["Ah", "Kd"]),
                    pb.Seat(player="b" * ID_CHARS, hand=["2c", "3s"]),
                ],
            ).SerializeToString(),
        ),
    }


def reference_batch() -> bytes:
    """The valid maximal batch: 100,000 Tonk hands of 10 cards (deadwood is the dearest)."""
    dealt = deal(Game.TONK, 100_000, seed=1, hand_size=10, table_size=0)
    batch = pb.EvaluateBatchRequest(game=pb.GAME_TONK, hands=dealt.hands.tobytes(), hand_size=10)
    data: bytes = batch.SerializeToString()
    return data


def cpu_seconds(pid: int) -> float:
    """utime + stime of a process (fields 14 and 15 of /proc/<pid>/stat)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def status_kib(pid: int, key: str) -> int:
    """A ``kB`` line of /proc/<pid>/status (``VmHWM``, ``VmRSS``), or ``Threads``."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1])
    raise KeyError(key)


def reset_peak(pid: int) -> None:
    """Start a new VmHWM from the current resident set (Linux 4.0+, own processes)."""
    Path(f"/proc/{pid}/clear_refs").write_text("5")


@dataclass
class Cost:
    attack: str
    code: str
    bytes: int
    cpu_s: float
    """Per request, averaged over the sends."""
    ns_per_byte: float
    rss_before_mib: float
    peak_rss_mib: float


def measure(pid: int, target: str, name: str, method: str, data: bytes, repeat: int = 5) -> Cost:
    """Send a request's bytes to ``method`` ``repeat`` times and what each cost the server
    ``pid`` on average (/proc counts CPU in 10 ms ticks); the peak is over them all."""
    options = [("grpc.max_send_message_length", 64 << 20),
               ("grpc.max_receive_message_length", 64 << 20)]  # fmt: skip
    with grpc.insecure_channel(target, options=options) as channel:
        warm = channel.unary_unary("/handeval.v1.HandEvaluator/ListGames")
        warm(pb.ListGamesRequest().SerializeToString(), timeout=30)  # connected
        call = channel.unary_unary(f"/handeval.v1.HandEvaluator/{method}")
        reset_peak(pid)
        rss_before = status_kib(pid, "VmRSS")
        before = cpu_seconds(pid)
        for _ in range(repeat):
            try:
                call(data, timeout=60)
                code = grpc.StatusCode.OK
            except grpc.RpcError as error:
                code = error.code()
        spent = (cpu_seconds(pid) - before) / repeat
    return Cost(
        name, code.name, len(data), round(spent, 3), round(spent * 1e9 / len(data), 1),
        round(rss_before / 1024, 1), round(status_kib(pid, "VmHWM") / 1024, 1),
    )  # fmt: skip


HALF_OPEN = 300


def half_open_metrics(pid: int, metrics_port: int) -> dict[str, Any]:
    """Threads and resident memory of the server before and after ``HALF_OPEN``
    connections to /metrics that each send half a request line and hold, and whether a
    real scrape meanwhile succeeds."""
    before = {"threads": status_kib(pid, "Threads"), "rss_mib": status_kib(pid, "VmRSS") / 1024}
    held = [socket.create_connection(("127.0.0.1", metrics_port), timeout=10)
            for _ in range(HALF_OPEN)]  # fmt: skip
    try:
        for connection in held:
            connection.sendall(b"GET /metr")
        url = f"http://127.0.0.1:{metrics_port}/metrics"
        try:
            with urllib.request.urlopen(url, timeout=10) as reply:
                scraped = reply.status == 200
        except OSError:
            scraped = False
        after = {"threads": status_kib(pid, "Threads"),
                 "rss_mib": status_kib(pid, "VmRSS") / 1024}  # fmt: skip
    finally:
        for connection in held:
            connection.close()
    return {"half_open": HALF_OPEN, "before": before, "after": after, "scrape_ok": scraped}


def start(root: Path) -> tuple[subprocess.Popen[str], str, int]:
    """``root``'s server on 127.0.0.1 (one worker, metrics on), its target and its
    metrics port, once ready."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("HANDEVAL_")}
    env["PYTHONPATH"] = str(root)
    process = subprocess.Popen(
        [str(root / ".venv/bin/python"), "-m", "service", "serve", "--host", "127.0.0.1",
         "--port", "0", "--metrics-port", "0", "--workers", "1"],
        cwd=root, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert process.stderr is not None
    metrics_port = 0
    for line in process.stderr:
        if '"start"' in line:
            metrics_port = int(json.loads(line)["metrics_port"])
        if '"ready"' in line:
            return process, f"127.0.0.1:{json.loads(line)['port']}", metrics_port
    raise RuntimeError(f"the server at {root} exited {process.wait()} before it was ready")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=ROOT, help="checkout whose server to run")
    parser.add_argument("--repeat", type=int, default=5, help="sends of each request")
    args = parser.parse_args(argv)
    process, target, metrics_port = start(args.root.resolve())
    try:
        metrics = half_open_metrics(process.pid, metrics_port)
        costs = [measure(process.pid, target, "valid 100,000-hand batch", "EvaluateBatch",
                         reference_batch(), args.repeat)]  # fmt: skip
        for name, (method, build) in attacks().items():
            costs.append(measure(process.pid, target, name, method, build(), args.repeat))
    finally:
        process.terminate()
        process.wait(30)
    print(f"{'request':28} {'status':20} {'bytes':>10} {'CPU s':>7} {'ns/B':>7} {'peak MiB':>9}"
          f" {'+MiB':>7}")  # fmt: skip
    for c in costs:
        print(f"{c.attack:28} {c.code:20} {c.bytes:>10,} {c.cpu_s:>7.3f} {c.ns_per_byte:>7.1f} "
              f"{c.peak_rss_mib:>9.1f} {c.peak_rss_mib - c.rss_before_mib:>7.1f}")  # fmt: skip
    print(f"/metrics, {HALF_OPEN} half-open + a scrape: {json.dumps(metrics)}")
    print(json.dumps([asdict(c) for c in costs]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
