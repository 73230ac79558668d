"""The figures the benchmark holds the build to: each target a ratio between two rows of
one run, reported (met or not), never asserted."""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from benchmarks import ompeval
from benchmarks.sections import BYTES_METHOD, OURS_VALIDATED
from benchmarks.timing import Row


def find_row(rows: Sequence[Row], case: str, method: str) -> Row | None:
    for row in rows:
        if row.case == case and row.method == method:
            return row
    return None


@dataclass(frozen=True)
class Target:
    what: str
    ours: str
    theirs: str
    ratio: float | None
    goal: float
    higher_is_better: bool = True

    @property
    def met(self) -> bool | None:
        if self.ratio is None:
            return None
        return self.ratio >= self.goal if self.higher_is_better else self.ratio <= self.goal


def targets(rows: Sequence[Row]) -> list[Target]:
    """The targets as ratios of two rows of this run (None where one
    is missing)."""

    def ratio(case_a: str, method_a: str, case_b: str, method_b: str) -> float | None:
        a, b = find_row(rows, case_a, method_a), find_row(rows, case_b, method_b)
        return a.rate / b.rate if a and b and b.rate else None

    batch_m, single_m = "batch: game's evaluate_batch", "single: game's evaluate"
    phc, phe = "phevaluator C", "phevaluator evaluate_cards"
    rl = "rlcard gin-rummy melding"
    out = [
        Target(
            "7-card poker batch vs phevaluator C per hand",
            batch_m,
            phc,
            ratio("poker-7", batch_m, "poker-7", phc),
            5,
        ),
        Target(
            "5-card poker batch vs phevaluator C per hand",
            batch_m,
            phc,
            ratio("poker-5", batch_m, "poker-5", phc),
            3,
        ),
        Target(
            "7-card poker single vs phevaluator evaluate_cards",
            single_m,
            phe,
            ratio("poker-7", single_m, "poker-7", phe),
            1,
        ),
        Target(
            "7-card poker single vs treys",
            single_m,
            "treys",
            ratio("poker-7", single_m, "poker-7", "treys"),
            10,
        ),
        Target(
            "Tonk 10 single vs rlcard, random",
            single_m,
            rl,
            ratio("tonk-10-random", single_m, "tonk-10-random", rl),
            5,
        ),
        Target(
            "Tonk 10 single vs rlcard, meld-dense",
            single_m,
            rl,
            ratio("tonk-10-dense", single_m, "tonk-10-dense", rl),
            3,
        ),
        Target(
            "Tonk 10 batch vs rlcard, random",
            batch_m,
            rl,
            ratio("tonk-10-random", batch_m, "tonk-10-random", rl),
            50,
        ),
        Target(
            "Tonk 10 batch vs rlcard, meld-dense",
            batch_m,
            rl,
            ratio("tonk-10-dense", batch_m, "tonk-10-dense", rl),
            50,
        ),
    ]
    for case in (
        "poker-5",
        "dots-7",
        "numbers",
        "florida-bingo",
        "flop-a",
        "three-thirty-three",
        "high-card",
        "not-poker",
    ):
        out.append(
            Target(
                f"{case} batch vs 7-card poker batch",
                batch_m,
                batch_m,
                ratio(case, batch_m, "poker-7", batch_m),
                1,
            )
        )

    validated = BYTES_METHOD
    for case in (
        "numbers",
        "florida-bingo",
        "flop-a",
        "three-thirty-three",
        "high-card",
        "not-poker",
        "tonk-10-random",
        "tonk-10-dense",
    ):
        row = find_row(rows, case, validated)
        out.append(
            Target(
                f"{case} batch from bytes, validated, M hands/s",
                validated,
                "",
                row.rate / 1e6 if row else None,
                20 if case.startswith("tonk") else 50,
            )
        )

    def grpc_ratio(ours: str, theirs: str) -> float | None:
        """The median of the two rows' per-round ratios (their rounds interleaved)."""
        a = next((r for r in rows if r.method.startswith(ours)), None)
        b = next((r for r in rows if r.method.startswith(theirs)), None)
        if not a or not b:
            return None
        ours_rounds, theirs_rounds = a.extra.get("rounds", []), b.extra.get("rounds", [])
        if len(ours_rounds) != len(theirs_rounds):
            return None
        ratios = [x / y for x, y in zip(ours_rounds, theirs_rounds, strict=True) if y]
        return statistics.median(ratios) if ratios else None

    for size, short in (("100,000", "100k"), ("10,000", "10k")):
        columns, packed = f"EvaluateBatch {size} 7-card hands, columns", "packed"
        out += [
            Target(
                f"EvaluateBatch {short} columns e2e vs Echo of the same bytes",
                "EvaluateBatch",
                "Echo",
                grpc_ratio(columns, f"Echo {size} hands'"),
                0.6,
            ),
            Target(
                f"EvaluateBatch {short} columns vs packed, e2e",
                "columns",
                packed,
                grpc_ratio(columns, f"EvaluateBatch {size} 7-card hands, {packed}"),
                2,
            ),
        ]
    tonk = next((r for r in rows if "Tonk-10 hands, columns" in r.method), None)
    if tonk is not None:
        size = tonk.method.split()[1]
        out.append(
            Target(
                f"EvaluateBatch {size} 10-card Tonk columns e2e vs Echo",
                "EvaluateBatch",
                "Echo",
                grpc_ratio(tonk.method, f"Echo {size} Tonk-10"),
                0.4,
            )
        )
    out.append(
        Target(
            "unary Evaluate vs Noop",
            "Evaluate",
            "Noop",
            grpc_ratio("Evaluate, 7-card poker", "Noop (ceiling)"),
            0.95,
        )
    )
    peer_row = find_row(rows, "poker-7", OURS_VALIDATED)
    if peer_row:
        out.append(
            Target(
                "7-card poker validated batch vs OMPEval Rand1",
                OURS_VALIDATED,
                ompeval.NAME,
                peer_row.extra["ratio_median_of_rounds"],
                1.0,
            )
        )
    startup = find_row(rows, "startup", "python -m service to SERVING")
    out.append(
        Target(
            "start-up to SERVING, seconds",
            "python -m service",
            "",
            startup.rate if startup else None,
            2.0,
            higher_is_better=False,
        )
    )
    return out
