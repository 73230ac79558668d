"""The contract is checked like a public API: buf's lint rules (with each exception
written down in ``protos/buf.yaml``), no breaking change against the last release
(``protos/releases/``), and the wheel carries the contract (that the ``.proto`` files compile on
their own: tests/unit/test_protos.py)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.conftest import npm_ci

PROTOS = Path(__file__).resolve().parents[2] / "protos"
LAST_RELEASE = PROTOS / "releases" / "v0.1.0.json"


@pytest.fixture(scope="module")
def buf() -> Path:
    binary = PROTOS / "node_modules" / ".bin" / "buf"
    if not binary.exists():
        npm_ci(PROTOS)
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


def test_the_wheel_carries_the_protos_and_the_commented_descriptors(tmp_path: Path) -> None:
    import sys
    import zipfile

    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "-q",
            "--no-deps",
            "--no-build-isolation",
            str(PROTOS.parent),
            "-w",
            str(tmp_path),
        ],
        check=True,
        capture_output=True,
        timeout=300,
        cwd=tmp_path,
    )
    (wheel,) = tmp_path.glob("handeval-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {
        "handeval_client/gen/protos/handeval/v1/handeval.proto",
        "handeval_client/gen/protos/google/rpc/status.proto",
        "handeval_client/gen/handeval_descriptors.binpb",
    } <= names
    assert not [name for name in names if name.endswith("bench.proto")], "bench is internal"
