"""The benchmark: the core per game, the peers on the same hands, gRPC against its ceilings.

Run ``python -m benchmarks.run [--quick] [--json PATH] [--plot PATH] [--only core,peers,grpc]``
(peers need the ``bench`` extra: ``pip install -e '.[bench]'``; a peer that is not
installed is skipped with a line saying so). Prints, from one run on the same seeded hands
(``benchmarks/hands.py``), hands per second per game and path, each peer's rate and our
ratio to it, the gRPC figures, every issue-5 target with its measured ratio, and a machine
line. Every rate is the median of several repeats. Nothing is asserted: a missed target is
reported, not fatal. ``--quick`` uses small counts (a CI smoke test, well under a minute).

The process keeps its freed memory as the server does (``service.allocator``), so the core's
figures are what the server's core sees and the gRPC client decodes as the README advises a
Python caller of large batches to.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks import grpc_bench, hands, odds_bench, ompeval, peers
from benchmarks.hands import NamedDeal
from benchmarks.progress import Progress
from evaluators import batch, poker
from evaluators.cards import card_text
from evaluators.game_rules import BatchEvaluator
from evaluators.inputs import Game, HandRequest, Options
from evaluators.kernels import kernel_isa
from evaluators.registry import GAMES
from evaluators.results import BatchResult
from evaluators.scoring import evaluate
from evaluators.validation import read_hand
from service.allocator import retain_freed_memory

SECTIONS = ("core", "peers", "grpc", "odds")
OPTIONS = Options()


@dataclass(frozen=True)
class Config:
    batch_hands: int
    single_seconds: float
    """Each timed single-hand loop runs about this long (the hand count adapts)."""
    repeats: int
    tonk_peer_hands: int
    grpc_seconds: float
    grpc_repeats: int
    grpc_threads: int
    grpc_batches: tuple[int, ...]
    startup_repeats: int
    odds_rounds: int
    odds_samples: int


FULL = Config(1_000_000, 0.25, 5, 100_000, 1.0, 7, 4, (10_000, 100_000), 3, 5, 1_000_000)
QUICK = Config(20_000, 0.02, 3, 2_000, 0.3, 1, 2, (1_000, 10_000), 1, 1, 200_000)


@dataclass
class Row:
    """One measured rate."""

    section: str
    case: str
    method: str
    rate: float
    unit: str = "hands/s"
    count: int = 0
    note: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


def median_seconds(action: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def adaptive_count(run: Callable[[int], object], available: int, seconds: float) -> int:
    """How many hands make one timed loop last about ``seconds`` (at most ``available``)."""
    probe = min(50, available)
    started = time.perf_counter()
    run(probe)
    per_hand = max((time.perf_counter() - started) / probe, 1e-8)
    return int(min(available, max(probe, seconds / per_hand)))


def loop_rate(
    make: Callable[[int], Callable[[], object]], available: int, config: Config
) -> tuple[float, int]:
    """(hands/s, hands) of a Python loop over the first N hands; ``make(n)`` prepares the
    loop for n hands (untimed) and returns it."""
    count = adaptive_count(lambda n: make(n)(), available, config.single_seconds)
    loop = make(count)
    return count / median_seconds(loop, config.repeats), count


def _single_makers(deal: NamedDeal) -> dict[str, Callable[[int], Callable[[], object]]]:
    rules = GAMES[deal.game]
    raw = rules.evaluate

    def raw_loop(n: int) -> Callable[[], object]:
        pairs = deal.singles(n)
        return lambda: [raw(hand, table, (), OPTIONS) for hand, table in pairs]

    def request_loop(n: int) -> Callable[[], object]:
        requests = [HandRequest(deal.game, hand, table) for hand, table in deal.singles(n)]
        return lambda: [evaluate(request) for request in requests]

    def text_loop(n: int) -> Callable[[], object]:
        texts = [
            ([card_text(c) for c in hand], [card_text(c) for c in table])
            for hand, table in deal.singles(n)
        ]
        game = deal.game
        return lambda: [evaluate(read_hand(game, hand, table)) for hand, table in texts]

    return {
        "single: game's evaluate": raw_loop,
        "single: scoring.evaluate(HandRequest)": request_loop,
        "single: read_hand(text) + evaluate": text_loop,
    }


def _check_batch_equals_single(deal: NamedDeal, result: BatchResult, sample: int = 300) -> int:
    """Hands among the first ``sample`` whose batch strength/value differ from ``evaluate``."""
    rules = GAMES[deal.game]
    bad = 0
    for index, (hand, table) in enumerate(deal.singles(sample)):
        one = rules.evaluate(hand, table, (), OPTIONS)
        bad += int(result.strength[index]) != one.strength or int(
            result.value[index]
        ) != rules.headline(one)
    return bad


@dataclass(frozen=True)
class Rounds:
    """Each action's wall and thread CPU seconds in each interleaved round."""

    wall: list[list[float]]
    cpu: list[list[float]]


