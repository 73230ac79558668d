"""The ``handeval`` command in process: each command prints its tables, and refused input is
one line per violation with exit code 2, or argparse's usage, never a traceback."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from service.cli.main import EXIT_FAILED, EXIT_INVALID, EXIT_OK, main

SCRIPT = Path(sys.executable).with_name("handeval")
"""The console script the install made, beside this interpreter."""

EVAL_TONK = ["eval", "--game", "tonk", "5h", "6h", "7h", "Kd", "2c"]
SHOWDOWN_NUMBERS = [
    "showdown",
    "--game",
    "numbers",
    "--table",
    "3c",
    "9d",
    "Kh",
    "--seat",
    "alice:Ah,Kd,2c",
    "--seat",
    "bob:5s,5d,Qc",
]
SHOWDOWN_TONK = [
    "showdown",
    "--game",
    "tonk",
    "--seat",
    "ann:5h,6h,7h",
    "--seat",
    "bob:Kd,Qd",
    "--seat",
    "cy:2c",
    "--ending",
    "drop",
    "--ender",
    "cy",
]
SHOWDOWN_FLOP_A = [
    "showdown",
    "--game",
    "flop-a",
    "--table",
    "3c",
    "9d",
    "--seat",
    "ann:Ah,Kd",
    "--seat",
    "bob:2s,4d",
    "--seat",
    "cy:Qs,Jd",
    "--declaration",
    "ann:high",
    "--declaration",
    "bob:low",
    "--declaration",
    "cy:both",
]


def free_port() -> int:
    """A loopback port nothing listens on (just released by the OS)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def console_script(*argv: str) -> tuple[int, str, str]:
    """Run ``handeval``; one still running after 60 s is made to print every thread's
    Python stack (faulthandler, on SIGABRT) into the failure, so a stall says where it was."""
    with subprocess.Popen(
        [str(SCRIPT), *argv],
        env={**os.environ, "PYTHONFAULTHANDLER": "1"},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    ) as running:
        try:
            out, err = running.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            running.send_signal(signal.SIGABRT)
            out, err = running.communicate()
            raise AssertionError(f"handeval {argv} still running after 60 s:\n{err}") from None
    return running.returncode, out, err


