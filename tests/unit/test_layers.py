"""The layers ``tests/conftest.py`` sets: ``tests/`` holds only the layers' folders, every
test carries one layer, and no test under ``tests/unit/`` starts a server."""

from __future__ import annotations

import ast

import pytest

from tests.conftest import LAYERS, TESTS

SERVER_STARTERS = {"server", "launch_server", "start_server", "fuzz_server", "own_server"}
"""The fixtures and the launcher function that start a server for a test."""


def test_tests_holds_only_the_layers_folders() -> None:
    """A test file beside conftest.py would have no layer; a folder of another name neither."""
    allowed = {*LAYERS, "conftest.py", "__init__.py", "__pycache__"}
    assert sorted(p.name for p in TESTS.iterdir() if p.name not in allowed) == []


def test_each_test_carries_exactly_one_layer(request: pytest.FixtureRequest) -> None:
    layers = [
        m.name
        for m in request.node.iter_markers()
        if m.name in {"unit", "integration", "lint", "e2e"}
    ]
    assert layers == ["unit"]


def test_no_unit_test_starts_a_server() -> None:
    """Neither asks for a server fixture nor names the launcher: a test that needs a server
    is an integration test, under ``tests/integration/``."""
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
