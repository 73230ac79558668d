"""The front doors: the ``handeval`` console script and ``python -m service``.

The one module that reaches both the CLI and the server: ``service.cli`` never imports
``service.server``, so ``handeval serve`` is added to the CLI's subcommands here, and the
server is imported only when that subcommand runs. grpc's core is quieted before anything
loads grpc (``service.grpc_verbosity``).
"""

from __future__ import annotations

import argparse
import sys

from service.grpc_verbosity import quiet_grpc_core


def _run_serve(args: argparse.Namespace) -> int:
    from service.server.serve import run_serve

    code: int = run_serve(args)
    return code


def add_serve(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``handeval serve [--port ...]``: the server, with ``service.server.config``'s flags."""
    from service.server.config import add_serve_arguments

    parser = subparsers.add_parser(
        "serve",
        help="run the gRPC server",
        description="Serve handeval.v1.HandEvaluator over gRPC. Every flag has a HANDEVAL_* "
        "environment variable; the flag wins.",
    )
    add_serve_arguments(parser)
    parser.set_defaults(run=_run_serve)


def handeval() -> int:
    """The ``handeval`` console script: the CLI's subcommands after ``serve``."""
    quiet_grpc_core()
    from service.cli.main import SUBCOMMANDS, main

    return main(subcommands=[add_serve, *SUBCOMMANDS])


def serve_module() -> int:
    """``python -m service [serve] [flags]``: the same as ``handeval serve``."""
    quiet_grpc_core()
    from service.server.serve import serve_main

    argv = sys.argv[1:]
    if argv[:1] == ["serve"]:
        argv = argv[1:]
    return serve_main(argv)
