"""Settings: flag over environment over default; a bad one is one line and exit 2."""

from __future__ import annotations

import argparse
import json
import socket
import subprocess
import sys
from collections.abc import Callable

import pytest

from service.server.config import SettingError, Settings, add_serve_arguments
from tests.conftest import ROOT, ServerProcess, serve_command, server_env


def settings(argv: list[str], env: dict[str, str] | None = None) -> Settings:
    parser = argparse.ArgumentParser()
    add_serve_arguments(parser)
    return Settings.from_args(parser.parse_args(argv), env or {})


def test_defaults_are_the_documented_ports() -> None:
    assert (settings([]).port, settings([]).metrics_port) == (50051, 9464)
    assert settings([]).reflection is True


def test_every_setting_has_a_flag_and_an_environment_variable() -> None:
    parser = argparse.ArgumentParser()
    add_serve_arguments(parser)
    flags = {option for action in parser._actions for option in action.option_strings}
    for name in Settings.__dataclass_fields__:
        assert "--" + name.replace("_", "-") in flags
        assert f"HANDEVAL_{name.upper()}" in parser.format_help()


def test_the_environment_fills_what_flags_leave_out() -> None:
    got = settings(
        [],
        {"HANDEVAL_PORT": "6000", "HANDEVAL_GRACE_SECONDS": "2.5", "HANDEVAL_REFLECTION": "off"},
    )
    assert (got.port, got.grace_seconds, got.reflection) == (6000, 2.5, False)


def test_a_flag_wins_over_the_environment() -> None:
    got = settings(
        ["--port", "7000", "--reflection", "--log-level", "DEBUG"],
        {"HANDEVAL_PORT": "6000", "HANDEVAL_REFLECTION": "0", "HANDEVAL_LOG_LEVEL": "error"},
    )
    assert (got.port, got.reflection, got.log_level) == (7000, True, "debug")


@pytest.mark.parametrize(
    ("argv", "env", "words"),
    [
        (["--port", "http"], {}, "--port (HANDEVAL_PORT)"),
        (["--port", "70000"], {}, "0-65535"),
        ([], {"HANDEVAL_WORKERS": "0"}, "--workers (HANDEVAL_WORKERS)"),
        ([], {"HANDEVAL_GRACE_SECONDS": "-1"}, "HANDEVAL_GRACE_SECONDS"),
        (["--log-level", "loud"], {}, "debug, info"),
        ([], {"HANDEVAL_REFLECTION": "maybe"}, "true or false"),
        (["--max-message-bytes", "10"], {}, "65536"),
        (["--port", "9464"], {}, "--metrics-port (HANDEVAL_METRICS_PORT)"),
        (["--peer-share", "1.5"], {}, "more than 0 and at most 1"),
        ([], {"HANDEVAL_MEMORY_BUDGET_MIB": "-5"}, "--memory-budget-mib"),
    ],
)
def test_a_bad_setting_names_its_flag_and_variable(
    argv: list[str], env: dict[str, str], words: str
) -> None:
    with pytest.raises(SettingError) as caught:
        settings(argv, env)
    assert words in str(caught.value)


def test_an_ipv6_host_is_bracketed_in_the_address() -> None:
    assert Settings(host="::", port=1).address() == "[::]:1"
    assert Settings(host="127.0.0.1", port=2).address() == "127.0.0.1:2"


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
