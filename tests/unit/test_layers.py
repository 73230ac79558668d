"""The layers ``tests/conftest.py`` sets: its table names real files, every test carries one
layer, and no test under ``tests/unit/`` starts a server."""

from __future__ import annotations

import ast

import pytest

from tests.conftest import LAYERS, TESTS

SERVER_STARTERS = {"server", "launch_server", "start_server", "fuzz_server", "own_server"}
"""The fixtures and the launcher function that start a server for a test."""


def test_every_file_in_the_layer_table_is_a_test_file_beside_it() -> None:
    """An entry for a moved or deleted file would silently stop marking anything; a file
    under tests/unit/ needs none."""
    assert sorted(name for name in LAYERS if not (TESTS / name).is_file()) == []


def test_each_test_carries_exactly_one_layer(request: pytest.FixtureRequest) -> None:
    layers = [
        m.name
        for m in request.node.iter_markers()
        if m.name in {"unit", "integration", "lint", "e2e"}
    ]
    assert layers == ["unit"]


def test_no_unit_test_starts_a_server() -> None:
    """Neither asks for a server fixture nor names the launcher: a test that needs a server
    is an integration test, beside ``conftest.py``."""
    offenders = []
    for path in sorted((TESTS / "unit").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            names: list[str] = []
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                names = [arg.arg for arg in node.args.args]
            elif isinstance(node, ast.ImportFrom):
                names = [alias.name for alias in node.names]
            offenders += [
                f"{path.relative_to(TESTS)}:{node.lineno}: {name}"
                for name in names
                if name in SERVER_STARTERS
            ]
    assert offenders == []
