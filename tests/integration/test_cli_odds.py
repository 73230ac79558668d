"""``handeval odds``: the table people read, the same from a server and in process.

The server's side runs ``main`` in this process too (``--target``): a console script would
spend ~0.35 CPU-s starting Python and importing grpc and numpy for ~0.01 CPU-s of Odds, and
on a loaded machine that start-up, which no deadline bounds, is what ran long (a CLI hung
60 s at load ~20). ``tests/test_cli.py`` holds the console script itself."""

from __future__ import annotations

import json

import pytest

from service.cli.main import EXIT_INVALID, EXIT_OK
from tests.integration.test_cli import target
from tests.unit.service.cli.test_main import in_process

__all__ = ["target"]

ODDS_NUMBERS = [
    "odds",
    "--game",
    "numbers",
    "--seat",
    "alice:7h,2c,Kd,9s,3h",
    "--seat",
    "bob:?5",
    "--table",
    "2d",
    "Kh",
    "--samples",
    "20000",
    "--seed",
    "3",
]
ODDS_POKER_TURN = [
    "odds",
    "--game",
    "poker-high",
    "--seat",
    "alice:As,Ks",
    "--seat",
    "bob:Qd,?1",
    "--table",
    "2c",
    "7d",
    "9h",
    "Qs",
    "--dead",
    "Qc",
]
ODDS_FLOP_A = [
    "odds",
    "--game",
    "flop-a",
    "--seat",
    "ann:Ad,?2",
    "--seat",
    "bob:?3",
    "--declaration",
    "ann:high",
    "--declaration",
    "bob:both",
    "--table",
    "2c",
    "5h",
    "8d",
    "Jc",
    "--samples",
    "20000",
]


def test_odds_prints_each_seats_chances_and_how_they_were_counted_without_instant_wins(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = in_process(capsys, *ODDS_POKER_TURN)
    assert code == EXIT_OK
    lines = out.splitlines()
    assert lines[:3] == ["poker-high odds", "table: 2c 7d 9h Qs", "dead: Qc"]
    # Poker has no instant win: no column that could only ever say 0.
    assert lines[4].split() == ["player", "hand", "share", "whole", "win"]
    assert lines[5].split()[:3] == ["alice", "As", "Ks"]
    assert lines[6].split()[:3] == ["bob", "Qd", "?"]
    assert lines[-1] == "exact: every one of 1,892 run-outs"


def test_sampled_odds_of_a_discard_game_show_instant_wins_and_say_their_count_seed_and_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = in_process(capsys, *ODDS_NUMBERS)
    assert code == EXIT_OK
    assert "high win  low win  whole win  instant win" in out
    assert "bob     ? ? ? ? ?" in out
    assert out.splitlines()[-1].startswith("sampled: 20,000 run-outs (seed 3), standard error ")


@pytest.mark.parametrize(
    "argv", [ODDS_NUMBERS, ODDS_POKER_TURN, ODDS_FLOP_A], ids=["numbers", "poker", "flop-a"]
)
def test_server_and_in_process_print_the_same_odds(
    argv: list[str], target: str, capsys: pytest.CaptureFixture[str]
) -> None:
    local = in_process(capsys, *argv)
    remote = in_process(capsys, *argv, "--target", target)
    assert remote == local
    assert local[0] == EXIT_OK
    assert ("declares" in local[1]) == (argv is ODDS_FLOP_A)


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["odds", "--game", "tonk", "--seat", "a:?3", "--seat", "b:?3"], "handeval: game: "),
        (
            [
                *("odds", "--game", "poker-high", "--seat", "a:?2", "--seat", "b:?2"),
                *("--samples", "10000001"),
            ],
            "handeval: RESOURCE_EXHAUSTED: 10000001 samples asked; this server samples at most "
            "10000000",
        ),
    ],
    ids=["tonk", "too-many-samples"],
)
def test_odds_refusals_from_the_server_print_the_same_lines(
    argv: list[str], said: str, target: str, capsys: pytest.CaptureFixture[str]
) -> None:
    local = in_process(capsys, *argv)
    remote = in_process(capsys, *argv, "--target", target)
    assert remote == local
    assert local[0] == EXIT_INVALID
    assert local[2].startswith(said)


def test_odds_json_is_the_response_message(target: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = in_process(capsys, *ODDS_POKER_TURN, "--target", target, "--json")
    assert code == EXIT_OK
    response = json.loads(out)
    assert [s["player"] for s in response["seats"]] == ["alice", "bob"]
    assert response["exact"] is True
    assert in_process(capsys, *ODDS_POKER_TURN, "--json")[1] == out