def interleaved_rounds(actions: Sequence[Callable[[], object]], repeats: int) -> Rounds:
    """Each action's time in each of ``repeats`` rounds, the actions taking turns within a
    round, so that a ratio of two of them is taken under the same load. Thread CPU time
    too: on a shared machine it moves far less than wall time (a kernel lets the GIL go
    but runs in this thread)."""
    rounds = Rounds([[] for _ in actions], [[] for _ in actions])
    for _ in range(repeats):
        for action, wall, cpu in zip(actions, rounds.wall, rounds.cpu, strict=True):
            started, started_cpu = time.perf_counter(), time.thread_time()
            action()
            cpu.append(time.thread_time() - started_cpu)
            wall.append(time.perf_counter() - started)
    return rounds


def _per_round_ratio(ours: list[float], theirs: list[float]) -> float:
    """The median over rounds of how many times quicker ``ours`` was."""
    return statistics.median(t / o if o else 0.0 for o, t in zip(ours, theirs, strict=True))


def _timed_rows(deal: NamedDeal, count: int, methods: Sequence[str], rounds: Rounds) -> list[Row]:
    """A row per method from its rounds: the median wall rate, with the median thread CPU
    rate and (after the first) how many times quicker the first was, wall and CPU."""
    rows = []
    for index, method in enumerate(methods):
        cpu = statistics.median(rounds.cpu[index])
        extra: dict[str, Any] = {"cpu_rate": count / cpu if cpu else 0.0}
        if index:
            extra["compiled_vs_numpy"] = _per_round_ratio(rounds.wall[0], rounds.wall[index])
            extra["compiled_vs_numpy_cpu"] = _per_round_ratio(rounds.cpu[0], rounds.cpu[index])
        rows.append(
            Row(
                "core",
                deal.key,
                method,
                count / statistics.median(rounds.wall[index]),
                count=count,
                extra=extra,
            )
        )
    return rows


BATCH_METHOD = "batch: game's evaluate_batch"
NUMPY_METHOD = "batch: numpy evaluate_batch (reference)"
BYTES_METHOD = "batch: evaluators.batch from bytes (validated)"
NUMPY_BYTES_METHOD = "batch: from bytes (validated), numpy scoring"


def _core_batches(deal: NamedDeal, config: Config, progress: Progress) -> list[Row]:
    """The game's batch function on arrays, and the whole packed path from bytes; where the
    game's batch is compiled, its numpy reference too, in the same interleaved rounds."""
    progress(f"core: {deal.key} batch")
    rules = GAMES[deal.game]
    evaluate_batch, reference = rules.evaluate_batch, rules.reference_batch
    result = evaluate_batch(deal.hands, deal.tables, OPTIONS)
    mismatches = _check_batch_equals_single(deal, result)
    actions: list[Callable[[], object]] = [lambda: evaluate_batch(deal.hands, deal.tables, OPTIONS)]
    if reference is not None:
        actions.append(lambda: reference(deal.hands, deal.tables, OPTIONS))
    methods = [BATCH_METHOD, NUMPY_METHOD][: len(actions)]
    rows = _timed_rows(deal, len(deal), methods, interleaved_rounds(actions, config.repeats))
    rows[0].extra["batch_vs_single_mismatches"] = mismatches
    progress(f"core: {deal.key} batch from bytes")
    count = len(deal)
    packed = deal.hands[:count].tobytes()
    table_size = deal.tables.shape[1]
    table_bytes = deal.tables[:count].tobytes() if table_size else b""

    def from_bytes() -> object:
        return batch.evaluate_batch(
            deal.game,
            packed,
            deal.hands.shape[1],
            table_bytes,
            table_size,
            OPTIONS,
            max_hands=count,
        )

    def from_bytes_numpy(numpy_batch: BatchEvaluator) -> object:
        request = batch.read_batch(
            deal.game, packed, deal.hands.shape[1], table_bytes, table_size, OPTIONS, count
        )
        return numpy_batch(request.hands, request.tables, request.options)

    actions = [from_bytes]
    if reference is not None:
        actions.append(lambda: from_bytes_numpy(reference))
    methods = [BYTES_METHOD, NUMPY_BYTES_METHOD][: len(actions)]
    return rows + _timed_rows(deal, count, methods, interleaved_rounds(actions, config.repeats))


