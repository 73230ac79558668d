"""The core's front doors show how they are called, and the examples run as written:
each function named here has at least one example, and every example in its module
passes (the package's own example included)."""

from __future__ import annotations

import doctest
import importlib

import pytest

FRONT_DOORS = {
    "evaluators": (),
    "evaluators.validation": ("read_hand",),
    "evaluators.scoring": ("evaluate", "showdown"),
    "evaluators.odds.run": ("odds",),
}
"""Module -> the functions in it that must carry an example."""


@pytest.mark.parametrize("name", FRONT_DOORS)
def test_the_examples_run_as_written(name: str) -> None:
    module = importlib.import_module(name)
    tests = doctest.DocTestFinder().find(module)
    with_examples = {test.name.rsplit(".", 1)[-1] for test in tests if test.examples}
    assert set(FRONT_DOORS[name]) <= with_examples
    if not FRONT_DOORS[name]:
        assert any(test.examples for test in tests), f"{name} has no example"
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, report=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"
