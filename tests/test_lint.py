"""The code base stays ruff- and mypy-clean, and the core stays pure."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FORBIDDEN_IN_CORE = ("grpc", "google", "prometheus_client", "service")


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, check=False
    )


def test_ruff_reports_nothing() -> None:
    result = _run("ruff", "check", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict_reports_nothing() -> None:
    result = _run("mypy", "evaluators", "service", "benchmarks")
    assert result.returncode == 0, result.stdout + result.stderr


def test_evaluators_import_no_transport_or_service_code() -> None:
    offenders = []
    for path in sorted((ROOT / "evaluators").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            offenders += [
                f"{path.relative_to(ROOT)}: {name}"
                for name in names
                if name.split(".")[0] in FORBIDDEN_IN_CORE
            ]
    assert offenders == []