def run_core(deals: Sequence[NamedDeal], config: Config, progress: Progress) -> list[Row]:
    rows: list[Row] = []
    for deal in deals:
        for method, make in _single_makers(deal).items():
            progress(f"core: {deal.key} {method}")
            rate, count = loop_rate(make, len(deal), config)
            rows.append(Row("core", deal.key, method, rate, count=count))
        rows += _core_batches(deal, config, progress)
    return rows


def _our_answers(deal: NamedDeal, count: int) -> list[int]:
    """Our figure per hand in the peers' terms: rank_class (poker) or deadwood (Tonk)."""
    if deal.game is Game.TONK:
        result = GAMES[Game.TONK].evaluate_batch
        return [int(v) for v in result(deal.hands[:count], deal.tables, OPTIONS).value]
    return [poker.rank_class_of(hand) for hand, _ in deal.singles(count)]


def _peer_row(deal: NamedDeal, peer: peers.Peer, ours: list[int], config: Config) -> Row:
    """One peer on the deal: agreement with us on the first hands, then its rate."""
    check = min(500, len(deal))
    theirs = peer.run(peer.prepare([h for h, _ in deal.singles(check)]))
    bad = peers.disagreements(peer, ours[:check], theirs)

    def make(n: int) -> Callable[[], object]:
        prepared = peer.prepare([h for h, _ in deal.singles(n)])
        return lambda: peer.run(prepared)

    rate, count = loop_rate(make, len(deal), config)
    return Row(
        "peers",
        deal.key,
        peer.name,
        rate,
        count=count,
        extra={
            "disagreements": bad,
            "checked": check,
            "compared": "by order" if peer.order_only else "exactly",
        },
    )


def _rank_class_row(deal: NamedDeal, config: Config) -> Row:
    def rank_loop(n: int) -> Callable[[], object]:
        pairs = deal.singles(n)
        return lambda: [poker.rank_class_of(hand) for hand, _ in pairs]

    rate, count = loop_rate(rank_loop, len(deal), config)
    return Row("peers", deal.key, "ours: poker.rank_class_of (int only)", rate, count=count)


def run_peers(
    poker_deals: Sequence[NamedDeal],
    tonk_deals: Sequence[NamedDeal],
    config: Config,
    progress: Progress,
) -> list[Row]:
    rows: list[Row] = []
    loaded = peers.load_peers()
    for deal in [*poker_deals, *tonk_deals]:
        game = "tonk" if deal.game is Game.TONK else "poker"
        size = deal.hands.shape[1]
        ours = _our_answers(deal, 500)
        for peer in loaded:
            if peer.game == game and size in peer.sizes:
                progress(f"peers: {deal.key} {peer.name}")
                rows.append(_peer_row(deal, peer, ours, config))
        if game == "poker":
            progress(f"peers: {deal.key} ours, rank_class_of")
            rows.append(_rank_class_row(deal, config))
    return rows


OURS_VALIDATED = "ours: batch from bytes (validated)"


def run_ompeval(where: str | None, config: Config, progress: Progress) -> tuple[list[Row], str]:
    """OMPEval's Rand1 and our validated batch on the same 7-card hands, interleaved rounds
    (``benchmarks.ompeval``): two rows, the ratio the median of per-round ratios; no rows
    and the reason when there is no checkout."""
    try:
        measured = ompeval.compare(
            ompeval.checkout(where), config.batch_hands, config.repeats, progress
        )
    except ompeval.OmpevalUnavailable as why:
        return [], str(why)
    ratio = {
        "ratio_median_of_rounds": measured.ratio,
        "cpu_ratio_median_of_rounds": measured.cpu_ratio,
        "rounds": [list(pair) for pair in measured.rounds],
    }
    ours, theirs = measured.median(0)[0], measured.median(1)[0]
    return [
        Row("peers", "poker-7", ompeval.NAME, theirs, count=measured.hands),
        Row("peers", "poker-7", OURS_VALIDATED, ours, count=measured.hands, extra=ratio),
    ], ""


