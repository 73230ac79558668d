"""Settings as ``handeval serve`` meets them: a bad one is one line and exit 2, a port in use
an error line naming it (the settings' reading itself: tests/unit/service/server/test_config.py)."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from collections.abc import Callable

import pytest

from tests.conftest import ROOT, ServerProcess, serve_command, server_env


@pytest.mark.parametrize(
    ("argv", "env"),
    [(["--port", "http"], {}), ([], {"HANDEVAL_MAX_BATCH_HANDS": "lots"})],
    ids=["flag", "env"],
)
def test_serve_with_a_bad_setting_prints_one_line_and_exits_2(
    argv: list[str], env: dict[str, str]
) -> None:
    result = subprocess.run(
        serve_command(*argv),
        cwd=ROOT,
        env=server_env(env),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert "bad setting" in result.stderr and "Traceback" not in result.stderr


def test_a_port_in_use_stops_start_up_with_an_error_line(
    server: ServerProcess, launch_server: Callable[..., ServerProcess]
) -> None:
    second = launch_server("--port", str(server.port), wait_ready=False)
    assert second.process.wait(timeout=60) == 1
    error = second.wait_for_event("error", timeout=5)
    assert str(server.port) in error["message"]
    assert not second.named("ready")


def test_a_busy_metrics_port_says_how_to_move_or_disable_it() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run(
            [sys.executable, "-m", "service", "serve", "--host", "127.0.0.1", "--port", "0",
             "--metrics-port", str(port), "--workers", "1"],
            capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip
    assert result.returncode == 1
    (line,) = [json.loads(x) for x in result.stderr.splitlines() if '"error"' in x]
    assert "--metrics-port (HANDEVAL_METRICS_PORT)" in line["message"]
    assert "--no-metrics" in line["message"]
