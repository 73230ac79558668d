"""The ``handeval`` command's arguments: the flags its subcommands share and how each value
is read (games, cards, seats, declarations, endings, targets), refused as argparse refuses
a bad flag, with the client's own reading of names (``handeval_client.requests``)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from handeval_client import HandevalError, parse_game
from handeval_client.requests import parse_declaration, parse_ending, split_cards

from evaluators.inputs import Declaration, Game
from service.wire.enums import to_core, to_game


def argument_error(error: HandevalError) -> argparse.ArgumentTypeError:
    """A value the client refused, as argparse reports a bad flag (``argument --game:
    unknown game 'bridge': one of ...``): its problems without the field the flag names."""
    problems = "; ".join(description for _, description in error.violations)
    return argparse.ArgumentTypeError(problems or error.message)


def game_arg(text: str) -> Game:
    """``--game``: a game by name, slug or alias, refused as argparse refuses a flag."""
    try:
        game = to_game(parse_game(text))
    except HandevalError as error:
        raise argument_error(error) from None
    if game is None:
        raise argparse.ArgumentTypeError(f"{text!r}: a game this build of the server lacks")
    return game


def cards_arg(texts: Sequence[str]) -> list[str]:
    return [card for text in texts for card in split_cards(text)]


def player_arg(text: str) -> tuple[str, str]:
    player, sep, rest = text.partition(":")
    if not sep or not player:
        raise argparse.ArgumentTypeError(f"{text!r}: write player:value, e.g. alice:Ah,Kd,2c")
    return player, rest


def declaration_arg(text: str) -> tuple[str, Declaration]:
    player, value = player_arg(text)
    try:
        declared = to_core(Declaration, parse_declaration(value))
    except HandevalError as error:
        raise argument_error(error) from None
    if declared is None:
        raise argparse.ArgumentTypeError(f"{value!r}: a declaration this build lacks")
    return player, declared


def ending_arg(text: str) -> str:
    try:
        parse_ending(text)
    except HandevalError as error:
        raise argument_error(error) from None
    return text


def targets_arg(text: str) -> list[str]:
    """``--target``: one or several comma-separated ``host:port`` targets."""
    return [t for t in text.split(",") if t]


def add_common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--target",
        type=targets_arg,
        action="extend",
        default=[],
        metavar="HOST:PORT",
        help="ask this server (repeat, or separate by commas, to spread calls over several); "
        "without it the cards are scored in-process",
    )
    parser.add_argument(
        "--timeout", type=float, default=10.0, help="deadline per call, seconds (default 10)"
    )
    parser.add_argument("--json", action="store_true", help="print the response message as JSON")


def add_cards_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--game", type=game_arg, required=True, help="tonk, numbers, poker-high, ... (see games)"
    )
    add_card_list(
        parser, "--table", "table cards in the order turned (after the hand, or comma-separated)"
    )
    parser.add_argument(
        "--spread",
        nargs="+",
        action="append",
        default=[],
        metavar="CARD",
        help="Tonk: a spread already on the table, e.g. --spread 5h 6h 7h (repeat for more)",
    )
    parser.add_argument(
        "--ace-low", action="store_true", help="High Card: aces rank low; Tonk spades: the ace "
        "is the lowest spade"
    )  # fmt: skip
    parser.add_argument(
        "--hit-runs-only", action="store_true", help="Tonk: table sets may not be hit"
    )
    parser.add_argument("--texas", action="store_true", help="Tonk showdowns: Texas Tonk payouts")
    parser.add_argument(
        "--six-card-tonk",
        action="store_true",
        help="Tonk showdowns: a tonk of fewer than six cards is paid as an out",
    )


def add_card_list(parser: argparse.ArgumentParser, flag: str, help: str) -> None:
    """A flag that takes every card after it (``--table 2d Kh``), repeatable."""
    parser.add_argument(flag, nargs="+", action="extend", default=[], metavar="CARD", help=help)


def add_seats(parser: argparse.ArgumentParser, help: str) -> None:
    """``--seat PLAYER:CARDS``, once for every player."""
    parser.add_argument(
        "--seat",
        type=player_arg,
        action="append",
        default=[],
        required=True,
        metavar="PLAYER:CARDS",
        help=help,
    )


def add_declaration(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--declaration",
        type=declaration_arg,
        action="append",
        default=[],
        metavar="PLAYER:HIGH|LOW|BOTH",
        help="Flop-A: what a player declares",
    )
