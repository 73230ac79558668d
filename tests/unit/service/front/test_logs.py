"""nghttpx's lines become the server's JSON lines (``service.front.logs``)."""

from __future__ import annotations

import json

from service.front.logs import front_line

ERROR_LINE = (
    "2026-12-06T20:52:44.718Z 10687 10688 aaf87fa4 ERROR (shrpx_tls.cc:129) client certificate "
    "verify error:num=20:unable to get local issuer certificate:depth=0"
)


def test_an_error_log_line_becomes_a_front_event_with_its_level_and_source() -> None:
    converted = front_line(ERROR_LINE + "\n")
    assert converted is not None
    line, kind = converted
    assert json.loads(line) == {
        "time": "2026-12-06T20:52:44.718Z", "level": "error", "event": "front",
        "source": "shrpx_tls.cc:129", "pid": 10687,
        "message": "client certificate verify error:num=20:unable to get local issuer "
        "certificate:depth=0",
    }  # fmt: skip
    assert kind == "shrpx_tls.cc:129", "throttled per source"


def test_levels_map_to_the_servers() -> None:
    for theirs, ours in (("NOTICE", "info"), ("WARN", "warning"), ("FATAL", "critical")):
        converted = front_line(ERROR_LINE.replace(" ERROR ", f" {theirs} "))
        assert converted is not None
        assert json.loads(converted[0])["level"] == ours


def test_a_json_object_passes_as_it_is_and_other_text_is_wrapped() -> None:
    access = '{"time":"2026-12-06T20:52:44.711Z","path":"/x","status":200}'
    assert front_line(access + "\n") == (access, None)
    for text in ("content-type: application/grpc", '{"not": json', "[1, 2]"):
        converted = front_line(text)
        assert converted is not None
        event = json.loads(converted[0])
        assert (event["event"], event["message"], converted[1]) == ("front", text, "front")
    assert front_line("  \n") is None


def test_a_long_line_is_cut() -> None:
    converted = front_line("x" * 5000)
    assert converted is not None
    assert len(json.loads(converted[0])["message"]) == 1000
