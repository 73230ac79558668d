"""The /metrics answer in process (service/server/metrics_http.py): only /metrics, GET and HEAD
in the negotiated format, 405 and 400 for the rest (the endpoint under load and TLS:
tests/test_metrics_http.py)."""

from __future__ import annotations

import pytest

from service.server.metrics_http import answer


def _render(accept: str) -> tuple[bytes, str]:
    return b"up 1\n", f"text/plain; accept={accept}"


@pytest.mark.parametrize("target", [b"/", b"/metricsx", b"/favicon.ico", b"/metrics/"])
def test_every_other_path_is_404(target: bytes) -> None:
    assert answer(b"GET " + target + b" HTTP/1.1\r\nHost: x", _render).startswith(b"HTTP/1.1 404")


def test_metrics_answers_get_and_head_with_the_negotiated_format_and_refuses_the_rest() -> None:
    got = answer(
        b"GET /metrics?name[]=up HTTP/1.1\r\nAccept: application/openmetrics-text", _render
    )
    assert got.startswith(b"HTTP/1.1 200") and got.endswith(b"\r\n\r\nup 1\n")
    assert b"accept=application/openmetrics-text" in got
    head = answer(b"HEAD /metrics HTTP/1.0", _render)
    assert head.startswith(b"HTTP/1.1 200")
    assert head.endswith(b"Content-Length: 5\r\nConnection: close\r\n\r\n")
    assert answer(b"POST /metrics HTTP/1.1", _render).startswith(b"HTTP/1.1 405")
    assert answer(b"\x16\x03\x01 garbage", _render).startswith(b"HTTP/1.1 400")
