"""The server's log lines (``service.server.logs``): one JSON object a line, a throttle per
kind of line, and lines read from descriptor 2 turned into events (a gRPC core line as
``grpc_core``, anything else ``stderr``, a JSON line passed as it is)."""

from __future__ import annotations

import json
import logging
import time

import pytest

from service.server.logs import MAX_LINE_CHARS, JsonLines, Throttle, captured_line


def test_a_throttle_lets_out_its_lines_a_second_and_reports_the_dropped_ones() -> None:
    throttle = Throttle(per_second=2)
    assert [throttle.admit("k") for _ in range(4)] == [0, 0, None, None]
    assert throttle.admit("other") == 0, "each key has its own count"


def test_the_first_line_let_through_after_drops_says_how_many_were_suppressed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    now = [100.0]
    monkeypatch.setattr(time, "monotonic", lambda: now[0])
    throttle = Throttle(per_second=1)
    line = json.dumps({"event": "stderr", "line": "boom"})
    assert throttle.let_through(line, "k") == line
    assert [throttle.let_through(line, "k") for _ in range(3)] == [None, None, None]
    assert throttle.let_through(line, None) == line, "a line of no kind always passes"
    now[0] += 1.0
    assert json.loads(throttle.let_through(line, "k") or "") == {
        "event": "stderr", "line": "boom", "suppressed": 3,
    }  # fmt: skip
    assert throttle.let_through(line, "other") == line


def test_a_record_is_one_json_line_with_its_event_and_fields() -> None:
    record = logging.LogRecord("handeval", logging.INFO, __file__, 1, "ready", None, None)
    record.event = "ready"  # type: ignore[attr-defined]
    record.fields = {"port": 50051}  # type: ignore[attr-defined]
    line = JsonLines().format(record)
    assert "\n" not in line
    written = json.loads(line)
    assert written["level"] == "info" and written["event"] == "ready" and written["port"] == 50051


def test_captured_lines_become_events_and_json_passes_as_it_is() -> None:
    assert captured_line("   \n", "on") is None
    assert captured_line('{"event": "x"}\n', "on") == ('{"event": "x"}', None)
    core = "E1201 21:10:57.981 21991 chttp2_transport.cc:1048] closed"
    line, kind = captured_line(core, "on") or ("", None)
    assert kind == "chttp2_transport.cc:1048"
    assert json.loads(line)["event"] == "grpc_core" and json.loads(line)["level"] == "error"
    assert captured_line(core, "off") is None
    other, kind = captured_line("x" * (MAX_LINE_CHARS + 10), "on") or ("", None)
    assert kind == "stderr" and len(json.loads(other)["message"]) == MAX_LINE_CHARS
