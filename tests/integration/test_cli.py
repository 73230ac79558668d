"""The ``handeval`` console script against a server prints what the command prints in process
(tests/unit/service/cli/test_main.py), refusals included, and ``serve`` refuses a bad setting in
one line."""

from __future__ import annotations

import json

import pytest

from service.cli.main import EXIT_INVALID, EXIT_OK
from tests.conftest import ServerProcess
from tests.unit.service.cli.test_main import (
    EVAL_SPADES,
    EVAL_TONK,
    SHOWDOWN_DEAL,
    SHOWDOWN_FLOP_A,
    SHOWDOWN_NUMBERS,
    SHOWDOWN_TONK,
    console_script,
    in_process,
)


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
    remote = in_process(capsys, *argv, "--target", target)
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
    code, out, _ = in_process(capsys, *SHOWDOWN_NUMBERS, "--target", target, "--json")
    assert code == EXIT_OK
    response = json.loads(out)
    assert {a["player"] for a in response["awards"]} == {"alice", "bob"}
    assert in_process(capsys, *SHOWDOWN_NUMBERS, "--json")[1] == out


def test_serve_refuses_a_bad_setting_in_one_line() -> None:
    code, _, err = console_script("serve", "--port", "nope")
    assert code == EXIT_INVALID
    assert err.splitlines() == [err.strip()] and "--port" in err
