"""The load generator against real servers: bounded runs whose counts add up, bad hands
refused one for one, two servers sharing the calls, the CLI's table and JSON, and the
Locust file run headless (its spec and request pools: tests/unit/service/client/test_load.py)."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from evaluators.inputs import Game
from service.cli.load import clean
from service.cli.main import main
from service.client.load import run_load
from service.client.load_spec import LoadReport, Progress, Rpc
from service.client.load_workers import END_GRACE_S
from tests.conftest import ROOT, ServerProcess, server_env
from tests.unit.service.client.test_load_spec import spec

ALL_RPCS = list(Rpc)


def _cpu_seconds(pid: int) -> float:
    """User + system CPU time the process has used so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# --- against a live server -------------------------------------------------------------


def _assert_adds_up(report: LoadReport) -> None:
    assert sum(report.codes.values()) == report.requests
    assert report.ok + report.refused + report.errors == report.requests
    assert report.hands == report.requests * report.spec.hands_per_request


@pytest.mark.parametrize("rpc", ALL_RPCS)
def test_a_run_bounded_by_requests_makes_exactly_that_many_and_all_valid_hands_are_ok(
    server: ServerProcess, rpc: Rpc
) -> None:
    report = run_load(spec(server.target, rpc=rpc, game=Game.NUMBERS, requests=300))
    _assert_adds_up(report)
    assert report.requests == 300
    assert report.codes == {"OK": 300}
    assert report.bad_sent == 0
    assert 0 < report.latency_ms.p50 <= report.latency_ms.p90 <= report.latency_ms.p99
    assert report.latency_ms.p99 <= report.latency_ms.max


@pytest.mark.parametrize("rpc", ALL_RPCS)
def test_the_bad_share_is_refused_invalid_argument_one_for_one(
    server: ServerProcess, rpc: Rpc
) -> None:
    game = Game.NUMBERS if rpc is Rpc.ODDS else Game.TONK  # Tonk has no odds
    report = run_load(spec(server.target, rpc=rpc, game=game, requests=400, bad_share=0.2))
    _assert_adds_up(report)
    assert report.bad_sent == 80
    assert report.codes == {"OK": 320, "INVALID_ARGUMENT": 80}
    assert (report.refused, report.errors) == (80, 0)
    assert clean(report)


def test_the_bad_share_of_a_long_run_is_about_the_share_asked(server: ServerProcess) -> None:
    """More requests than the pool: the pool is cycled, so the share stays near 10%."""
    report = run_load(spec(server.target, requests=3000, bad_share=0.1, concurrency=8))
    _assert_adds_up(report)
    assert report.codes["INVALID_ARGUMENT"] == report.bad_sent
    assert abs(report.bad_sent / report.requests - 0.1) < 0.01


def test_a_run_bounded_by_time_stops_by_itself_and_reports_progress(
    server: ServerProcess,
) -> None:
    seen: list[Progress] = []
    report = run_load(
        spec(server.target, rpc=Rpc.BATCH, duration_s=1.5, timeout_s=5.0),
        progress=seen.append,
        progress_every_s=0.25,
    )
    _assert_adds_up(report)
    assert report.requests > 0
    assert report.codes == {"OK": report.requests}
    assert 1.5 <= report.elapsed_s < 1.5 + 5.0
    assert len(seen) >= 3
    assert [p.requests for p in seen] == sorted(p.requests for p in seen)
    assert seen[-1].requests <= report.requests


def test_one_shared_channel_serves_as_well(server: ServerProcess) -> None:
    report = run_load(spec(server.target, channels="shared", requests=200))
    assert report.codes == {"OK": 200}


def test_two_servers_given_as_targets_both_serve_the_load(
    launch_server: Callable[..., ServerProcess],
) -> None:
    """Which server answered a call is not visible to the client, so each server's own
    CPU time is the witness: an idle server uses next to none, and round_robin should give
    each about half. Both must have worked for at least a quarter of the total."""
    first = launch_server("--metrics-port", "0")
    second = launch_server("--metrics-port", "0")
    before = {s.pid: _cpu_seconds(s.pid) for s in (first, second)}
    report = run_load(
        spec((first.target, second.target), rpc=Rpc.BATCH, batch_size=200, duration_s=2.0)
    )
    used = {pid: _cpu_seconds(pid) - spent for pid, spent in before.items()}
    _assert_adds_up(report)
    assert report.codes == {"OK": report.requests}
    assert report.requests > 20
    total = sum(used.values())
    assert all(seconds > 0.25 * total for seconds in used.values()), used


KILLED_RUN_S = 4.0
"""How long the runs against a server killed mid-run last."""


def _run_while_killed(
    launch_server: Callable[..., ServerProcess], rpc: Rpc, timeout_s: float
) -> LoadReport:
    """A ``KILLED_RUN_S`` run of ``rpc`` calls against a server killed as soon as the run's
    progress shows an answered call (checked every 0.1 s), so the run holds answered and
    lost calls however slowly a busy machine starts it (a kill at a fixed 0.7 s once came
    before the first answer)."""
    doomed = launch_server("--metrics-port", "0")

    def kill_once_answered(progress: Progress) -> None:
        if progress.requests > progress.errors and doomed.process.poll() is None:
            doomed.process.kill()

    return run_load(
        spec(doomed.target, rpc=rpc, duration_s=KILLED_RUN_S, timeout_s=timeout_s),
        progress=kill_once_answered,
        progress_every_s=0.1,
    )


