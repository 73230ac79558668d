"""The CLI's flag values read as the client reads names, refused as argparse refuses a flag."""

from __future__ import annotations

import argparse

import pytest

from evaluators.inputs import Declaration, Game
from service.cli.arguments import declaration_arg, ending_arg, game_arg, player_arg, targets_arg


def test_a_game_flag_reads_slugs_names_and_aliases_as_the_core_game() -> None:
    assert game_arg("333") is Game.THREE_THIRTY_THREE
    assert game_arg("Poker high") is Game.POKER_HIGH


def test_an_unknown_game_is_an_argparse_error_listing_the_games() -> None:
    with pytest.raises(argparse.ArgumentTypeError, match="unknown game 'bridge': one of numbers"):
        game_arg("bridge")


def test_a_seat_is_player_colon_cards_and_anything_else_is_refused() -> None:
    assert player_arg("alice:Ah,Kd") == ("alice", "Ah,Kd")
    with pytest.raises(argparse.ArgumentTypeError, match="write player:value"):
        player_arg("alice")


def test_a_declaration_reads_as_the_core_declaration_and_a_bad_one_is_refused() -> None:
    assert declaration_arg("bob:LOW") == ("bob", Declaration.LOW)
    with pytest.raises(argparse.ArgumentTypeError, match="unknown declaration 'middle'"):
        declaration_arg("bob:middle")


def test_an_ending_is_checked_and_kept_as_typed() -> None:
    assert ending_arg("stock-out") == "stock-out"
    with pytest.raises(argparse.ArgumentTypeError, match="unknown ending 'won'"):
        ending_arg("won")


def test_targets_split_on_commas_and_drop_empty_pieces() -> None:
    assert targets_arg("10.0.0.1:50051,,10.0.0.2:50051") == ["10.0.0.1:50051", "10.0.0.2:50051"]
