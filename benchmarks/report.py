"""The benchmark run's report: the machine line, the rows as tables, the targets."""

from __future__ import annotations

import os
import platform
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks import ompeval
from benchmarks.sections import BATCH_METHOD, BYTES_METHOD, NUMPY_BYTES_METHOD, NUMPY_METHOD
from benchmarks.targets import Target, find_row
from benchmarks.timing import Row
from evaluators.kernels import kernel_isa


def machine() -> dict[str, Any]:
    model = platform.processor() or "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    import grpc

    return {
        "cpu": model,
        "cpu_line": ompeval.cpu_line(),
        "kernel_isa": kernel_isa(),
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "grpcio": grpc.__version__,
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "openblas_env": {k: v for k, v in os.environ.items() if k.startswith("OPENBLAS")},
    }


def _si(rate: float) -> str:
    for scale, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if rate >= scale:
            return f"{rate / scale:.2f}{suffix}"
    return f"{rate:.1f}"


def report(
    rows: Sequence[Row], goals: Sequence[Target], info: dict[str, Any], skipped: dict[str, str]
) -> str:
    lines = [
        f"machine: {info['cpu_line']}, kernel path {info['kernel_isa']}, "
        f"{info['cores']} cores, Python {info['python']}, "
        f"numpy {info['numpy']}, grpcio {info['grpcio']}, load average at start "
        f"{info['load_average']}, freed memory kept: {info['retain_freed_memory']}"
        + (f", {info['openblas_env']}" if info["openblas_env"] else ""),
        "",
    ]
    core = [r for r in rows if r.section == "core"]
    if core:
        methods = list(dict.fromkeys(r.method for r in core))
        short = {
            m: m.split(": ", 1)[1].replace(
                "evaluators.batch from bytes (validated)", "bytes+validation"
            )
            for m in methods
        }
        lines.append(
            "Core, hands/s (median of repeats; batch of "
            f"{max(r.count for r in core if r.method.startswith('batch')):,})"
        )
        header = f"{'case':20}" + "".join(f"{short[m][:24]:>26}" for m in methods)
        lines += [header, "-" * len(header)]
        for case in dict.fromkeys(r.case for r in core):
            cells = []
            for m in methods:
                row = find_row(core, case, m)
                cells.append(f"{_si(row.rate) if row else '-':>26}")
            lines.append(f"{case:20}" + "".join(cells))
        notes = {f"{r.case}: {r.note}" for r in core if r.note}
        lines += [f"  note: {n}" for n in sorted(notes)]
        bad = [
            f"{r.case} ({r.extra['batch_vs_single_mismatches']})"
            for r in core
            if r.extra.get("batch_vs_single_mismatches")
        ]
        if bad:
            lines.append(f"  WARNING batch differs from single evaluate on: {', '.join(bad)}")
        lines.append("")
    compiled = [r for r in core if r.method == NUMPY_METHOD]
    if compiled:
        lines.append(
            "Compiled vs numpy, thread CPU time, hands/s (median of interleaved rounds) and "
            "per-round ratio"
        )
        header = f"{'case':20}" + "".join(
            f"{h:>16}" for h in ("kernel", "numpy", "ratio", "bytes kernel", "bytes numpy", "ratio")
        )
        lines += [header, "-" * len(header)]
        for numpy_row in compiled:
            cells = []
            for ours, theirs in ((BATCH_METHOD, NUMPY_METHOD), (BYTES_METHOD, NUMPY_BYTES_METHOD)):
                kernel = find_row(core, numpy_row.case, ours)
                numpy_only = find_row(core, numpy_row.case, theirs)
                if kernel and numpy_only:
                    cells += [
                        f"{_si(kernel.extra['cpu_rate']):>16}",
                        f"{_si(numpy_only.extra['cpu_rate']):>16}",
                        f"{numpy_only.extra['compiled_vs_numpy_cpu']:>15.2f}x",
                    ]
            lines.append(f"{numpy_row.case:20}" + "".join(cells))
        lines.append("")
    peer_rows = [r for r in rows if r.section == "peers"]
    if peer_rows:
        lines.append("Peers on the same hands, hands/s, and our rate / theirs")
        header = (
            f"{'case':16}{'peer':38}{'peer rate':>11}{'agree':>10}"
            f"{'single/peer':>13}{'batch/peer':>12}"
        )
        lines += [header, "-" * len(header)]
        for r in peer_rows:
            single = find_row(rows, r.case, "single: game's evaluate")
            batch_row = find_row(rows, r.case, "batch: game's evaluate_batch")
            agree = "-"
            if "checked" in r.extra:
                agree = f"{r.extra['checked'] - r.extra['disagreements']}/{r.extra['checked']}"
            peer_row = not r.method.startswith("ours")
            s = f"{single.rate / r.rate:.1f}x" if single and peer_row else "-"
            b = f"{batch_row.rate / r.rate:.1f}x" if batch_row and peer_row else "-"
            lines.append(f"{r.case:16}{r.method:38}{_si(r.rate):>11}{agree:>10}{s:>13}{b:>12}")
        lines += [f"  skipped: {name}: {why}" for name, why in skipped.items()]
        lines.append(
            "  agree: poker peers exactly (Cactus-Kev class) or by order on neighbouring "
            "hands; rlcard deadwood exactly"
        )
        lines.append("")
    grpc_rows = [r for r in rows if r.section == "grpc"]
    if grpc_rows:
        lines.append("gRPC on loopback (server in a child process)")
        header = f"{'call':42}{'rate':>12} {'unit':12}{'p50 ms':>9}{'p99 ms':>9}  note"
        lines += [header, "-" * len(header)]
        for r in grpc_rows:
            p50, p99 = r.extra.get("p50_ms"), r.extra.get("p99_ms")
            rate = f"{r.rate:.2f}" if r.unit == "seconds" else _si(r.rate)
            lines.append(
                f"{r.method:42}{rate:>12} {r.unit:12}"
                f"{(f'{p50:.2f}' if p50 is not None else '-'):>9}"
                f"{(f'{p99:.2f}' if p99 is not None else '-'):>9}  {r.note}"
            )
        lines.append("")
    if any(g.ratio is not None for g in goals):
        lines.append("Targets, from this run")
        header = f"{'target':52}{'measured':>10}{'goal':>8}  met"
        lines += [header, "-" * len(header)]
        for g in goals:
            if g.ratio is None:
                continue
            unit = "s" if not g.higher_is_better else "x"
            sign = "<=" if not g.higher_is_better else ">="
            met = "yes" if g.met else "NO"
            lines.append(f"{g.what:52}{g.ratio:>9.2f}{unit}{sign:>4}{g.goal:>4g}  {met}")
    return "\n".join(lines)