def run_tonk_sizes(deals: Sequence[NamedDeal], config: Config, progress: Progress) -> list[Row]:
    """Our Tonk single and batch rates on the peer-only deals (5, 7, 9 cards)."""
    rows: list[Row] = []
    evaluate_tonk = GAMES[Game.TONK].evaluate
    evaluate_batch = GAMES[Game.TONK].evaluate_batch
    for deal in deals:
        progress(f"core: {deal.key}")

        def make(n: int, deal: NamedDeal = deal) -> Callable[[], object]:
            pairs = deal.singles(n)
            return lambda: [evaluate_tonk(hand, (), (), OPTIONS) for hand, _ in pairs]

        rate, count = loop_rate(make, len(deal), config)
        rows.append(Row("core", deal.key, "single: game's evaluate", rate, count=count))
        seconds = median_seconds(
            lambda deal=deal: evaluate_batch(deal.hands, deal.tables, OPTIONS),  # type: ignore[misc]
            config.repeats,
        )
        rows.append(
            Row(
                "core",
                deal.key,
                "batch: game's evaluate_batch",
                len(deal) / seconds,
                count=len(deal),
            )
        )
    return rows


def run_grpc_section(
    deal: NamedDeal, tonk: NamedDeal, config: Config, progress: Progress
) -> list[Row]:
    rows = [
        Row(
            "grpc",
            "poker-7",
            r.name,
            r.rate,
            r.unit,
            note=r.note,
            extra={"p50_ms": r.p50_ms, "p99_ms": r.p99_ms, "rounds": list(r.rounds)},
        )
        for r in grpc_bench.run_grpc(
            deal,
            config.grpc_seconds,
            config.grpc_batches,
            config.grpc_threads,
            config.grpc_repeats,
            progress,
            tonk,
        )
    ]
    times = []
    for _ in range(config.startup_repeats):
        progress("grpc: start-up of python -m service")
        times.append(grpc_bench.startup_seconds())
    rows.append(
        Row(
            "grpc",
            "startup",
            "python -m service to SERVING",
            statistics.median(times),
            "seconds",
            note=f"median of {len(times)}",
        )
    )
    return rows


def run_odds_section(config: Config, progress: Progress) -> tuple[str, list[Row]]:
    """``benchmarks.odds_bench`` (agreement with eval7 and pokerkit, then speed): its table,
    and its rates as rows (run-outs or samples per second) for the JSON and the plot; a
    sentence instead of the table when a peer is missing."""
    if missing := odds_bench.missing_peers():
        for _ in range(odds_bench.steps()):
            progress("odds: skipped")
        return f"skipped: needs {', '.join(missing)} (pip install -e '.[bench]')", []
    measured = odds_bench.run(
        config.odds_rounds, config.odds_samples, config.odds_rounds == 1, progress
    )
    rows = [
        Row("odds", measure.what, who, rate, "run-outs/s")
        for measure in measured
        for who, rate in measure.rates
    ]
    return odds_bench.table(measured), rows


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


def _find(rows: Sequence[Row], case: str, method: str) -> Row | None:
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
    """Issue 5's and issue 16's targets as ratios of two rows of this run (None where one
    is missing)."""

    def ratio(case_a: str, method_a: str, case_b: str, method_b: str) -> float | None:
        a, b = _find(rows, case_a, method_a), _find(rows, case_b, method_b)
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
        row = _find(rows, case, validated)
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
                0.5,
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
    peer_row = _find(rows, "poker-7", OURS_VALIDATED)
    if peer_row:
        out.append(
            Target(
                "7-card poker validated batch vs OMPEval Rand1",
                OURS_VALIDATED,
                ompeval.NAME,
                peer_row.extra["ratio_median_of_rounds"],
                0.6,
            )
        )
    startup = _find(rows, "startup", "python -m service to SERVING")
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
                row = _find(core, case, m)
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
                kernel = _find(core, numpy_row.case, ours)
                numpy_only = _find(core, numpy_row.case, theirs)
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
            single = _find(rows, r.case, "single: game's evaluate")
            batch_row = _find(rows, r.case, "batch: game's evaluate_batch")
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
        lines.append("Targets (issues 5 and 16), from this run")
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
        print(f"\nOdds (issue 15), in process\n{odds_table}")
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
