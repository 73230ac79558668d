"""The benchmark run's sections: the core per game and path, the peers on the same hands,
OMPEval, Tonk sizes, gRPC against its ceilings, Odds; each returns its ``Row``s."""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from typing import Any

from benchmarks import grpc_bench, odds_bench, ompeval, peers
from benchmarks.hands import NamedDeal
from benchmarks.progress import Progress
from benchmarks.timing import (
    Config,
    Rounds,
    Row,
    interleaved_rounds,
    loop_rate,
    median_seconds,
    per_round_ratio,
)
from evaluators import batch, poker
from evaluators.cards import card_text
from evaluators.game_rules import BatchEvaluator
from evaluators.inputs import Game, HandRequest, Options
from evaluators.registry import GAMES
from evaluators.results import BatchResult
from evaluators.scoring import evaluate
from evaluators.validation import read_hand

SECTIONS = ("core", "peers", "grpc", "odds")
OPTIONS = Options()


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


def _timed_rows(deal: NamedDeal, count: int, methods: Sequence[str], rounds: Rounds) -> list[Row]:
    """A row per method from its rounds: the median wall rate, with the median thread CPU
    rate and (after the first) how many times quicker the first was, wall and CPU."""
    rows = []
    for index, method in enumerate(methods):
        cpu = statistics.median(rounds.cpu[index])
        extra: dict[str, Any] = {"cpu_rate": count / cpu if cpu else 0.0}
        if index:
            extra["compiled_vs_numpy"] = per_round_ratio(rounds.wall[0], rounds.wall[index])
            extra["compiled_vs_numpy_cpu"] = per_round_ratio(rounds.cpu[0], rounds.cpu[index])
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
