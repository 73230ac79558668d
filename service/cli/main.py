"""The ``handeval`` command: eval, showdown, odds, games, load, protos, and ``serve``, which
``service.launcher`` adds (the CLI never imports the server side).

``eval``, ``showdown``, ``odds`` and ``games`` answer from a server when given ``--target`` and from
the in-process core otherwise. Both paths build the same request message, answer with the
same response message (the core's result goes through ``service.wire`` exactly as the
server's does) and print it with ``service.cli.render``, so their output is identical.

Exit codes: 0 done; 1 the server failed or could not be reached; 2 the input was refused
(one ``handeval: field: problem`` line per violation on stderr), as argparse uses for usage.
Each subcommand is one ``add_*`` function registering its parser and its ``run``
function; ``SUBCOMMANDS`` lists them (``handeval load`` plugs in the same way).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Protocol, TypeAlias, TypeVar

import grpc
from google.protobuf import json_format
from google.protobuf.message import Message
from handeval_client import (
    HandevalClient,
    HandevalError,
    evaluate_request,
    odds_request,
    showdown_request,
)
from handeval_client.gen.handeval.v1 import handeval_pb2 as pb

from evaluators.inputs import Declaration
from service.cli import render
from service.cli.arguments import (
    add_card_list,
    add_cards_options,
    add_common,
    add_declaration,
    add_seats,
    cards_arg,
    ending_arg,
    game_arg,
)

M = TypeVar("M", bound=Message)
"""A response message."""

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_INVALID = 2


class Answerer(Protocol):
    """Where answers come from: a server (``HandevalClient``) or the in-process core."""

    def send_evaluate(self, request: pb.EvaluateRequest) -> pb.Evaluation: ...

    def send_showdown(self, request: pb.ShowdownRequest) -> pb.ShowdownResponse: ...

    def send_odds(self, request: pb.OddsRequest) -> pb.OddsResponse: ...

    def list_games(self) -> pb.ListGamesResponse: ...


class InProcess:
    """The core behind the same request and response messages as the server: requests
    are read and checked by ``service.wire.requests``, scored by ``evaluators.scoring``, and
    converted back by ``service.wire.replies``; refusals become HandevalError(INVALID_ARGUMENT)
    with the violations the server would send. The core is imported on first use, so a
    call to a server never loads it."""

    def send_evaluate(self, request: pb.EvaluateRequest) -> pb.Evaluation:
        from evaluators import scoring
        from service.wire.replies import to_evaluation
        from service.wire.requests import to_hand_request

        with _refusals():
            hand_request = to_hand_request(request)
        return to_evaluation(scoring.evaluate(hand_request), request.game, request.request_id)

    def send_showdown(self, request: pb.ShowdownRequest) -> pb.ShowdownResponse:
        from evaluators import scoring
        from service.wire.replies import to_showdown_response
        from service.wire.requests import to_showdown_request

        with _refusals():
            core_request = to_showdown_request(request)
        return to_showdown_response(
            scoring.showdown(core_request), request.game, request.request_id
        )

    def send_odds(self, request: pb.OddsRequest) -> pb.OddsResponse:
        """With the server's default limits; over them, the RESOURCE_EXHAUSTED a server's
        refusal would raise (``_refusals``)."""
        from evaluators.odds import odds
        from service.wire.replies import to_odds_response
        from service.wire.requests import to_odds_request

        with _refusals():
            result = odds(to_odds_request(request), request.samples, request.seed)
        return to_odds_response(result, request.game, request.request_id)

    def list_games(self) -> pb.ListGamesResponse:
        from evaluators.registry import GAMES
        from service.wire.replies import to_list_games

        return to_list_games(GAMES.values())


@contextmanager
def _refusals() -> Iterator[None]:
    """A refusal of the core or the request limits as the HandevalError a server call
    would raise: through the same ``google.rpc.Status`` (``service.wire.status.refusal``:
    same code, same message, same first 10 violations, same clipping)."""
    from service.wire.status import refusal

    try:
        yield
    except Exception as error:
        refused = refusal(error)
        if refused is None:
            raise
        raise HandevalError.from_status(refused) from None


def _seats(args: argparse.Namespace) -> list[tuple[str, list[str], Declaration | None]]:
    """The ``--seat`` and ``--declaration`` flags as (player, cards, declaration) seats."""
    declarations = dict(args.declaration)
    return [(player, cards_arg([hand]), declarations.get(player)) for player, hand in args.seat]


def _ask(args: argparse.Namespace, call: Callable[[Answerer], M]) -> M:
    """``call`` on the answerer ``--target`` names (closed afterwards) or the core."""
    answerer, close = _connect(args)
    try:
        return call(answerer)
    finally:
        close()


def _connect(args: argparse.Namespace) -> tuple[Answerer, Callable[[], None]]:
    """The answerer for ``--target`` (a client, closed afterwards) or the core."""
    if not args.target:
        return InProcess(), lambda: None
    client = HandevalClient(args.target, timeout=args.timeout)
    return client, client.close


# --- argument types -----------------------------------------------------------------


def _options(args: argparse.Namespace) -> pb.Options:
    return pb.Options(
        ace_low=args.ace_low,
        hit_runs_only=args.hit_runs_only,
        texas=args.texas,
        six_card_tonk=args.six_card_tonk,
    )


def _answer(
    args: argparse.Namespace, call: Callable[[Answerer], M], show: Callable[[M], str]
) -> int:
    """Ask ``call``, print its reply (``--json``: the message as JSON, else ``show``'s)."""
    reply = _ask(args, call)
    print(json_format.MessageToJson(reply) if args.json else show(reply))
    return EXIT_OK


# --- subcommands -------------------------------------------------------------------


def _run_eval(args: argparse.Namespace) -> int:
    if not args.hand:
        return _usage_error(args, _missing_hand(args))
    request = evaluate_request(
        args.game,
        cards_arg(args.hand),
        cards_arg(args.table),
        [cards_arg(spread) for spread in args.spread],
        _options(args),
    )
    return _answer(
        args,
        lambda answerer: answerer.send_evaluate(request),
        lambda reply: render.render_evaluation(request, reply),
    )


def _missing_hand(args: argparse.Namespace) -> str:
    """Why ``eval`` found no hand: none given, or given after ``--table``/``--spread``,
    which take every card that follows them."""
    taken = [name for name, cards in (("table", args.table), ("spread", args.spread)) if cards]
    if not taken:
        return "the hand is missing: name its cards, e.g. eval --game tonk 5h 6h 7h Kd 2c"
    flags = " or ".join(f"--{name}" for name in taken)
    return (
        f"the hand is missing: every card after {flags} is taken as {' or '.join(taken)} "
        "cards, so put the hand first (eval --game numbers 7h 2c --table 2d Kh)"
    )


def add_eval(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``handeval eval --game tonk 5h 6h 7h Kd 2c``: score one hand."""
    parser = subparsers.add_parser(
        "eval",
        help="score one hand",
        description="Score one hand, e.g. handeval eval --game tonk 5h 6h 7h Kd 2c",
    )
    parser.add_argument("hand", nargs="*", metavar="CARD", help="the hand: Ah 10d X1 ...")
    add_cards_options(parser)
    add_common(parser)
    parser.set_defaults(run=_run_eval)


def _run_showdown(args: argparse.Namespace) -> int:
    seats = _seats(args)
    request = showdown_request(
        args.game,
        seats,
        cards_arg(args.table),
        [cards_arg(spread) for spread in args.spread],
        _options(args),
        ending=args.ending,
        ender=args.ender,
    )
    return _answer(
        args,
        lambda answerer: answerer.send_showdown(request),
        lambda reply: render.render_showdown(request, reply),
    )


def add_showdown(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``handeval showdown --game numbers --table ... --seat alice:... --seat bob:...``."""
    parser = subparsers.add_parser(
        "showdown",
        help="who wins what share of the pot",
        description="Resolve a showdown, e.g. handeval showdown --game numbers "
        "--table 3c 9d Kh --seat alice:Ah,Kd,2c --seat bob:5s,5d,Qc",
    )
    add_cards_options(parser)
    add_seats(parser, "a seat: alice:Ah,Kd,2c (repeat for every player)")
    add_declaration(parser)
    parser.add_argument(
        "--ending",
        type=ending_arg,
        help="Tonk: how the game ended (tonk, out, drop, stock-out, deal)",
    )
    parser.add_argument(
        "--ender", default="", help="Tonk: who tonked, went out, dropped or declared a deal bonus"
    )
    add_common(parser)
    parser.set_defaults(run=_run_showdown)


def _run_odds(args: argparse.Namespace) -> int:
    seats = _seats(args)
    request = odds_request(
        args.game,
        seats,
        cards_arg(args.table),
        cards_arg(args.dead),
        pb.Options(ace_low=args.ace_low),
        samples=args.samples,
        seed=args.seed,
    )
    return _answer(
        args,
        lambda answerer: answerer.send_odds(request),
        lambda reply: render.render_odds(request, reply),
    )


def add_odds(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``handeval odds --game numbers --seat alice:7h,2c,Kd,9s,3h --seat bob:?5 --table 2d Kh``."""
    parser = subparsers.add_parser(
        "odds",
        help="each seat's chances over the cards still to come",
        description="Each seat's chances in a showdown whose cards are still to come, e.g. "
        "handeval odds --game poker-high --seat alice:As,Ks --seat bob:?2 --table 2c 7d 9h",
    )
    parser.add_argument(
        "--game", type=game_arg, required=True, help="numbers, poker-high, ... (see games)"
    )
    add_seats(
        parser,
        "a seat's known cards, ?N for N cards nobody knows: alice:7h,2c,?3, bob:?5 "
        "(repeat for every player)",
    )
    add_declaration(parser)
    add_card_list(parser, "--table", "table cards turned so far, in order")
    add_card_list(parser, "--dead", "cards seen and out of play (folded, burned)")
    parser.add_argument("--ace-low", action="store_true", help="High Card: aces rank low")
    parser.add_argument(
        "--samples",
        type=int,
        default=0,
        help="run-outs to sample (default 0: every run-out when the server's limit allows)",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the sampled run-outs")
    add_common(parser)
    parser.set_defaults(run=_run_odds)


def _run_games(args: argparse.Namespace) -> int:
    return _answer(args, lambda answerer: answerer.list_games(), render.render_games)


def add_games(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``handeval games``: every game with its sizes, pots and options."""
    parser = subparsers.add_parser("games", help="list the games, their sizes and options")
    add_common(parser)
    parser.set_defaults(run=_run_games)


def _run_protos(args: argparse.Namespace) -> int:
    for relative, text in _shipped_protos(resources.files("handeval_client.gen") / "protos", ()):
        target = args.out.joinpath(*relative)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
        print(target)
    return EXIT_OK


def _shipped_protos(
    folder: Traversable, where: tuple[str, ...]
) -> Iterator[tuple[tuple[str, ...], str]]:
    """(path parts under ``folder``, text) of every .proto, however the package is installed."""
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.is_dir():
            yield from _shipped_protos(entry, (*where, entry.name))
        elif entry.name.endswith(".proto"):
            yield (*where, entry.name), entry.read_text()


def add_protos(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``handeval protos --out DIR``: the contract's .proto files, as this version ships them."""
    parser = subparsers.add_parser(
        "protos",
        help="write the .proto files of the contract",
        description="Write the service's .proto files (with google/rpc/status.proto, which "
        "they import) into DIR, ready for protoc or any gRPC stack.",
    )
    parser.add_argument("--out", type=Path, required=True, metavar="DIR", help="where to write")
    parser.set_defaults(run=_run_protos)


def _run_load(args: argparse.Namespace) -> int:
    from service.cli.load import run_load_command

    return run_load_command(args)


def add_load(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``handeval load --target ... --rpc batch --duration 10``: a bounded load test."""
    from service.cli.load import add_load_arguments

    parser = subparsers.add_parser(
        "load",
        help="load-test servers: a bounded run, then throughput and latency",
        description="Send valid random hands (and optionally a share of bad ones) to one or "
        "more servers for a bounded time or number of requests; print requests/s, hands/s, "
        "latency percentiles and counts by status code.",
    )
    add_load_arguments(parser)
    parser.set_defaults(run=_run_load)


Subcommand: TypeAlias = "Callable[[argparse._SubParsersAction[argparse.ArgumentParser]], None]"
"""Registers one subcommand: its parser, with its ``run`` function as a default."""

SUBCOMMANDS: list[Subcommand] = [
    add_eval,
    add_showdown,
    add_odds,
    add_games,
    add_load,
    add_protos,
]


def build_parser(subcommands: Sequence[Subcommand] = SUBCOMMANDS) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="handeval", description="Score card-game hands: serve, or ask from the command line."
    )
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for add in subcommands:
        add(subparsers)
    parser.set_defaults(subcommands=subparsers.choices)
    return parser


def _usage_error(args: argparse.Namespace, message: str) -> int:
    """Exit with the chosen subcommand's usage and ``message`` (argparse's exit code 2)."""
    args.subcommands[args.command].error(message)
    return EXIT_INVALID


def _parse(argv: list[str], subcommands: Sequence[Subcommand]) -> argparse.Namespace:
    """The arguments, with an unknown flag reported under its subcommand's usage (the
    top-level parser would show its own, which names none of the subcommand's flags)."""
    args, unknown = build_parser(subcommands).parse_known_args(argv)
    if unknown:
        _usage_error(args, f"unrecognized arguments: {' '.join(unknown)}")
    return args


def _report(error: HandevalError) -> int:
    if error.violations:
        for field, description in error.violations:
            print(f"handeval: {field}: {description}", file=sys.stderr)
    else:
        print(f"handeval: {error.code.name}: {error.message}", file=sys.stderr)
    refused = (grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.RESOURCE_EXHAUSTED)
    return EXIT_INVALID if error.code in refused else EXIT_FAILED


def main(argv: Sequence[str] | None = None, subcommands: Sequence[Subcommand] = SUBCOMMANDS) -> int:
    """The ``handeval`` command with ``subcommands`` (``service.launcher`` adds ``serve``);
    returns the exit code."""
    args = _parse(sys.argv[1:] if argv is None else list(argv), subcommands)
    try:
        code: int = args.run(args)
        sys.stdout.flush()
    except HandevalError as error:
        return _report(error)
    except ValueError as error:
        print(f"handeval: {error}", file=sys.stderr)
        return EXIT_INVALID
    except BrokenPipeError:
        return _reader_gone()
    return code


def _reader_gone() -> int:
    """The reader of our output closed it (``handeval games --json | head -1``): stop
    quietly, pointing stdout at /dev/null so the interpreter's last flush cannot fail."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return EXIT_FAILED
