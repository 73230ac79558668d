"""The client's build step: generate ``handeval_client/gen/`` from the contract.

Everything else about the distribution is in pyproject.toml. The contract's ``.proto``
files are the repository's ``protos/`` (two folders up): the wheel is built from a
checkout (``pip wheel clients/python``), as the repository's README says.
"""

from __future__ import annotations

import sys
from pathlib import Path

from setuptools import setup

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from build_contract import commands, generate  # noqa: E402

PROTOS = HERE.parent.parent / "protos"
CONTRACT = ("handeval/v1/handeval.proto",)
"""The contract callers see; the benchmarks' internal service is not in it."""


def _generate() -> None:
    generate(PROTOS, HERE / "handeval_client" / "gen", CONTRACT, "handeval_client.gen", True)


setup(cmdclass=commands(_generate))
