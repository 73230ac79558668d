"""The layer table in ``tests/conftest.py`` names real files and marks every test."""

from __future__ import annotations

import pytest

from tests.conftest import LAYERS, TESTS


def test_every_file_in_the_layer_table_is_a_test_file_beside_it() -> None:
    """An entry for a moved or deleted file would silently stop marking anything; a file
    under tests/unit/ needs none."""
    assert sorted(name for name in LAYERS if not (TESTS / name).is_file()) == []


def test_each_test_carries_exactly_one_layer(request: pytest.FixtureRequest) -> None:
    layers = [
        m.name for m in request.node.iter_markers() if m.name in {"unit", "integration", "e2e"}
    ]
    assert layers == ["unit"]
