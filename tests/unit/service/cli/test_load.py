"""``handeval load``'s flags and report (``service.cli.load``): the flags become the spec,
a run without a bound is given the default duration, and a clean run is one with no
errors."""

from __future__ import annotations

import argparse

import pytest

from service.cli.load import DEFAULT_DURATION_S, add_load_arguments, clean, spec_from_args
from service.client.load_spec import Latency, LoadReport, Rpc


def _parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_load_arguments(parser)
    return parser.parse_args(list(argv))


def test_the_flags_become_the_spec_and_an_unbounded_run_gets_the_default_duration() -> None:
    spec = spec_from_args(_parse("--target", "a:1,b:2", "--rpc", "batch", "--requests", "5"))
    assert spec.targets == ("a:1", "b:2") and spec.rpc is Rpc.BATCH
    assert spec.requests == 5 and spec.duration_s is None
    assert spec_from_args(_parse("--target", "a:1")).duration_s == DEFAULT_DURATION_S


@pytest.mark.parametrize(
    "argv", [["--bad-share", "2"], ["--concurrency", "0"], ["--duration", "-1"]]
)
def test_a_flag_out_of_its_range_is_refused(argv: list[str]) -> None:
    with pytest.raises(SystemExit):
        _parse("--target", "a:1", *argv)


def test_a_run_is_clean_when_nothing_answered_other_than_meant() -> None:
    spec = spec_from_args(_parse("--target", "a:1"))
    report = LoadReport(spec, 3, 3, 0, 0, 0, 1.0, {"OK": 3}, Latency.of([0.001]))
    assert clean(report)
    assert not clean(LoadReport(spec, 3, 3, 0, 0, 1, 1.0, {"OK": 2, "UNAVAILABLE": 1},
                                Latency.of([0.001])))  # fmt: skip
