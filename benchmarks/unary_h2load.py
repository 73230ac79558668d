"""Unary ``Evaluate`` against health ``Check`` on one server, driven by a C client (h2load).

A Python gRPC client spends more of the machine than the server it measures; h2load
(nghttp2's HTTP/2 load generator) does not, so the ratio it gives is the server's own. Both
calls go to the same ``python -m service serve --workers 1`` in interleaved rounds (Check,
then Evaluate, ``rounds`` times), and the ratio is the median of the per-round ratios, so
the drift of a shared machine cancels. Each request is one gRPC message in its
length-prefixed frame, sent with the headers gRPC asks for; Evaluate scores the deal's
7-card poker hands, one fixed hand a request (h2load sends one body file). The health
check is the floor of what any unary call costs on this server: the ceiling Evaluate is
held to (issue 24: ≥ 0.8x).

Run: ``python -m benchmarks.unary_h2load [--seconds S] [--rounds N]``. Says "skipped"
without ``h2load`` on the path (Debian: ``apt-get install nghttp2-client``).
"""

from __future__ import annotations

import argparse
import re
import shutil
import statistics
import struct
import subprocess
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import grpc
from grpc_health.v1 import health_pb2

from benchmarks.launcher import start_server
from service.gen.handeval.v1 import handeval_pb2 as pb

CONNECTIONS = 4
STREAMS = 8
EVALUATE_PATH = "/handeval.v1.HandEvaluator/Evaluate"
CHECK_PATH = "/grpc.health.v1.Health/Check"
SEVEN_CARDS = ("As", "Kd", "7c", "7h", "2s", "Jd", "9c")
_RATE = re.compile(r"finished in [\d.]+m?s, ([\d.]+) req/s")
_SUCCEEDED = re.compile(
    r"requests: \d+ total, \d+ started, \d+ done, (\d+) succeeded, (\d+) failed"
)


@dataclass(frozen=True)
class UnaryRatio:
    """Calls per second of each round, and the median of Evaluate's per-round ratio to Check."""

    check: tuple[float, ...]
    evaluate: tuple[float, ...]

    @property
    def ratio(self) -> float:
        return statistics.median(e / c for e, c in zip(self.evaluate, self.check, strict=True))


def grpc_frame(message: bytes) -> bytes:
    """One uncompressed gRPC message: flag byte 0, big-endian length, the bytes."""
    return struct.pack(">BI", 0, len(message)) + message


def evaluate_body() -> bytes:
    request = pb.EvaluateRequest(game=pb.GAME_POKER_HIGH, hand=list(SEVEN_CARDS), request_id="1")
    return grpc_frame(request.SerializeToString())


def check_body() -> bytes:
    return grpc_frame(health_pb2.HealthCheckRequest().SerializeToString())


def h2load_rate(target: str, path: str, body: Path, seconds: float) -> float:
    """Requests per second h2load completed against ``path`` in ``seconds`` (after a short
    warm-up); fails if any request failed at the HTTP level."""
    run = subprocess.run(
        [
            "h2load",
            "-c",
            str(CONNECTIONS),
            "-m",
            str(STREAMS),
            "-t",
            "1",
            "-D",
            f"{round(seconds * 1000)}ms",
            "--warm-up-time",
            "500ms",
            "-H",
            "content-type: application/grpc",
            "-H",
            "te: trailers",
            "-d",
            str(body),
            f"http://{target}{path}",
        ],
        capture_output=True,
        text=True,
        timeout=seconds + 60,
        check=True,
    )
    rate, succeeded = _RATE.search(run.stdout), _SUCCEEDED.search(run.stdout)
    if rate is None or succeeded is None or int(succeeded[2]) or not int(succeeded[1]):
        raise RuntimeError(f"h2load against {path} did not succeed:\n{run.stdout}")
    return float(rate[1])


def measure(
    seconds: float, rounds: int, progress: Callable[[str], None] = lambda _: None
) -> UnaryRatio:
    """Check and Evaluate against one fresh server, interleaved for ``rounds`` rounds."""
    server = start_server()
    assert_answers(server.target)
    check: list[float] = []
    evaluate: list[float] = []
    try:
        with tempfile.TemporaryDirectory() as folder:
            check_file, evaluate_file = Path(folder, "check"), Path(folder, "evaluate")
            check_file.write_bytes(check_body())
            evaluate_file.write_bytes(evaluate_body())
            for number in range(rounds):
                progress(f"h2load: round {number + 1} of {rounds}")
                check.append(h2load_rate(server.target, CHECK_PATH, check_file, seconds))
                evaluate.append(h2load_rate(server.target, EVALUATE_PATH, evaluate_file, seconds))
    finally:
        server.stop()
    return UnaryRatio(tuple(check), tuple(evaluate))


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
    parser.add_argument("--seconds", type=float, default=3.0, help="each window")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    if not available():
        print("unary Evaluate vs Check (h2load): skipped: needs h2load (nghttp2-client)")
        return 0
    result = measure(args.seconds, args.rounds, print)
    print(f"{CONNECTIONS} connections x {STREAMS} streams, --workers 1, one h2load thread")
    for number, (c, e) in enumerate(zip(result.check, result.evaluate, strict=True), 1):
        print(f"round {number}: Check {c:,.0f}/s, Evaluate {e:,.0f}/s, ratio {e / c:.2f}")
    print(f"unary Evaluate vs Check (h2load), median ratio: {result.ratio:.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
