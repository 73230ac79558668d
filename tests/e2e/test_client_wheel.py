"""The client installs alone: its wheel is pure (``py3-none-any``), adds no top-level name
but ``handeval_client``, installs into a fresh venv where no C compiler is on ``PATH``, and
its README's example run there against a real server prints what the README shows."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

from tests.conftest import ServerProcess
from tests.integration.test_readme import CLIENT_README, printed_comments, python_example

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
         str(ROOT / "clients" / "python"), "-w", str(out)],
        check=True, capture_output=True, timeout=300, cwd=out,
    )  # fmt: skip
    (built,) = out.glob("handeval_client-*.whl")
    return built


def test_the_client_wheel_is_pure_python(wheel: Path) -> None:
    assert wheel.name.endswith("-py3-none-any.whl")
    assert not [n for n in zipfile.ZipFile(wheel).namelist() if n.endswith((".so", ".c", ".pyd"))]


def test_the_client_wheel_adds_one_top_level_name(wheel: Path) -> None:
    tops = {name.split("/")[0] for name in zipfile.ZipFile(wheel).namelist()}
    assert tops == {"handeval_client", "handeval_client-0.1.0.dist-info"}


def test_the_wheel_installs_without_a_compiler_and_runs_the_readme_example(
    wheel: Path, server: ServerProcess, tmp_path: Path
) -> None:
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    bin_dir = env_dir / "bin"
    assert shutil.which("cc", path=str(bin_dir)) is None
    # Only the venv's programs: no cc, gcc or python headers' tool chain to fall back on.
    env = {"PATH": str(bin_dir), "HOME": str(tmp_path), "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    env |= {k: v for k, v in os.environ.items() if k.startswith(("PIP_", "http", "HTTP"))}
    subprocess.run(
        [str(bin_dir / "pip"), "install", "-q", "--only-binary=:all:", str(wheel)],
        check=True, capture_output=True, timeout=600, env=env,
    )  # fmt: skip
    code = python_example(CLIENT_README.read_text()).replace("localhost:50051", server.target)
    ran = subprocess.run(
        [str(bin_dir / "python"), "-c", code],
        capture_output=True, text=True, timeout=120, env=env, cwd=tmp_path,
    )  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.splitlines() == printed_comments(code)
