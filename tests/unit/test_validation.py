"""Request checks (evaluators/validation.py): docs/api.md's INVALID_ARGUMENT cases for the core.

Each case names the exact field path the caller sees, and a request with several problems
reports all of them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evaluators.batch import read_batch
from evaluators.cards import card_text, parse_card
from evaluators.errors import InvalidRequest, Violation
from evaluators.inputs import Declaration, Game, HandRequest, Options, ShowdownRequest, TonkEnding
from evaluators.validation import SeatText, read_hand, read_showdown, rules_for
from tests.unit.games.examples import examples

DISCARD_GAMES = [Game.NUMBERS, Game.FLORIDA_BINGO, Game.FLOP_A, Game.THREE_THIRTY_THREE]
NON_JOKER_GAMES = [g for g in Game if g is not Game.NOT_POKER]


def violations_of_hand(
    game: Game | None,
    hand: Sequence[str],
    table: Sequence[str] = (),
    table_spreads: Sequence[Sequence[str]] = (),
) -> list[Violation]:
    with pytest.raises(InvalidRequest) as error:
        read_hand(game, hand, table, table_spreads)
    assert error.value.violations, "InvalidRequest without a violation"
    return list(error.value.violations)


def violations_of_showdown(
    game: Game | None,
    seats: Sequence[SeatText],
    table: Sequence[str] = (),
    table_spreads: Sequence[Sequence[str]] = (),
) -> list[Violation]:
    with pytest.raises(InvalidRequest) as error:
        read_showdown(game, seats, table, table_spreads)
    assert error.value.violations, "InvalidRequest without a violation"
    return list(error.value.violations)


def fields(violations: Sequence[Violation]) -> list[str]:
    return [v.field for v in violations]


def message_at(violations: Sequence[Violation], field: str) -> str:
    found = [v.message for v in violations if v.field == field]
    assert len(found) == 1, f"expected one violation at {field}, got {violations}"
    return found[0]


def ids(*texts: str) -> tuple[int, ...]:
    return tuple(parse_card(t) for t in texts)


def valid(game: Game) -> tuple[list[str], list[str], list[list[str]]]:
    """A valid single-hand request of ``game``, (hand, table, table_spreads): its example."""
    example = examples(game)
    return example.hand, example.table, example.spreads


# --- what passes ---------------------------------------------------------------------------


@pytest.mark.parametrize("game", list(Game))
def test_a_valid_hand_of_each_game_passes_with_its_cards_as_ids(game: Game) -> None:
    hand, table, spreads = valid(game)
    request = read_hand(game, hand, table, spreads)
    assert request == HandRequest(game, ids(*hand), ids(*table), tuple(ids(*s) for s in spreads))


def test_card_notation_is_read_in_every_accepted_spelling() -> None:
    request = read_hand(Game.POKER_HIGH, ["ah", "10♥"], ["Q♥", "jH", "9h"])
    assert request.hand == ids("Ah", "Th")
    assert request.table == ids("Qh", "Jh", "9h")


def test_a_valid_showdown_passes_with_seats_in_order() -> None:
    request = read_showdown(
        Game.POKER_HIGH,
        [("ann", ["Ah", "Kh"], None), ("bob", ["2c", "2d"], None)],
        ["Qh", "Jh", "Th"],
    )
    assert isinstance(request, ShowdownRequest)
    assert [(s.player, s.hand) for s in request.seats] == [
        ("ann", ids("Ah", "Kh")),
        ("bob", ids("2c", "2d")),
    ]


def test_a_declaration_outside_flop_a_is_ignored_not_refused() -> None:
    request = read_showdown(
        Game.NUMBERS,
        [("ann", ["Ah"], Declaration.HIGH), ("bob", ["2c"], None)],
        ["5d"],
    )
    assert request.seats[0].declaration is Declaration.HIGH


def test_high_card_table_may_pair() -> None:
    table = ["Ad", "2h", "3c", "3s", "9h"]
    assert read_hand(Game.HIGH_CARD, ["Ah", "2c", "3d", "4s", "5h"], table).table == ids(*table)


def test_poker_table_may_pair() -> None:
    assert read_hand(Game.POKER_HIGH, ["Ah", "Kh"], ["Qh", "Qd", "Qs"]).hand == ids("Ah", "Kh")


# --- unknown card text ---------------------------------------------------------------------


def test_unknown_card_text_in_the_hand_names_its_index() -> None:
    violations = violations_of_hand(Game.POKER_HIGH, ["Ah", "Zz"], ["2c", "3c", "4c"])
    assert fields(violations) == ["hand[1]"]
    assert "'Zz' is not a card" in violations[0].message


def test_unknown_card_text_on_the_table_names_its_index() -> None:
    violations = violations_of_hand(Game.POKER_HIGH, ["Ah", "Kh"], ["2c", "3c", "11c"])
    assert fields(violations) == ["table[2]"]


def test_unknown_card_text_in_a_seat_names_the_seat_and_index() -> None:
    violations = violations_of_showdown(
        Game.POKER_HIGH,
        [("ann", ["Ah", "Kh"], None), ("bob", ["2c", "1d"], None)],
        ["Qh", "Jh", "Th"],
    )
    assert fields(violations) == ["seats[1].hand[1]"]


# --- jokers ----------------------------------------------------------------------------------


@pytest.mark.parametrize("game", NON_JOKER_GAMES)
def test_a_joker_is_refused_outside_not_poker(game: Game) -> None:
    hand, table, spreads = valid(game)
    violations = violations_of_hand(game, ["X2", *hand[1:]], table, spreads)
    assert "hand[0]" in fields(violations)
    assert message_at(violations, "hand[0]") == f"jokers are not used in {rules_for(game).name}"


def test_a_joker_on_the_table_is_refused_outside_not_poker() -> None:
    violations = violations_of_hand(Game.NUMBERS, ["Ah"], ["4s", "X1"])
    assert fields(violations) == ["table[1]"]


def test_a_joker_in_a_seat_is_refused_outside_not_poker() -> None:
    violations = violations_of_showdown(
        Game.GROCERY_STORE_DOTS,
        [
            ("ann", ["Ah", "2c", "3d", "4s", "X1"], None),
            ("bob", ["2h", "3h", "4h", "5h", "6h"], None),
        ],
    )
    assert fields(violations) == ["seats[0].hand[4]"]


def test_both_jokers_are_accepted_in_not_poker() -> None:
    assert read_hand(Game.NOT_POKER, ["x1", "X2", "2c", "3c", "4c", "5c"]).hand[:2] == (52, 53)


# --- one deck ------------------------------------------------------------------------------


def test_a_card_repeated_within_the_hand_is_refused_at_the_repeat() -> None:
    violations = violations_of_hand(Game.POKER_HIGH, ["Ah", "AH"], ["2c", "3c", "4c"])
    assert violations == [Violation("hand[1]", "duplicate card 'Ah': also at hand[0]")]


def test_a_hand_card_repeated_on_the_table_is_refused_at_the_table() -> None:
    violations = violations_of_hand(Game.POKER_HIGH, ["Ah", "Kh"], ["2c", "A♥", "4c"])
    assert violations == [Violation("table[1]", "duplicate card 'Ah': also at hand[0]")]


def test_a_repeated_joker_is_a_duplicate_card() -> None:
    violations = violations_of_hand(Game.NOT_POKER, ["X1", "x1", "2c", "3c", "4c", "5c"])
    assert fields(violations) == ["hand[1]"]


def test_a_card_in_two_seats_is_refused_at_the_later_seat() -> None:
    violations = violations_of_showdown(
        Game.POKER_HIGH,
        [("ann", ["Ah", "Kh"], None), ("bob", ["2c", "Kh"], None)],
        ["Qh", "Jh", "Th"],
    )
    assert violations == [
        Violation("seats[1].hand[1]", "duplicate card 'Kh': also at seats[0].hand[1]")
    ]


def test_a_seat_card_repeated_on_the_table_is_refused_at_the_table() -> None:
    violations = violations_of_showdown(
        Game.POKER_HIGH,
        [("ann", ["Ah", "Kh"], None), ("bob", ["2c", "2d"], None)],
        ["Qh", "2d", "Th"],
    )
    assert violations == [Violation("table[1]", "duplicate card '2d': also at seats[1].hand[1]")]


# --- the table -------------------------------------------------------------------------------


@pytest.mark.parametrize("game", DISCARD_GAMES)
def test_a_paired_table_is_refused_in_discard_games(game: Game) -> None:
    violations = violations_of_hand(game, ["Ah"], ["5c", "9d", "5h"])
    assert fields(violations) == ["table[2]"]
    message = violations[0].message
    assert "pairs" in message
    assert "table[0]" in message


def test_a_paired_table_is_refused_in_a_discard_game_showdown() -> None:
    violations = violations_of_showdown(
        Game.FLOP_A,
        [("ann", ["Ah"], Declaration.HIGH), ("bob", ["2c"], Declaration.LOW)],
        ["Kc", "Kd"],
    )
    assert fields(violations) == ["table[1]"]


# --- sizes -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "hand_size", "allowed"),
    [
        (Game.NUMBERS, 6, "1-5"),
        (Game.FLORIDA_BINGO, 0, "1-5"),
        (Game.FLOP_A, 4, "1-3"),
        (Game.THREE_THIRTY_THREE, 4, "1-3"),
        (Game.HIGH_CARD, 4, "5"),
        (Game.GROCERY_STORE_DOTS, 8, "5-7"),
        (Game.GROCERY_STORE_DOTS, 4, "5-7"),
        (Game.POKER_HIGH, 8, "1-7"),
        (Game.NOT_POKER, 5, "6"),
        (Game.TONK, 11, "1-10"),
        (Game.TONK, 0, "1-10"),
    ],
)
def test_a_wrong_hand_size_names_the_allowed_range(
    game: Game, hand_size: int, allowed: str
) -> None:
    deck = [r + s for s in "cdhs" for r in "23456789TJQKA"]
    table = valid(game)[1]
    hand = [c for c in deck if c not in table][:hand_size]
    if game is Game.POKER_HIGH:
        table = []
    violations = violations_of_hand(game, hand, table)
    messages = [v.message for v in violations if v.field == "hand"]
    assert any(f"has {hand_size} card" in m and allowed in m for m in messages), messages


@pytest.mark.parametrize(
    ("game", "table_size", "allowed"),
    [
        (Game.NUMBERS, 8, "0-7"),
        (Game.FLOP_A, 6, "0-5"),
        (Game.THREE_THIRTY_THREE, 5, "0-4"),
        (Game.HIGH_CARD, 4, "5"),
        (Game.GROCERY_STORE_DOTS, 1, "0"),
        (Game.NOT_POKER, 2, "0"),
        (Game.TONK, 1, "0"),
    ],
)
def test_a_wrong_table_size_names_the_allowed_range(
    game: Game, table_size: int, allowed: str
) -> None:
    hand = valid(game)[0]
    table = [r + "s" for r in "23456789TJQKA" if r + "s" not in hand][:table_size]
    violations = violations_of_hand(game, hand, table)
    message = message_at(violations, "table")
    assert f"has {table_size} card" in message
    assert allowed in message


def test_a_wrong_size_message_counts_one_card_in_the_singular() -> None:
    violations = violations_of_hand(
        Game.GROCERY_STORE_DOTS, valid(Game.GROCERY_STORE_DOTS)[0], ["2s"]
    )
    assert message_at(violations, "table").startswith("the table has 1 card;")


@pytest.mark.parametrize(
    ("hand", "table"),
    [(["Ah", "Kh"], ["Qh", "Jh"]), (["Ah", "Kh", "2c", "3c"], ["Qh", "Jh", "Th", "9h"])],
)
def test_poker_hand_and_table_together_must_be_five_to_seven(
    hand: list[str], table: list[str]
) -> None:
    violations = violations_of_hand(Game.POKER_HIGH, hand, table)
    message = message_at(violations, "hand")
    assert f"together have {len(hand) + len(table)} cards" in message
    assert "5-7" in message


def test_a_wrong_hand_size_in_a_seat_names_the_seat() -> None:
    violations = violations_of_showdown(
        Game.NOT_POKER,
        [("ann", ["2c", "3c", "4c", "5c", "6c", "7c"], None), ("bob", ["2d", "3d"], None)],
    )
    assert fields(violations) == ["seats[1].hand"]
    assert "6" in violations[0].message


# --- missing game, spreads, seats ------------------------------------------------------------


def test_a_missing_game_is_refused_at_the_game_field() -> None:
    violations = violations_of_hand(None, ["Ah"])
    assert fields(violations) == ["game"]
    assert "missing" in violations[0].message


def test_a_missing_game_is_refused_in_a_showdown_too() -> None:
    violations = violations_of_showdown(None, [("ann", ["Ah"], None), ("bob", ["Kd"], None)])
    assert fields(violations) == ["game"]


def test_a_missing_game_still_reports_bad_cards_and_duplicates() -> None:
    violations = violations_of_hand(None, ["Ah", "Zz", "ah"])
    assert fields(violations) == ["game", "hand[1]", "hand[2]"]


def test_a_missing_game_still_reports_seat_problems() -> None:
    violations = violations_of_showdown(None, [("ann", ["Ah"], None), ("ann", ["AH", "?"], None)])
    assert fields(violations) == ["game", "seats[1].player", "seats[1].hand[1]", "seats[1].hand[0]"]


@pytest.mark.parametrize("game", [g for g in Game if g is not Game.TONK])
def test_table_spreads_are_refused_outside_tonk(game: Game) -> None:
    hand, table, _ = valid(game)
    violations = violations_of_hand(game, hand, table, [["5c", "5d", "5s"]])
    assert fields(violations) == ["table_spreads"]
    assert rules_for(game).name in violations[0].message


def test_tonk_reads_table_spreads() -> None:
    request = read_hand(Game.TONK, ["Ah", "2c"], table_spreads=[["5c", "5d", "5s"]])
    assert request.table_spreads == (ids("5c", "5d", "5s"),)


@pytest.mark.parametrize("count", [0, 1])
def test_a_showdown_needs_at_least_two_seats(count: int) -> None:
    one: SeatText = ("ann", ["Ah", "Kh"], None)
    seats = [one][:count]
    violations = violations_of_showdown(Game.POKER_HIGH, seats, ["Qh", "Jh", "Th"])
    assert fields(violations) == ["seats"]
    assert f"at least 2 seats, got {count}" in violations[0].message


def test_a_duplicate_player_id_is_refused_at_the_later_seat() -> None:
    violations = violations_of_showdown(
        Game.POKER_HIGH,
        [("ann", ["Ah", "Kh"], None), ("bob", ["2c", "2d"], None), ("ann", ["3c", "3d"], None)],
        ["Qh", "Jh", "Th"],
    )
    assert violations == [Violation("seats[2].player", "duplicate player id 'ann': also seats[0]")]


def test_an_empty_player_id_is_refused() -> None:
    violations = violations_of_showdown(
        Game.POKER_HIGH, [("", ["Ah", "Kh"], None), ("bob", ["2c", "2d"], None)], ["Qh", "Jh", "Th"]
    )
    assert fields(violations) == ["seats[0].player"]


def test_a_flop_a_seat_without_a_declaration_is_refused() -> None:
    violations = violations_of_showdown(
        Game.FLOP_A,
        [("ann", ["Ah"], Declaration.BOTH), ("bob", ["2c"], None), ("cy", ["3c"], None)],
        ["Kd"],
    )
    assert fields(violations) == ["seats[1].declaration", "seats[2].declaration"]


def test_flop_a_with_every_declaration_passes() -> None:
    request = read_showdown(
        Game.FLOP_A,
        [("ann", ["Ah"], Declaration.BOTH), ("bob", ["2c"], Declaration.LOW)],
        ["Kd"],
    )
    assert [s.declaration for s in request.seats] == [Declaration.BOTH, Declaration.LOW]


# --- every problem at once -------------------------------------------------------------------


def test_every_problem_of_a_hand_is_reported_not_just_the_first() -> None:
    violations = violations_of_hand(
        Game.NUMBERS,
        ["Ah", "Zz", "X1", "ah", "2c", "3c"],
        ["9d", "9s", "2c"],
        [["5c", "5d", "5s"]],
    )
    assert set(fields(violations)) == {
        "hand[1]",  # unknown card
        "hand[2]",  # joker
        "hand[3]",  # duplicate within the hand
        "hand",  # six cards
        "table[1]",  # paired table
        "table[2]",  # duplicate across hand and table
        "table_spreads",  # not Tonk
    }


def test_every_problem_of_a_showdown_is_reported_not_just_the_first() -> None:
    violations = violations_of_showdown(
        Game.FLOP_A,
        [
            ("ann", ["Ah", "Kh", "Qh", "Jh"], Declaration.HIGH),
            ("ann", ["Ah", "?"], None),
            ("cy", ["X2"], Declaration.LOW),
        ],
        ["2c", "2d"],
    )
    assert set(fields(violations)) == {
        "seats[0].hand",  # four cards
        "seats[1].player",  # duplicate id
        "seats[1].hand[0]",  # duplicate card
        "seats[1].hand[1]",  # unknown card
        "seats[1].declaration",  # no declaration
        "seats[2].hand[0]",  # joker
        "table[1]",  # paired table
    }


def _outcome(game: Game, hand: list[str], table: list[str]) -> HandRequest | tuple[Violation, ...]:
    try:
        return read_hand(game, hand, table)
    except InvalidRequest as error:
        return error.violations


@pytest.mark.parametrize("game", list(Game), ids=lambda g: g.value)
@settings(max_examples=60, deadline=None)
@given(
    hand=st.lists(st.integers(0, 53), max_size=11),
    table=st.lists(st.integers(0, 53), max_size=8),
)
def test_canonical_text_reads_as_the_full_checks_read_it(
    game: Game, hand: list[int], table: list[int]
) -> None:
    """Canonical card text may take a shortcut; lower-case text always takes every check."""
    canonical = _outcome(game, [card_text(c) for c in hand], [card_text(c) for c in table])
    lower = _outcome(
        game, [card_text(c).lower() for c in hand], [card_text(c).lower() for c in table]
    )
    assert canonical == lower


# --- options a game does not read ----------------------------------------------------------

OPTION_NAMES = [f.name for f in dataclasses.fields(Options)]


def _only(name: str) -> Options:
    return Options(**{name: True})


@pytest.mark.parametrize("game", list(Game), ids=lambda g: g.value)
@pytest.mark.parametrize("name", OPTION_NAMES)
def test_an_evaluation_refuses_every_option_the_game_does_not_read_in_one(
    game: Game, name: str
) -> None:
    rules = rules_for(game)
    reads = [o for o in rules.options if o not in rules.showdown_options]
    hand, table, spreads = valid(game)
    if name in reads:
        assert read_hand(game, hand, table, spreads, _only(name)).options == _only(name)
        return
    with pytest.raises(InvalidRequest) as error:
        read_hand(game, hand, table, spreads, _only(name))
    (violation,) = error.value.violations
    assert violation.field == f"options.{name}"
    assert violation.message.endswith(
        "reads only: " + ", ".join(reads) if reads else "reads no options"
    )


@pytest.mark.parametrize("game", list(Game), ids=lambda g: g.value)
def test_a_batch_refuses_an_option_the_game_does_not_read(game: Game) -> None:
    rules = rules_for(game)
    unread = [o for o in OPTION_NAMES if o not in rules.options or o in rules.showdown_options]
    hand, table, _ = valid(game)
    for name in unread:
        with pytest.raises(InvalidRequest) as error:
            read_batch(game, bytes(ids(*hand)), len(hand), bytes(ids(*table)), len(table),
                       _only(name), 10)  # fmt: skip
        assert fields(error.value.violations) == [f"options.{name}"]


def test_a_tonk_showdown_reads_texas_and_six_card_tonk_and_an_evaluation_does_not() -> None:
    seats: list[SeatText] = [("ann", ["2c", "3c", "4c"], None), ("bob", ["Kd"], None)]
    for name in ("texas", "six_card_tonk", "hit_runs_only"):
        request = read_showdown(Game.TONK, seats, options=_only(name), ending=TonkEnding.DROP,
                                ender="ann")  # fmt: skip
        assert request.options == _only(name)
    with pytest.raises(InvalidRequest) as error:
        read_hand(Game.TONK, ["2c", "3c", "4c"], options=_only("texas"))
    assert error.value.violations == (
        Violation(
            "options.texas",
            "Tonk reads texas only in a showdown; an evaluation reads only: hit_runs_only",
        ),
    )


def test_a_showdown_of_another_game_refuses_the_tonk_house_rules() -> None:
    seats: list[SeatText] = [("ann", ["Ah", "Kh"], None), ("bob", ["2c", "2d"], None)]
    with pytest.raises(InvalidRequest) as error:
        read_showdown(Game.POKER_HIGH, seats, ["Qh", "Jh", "Th"],
                      options=Options(texas=True, six_card_tonk=True))  # fmt: skip
    assert fields(error.value.violations) == ["options.texas", "options.six_card_tonk"]
    assert "Poker high does not read texas; this game reads no options" in [
        v.message for v in error.value.violations
    ]
