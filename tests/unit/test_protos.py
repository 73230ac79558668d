"""The contract compiles with protoc alone: ``protos/`` as it is, and the files ``handeval
protos`` writes, which are the same (buf's lint and breaking checks and the wheel's contents:
tests/test_protos.py)."""

from __future__ import annotations

import tempfile
from importlib import resources
from pathlib import Path

from grpc_tools import protoc

from service.cli.main import main

PROTOS = Path(__file__).resolve().parents[2] / "protos"


def test_the_protos_compile_with_nothing_but_protoc_and_this_folder() -> None:
    well_known = resources.files("grpc_tools") / "_proto"
    files = [str(p.relative_to(PROTOS)) for p in sorted(PROTOS.glob("handeval/**/*.proto"))]
    with tempfile.TemporaryDirectory() as out:
        code = protoc.main(
            ["protoc", f"-I{PROTOS}", f"-I{well_known}", f"--python_out={out}", *files]
        )
    assert code == 0


def test_handeval_protos_writes_files_that_compile_on_their_own(tmp_path: Path) -> None:
    assert main(["protos", "--out", str(tmp_path)]) == 0
    well_known = resources.files("grpc_tools") / "_proto"
    with tempfile.TemporaryDirectory() as out:
        code = protoc.main(
            [
                "protoc",
                f"-I{tmp_path}",
                f"-I{well_known}",
                f"--python_out={out}",
                "handeval/v1/handeval.proto",
            ]
        )
    assert code == 0
    assert (tmp_path / "handeval" / "v1" / "handeval.proto").read_text() == (
        PROTOS / "handeval" / "v1" / "handeval.proto"
    ).read_text()


def test_handeval_protos_writes_the_contract_and_nothing_internal(tmp_path: Path) -> None:
    """The benchmarks' bench.proto is no part of the contract callers build against."""
    assert main(["protos", "--out", str(tmp_path)]) == 0
    written = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*.proto"))
    assert written == ["google/rpc/status.proto", "handeval/v1/handeval.proto"]
