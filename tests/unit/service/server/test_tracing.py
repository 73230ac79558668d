"""Tracing in process: no endpoint traces nothing, a line logged inside a span carries its trace
id, and untraced phases cost nothing; a server built without an endpoint imports nothing of
OpenTelemetry (spans of a real server: tests/test_tracing.py)."""

from __future__ import annotations

import logging
import subprocess
import sys

import pytest
from handeval_client.gen.handeval.v1 import handeval_pb2 as pb
from opentelemetry.sdk.trace import TracerProvider

from service.server import trace_phases, tracing
from service.wire.requests import read_plain_evaluate
from tests.conftest import server_env


def test_without_an_endpoint_no_call_is_traced(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(tracing.ENDPOINT_ENV, raising=False)
    assert tracing.interceptors("") == []
    monkeypatch.setenv(tracing.ENDPOINT_ENV, "http://127.0.0.1:4317")
    assert tracing.endpoint("") == "http://127.0.0.1:4317"
    assert tracing.endpoint("http://collector:4317") == "http://collector:4317"


def test_a_line_logged_during_a_call_carries_its_trace_id() -> None:
    tracer = TracerProvider().get_tracer("test")
    record = logging.LogRecord("handeval", logging.ERROR, "", 0, "error", None, None)
    record.fields = {"incident": "abc"}  # as logs.log_event sets them
    with tracer.start_as_current_span("call") as span:
        assert tracing.stamp_trace_id(record)
    trace_id = f"{span.get_span_context().trace_id:032x}"
    assert vars(record)["fields"] == {"incident": "abc", "trace_id": trace_id}
    outside = logging.LogRecord("handeval", logging.INFO, "", 0, "ready", None, None)
    assert tracing.stamp_trace_id(outside) and not hasattr(outside, "fields")


def test_untraced_phases_do_nothing_and_run_in_the_pool_as_they_are() -> None:
    def work() -> bytes:
        return b"reply"

    assert trace_phases.carried(work) is work
    with trace_phases.phase("batch.read") as span:
        span.set_attribute("handeval.runouts", 1)
    assert trace_phases.phase("odds.plan") is trace_phases.phase("batch.score")


def test_an_untraced_server_imports_nothing_of_opentelemetry() -> None:
    """A server built in a fresh interpreter, its RPCs ready to serve, without an endpoint."""
    program = (
        "import asyncio, sys, concurrent.futures\n"
        "from service.server.build import build_server, new_health\n"
        "from service.server.config import Settings\n"
        "async def build():\n"
        "    pool = concurrent.futures.ThreadPoolExecutor(1)\n"
        "    build_server(Settings(host='127.0.0.1', port=0), await new_health(), pool)\n"
        "asyncio.run(build())\n"
        "print(sorted(m for m in sys.modules if m.startswith('opentelemetry')))\n"
    )
    env = {**server_env(), tracing.ENDPOINT_ENV: ""}
    ran = subprocess.run([sys.executable, "-c", program], env=env, capture_output=True,
                         text=True, timeout=120, check=True)  # fmt: skip
    assert ran.stdout.strip() == "[]"


def test_a_span_names_the_game_and_hands_of_an_evaluate_read_in_c_as_of_its_message() -> None:
    """A unary Evaluate may reach the span read in C (``requests.read_plain_evaluate``):
    its game and hands are those of the same request read by protobuf; a game number this
    build lacks is named ``""``, not an error."""
    for game in (pb.GAME_POKER_HIGH, pb.GAME_TONK, pb.Game.ValueType(0), pb.Game.ValueType(99)):
        message = pb.EvaluateRequest(game=game, hand=["Ah", "Kd"], request_id="t")
        plain = read_plain_evaluate(message.SerializeToString())
        assert plain is not None
        assert tracing.game_of(plain) == tracing.game_of(message)
        assert tracing.hands_of(plain) == tracing.hands_of(message) == 1
    assert tracing.game_of(message) == ""
    assert tracing.game_of(pb.EvaluateRequest(game=pb.GAME_TONK)) == "GAME_TONK"
