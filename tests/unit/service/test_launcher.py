"""The front doors (``service.launcher``): ``handeval serve`` is a subcommand with the
server's flags, the server imported only when it runs."""

from __future__ import annotations

import argparse

from service.launcher import add_serve


def test_serve_is_a_subcommand_with_the_servers_flags() -> None:
    parser = argparse.ArgumentParser()
    add_serve(parser.add_subparsers())
    args = parser.parse_args(["serve", "--port", "50999"])
    assert args.port == "50999", "read by the settings, which say what a flag may hold"
    assert callable(args.run)
