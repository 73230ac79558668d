"""GRPC_VERBOSITY is the programs' choice, not a library's: the ``handeval`` command sets
it before grpc loads; importing the client or the server sets nothing."""

from __future__ import annotations

import os
import subprocess
import sys


def _run(code: str, **env: str) -> str:
    """``code``'s stdout in a fresh Python with GRPC_VERBOSITY unset, then ``env``."""
    clean = {k: v for k, v in os.environ.items() if k != "GRPC_VERBOSITY"} | env
    result = subprocess.run(
        [sys.executable, "-c", code], env=clean, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_importing_the_client_or_the_server_leaves_grpc_verbosity_unset() -> None:
    code = "import os, handeval_client, service.server.serve; "
    assert _run(code + "print(os.environ.get('GRPC_VERBOSITY'))") == "None"


def test_the_handeval_command_sets_error_before_grpc_loads() -> None:
    code = (
        "import os, sys, service.launcher; loaded = 'grpc' in sys.modules; "
        "sys.argv = ['handeval', 'games']; service.launcher.handeval(); "
        "print(loaded, os.environ['GRPC_VERBOSITY'])"
    )
    assert _run(code).splitlines()[-1] == "False ERROR"


def test_an_operators_grpc_verbosity_is_kept() -> None:
    code = "import os, service.grpc_verbosity as v; v.quiet_grpc_core(); "
    assert _run(code + "print(os.environ['GRPC_VERBOSITY'])", GRPC_VERBOSITY="DEBUG") == "DEBUG"
