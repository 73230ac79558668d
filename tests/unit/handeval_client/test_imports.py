"""``import handeval_client`` loads nothing of the server, the core, the benchmarks or the
tests: checked in a fresh interpreter's ``sys.modules``."""

from __future__ import annotations

import json
import subprocess
import sys

SERVER_SIDE = ("service", "evaluators", "benchmarks", "tests")


def test_importing_the_client_loads_no_module_of_the_server_or_the_core() -> None:
    code = (
        "import json, sys, handeval_client\n"
        "from handeval_client import client, requests, batch, channel, errors, catalogue\n"
        "print(json.dumps(sorted(sys.modules)))"
    )
    found = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd="/"
    )
    loaded = json.loads(found.stdout)
    assert "handeval_client.client" in loaded
    assert [m for m in loaded if m.split(".")[0] in SERVER_SIDE] == []
