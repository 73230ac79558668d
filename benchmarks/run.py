"""The benchmark: the core per game, the peers on the same hands, gRPC against its ceilings.

Run ``python -m benchmarks.run [--quick] [--json PATH] [--plot PATH] [--only core,peers,grpc]``
(peers need the ``bench`` extra: ``pip install -e '.[bench]'``; a peer that is not
installed is skipped with a line saying so). Prints, from one run on the same seeded hands
(``benchmarks/hands.py``), hands per second per game and path, each peer's rate and our
ratio to it, the gRPC figures, every target with its measured ratio, and a machine
line. Every rate is the median of several repeats. Nothing is asserted: a missed target is
reported, not fatal. ``--quick`` uses small counts (a CI smoke test, well under a minute).

The process keeps its freed memory as the server does (``service.allocator``), so the core's
figures are what the server's core sees and the gRPC client decodes as the README advises a
Python caller of large batches to.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import asdict
from pathlib import Path

from benchmarks import hands, odds_bench, ompeval, peers
from benchmarks.plot import plot
from benchmarks.progress import Progress
from benchmarks.report import machine, report
from benchmarks.sections import (
    SECTIONS,
    run_core,
    run_grpc_section,
    run_odds_section,
    run_ompeval,
    run_peers,
    run_tonk_sizes,
)
from benchmarks.targets import targets
from benchmarks.timing import FULL, QUICK, Row
from service.allocator import retain_freed_memory


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.run", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="small counts (CI smoke test)")
    parser.add_argument("--json", type=Path, help="write every figure as JSON here")
    parser.add_argument("--plot", type=Path, help="write a PNG bar chart here (matplotlib)")
    parser.add_argument(
        "--only",
        default=",".join(SECTIONS),
        help=f"comma-separated sections of {','.join(SECTIONS)}",
    )
    parser.add_argument(
        "--ompeval-dir",
        help=f"an OMPEval checkout for the peers section (default: ${ompeval.ENV}; skipped "
        "without one)",
    )
    args = parser.parse_args(argv)
    sections = [s.strip() for s in args.only.split(",") if s.strip()]
    unknown = set(sections) - set(SECTIONS)
    if unknown:
        parser.error(f"unknown section(s) {', '.join(sorted(unknown))}: use {', '.join(SECTIONS)}")
    config = QUICK if args.quick else FULL
    info = machine() | {"retain_freed_memory": retain_freed_memory()}
    started = time.perf_counter()

    needs_core_deals = "core" in sections or "peers" in sections or "grpc" in sections
    core_deals = hands.core_deals(config.batch_hands) if needs_core_deals else []
    by_key = {d.key: d for d in core_deals}
    tonk_small = [d for d in hands.tonk_peer_deals(config.tonk_peer_hands) if d.key not in by_key]
    steps = 0
    if "core" in sections:
        steps += 5 * len(core_deals) + len(tonk_small)
    if "peers" in sections:
        steps += 2 * 6 + len(tonk_small) + 2 + 1 + config.repeats
    if "grpc" in sections:
        rounds = config.grpc_repeats * (2 + 3 * len(config.grpc_batches) + 2)
        steps += rounds + 1 + config.startup_repeats
    if "odds" in sections:
        steps += odds_bench.steps()
    progress = Progress(steps)

    rows: list[Row] = []
    ompeval_skipped = ""
    if "core" in sections:
        rows += run_core(core_deals, config, progress)
        rows += run_tonk_sizes(tonk_small, config, progress)
    if "peers" in sections:
        rows += run_peers(
            [by_key["poker-7"], by_key["poker-5"]],
            [by_key["tonk-10-random"], by_key["tonk-10-dense"], *tonk_small],
            config,
            progress,
        )
        ompeval_rows, ompeval_skipped = run_ompeval(args.ompeval_dir, config, progress)
        rows += ompeval_rows
        for _ in range(0 if ompeval_rows else 1 + config.repeats):
            progress("peers: OMPEval skipped")
    if "grpc" in sections:
        rows += run_grpc_section(by_key["poker-7"], by_key["tonk-10-random"], config, progress)
    odds_table = ""
    if "odds" in sections:
        odds_table, odds_rows = run_odds_section(config, progress)
        rows += odds_rows
    progress.close()

    goals = targets(rows)
    skipped = peers.missing_peers() if "peers" in sections else {}
    if "peers" in sections and ompeval_skipped:
        skipped[ompeval.NAME] = ompeval_skipped
    print(report(rows, goals, info, skipped))
    if odds_table:
        print(f"\nOdds, in process\n{odds_table}")
    print(f"\n{'quick' if args.quick else 'full'} run in {time.perf_counter() - started:.0f} s")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        document = {
            "machine": info,
            "config": asdict(config)
            | {"quick": args.quick, "sections": sections, "seed": hands.SEED},
            "rows": [asdict(r) for r in rows],
            "targets": [asdict(g) | {"met": g.met} for g in goals],
            "skipped_peers": skipped,
        }
        args.json.write_text(json.dumps(document, indent=1) + "\n")
    if args.plot:
        try:
            plot(rows, args.plot)
        except ImportError:
            print("no plot: matplotlib is not installed (pip install -e '.[bench]')")
    return 0


if __name__ == "__main__":
    sys.exit(main())
