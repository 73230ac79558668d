"""A load's spec (``service.client.load_spec``): one that would not end or cannot run is
refused, for people, before anything is sent."""

from __future__ import annotations

import pytest

from evaluators.inputs import Game
from service.client.load_spec import Latency, LoadError, LoadReport, LoadSpec, Rpc


def spec(target: str | tuple[str, ...], **fields: object) -> LoadSpec:
    targets = (target,) if isinstance(target, str) else target
    values: dict[str, object] = {"concurrency": 4, "duration_s": 20.0, "batch_size": 20}
    values.update(fields)
    return LoadSpec(targets=targets, **values)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("fields", "problem"),
    [
        ({"requests": None, "duration_s": None}, "unbounded"),
        ({"requests": None, "duration_s": 0.0}, "unbounded"),
        ({"requests": 0}, "requests must be 1 or more"),
        ({"bad_share": 1.5}, "bad share must be 0-1"),
        ({"concurrency": 0}, "concurrency must be 1 or more"),
        ({"channels": "many"}, "channels must be worker or shared"),
    ],
)
def test_a_spec_that_would_not_end_or_cannot_run_is_refused(
    fields: dict[str, object], problem: str
) -> None:
    with pytest.raises(LoadError, match=problem):
        spec("127.0.0.1:1", **fields).check()


def test_odds_load_of_a_game_without_odds_is_refused() -> None:
    with pytest.raises(LoadError, match="Odds does not serve Tonk"):
        spec("127.0.0.1:1", rpc=Rpc.ODDS, game=Game.TONK).check()


def test_a_report_counts_its_rates_over_its_time_and_writes_json_types() -> None:
    report = LoadReport(
        spec("127.0.0.1:1", rpc=Rpc.BATCH),
        requests=10,
        hands=200,
        bad_sent=1,
        refused=1,
        errors=0,
        elapsed_s=2.0,
        codes={"OK": 9, "INVALID_ARGUMENT": 1},
        latency_ms=Latency.of([0.001, 0.002, 0.003]),
    )
    assert (report.ok, report.requests_per_s, report.hands_per_s) == (9, 5.0, 100.0)
    written = report.to_json()
    assert written["batch_size"] == 20 and written["rpc"] == "batch"
    assert written["latency_ms"]["max"] == 3.0
    assert Latency.of([]) == Latency(0.0, 0.0, 0.0, 0.0, 0.0)