def in_process(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_eval_prints_the_description_and_every_figure(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = in_process(capsys, *EVAL_TONK)
    assert code == EXIT_OK
    lines = out.splitlines()
    assert lines[0] == "tonk: 5h 6h 7h Kd 2c"
    assert "Deadwood 12" in lines
    assert "deadwood        12" in lines
    assert "deadwood cards  Kd 2c" in lines
    assert "spreads         5h 6h 7h" in lines


def test_eval_reads_table_spreads_and_options(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = in_process(
        capsys, "eval", "--game", "tonk", "8h", "Kd", "--spread", "5h 6h 7h", "--hit-runs-only"
    )
    assert code == EXIT_OK
    assert "table spreads: [0] 5h 6h 7h" in out
    assert "options: hit-runs-only" in out
    assert "hits            8h on table spread 0" in out


def test_showdown_prints_awards_as_fractions(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = in_process(capsys, *SHOWDOWN_NUMBERS)
    assert code == EXIT_OK
    awards = [line.split() for line in out.splitlines() if line.endswith("1/2")]
    assert awards == [["bob", "high", "1/2"], ["alice", "low", "1/2"]]


def test_tonk_showdown_prints_signed_payouts(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = in_process(capsys, *SHOWDOWN_TONK)
    assert code == EXIT_OK
    assert "ending: drop by cy" in out
    payouts = {
        line.split()[0]: line.split()[1]
        for line in out.splitlines()
        if line.split()[-1:] and line.split()[-1][0] in "+-"
    }
    assert payouts == {"ann": "-1", "bob": "-1", "cy": "+2"}


SHOWDOWN_DEAL = [
    "showdown", "--game", "tonk", "--ending", "deal", "--ender", "ann",
    "--seat", "ann:Ac,2c,3d,2h,Ad", "--seat", "bob:Kd,Qd,Jd,5h,6h",
]  # fmt: skip
EVAL_SPADES = ["eval", "--game", "tonk-spades", "Ah", "Ks", "2s", "3d", "4c"]


def payouts_of(out: str) -> dict[str, str]:
    return {
        line.split()[0]: line.split()[1]
        for line in out.splitlines()
        if line.split()[-1:] and line.split()[-1][0] in "+-"
    }


def test_a_deal_ending_pays_the_ender_by_its_bonus(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = in_process(capsys, *SHOWDOWN_DEAL)
    assert code == EXIT_OK and "ending: deal by ann" in out
    assert payouts_of(out) == {"ann": "+3", "bob": "-3"}


def test_texas_and_six_card_tonk_flags_reach_the_settlement(
    capsys: pytest.CaptureFixture[str],
) -> None:
    drop = ["showdown", "--game", "tonk", "--ending", "drop", "--ender", "dan",
            "--seat", "dan:Tc", "--seat", "lo:5c", "--seat", "mid:8c", "--texas"]  # fmt: skip
    code, out, _ = in_process(capsys, *drop)
    assert code == EXIT_OK and "options: texas" in out
    assert payouts_of(out) == {"dan": "-2", "lo": "+3", "mid": "-1"}
    five = ["showdown", "--game", "tonk", "--ending", "tonk", "--ender", "ann",
            "--seat", "ann:2c,3c,4c,5c,6c", "--seat", "bob:Kd", "--six-card-tonk"]  # fmt: skip
    code, out, _ = in_process(capsys, *five)
    assert code == EXIT_OK and "options: six-card-tonk" in out
    assert payouts_of(out) == {"ann": "+1", "bob": "-1"} and "paid as an out" in out


def test_eval_tonk_spades_prints_the_highest_spade(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = in_process(capsys, *EVAL_SPADES)
    assert code == EXIT_OK
    assert "Highest spade Ks" in out.splitlines()
    assert "highest spade  Ks" in out.splitlines()


def test_flop_a_showdown_shows_each_declaration(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = in_process(capsys, *SHOWDOWN_FLOP_A)
    assert code == EXIT_OK
    header = next(line for line in out.splitlines() if line.startswith("player"))
    assert header.split()[:3] == ["player", "hand", "declares"]
    rows = out.splitlines()[out.splitlines().index(header) + 1 :][:3]
    assert [row.split()[:4] for row in rows] == [
        ["ann", "Ah", "Kd", "high"],
        ["bob", "2s", "4d", "low"],
        ["cy", "Qs", "Jd", "both"],
    ]


def test_bad_card_is_one_line_naming_the_field_and_exit_2(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = in_process(capsys, "eval", "--game", "numbers", "Ah", "Zz", "--table", "3c,3d")
    assert code == EXIT_INVALID
    assert out == ""
    assert err.splitlines() == [
        "handeval: hand[1]: 'Zz' is not a card: ranks are 2-9 T J Q K A, suits c d h s "
        "(or X1, X2 for jokers)",
        "handeval: table[1]: the table pairs: 3d has the rank 3 of table[0]; "
        "the dealer replaces a pairing card",
    ]


def test_missing_declaration_names_the_seat(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = in_process(capsys, *SHOWDOWN_FLOP_A[:-2])
    assert code == EXIT_INVALID
    assert [line.split()[1] for line in err.splitlines()] == ["seats[2].declaration:"]


def test_unknown_game_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["eval", "--game", "bridge", "Ah"])
    assert exited.value.code == EXIT_INVALID
    assert "unknown game 'bridge'" in capsys.readouterr().err


def test_a_spread_takes_its_cards_as_separate_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["eval", "--game", "tonk", "5h", "6h", "7h", "Kd", "2c", "8h"]
    assert main([*args, "--spread", "9h", "Th", "Jh", "--spread", "Kc", "Ks", "Kh"]) == EXIT_OK
    separate = capsys.readouterr().out
    assert main([*args, "--spread", "9h Th Jh", "--spread", "Kc,Ks,Kh"]) == EXIT_OK
    assert capsys.readouterr().out == separate
    assert "table spreads: [0] 9h Th Jh, [1] Kc Ks Kh" in separate


def test_an_unknown_flag_shows_the_subcommands_usage(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["eval", "--game", "numbers", "7h", "2c", "--tabel", "2d"])
    assert exited.value.code == EXIT_INVALID
    err = capsys.readouterr().err
    assert err.startswith("usage: handeval eval ")
    assert "unrecognized arguments: --tabel 2d" in err


def test_a_table_before_the_hand_says_the_hand_is_missing_and_why(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["eval", "--game", "numbers", "--table", "2d", "Kh", "7h", "2c"])
    assert exited.value.code == EXIT_INVALID
    err = capsys.readouterr().err
    assert err.startswith("usage: handeval eval ")
    assert "the hand is missing" in err and "7h 2c --table 2d Kh" in err
    assert main(["eval", "--game", "numbers", "--json", "7h", "2c", "--table", "2d"]) == EXIT_OK


def test_eval_without_cards_asks_for_the_hand_naming_no_flag_that_was_not_given(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["eval", "--game", "tonk"])
    assert exited.value.code == EXIT_INVALID
    err = capsys.readouterr().err
    assert "the hand is missing: name its cards, e.g. eval --game tonk 5h" in err
    assert (
        "--table" not in err.split("error:", 1)[1] and "--spread" not in err.split("error:", 1)[1]
    )


def test_load_refuses_a_share_outside_zero_to_one(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["load", "--target", "127.0.0.1:1", "--bad-share", "2"])
    assert exit_info.value.code == 2
    assert "share between 0 and 1" in capsys.readouterr().err


def test_unreachable_server_is_one_line_and_exit_1() -> None:
    code, out, err = console_script(
        *EVAL_TONK, "--target", f"127.0.0.1:{free_port()}", "--timeout", "3"
    )
    assert code == EXIT_FAILED
    assert out == ""
    assert len(err.splitlines()) == 1 and err.startswith("handeval: UNAVAILABLE")


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
            cwd=Path(__file__).resolve().parents[4],
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
        )
    finally:
        os.close(write_end)
    assert result.returncode == EXIT_FAILED
    assert result.stderr == ""