@pytest.mark.parametrize("rpc", [Rpc.EVALUATE, Rpc.STREAM])
def test_a_server_killed_mid_run_is_counted_in_the_codes_and_the_run_still_ends(
    launch_server: Callable[..., ServerProcess], rpc: Rpc
) -> None:
    report = _run_while_killed(launch_server, rpc, timeout_s=1.0)
    _assert_adds_up(report)
    assert report.ok > 0
    assert report.errors > 0
    # Calls wait for a ready server (wait_for_ready) until their deadline, so a dead one
    # ends them DEADLINE_EXCEEDED; a connection cut mid-call ends UNAVAILABLE or CANCELLED.
    lost = {"UNAVAILABLE", "CANCELLED", "UNKNOWN", "INTERNAL", "DEADLINE_EXCEEDED"}
    assert set(report.codes) - {"OK"} <= lost
    assert report.elapsed_s < KILLED_RUN_S + 1.0 + 3.0  # duration + call timeout + slack


@pytest.mark.parametrize("rpc", [Rpc.EVALUATE, Rpc.STREAM])
def test_a_run_whose_server_stops_ends_within_its_duration_and_grace_not_the_call_timeout(
    launch_server: Callable[..., ServerProcess], rpc: Rpc
) -> None:
    """Calls waiting for a server that is gone would wait out their 30 s timeout; the run's
    end cuts them to ``END_GRACE_S`` after its duration, and they count as errors."""
    report = _run_while_killed(launch_server, rpc, timeout_s=30.0)
    _assert_adds_up(report)
    assert report.ok > 0 and report.errors > 0
    assert report.elapsed_s < KILLED_RUN_S + END_GRACE_S + 10.0


def test_cli_prints_the_table_and_writes_the_same_figures_as_json(
    server: ServerProcess, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "load.json"
    code = main(
        [
            "load",
            "--target",
            server.target,
            "--rpc",
            "batch",
            "--game",
            "poker-high",
            "--batch-size",
            "50",
            "--requests",
            "120",
            "--concurrency",
            "3",
            "--bad-share",
            "0.25",
            "--json",
            str(path),
        ]
    )
    assert code == 0
    figures = json.loads(path.read_text())
    assert figures["requests"] == 120
    assert figures["hands"] == 120 * 50
    assert figures["batch_size"] == 50
    assert figures["codes"] == {"INVALID_ARGUMENT": 30, "OK": 90}
    assert figures["bad_sent"] == 30
    assert (figures["refused"], figures["errors"]) == (30, 0)
    assert figures["ok"] + figures["refused"] + figures["errors"] == 120
    assert set(figures["latency_ms"]) == {"p50", "p90", "p99", "max", "mean"}
    out = capsys.readouterr().out
    for label in ("requests/s", "hands/s", "latency p50", "latency p99", "INVALID_ARGUMENT"):
        assert label in out
    assert f"{figures['requests']}" in out


def test_locust_file_runs_headless_against_a_live_server(
    server: ServerProcess, tmp_path: Path
) -> None:
    """Two users for five seconds: calls made and none failed (Locust's own JSON stats).
    Locust is looked up, not imported: importing it monkey-patches this process for gevent."""
    if not all(importlib.util.find_spec(m) for m in ("locust", "grpc_interceptor")):
        pytest.skip("locust and grpc-interceptor are not installed (the bench extra)")
    locust = shutil.which("locust", path=str(Path(sys.executable).parent))
    command = ([locust] if locust else [sys.executable, "-m", "locust"]) + [
        "-f",
        str(ROOT / "benchmarks" / "locustfile.py"),
        "--headless",
        "-u",
        "2",
        "-r",
        "2",
        "-t",
        "5s",
        "--host",
        server.target,
        "--only-summary",
        "--json",
        "--handeval-game",
        "tonk",
        "--handeval-batch-size",
        "20",
    ]
    result = subprocess.run(
        command,
        cwd=tmp_path,
        env=server_env(),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    stats = {entry["name"]: entry for entry in json.loads(result.stdout)}
    for method in ("Evaluate", "EvaluateBatch"):
        entry = stats[f"/handeval.v1.HandEvaluator/{method}"]
        assert entry["num_requests"] > 0
        assert entry["num_failures"] == 0


def test_streams_cut_by_connection_age_resend_their_unanswered_request(
    launch_server: Callable[..., ServerProcess],
) -> None:
    aging = launch_server(
        "--max-connection-age-seconds", "0.5", "--max-connection-age-grace-seconds", "0.2"
    )
    report = run_load(spec(aging.target, rpc=Rpc.STREAM, concurrency=2, duration_s=4.0))
    _assert_adds_up(report)
    assert report.requests > 0
    assert report.codes == {"OK": report.requests}
