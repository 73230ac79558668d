"""``evaluators.odds`` is the front door, above the games: a game module (or anything the
games import) loads before it without a cycle, and loading it loads the registry."""

from __future__ import annotations

import subprocess
import sys


def test_a_game_module_imports_before_the_front_door_without_a_cycle() -> None:
    """The games import ``game_odds`` and ``runouts`` while the registry loads."""
    for first in ("evaluators.game_rules", "evaluators.games.numbers", "evaluators.validation"):
        run = [sys.executable, "-c", f"import {first}; from evaluators.odds import odds"]
        assert subprocess.run(run, capture_output=True, check=False).returncode == 0, first
