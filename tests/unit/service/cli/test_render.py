"""Rendering for people (``service.cli.render``): columns two spaces apart with no
trailing spaces, enum and game names as people write them."""

from __future__ import annotations

from handeval_client.gen.handeval.v1 import handeval_pb2 as pb

from service.cli.render import cards, enum_text, game_slug, percent, table


def test_a_table_aligns_its_columns_and_leaves_no_trailing_spaces() -> None:
    text = table([["a", "1"], ["longer", "22"]], ["name", "n"])
    assert text.splitlines() == ["name    n", "a       1", "longer  22"]
    assert table([]) == ""


def test_names_and_figures_read_as_people_write_them() -> None:
    assert game_slug(pb.GAME_POKER_HIGH) == "poker-high"
    assert enum_text(pb.Game, pb.GAME_POKER_HIGH, "GAME_") == "poker high"
    assert cards([]) == "-" and cards(["Ah", "Kd"]) == "Ah Kd"
    assert percent(0.12345) == "12.35%"
