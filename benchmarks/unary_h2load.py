"""Unary ``Evaluate`` against health ``Check`` on one server, driven by a C client (h2load).

A Python gRPC client spends more of the machine than the server it measures; h2load
(nghttp2's HTTP/2 load generator) does not, so the ratio it gives is the server's own. Both
calls go to the same ``python -m service serve --workers 1`` in interleaved rounds (Check,
then Evaluate, ``rounds`` times), each a fixed count of calls, and the figures are medians
of the per-round ones, so the drift of a shared machine cancels. Each request is one gRPC
message in its length-prefixed frame, sent with the headers gRPC asks for; Evaluate scores
7-card poker, one fixed hand a request (h2load sends one body file). The health check is
the floor of what any unary call costs on this server: the ceiling Evaluate is held to
(the target: >= 0.8x).

Two figures a round: calls a second (h2load's rate) and the server's CPU a call (user and
system time from ``/proc/<pid>/stat`` before and after the round's calls, over the calls
done). On a shared machine the rates swing with the neighbours while the CPU a call holds
still, so Check's CPU a call over Evaluate's is the honest ratio there. With ``--against
DIR`` (another checkout, e.g. ``git archive`` of main with its extensions built in place)
a server of that tree is measured in the same rounds, so before and after sit side by side.

Run: ``python -m benchmarks.unary_h2load [--calls N] [--rounds R] [--against DIR]``. Says
"skipped" without ``h2load`` on the path (Debian: ``apt-get install nghttp2-client``).
Linux only (``/proc``).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import struct
import subprocess
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import grpc
from grpc_health.v1 import health_pb2
from handeval_client.gen.handeval.v1 import handeval_pb2 as pb

from benchmarks.launcher import ROOT, ServerProcess, start_server

CONNECTIONS = 4
STREAMS = 8
WARM_UP_CALLS = 2_000
EVALUATE_PATH = "/handeval.v1.HandEvaluator/Evaluate"
CHECK_PATH = "/grpc.health.v1.Health/Check"
SEVEN_CARDS = ("As", "Kd", "7c", "7h", "2s", "Jd", "9c")
_RATE = re.compile(r"finished in [\d.]+m?s, ([\d.]+) req/s")
_SUCCEEDED = re.compile(
    r"requests: \d+ total, \d+ started, \d+ done, (\d+) succeeded, (\d+) failed"
)


@dataclass(frozen=True)
class Round:
    """One run of h2load: calls a second, and the server's CPU microseconds a call."""

    rate: float
    cpu_us: float


@dataclass
class UnaryRatio:
    """One server's rounds of each call, and the medians of Evaluate's per-round ratios to
    Check: by rate, and by CPU a call (Check's CPU over Evaluate's, so higher is better)."""

    check: list[Round] = field(default_factory=list)
    evaluate: list[Round] = field(default_factory=list)

    @property
    def ratio(self) -> float:
        return statistics.median(
            e.rate / c.rate for e, c in zip(self.evaluate, self.check, strict=True)
        )

    @property
    def cpu_ratio(self) -> float:
        return statistics.median(
            c.cpu_us / e.cpu_us for e, c in zip(self.evaluate, self.check, strict=True)
        )


def grpc_frame(message: bytes) -> bytes:
    """One uncompressed gRPC message: flag byte 0, big-endian length, the bytes."""
    return struct.pack(">BI", 0, len(message)) + message


def evaluate_body() -> bytes:
    request = pb.EvaluateRequest(game=pb.GAME_POKER_HIGH, hand=list(SEVEN_CARDS), request_id="1")
    return grpc_frame(request.SerializeToString())


def check_body() -> bytes:
    return grpc_frame(health_pb2.HealthCheckRequest().SerializeToString())


