"""Builds what is not plain Python: the compiled kernels and the contract's generated code.
Everything else about the package is in pyproject.toml.

Kernels: one CPython extension module per ``_*.c`` file under ``evaluators/kernels/``
(and the reply writer under ``service/server/``), named for its file
(``evaluators/kernels/_poker.c`` -> ``evaluators.kernels._poker``), rebuilt when a header
beside it changes (headers share structs between modules: a stale module would misread
them). They use the C API alone (buffers in, buffers out), so a build needs gcc and the
Python headers, no other package; ``pip install -e .`` compiles them in place.

Contract: ``protos/`` is the one copy of the contract in git. The ``build_protos`` step
(first of ``build``, so in an editable install too) writes into ``service/gen/``, as
grpcio-health-checking builds its code: the protobuf/gRPC modules (grpcio-tools, a build
requirement, not a runtime one), their ``.pyi`` stubs (mypy-protobuf: they type the gRPC
stubs and servicer too, and each field carries the proto's doc comment), the descriptor
set with comments that server reflection serves (``service.server.reflection``), and the
``.proto`` files themselves (``handeval protos --out DIR`` writes them from the package).
grpc_tools writes absolute imports (``from handeval.v1 import ...``); they are rewritten
to live under ``service.gen``, so the generated package cannot clash with anything on
sys.path. Their packages' ``__init__.py`` files are committed, so the package list is
known before anything is generated. After editing a ``.proto``, ``pip install -e .
--no-deps`` regenerates.
"""

from __future__ import annotations

import re
import shutil
import sysconfig
import tempfile
from pathlib import Path
from typing import ClassVar

from setuptools import Command, Extension, setup
from setuptools.command.build import build

ROOT = Path(__file__).resolve().parent
KERNEL_SOURCES = sorted(
    [*Path("evaluators/kernels").glob("_*.c"), *Path("service/wire").glob("_*.c")]
)
PROTOS = ROOT / "protos"
GENERATED = ROOT / "service" / "gen"
PROTO_FILES = ("handeval/v1/handeval.proto", "handeval/bench/v1/bench.proto")
"""Every proto we generate code for; the bench service is registered only by benchmarks."""
DESCRIPTOR_SET = "handeval_descriptors.binpb"
SHIPPED_PROTOS = "protos"
_IMPORT = re.compile(r"^from (handeval(?:\.\w+)*) import", re.MULTILINE)


def _plugin(name: str) -> str:
    """``name=path`` of a mypy-protobuf plugin: on PATH in pip's isolated build, else
    beside this Python (a venv's Python run without the venv activated)."""
    path = shutil.which(name) or shutil.which(name, path=sysconfig.get_path("scripts"))
    if path is None:
        raise RuntimeError(f"{name} is missing: install mypy-protobuf (a build requirement)")
    return f"{name}={path}"


def _protoc(*args: str) -> None:
    """protoc on our protos (google/rpc/status.proto is vendored beside them) and the
    well-known types grpc_tools carries."""
    from importlib import resources

    from grpc_tools import protoc

    includes = [f"-I{PROTOS}", f"-I{resources.files('grpc_tools') / '_proto'}"]
    if protoc.main(["protoc", *includes, *args, *PROTO_FILES]) != 0:
        raise RuntimeError(f"protoc failed on {PROTO_FILES}")


def generate_contract(out: Path) -> None:
    """Write the generated modules, stubs, descriptor set and .proto copies under ``out``."""
    missing = [name for name in PROTO_FILES if not (PROTOS / name).is_file()]
    if missing:
        raise RuntimeError(f"{PROTOS} lacks {missing}: a build generates service/gen/ from it")
    with tempfile.TemporaryDirectory() as tmp:
        _protoc(
            f"--python_out={tmp}",
            f"--grpc_python_out={tmp}",
            *(f"--plugin={_plugin(name)}" for name in ("protoc-gen-mypy", "protoc-gen-mypy_grpc")),
            f"--mypy_out=quiet:{tmp}",
            f"--mypy_grpc_out=quiet:{tmp}",
        )
        for path in sorted(Path(tmp).rglob("*.py*")):
            target = out / path.relative_to(tmp)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(_IMPORT.sub(r"from service.gen.\1 import", path.read_text()))
    _protoc("--include_source_info", f"--descriptor_set_out={out / DESCRIPTOR_SET}")
    shutil.rmtree(out / SHIPPED_PROTOS, ignore_errors=True)
    for proto in sorted(PROTOS.rglob("*.proto")):
        if "node_modules" not in proto.parts:
            target = out / SHIPPED_PROTOS / proto.relative_to(PROTOS)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(proto, target)


class BuildProtos(Command):
    """``build_protos``: generate the contract's code into ``service/gen/``."""

    description = "generate service/gen/ from protos/"
    user_options: ClassVar[list[tuple[str, str | None, str]]] = []

    def initialize_options(self) -> None:
        pass

    def finalize_options(self) -> None:
        pass

    def run(self) -> None:
        generate_contract(GENERATED)


class Build(build):
    """``build`` with ``build_protos`` first, so ``build_py`` finds the generated files."""

    sub_commands: ClassVar = [("build_protos", None), *build.sub_commands]


setup(
    cmdclass={"build": Build, "build_protos": BuildProtos},
    ext_modules=[
        Extension(
            ".".join([*source.parent.parts, source.stem]),
            [str(source)],
            depends=[str(header) for header in sorted(source.parent.glob("*.h"))],
            extra_compile_args=["-O3", "-std=c11", "-Wall", "-Werror"],
        )
        for source in KERNEL_SOURCES
    ],
)
