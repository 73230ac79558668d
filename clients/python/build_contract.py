"""Generates Python code from the contract's ``.proto`` files: used by this folder's
``setup.py`` (the client's wheel) and by the repository's ``setup.py`` (the server, which
carries the client), so both builds write the same files the same way.

``generate(protos, out, files, package)`` writes, under ``out``: the protobuf and gRPC
modules (grpcio-tools) with their ``.pyi`` stubs (mypy-protobuf: the stubs type the gRPC
stubs too and carry each field's doc comment), imports rewritten from ``handeval.v1`` to
``<package>.handeval.v1`` so the generated package cannot clash with anything on
``sys.path``. With ``ship=True`` also the descriptor set with comments (what server
reflection serves) and the ``.proto`` files themselves (``handeval protos --out DIR``).
grpcio-tools and mypy-protobuf are build requirements, never runtime ones.
``commands(run)`` gives a setup.py the ``build_protos`` step that calls ``run``, run
first of ``build`` (an editable install too).
"""

from __future__ import annotations

import re
import shutil
import sysconfig
import tempfile
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import ClassVar

from setuptools import Command
from setuptools.command.build import build

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


def _protoc(protos: Path, files: tuple[str, ...], *args: str) -> None:
    """protoc on ``files`` under ``protos`` (google/rpc/status.proto is vendored beside
    them) and the well-known types grpc_tools carries."""
    from grpc_tools import protoc

    includes = [f"-I{protos}", f"-I{resources.files('grpc_tools') / '_proto'}"]
    if protoc.main(["protoc", *includes, *args, *files]) != 0:
        raise RuntimeError(f"protoc failed on {files}")


def generate(protos: Path, out: Path, files: tuple[str, ...], package: str, ship: bool) -> None:
    """Write the generated modules and stubs of ``files`` (paths under ``protos``) into
    ``out``, importing each other as ``package``; with ``ship``, the descriptor set and
    copies of the ``.proto`` files they need too."""
    missing = [name for name in files if not (protos / name).is_file()]
    if missing:
        raise RuntimeError(f"{protos} lacks {missing}: the build generates code from them")
    with tempfile.TemporaryDirectory() as tmp:
        _protoc(
            protos,
            files,
            f"--python_out={tmp}",
            f"--grpc_python_out={tmp}",
            *(f"--plugin={_plugin(name)}" for name in ("protoc-gen-mypy", "protoc-gen-mypy_grpc")),
            f"--mypy_out=quiet:{tmp}",
            f"--mypy_grpc_out=quiet:{tmp}",
        )
        for path in sorted(Path(tmp).rglob("*.py*")):
            target = out / path.relative_to(tmp)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(_IMPORT.sub(rf"from {package}.\1 import", path.read_text()))
    if not ship:
        return
    _protoc(protos, files, "--include_source_info", f"--descriptor_set_out={out / DESCRIPTOR_SET}")
    shutil.rmtree(out / SHIPPED_PROTOS, ignore_errors=True)
    needed = [*files, *_imports(protos, files)]
    for name in needed:
        target = out / SHIPPED_PROTOS / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(protos / name, target)


def _imports(protos: Path, files: tuple[str, ...]) -> list[str]:
    """The files ``files`` import that live under ``protos`` (vendored, like
    google/rpc/status.proto), not the well-known types protoc carries."""
    found = []
    for name in files:
        for match in re.finditer(r'^import "([^"]+)";', (protos / name).read_text(), re.M):
            if (protos / match.group(1)).is_file() and match.group(1) not in found:
                found.append(match.group(1))
    return found


def commands(run: Callable[[], None]) -> dict[str, type[Command]]:
    """setup.py's ``cmdclass``: ``build_protos`` calls ``run``, and ``build`` runs it first,
    so ``build_py`` finds the generated files."""

    class BuildProtos(Command):
        description = "generate Python code from protos/"
        user_options: ClassVar[list[tuple[str, str | None, str]]] = []

        def initialize_options(self) -> None:
            pass

        def finalize_options(self) -> None:
            pass

        def run(self) -> None:
            run()

    class Build(build):
        sub_commands: ClassVar = [("build_protos", None), *build.sub_commands]

    return {"build": Build, "build_protos": BuildProtos}
