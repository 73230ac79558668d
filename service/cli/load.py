"""``handeval load``: its flags, the progress line and the closing table (``service.client.load``).

    handeval load --target 127.0.0.1:50051 --rpc batch --game tonk --batch-size 500 \\
        --concurrency 8 --duration 10 --json load.json

Always bounded: ``--requests``, ``--duration`` or both (whichever comes first); with
neither, 10 seconds. While it runs, one progress line on stderr about once a second; at
the end a table on stdout (requests/s, hands/s, latency percentiles in ms, counts by
status code) and, with ``--json``, the same figures in a file. Exit code 0 when every
request was answered OK or refused as the bad share asked; 1 otherwise (or no server);
2 for flags that cannot run.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TextIO

from evaluators.registry import DEFAULT_GAME, GAMES
from service.cli import render
from service.cli.arguments import game_arg, targets_arg
from service.client.load import run_load
from service.client.load_spec import LoadError, LoadReport, LoadSpec, Progress, Rpc

DEFAULT_DURATION_S = 10.0


def _share(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"{text} is not a share between 0 and 1")
    return value


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is not 1 or more")
    return value


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"{text} is not a positive number of seconds")
    return value


def add_load_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--target",
        type=targets_arg,
        action="extend",
        default=[],
        required=True,
        metavar="HOST:PORT",
        help="server to load (repeat, or separate by commas: calls spread by round_robin)",
    )
    parser.add_argument(
        "--rpc",
        choices=[r.value for r in Rpc],
        default=Rpc.EVALUATE.value,
        help="evaluate (unary), stream (EvaluateStream), batch (EvaluateBatch) or odds (Odds, "
        "sampled); default evaluate",
    )
    parser.add_argument(
        "--game",
        type=game_arg,
        default=DEFAULT_GAME,
        help=f"default {GAMES[DEFAULT_GAME].name}",
    )
    parser.add_argument(
        "--concurrency", type=_positive, default=8, help="calls in flight (threads); default 8"
    )
    parser.add_argument(
        "--batch-size", type=_positive, default=100, help="hands per batch call; default 100"
    )
    parser.add_argument("--requests", type=_positive, help="stop after this many requests")
    parser.add_argument(
        "--duration",
        type=_seconds,
        help=f"stop after this many seconds (default {DEFAULT_DURATION_S:g} without --requests)",
    )
    parser.add_argument(
        "--bad-share",
        type=_share,
        default=0.0,
        help="share of requests (0-1) with a bad hand, to be refused INVALID_ARGUMENT",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the dealt hands")
    parser.add_argument(
        "--timeout", type=_seconds, default=10.0, help="deadline per call, seconds (default 10)"
    )
    parser.add_argument(
        "--channels",
        choices=["worker", "shared"],
        default="worker",
        help="a channel per worker (default) or one shared by all",
    )
    parser.add_argument("--json", type=Path, metavar="PATH", help="also write the figures here")


def spec_from_args(args: argparse.Namespace) -> LoadSpec:
    duration = args.duration
    if duration is None and args.requests is None:
        duration = DEFAULT_DURATION_S
    return LoadSpec(
        targets=tuple(args.target),
        rpc=Rpc(args.rpc),
        game=args.game,
        concurrency=args.concurrency,
        batch_size=args.batch_size,
        requests=args.requests,
        duration_s=duration,
        bad_share=args.bad_share,
        seed=args.seed,
        timeout_s=args.timeout,
        channels=args.channels,
    )


class ProgressLine:
    """Progress on ``stream``: rewritten in place on a terminal, a line each otherwise."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self._in_place = stream.isatty()
        self._shown = False

    def __call__(self, progress: Progress) -> None:
        text = (
            f"{progress.elapsed_s:5.1f} s  {progress.requests} requests  "
            f"{progress.requests_per_s:,.0f}/s  {progress.errors} errors"
        )
        if self._in_place:
            self._stream.write("\r" + text + "\033[K")
            self._shown = True
        else:
            self._stream.write(text + "\n")
        self._stream.flush()

    def close(self) -> None:
        if self._shown:
            self._stream.write("\n")
            self._stream.flush()


def _ms(value: float) -> str:
    return f"{value:.2f}"


def render_report(report: LoadReport) -> str:
    """The run and its figures, then counts by status code."""
    spec = report.spec
    latency = report.latency_ms
    what = f"{spec.rpc.value}, {spec.game.value}"
    if spec.rpc is Rpc.BATCH:
        what += f", {spec.batch_size} hands per batch"
    rows = [
        ("load", what),
        ("targets", ", ".join(spec.targets)),
        ("concurrency", f"{spec.concurrency} ({spec.channels} channels)"),
        ("elapsed", f"{report.elapsed_s:.2f} s"),
        ("requests", str(report.requests)),
        ("requests/s", f"{report.requests_per_s:,.0f}"),
        *([] if spec.rpc is Rpc.ODDS else [("hands/s", f"{report.hands_per_s:,.0f}")]),
        ("latency p50", _ms(latency.p50) + " ms"),
        ("latency p90", _ms(latency.p90) + " ms"),
        ("latency p99", _ms(latency.p99) + " ms"),
        ("latency max", _ms(latency.max) + " ms"),
        (
            "client CPU",
            f"{report.client_cpu_s / report.elapsed_s:.0%} of one core"
            if report.elapsed_s
            else "-",
        ),
    ]
    if spec.bad_share:
        rows.append(("bad sent", f"{report.bad_sent} (asked {spec.bad_share:.0%})"))
        rows.append(("refused as meant", str(report.refused)))
    rows.append(("errors", str(report.errors)))
    total = report.requests or 1
    codes = [
        (code, str(count), f"{count / total:.1%}") for code, count in sorted(report.codes.items())
    ]
    return render.table(rows) + "\n\n" + render.table(codes, ["status", "requests", "share"])


def clean(report: LoadReport) -> bool:
    """Every request answered as meant: OK, except exactly the bad ones, refused
    INVALID_ARGUMENT."""
    return report.errors == 0


def run_load_command(args: argparse.Namespace) -> int:
    """``handeval load``: run, print the table, write ``--json``; the exit code."""
    spec = spec_from_args(args)
    try:
        spec.check()
    except LoadError as error:
        print(f"handeval load: {error}", file=sys.stderr)
        return 2
    try:
        progress = ProgressLine(sys.stderr)
        try:
            report = run_load(spec, progress)
        finally:
            progress.close()
    except LoadError as error:
        print(f"handeval load: {error}", file=sys.stderr)
        return 1
    print(render_report(report))
    if args.json is not None:
        args.json.write_text(json.dumps(report.to_json(), indent=2) + "\n")
    return 0 if clean(report) else 1
