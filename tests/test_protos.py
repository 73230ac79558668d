"""The contract is checked like a public API: buf's lint rules (with each exception
written down in ``protos/buf.yaml``), no breaking change against the last release
(``protos/releases/``), and the ``.proto`` files compile on their own."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from importlib import resources
from pathlib import Path

import pytest
from grpc_tools import protoc

PROTOS = Path(__file__).resolve().parents[1] / "protos"
LAST_RELEASE = PROTOS / "releases" / "v0.1.0.json"
NEEDS_NPM = os.environ.get("CI") == "true"


@pytest.fixture(scope="module")
def buf() -> Path:
    binary = PROTOS / "node_modules" / ".bin" / "buf"
    if not binary.exists():
        if not shutil.which("npm"):
            if NEEDS_NPM:
                pytest.fail("npm is needed in CI to install the pinned buf")
            pytest.skip("npm not installed")
        subprocess.run(
            ["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"],
            cwd=PROTOS,
            check=True,
            capture_output=True,
            timeout=300,
        )
    return binary


def _buf(buf: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(buf), *args], cwd=PROTOS, capture_output=True, text=True, timeout=120, check=False
    )


def test_buf_lint_reports_nothing(buf: Path) -> None:
    result = _buf(buf, "lint")
    assert result.returncode == 0, result.stdout + result.stderr


def test_no_breaking_change_against_the_last_release(buf: Path) -> None:
    result = _buf(buf, "breaking", "--against", str(LAST_RELEASE.relative_to(PROTOS)))
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_protos_compile_with_nothing_but_protoc_and_this_folder() -> None:
    well_known = resources.files("grpc_tools") / "_proto"
    files = [str(p.relative_to(PROTOS)) for p in sorted(PROTOS.glob("handeval/**/*.proto"))]
    with tempfile.TemporaryDirectory() as out:
        code = protoc.main(
            ["protoc", f"-I{PROTOS}", f"-I{well_known}", f"--python_out={out}", *files]
        )
    assert code == 0