def cpu_seconds(pid: int) -> float:
    """User and system CPU seconds process ``pid`` has used so far (Linux ``/proc``)."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def h2load(target: str, path: str, body: Path, calls: int) -> tuple[float, int]:
    """h2load's rate and the calls that succeeded, ``calls`` calls to ``path``; fails if
    any failed at the HTTP level."""
    run = subprocess.run(
        ["h2load", "-c", str(CONNECTIONS), "-m", str(STREAMS), "-t", "1", "-n", str(calls),
         "-H", "content-type: application/grpc", "-H", "te: trailers", "-d", str(body),
         f"http://{target}{path}"],
        capture_output=True, text=True, timeout=calls / 100 + 60, check=True,
    )  # fmt: skip
    rate, succeeded = _RATE.search(run.stdout), _SUCCEEDED.search(run.stdout)
    if rate is None or succeeded is None or int(succeeded[2]) or not int(succeeded[1]):
        raise RuntimeError(f"h2load against {path} did not succeed:\n{run.stdout}")
    return float(rate[1]), int(succeeded[1])


def measured_round(server: ServerProcess, path: str, body: Path, calls: int) -> Round:
    before = cpu_seconds(server.pid)
    rate, done = h2load(server.target, path, body, calls)
    return Round(rate, 1e6 * (cpu_seconds(server.pid) - before) / done)


def measure(
    calls: int,
    rounds: int,
    trees: Sequence[Path] = (ROOT,),
    progress: Callable[[str], None] = lambda _: None,
) -> list[UnaryRatio]:
    """Check and Evaluate against one fresh server of each tree in ``trees``, ``calls``
    calls a run, interleaved for ``rounds`` rounds (every tree's Check and Evaluate in each);
    one ``UnaryRatio`` a tree, in order."""
    servers: list[ServerProcess] = []
    results = [UnaryRatio() for _ in trees]
    try:
        for tree in trees:
            servers.append(start_server(root=tree))
            assert_answers(servers[-1].target)
        with tempfile.TemporaryDirectory() as folder:
            check_file, evaluate_file = Path(folder, "check"), Path(folder, "evaluate")
            check_file.write_bytes(check_body())
            evaluate_file.write_bytes(evaluate_body())
            for server in servers:
                h2load(server.target, CHECK_PATH, check_file, WARM_UP_CALLS)
                h2load(server.target, EVALUATE_PATH, evaluate_file, WARM_UP_CALLS)
            for number in range(rounds):
                progress(f"h2load: round {number + 1} of {rounds}")
                for server, result in zip(servers, results, strict=True):
                    result.check.append(measured_round(server, CHECK_PATH, check_file, calls))
                    result.evaluate.append(
                        measured_round(server, EVALUATE_PATH, evaluate_file, calls)
                    )
    finally:
        for server in servers:
            server.stop()
    return results


def assert_answers(target: str) -> None:
    """The bodies h2load sends are answered with status OK (h2load itself counts any HTTP
    200, and gRPC fails a call in its trailers): raises otherwise."""
    with grpc.insecure_channel(target) as channel:
        channel.unary_unary(CHECK_PATH)(check_body()[5:], timeout=10)
        reply = channel.unary_unary(EVALUATE_PATH)(evaluate_body()[5:], timeout=10)
    if not pb.Evaluation.FromString(reply).strength:
        raise RuntimeError("Evaluate of the benchmark's hand scored nothing")


def available() -> bool:
    return shutil.which("h2load") is not None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=10_000, help="calls a run (10,000)")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (5)")
    parser.add_argument("--against", type=Path, help="another checkout, measured alongside")
    args = parser.parse_args(argv)
    if not available():
        print("unary Evaluate vs Check (h2load): skipped: needs h2load (nghttp2-client)")
        return 0
    trees = [ROOT, *([args.against.resolve()] if args.against else [])]
    with open("/proc/loadavg") as load:
        before = load.read().split()[:3]
    results = measure(args.calls, args.rounds, trees, lambda line: print(line, flush=True))
    with open("/proc/loadavg") as load:
        after = load.read().split()[:3]
    print(f"{CONNECTIONS} connections x {STREAMS} streams, --workers 1, one h2load thread, "
          f"{args.calls:,} calls a run; load {' '.join(before)} -> {' '.join(after)}")  # fmt: skip
    for tree, result in zip(trees, results, strict=True):
        print(f"\n{tree}")
        for number, (c, e) in enumerate(zip(result.check, result.evaluate, strict=True), 1):
            print(
                f"round {number}: Check {c.rate:,.0f}/s {c.cpu_us:.0f} us, "
                f"Evaluate {e.rate:,.0f}/s {e.cpu_us:.0f} us, "
                f"ratio {e.rate / c.rate:.2f} by rate, {c.cpu_us / e.cpu_us:.2f} by CPU"
            )
        cpu = statistics.median(e.cpu_us for e in result.evaluate)
        check_cpu = statistics.median(c.cpu_us for c in result.check)
        print(f"server CPU a call, medians: Check {check_cpu:.0f} us, Evaluate {cpu:.0f} us")
        print(
            f"unary Evaluate vs Check (h2load), median ratio: {result.ratio:.2f}x by rate, "
            f"{result.cpu_ratio:.2f}x by CPU a call"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
