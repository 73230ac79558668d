"""The benchmark run's plot: each game's rates by path, ours beside the peers'."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from benchmarks.timing import Row


def plot(rows: Sequence[Row], path: Path) -> None:
    """Horizontal bar charts, log scale, ours blue and the peers or ceilings grey: hands/s of
    the core and the peers, Odds run-outs or samples per second, and the gRPC rows (each
    section's panel when it ran)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    hands_rows = [
        r
        for r in rows
        if r.unit == "hands/s"
        and r.section in ("core", "peers")
        and not r.method.startswith("single: scoring")
        and (
            r.section == "peers"
            or r.case in ("poker-7", "poker-5", "tonk-10-random", "tonk-10-dense")
            or r.method.startswith("batch: game")
        )
    ]
    hands_rows.sort(key=lambda r: (r.case, -r.rate))
    hand_bars = [
        (
            f"{r.case}: {r.method.replace('batch: ', '').replace('single: ', 'single ')}",
            r.rate,
            r.section == "peers" and not r.method.startswith("ours"),
        )
        for r in hands_rows
    ]
    odds_bars = [
        (r.method, r.rate, "handeval" not in r.method) for r in rows if r.section == "odds"
    ]
    grpc_rows = [r for r in rows if r.section == "grpc"]
    grpc_bars = {
        unit: [(r.method, r.rate, "(ceiling)" in r.method) for r in grpc_rows if r.unit == unit]
        for unit in ("hands/s", "requests/s")
    }
    panels = [
        (bars, label, log)
        for bars, label, log in (
            (hand_bars, "hands per second (log scale); blue: handeval, grey: peers", True),
            (odds_bars, "Odds run-outs (ours) or samples (peers) per second, log scale", True),
            (
                grpc_bars["hands/s"],
                "gRPC hands per second; grey: Echo of the same bytes (the ceiling)",
                False,
            ),
            (grpc_bars["requests/s"], "gRPC unary calls per second; grey: Noop", False),
        )
        if bars
    ]
    if not panels:
        return
    heights = [max(2.0, 0.22 * len(bars) + 1) for bars, _, _ in panels]
    figure, axes_list = plt.subplots(
        len(panels), 1, figsize=(9, sum(heights)), height_ratios=heights, squeeze=False
    )
    for axes, (bars, label, log) in zip(axes_list[:, 0], panels, strict=True):
        axes.barh(
            range(len(bars)),
            [rate for _, rate, _ in bars],
            color=["#9e9e9e" if peer else "#1f77b4" for _, _, peer in bars],
        )
        axes.set_yticks(range(len(bars)), [name for name, _, _ in bars], fontsize=7)
        axes.invert_yaxis()
        if log:
            axes.set_xscale("log")
        axes.set_xlabel(label)
        axes.grid(axis="x", which="both", alpha=0.3)
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=80)
    plt.close(figure)
