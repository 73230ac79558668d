"""A soak: a real server under moderate, mixed load for minutes; its memory must stay flat.

``python -m benchmarks.soak`` (3 minutes) or ``--short`` (35 s, what CI runs through
``tests/test_faults.py``). It starts ``python -m service serve`` with one worker (so the
process sampled is the one serving) through ``benchmarks.launcher``, then runs three loads
at once through ``service.client.load``: unary ``Evaluate`` (3 clients), ``EvaluateStream``
(1) and ``EvaluateBatch`` of 1,000 hands (1), a share of them with bad hands (each must be
refused INVALID_ARGUMENT, which counts as expected, not as an error). The server's VmRSS
is sampled every second. The first ``warm_share`` of the run is
warm-up (allocator arenas and grpc's buffers find their size); growth is measured from
the sample at its end to the last sample and must stay under 10%. Prints one JSON object;
exits 1 on any error or on growth at or over 10%.
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from benchmarks.launcher import start_server
from service.client.load import run_load
from service.client.load_spec import LoadReport, LoadSpec, Rpc

GROWTH_LIMIT = 0.10


@dataclass(frozen=True)
class SoakSpec:
    """How long, how much, and how much of it is warm-up."""

    duration_s: float = 180.0
    warm_share: float = 0.25
    evaluate_clients: int = 3
    stream_clients: int = 1
    batch_clients: int = 1
    batch_size: int = 1000
    bad_share: float = 0.02


SHORT = SoakSpec(duration_s=35.0, warm_share=0.3)
"""CI's soak: 35 s, of which the first 10.5 s are warm-up."""


@dataclass
class SoakResult:
    """Calls made and their codes; RSS samples (KiB) at each second."""

    spec: SoakSpec
    reports: list[LoadReport]
    rss_kib: list[tuple[float, int]] = field(default_factory=list)
    warm_index: int = 0

    @property
    def codes(self) -> dict[str, int]:
        total: Counter[str] = Counter()
        for report in self.reports:
            total.update(report.codes)
        return dict(total)

    @property
    def calls(self) -> int:
        return sum(r.requests for r in self.reports)

    @property
    def errors(self) -> int:
        """Calls that failed other than the expected refusals of bad hands."""
        return sum(r.errors for r in self.reports)

    @property
    def rss_growth(self) -> float:
        """Last sample over the sample at the end of warm-up, minus 1."""
        base = self.rss_kib[self.warm_index][1]
        return self.rss_kib[-1][1] / base - 1.0

    def to_json(self) -> dict[str, Any]:
        samples = [kib for _, kib in self.rss_kib]
        return {
            "duration_s": self.spec.duration_s,
            "calls": self.calls,
            "errors": self.errors,
            "codes": self.codes,
            "hands": sum(r.hands for r in self.reports),
            "rss_start_kib": samples[0],
            "rss_after_warmup_kib": samples[self.warm_index],
            "rss_max_kib": max(samples),
            "rss_end_kib": samples[-1],
            "rss_growth_pct": round(100 * self.rss_growth, 2),
        }


def soak(spec: SoakSpec) -> SoakResult:
    """Run the soak against a server of its own; the figures."""
    server = start_server()
    target = server.target
    try:
        loads = [
            LoadSpec((target,), Rpc.EVALUATE, concurrency=spec.evaluate_clients,
                     duration_s=spec.duration_s, bad_share=spec.bad_share, seed=1),
            LoadSpec((target,), Rpc.STREAM, concurrency=spec.stream_clients,
                     duration_s=spec.duration_s, bad_share=spec.bad_share, seed=2),
            LoadSpec((target,), Rpc.BATCH, concurrency=spec.batch_clients,
                     batch_size=spec.batch_size, duration_s=spec.duration_s,
                     bad_share=spec.bad_share, seed=3),
        ]  # fmt: skip
        reports: list[LoadReport | None] = [None] * len(loads)
        failures: list[BaseException] = []

        def run(index: int) -> None:
            try:
                reports[index] = run_load(loads[index])
            except BaseException as error:
                failures.append(error)

        threads = [threading.Thread(target=run, args=(i,), daemon=True) for i in range(3)]
        started = time.monotonic()
        for thread in threads:
            thread.start()
        result = SoakResult(spec, [])
        while any(t.is_alive() for t in threads):
            elapsed = time.monotonic() - started
            result.rss_kib.append((round(elapsed, 1), server.rss_kib()))
            if elapsed <= spec.duration_s * spec.warm_share:
                result.warm_index = len(result.rss_kib) - 1
            time.sleep(1.0)
        result.rss_kib.append((round(time.monotonic() - started, 1), server.rss_kib()))
        if failures:
            raise failures[0]
        result.reports = [r for r in reports if r is not None]
        return result
    finally:
        server.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--short", action="store_true", help="35 s, as CI runs it")
    parser.add_argument("--seconds", type=float, help="duration (default 180)")
    args = parser.parse_args(argv)
    spec = SHORT if args.short else SoakSpec()
    if args.seconds:
        spec = SoakSpec(duration_s=args.seconds, warm_share=spec.warm_share)
    result = soak(spec)
    print(json.dumps(result.to_json(), indent=2))
    return 0 if result.errors == 0 and result.rss_growth < GROWTH_LIMIT else 1


if __name__ == "__main__":
    sys.exit(main())
