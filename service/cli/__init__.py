"""The command line: handeval serve | eval | showdown | games | load, and rendering for people."""

from __future__ import annotations

from service.grpc_verbosity import quiet_grpc_core


def main() -> int:
    """The ``handeval`` console script: grpc's core quieted before ``service.cli.main``
    (which loads grpc) is imported."""
    quiet_grpc_core()
    from service.cli.main import main as run

    return run()
