"""Regenerate the committed protobuf/gRPC Python code from ``protos/``.

Run ``python -m service.gen.regenerate`` after editing a ``.proto``; a test fails while the
committed code is stale. The code is committed (not generated at install) so an install
needs no build step, the wheel is plain Python, and reviewers see API changes in diffs.
grpc_tools writes absolute imports (``from handeval.v1 import ...``); they are rewritten to
live under ``service.gen`` so the generated package cannot clash with anything on sys.path.
The ``.pyi`` stubs come from mypy-protobuf (pinned in the ``test`` extra, like grpcio-tools
in the dependencies: its output is committed) rather than protoc's own ``--pyi_out``: they
type the gRPC stubs and servicer too, and each field carries the proto's doc comment.
"""

from __future__ import annotations

import re
import sys
import sysconfig
import tempfile
from importlib import resources
from pathlib import Path

from grpc_tools import protoc

ROOT = Path(__file__).resolve().parents[2]
PROTOS = ROOT / "protos"
OUT = Path(__file__).resolve().parent
PROTO_FILES = ("handeval/v1/handeval.proto", "handeval/bench/v1/bench.proto")
"""Every proto we generate code for; the bench service is registered only by benchmarks."""
DESCRIPTOR_SET = "handeval_descriptors.binpb"
"""Written beside the code: every proto above with its comments (source info)."""
SHIPPED_PROTOS = "protos"
"""Copies of ``protos/`` inside the package, so the wheel carries the contract
(``handeval protos --out DIR`` writes them)."""
_IMPORT = re.compile(r"^from (handeval(?:\.\w+)*) import", re.MULTILINE)


def _include_dirs() -> list[str]:
    """Our protos (with google/rpc vendored), grpc_tools' well-known types, googleapis."""
    import google.rpc

    googleapis = Path(next(iter(google.rpc.__path__))).parent.parent
    return [str(PROTOS), str(resources.files("grpc_tools") / "_proto"), str(googleapis)]


def _plugin(name: str) -> str:
    """``name=path`` of a mypy-protobuf plugin installed beside this Python, which need not
    be on PATH (a test run as ``.venv/bin/python`` without the venv activated)."""
    path = Path(sysconfig.get_path("scripts")) / name
    if not path.is_file():
        raise RuntimeError(f"{path} is missing: install the test extra (mypy-protobuf)")
    return f"{name}={path}"


def generate(out_dir: Path) -> dict[str, str | bytes]:
    """Generate into ``out_dir`` and return {relative path: text} of every generated file."""
    args = ["protoc", *(f"-I{d}" for d in _include_dirs())]
    args += [f"--python_out={out_dir}", f"--grpc_python_out={out_dir}"]
    args += [f"--plugin={_plugin(name)}" for name in ("protoc-gen-mypy", "protoc-gen-mypy_grpc")]
    args += [f"--mypy_out=quiet:{out_dir}", f"--mypy_grpc_out=quiet:{out_dir}"]
    if protoc.main([*args, *PROTO_FILES]) != 0:
        raise RuntimeError("protoc failed")
    files: dict[str, str | bytes] = {}
    for path in sorted(out_dir.rglob("*.py*")):
        text = _IMPORT.sub(r"from service.gen.\1 import", path.read_text())
        files[str(path.relative_to(out_dir))] = text
    files[DESCRIPTOR_SET] = _descriptor_set(out_dir / DESCRIPTOR_SET)
    for proto in sorted(PROTOS.rglob("*.proto")):
        if "node_modules" not in proto.parts:
            files[f"{SHIPPED_PROTOS}/{proto.relative_to(PROTOS)}"] = proto.read_text()
    return files


def _descriptor_set(path: Path) -> bytes:
    """Our files as a FileDescriptorSet with their comments, for server reflection
    (``service.server.reflection``): generated code keeps no comments."""
    args = ["protoc", *(f"-I{d}" for d in _include_dirs()), "--include_source_info"]
    if protoc.main([*args, f"--descriptor_set_out={path}", *PROTO_FILES]) != 0:
        raise RuntimeError("protoc failed")
    return path.read_bytes()


def generated_now() -> dict[str, str | bytes]:
    with tempfile.TemporaryDirectory() as tmp:
        return generate(Path(tmp))


def main() -> int:
    for rel, text in generated_now().items():
        target = OUT / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            target.write_bytes(text)
        else:
            target.write_text(text)
        for package in target.relative_to(OUT).parents if target.suffix == ".py" else ():
            if package != Path("."):
                (OUT / package / "__init__.py").touch()
        print(f"wrote {target.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
