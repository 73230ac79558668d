"""The client's build step: generate ``handeval_client/gen/`` from the contract.

Everything else about the distribution is in pyproject.toml. The contract's ``.proto``
files are the repository's ``protos/`` (two folders up): the wheel is built from a
checkout (``pip wheel clients/python``), as the repository's README says.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import ClassVar

from setuptools import Command, setup
from setuptools.command.build import build

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from build_contract import generate  # noqa: E402

PROTOS = HERE.parent.parent / "protos"
CONTRACT = ("handeval/v1/handeval.proto",)
"""The contract callers see; the benchmarks' internal service is not in it."""


class BuildProtos(Command):
    """``build_protos``: generate the contract's code into ``handeval_client/gen/``."""

    description = "generate handeval_client/gen/ from protos/"
    user_options: ClassVar[list[tuple[str, str | None, str]]] = []

    def initialize_options(self) -> None:
        pass

    def finalize_options(self) -> None:
        pass

    def run(self) -> None:
        generate(PROTOS, HERE / "handeval_client" / "gen", CONTRACT, "handeval_client.gen", True)


class Build(build):
    """``build`` with ``build_protos`` first, so ``build_py`` finds the generated files."""

    sub_commands: ClassVar = [("build_protos", None), *build.sub_commands]


setup(cmdclass={"build": Build, "build_protos": BuildProtos})
