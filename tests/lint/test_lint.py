"""The code base stays ruff-clean, ruff-formatted and strict-mypy-clean, and the import rules
hold: the core stays pure, the client side imports nothing of the server side, and no shared
module names a game (the ``lint`` layer, tests/conftest.py)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from evaluators.inputs import Game

ROOT = Path(__file__).resolve().parents[2]
FORBIDDEN_IN_CORE = ("grpc", "google", "opentelemetry", "prometheus_client", "service")
GAME_NAMES = [game.name for game in Game]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, check=False
    )


def test_ruff_reports_nothing() -> None:
    result = _run("ruff", "check", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format_would_change_nothing() -> None:
    result = _run("ruff", "format", "--check", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict_reports_nothing() -> None:
    result = _run("mypy")  # the files pyproject.toml names
    assert result.returncode == 0, result.stdout + result.stderr


def _imports(folder: Path) -> list[tuple[str, str]]:
    """(file, module) for every absolute import in the Python files under ``folder``."""
    found = []
    for path in sorted(folder.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            found += [(str(path.relative_to(ROOT)), name) for name in names]
    return found


def test_evaluators_import_no_transport_or_service_code() -> None:
    offenders = [
        f"{path}: {name}"
        for path, name in _imports(ROOT / "evaluators")
        if name.split(".")[0] in FORBIDDEN_IN_CORE
    ]
    assert offenders == []


def _reaching(folder: str, packages: tuple[str, ...]) -> list[str]:
    """``file: module`` for each import under ``service/<folder>`` of any of ``packages``
    (lazy imports inside functions too)."""
    return [
        f"{path}: {name}"
        for path, name in _imports(ROOT / "service" / folder)
        if any(name == package or name.startswith(package + ".") for package in packages)
    ]


@pytest.mark.parametrize("folder", ["client", "cli"])
def test_the_client_and_the_cli_never_import_the_server_side(folder: str) -> None:
    assert _reaching(folder, ("service.server",)) == []


def test_the_client_never_imports_the_cli() -> None:
    assert _reaching("client", ("service.cli",)) == []


CLIENT_MAY_IMPORT = ("handeval_client", "grpc", "grpc_health", "grpc_status", "google", "numpy")
"""The client distribution's runtime needs (its pyproject.toml), and itself."""


def test_the_client_package_imports_only_its_dependencies_and_the_standard_library() -> None:
    """``handeval_client`` installs alone: nothing of the server, the core, the benchmarks
    or the tests, and no package its wheel does not declare."""
    offenders = [
        f"{path}: {name}"
        for path, name in _imports(ROOT / "clients" / "python" / "handeval_client")
        if "/gen/" not in path
        and name.split(".")[0] not in (*CLIENT_MAY_IMPORT, *sys.stdlib_module_names)
    ]
    assert offenders == []


def test_the_wire_layer_imports_neither_server_nor_client_nor_cli() -> None:
    assert _reaching("wire", ("service.server", "service.client", "service.cli")) == []


def _games_named(paths: list[Path]) -> list[str]:
    """``Game.X`` or ``pb.GAME_X`` in the code (not the prose) of ``paths``."""
    wire = {f"GAME_{name}" for name in GAME_NAMES}
    offenders = []
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Attribute) and (
                node.attr in wire
                or (
                    node.attr in GAME_NAMES
                    and isinstance(node.value, ast.Name)
                    and node.value.id == "Game"
                )
            ):
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.attr}")
    return offenders


def test_no_service_module_names_a_game() -> None:
    """Anywhere under service/ but gen/."""
    paths = [
        path
        for path in sorted((ROOT / "service").rglob("*.py"))
        if "gen" not in path.relative_to(ROOT / "service").parts
    ]
    assert _games_named(paths) == []


def test_no_shared_core_module_names_a_game() -> None:
    """evaluators/ outside games/ and the registry: a game's rules live in its module, and
    what several games share reaches them through ``GameRules``."""
    paths = [
        path
        for path in sorted((ROOT / "evaluators").rglob("*.py"))
        if "games" not in path.relative_to(ROOT / "evaluators").parts and path.name != "registry.py"
    ]
    assert _games_named(paths) == []


def test_every_game_the_code_names_is_a_member_of_game() -> None:
    """``Game`` is built from ``evaluators.games.MODULES`` at run time, so mypy reads any
    ``Game.NAME`` as a game; this holds the names to the members instead."""
    folders = ("evaluators", "service", "benchmarks", "tests", "examples")
    unknown = [
        f"{path.relative_to(ROOT)}:{node.lineno}: Game.{node.attr}"
        for folder in folders
        for path in sorted((ROOT / folder).rglob("*.py"))
        if "node_modules" not in path.parts
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "Game"
        and node.attr.isupper()
        and node.attr not in GAME_NAMES
    ]
    assert unknown == []
