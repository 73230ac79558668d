"""The load generator without a server: no server is a load error and not a hang (runs
against real servers: tests/integration/test_load.py)."""

from __future__ import annotations

import time

import pytest

from service.client.load import run_load
from service.client.load_spec import LoadError
from tests.unit.service.client.test_load_spec import spec


def test_no_server_is_a_load_error_not_a_hang() -> None:
    with pytest.raises(LoadError, match=r"no server at 127\.0\.0\.1:1"):
        run_load(spec("127.0.0.1:1", requests=5, ready_timeout_s=0.5))


def test_a_refused_connection_fails_the_run_early_saying_why() -> None:
    """Nothing listening: the run gives up ``FAIL_FAST_S`` after the first refusal, with
    gRPC's reason, long before the ready timeout it would otherwise wait out."""
    started = time.monotonic()
    with pytest.raises(LoadError) as caught:
        run_load(spec("127.0.0.1:1", duration_s=3.0, ready_timeout_s=60.0))
    assert time.monotonic() - started < 30.0
    message = str(caught.value)
    assert message.startswith("no server at 127.0.0.1:1: none answered in ")
    assert "(UNAVAILABLE: " in message  # gRPC's reason, e.g. "... Connection refused"
