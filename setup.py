"""Builds what is not plain Python: the compiled kernels and the contract's generated code,
and carries the client. Everything else about the package is in pyproject.toml.

Kernels: one CPython extension module per ``_*.c`` file under ``evaluators/kernels/``
(and the reply writer under ``service/wire/``), named for its file
(``evaluators/kernels/_poker.c`` -> ``evaluators.kernels._poker``), rebuilt when a header
beside it changes (headers share structs between modules: a stale module would misread
them). A folder ``_name/`` under ``evaluators/kernels/`` is one module ``_name`` too, built
from every ``.c`` in it (sorted) and rebuilt when a header in it or beside it changes
(``evaluators/kernels/_odds/*.c`` -> ``evaluators.kernels._odds``); what its files share
they declare hidden, so the module exports its ``PyInit_`` alone. They use the C API alone
(buffers in, buffers out), so a build needs gcc and the Python headers, no other package;
``pip install -e .`` compiles them in place.

Client: the server's distribution carries ``handeval_client`` (``clients/python/``), whose
generated code is the contract's one Python binding: the server imports its messages
from there, so one process never registers the contract twice. The client is its own
distribution too (``pip wheel clients/python``); no install looks it up on a package index.

Contract: ``protos/`` is the one copy of the contract in git. The ``build_protos`` step
(first of ``build``, so in an editable install too) generates it with
``clients/python/build_contract.py``: the contract into ``handeval_client/gen/`` (with the
descriptor set that server reflection serves and the ``.proto`` files ``handeval protos``
writes), the benchmarks' internal service into ``service/gen/``. After editing a
``.proto``, ``pip install -e . --no-deps`` regenerates.
"""

from __future__ import annotations

import sys
from pathlib import Path

from setuptools import Extension, find_packages, setup

ROOT = Path(__file__).resolve().parent
CLIENT = ROOT / "clients" / "python"
sys.path.insert(0, str(CLIENT))
from build_contract import commands, generate  # noqa: E402

KERNELS = Path("evaluators/kernels")


def _modules() -> list[tuple[Path, list[Path], list[Path]]]:
    """Each kernel module's path without suffix, its sources and the headers it depends on:
    a ``_*.c`` file alone, or every ``.c`` of a ``_*/`` folder under the kernels."""
    files = [*KERNELS.glob("_*.c"), *Path("service/wire").glob("_*.c")]
    folders = {source.parent for source in KERNELS.glob("_*/*.c")}
    return sorted(
        [
            *(
                (source.with_suffix(""), [source], sorted(source.parent.glob("*.h")))
                for source in files
            ),
            *(
                (
                    folder,
                    sorted(folder.glob("*.c")),
                    sorted([*folder.glob("*.h"), *KERNELS.glob("*.h")]),
                )
                for folder in folders
            ),
        ]
    )


PROTOS = ROOT / "protos"
CONTRACT = ("handeval/v1/handeval.proto",)
BENCH = ("handeval/bench/v1/bench.proto",)
"""The benchmarks' internal service: generated for the server's tree, never shipped."""


def _generate() -> None:
    """The contract into the client's package; the benchmarks' internal service beside
    the server's code."""
    generate(PROTOS, CLIENT / "handeval_client" / "gen", CONTRACT, "handeval_client.gen", True)
    generate(PROTOS, ROOT / "service" / "gen", BENCH, "service.gen", False)


setup(
    cmdclass=commands(_generate),
    packages=[
        *find_packages(include=["evaluators", "evaluators.*", "service", "service.*"]),
        *find_packages(str(CLIENT), include=["handeval_client", "handeval_client.*"]),
    ],
    package_dir={"handeval_client": "clients/python/handeval_client"},
    ext_modules=[
        Extension(
            ".".join(module.parts),
            [str(source) for source in sources],
            depends=[str(header) for header in headers],
            extra_compile_args=["-O3", "-std=c11", "-Wall", "-Werror"],
        )
        for module, sources, headers in _modules()
    ],
)
