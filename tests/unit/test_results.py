"""``evaluators.results``: what every game's figures rely on."""

from __future__ import annotations

import pytest

from evaluators.games.numbers import RULES as NUMBERS
from evaluators.games.poker_high import PokerDetail
from evaluators.inputs import Options
from evaluators.point_totals import PointsDetail


def test_detail_as_answers_the_games_own_kind() -> None:
    evaluation = NUMBERS.evaluate((0, 4), (), (), Options())
    assert evaluation.detail_as(PointsDetail) is evaluation.detail


def test_detail_as_refuses_another_games_kind_naming_both() -> None:
    evaluation = NUMBERS.evaluate((0, 4), (), (), Options())
    with pytest.raises(TypeError, match="needs a PokerDetail, got PointsDetail"):
        evaluation.detail_as(PokerDetail)
