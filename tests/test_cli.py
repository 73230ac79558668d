"""The ``handeval`` console script: against a server it prints what the command prints in
process (tests/unit/service/cli/test_main.py), and a dead server, a bad setting or a closed
pipe is one line and an exit code, never a traceback."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from service.cli.main import EXIT_FAILED, EXIT_INVALID, EXIT_OK
from tests.conftest import ServerProcess
from tests.unit.service.cli.test_main import (
    EVAL_SPADES,
    EVAL_TONK,
    SHOWDOWN_DEAL,
    SHOWDOWN_FLOP_A,
    SHOWDOWN_NUMBERS,
    SHOWDOWN_TONK,
    in_process,
)

SCRIPT = Path(sys.executable).with_name("handeval")


def free_port() -> int:
    """A loopback port nothing listens on (just released by the OS)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def console_script(*argv: str) -> tuple[int, str, str]:
    done = subprocess.run(
        [str(SCRIPT), *argv], capture_output=True, text=True, timeout=60, check=False
    )
    return done.returncode, done.stdout, done.stderr


@pytest.fixture(scope="module")
def target(server: ServerProcess) -> str:
    return server.target


@pytest.mark.parametrize(
    "argv",
    [
        EVAL_TONK,
        SHOWDOWN_NUMBERS,
        SHOWDOWN_TONK,
        SHOWDOWN_FLOP_A,
        ["games"],
        SHOWDOWN_DEAL,
        EVAL_SPADES,
    ],
    ids=[
        "eval",
        "showdown-numbers",
        "showdown-tonk",
        "showdown-flop-a",
        "games",
        "deal",
        "tonk-spades",
    ],
)
def test_server_and_in_process_print_the_same(
    argv: list[str], target: str, capsys: pytest.CaptureFixture[str]
) -> None:
    local = in_process(capsys, *argv)
    remote = console_script(*argv, "--target", target)
    assert remote == local
    assert local[0] == EXIT_OK and local[1]


def test_refusals_from_the_server_print_the_same_lines(
    target: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["eval", "--game", "numbers", "Ah", "Zz", "Ah", "--table", "3c,3d"]
    local = in_process(capsys, *argv)
    remote = console_script(*argv, "--target", target)
    assert remote == local
    assert local[0] == EXIT_INVALID
    assert "Traceback" not in remote[2]


def test_json_output_is_the_response_message(
    target: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = console_script(*SHOWDOWN_NUMBERS, "--target", target, "--json")
    assert code == EXIT_OK
    response = json.loads(out)
    assert {a["player"] for a in response["awards"]} == {"alice", "bob"}
    assert in_process(capsys, *SHOWDOWN_NUMBERS, "--json")[1] == out


def test_unreachable_server_is_one_line_and_exit_1() -> None:
    code, out, err = console_script(
        *EVAL_TONK, "--target", f"127.0.0.1:{free_port()}", "--timeout", "3"
    )
    assert code == EXIT_FAILED
    assert out == ""
    assert len(err.splitlines()) == 1 and err.startswith("handeval: UNAVAILABLE")


def test_serve_refuses_a_bad_setting_in_one_line() -> None:
    code, _, err = console_script("serve", "--port", "nope")
    assert code == EXIT_INVALID
    assert err.splitlines() == [err.strip()] and "--port" in err


def test_serve_help_shows_each_default_as_the_configuration_table_does() -> None:
    """Booleans on/off, an empty setting as a dash, the worker count as the CPUs usable:
    never Python's ``True`` or an empty ``default``."""
    code, out, _ = console_script("serve", "--help")
    assert code == EXIT_OK
    help_text = " ".join(out.split())
    defaults = re.findall(r"; default ([^)]*)\)", help_text)
    assert len(defaults) == help_text.count("(env HANDEVAL_") > 20
    assert "" not in defaults and not {"True", "False"} & set(defaults)
    assert "HANDEVAL_METRICS; default on)" in help_text
    assert "HANDEVAL_WORKERS; default CPUs usable)" in help_text


def test_a_closed_pipe_ends_quietly_without_a_traceback() -> None:
    read_end, write_end = os.pipe()
    os.close(read_end)
    code = "from service.cli.main import main; raise SystemExit(main(['games', '--json']))"
    try:
        result = subprocess.run(
            [sys.executable, "-c", code],
            cwd=Path(__file__).resolve().parents[1],
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
        )
    finally:
        os.close(write_end)
    assert result.returncode == EXIT_FAILED
    assert result.stderr == ""
