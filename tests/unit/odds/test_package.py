"""``evaluators.odds`` exports its front door lazily (its ``__init__`` says why): every
name it lists resolves to its module's object, and the type checker's list is that list."""

from __future__ import annotations

import ast
import importlib
import inspect
import subprocess
import sys

import evaluators.odds as package


def test_every_exported_name_is_its_modules_own() -> None:
    for module, names in package.EXPORTS.items():
        source = importlib.import_module(f"evaluators.odds.{module}")
        for name in names:
            assert getattr(package, name) is getattr(source, name), name


def test_the_type_checkers_names_are_the_exported_ones() -> None:
    tree = ast.parse(inspect.getsource(package))
    checked = {
        (node.module, alias.name)
        for block in tree.body
        if isinstance(block, ast.If)
        for node in block.body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }
    exported = {(f"evaluators.odds.{m}", n) for m, names in package.EXPORTS.items() for n in names}
    assert checked == exported


def test_a_game_module_imports_before_the_front_door_without_a_cycle() -> None:
    """The games import ``odds.rules`` and ``odds.showdown`` while the registry loads."""
    for first in ("evaluators.game_rules", "evaluators.games.numbers", "evaluators.validation"):
        run = [sys.executable, "-c", f"import {first}; from evaluators.odds import odds"]
        assert subprocess.run(run, capture_output=True, check=False).returncode == 0, first
